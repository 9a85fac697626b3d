"""Passive joint forces: viscous damping on every joint kind and springs on 1-dof joints,
tau_passive = -k (q - q_rest) - d qd, in MuJoCo's convention (qfrc_passive adds to the
applied force: M qdd + C = tau + tau_passive). Against MuJoCo on MJCF files that use them,
against the dense form and finite differences, through the loaders (MJCF, URDF <dynamics>,
YAML), and in the simulator."""

import textwrap

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import RobotFileWarning
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err
from tests.support.derivatives import ALL_JOINTS, random_state, tangent_fd, vector_fd
from tests.support.robot_files import URDF, load_quietly, write

TOL = 1e-12

# damping on hinge, slide, ball and free joints, springs with springref on a hinge and a slide,
# armature from a default class, no contacts
PASSIVE = textwrap.dedent("""\
    <mujoco model="passive">
      <option gravity="0.2 -0.1 -9.81"/>
      <default>
        <geom contype="0" conaffinity="0"/>
        <default class="geared"><joint armature="0.05" damping="0.7"/></default>
      </default>
      <worldbody>
        <body name="torso" pos="0 0 1">
          <joint name="root" type="free" damping="0.3"/>
          <geom type="box" size="0.2 0.1 0.05" mass="3"/>
          <body name="upper" pos="0.2 0 0" euler="10 20 30">
            <joint name="shoulder" type="ball" damping="0.4" armature="0.02"/>
            <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
            <body name="fore" pos="0.3 0 0">
              <joint name="elbow" class="geared" axis="0 1 0" stiffness="12" springref="0.4" ref="0.1"/>
              <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025"/>
              <body name="slider" pos="0.25 0 0">
                <joint name="slide" type="slide" axis="1 0.2 0" class="geared" stiffness="40" springref="-0.05"/>
                <geom type="sphere" size="0.04" mass="0.3"/>
              </body>
            </body>
          </body>
        </body>
      </worldbody>
    </mujoco>
    """)




def test_mjcf_passive_forces_against_mujoco(tmp_path):
    """qfrc_passive, M with armature, bias, mj_inverse and mj_forward's qacc: MuJoCo's."""
    pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
    from soagen.oracles.mujoco import compare

    path = write(tmp_path, PASSIVE, "passive.xml")
    robot = load_quietly(path)
    j = {b.joint_name: b.joint for b in robot.bodies}
    assert (j["root"].damping, j["shoulder"].damping, j["elbow"].damping) == (0.3, 0.4, 0.7)
    assert (j["elbow"].stiffness, j["slide"].rest) == (12.0, -0.05)
    assert rel_err(j["elbow"].rest, np.deg2rad(0.4)) < 1e-15          # springref in the file's degrees
    assert all(b.joint.actuated for b in robot.bodies)
    agreement = compare(robot, path, states=4, seed=3)
    assert agreement.worst < 1e-12, agreement


def test_passive_force_formula_and_forward_dynamics():
    """tau_passive = -k (q - q_rest) - d qd; FD solves M qdd + C = tau + tau_passive."""
    pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        robot = load_quietly(write(Path(tmp), PASSIVE, "p.xml"))
        rigid = load_quietly(write(Path(tmp), PASSIVE, "p.xml"), passive=False)
    rng = np.random.default_rng(1)
    q, qd, qdd, tau = random_state(robot, rng)
    want = np.zeros(robot.nv)
    for i, b in enumerate(robot.bodies):
        sl = robot.joint_v_slice(i)
        want[sl] = -b.joint.damping * qd[sl]
        if b.joint.stiffness:
            want[sl] -= b.joint.stiffness * (q[robot.joint_q_slice(i)] - b.joint.rest)
    assert not rigid.bodies[0].joint.elastic and rel_err(A.passive_forces(rigid, q, qd), 0 * want) == 0
    assert rel_err(A.passive_forces(robot, q, qd), want) < 1e-15
    M, C = A.mass_matrix(robot, q), A.bias_forces(rigid, q, qd)
    assert rel_err(A.bias_forces(robot, q, qd), C - want) < TOL
    assert rel_err(A.inverse_dynamics(robot, q, qd, qdd), M @ qdd + C - want) < TOL
    for method in A.FD_METHODS:
        assert rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), np.linalg.solve(M, tau + want - C)) < TOL
    assert rel_err(A.known_forces(robot, q, qd, qdd), robot.armature * qdd - want) < 1e-15


