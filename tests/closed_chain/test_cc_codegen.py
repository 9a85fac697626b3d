"""Generated closed-chain forward dynamics, any grasp types.

* The function that is unrolled (Lilly-Orin Table 1 on a backend), run on numpy, against
  the dense reference: bundled systems at closed states, random systems with every grasp
  type at arbitrary states (the same equations hold at any state).
* The checked-in generated/systems/ code (Python, and C compiled here) against the dense
  reference: default run, no unrolling needed.
* Fresh generation through the CLI for a system with revolute, soft-finger and general
  grasps (object state as input), Python and C; random geometry with every grasp type
  (slow).
The regenerate-and-diff check of generated/systems/ is in
tests/codegen/test_codegen_generated.py (slow)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import soagen
import soagen.closed_chain as cc
from soagen.backend import NUMPY
from soagen.closed_chain.context import Context
from soagen.codegen.closed_chain import (
    closed_chain_fd,
    closure_constraints,
    constraint_count,
    gravity_torques,
    render,
)
from soagen.dynamics.kinematics import link_transforms, world_poses
from soagen.loaders.random_systems import random_system
from soagen.spatial import quaternion_from_rotation, rotation_exp
from tests.support.accuracy import rel_err
from tests.support.systems import ROOT, SYSTEMS, system_doc, write_system

GENERATED = ROOT / "generated" / "systems"


def _flat(r):
    return np.concatenate([r.qdd_all, r.alpha_C, r.f0.reshape(-1)])


def _inputs(s, q, qd, tau, pose=None, twist=None, corr=None):
    """Arguments of the generated function (q, qd, tau, obj, corr) and the matching dense
    reference; ``corr`` per grasp (None: zeros)."""
    ctx = Context(s, q, qd, tau, pose, twist)
    ref = _flat(cc.forward_dynamics(s, q, qd, tau, "dense", (ctx.R_C, ctx.p_C), ctx.V_C, correction=corr))
    flat = np.zeros(constraint_count(s)) if corr is None else np.concatenate(corr)
    return [q, qd, tau, np.concatenate([quaternion_from_rotation(ctx.R_C), ctx.V_C]), flat], ref


def _mixed(rng):
    k = rng.choice(["rigid", "revolute", "soft_finger", "spherical", "general"])
    if k == "revolute":
        return {"type": k, "axis": rng.normal(size=3)}
    if k == "soft_finger":
        return {"type": k, "normal": rng.normal(size=3)}
    if k == "general":
        return {"type": k, "motion": rng.normal(size=(6, 2))}
    return {"type": str(k)}


def _random(seed, l=3, N=6, grasp=_mixed):
    """A random system and a random (not closed) state with a given object pose/twist."""
    rng = np.random.default_rng(seed)
    s = random_system(l, N, rng, grasp=grasp)
    q, qd, tau = rng.uniform(-1, 1, s.n), rng.uniform(-1, 1, s.n), rng.uniform(-2, 2, s.n)
    pose, twist = (rotation_exp(rng.normal(size=3)), rng.normal(size=3)), rng.normal(size=6)
    return s, (q, qd, tau, pose, twist)


def test_unrolled_function_on_numpy_bundled(bundled):
    for s in bundled.values():
        for seed in (0, 1):
            args, ref = _inputs(s, *s.consistent_state(seed, speed=1.0, torque=5.0))
            assert rel_err(closed_chain_fd(s, *args, NUMPY), ref) < 1e-10, s.name


@pytest.mark.parametrize("seed", range(6))
def test_unrolled_function_on_numpy_random_grasps(seed):
    s, state = _random(seed)
    rng = np.random.default_rng(seed)
    corr = [rng.normal(size=a.grasp.n_c) for a in s.arms]       # a stabilization term
    args, ref = _inputs(s, *state, corr=corr)
    assert rel_err(closed_chain_fd(s, *args, NUMPY), ref) < 1e-9, [a.grasp.kind for a in s.arms]


def _constraint_reference(s, q, qd, R, p, V):
    """[c, G] from the numpy closure residual, and the velocity violation c' = -phi^c^T dV from the
    Context's relative velocities dV (an independent route to G (qd, V))."""
    from soagen.closed_chain.consistent import closure_residual

    e, G = closure_residual(s, q, R, p, holonomic=False)
    ctx = Context(s, q, qd, np.zeros(s.n), (R, p), V)
    cdot = np.concatenate([-pc.T @ dv for pc, dv in zip(ctx.phic, ctx.dV)])
    return np.hstack([e[:, None], G]), cdot


def _potential_energy(robot, q):
    """U(q) = -sum m_k g . c_k over the links (robot frame), from the link poses alone."""
    poses = world_poses(robot, link_transforms(robot, q, NUMPY))
    return -sum(b.mass * robot.gravity @ (o + R @ b.com) for b, (R, o) in zip(robot.bodies, poses))


def _closure_error(s, q, R, p):
    return closure_constraints(s, q, np.concatenate([p, quaternion_from_rotation(R)]), NUMPY)[:, 0]


