"""Swain-Morris unified model: operators (7)-(21), (28), Lemma B1/B2, Table I, Section 8
special cases and the flexible base (Appendix C), cross-checked against the generic tree
algorithms of soagen (the same system with the base as a 6-dof free joint)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from soagen import algorithms as A
from soagen import quaternion as Q
from soagen.backend import NUMPY
from soagen.dynamics.kinematics import (
    frame_pose,
    joint_maps,
    link_transforms,
    velocity_sweep,
    world_poses,
)
from soagen.errors import SoagenError
from soagen.loaders.random_robots import random_chain, random_rotation
from soagen.model import Frame
from soagen.operators.swain_morris import crf, operators
from soagen.spatial import phi_matrix, quaternion_rotation, spatial_inertia
from soagen.swain_morris.unified import (
    base_acceleration,
    base_acceleration_26,
    flexible_base_force,
    forward_dynamics,
    grasp_from_pose,
    printed_C,
    unified,
)
from tests.support.accuracy import rel_err

BV = np.arange(6)


def system(seed, arms=((("revolute",) * 3), ("spherical", "revolute", "prismatic"))):
    """A free base (body 0) carrying serial arms; end-effector frames at random offsets."""
    rng = np.random.default_rng(seed)
    kinds, parents, ends = ["free"], [-1], []
    for arm in arms:
        for a, k in enumerate(arm):
            parents.append(0 if a == 0 else len(kinds) - 1)
            kinds.append(k)
        ends.append(len(kinds) - 1)
    robot = random_chain(len(kinds), rng, parents=parents, kinds=kinds)
    robot = dataclasses.replace(robot, gravity=np.zeros(3))                 # space setting
    ee = [Frame(f"e{j}", b, random_rotation(rng), 0.2 * rng.normal(size=3)) for j, b in enumerate(ends)]
    q = robot.random_configuration(rng)
    q[:3] = rng.normal(size=3)
    return robot, ee, q, rng.normal(size=robot.nv), rng


TOL = 1e-12
"""Dense Swain-Morris operators (inverses and Schur complements of 6-24 dof systems)
against each other and the generic algorithms: round-off, measured <= 8e-14 (the
misprinted forms are off by 0.18 and more)."""
FD = 1e-7
"""Central differences with h = 1e-6: truncation h^2 ~ 1e-12, round-off eps / h ~ 1e-10
(measured 1e-10)."""


def ee_jacobians(robot, q, ee):
    """Tree Jacobians of the end-effector frames in their own frames (soagen generic)."""
    poses = world_poses(robot, link_transforms(robot, q, NUMPY))
    out = []
    for f in ee:
        R, _ = frame_pose(robot, poses, f)
        out.append(np.kron(np.eye(2), R).T @ A.jacobian(robot, q, frame=f))
    return np.vstack(out), poses


def test_generalized_inertia_is_the_schur_complement_of_the_tree_mass_matrix():
    robot, ee, q, v, _ = system(0)
    o = operators(robot, q, v, ee)
    u = unified(o)
    av = o.arm_v
    Mt = A.mass_matrix(robot, q)
    assert rel_err(Mt[np.ix_(BV, BV)], u.M_p) < TOL and rel_err(Mt[np.ix_(BV, av)], u.M_ap) < TOL
    assert rel_err(Mt[np.ix_(av, av)], u.M_a) < TOL
    assert rel_err(u.M, np.linalg.inv(np.linalg.inv(Mt)[np.ix_(av, av)])) < TOL    # (B7) = Schur
    assert np.all(np.linalg.eigvalsh(u.M) > 0)


def test_coriolis_terms_and_the_printed_lemma_B1_grouping():
    """C_tree = [C_p; C_a] with the corrected C_p, C_a; the printed C of Lemma B1 (with
    X_b^-1 as the pseudo-inverse) differs unless X_b is square (one arm of one link) or
    the arm joints are at rest."""
    robot, ee, q, v, _ = system(1)
    o = operators(robot, q, v, ee)
    u = unified(o)
    Ct = A.bias_forces(robot, q, v)
    assert rel_err(Ct[BV], u.C_p) < TOL and rel_err(Ct[o.arm_v], u.C_a) < TOL
    assert rel_err(printed_C(o, u), u.C) > 1e-3
    v_rest = v.copy()
    v_rest[o.arm_v] = 0
    o0 = operators(robot, q, v_rest, ee)
    assert rel_err(printed_C(o0, unified(o0)), unified(o0).C) < TOL
    robot1, ee1, q1, v1, _ = system(2, arms=(("spherical",),))                # X_b is 6 x 6
    o1 = operators(robot1, q1, v1, ee1)
    assert rel_err(printed_C(o1, unified(o1)), unified(o1).C) < TOL


def test_B11_B12_B13():
    """(B12), (B13) hold as printed (no inverse of X_b is needed: M_p - X_b^T M_q X_b = M_b);
    (B11) needs X_b X_b^-1 = I on X_b_dot V_b, false for a 6nm x 6 X_b."""
    robot, ee, q, v, rng = system(3)
    o = operators(robot, q, v, ee)
    u = unified(o)
    K = u.M_ap.T @ np.linalg.inv(u.M_p)
    Xb, Mq, Mb = o.X_b, o.M_q, o.M_b
    assert rel_err(-K @ o.b_b, K @ (Xb.T @ Mq @ Xb - u.M_p) @ np.linalg.inv(Mb) @ o.b_b) < TOL      # (B12)
    f_b = rng.normal(size=6)
    assert rel_err(K @ f_b, K @ (u.M_p - Xb.T @ Mq @ Xb) @ np.linalg.inv(Mb) @ f_b) < TOL          # (B13)
    Xi = np.linalg.pinv(Xb)
    lhs = K @ Mb @ Xi @ o.X_b_dot @ o.V_b
    rhs = -K @ (Xb.T @ Mq - u.M_p @ Xi) @ o.X_b_dot @ o.V_b                                 # (B11)
    assert rel_err(lhs, rhs) > 1e-3


def test_disturbance_jacobian_and_base_acceleration():
    """(B14) J_D = M_p^-1 M_ap equals (B15) M_b^-1 X_b^T G X Phi; G by the inversion lemma;
    the printed (26) equals the base equation (23) solved for V_b_dot."""
    robot, ee, q, v, rng = system(4)
    o = operators(robot, q, v, ee)
    u = unified(o)
    Mb_inv = np.linalg.inv(o.M_b)
    assert rel_err(u.J_D, Mb_inv @ o.X_b.T @ u.G @ o.X @ o.Phi) < TOL                              # (B15)
    lemma = o.M_q - o.M_q @ o.X_b @ np.linalg.inv(o.M_b + o.X_b.T @ o.M_q @ o.X_b) @ o.X_b.T @ o.M_q
    assert rel_err(u.G, lemma) < TOL
    qdd, f_b, f_e = rng.normal(size=len(o.arm_v)), rng.normal(size=6), rng.normal(size=6 * len(ee))
    assert rel_err(base_acceleration_26(o, u, qdd, f_b, f_e), base_acceleration(o, u, qdd, f_b, f_e)) < TOL


def test_generalized_jacobian():
    """J = J_q - J_b J_D (41): with zero total momentum the end-effector velocities are
    V_e = J qd (the base reacts as M_p V_b = -M_ap qd); J_b, J_q are the tree Jacobians."""
    robot, ee, q, v, _ = system(5)
    o = operators(robot, q, v, ee)
    u = unified(o)
    Jt, _ = ee_jacobians(robot, q, ee)
    assert rel_err(Jt[:, BV], u.J_b) < TOL and rel_err(Jt[:, o.arm_v], u.J_q) < TOL
    v0 = v.copy()
    v0[BV] = -u.J_D @ v[o.arm_v]
    assert rel_err(Jt @ v0, u.J @ v[o.arm_v]) < TOL
    assert rel_err(u.J.T, u.J_a - u.M_ap.T @ np.linalg.solve(u.M_p, u.J_p)) < TOL                  # (B8)
    Minv = np.linalg.inv(A.mass_matrix(robot, q))
    assert rel_err(u.H, Jt @ Minv @ Jt.T) < TOL                                             # (48)


@pytest.mark.parametrize("f_b_scale", [0.0, 1.0])      # free-floating (8.2), free-flying (8.3)
def test_forward_dynamics_without_object_equals_the_tree(f_b_scale):
    robot, ee, q, v, rng = system(6)
    o = operators(robot, q, v, ee)
    u = unified(o)
    T, f_b = rng.normal(size=len(o.arm_v)), f_b_scale * rng.normal(size=6)
    sol = forward_dynamics(o, u, T, f_b)
    tau = np.zeros(robot.nv)
    tau[BV], tau[o.arm_v] = f_b, T
    qdd = A.forward_dynamics(robot, q, v, tau)
    assert rel_err(sol.qdd, qdd[o.arm_v]) < TOL and rel_err(sol.V_b_dot, qdd[BV]) < TOL


def grasped(seed):
    robot, ee, q, _, rng = system(seed)
    M_o = spatial_inertia(2.0, np.array([0.05, 0.02, -0.03]), np.diag([0.1, 0.2, 0.15]))
    g = grasp_from_pose(robot, q, ee, M_o, (random_rotation(rng), np.array([0.1, 0.2, 0.0])))
    Jt, poses = ee_jacobians(robot, q, ee)
    C = np.hstack([Jt, -g.W])                       # consistent velocities: V_e = W V_o
    null = np.linalg.svd(C)[2][C.shape[0]:].T
    x = null @ rng.normal(size=null.shape[1])
    return robot, ee, q, x[:robot.nv], x[robot.nv:], g, Jt, poses, rng


def test_table_I_forward_dynamics_with_a_held_object_against_a_kkt_solve():
    """Table I (with (49) corrected) against the tree mass matrix, bias forces and
    Jacobian-dot terms of soagen's generic recursions with Lagrange multipliers f_e."""
    robot, ee, q, v, V_o, g, Jt, poses, rng = grasped(7)
    o = operators(robot, q, v, ee)
    u = unified(o)
    T, f_b = rng.normal(size=len(o.arm_v)), rng.normal(size=6)
    sol = forward_dynamics(o, u, T, f_b, g, V_o)
    n, m6 = robot.nv, 6 * len(ee)
    bias = []
    for j, f in enumerate(ee):                      # body-frame d/dt J qd from world-aligned Jdot qd
        R, _ = frame_pose(robot, poses, f)
        Ve = Jt[6 * j:6 * j + 6] @ v
        bias.append(np.kron(np.eye(2), R).T @ A.jacobian_dot_qd(robot, q, v, frame=f)
                    - np.concatenate([np.zeros(3), np.cross(Ve[:3], Ve[3:])]))
    K = np.zeros((n + 6 + m6, n + 6 + m6))
    r = np.zeros(n + 6 + m6)
    tau = np.zeros(n)
    tau[BV], tau[o.arm_v] = f_b, T
    K[:n, :n], K[:n, n + 6:], r[:n] = A.mass_matrix(robot, q), Jt.T, tau - A.bias_forces(robot, q, v)
    K[n:n + 6, n:n + 6], K[n:n + 6, n + 6:], r[n:n + 6] = g.M_o, -g.W.T, -crf(V_o) @ g.M_o @ V_o
    K[n + 6:, :n], K[n + 6:, n:n + 6], r[n + 6:] = Jt, -g.W, -np.concatenate(bias)
    x = np.linalg.solve(K, r)
    assert rel_err(sol.qdd, x[o.arm_v]) < TOL and rel_err(sol.V_b_dot, x[BV]) < TOL
    assert rel_err(sol.V_o_dot, x[n:n + 6]) < TOL and rel_err(sol.f_e, x[n + 6:]) < TOL
    V_e_dot = u.J_b @ sol.V_b_dot + u.J_q @ sol.qdd + u.bias_e                             # (36)
    assert rel_err(V_e_dot, g.W @ sol.V_o_dot) < TOL                                         # (35)