@pytest.mark.parametrize("seed", range(2))
def test_derivatives_with_passive_forces(seed):
    """dT/dq gains k, dT/dqd gains d (every dof of a damped joint); the FD derivatives follow
    (finite differences, in the tangent space for quaternion joints)."""
    from soagen.model import with_armature

    rng = np.random.default_rng(seed)
    base = random_chain(5, rng, joint_types=ALL_JOINTS, parents=[-1, 0, 1, 1, 3])
    bodies = []
    for b in base.bodies:
        spring = b.joint.kind in ("revolute", "prismatic")
        bodies.append(b.__class__(**{**b.__dict__, "joint": type(b.joint)(
            b.joint.kind, b.joint.axis, b.joint.urdf_type, stiffness=float(rng.uniform(1, 5)) if spring else 0.0,
            damping=float(rng.uniform(0.1, 1)), rest=float(rng.normal()) if spring else 0.0)}))
    from dataclasses import replace

    robot = with_armature(replace(base, bodies=tuple(bodies)), {base.bodies[1].joint_name: 0.1})
    q, qd, qdd, tau = random_state(robot, rng)
    dq, dqd = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
    assert rel_err(dq, tangent_fd(lambda x: A.inverse_dynamics(robot, x, qd, qdd), robot, q)) < 1e-8
    assert rel_err(dqd, vector_fd(lambda v: A.inverse_dynamics(robot, q, v, qdd), qd)) < 1e-8
    fq, fqd, _ = A.forward_dynamics_derivatives(robot, q, qd, tau)
    assert rel_err(fq, tangent_fd(lambda x: A.forward_dynamics(robot, x, qd, tau), robot, q)) < 1e-7
    assert rel_err(fqd, vector_fd(lambda v: A.forward_dynamics(robot, q, v, tau), qd)) < 1e-7


# ---- URDF <dynamics> and YAML -----------------------------------------------------------

def test_urdf_damping_is_read_with_passive_true(tmp_path):
    """<dynamics damping> is Pinocchio's model.damping, and soagen's passive force only when
    asked (Pinocchio's dynamics ignore it, so by default soagen's agree with them)."""

    text = URDF.replace('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><dynamics damping="0.8" friction="0.2"/>')
    path = write(tmp_path, text.replace('<axis xyz="0 0.6 0.8"/>', '<axis xyz="0 0.6 0.8"/><dynamics damping="0.5"/>'),
                 "d.urdf")
    assert not any(b.joint.elastic for b in load_quietly(path).bodies)
    with pytest.warns(RobotFileWarning, match="<joint name='b'>: <dynamics friction> .* is not modelled") as rec:
        robot = soagen.load(path, passive=True)
    assert sum("friction" in str(w.message) for w in rec) == 1
    assert [b.joint.damping for b in robot.bodies] == [0.5, 0.8]
    qd = np.array([1.0, -2.0])
    assert rel_err(A.passive_forces(robot, np.zeros(2), qd), [-0.5, 1.6]) < 1e-15
    pin = pytest.importorskip("pinocchio", reason="needs the optional 'pin' package")
    model = pin.buildModelFromUrdf(str(path))
    assert np.array_equal(model.damping, [0.5, 0.8])


def test_yaml_springs_are_unactuated_unless_said(tmp_path):
    """A YAML spring-damper joint is passive (Swain-Morris C.2: no joint force); ``actuated:
    true`` makes it a damped actuated joint, as MJCF and URDF joints are."""

    write(tmp_path, URDF, "r.urdf")
    path = write(tmp_path, "overlay: r.urdf\nsprings:\n  a: {damping: 0.5}\n  b: {stiffness: 3, actuated: true}\n",
                 "s.yaml")
    robot = soagen.load(path)
    assert [(b.joint.actuated, b.joint.damping, b.joint.stiffness) for b in robot.bodies] == [
        (False, 0.5, 0.0), (True, 0.0, 3.0)]


def test_damping_on_multi_dof_joints_from_yaml(tmp_path):
    text = textwrap.dedent("""\
        links:
          - {name: base}
          - {name: l1, mass: 1.0, inertia: {ixx: 0.01, iyy: 0.02, izz: 0.03, ixy: 0, ixz: 0, iyz: 0}}
        joints:
          - {name: ball, type: spherical, parent: base, child: l1, damping: 0.25}
        """)
    robot = soagen.load(write(tmp_path, text, "b.yaml"))
    qd = np.array([1.0, 2.0, 3.0])
    assert rel_err(A.passive_forces(robot, robot.neutral_configuration(), qd), -0.25 * qd) < 1e-15
    with pytest.raises(soagen.errors.RobotFileError, match="a spring .* not spherical"):
        soagen.load(write(tmp_path, text.replace("damping: 0.25", "stiffness: 1"), "c.yaml"))


