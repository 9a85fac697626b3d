"""Oracle: frame placements, velocities, classical accelerations and the centroidal
quantities against Pinocchio on the robots of example-robot-data that controllers are
built for (TALOS, Unitree G1, ANYmal, Solo12, UR5, Panda), fixed and floating base.

Pinocchio: framesForwardKinematics / forwardKinematics with (q, v, a), then per link
frame (BODY) oMf, getFrameVelocity and getFrameClassicalAcceleration in
LOCAL_WORLD_ALIGNED; centerOfMass, jacobianCenterOfMass, computeCentroidalMap and
computeCentroidalMapTimeVariation (dAg v). Its spatial vectors are (linear, angular),
soagen's (angular, linear). Measured: every quantity within 1e-14 relative (round-off);
the bound is 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.oracles.pinocchio import Converter, angular_first, pin_model
from tests.support.accuracy import rel_err
from tests.support.erd import erd_path

ROBOTS = {"talos": "talos_data/robots/talos_reduced.urdf", "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
          "anymal": "anymal_b_simple_description/robots/anymal.urdf",
          "solo12": "solo_description/robots/solo12.urdf",
          "ur5": "ur_description/urdf/ur5_robot.urdf", "panda": "panda_description/urdf/panda.urdf"}
TOL = 1e-12
CASES = [pytest.param(n, f, id=f"{n}-{'floating' if f else 'fixed'}") for n in ROBOTS for f in (False, True)]


def state(robot, model, seed):
    rng = np.random.default_rng(seed)
    q = robot.random_configuration(rng)
    for b in robot.bodies:                      # a free joint: the base about 1 m from the origin
        if b.joint.kind == "free":
            q[b.q_index:b.q_index + 3] = rng.normal(size=3)
    qd, qdd = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    return q, qd, qdd


def setup(name, floating):
    path = erd_path(ROBOTS[name])
    robot = soagen.load(path, floating_base=floating)
    model = pin_model(path, floating=floating)
    return robot, model, Converter(robot, model)


@pytest.mark.oracle
@pytest.mark.parametrize("name,floating", CASES)
def test_frames_against_pinocchio(pin, name, floating):
    robot, model, c = setup(name, floating)
    data = model.createData()
    shared = [f for f in robot.frames if model.existFrame(f.name, pin.BODY)]
    # every link frame of the file is one of Pinocchio's, except soagen's own world link of a floating base
    assert {f.name for f in robot.frames} - {f.name for f in shared} == ({robot.base} if floating else set())
    for seed in range(2):
        q, qd, qdd = state(robot, model, seed)
        pin.forwardKinematics(model, data, c.q_to_pin(q), c.v_to_pin(qd), c.v_to_pin(qdd))
        pin.updateFramePlacements(model, data)
        T = A.frame_placements(robot, q)
        V = A.frame_velocities(robot, q, qd)
        Acc = A.frame_accelerations(robot, q, qd, qdd)
        assert list(T) == [f.name for f in robot.frames]            # every frame of the file, in file order
        ids = [model.getFrameId(f.name, pin.BODY) for f in shared]
        want_T = [data.oMf[i].homogeneous for i in ids]
        want_V = [angular_first(pin.getFrameVelocity(model, data, i, pin.LOCAL_WORLD_ALIGNED).vector) for i in ids]
        want_A = [angular_first(pin.getFrameClassicalAcceleration(model, data, i, pin.LOCAL_WORLD_ALIGNED).vector)
                  for i in ids]
        names = [f.name for f in shared]
        errs = {"placement": rel_err([T[n] for n in names], want_T),
                "velocity": rel_err([V[n] for n in names], want_V),
                "acceleration": rel_err([Acc[n] for n in names], want_A)}
        assert max(errs.values()) < TOL, errs


@pytest.mark.oracle
@pytest.mark.parametrize("name,floating", CASES)
def test_centroidal_against_pinocchio(pin, name, floating):
    robot, model, c = setup(name, floating)
    data = model.createData()
    for seed in range(2):
        q, qd, _ = state(robot, model, seed)
        qp, vp = c.q_to_pin(q), c.v_to_pin(qd)
        Ag = pin.computeCentroidalMap(model, data, qp)
        dAg = pin.computeCentroidalMapTimeVariation(model, data, qp, vp)
        errs = {"com": rel_err(A.center_of_mass(robot, q), pin.centerOfMass(model, data, qp)),
                "J_com": rel_err(A.com_jacobian(robot, q),
                                 np.asarray(pin.jacobianCenterOfMass(model, data, qp))[:, c.vperm]),
                "A_G": rel_err(A.centroidal_momentum_matrix(robot, q), angular_first(Ag)[:, c.vperm]),
                "A_G-dot qd": rel_err(A.centroidal_bias(robot, q, qd), angular_first(dAg @ vp))}
        assert max(errs.values()) < TOL, errs
