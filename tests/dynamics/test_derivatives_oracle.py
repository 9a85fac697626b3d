"""Third kind of evidence: Pinocchio (computeRNEADerivatives, computeABADerivatives,
computeCoriolisMatrix, computeJointTorqueRegressor) on UR5, Panda, Kinova and Solo12 with
a free-flyer root (example-robot-data URDFs), and on random trees with revolute,
prismatic, spherical and free joints built joint by joint, at random states, to 1e-9
relative. Pinocchio's tangent space for the free flyer is q (+) v with v = (linear,
angular) body-frame; the bridge permutes it to soagen's (angular, linear)."""

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.oracles.pinocchio import Converter, pin_model, pin_model_from_robot
from tests.support.accuracy import rel_err
from tests.support.derivatives import random_state, random_tree
from tests.support.erd import ERD, erd_robot

pin = pytest.importorskip("pinocchio", reason="the oracle needs the optional 'pin' package (pip install soagen[test])")

TOL = 1e-9


def errors(robot, model, rng):
    """Relative errors of every derivative function against Pinocchio at one random state."""
    data, c = model.createData(), Converter(robot, model)
    q, qd, qdd, tau = random_state(robot, rng)
    qp, vp = c.q_to_pin(q), c.v_to_pin(qd)
    P = c.matrix_from_pin
    dq, dv, da = pin.computeRNEADerivatives(model, data, qp, vp, c.v_to_pin(qdd))
    ours = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
    out = {"dtau/dq": rel_err(ours[0], P(dq)), "dtau/dqd": rel_err(ours[1], P(dv)),
           "dtau/dqdd = M": rel_err(A.mass_matrix(robot, q), P(np.triu(da) + np.triu(da, 1).T))}
    fd = pin.computeABADerivatives(model, data, qp, vp, c.v_to_pin(tau))
    for k, x, y in zip(("dqdd/dq", "dqdd/dqd", "dqdd/dtau"), A.forward_dynamics_derivatives(robot, q, qd, tau), fd):
        out[k] = rel_err(x, P(y))
    out["C"] = rel_err(A.coriolis_matrix(robot, q, qd), P(pin.computeCoriolisMatrix(model, data, qp, vp)))
    Yp = np.asarray(pin.computeJointTorqueRegressor(model, data, qp, vp, c.v_to_pin(qdd)))
    cols = np.concatenate([np.arange(10 * (j - 1), 10 * j) for _, j, _, _ in c.map])     # joint j = body i
    out["Y"] = rel_err(A.regressor(robot, q, qd, qdd), Yp[c.vperm][:, cols])
    out["pi"] = rel_err(A.inertial_parameters(robot),
                        np.concatenate([model.inertias[j].toDynamicParameters() for _, j, _, _ in c.map]))
    return out


def assert_close(errs, what):
    bad = {k: v for k, v in errs.items() if not v < TOL}
    assert not bad, f"{what}: {bad}"


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(ERD))
def test_example_robot_data(name):
    robot, path = erd_robot(name)
    model = pin_model(path, floating=ERD[name][1])
    rng = np.random.default_rng(7)
    for _ in range(3):
        assert_close(errors(robot, model, rng), name)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(3))
def test_random_trees_with_multi_dof_joints(seed):
    """Spherical and free joints anywhere in the tree (Pinocchio's planar joint only
    turns about z, so planar joints are checked by finite differences instead)."""
    robot, rng = random_tree(200 + seed, n=8, joint_types=("revolute", "prismatic", "spherical", "free"))
    assert_close(errors(robot, pin_model_from_robot(robot), rng), f"random tree {seed}")


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["ur5", "panda"])
def test_base_parameter_count_is_the_rank_of_pinocchios_regressor(name):
    """Pinocchio has no base-parameter routine; the rank of its stacked joint torque
    regressor at random states is the number of base parameters, independently of ours."""
    robot, path = erd_robot(name)
    model = pin_model(path, floating=False)
    data, c, rng = model.createData(), Converter(robot, model), np.random.default_rng(3)
    rows = []
    for _ in range(40):
        q, qd, qdd, _ = random_state(robot, rng)
        rows.append(np.asarray(pin.computeJointTorqueRegressor(model, data, c.q_to_pin(q), c.v_to_pin(qd),
                                                               c.v_to_pin(qdd))))
    sv = np.linalg.svd(np.vstack(rows), compute_uv=False)
    assert int((sv > 1e-9 * sv[0]).sum()) == len(A.base_parameters(robot).names)
