"""`soagen generate --batch`: PREFIX_<function>_batch over n states, W at a time on vector
types, equals the scalar function state by state; the vector sin/cos polynomial against
40-digit references.

Every vector path is compiled and run where this machine can: the default (W from the
target, the polynomial sin/cos), libmvec's sin/cos (-DSOAGEN_USE_LIBMVEC, glibc x86-64),
W = 2 (-mno-avx on x86-64), W = 8 forced (-DSOAGEN_WIDTH=8 on x86-64) and the plain C99
loop (-DSOAGEN_NO_VECTOR)."""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

import numpy as np
import pytest

import soagen
from soagen.algorithms import inertial_parameters
from soagen.codegen.compile import CLibrary, compile_shared, compiler
from soagen.codegen.emit import environment, write
from soagen.codegen.records import output_shapes
from soagen.codegen.robot import render
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, batch_states
from tests.support.erd import erd

X86 = platform.machine() in ("x86_64", "AMD64")
CONFIGS = {  # name -> extra compiler flags
    "native": ("-march=native",),
    "libmvec": ("-march=native", "-DSOAGEN_USE_LIBMVEC"),
    "scalar-loop": ("-DSOAGEN_NO_VECTOR",),
    **({"sse2": ("-mno-avx",)} if X86 else {}),
    # W = 8 on any x86-64 target (the 8 x 8 transposes and lane folds; without AVX-512 GCC
    # splits the vectors and warns that their ABI would change, which does not matter here:
    # the vector functions are internal)
    **({"w8": ("-march=native", "-DSOAGEN_WIDTH=8", "-Wno-psabi")} if X86 else {}),
}
TOL = 1e-13


def _states(robot, n, rng):
    return batch_states(robot, (n,), rng)


def _build(tmp, robot, path, algorithms, configs=CONFIGS, **kw):
    from soagen.codegen.registry import DEFAULT

    res = render(robot, path, algorithms=algorithms or DEFAULT, langs=("c",), batch=True, **kw)
    write(res, tmp)
    libs = {}
    for name, flags in configs.items():
        build = Path(tmp) / name
        build.mkdir()
        libs[name] = CLibrary(compile_shared(Path(tmp) / f"{res.manifest['prefix']}.c", build, ("-O1", *flags)),
                              res.manifest)
    return res, libs


def _check(robot, res, libs, extra_inputs=None):
    """Every batch function = the scalar one, state by state, for n = 0, 1, W-1, W, 1000."""
    rng = np.random.default_rng(7)
    for cfg, lib in libs.items():
        W = lib.batch_width()
        for n in sorted({0, 1, max(W - 1, 0), W, 1000}):
            x = _states(robot, n, rng)
            x.update(extra_inputs(n) if extra_inputs else {})
            for name, fn in res.manifest["functions"].items():
                args = [x[a] for a in fn["inputs"]]
                got = _outputs(lib.batch(name, *args))
                assert [g.shape for g in got] == [(n, *shape) for shape in output_shapes(fn)]
                for k in range(n):
                    want = _outputs(lib(name, *[a[k] for a in args]))
                    for g, w in zip(got, want):
                        assert rel_err(g[k], w) <= TOL, (cfg, W, n, name, k, rel_err(g[k], w))


def _outputs(result):
    """The outputs of a call as a tuple (a function with one output returns an array)."""
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.cc
def test_vector_widths_follow_the_target(tmp_path):
    robot = soagen.load(ROBOTS / "planar2.yaml")
    _, libs = _build(tmp_path, robot, ROBOTS / "planar2.yaml", ["jacobian"])
    assert libs["scalar-loop"].batch_width() == 1
    assert libs["native"].batch_width() in (2, 4, 8)
    if X86:
        assert libs["sse2"].batch_width() == 2
        flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
        if " avx512f" in flags:
            assert libs["native"].batch_width() == 8
        elif " avx " in flags:
            assert libs["native"].batch_width() == 4


@pytest.mark.cc
def test_batch_equals_scalar_puma(tmp_path):
    """PUMA 560: inverse and forward dynamics, mass matrix, Jacobian, every vector path."""
    robot = soagen.load(ROBOTS / "puma560.yaml")
    res, libs = _build(tmp_path, robot, ROBOTS / "puma560.yaml",
                       ["inverse_dynamics", "mass_matrix", "forward_dynamics", "jacobian"], fd_variant="fd3")
    _check(robot, res, libs)


