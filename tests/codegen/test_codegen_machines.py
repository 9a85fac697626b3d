"""The same bytes on every machine: generated/ regenerated in a child process that runs
as another machine would, byte for byte against the checked-in files.

A machine differs in the BLAS kernel that OpenBLAS picks for its CPU (numpy's wheels are
built with every kernel; ``OPENBLAS_CORETYPE`` chooses one), in the C library's sin and
cos (glibc has FMA and non-FMA variants; ``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA``
makes it pick the ones of a CPU without FMA) and in the thread count. Before the folding
of soagen.reproducible, Prescott and Sandybridge gave arm7 other last digits in its
inertias, and SkylakeX the flexible robots other constants and operation counts.

The default run regenerates one rigid robot (arm7, fixed links merged) and one flexible
(flexbeam, its modal analysis) as an old CPU without FMA would (Prescott's kernel, libm
without FMA); ``--runslow`` every bundled robot and system under every kernel this CPU can
run, and with two BLAS threads."""

import platform
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.codegen import ROBOTS
from tests.support.installed import child_env

GENERATED = ROBOTS.parent / "generated"
NO_FMA_LIBM = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA"}
KERNEL_NEEDS = {"Prescott": "pni", "Sandybridge": "avx", "Haswell": "fma", "SkylakeX": "avx512f"}

CHILD = """
import sys
from pathlib import Path
import soagen
from soagen.codegen.closed_chain import render as render_system
from soagen.codegen.robot import render
robots, generated = Path(sys.argv[1]), Path(sys.argv[2])
for name in sys.argv[3:]:
    path = robots / f"{name}.yaml"
    if name.startswith("systems/"):
        files = render_system(soagen.load_system(path), path, prefix=name.split("/")[1]).files
    else:
        files = render(soagen.load(path), path, prefix=name).files
    for fname, text in sorted(files.items()):
        old = (generated / name / fname).read_text(encoding="utf-8")
        if old != text:
            line = next(i for i, (a, b) in enumerate(zip(old.splitlines() + [""], text.splitlines() + [""])) if a != b)
            print(f"{name}/{fname} line {line + 1}: {text.splitlines()[line][:160] if line < len(text.splitlines()) else '<end>'}")
"""


def _cpu_flags():
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    return set(next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), []))


def _kernels():
    """The OpenBLAS kernels this CPU can run (x86-64 Linux)."""
    flags = _cpu_flags()
    return [k for k, flag in KERNEL_NEEDS.items() if flag in flags] if flags else []


X86_LINUX = platform.machine() in ("x86_64", "AMD64") and sys.platform.startswith("linux")
needs_x86 = pytest.mark.skipif(not X86_LINUX, reason="OPENBLAS_CORETYPE and glibc's hwcaps name x86-64 CPUs on Linux")


def _regenerate_as(env, names):
    """The files of ``names`` that a child with ``env`` regenerates differently (one line each)."""
    run = subprocess.run([sys.executable, "-c", CHILD, str(ROBOTS), str(GENERATED), *names], capture_output=True,
                         text=True, env=child_env(**env), cwd=ROBOTS.parent)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.splitlines()


def _everything():
    return sorted(p.stem for p in ROBOTS.glob("*.yaml")) + \
        sorted(f"systems/{p.stem}" for p in (ROBOTS / "systems").glob("*.yaml"))


@needs_x86
def test_same_bytes_on_a_cpu_without_fma():
    assert _regenerate_as({"OPENBLAS_CORETYPE": "Prescott", **NO_FMA_LIBM}, ["arm7", "flexbeam"]) == []


@needs_x86
@pytest.mark.slow
@pytest.mark.parametrize("kernel", list(KERNEL_NEEDS))
def test_same_bytes_under_every_blas_kernel(kernel):
    if kernel not in _kernels():
        pytest.skip(f"this CPU cannot run OpenBLAS's {kernel} kernel (needs the CPU flag {KERNEL_NEEDS[kernel]})")
    env = {"OPENBLAS_CORETYPE": kernel, **(NO_FMA_LIBM if KERNEL_NEEDS[kernel] in ("pni", "avx") else {})}
    assert _regenerate_as(env, _everything()) == []


@pytest.mark.slow
def test_same_bytes_with_two_blas_threads():
    env = {k: "2" for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    assert _regenerate_as(env, _everything()) == []


def test_detects_other_bytes(tmp_path, monkeypatch):
    """The check can fail: a copy of generated/arm7 with one constant's last digit changed."""
    import shutil

    copy = tmp_path / "generated"
    shutil.copytree(GENERATED / "arm7", copy / "arm7")
    c = copy / "arm7" / "arm7.c"
    text = c.read_text()
    c.write_text(text.replace("1.495522*", "1.4955219999999998*"))
    assert c.read_text() != text
    monkeypatch.setattr(sys.modules[__name__], "GENERATED", copy)
    assert [line.split(" line ")[0] for line in _regenerate_as({}, ["arm7"])] == ["arm7/arm7.c"]