def test_fixed_base_limit():
    """Sec. 8.1 (M_b -> inf, V_b -> 0): M -> M_a, J -> J_q, C -> C_a."""
    robot, ee, q, v, _ = system(8)
    v[BV] = 0
    base = robot.bodies[0]
    errs = []
    for s in (1e4, 1e8):
        heavy = dataclasses.replace(robot, bodies=(dataclasses.replace(base, mass=base.mass * s,
                                                                       inertia=base.inertia * s),) + robot.bodies[1:])
        u = unified(operators(heavy, q, v, ee))
        errs.append(max(np.abs(u.M - u.M_a).max(), np.abs(u.J - u.J_q).max(), np.abs(u.C - u.C_a).max()))
    assert errs[1] < 1e-5 and errs[1] < errs[0] * 1e-3


def momentum(robot, q, v):
    """Total spatial momentum about the world origin, world axes (generic kinematics)."""
    X = link_transforms(robot, q, NUMPY)
    V, _ = velocity_sweep(robot, X, joint_maps(robot, NUMPY), v, NUMPY, gravity=False)
    poses = world_poses(robot, X)
    from soagen.dynamics.inertia import link_inertias
    Ms = link_inertias(robot, NUMPY)
    return sum(phi_matrix(R, p) @ (Ms[i] @ V[i]) for i, (R, p) in enumerate(poses))