@pytest.mark.cc
def test_batch_angles_beyond_the_polynomial(tmp_path):
    """Angles beyond 2^19 pi/2 in some lanes (libm's sin and cos for those lanes, tested
    once over all of a kernel's angles): the batch still equals the scalar function."""
    robot = soagen.load(ROBOTS / "puma560.yaml")
    res, libs = _build(tmp_path, robot, ROBOTS / "puma560.yaml", ["inverse_dynamics", "jacobian"])
    rng = np.random.default_rng(11)

    def large_angles(n):
        q = _states(robot, n, rng)["q"]
        q[::3, 1] = 1e6 + np.arange(len(q[::3]))
        q[1::5, 4] = -3e7
        return {"q": q}
    _check(robot, res, libs, large_angles)


@pytest.mark.cc
def test_batch_with_several_outputs(tmp_path):
    """Functions with several outputs (the derivatives of inverse and forward dynamics):
    each output n x its shape, every batch equal to the scalar function."""
    robot = soagen.load(ROBOTS / "planar2.yaml")
    res, libs = _build(tmp_path, robot, ROBOTS / "planar2.yaml",
                       ["inverse_dynamics_derivatives", "forward_dynamics_derivatives"],
                       configs={k: CONFIGS[k] for k in ("native", "scalar-loop")})
    assert "double* dqdd_dq, double* dqdd_dqd, double* Minv);" in res.files["planar2.h"]
    _check(robot, res, libs)


@pytest.mark.cc
def test_batch_with_link_parameters_as_inputs(tmp_path):
    """--symbolic-params: params is one more input of NPARAMS per state."""
    robot = soagen.load(ROBOTS / "planar2.yaml")
    res, libs = _build(tmp_path, robot, ROBOTS / "planar2.yaml", ["inverse_dynamics", "inverse_mass_matrix"],
                       configs={"native": CONFIGS["native"]}, symbolic_params=True)
    pi = inertial_parameters(robot)
    rng = np.random.default_rng(3)          # each body's density scaled: physical parameters
    _check(robot, res, libs, lambda n: {"params": pi * np.repeat(rng.uniform(0.5, 1.5, size=(n, robot.nb)), 10, axis=1)})


@pytest.mark.cc
def test_batch_matches_the_generic_reference(tmp_path):
    """The batch kernels against the numpy reference too (not only the scalar C)."""
    from tests.support.codegen import reference

    robot = soagen.load(ROBOTS / "planar2.yaml")
    res, libs = _build(tmp_path, robot, ROBOTS / "planar2.yaml", None, configs={"native": CONFIGS["native"]})
    x = _states(robot, 13, np.random.default_rng(1))
    for name, fn in res.manifest["functions"].items():
        got = libs["native"].batch(name, *[x[a] for a in fn["inputs"]])
        for k in range(13):
            want = reference(robot, name, {a: v[k] for a, v in x.items()})
            assert rel_err(got[k], want) <= 1e-12, (name, k)


def test_batch_is_deterministic_and_only_adds(tmp_path):
    """--batch adds the _batch functions; the scalar part of the file is unchanged."""
    robot = soagen.load(ROBOTS / "planar2.yaml")
    plain = render(robot, ROBOTS / "planar2.yaml", algorithms=["mass_matrix"], langs=("c",), prefix="p")
    a = render(robot, ROBOTS / "planar2.yaml", algorithms=["mass_matrix"], langs=("c",), prefix="p", batch=True)
    b = render(robot, ROBOTS / "planar2.yaml", algorithms=["mass_matrix"], langs=("c",), prefix="p", batch=True)
    assert a.files == b.files
    scalar = plain.files["p.c"].split("\n", 2)[2]          # past the regenerate command line
    assert scalar.rstrip("\n") in a.files["p.c"]
    assert "void p_mass_matrix_batch(size_t n, const double* q, double* M);" in a.files["p.h"]
    assert "--batch" in a.files["p.c"].splitlines()[1]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ur5", "stanford", "panda_floating"])
@pytest.mark.cc
def test_batch_equals_scalar_every_function(tmp_path, name):
    """All functions: UR5 (URDF), Stanford (prismatic), Panda on a free-flyer (quaternions)."""
    if name == "stanford":
        path, kw = ROBOTS / "stanford.yaml", {}
    else:
        rel_path = "ur_description/urdf/ur5_robot.urdf" if name == "ur5" else "panda_description/urdf/panda.urdf"
        path = erd(rel_path)
        if path is None:
            pytest.skip("example-robot-data not installed")
        kw = {"floating_base": True, "tip": "panda_hand"} if name == "panda_floating" else {}
    robot = soagen.load(path, **kw)
    res, libs = _build(tmp_path, robot, path, None, configs={k: CONFIGS[k] for k in ("native", "libmvec")})
    _check(robot, res, libs)


