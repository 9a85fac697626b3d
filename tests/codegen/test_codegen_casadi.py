"""`soagen generate --lang casadi`: the straight-line program as CasADi SX Functions.

Three checks: the CasADi Functions give the numbers of the generated C (same program, so
to 1e-13) and of the generic numpy reference; CasADi's own AD of them gives what soagen
generated separately (d tau/d qdd = M, d qdd/d tau = M^-1, and the generated derivative
functions, an AD nobody here wrote against soagen's analytic derivatives); C that
CasADi generates from them, compiled and loaded back with ``casadi.external``, gives
the same numbers again."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen.codegen.compile import compiler, load_c, load_python, run_logged
from soagen.codegen.emit import write
from soagen.codegen.registry import DEFAULT, NAMED, OF_SEVERAL_FRAMES
from soagen.codegen.robot import render
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, random_states, reference
from tests.support.erd import erd

# The CasADi Function and the C evaluate the same straight-line statements in the same
# order (CasADi's sq(x) is x*x, as the C prints it), so they differ at most by a few
# roundings of libm's sin/cos and of reassociation inside CasADi's virtual machine.
SAME_PROGRAM = 1e-13
# Against the generic numpy reference, as every generated language (docs/codegen.md).
REFERENCE = 1e-12
# CasADi's forward-mode AD of the generated forward dynamics against soagen's generated
# derivatives (different operation sequences of the same derivative): M^-1 amplifies
# round-off by its condition number (~1e3 for these robots).
AD = 1e-10


def _casadi():
    return pytest.importorskip("casadi", reason="the CasADi output is tested where casadi is installed (test extra)")


def _generate(tmp_path, name, robot, path, algorithms, langs=("casadi", "c"), **kw):
    res = render(robot, path, algorithms=algorithms, langs=langs, prefix=name, fd_variant="fd3", **kw)
    write(res, tmp_path)
    return res.manifest, load_python(tmp_path / f"{name}_casadi.py", f"gen_{name}_casadi")


def _call(fn, *args):
    """A CasADi Function on numbers: its outputs as dense numpy arrays (one or a tuple)."""
    out = fn(*args)
    out = out if isinstance(out, (list, tuple)) else [out]
    return [np.asarray(o.full()) for o in out]


def _agree_with_c(robot, manifest, mod, lib, states=5):
    for args in random_states(robot, states):
        for name, rec in manifest["functions"].items():
            inputs = [args[a] for a in rec["inputs"]]
            got = _call(getattr(mod, name), *inputs)
            want = lib(name, *inputs)
            want = want if isinstance(want, tuple) else (want,)
            for g, w in zip(got, want, strict=True):
                assert rel_err(g.reshape(w.shape), w) <= SAME_PROGRAM, (robot.name, name)
            if name in DEFAULT:
                ref = reference(robot, name, args)
                assert rel_err(got[0].reshape(ref.shape), ref) <= REFERENCE, (robot.name, name)


@pytest.mark.cc
def test_casadi_matches_the_c_and_the_reference(tmp_path):
    """PUMA 560, the eight default functions; planar2 with every derivative function and
    the link parameters as inputs."""
    _casadi()
    robot = soagen.load(ROBOTS / "puma560.yaml")
    manifest, mod = _generate(tmp_path, "puma", robot, ROBOTS / "puma560.yaml", DEFAULT)
    _agree_with_c(robot, manifest, mod, load_c(tmp_path, "puma", manifest))
    single = [a for a in DEFAULT if a not in OF_SEVERAL_FRAMES]        # one frame: the tip
    assert mod.NQ == robot.nq and set(mod.__all__) == {"NQ", "NV", *single}
    assert mod.jacobian.name() == "puma_jacobian" and mod.jacobian.name_in() == ["q"]
    with pytest.raises(AttributeError, match="no attribute 'mass'"):
        mod.mass

    planar = soagen.load(ROBOTS / "planar2.yaml")
    manifest, mod = _generate(tmp_path, "pl", planar, ROBOTS / "planar2.yaml",
                              ["inverse_dynamics", *NAMED], symbolic_params=False)
    _agree_with_c(planar, manifest, mod, load_c(tmp_path, "pl", manifest))
    manifest, mod = _generate(tmp_path, "plp", planar, ROBOTS / "planar2.yaml", ["mass_matrix"],
                              symbolic_params=True)
    params = np.random.default_rng(3).uniform(0.5, 2.0, mod.NPARAMS)
    q = planar.random_configuration(np.random.default_rng(4))
    want = load_c(tmp_path, "plp", manifest)("mass_matrix", q, params)
    assert rel_err(_call(mod.mass_matrix, q, params)[0], want) <= SAME_PROGRAM


@pytest.mark.slow
@pytest.mark.cc
@pytest.mark.parametrize("rel, tip", [("ur_description/urdf/ur5_robot.urdf", None),
                                      ("panda_description/urdf/panda.urdf", "panda_hand")])
def test_casadi_matches_the_c_on_example_robot_data(tmp_path, rel, tip):
    """UR5 and the Panda (fingers included), every function."""
    _casadi()
    path = erd(rel) or pytest.skip("example-robot-data is not installed (test extra)")
    robot = soagen.load(path, tip=tip)
    manifest, mod = _generate(tmp_path, "r", robot, path, [*DEFAULT, *NAMED])
    _agree_with_c(robot, manifest, mod, load_c(tmp_path, "r", manifest), states=3)


def test_casadi_ad_gives_the_generated_derivatives(tmp_path):
    """d tau/d qdd of inverse dynamics is the generated M, d qdd/d tau of forward dynamics
    the generated M^-1, and CasADi's jacobians of forward dynamics with respect to q and qd
    are soagen's generated forward-dynamics derivatives (PUMA 560)."""
    ca = _casadi()
    robot = soagen.load(ROBOTS / "puma560.yaml")
    _, mod = _generate(tmp_path, "puma", robot, ROBOTS / "puma560.yaml",
                       ["inverse_dynamics", "mass_matrix", "forward_dynamics", "forward_dynamics_derivatives"],
                       langs=("casadi",))
    q, qd, x = ca.SX.sym("q", robot.nq), ca.SX.sym("qd", robot.nv), ca.SX.sym("x", robot.nv)
    tau, qdd = mod.inverse_dynamics(q, qd, x), mod.forward_dynamics(q, qd, x)
    ad = ca.Function("ad", [q, qd, x], [ca.jacobian(tau, x), ca.jacobian(qdd, x), ca.jacobian(qdd, q),
                                        ca.jacobian(qdd, qd)])
    for args in random_states(robot, 3):
        dtau_dqdd, dqdd_dtau, dqdd_dq, dqdd_dqd = _call(ad, args["q"], args["qd"], args["tau"])
        M = _call(mod.mass_matrix, args["q"])[0]
        want_dq, want_dqd, Minv = _call(mod.forward_dynamics_derivatives, args["q"], args["qd"], args["tau"])
        assert rel_err(dtau_dqdd, M) <= SAME_PROGRAM
        assert rel_err(dqdd_dtau, Minv) <= AD
        assert rel_err(dqdd_dq, want_dq) <= AD
        assert rel_err(dqdd_dqd, want_dqd) <= AD