def simulate(robot, ee, q, v, T, steps, dt, f_b_of=None):
    """RK4 on (theta_dot = Omega W (b.5), W_dot from Table I), quaternions renormalized."""
    def f(q, v):
        o = operators(robot, q, v, ee)
        u = unified(o)
        f_b = np.zeros(6) if f_b_of is None else f_b_of(q, v)
        sol = forward_dynamics(o, u, T, f_b)
        a = np.zeros(robot.nv)
        a[BV], a[o.arm_v] = sol.V_b_dot, sol.qdd
        return Q.q_dot(robot, q, v), a
    for _ in range(steps):
        k1 = f(q, v)
        k2 = f(q + dt / 2 * k1[0], v + dt / 2 * k1[1])
        k3 = f(q + dt / 2 * k2[0], v + dt / 2 * k2[1])
        k4 = f(q + dt * k3[0], v + dt * k3[1])
        q = Q.normalize(robot, q + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]))
        v = v + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    return q, v


def test_free_floating_momentum_is_conserved():
    """Sec. 8.2: no external force, constant joint torques; the drift of the total momentum
    over 0.2 s (dt = 1 ms, RK4) stays at round-off/truncation level."""
    robot, ee, q, v, rng = system(9)
    T = rng.normal(size=robot.nv - 6)
    h0 = momentum(robot, q, v)
    q1, v1 = simulate(robot, ee, q, v, T, 200, 1e-3)
    drift = np.linalg.norm(momentum(robot, q1, v1) - h0) / np.linalg.norm(h0)
    assert drift < 1e-9, drift
    assert np.abs(v1 - v).max() > 1e-2                                  # it moved


