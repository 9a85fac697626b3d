"""Second check of the derivatives, independent of any other implementation: central
finite differences of the generic functions, in the tangent space for quaternion and
planar joints (q (+) h e_j, soagen.quaternion.integrate, Pinocchio's convention), on the
bundled robots and on random trees with every joint type."""

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import SoagenError
from tests.support.accuracy import rel_err
from tests.support.derivatives import (
    ALL_JOINTS,
    random_state,
    random_tree,
    tangent_fd,
    vector_fd,
)

FD_TOL = 1e-6      # central differences with h = 1e-6: truncation ~1e-12, round-off ~1e-10 relative


def robots():
    for name in ("puma560", "stanford", "arm7", "leg6"):
        yield name, soagen.load(f"robots/{name}.yaml"), np.random.default_rng(1)
    for seed in range(3):
        robot, rng = random_tree(300 + seed, n=6, joint_types=ALL_JOINTS)
        yield f"random{seed}:" + ",".join(b.joint.kind[:3] for b in robot.bodies), robot, rng


CASES = list(robots())
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, robot, rng", CASES, ids=IDS)
def test_inverse_dynamics_derivatives(name, robot, rng):
    q, qd, qdd, _ = random_state(robot, rng)
    dq, dqd = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
    assert rel_err(dq, tangent_fd(lambda x: A.inverse_dynamics(robot, x, qd, qdd), robot, q)) < FD_TOL
    assert rel_err(dqd, vector_fd(lambda v: A.inverse_dynamics(robot, q, v, qdd), qd)) < FD_TOL


@pytest.mark.parametrize("name, robot, rng", CASES, ids=IDS)
def test_forward_dynamics_derivatives(name, robot, rng):
    q, qd, _, tau = random_state(robot, rng)
    dq, dqd, dtau = A.forward_dynamics_derivatives(robot, q, qd, tau)
    fd = lambda x, v, t: A.forward_dynamics(robot, x, v, t)
    assert rel_err(dq, tangent_fd(lambda x: fd(x, qd, tau), robot, q)) < FD_TOL
    assert rel_err(dqd, vector_fd(lambda v: fd(q, v, tau), qd)) < FD_TOL
    assert rel_err(dtau, A.inverse_mass_matrix(robot, q)) < 1e-12
    assert rel_err(dtau @ A.mass_matrix(robot, q), np.eye(robot.nv)) < 1e-9


@pytest.mark.parametrize("name, robot, rng", CASES, ids=IDS)
def test_mass_matrix_dot_is_the_rate_of_M_along_qd(name, robot, rng):
    """Mdot = C + C^T against d/dt M(q (+) t qd) at t = 0 (the configuration moving with
    velocity qd), and Mdot - 2C skew-symmetric to 1e-12."""
    q, qd, _, _ = random_state(robot, rng)
    C, Mdot = A.coriolis_matrix(robot, q, qd), A.mass_matrix_dot(robot, q, qd)
    h = 1e-6
    fd = (A.mass_matrix(robot, soagen.quaternion.integrate(robot, q, h * qd))
          - A.mass_matrix(robot, soagen.quaternion.integrate(robot, q, -h * qd))) / (2 * h)
    assert rel_err(Mdot, fd) < FD_TOL
    N = Mdot - 2 * C
    assert rel_err(N + N.T, np.zeros_like(N)) < 1e-12


@pytest.mark.parametrize("name, robot, rng", CASES, ids=IDS)
def test_coriolis_times_qd_is_the_velocity_bias(name, robot, rng):
    """C qd = H phi (M phi^T a + b) without gravity = bias_forces(q, qd) - bias_forces(q, 0)."""
    q, qd, _, _ = random_state(robot, rng)
    C = A.coriolis_matrix(robot, q, qd)
    assert rel_err(C @ qd, A.bias_forces(robot, q, qd) - A.bias_forces(robot, q, np.zeros(robot.nv))) < 1e-12


@pytest.mark.parametrize("name", ["puma560", "stanford", "arm7"])
def test_coriolis_is_the_christoffel_matrix_for_one_dof_joints(name):
    """C(i, j) = sum_k Gamma_ijk qd_k with Gamma_ijk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i)
    (finite differences of M), and dtau/dqd = 2 C, for robots of revolute and prismatic joints."""
    robot = soagen.load(f"robots/{name}.yaml")
    q, qd, qdd, _ = random_state(robot, np.random.default_rng(5))
    dM = vector_fd(lambda x: A.mass_matrix(robot, x), q)                 # dM[i, j, k] = dM_ij/dq_k
    Gamma = 0.5 * (dM + dM.transpose(0, 2, 1) - dM.transpose(2, 0, 1))
    C = A.coriolis_matrix(robot, q, qd)
    assert rel_err(C, Gamma @ qd) < FD_TOL
    assert rel_err(A.inverse_dynamics_derivatives(robot, q, qd, qdd)[1], 2 * C) < 1e-12


def test_bad_input_is_refused_with_a_clear_error():
    robot = soagen.load("robots/puma560.yaml")
    with pytest.raises(SoagenError, match="qdd: expected a vector of length 6"):
        A.inverse_dynamics_derivatives(robot, np.zeros(6), np.zeros(6), np.zeros(5))
    with pytest.raises(SoagenError, match="qd: expected a vector of length 6"):
        A.coriolis_matrix(robot, np.zeros(6), np.zeros(7))
    with pytest.raises(SoagenError, match="tau: expected a vector of length 6"):
        A.forward_dynamics_derivatives(robot, np.zeros(6), np.zeros(6), np.zeros((6, 1)))
