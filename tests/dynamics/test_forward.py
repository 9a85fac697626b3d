"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against M^-1 and FD1-FD4 with the filter and smoother (soagen.dynamics.forward, filtering), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

import numpy as np
import pytest

from soagen import algorithms as A
from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_inverse_mass_matrix_theorem_4_1(chain):
    robot, q, _, o, _ = chain
    I = np.eye(robot.nv)
    K = I - o.H @ o.Psi @ o.L
    Minv_op = o.Pi.T @ (K.T @ o.Dinv @ K) @ o.Pi                              # (4.16)
    Minv = A.inverse_mass_matrix(robot, q)
    assert rel_err(Minv, Minv_op) < tol(robot.nb)
    M = A.mass_matrix(robot, q)
    assert np.abs(Minv @ M - I).max() < 1e-13 * np.linalg.cond(M)


@pytest.mark.parametrize("method", A.FD_METHODS)
def test_forward_dynamics_agree_with_solve(chain, method):
    robot, q, qd, o, rng = chain
    tau, f0 = rng.normal(size=robot.nv), rng.normal(size=6)
    M = A.mass_matrix(robot, q)
    for f in (None, f0):
        C = A.bias_forces(robot, q, qd, f_tip=f)
        expect = np.linalg.solve(M, tau - C)
        got = A.forward_dynamics(robot, q, qd, tau, method=method, f_tip=f)
        assert rel_err(got, expect) < 1e-14 * np.linalg.cond(M) * max(1, robot.nb)


def test_fd2_link_accelerations_5_6(chain):
    robot, q, qd, o, rng = chain
    tau = rng.normal(size=robot.nv)
    qdd, alpha, alpha0 = A.link_accelerations(robot, q, qd, tau)
    a = o.a + o.E @ o.g
    T_prime = o.Pi @ (tau - A.bias_forces(robot, q, qd))
    K = np.eye(robot.nv) - o.H @ o.Psi @ o.L
    alpha_op = o.psi.T @ o.H.T @ o.Dinv @ K @ T_prime + o.phi.T @ a            # (5.6)
    from soagen.dynamics.kinematics import link_transforms, world_poses
    poses = world_poses(robot, link_transforms(robot, q, __import__("soagen").backend.NUMPY))
    N = robot.nb
    for i in range(N):
        R = poses[i][0]
        world = np.concatenate([R @ alpha[i][:3], R @ alpha[i][3:]])
        k = N - i
        assert rel_err(world, alpha_op[6 * (k - 1):6 * k]) < tol(N)
    J = A.jacobian(robot, q)
    assert rel_err(alpha0, J @ qdd + A.jacobian_dot_qd(robot, q, qd)) < tol(N)
