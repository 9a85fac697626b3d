"""The O(l^3) step shared by the recursive methods: the grasp forces from
Omega f(0) = r (4.9d), (6.11f), restricted to the constraint spaces for non-rigid grasps:

    (Phi^c^T Omega Phi^c) h^c = Phi^c^T r - gamma,   f(0) = Phi^c h^c,

which for an invertible Omega is f(0) = Pi (r + Hdot^T W) with Pi of (b.9c) (the same
projector written with the constraint space instead of the motion space H^T(0)). For
rigid grasps Phi^c = I, gamma = 0 and it is (4.9d) itself."""

from __future__ import annotations

import numpy as np

from soagen.operators.chain import block_diag


def omega(ctx):
    """Omega = J M^-1 J^T + A M^-1(C) A^T (4.9c), (6.11d-e); J M^-1 J^T = diag(Lambda_i(0))
    by the recursion (6.10)."""
    A = ctx.A_stack()
    return block_diag([t.Lambda() for t in ctx.arms]) + A @ ctx.M_C_inv() @ A.T


def rhs(ctx, alpha_f):
    """r = alpha_f(0) + A M^-1(C) b(C) - a(C) (4.9d)."""
    return np.concatenate(alpha_f) + ctx.A_stack() @ (ctx.M_C_inv() @ ctx.b_C) - ctx.a_stack()


def project(ctx, Omega):
    """Omega_c = Phi^c^T Omega Phi^c, the constraint-space Omega (Lilly-Orin (35))."""
    Pc = ctx.Phic()
    return Pc, Pc.T @ Omega @ Pc


def grasp_forces(ctx, Omega, r):
    """f(0) (6l) from Omega and r, on the constraint spaces."""
    Pc, Oc = project(ctx, Omega)
    h = np.linalg.solve(Oc, Pc.T @ r - np.concatenate(ctx.gamma))
    return Pc @ h


def per_arm(x):
    return [x[6 * i:6 * i + 6] for i in range(len(x) // 6)]