@pytest.mark.cc
def test_casadi_code_generation_of_the_generated_function(tmp_path, monkeypatch):
    """CasADi generates C from the generated forward dynamics; compiled and loaded back
    (casadi.external), it gives the Function's numbers."""
    ca = _casadi()
    robot = soagen.load(ROBOTS / "puma560.yaml")
    _, mod = _generate(tmp_path, "puma", robot, ROBOTS / "puma560.yaml", ["forward_dynamics"], langs=("casadi",))
    monkeypatch.chdir(tmp_path)                   # CasADi writes into the working directory
    source = tmp_path / "puma_fd.c"
    mod.forward_dynamics.generate(source.name)
    assert source.is_file()
    lib = tmp_path / "libpuma_fd.so"
    run_logged([compiler(), "-O2", "-shared", "-fPIC", "-o", str(lib), source.name, "-lm"], "compiling CasADi's C")
    ext = ca.external("puma_forward_dynamics", str(lib))
    for args in random_states(robot, 3):
        inputs = (args["q"], args["qd"], args["tau"])
        assert rel_err(_call(ext, *inputs)[0], _call(mod.forward_dynamics, *inputs)[0]) <= SAME_PROGRAM


def test_cli_lang_casadi(tmp_path):
    """`soagen generate ROBOT --lang casadi` writes the module and the manifest only."""
    from soagen.cli.main import cli

    out = tmp_path / "out"
    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--lang", "casadi", "--out", str(out),
                                 "--name", "pl", "--algorithms", "mass_matrix", "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["pl_casadi.py", "pl_manifest.json"]
    text = (out / "pl_casadi.py").read_text()
    assert "import casadi as ca" in text and "ca.Function(\"pl_mass_matrix\", [q], [M]" in text
    assert "--lang casadi" in text


