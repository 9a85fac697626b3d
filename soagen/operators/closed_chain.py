"""The reference solutions, O(n^3): the augmented system (2.11) solved densely, and the
Schur-complement form (2.14) / analytical solution (3.4).

The arm terms come from routes independent of the innovations factorization: M by the
composite-body recursion (3.20), C by RNE, J by (3.13), Jdot qd from (5.1d), each per
arm, rotated to the world. Non-rigid grasps enter through the constraint spaces
(Lilly-Orin): f(0) = Phi^c h^c and only Phi^c^T of the closure (2.10b) is imposed, plus
the bias gamma of :mod:`soagen.closed_chain.context`; for rigid grasps Phi^c = I, gamma = 0
and the systems below are exactly (2.11) and (2.14)."""

from __future__ import annotations

import numpy as np

from soagen import algorithms as alg
from soagen.closed_chain.result import from_forces
from soagen.operators.chain import block_diag


def arm_matrices(ctx):
    """Block-diagonal M, stacked C, J = diag(J_i), Jdot qd (world-aligned) (2.3)."""
    Ms, Cs, Js, jd = [], [], [], []
    for t in ctx.arms:
        r, Rb6 = t.robot, t.Rb6
        Ms.append(alg.mass_matrix(r, t.q))
        Cs.append(alg.bias_forces(r, t.q, t.qd))
        Js.append(Rb6 @ alg.jacobian(r, t.q))
        jd.append(Rb6 @ alg.jacobian_dot_qd(r, t.q, t.qd))
    return block_diag(Ms), np.concatenate(Cs), block_diag(Js), np.concatenate(jd)


def dense(ctx):
    """(2.11): [[0, J, -A], [J^T, M, 0], [-A^T, 0, M(C)]] (f(0), qdd, alpha(C)) =
    (a(C) - Jdot qd, T - C, -b(C)), projected on the constraint spaces."""
    M, C, J, jd = arm_matrices(ctx)
    A, Pc = ctx.A_stack(), ctx.Phic()
    n, m = M.shape[0], Pc.shape[1]
    T = np.concatenate([t.tau for t in ctx.arms])
    K = np.zeros((m + n + 6, m + n + 6))
    K[:m, m:m + n] = Pc.T @ J
    K[:m, m + n:] = -Pc.T @ A
    K[m:m + n, :m] = (Pc.T @ J).T
    K[m:m + n, m:m + n] = M
    K[m + n:, :m] = -(Pc.T @ A).T
    K[m + n:, m + n:] = ctx.M_C
    rhs = np.concatenate([Pc.T @ (ctx.a_stack() - jd) + np.concatenate(ctx.gamma), T - C, -ctx.b_C])
    x = np.linalg.solve(K, rhs)                                                    # (2.11)
    h, qdd, alpha_C = x[:m], x[m:m + n], x[m + n:]
    return from_forces(ctx, qdd, Pc @ h, alpha_C)


def schur(ctx):
    """(2.14) by its analytical solution (3.4), (3.6):
    qdd = (M^-1 - M^-1 J^T Omega^-1 J M^-1) T' + M^-1 J^T Omega^-1 a'(C),
    f(0) = Omega^-1 J M^-1 T' - Omega^-1 a'(C), with Omega = J M^-1 J^T + A M^-1(C) A^T
    (3.1), T' = T - C, a'(C) = a(C) - A M^-1(C) b(C) - Jdot qd (2.15); J, A, a'(C) projected
    on the constraint spaces (a'(C) also gets + gamma) for non-rigid grasps."""
    M, C, J, jd = arm_matrices(ctx)
    A, Pc = ctx.A_stack(), ctx.Phic()
    Minv, MCinv = np.linalg.inv(M), ctx.M_C_inv()
    T = np.concatenate([t.tau for t in ctx.arms])
    Tp = T - C                                                                    # (2.15a)
    a_p = Pc.T @ (ctx.a_stack() - A @ MCinv @ ctx.b_C - jd) + np.concatenate(ctx.gamma)   # (2.15b)
    Jc, Ac = Pc.T @ J, Pc.T @ A
    Omega = Jc @ Minv @ Jc.T + Ac @ MCinv @ Ac.T                                  # (3.1)
    Oinv = np.linalg.inv(Omega)
    qdd = (Minv - Minv @ Jc.T @ Oinv @ Jc @ Minv) @ Tp + Minv @ Jc.T @ Oinv @ a_p   # (3.6a)
    h = Oinv @ Jc @ Minv @ Tp - Oinv @ a_p                                        # (3.6b)
    return from_forces(ctx, qdd, Pc @ h)                                          # (2.10c)