def test_flexible_base():
    """Appendix C (C5): with s_b = delta_b = 0 the flexible base is free-floating; with
    damping the energy (kinetic + spring) decays; stiff and damped, the base stays put."""
    robot, ee, q, v, rng = system(10, arms=(("revolute",) * 2,))
    T = np.zeros(robot.nv - 6)
    p0 = q[:3].copy()
    zero = lambda q, v: flexible_base_force(np.zeros((6, 6)), np.zeros((6, 6)), v[:6], np.zeros(6))
    o = operators(robot, q, v, ee)
    free = forward_dynamics(o, unified(o), T, np.zeros(6))
    flex = forward_dynamics(o, unified(o), T, zero(q, v))
    assert np.array_equal(free.qdd, flex.qdd)
    k, c = 50.0, 5.0

    def spring(q, v):                              # translational spring in base axes
        R = quaternion_rotation(q[3:7])
        dx = np.concatenate([np.zeros(3), R.T @ (q[:3] - p0)])
        S = np.diag([0, 0, 0, k, k, k])
        return flexible_base_force(c * np.eye(6), S, v[:6], dx)

    def energy(q, v):
        return 0.5 * v @ A.mass_matrix(robot, q) @ v + 0.5 * k * np.sum((q[:3] - p0) ** 2)
    e = [energy(q, v)]
    for _ in range(3):
        q, v = simulate(robot, ee, q, v, T, 30, 2e-3, spring)
        e.append(energy(q, v))
    assert all(b < a for a, b in zip(e, e[1:])), e


