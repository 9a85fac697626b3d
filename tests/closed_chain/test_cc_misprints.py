"""The misprints of docs/misprints-closed-chain.md, each checked numerically: the printed
form is wrong and the corrected form holds. Dense operators of one arm (soagen.operators.chain,
paper numbering, world frame) at a random state. Printed forms that are not even
well-typed (a product of non-conforming operators) cannot be evaluated; the docs give the
dimensions that show it, and the tests check the corrected forms."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
import soagen.closed_chain as cc
from soagen import algorithms as alg
from soagen.closed_chain.context import Context
from soagen.operators.chain import chain_operators
from tests.support.accuracy import rel_err
from tests.support.systems import SYSTEMS

TOL = 1e-12
"""The corrected forms against an independent route (M, J from the algorithms; the
closed-chain solutions): round-off of dense 6-dof operators and the small closed-chain
systems, measured <= 6e-14; the printed forms are off by 4e-2 and more."""


@pytest.fixture(scope="module")
def arm():
    robot = soagen.load(SYSTEMS.parent / "arm6.yaml")
    rng = np.random.default_rng(3)
    q, qd = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
    ops = chain_operators(robot, q, qd)
    Pi = ops.Pi
    J = alg.jacobian(robot, q) @ Pi.T                         # paper joint order
    M = Pi @ alg.mass_matrix(robot, q) @ Pi.T
    f = rng.normal(size=6)
    T = rng.normal(size=6)
    return robot, ops, J, M, f, T


def test_6_5a_and_6_11g_need_H_and_minus_sign(arm):
    robot, o, J, M, f, _ = arm
    W = (o.I() - o.H @ o.Psi @ o.L).T
    dq = -np.linalg.solve(M, J.T @ f)                                       # (4.4)
    assert rel_err(-W @ o.Dinv @ o.H @ o.psi @ o.B @ f, dq) < TOL   # corrected
    assert rel_err(W @ o.Dinv @ o.H @ o.psi @ o.B @ f, dq) > 1                 # H added, sign not fixed


def test_6_9b_HT_Dinv_H(arm):
    robot, o, J, M, *_ = arm
    Lam0 = J @ np.linalg.solve(M, J.T)
    assert rel_err(o.B.T @ o.psi.T @ o.H.T @ o.Dinv @ o.H @ o.psi @ o.B, Lam0) < TOL   # (6.7)


def test_6_18e_transpose(arm):
    robot, o, J, M, f, T = arm
    X = o.I() - o.H @ o.Psi @ o.L
    brace = T - o.H @ o.psi @ (o.S @ o.L @ T + o.B @ f)
    qdd = np.linalg.solve(M, T - J.T @ f)                                   # (6.14)
    assert rel_err(X.T @ o.Dinv @ brace, qdd) < TOL      # corrected
    assert rel_err(X @ o.Dinv @ brace, qdd) > 1e-3                              # printed


def test_5_13_transpose_not_inverse(arm):
    robot, o, J, M, f, T = arm
    X = o.I() - o.H @ o.Psi @ o.L
    rhs = o.Dinv @ (T - o.H @ o.psi @ (o.S @ o.L @ T))                      # a = b = 0 part
    qdd_f = np.linalg.solve(M, T)
    assert rel_err(X.T @ rhs, qdd_f) < TOL
    assert rel_err(np.linalg.inv(X) @ rhs, qdd_f) > 1e-3


def test_6_4_recursion_sign_and_nu1(arm):
    """(6.4) as printed: nu(k) only for k = 2..N and nu = +D^-1 H z: its result is
    +M^-1 J^T f(0) without the tip joint's share, neither (6.3) nor its negative."""
    robot, o, J, M, f, _ = arm
    X = o.I() - o.H @ o.Psi @ o.L
    nu = o.Dinv @ o.H @ o.psi @ o.B @ f
    printed = nu.copy()
    printed[0] = 0.0                                                         # nu(1) never set
    dq = -np.linalg.solve(M, J.T @ f)
    assert rel_err(-X.T @ nu, dq) < TOL                   # corrected
    assert rel_err(X.T @ printed, dq) > 1e-3 and rel_err(-X.T @ printed, dq) > 1e-6


def test_b4a_J_Minv_J(arm):
    """(b.4a) J M^-1 J: for N = 6 it is defined but not J M^-1 J^T (not even symmetric)."""
    robot, o, J, M, *_ = arm
    Lam = J @ np.linalg.solve(M, J.T)
    printed = J @ np.linalg.solve(M, J)
    assert rel_err(printed, Lam) > 1e-2 and rel_err(printed, printed.T) > 1e-2


def test_6_11j_left_side_is_alpha0(bundled):
    s = bundled["dual_arm_box"]
    q, qd, tau = s.consistent_state(0)
    r = cc.forward_dynamics(s, q, qd, tau, method="rccfd1")
    ctx = Context(s, q, qd, tau)
    for i, t in enumerate(ctx.arms):
        alpha0 = ctx.A[i] @ r.alpha_C + ctx.a_C[i]                           # (2.7b)
        assert rel_err(r.alpha0[i], alpha0) < TOL           # alpha_f + Delta alpha
        d_alpha = t.delta(r.f0[i])[1]
        assert rel_err(d_alpha, alpha0) > 1e-3                                   # printed: Delta alpha(0)


