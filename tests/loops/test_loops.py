"""Loops inside one robot (framework paper Section 2.3; forward dynamics by steps (A)-(F),
(3.10)-(3.12)): a planar four-bar (YAML, URDF + overlay, MJCF), a spatial closed chain
held by a weld (MJCF) and a URDF arm welded to its base, against

* the acceleration-level closure residual A alpha~ (the frames' classical accelerations at
  the computed qdd, by frame_accelerations);
* the dense KKT system [M G^T; G 0] with M by composite inertias and G the stacked frame
  Jacobians (least squares where the closures are redundant);
* the closed form (3.13), corrected (b = D^-1/2 H psi B A^*), evaluated on the dense tree
  operators at qd = 0 (where U = 0);
* Pinocchio's constraintDynamics (CONTACT_3D for connect, CONTACT_6D for weld), on a model
  built joint by joint from soagen's and, for the MJCF files, on Pinocchio's own reading
  of the file with the constraints its MJCF reader found;
* MuJoCo's constraint residuals efc_pos for the equality constraints it compiled.

Measured (3 states each): residuals <= 4.3e-12 (the welded chain; the bound is 1e-10), the
KKT system <= 1.6e-13 relative, Pinocchio <= 1.6e-13 relative (the bound is 1e-8)."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.dynamics.loops import constraint_map, moving_frames
from soagen.errors import RobotFileError, SoagenError
from soagen.operators.tree import tree_operators
from soagen.oracles.pinocchio import Converter, pin_model_from_robot
from soagen.quaternion import integrate
from tests.support.accuracy import rel_err
from tests.support.loops import (
    DATA,
    closed_state,
    pin_closures,
    pin_constraint_dynamics,
    pin_mjcf_closures,
    q_from_qpos,
    qpos_from_q,
)

FOURBAR = DATA / "fourbar.yaml"
Q_FOURBAR = np.array([1.0, -0.5260888249335929, 1.4380176710407746])   # a closed configuration
RESIDUAL = 1e-10
ORACLE = 1e-8


def kkt(robot, q, qd, tau):
    """qdd of [M G^T; G 0] [qdd; -lam] = [tau - C; -Gdot qd] (minimum-norm least squares)."""
    M, C, G = A.mass_matrix(robot, q), A.bias_forces(robot, q, qd), A.closure_jacobian(robot, q)
    gd = A.closure_acceleration(robot, q, qd, np.zeros(robot.nv))               # Gdot qd
    m = G.shape[0]
    K = np.block([[M, G.T], [G, np.zeros((m, m))]])
    return np.linalg.lstsq(K, np.concatenate([tau - C, -gd]), rcond=None)[0][:robot.nv]


def closed_form_3_13(robot, q, tau):
    """Framework (3.13) corrected, qd = 0: qdd = W^T {D^-1 - D^-1 b (A Lambda A^T)^+ b^T D^-1} W T^
    with W = I - H psi K, b = H psi B A^T, Lambda = B^T psi^T H^T D^-1 H psi B and
    T^ = T - H phi M phi^T E g (the gravity torques), on the dense tree operators."""
    T = tree_operators(robot, q, None, moving_frames(robot))
    Amap = constraint_map(robot)
    W = np.eye(len(T.Dinv)) - T.H @ T.psi @ T.K
    b = T.H @ T.psi @ T.B @ Amap.T
    Lam = T.B.T @ T.psi.T @ T.H.T @ T.Dinv @ T.H @ T.psi @ T.B
    That = T.Pi @ tau - T.H @ T.phi @ T.M @ T.phi.T @ T.E @ T.g
    middle = T.Dinv - T.Dinv @ b @ np.linalg.pinv(Amap @ Lam @ Amap.T, hermitian=True) @ b.T @ T.Dinv
    return T.Pi.T @ (W.T @ middle @ W @ That)


def error(got, want, scale):
    """max |got - want| over the larger of max |want| and ``scale`` (the open tree's
    accelerations: a locked mechanism's are zero)."""
    return np.abs(got - want).max() / max(np.abs(want).max(), scale)


def check_against_oracles(pin, robot, q, qd, tau, model=None, cms=None):
    """The loop forward dynamics against the residual, the KKT system and Pinocchio; the
    errors (KKT, Pinocchio) relative to the accelerations."""
    qdd = A.loop_forward_dynamics(robot, q, qd, tau)
    scale = np.abs(A.forward_dynamics(robot, q, qd, tau)).max()
    assert np.abs(A.closure_errors(robot, q)).max() < 1e-12
    assert np.abs(A.closure_jacobian(robot, q) @ qd).max() < 1e-12
    assert np.abs(A.closure_acceleration(robot, q, qd, qdd)).max() < RESIDUAL
    errs = {"kkt": error(qdd, kkt(robot, q, qd, tau), scale)}
    if pin is not None:
        if model is None:
            model = pin_model_from_robot(robot)
            cms = pin_closures(pin, robot, model)
        errs["pinocchio"] = error(qdd, pin_constraint_dynamics(pin, model, cms, Converter(robot, model), q, qd, tau),
                                  scale)
    assert errs["kkt"] < 1e-10 and errs.get("pinocchio", 0.0) < ORACLE, errs
    return qdd


# ----------------------------------------------------------------------------- the four-bar
def test_fourbar_file_gives_one_connect_between_coupler_and_rocker():
    robot = soagen.load(FOURBAR)
    (c,) = robot.closures
    assert (c.name, c.kind, c.rows) == ("C", "connect", 3)
    names = [b.name for b in robot.bodies]
    assert names[c.frame1.body] == "coupler" and names[c.frame2.body] == "rocker"
    assert np.allclose(c.frame1.r, [1, 0, 0]) and np.allclose(c.frame2.r, [0.8, 0, 0])
    assert np.abs(A.closure_errors(robot, Q_FOURBAR)).max() < 1e-14
    G = A.closure_jacobian(robot, Q_FOURBAR)
    assert G.shape == (3, 3) and np.linalg.matrix_rank(G) == 2       # redundant: the plane's normal


@pytest.mark.parametrize("seed", range(3))
def test_fourbar_forward_dynamics(pin, seed):
    robot = soagen.load(FOURBAR)
    q, qd, tau = closed_state(robot, Q_FOURBAR, seed)
    check_against_oracles(pin, robot, q, qd, tau)
    force = A.loop_constraint_forces(robot, q, qd, tau)["C"]
    assert not force[:3].any() and abs(force[5]) < 1e-12 * np.abs(force).max()   # a pin: no moment, in the plane


def test_fourbar_closed_form_3_13_at_rest():
    robot = soagen.load(FOURBAR)
    q, _, tau = closed_state(robot, Q_FOURBAR, 5)
    qd = np.zeros(robot.nv)
    assert rel_err(A.loop_forward_dynamics(robot, q, qd, tau), closed_form_3_13(robot, q, tau)) < 1e-12


def test_a_closure_counted_twice_changes_nothing():
    """Redundant closures are solved in the least-squares sense, not refused: the same
    connect twice (6 constraints of rank 2) gives the same accelerations."""
    from dataclasses import replace

    robot = soagen.load(FOURBAR)
    (c,) = robot.closures
    twice = replace(robot, closures=(c, replace(c, name="C again")))
    q, qd, tau = closed_state(robot, Q_FOURBAR, 1)
    qdd = A.loop_forward_dynamics(twice, q, qd, tau)
    assert rel_err(qdd, A.loop_forward_dynamics(robot, q, qd, tau)) < 1e-12
    assert np.abs(A.closure_acceleration(twice, q, qd, qdd)).max() < RESIDUAL


def test_fourbar_urdf_with_a_loop_overlay_is_the_yaml_fourbar():
    """The same mechanism; URDF has no gravity element (soagen's URDF default is -z)."""
    from dataclasses import replace

    yaml, urdf = soagen.load(FOURBAR), soagen.load(DATA / "fourbar_loops.yaml")
    yaml = replace(yaml, gravity=urdf.gravity)
    assert urdf.name == "fourbar_overlay" and [c.name for c in urdf.closures] == ["C"]
    q, qd, tau = closed_state(yaml, Q_FOURBAR, 2)
    assert rel_err(A.loop_forward_dynamics(urdf, q, qd, tau), A.loop_forward_dynamics(yaml, q, qd, tau)) < 1e-13


def test_fourbar_mjcf_is_the_yaml_fourbar(pin):
    """The MJCF four-bar (drawn closed, ref = the joint angles there): MuJoCo's second
    anchor is the YAML file's point, the dynamics are the YAML file's, and Pinocchio's own
    reading of the MJCF file (its constraint included; its reader leaves <option gravity>
    out, so the gravity is set) agrees."""
    pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    yaml, mjcf = soagen.load(FOURBAR), soagen.load(DATA / "fourbar.xml")
    (c,) = mjcf.closures
    assert c.kind == "connect" and rel_err(c.frame2.r, [0.8, 0, 0]) < 1e-12
    q, qd, tau = closed_state(yaml, Q_FOURBAR, 3)
    qdd = A.loop_forward_dynamics(mjcf, q, qd, tau)
    assert rel_err(qdd, A.loop_forward_dynamics(yaml, q, qd, tau)) < 1e-12
    if pin is not None:
        model, parsed = pin_mjcf(pin, DATA / "fourbar.xml", mjcf)
        check_against_oracles(pin, mjcf, q, qd, tau, model, pin_mjcf_closures(pin, model, parsed))


def pin_mjcf(pin, path, robot):
    out = pin.buildModelsAndConstraintsFromMJCF(str(path))
    model = out[0]
    model.gravity = pin.Motion(np.array(robot.gravity), np.zeros(3))
    return model, next(x for x in out if isinstance(x, dict))


# ----------------------------------------------------------------------------- weld
def test_welded_spatial_chain_against_pinocchio_and_mujoco(pin):
    """A 3R arm and a slide-ball leg welded together (1 degree of freedom left)."""
    mujoco = pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    path = DATA / "welded.xml"
    robot = soagen.load(path)
    (c,) = robot.closures
    assert c.kind == "weld" and c.rows == 6
    m = mujoco.MjModel.from_xml_path(str(path))
    q0 = q_from_qpos(robot, m.qpos0)
    assert np.abs(A.closure_errors(robot, q0)).max() < 1e-14      # MuJoCo's relative pose is qpos0's
    assert np.linalg.matrix_rank(A.closure_jacobian(robot, q0)) == 6
    for seed in range(2):
        q, qd, tau = closed_state(robot, q0, seed)
        if pin is not None:
            model, parsed = pin_mjcf(pin, path, robot)
            check_against_oracles(pin, robot, q, qd, tau, model, pin_mjcf_closures(pin, model, parsed))
        check_against_oracles(pin, robot, q, qd, tau)
    assert rel_err(A.loop_forward_dynamics(robot, q, np.zeros(robot.nv), tau), closed_form_3_13(robot, q, tau)) < 1e-12


@pytest.mark.parametrize("name", ["fourbar.xml", "welded.xml"])
def test_closure_errors_are_mujocos_constraint_residuals(name):
    """Off the closure, MuJoCo's efc_pos of each equality: a connect's three rows are the
    two anchors' difference, as soagen's; a weld's position rows too, and its orientation
    rows are half soagen's rotation error to first order (MuJoCo's quaternion difference)."""
    mujoco = pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    path = DATA / name
    robot, m = soagen.load(path), mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    rng = np.random.default_rng(0)
    for eps in (1e-6, 0.3):
        q = integrate(robot, q_from_qpos(robot, m.qpos0), eps * rng.normal(size=robot.nv))
        d.qpos[:] = qpos_from_q(robot, q)
        mujoco.mj_forward(m, d)
        e, efc = A.closure_errors(robot, q), d.efc_pos[:d.nefc]
        pos = slice(0, 3) if robot.closures[0].kind == "connect" else slice(3, 6)
        assert np.abs(e[pos] - efc[:3]).max() < 1e-14                    # metres: round-off
        if robot.closures[0].kind == "weld":
            if eps < 1e-3:
                assert rel_err(e[:3], 2 * efc[3:]) < 1e-4


def test_urdf_arm_welded_to_its_base_is_locked(pin):
    """arm3 with its tool welded where it is at the neutral configuration (frame2 placed
    by the loader): 6 constraints on 3 joints (rank 3), so it cannot move: qdd = 0."""
    robot = soagen.load(DATA / "arm3_welded.yaml")
    q, qd = robot.neutral_configuration(), np.zeros(robot.nv)
    assert np.abs(A.closure_errors(robot, q)).max() < 1e-15
    tau = np.array([1.0, -2.0, 3.0])
    qdd = check_against_oracles(pin, robot, q, qd, tau)
    assert np.abs(qdd).max() < 1e-12


# ----------------------------------------------------------------------------- simulation
def test_simulation_keeps_the_closure():
    """soagen simulate's integrator on the four-bar: the start is projected onto the
    closure, the Baumgarte term holds it (2 s unactuated: 1e-8 m measured), and the energy
    of the unactuated, undamped mechanism is conserved."""
    from soagen.simulation.robot import RobotSimulator

    robot = soagen.load(FOURBAR)
    sim = RobotSimulator(robot, "zero")
    traj = sim.run(1.0, 2e-3, seed=1, speed=2.0)
    assert max(np.abs(A.closure_errors(robot, q)).max() for q in traj.q) < 1e-6
    assert max(np.abs(A.closure_jacobian(robot, q) @ v).max() for q, v in zip(traj.q, traj.v)) < 1e-4
    E = [sum(A.energy(robot, q, v)) for q, v in zip(traj.q, traj.v)]
    assert np.ptp(E) < 1e-5 * max(abs(E[0]), 1.0)
    assert np.ptp(traj.q[:, 0]) > 1.0                      # it moved


def test_the_generated_backend_refuses_loops():
    from soagen.simulation.robot import GeneratedRobotDynamics

    with pytest.raises(SoagenError, match="loop closures is simulated with the generic algorithms"):
        GeneratedRobotDynamics(soagen.load(FOURBAR), lib=None)


# ----------------------------------------------------------------------------- bad input
LOOP = "  - {name: C, type: connect, frame1: {link: coupler, xyz: [1, 0, 0]}, frame2: {link: rocker, xyz: [0.8, 0, 0]}}\n"


@pytest.mark.parametrize("loops,match", [
    (LOOP.replace("connect", "hinge"), "unknown loop closure type 'hinge'"),
    (LOOP.replace("link: rocker", "link: nowhere"), "link 'nowhere' is not defined"),
    (LOOP.replace("link: rocker", "link: coupler"), "are parts of one rigid body"),
    (LOOP + LOOP, "duplicate loop name 'C'"),
    (LOOP.replace(", xyz: [1, 0, 0]", "").replace(", xyz: [0.8, 0, 0]", ""), "place at least one of frame1"),
    (LOOP.replace("frame2", "frame3"), "unknown key 'frame3'"),
    ("  - {type: connect, frame1: {link: coupler, xyz: [1, 0]}, frame2: {link: rocker}}\n", "expected 3 numbers"),
])
def test_bad_loops_are_one_line_errors(tmp_path, loops, match):
    text = FOURBAR.read_text()
    text = text[:text.index("loops:")] + "loops:\n" + loops
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(RobotFileError, match=match) as err:
        soagen.load(p)
    assert "\n" not in str(err.value) and str(p) in str(err.value)


def test_loop_functions_of_a_tree():
    """A tree's loop forward dynamics is its forward dynamics; the closure functions need
    closures."""
    robot = soagen.load("robots/planar2.yaml")
    q, qd, tau = np.array([0.3, -0.4]), np.array([1.0, 2.0]), np.array([0.5, -1.0])
    assert rel_err(A.loop_forward_dynamics(robot, q, qd, tau, baumgarte=50.0), A.forward_dynamics(robot, q, qd, tau)) < 1e-14
    with pytest.raises(SoagenError, match="the robot has no loop closures"):
        A.closure_errors(robot, q)


def test_other_equality_constraints_are_named_in_a_warning(tmp_path):
    """A joint coupling (MJCF <joint> equality) is not modelled: one warning line names it."""
    pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    text = (DATA / "fourbar.xml").read_text().replace(
        "</equality>", '  <joint joint1="A" joint2="D"/>\n    <connect body1="crank" body2="rocker" anchor="0 0 0" '
        'active="false"/>\n  </equality>')
    p = tmp_path / "coupled.xml"
    p.write_text(text)
    with pytest.warns(Warning) as rec:
        robot = soagen.load(p)
    msgs = sorted(str(w.message) for w in rec)
    assert any("1 joint equality constraint not modelled" in m for m in msgs), msgs
    assert any("1 inactive connect equality constraint not modelled" in m for m in msgs), msgs
    assert [c.kind for c in robot.closures] == ["connect"]


def test_soagen_simulate_a_robot_with_loops(tmp_path):
    """The CLI simulates it on the generic algorithms (the generated forward dynamics is the
    tree's), whatever --backend says."""
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["simulate", str(FOURBAR), "--duration", "0.1", "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert "numpy backend (loops (framework (3.11)-(3.12)))" in r.output
    assert (tmp_path / "out" / "trajectory.npz").is_file()