@pytest.mark.cc
def test_scalar_functions_take_all_sin_cos_in_one_call(tmp_path):
    """The scalar C computes the sin and cos of all its angles with one soagen_sincos call
    (no libm sin/cos left in the function bodies); compiled with the polynomial, with
    libmvec and as plain C99 (libm, W = 1) the scalar functions agree to 1e-13, and with
    the generic reference to 1e-12."""
    from tests.support.codegen import reference

    path = ROBOTS / "puma560.yaml"
    robot = soagen.load(path)
    names = ["inverse_dynamics", "mass_matrix", "jacobian_dot_qd"]
    res, libs = _build(tmp_path, robot, path, names, configs={k: CONFIGS[k] for k in ("native", "libmvec",
                                                                                      "scalar-loop")})
    text = res.files["puma560.c"]
    for name in names:
        body = text.split(f"void puma560_{name}(", 1)[1].split("\n}\n", 1)[0]
        assert body.count("soagen_sincos(soagen_x, soagen_s, soagen_c, ") == 1
        rest = body.replace("soagen_sincos(", "")
        assert "sin(" not in rest and "cos(" not in rest
    assert "const double soagen_x[6] = { q[0], q[1], q[2], q[3], q[4], q[5] };" in text    # Jdot qd: 6 angles
    x = _states(robot, 20, np.random.default_rng(4))
    for name, fn in res.manifest["functions"].items():
        for k in range(20):
            args = [x[a][k] for a in fn["inputs"]]
            outs = {cfg: lib(name, *args) for cfg, lib in libs.items()}
            for cfg, got in outs.items():
                assert rel_err(got, outs["scalar-loop"]) <= TOL, (name, cfg)
            assert rel_err(outs["native"], reference(robot, name, {a: v[k] for a, v in x.items()})) <= 1e-12


# -- the vector sin/cos ---------------------------------------------------------------------

HARNESS = """#include <math.h>
#include <stdio.h>
#include <stdlib.h>
{prelude}
int main(int argc, char** argv)
{{
    if (argc < 2) return 2;
    int n = atoi(argv[1]);
    double* x = malloc(sizeof(double) * (size_t)n);
    double* o = malloc(sizeof(double) * 2 * (size_t)n);
    if (fread(x, sizeof(double), (size_t)n, stdin) != (size_t)n) return 1;
    for (int i = 0; i + SOAGEN_W <= n; i += SOAGEN_W) {{
        soagen_vd v = SOAGEN_SPLAT(0.0), s, c;
        for (int l = 0; l < SOAGEN_W; l++) v[l] = x[i + l];
        s = soagen_vsin(v);
        c = soagen_vcos(v);
        for (int l = 0; l < SOAGEN_W; l++) {{ o[2 * (i + l)] = s[l]; o[2 * (i + l) + 1] = c[l]; }}
    }}
    fwrite(o, sizeof(double), 2 * (size_t)n, stdout);
    printf("%d %d\\n", SOAGEN_W, SOAGEN_LIBMVEC);
    return 0;
}}
"""


def _sincos_program(tmp, flags=()):
    """The polynomial vector sin/cos of the batch code, compiled into a small program."""
    src = tmp / "sincos.c"
    src.write_text(HARNESS.format(prelude=environment().get_template("c/_vector.c.j2").render()))
    exe = tmp / "sincos"
    subprocess.run([compiler(), "-O2", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags,
                    "-o", str(exe), str(src), "-lm"], check=True)

    def run(x):
        x = np.ascontiguousarray(x, dtype=float)
        p = subprocess.run([str(exe), str(len(x))], input=x.tobytes(), capture_output=True, check=True)
        sc = np.frombuffer(p.stdout[:16 * len(x)], dtype=float).reshape(-1, 2)
        W, libmvec = map(int, p.stdout[16 * len(x):].split())
        assert libmvec == 0
        return sc[:, 0], sc[:, 1], W
    return run


@pytest.fixture(scope="module")
def polynomial_sincos(tmp_path_factory):
    return _sincos_program(tmp_path_factory.mktemp("sincos"))


