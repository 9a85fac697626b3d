"""Generated code (C through ctypes, stdlib Python, batched numpy) for the derivative and
identification functions against the generic implementation they are unrolled from, to
1e-12 relative; the fixed C signatures of issue 13; the base-parameter manifest; the CLI."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.codegen.compile import load_c, load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from soagen.loaders.random_robots import random_chain
from tests.dynamics.deriv_helpers import random_state
from tests.helpers import rel_err

ROBOTS = Path(__file__).resolve().parents[2] / "robots"
TOL = 1e-12


def reference(robot, name, q, qd, x, bp):
    return {
        "inverse_dynamics_derivatives": lambda: A.inverse_dynamics_derivatives(robot, q, qd, x),
        "forward_dynamics_derivatives": lambda: A.forward_dynamics_derivatives(robot, q, qd, x),
        "coriolis_matrix": lambda: A.coriolis_matrix(robot, q, qd),
        "regressor": lambda: A.regressor(robot, q, qd, x),
        "base_regressor": lambda: A.base_regressor(robot, q, qd, x, base_params=bp),
    }[name]()


DERIVATIVES = ("inverse_dynamics_derivatives", "forward_dynamics_derivatives", "coriolis_matrix", "regressor",
               "base_regressor")
"""The generated functions of docs/derivatives.md (all named-only, as the frame, centroidal and loop ones)."""


def generated(robot, path, tmp, numpy=False, names=DERIVATIVES):
    res = render(robot, path, algorithms=list(names), numpy=numpy)
    write(res, tmp)
    prefix = res.manifest["prefix"]
    py = load_python(Path(tmp) / f"{prefix}.py", f"gen_{prefix}_derivs_{'np' if numpy else 'math'}")
    return res.manifest, load_c(tmp, prefix, res.manifest), py


def check(robot, manifest, lib, py, states=5, seed=0):
    """Every output of every function, C and Python, at random states."""
    bp, rng = A.base_parameters(robot), np.random.default_rng(seed)
    for _ in range(states):
        q, qd, qdd, tau = random_state(robot, rng)
        for name, rec in manifest["functions"].items():
            x = tau if rec["inputs"][-1] == "tau" else qdd
            args = (q, qd, x)[:len(rec["inputs"])]
            want = reference(robot, name, q, qd, x, bp)
            want = want if isinstance(want, tuple) else (want,)
            got_c, got_py = lib(name, *args), py.__dict__[name](*[list(a) for a in args])
            got_c = got_c if isinstance(got_c, tuple) else (got_c,)
            got_py = got_py if isinstance(got_py, tuple) else (got_py,)
            assert len(got_c) == len(got_py) == len(want), name
            for w, c, p in zip(want, got_c, got_py):
                assert rel_err(c, w) < TOL and rel_err(np.array(p, dtype=float), w) < TOL, name


def test_planar2_every_function_and_the_fixed_c_signatures(tmp_path):
    path = ROBOTS / "planar2.yaml"
    robot = soagen.load(path)
    manifest, lib, py = generated(robot, path, tmp_path)
    check(robot, manifest, lib, py)
    h = (tmp_path / "planar2.h").read_text()
    for sig in ("void planar2_inverse_dynamics_derivatives(const double* q, const double* qd, const double* qdd, "
                "double* dtau_dq, double* dtau_dqd);",
                "void planar2_forward_dynamics_derivatives(const double* q, const double* qd, const double* tau, "
                "double* dqdd_dq, double* dqdd_dqd, double* Minv);",
                "void planar2_coriolis_matrix(const double* q, const double* qd, double* C);",
                "void planar2_regressor(const double* q, const double* qd, const double* qdd, double* Y);"):
        assert sig in h
    f = manifest["functions"]
    assert f["forward_dynamics_derivatives"]["more_outputs"] == [["dqdd_dqd", [2, 2]], ["Minv", [2, 2]]]
    assert f["regressor"]["shape"] == [2, 20]
    assert f["base_regressor"]["base_parameters"] == list(A.base_parameters(robot).names)
    assert f["base_regressor"]["regrouping"][0] == "mx1 + m2"


def test_floating_tree_with_quaternions(tmp_path):
    """Free, spherical and prismatic joints (q has nq != nv entries; multi-dof blocks)."""
    robot = random_chain(3, np.random.default_rng(5), parents=[-1, 0, 0], kinds=["free", "spherical", "prismatic"])
    check(robot, *generated(robot, None, tmp_path, names=("inverse_dynamics_derivatives",)), states=3)


def test_batched_numpy_module(tmp_path):
    path = ROBOTS / "planar2.yaml"
    robot = soagen.load(path)
    res = render(robot, path, algorithms=["forward_dynamics_derivatives"], langs=("python",), numpy=True)
    write(res, tmp_path)
    mod = load_python(tmp_path / "planar2.py", "gen_planar2_fdd_np")
    rng = np.random.default_rng(1)
    states = [random_state(robot, rng) for _ in range(4)]
    Q, QD, TAU = (np.array([s[k] for s in states]) for k in (0, 1, 3))
    outs = mod.forward_dynamics_derivatives(Q, QD, TAU)
    for b, (q, qd, _, tau) in enumerate(states):
        for got, want in zip(outs, A.forward_dynamics_derivatives(robot, q, qd, tau)):
            assert got.shape == (4, 2, 2) and rel_err(got[b], want) < TOL


def test_cli_generates_the_named_derivative_functions(tmp_path):
    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--out", str(tmp_path), "-q",
                                 "--algorithms", "coriolis_matrix,regressor"])
    assert r.exit_code == 0, r.output
    assert "coriolis_matrix" in r.output and "regressor" in r.output
    assert "--algorithms coriolis_matrix,regressor" in (tmp_path / "planar2.c").read_text()
    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--out", str(tmp_path / "x"), "-q",
                                 "--algorithms", "hessian"])
    assert r.exit_code == 2 and "unknown algorithm 'hessian'" in r.output and "base_regressor" in r.output
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["puma560", "stanford", "arm7"])
def test_bundled_robots_every_function(name, tmp_path):
    path = ROBOTS / f"{name}.yaml"
    robot = soagen.load(path)
    check(robot, *generated(robot, path, tmp_path))


def test_cli_bench_times_functions_with_several_outputs():
    """The C timing harness passes one buffer per output (three for the FD derivatives)."""
    r = CliRunner().invoke(cli, ["bench", str(ROBOTS / "planar2.yaml"), "-q", "--no-numpy", "--no-pinocchio",
                                 "--repeats", "1", "--iterations", "10", "--no-jax", "--no-torch",
                                 "--algorithms", "forward_dynamics_derivatives,regressor"])
    assert r.exit_code == 0, r.output
    assert "forward_dynamics_derivatives" in r.output and "regressor" in r.output