def test_needs_a_free_base():
    robot = random_chain(3, np.random.default_rng(0))
    with pytest.raises(SoagenError, match="free root joint"):
        operators(robot, robot.neutral_configuration(), np.zeros(robot.nv), [])


def test_X_dot_by_central_differences_and_the_printed_chain_rule():
    """X_dot (Sec. 9 step (3)) against central differences along the motion; the printed
    d/dt(X(n <- i)) = d/dt X(n <- n-1) d/dt X(n-1 <- i) is not the product rule."""
    robot, ee, q, v, _ = system(11, arms=(("revolute",) * 3,))
    o = operators(robot, q, v, ee)
    h = 1e-6
    op = operators(robot, Q.integrate(robot, q, h * v), v, ee)
    om = operators(robot, Q.integrate(robot, q, -h * v), v, ee)
    assert rel_err((op.X - om.X) / (2 * h), o.X_dot) < FD
    assert rel_err((op.X_b - om.X_b) / (2 * h), o.X_b_dot) < FD
    blk = lambda A_, i, k: A_[6 * i:6 * i + 6, 6 * k:6 * k + 6]
    product_rule = blk(o.X_dot, 2, 1) @ blk(o.X, 1, 0) + blk(o.X, 2, 1) @ blk(o.X_dot, 1, 0)
    assert rel_err(blk(o.X_dot, 2, 0), product_rule) < TOL
    assert rel_err(blk(o.X_dot, 2, 0), blk(o.X_dot, 2, 1) @ blk(o.X_dot, 1, 0)) > 1e-3


def test_link_accelerations_25():
    """(25): V_dot = (E + X_b M_b^-1 X_b^T M_q)^-1 {X Phi qdd + X_b_dot V_b
    - X_b M_b^-1 X_b^T (D f_e + b) + X_b M_b^-1 (f_b - b_b) + X_dot Phi qd}, against (15)
    with V_b_dot from the base equation (23)."""
    robot, ee, q, v, rng = system(12)
    o = operators(robot, q, v, ee)
    u = unified(o)
    qdd, f_b, f_e = rng.normal(size=len(o.arm_v)), rng.normal(size=6), rng.normal(size=6 * len(ee))
    Vb_dot = base_acceleration(o, u, qdd, f_b, f_e)
    V_dot = o.X @ o.Phi @ qdd + o.X_b @ Vb_dot + o.X_b_dot @ o.V_b + o.X_dot @ o.Phi @ o.qd   # (15)
    Mb_inv = np.linalg.inv(o.M_b)
    E = np.eye(o.X.shape[0])
    rhs = (o.X @ o.Phi @ qdd + o.X_b_dot @ o.V_b - o.X_b @ Mb_inv @ o.X_b.T @ (o.D @ f_e + o.b)
           + o.X_b @ Mb_inv @ (f_b - o.b_b) + o.X_dot @ o.Phi @ o.qd)
    assert rel_err(np.linalg.solve(E + o.X_b @ Mb_inv @ o.X_b.T @ o.M_q, rhs), V_dot) < TOL