def test_b10_b11_sign_and_b14_unknown(variants):
    """After (b.9): H^T Wdot + J qdd = A M^-1(C) A^T f(0) - G1 - J M^-1 C (printed: + J M^-1 C),
    hence G2 = H Omega^-1 {(A M^-1(C) A^T Pi - I) G1 - J M^-1 C} in (b.11); and (b.14)
    holds for the unknowns (Wdot, qdd), printed (Wdot, qdot)."""
    s = variants["three_soft_finger"]
    q, qd, tau = s.consistent_state(1)
    r = cc.forward_dynamics(s, q, qd, tau, method="nonrigid")
    ctx = Context(s, q, qd, tau)
    from soagen.operators.chain import block_diag
    Minv = block_diag([np.linalg.inv(alg.mass_matrix(t.robot, t.q)) for t in ctx.arms])
    M = np.linalg.inv(Minv)
    J = block_diag([t.Rb6 @ alg.jacobian(t.robot, t.q) for t in ctx.arms])
    C = np.concatenate([alg.bias_forces(t.robot, t.q, t.qd) for t in ctx.arms])
    T = np.concatenate([t.tau for t in ctx.arms])
    A, MCinv, H = ctx.A_stack(), ctx.M_C_inv(), ctx.Phi().T
    Oinv = np.linalg.inv(J @ Minv @ J.T + A @ MCinv @ A.T)
    jd = np.concatenate([t.jdot_qdot() for t in ctx.arms])
    G1 = A @ MCinv @ ctx.b_C + jd + np.concatenate([ctx.W @ dv for dv in ctx.dV]) - ctx.a_stack() - J @ Minv @ C
    f = r.f0.reshape(-1)
    lhs = H.T @ r.Wdot + J @ r.qdd_all
    assert rel_err(lhs, A @ MCinv @ A.T @ f - G1 - J @ Minv @ C) < TOL     # corrected
    assert rel_err(lhs, A @ MCinv @ A.T @ f - G1 + J @ Minv @ C) > 1e-2                           # printed
    S = H @ Oinv @ H.T
    Pi = Oinv - Oinv @ H.T @ np.linalg.solve(S, H @ Oinv)
    AMA = A @ MCinv @ A.T
    G2 = H @ Oinv @ ((AMA @ Pi - np.eye(len(G1))) @ G1 - J @ Minv @ C)                      # (b.11) corrected
    G2_printed = H @ Oinv @ ((AMA @ Pi - np.eye(len(G1))) @ G1 + J @ Minv @ C)
    G3 = -J.T @ Oinv @ G1 - C                                                                # (b.13)
    K = np.block([[S, H @ Oinv @ J], [J.T @ Oinv @ H.T, M]])
    top = H @ Oinv @ AMA @ Pi @ J @ Minv @ T
    bottom = (np.eye(s.n) - J.T @ Oinv @ J @ Minv) @ T
    rhs = np.concatenate([top + G2, bottom + G3])
    assert rel_err(K @ np.concatenate([r.Wdot, r.qdd_all]), rhs) < TOL       # (b.14)
    assert rel_err(K @ np.concatenate([r.Wdot, qd]), rhs) > 1e-3                                  # with qdot
    assert rel_err(K @ np.concatenate([r.Wdot, r.qdd_all]), np.concatenate([top + G2_printed, bottom + G3])) > 1e-3


def test_framework_3_13_needs_D_half_and_U(arm):
    """(3.13) as printed, I - b (A Lambda A^*)^-1 b^* with b = H psi B A^*, is not the
    closed-topology solution; with D^-1/2 b in place of b it is (for U = 0). One arm whose
    tip point is held (A = the linear rows, closure A J qdd = U = 0): three of its six
    joints stay free, so the solution is not zero. (Holding the whole tip, A = I, left the
    6-dof arm no motion: every side was round-off and the check compared zeros.)"""
    robot, o, J, M, f, T = arm
    A_ = np.eye(6)[3:]                                                     # tip point held
    X = o.I() - o.H @ o.Psi @ o.L
    b = o.H @ o.psi @ o.B @ A_.T
    Dh = np.diag(1 / np.sqrt(np.diag(o.D)))                                # D^-1/2 (1-dof joints)
    Lam = A_ @ J @ np.linalg.solve(M, J.T) @ A_.T
    exact = np.linalg.solve(M, T) - np.linalg.solve(M, J.T @ A_.T @ np.linalg.solve(Lam, A_ @ J @ np.linalg.solve(M, T)))
    corrected = X.T @ Dh @ (o.I() - Dh @ b @ np.linalg.solve(Lam, b.T @ Dh)) @ Dh @ X @ T
    printed = X.T @ Dh @ (o.I() - b @ np.linalg.solve(Lam, b.T)) @ Dh @ X @ T
    assert np.abs(exact).max() > 1e-2 * np.abs(np.linalg.solve(M, T)).max()       # it moves
    assert np.abs(A_ @ J @ exact).max() < TOL * np.abs(J).max() * np.abs(exact).max()   # and holds
    assert rel_err(corrected, exact) < TOL
    assert rel_err(printed, exact) > 1e-3
