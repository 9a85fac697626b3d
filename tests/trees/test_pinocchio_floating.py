"""Oracle: trees with a floating base against Pinocchio with a free-flyer root.

soagen's generic recursions (RNE, composite-inertia mass matrix, Riccati M^-1 (4.16),
FD1-FD4) on quadruped and humanoid URDFs with ``floating_base=True``, against Pinocchio's
RNEA, CRBA, ABA and computeMinverse on ``buildModelFromUrdf(path, JointModelFreeFlyer())``,
to 1e-9 relative. The state conversion (quaternion order, (omega, v) vs (v, omega)) is in
soagen.oracles.pinocchio and docs/trees-and-floating-bases.md."""

from __future__ import annotations

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders import load
from soagen.loaders.random_robots import random_chain
from soagen.oracles.pinocchio import (
    Converter,
    pin_model,
    pin_model_from_robot,
    symmetrized,
)
from tests.support.accuracy import rel_err
from tests.support.erd import ROBOTS, erd_path

TOL = 1e-9


def random_state(robot, rng):
    q = robot.random_configuration(rng)
    for b in robot.bodies:                      # free joint: base position of order 1 m
        if b.joint.kind == "free":
            q[b.q_index:b.q_index + 3] = rng.normal(size=3)
    return q, rng.normal(size=robot.nv), rng.normal(size=robot.nv), rng.normal(size=robot.nv)


def compare_all(pin, robot, model, rng, methods=("fd1", "fd2", "fd3", "fd4")):
    data = model.createData()
    c = Converter(robot, model)
    q, v, a, tau = random_state(robot, rng)
    qp, vp = c.q_to_pin(q), c.v_to_pin(v)
    errs = {
        "rnea": rel_err(A.inverse_dynamics(robot, q, v, a), c.v_from_pin(pin.rnea(model, data, qp, vp, c.v_to_pin(a)))),
        "crba": rel_err(A.mass_matrix(robot, q), c.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))),
        "minv": rel_err(A.inverse_mass_matrix(robot, q),
                    c.matrix_from_pin(symmetrized(pin.computeMinverse(model, data, qp)))),
        "bias": rel_err(A.bias_forces(robot, q, v), c.v_from_pin(pin.nonLinearEffects(model, data, qp, vp))),
    }
    qdd_pin = c.v_from_pin(pin.aba(model, data, qp, vp, c.v_to_pin(tau)))
    for m in methods:
        errs["aba/" + m] = rel_err(A.forward_dynamics(robot, q, v, tau, method=m), qdd_pin)
    return errs


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_free_flyer_urdf_against_pinocchio(pin, name):
    path = erd_path(ROBOTS[name])
    robot = load(path, floating_base=True)
    model = pin_model(path, floating=True)
    assert robot.nv == model.nv and robot.bodies[0].joint.kind == "free"
    rng = np.random.default_rng(7)
    for _ in range(3):
        errs = compare_all(pin, robot, model, rng)
        bad = {k: e for k, e in errs.items() if not e < TOL}
        assert not bad, f"{name}: {bad}"


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["solo12", "talos"])
def test_fixed_root_urdf_against_pinocchio(pin, name):
    """The same trees on a fixed base (several branches hanging from the world)."""
    path = erd_path(ROBOTS[name])
    robot = load(path)
    model = pin_model(path, floating=False)
    errs = compare_all(pin, robot, model, np.random.default_rng(3), methods=("fd1", "fd4"))
    assert max(errs.values()) < TOL, errs


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(4))
def test_random_trees_with_spherical_and_free_joints(pin, seed):
    """Random trees mixing revolute, prismatic, spherical and free joints (free joints
    also deep in the tree), built joint by joint in Pinocchio."""
    rng = np.random.default_rng(100 + seed)
    n = 9
    parents = [-1] + [int(rng.integers(-1, i)) for i in range(1, n)]
    robot = random_chain(n, rng, joint_types=("revolute", "prismatic", "spherical", "free"),
                         parents=parents)
    errs = compare_all(pin, robot, pin_model_from_robot(robot), rng)
    assert max(errs.values()) < TOL, errs


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["solo12", "talos"])
def test_body_frame_jacobians_against_pinocchio(pin, name):
    """J of every link frame of a floating-base tree (world-aligned at the frame origin,
    angular rows first) against getFrameJacobian(LOCAL_WORLD_ALIGNED), and Jdot qd against
    the classical frame acceleration at qdd = 0 (no gravity)."""
    path = erd_path(ROBOTS[name])
    robot = load(path, floating_base=True)
    model = pin_model(path)
    data = model.createData()
    c = Converter(robot, model)
    q, v, *_ = random_state(robot, np.random.default_rng(11))
    pin.computeJointJacobians(model, data, c.q_to_pin(q))
    pin.forwardKinematics(model, data, c.q_to_pin(q), c.v_to_pin(v), np.zeros(model.nv))
    pin.updateFramePlacements(model, data)
    checked = 0
    for f in robot.frames:
        if f.body < 0 or not model.existFrame(f.name):
            continue
        Jp = pin.getFrameJacobian(model, data, model.getFrameId(f.name), pin.LOCAL_WORLD_ALIGNED)
        Jp = np.vstack([Jp[3:], Jp[:3]])[:, c.vperm]
        J = A.jacobian(robot, q, frame=f)
        assert rel_err(J, Jp) < TOL, f.name
        acc = pin.getFrameClassicalAcceleration(model, data, model.getFrameId(f.name), pin.LOCAL_WORLD_ALIGNED)
        Jdqd = np.concatenate([acc.angular, acc.linear])
        assert rel_err(A.jacobian_dot_qd(robot, q, v, frame=f), Jdqd) < TOL, f.name
        checked += 1
    assert checked >= robot.nb