@pytest.mark.parametrize("seed", range(3))
def test_constraint_and_gravity_functions_on_numpy(seed):
    """closure_constraints: G (qd, V) equals the context's -phi^c^T dV; the closure error
    vanishes at a closed state and moves off it as G predicts (central differences along
    (dq, V)). gravity_torques = dU/dq of each arm's potential energy (central differences)."""
    s, (q, qd, _, (R, p), V) = _random(seed)
    pose = np.concatenate([p, quaternion_from_rotation(R)])
    out = closure_constraints(s, q, pose, NUMPY)
    _, cdot = _constraint_reference(s, q, qd, R, p, V)
    assert out.shape == (constraint_count(s), s.n + 7)
    assert rel_err(out[:, 1:] @ np.concatenate([qd, V]), cdot) < 1e-12
    h = 1e-6
    g = gravity_torques(s, q, NUMPY)
    dU = [(_potential_energy(a.robot, qi + h * e) - _potential_energy(a.robot, qi - h * e)) / (2 * h)
          for a, qi in zip(s.arms, s.split(q)) for e in np.eye(a.n)]
    assert rel_err(g, np.array(dU)) < 1e-8
    closed = soagen.load_system(SYSTEMS / "dual_arm_box.yaml")
    qc, _, _ = closed.consistent_state(seed)
    ctx = Context(closed, qc, np.zeros(closed.n), np.zeros(closed.n))
    Rc, pc = ctx.R_C, ctx.p_C
    G = closure_constraints(closed, qc, np.concatenate([pc, quaternion_from_rotation(Rc)]), NUMPY)[:, 1:]
    assert np.abs(_closure_error(closed, qc, Rc, pc)).max() < 1e-11
    rng = np.random.default_rng(seed)
    dq, w, v = rng.normal(size=closed.n), rng.normal(size=3), rng.normal(size=3)
    step = lambda t: _closure_error(closed, qc + t * dq, rotation_exp(t * w) @ Rc, pc + t * v)
    assert rel_err((step(h) - step(-h)) / (2 * h), G @ np.concatenate([dq, w, v])) < 1e-7


def _checked_in(s, name):
    """The checked-in generated code of a bundled system: its manifest and directory."""
    d = GENERATED / name
    manifest = json.loads((d / f"{name}_manifest.json").read_text())
    fn = manifest["functions"]["closed_chain_forward_dynamics"]
    assert fn["shape"] == [s.n + 6 + 6 * s.l]
    assert fn["inputs"] == ["q", "qd", "tau", "obj", "corr"]
    assert list(manifest["functions"]) == ["closed_chain_forward_dynamics", "closure_constraints", "gravity_torques"]
    return manifest, d


def _against_references(s, fd, constraints, gravity):
    """The three functions at closed states: the forward dynamics against dense (with a
    stabilization term corr from the second state on), the constraints against the numpy
    closure residual, the gravity torques against the arms' bias forces."""
    rng = np.random.default_rng(0)
    for seed in range(3):
        q, qd, tau = s.consistent_state(seed, speed=1.0, torque=5.0)
        corr = [rng.normal(size=a.grasp.n_c) for a in s.arms]
        args, ref = _inputs(s, q, qd, tau, corr=corr if seed else None)
        assert rel_err(fd(args), ref) < 1e-10
        ctx = Context(s, q, qd, tau)
        pose = np.concatenate([ctx.p_C, quaternion_from_rotation(ctx.R_C)])
        want, _ = _constraint_reference(s, q, qd, ctx.R_C, ctx.p_C, ctx.V_C)
        assert rel_err(constraints(q, pose), want) < 1e-12
        assert rel_err(gravity(q), gravity_torques(s, q, NUMPY)) < 1e-12


@pytest.mark.parametrize("name", ["dual_arm_box", "three_arm_point_contacts", "quadruped_platform"])
def test_checked_in_generated_python_matches_the_references(bundled, name):
    from soagen.codegen.compile import load_python

    s = bundled[name]
    _, d = _checked_in(s, name)
    py = load_python(d / f"{name}.py")
    _against_references(s, lambda args: py.closed_chain_forward_dynamics(*[list(a) for a in args]),
                        lambda q, pose: np.array(py.closure_constraints(list(q), list(pose))),
                        lambda q: np.array(py.gravity_torques(list(q))))


@pytest.mark.cc
@pytest.mark.parametrize("name", ["dual_arm_box", "three_arm_point_contacts", "quadruped_platform"])
def test_checked_in_generated_c_matches_the_references(bundled, name, tmp_path):
    from soagen.codegen.compile import load_c

    s = bundled[name]
    manifest, d = _checked_in(s, name)
    lib = load_c(d, name, manifest, build_dir=tmp_path, flags=("-O0",))
    _against_references(s, lambda args: lib.closed_chain_forward_dynamics(*args), lib.closure_constraints,
                        lib.gravity_torques)


