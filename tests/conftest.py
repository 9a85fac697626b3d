"""Shared pytest configuration.

`--runslow` runs the tests marked `slow` (long symbolic proofs for larger N, long
numeric sweeps); without it they are skipped with a reason, so the default suite stays
within a few minutes on two cores. Tests marked `cc` compile generated C; without a C
compiler they are skipped with a reason.
"""

import os
import sys
from pathlib import Path

# The matrices in these tests are small (at most a few hundred rows); BLAS threads only
# contend for the two cores of a CI machine (measured: the N = 50 operator checks ran
# 5-8x slower with the default thread count). Must happen before numpy is imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _import_installed():
    """``SOAGEN_TEST_INSTALLED=1``: the tests run against the installed soagen (a wheel in
    site-packages), not this checkout. pytest puts the checkout first on the path (the
    ``pythonpath`` setting, and ``python -m`` adds the current directory), so soagen is
    imported here, before any test module, from site-packages itself (a usage error when
    it is not there: an editable install does not count); every later ``import soagen...``
    resolves inside that package. Child Pythons that the tests start get PYTHONSAFEPATH=1,
    so a current directory inside the checkout does not shadow it either
    (tests/support/installed.py:child_env gives them the same soagen)."""
    import importlib.machinery
    import importlib.util
    import sysconfig

    if "soagen" in sys.modules:
        raise pytest.UsageError("SOAGEN_TEST_INSTALLED=1: soagen was imported before tests/conftest.py")
    site = sorted({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})
    spec = importlib.machinery.PathFinder.find_spec("soagen", site)
    if spec is None or spec.origin is None or Path(spec.origin).resolve().parent == ROOT / "soagen":
        raise pytest.UsageError(f"SOAGEN_TEST_INSTALLED=1, but no installed soagen in {', '.join(site)}")
    soagen = importlib.util.module_from_spec(spec)
    sys.modules["soagen"] = soagen
    spec.loader.exec_module(soagen)
    os.environ["PYTHONSAFEPATH"] = "1"


INSTALLED = os.environ.get("SOAGEN_TEST_INSTALLED") == "1"
if INSTALLED:
    _import_installed()


def pytest_report_header(config):
    import soagen

    return f"soagen {'installed' if INSTALLED else 'source'}: {Path(soagen.__file__).parent}"


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (full symbolic catalogue, large N)")


def _no_compiler():
    """Why generated C cannot be compiled here, or None."""
    from soagen.codegen.compile import compiler
    from soagen.errors import SoagenError

    try:
        compiler()
    except SoagenError as err:
        return str(err)
    return None


def pytest_collection_modifyitems(config, items):
    why = _no_compiler() if any("cc" in item.keywords for item in items) else None
    if why:
        skip_cc = pytest.mark.skip(reason=f"needs a C compiler: {why}")
        for item in items:
            if "cc" in item.keywords:
                item.add_marker(skip_cc)
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory):
    """soagen built as a wheel and installed into a fresh target directory (built once
    per session): the folder to put on PYTHONPATH to run the installed copy."""
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    pytest.importorskip("hatchling", reason="building the wheel needs hatchling (pip install hatchling)")
    tmp = tmp_path_factory.mktemp("wheel")
    dist, site = tmp / "dist", tmp / "site"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "-w", str(dist), str(Path(__file__).resolve().parents[1])], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next(dist.glob("soagen-*.whl"))
    inst = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(site),
                           str(wheel)], capture_output=True, text=True)
    assert inst.returncode == 0, inst.stderr[-2000:]
    return site, zipfile.ZipFile(wheel).namelist()


@pytest.fixture(scope="session", autouse=True)
def compiled_code_cache(tmp_path_factory):
    """Code that `soagen simulate --backend generated` generates and compiles is cached in
    a scratch folder of the session, not in the user's ~/.cache/soagen."""
    os.environ["SOAGEN_CACHE"] = str(tmp_path_factory.mktemp("soagen-cache"))
    return os.environ["SOAGEN_CACHE"]