# ---- what is not modelled: one warning line per kind -------------------------------------

UNMODELLED = textwrap.dedent("""\
    <mujoco model="rest">
      <option density="1.2"/>
      <worldbody>
        <geom name="floor" type="plane" size="1 1 0.1"/>
        <body name="a" pos="0 0 1" gravcomp="1">
          <joint name="j1" axis="0 1 0" frictionloss="0.1"/>
          <joint name="j2" axis="1 0 0" frictionloss="0.1"/>
          <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
          <site name="s1"/>
          <body name="b" pos="0.3 0 0">
            <joint name="ball" type="ball" stiffness="2"/>
            <geom type="sphere" size="0.05"/>
            <site name="s2"/>
          </body>
        </body>
      </worldbody>
      <tendon><spatial name="t" stiffness="3"><site site="s1"/><site site="s2"/></spatial></tendon>
      <actuator><motor name="m" joint="j1"/></actuator>
    </mujoco>
    """)


def test_each_unmodelled_kind_is_one_warning_line(tmp_path):
    pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
    path = write(tmp_path, UNMODELLED, "rest.xml")
    with pytest.warns(RobotFileWarning) as rec:
        soagen.load(path)
    text = [str(w.message) for w in rec]
    expected = {"friction loss": "<joint name='j1'> and 1 more", "spring (stiffness) on a ball": "<joint name='ball'>",
                "gravity compensation": "<body name='a'>", "fluid forces": "<option>", "tendons": "<tendon name='t'>",
                "actuators are not modelled": "<actuator name='m'>", "contacts are not modelled": "<geom name='floor'> and 2 more"}
    for kind, where in expected.items():
        lines = [t for t in text if kind in t]
        assert len(lines) == 1 and f"{path}: {where}:" in lines[0], (kind, lines)
    assert len(text) == len(expected)


# ---- the simulator ----------------------------------------------------------------------

def test_simulator_uses_the_passive_forces(tmp_path):
    """A damped, unactuated swing loses energy (numpy and the same dynamics); with the PD
    controller the damped MJCF joints are still actuated."""
    pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
    from soagen.simulation.robot import RobotSimulator, energies

    arm = PASSIVE.replace('<joint name="root" type="free" damping="0.3"/>', "")
    robot = load_quietly(write(tmp_path, arm, "arm.xml"))
    sim = RobotSimulator(robot, controller="zero")
    traj = sim.run(0.5, 2e-3, seed=1, speed=2.0)
    E = energies(robot, traj).sum(axis=0)
    assert E[-1] < 0.9 * E[0] and np.all(np.diff(E) < 1e-9 * abs(E[0]))
    rigid = load_quietly(write(tmp_path, arm, "arm.xml"), passive=False)
    E0 = energies(rigid, RobotSimulator(rigid, controller="zero").run(0.5, 2e-3, seed=1, speed=2.0)).sum(axis=0)
    assert np.abs(E0 - E0[0]).max() < 1e-4 * abs(E0[0])
    assert RobotSimulator(robot, controller="pd").actuated.all()


@pytest.mark.parametrize("controller", ["pd", "zero"])
def test_energy_balance_with_damped_actuated_joints(tmp_path, controller):
    """MJCF dampers on actuated free, ball, hinge and slide joints (with springs and
    armature): the simulator's elastic coordinates are the unactuated ones only (none here:
    the PD drives every joint), and the damping's work counts every dof of a damped joint,
    so that E(t) - E(0) = W_tau + W_d closes to RK4's error (measured 2.6e-9 to 2.3e-8;
    with the damper on the first dof of the free and ball joints only it was 2e-2)."""
    pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
    from soagen.simulation.elastic import energy_balance
    from soagen.simulation.robot import RobotSimulator, energies

    robot = load_quietly(write(tmp_path, PASSIVE, "passive.xml"))
    sim = RobotSimulator(robot, controller=controller)
    assert not sim.elastic.any()
    traj = sim.run(0.5, 2e-3, seed=1)
    balance = energy_balance(traj, energies(robot, traj))
    assert balance.relative < 1e-6 and np.abs(balance.W_d).max() > 1e-3 * balance.scale