def _load_generated(out, name):
    from soagen.codegen.compile import load_c, load_python

    manifest = json.loads((out / f"{name}_manifest.json").read_text())
    return manifest, load_python(out / f"{name}.py"), load_c(out, name, manifest, flags=("-O0",))


@pytest.mark.cc
def test_soagen_generate_every_grasp_type(tmp_path):
    """`soagen generate SYSTEM` on the three-arm system with a revolute, a soft-finger and
    a general (2-dof) grasp, none rigid, so the object state is an input: the generated
    Python and C agree with the dense reference at states that close the loops."""
    from click.testing import CliRunner

    from soagen.cli.main import cli

    doc = system_doc("three_arm_point_contacts")
    grasps = [{"type": "revolute", "axis": [0, 0.6, 0.8]}, {"type": "soft_finger", "normal": [1, 0, 0]},
              {"type": "general", "motion": [[1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]}]
    for arm, g in zip(doc["arms"], grasps):
        arm["grasp"] = {"frame": arm["grasp"]["frame"], **g}
    path = write_system(tmp_path, doc, "mixed.yaml")
    r = CliRunner().invoke(cli, ["generate", str(path), "--out", str(tmp_path / "out"), "--name", "mixed", "-q",
                                 "--lang", "c,python"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mixed.c", "mixed.h", "mixed.py",
                                                                    "mixed_manifest.json"]
    manifest, py, lib = _load_generated(tmp_path / "out", "mixed")
    assert manifest["functions"]["closed_chain_forward_dynamics"]["inputs"] == ["q", "qd", "tau", "obj", "corr"]
    assert "def closed_chain_forward_dynamics(q, qd, tau, obj, corr):" in (tmp_path / "out" / "mixed.py").read_text()
    s = soagen.load_system(path)
    for seed in range(2):
        args, ref = _inputs(s, *s.consistent_state(seed, speed=1.0, torque=5.0))
        assert rel_err(py.closed_chain_forward_dynamics(*[list(a) for a in args]), ref) < 1e-10
        assert rel_err(lib.closed_chain_forward_dynamics(*args), ref) < 1e-10


@pytest.mark.slow
@pytest.mark.cc
def test_generated_code_random_geometry(tmp_path):
    """Random chains (no zero in any rotation) with a tilted revolute and a general grasp,
    at an arbitrary state with a given object pose and twist: generated Python and C
    against dense. (Five joints per arm: M_k (37) needs phi^c^T J M^-1 J^T phi^c, 5 x 5
    for the revolute grasp, invertible.)"""
    kinds = iter([{"type": "revolute", "axis": [0.3, -1, 0.2]},
                  {"type": "general", "motion": [[1, 0], [0, 0], [0, 1], [0, 0], [0, 0], [1, 0]]}])
    s, state = _random(7, l=2, N=5, grasp=lambda rng: next(kinds))
    for fname, text in render(s, prefix="mixed").files.items():
        (tmp_path / fname).write_text(text)
    manifest, py, lib = _load_generated(tmp_path, "mixed")
    args, ref = _inputs(s, *state)
    assert rel_err(py.closed_chain_forward_dynamics(*[list(a) for a in args]), ref) < 1e-9
    assert rel_err(lib.closed_chain_forward_dynamics(*args), ref) < 1e-9


def test_soagen_generate_system_file_refuses_robot_options(tmp_path):
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["generate", str(SYSTEMS / "dual_arm_box.yaml"), "--tip", "x",
                                 "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "--tip: only for robot files" in r.output
    assert not (tmp_path / "out").exists()


def test_lilly_orin_counts_reproduce_the_papers_worked_example(bundled):
    """Lilly-Orin Table 2 prints N = 6, n_c = 3: 3402 mul / 2772 add per chain, and Table 3
    m = 3: 86 mul / 152 add for a_0; the three-arm point-contact system is that case."""
    from soagen.bench.closed_chain import lilly_orin_counts

    assert lilly_orin_counts(bundled["three_arm_point_contacts"]) == (3 * 3402 + 86, 3 * 2772 + 152)


def test_bench_system_refuses_robot_options():
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["bench", str(SYSTEMS / "dual_arm_box.yaml"), "--fd-variant", "fd1", "-q"])
    assert r.exit_code == 2 and "--fd-variant: only for robot files" in r.output


@pytest.mark.slow
@pytest.mark.cc
def test_bench_system(bundled):
    """`soagen bench SYSTEM`: one timed row with Pinocchio's constraintDynamics when it is
    installed, the numpy methods, and the op count next to Lilly-Orin's."""
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["bench", str(SYSTEMS / "three_arm_point_contacts.yaml"), "--repeats", "3",
                                 "--iterations", "500", "--cflags", "-O2", "-q"])
    assert r.exit_code == 0, r.output
    assert "closed_chain_forward_dynamics" in r.output and "Lilly-Orin Tables 2-3" in r.output
    assert "10292" in r.output and "lilly_orin" in r.output and "rccfd1" in r.output
    try:
        import pinocchio  # noqa: F401
        assert "constraintDynamics" in r.output
    except ImportError:
        assert "pinocchio not installed" in r.output