@pytest.mark.cc
def test_polynomial_sincos_error_bound(polynomial_sincos):
    """The stated bound: at most 2.5 ulp and 2.2e-16 absolute for |x| <= 1e5 (measured on
    150,000 angles: 2.29 ulp, 1.9e-16), checked against mpmath at 40 digits on angles of every scale and next to
    every multiple of pi/2 up to 2000 (where the reduction cancels)."""
    mp = pytest.importorskip("mpmath", reason="mpmath (a SymPy dependency) gives the reference")
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-np.pi, np.pi, 2400), rng.uniform(-100, 100, 800),
                        rng.uniform(-1e5, 1e5, 800), 10 ** rng.uniform(-300, 0, 400) * rng.choice([-1, 1], 400),
                        np.nextafter(np.arange(-2000, 2000, 5) * np.pi / 2, np.inf)])
    x = x[:len(x) // 8 * 8]
    s, c, _ = polynomial_sincos(x)
    mp.mp.dps = 40
    worst_ulp = worst_abs = 0.0
    for xi, si, ci in zip(x, s, c):
        for got, ref in ((si, mp.sin(mp.mpf(float(xi)))), (ci, mp.cos(mp.mpf(float(xi))))):
            err = float(abs(mp.mpf(float(got)) - ref))
            worst_abs = max(worst_abs, err)
            worst_ulp = max(worst_ulp, err / float(np.spacing(abs(float(ref)))) if ref != 0 else 0.0)
    assert worst_ulp <= 2.5 and worst_abs <= 2.2e-16, (worst_ulp, worst_abs)


@pytest.mark.cc
@pytest.mark.parametrize("flags", [(), ("-march=native",), ("-DSOAGEN_WIDTH=8", "-Wno-psabi")],
                         ids=["default", "native", "w8"])
def test_polynomial_sincos_large_and_special_lanes(tmp_path, flags):
    """Beyond 2^19 pi/2 a lane takes libm's sin/cos; inf and nan give nan; the lanes of one
    vector do not disturb each other (W = 2, 4 or 8: the test of all lanes at once)."""
    if flags and not X86:
        pytest.skip("the W = 4 / 8 builds are checked on x86-64")
    x = np.array([0.5, 1e6, -3e7, 1e300, np.inf, -np.inf, np.nan, -0.0, 0.25, 0.5, -1.0, 2.0, 3.0, -4.0, 1e-9,
                  823549.6, -823549.6, 823549.7, 0.1, 0.2, 0.3, 0.4, 0.5, -np.nan])
    s, c, _ = _sincos_program(tmp_path, flags)(x)
    finite = np.isfinite(x)
    np.testing.assert_allclose(s[finite], np.sin(x[finite]), rtol=0, atol=2.3e-16)
    np.testing.assert_allclose(c[finite], np.cos(x[finite]), rtol=0, atol=2.3e-16)
    assert np.all(np.isnan(s[~finite])) and np.all(np.isnan(c[~finite]))
    assert s[7] == 0.0 and c[7] == 1.0


@pytest.mark.cc
@pytest.mark.parametrize("flags, W, SW", [
    (("-march=x86-64-v4",), 8, 4), (("-march=x86-64-v3",), 4, 4), (("-mno-avx",), 2, 2),
    (("-march=x86-64-v4", "-DSOAGEN_WIDTH=8"), 8, 8), (("-march=x86-64-v4", "-DSOAGEN_WIDTH=4"), 4, 4),
    (("-march=x86-64-v3", "-DSOAGEN_WIDTH=8"), 8, 8), (("-DSOAGEN_NO_VECTOR",), 1, 1)],
    ids=["avx512", "avx2", "sse2", "avx512-w8", "avx512-w4", "avx2-w8", "no-vector"])
def test_lane_widths(tmp_path, flags, W, SW):
    """The widths the prelude chooses (preprocessor only: any x86-64 compiler can check
    them): the batch W from the target, the scalar call's SW = min(W, 4) (8 lanes measured
    slower there, docs/codegen.md), both forced by -DSOAGEN_WIDTH."""
    if not X86:
        pytest.skip("x86-64 targets")
    src = tmp_path / "w.c"
    src.write_text("#include <math.h>\n" + environment().get_template("c/_vector.c.j2").render()
                   + f"_Static_assert(SOAGEN_W == {W} && SOAGEN_SW == {SW}, \"widths\");\n")
    r = subprocess.run([compiler(), "-std=c11", "-fsyntax-only", "-Wno-psabi", *flags, str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]


def test_cli_generate_batch(tmp_path):
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--lang", "c", "--batch",
                                 "--algorithms", "inverse_dynamics", "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    h = (tmp_path / "planar2.h").read_text()
    assert ("void planar2_inverse_dynamics_batch(size_t n, const double* q, const double* qd, "
            "const double* qdd, double* tau);") in h and "int planar2_batch_width(void);" in h
    assert "--batch" in (tmp_path / "planar2.c").read_text().splitlines()[1]
