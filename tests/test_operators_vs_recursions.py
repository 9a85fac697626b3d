"""Second kind of evidence: the papers' operator expressions evaluated
literally on dense world-frame matrices, against the O(N) link-frame recursions, on random
chains with mixed revolute/prismatic joints, tilted axes and random placements."""

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders.random_robots import random_chain
from soagen.operators.chain import chain_operators
from tests.helpers import rel_err

CASES = [(1, 0), (2, 1), (3, 2), (7, 3), (20, 4), (50, 5)]


@pytest.fixture(scope="module", params=CASES, ids=[f"N{n}" for n, _ in CASES])
def chain(request):
    n, seed = request.param
    rng = np.random.default_rng(seed)
    robot = random_chain(n, rng)
    q = robot.random_configuration(rng)
    qd = rng.normal(size=robot.nv)
    ops = chain_operators(robot, q, qd)
    return robot, q, qd, ops, rng


def tol(n):
    return 1e-12 * max(10, n) ** 2


def test_mass_matrix_3_20(chain):
    robot, q, _, o, _ = chain
    M_op = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T) @ o.Pi          # (3.20)
    assert rel_err(A.mass_matrix(robot, q), M_op) < tol(robot.nb)


def test_bias_forces_3_20_with_gravity_3_21(chain):
    robot, q, qd, o, _ = chain
    C_op = o.Pi.T @ (o.H @ o.phi @ (o.M @ o.phi.T @ (o.a + o.E @ o.g) + o.b))
    assert rel_err(A.bias_forces(robot, q, qd), C_op) < tol(robot.nb)


def test_inverse_dynamics_with_tip_force_3_20(chain):
    robot, q, qd, o, rng = chain
    qdd, f0 = rng.normal(size=robot.nv), rng.normal(size=6)
    M = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T) @ o.Pi
    C = o.Pi.T @ (o.H @ o.phi @ (o.M @ o.phi.T @ (o.a + o.E @ o.g) + o.b))
    JT = o.Pi.T @ (o.H @ o.phi @ o.B)                                        # J^T = H phi B
    assert rel_err(A.inverse_dynamics(robot, q, qd, qdd, f_tip=f0), M @ qdd + C + JT @ f0) < tol(robot.nb)


def test_jacobian_3_13_and_jdot_qd(chain):
    robot, q, qd, o, _ = chain
    assert rel_err(A.jacobian(robot, q), o.B.T @ o.phi.T @ o.H.T @ o.Pi) < tol(robot.nb)
    w1 = o.V[:3]
    l10 = np.linalg.solve(o.B[:3, :3], o.B[:3, 3:])                          # recover l(1,0) from phi(1,0)
    a0 = np.concatenate([np.zeros(3), np.cross(w1, np.cross(w1, np.array([l10[2, 1], l10[0, 2], l10[1, 0]])))])
    assert rel_err(A.jacobian_dot_qd(robot, q, qd), o.B.T @ o.phi.T @ o.a + a0) < tol(robot.nb)


def test_inverse_mass_matrix_theorem_4_1(chain):
    robot, q, _, o, _ = chain
    I = np.eye(robot.nv)
    K = I - o.H @ o.Psi @ o.L
    Minv_op = o.Pi.T @ (K.T @ o.Dinv @ K) @ o.Pi                              # (4.16)
    Minv = A.inverse_mass_matrix(robot, q)
    assert rel_err(Minv, Minv_op) < tol(robot.nb)
    M = A.mass_matrix(robot, q)
    assert np.abs(Minv @ M - I).max() < 1e-13 * np.linalg.cond(M)


def test_innovations_factorization_fact_4_1(chain):
    robot, q, _, o, _ = chain
    F = np.eye(robot.nv) + o.H @ o.Phi @ o.L
    M_op = o.H @ o.phi @ o.M @ o.phi.T @ o.H.T
    assert rel_err(F @ o.D @ F.T, M_op) < tol(robot.nb)                         # (4.11)


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


def test_op_space_inverse_inertia_6_7_6_10(chain):
    robot, q, _, o, _ = chain
    Lam_op = o.B.T @ o.psi.T @ o.H.T @ o.Dinv @ o.H @ o.psi @ o.B           # (6.7)
    Lam = A.op_space_inverse_inertia(robot, q)
    assert rel_err(Lam, Lam_op) < tol(robot.nb)
    J = A.jacobian(robot, q)
    assert rel_err(Lam, J @ np.linalg.solve(A.mass_matrix(robot, q), J.T)) < 1e-13 * np.linalg.cond(A.mass_matrix(robot, q))