def _docs_example():
    """The Python block of docs/casadi.md that follows the marker comment."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "casadi.md").read_text()
    after = text.split("<!-- the code block below is executed by tests/codegen/test_codegen_casadi.py -->", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_docs_mpc_example(tmp_path, monkeypatch, capsys):
    """The MPC example of docs/casadi.md runs as written on the generated UR5 forward
    dynamics; the solver's last trajectory is the generic numpy forward dynamics (not the
    generated code) integrated with the same RK4 from the solver's torques, and the arm
    moved toward the goal."""
    _casadi()
    from soagen import algorithms as A

    path = erd("ur_description/urdf/ur5_robot.urdf") or pytest.skip("example-robot-data is not installed (test extra)")
    robot = soagen.load(path)
    write(render(robot, path, algorithms=["forward_dynamics"], langs=("casadi",), prefix="ur5"), tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "ur5_casadi", raising=False)
    ns = {}
    exec(compile(_docs_example(), "docs/casadi.md", "exec"), ns)
    sys.modules.pop("ur5_casadi", None)
    assert len(capsys.readouterr().out.splitlines()) == 5
    sol, N, dt, nv = ns["sol"], ns["N"], ns["dt"], ns["nv"]
    assert sol.stats()["success"]
    X, U = sol.value(ns["X"]), sol.value(ns["U"])

    def ode(x, tau):
        return np.concatenate([x[nv:], A.forward_dynamics(robot, x[:nv], x[nv:], tau)])

    x = X[:, 0]
    for k in range(N):
        k1 = ode(x, U[:, k])
        k2 = ode(x + dt / 2 * k1, U[:, k])
        k3 = ode(x + dt / 2 * k2, U[:, k])
        k4 = ode(x + dt * k3, U[:, k])
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        # Ipopt stops at a constraint violation below its tol, 1e-8 (observed: 1.4e-10)
        assert rel_err(X[:, k + 1], x) <= 1e-8, k
    assert np.all(np.abs(U) <= ns["tau_max"][:, None] + 1e-6)
    q_goal, q_now = ns["q_goal"], ns["x_now"][:nv]
    assert np.linalg.norm(q_now - q_goal) < 0.5 * np.linalg.norm(q_goal)


@pytest.mark.cc
def test_casadi_of_a_flexible_robot(tmp_path):
    """flexbeam (a beam with 4 modes and foreshortening): the modal coordinates are part of
    q in the CasADi Functions as in the C, and both agree with the generic recursions."""
    _casadi()
    robot = soagen.load(ROBOTS / "flexbeam.yaml")
    algorithms = ["inverse_dynamics", "mass_matrix", "forward_dynamics", "jacobian"]
    manifest, mod = _generate(tmp_path, "fb", robot, ROBOTS / "flexbeam.yaml", algorithms)
    assert mod.NQ == robot.nq == 5
    _agree_with_c(robot, manifest, mod, load_c(tmp_path, "fb", manifest), states=3)
