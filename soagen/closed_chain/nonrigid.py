"""Non-rigid grasps: the analytical solution (b.9) of Part II Appendix B.

H(0) = phi^T (n_g x 6 per grasp; H^T(0) = col[h(0), 0] of (a.6) is the motion space),
W(0) = H(0) dV the relative (contact) velocity, Hdot^T W = diag(omega~, omega~) dV since
the motion space is fixed in the object. Then

  G1 = A M^-1(C) b(C) + Jdot qd + Hdot^T W - a(C) - J M^-1 C              (b.9a)
  Omega = J M^-1 J^T + A M^-1(C) A^T                                      (b.9b)
  Pi = Omega^-1 - Omega^-1 H^T [H Omega^-1 H^T]^-1 H Omega^-1             (b.9c)
  f(0) = Pi (J M^-1 T + G1)                                               (b.9d)
  qdd = (M^-1 - M^-1 J^T Pi J M^-1) T - M^-1 J^T Pi G1 - M^-1 C            (b.9e)
  Wdot = -[H Omega^-1 H^T]^-1 [H Omega^-1 J M^-1 T + H Omega^-1 G1]       (b.9f)

evaluated densely per arm (M^-1 by (4.16), J, C by RNE): this is the closed form, the
reference for non-rigid grasps next to the constraint-space projection of the recursive
methods. Omega must be invertible: every arm needs J full rank."""

from __future__ import annotations

import numpy as np

from soagen import algorithms as alg
from soagen.closed_chain.result import from_forces
from soagen.operators.chain import block_diag


def nonrigid(ctx):
    ctx.check_full_rank("nonrigid")
    Minv, J, C, jd = [], [], [], []
    for t in ctx.arms:
        Minv.append(alg.inverse_mass_matrix(t.robot, t.q))
        J.append(t.Rb6 @ alg.jacobian(t.robot, t.q))
        C.append(alg.bias_forces(t.robot, t.q, t.qd))
        jd.append(t.jdot_qdot())
    Minv, J, C, jd = block_diag(Minv), block_diag(J), np.concatenate(C), np.concatenate(jd)
    T = np.concatenate([t.tau for t in ctx.arms])
    A, MCinv = ctx.A_stack(), ctx.M_C_inv()
    H = ctx.Phi().T                                                          # H(0), (a.6)
    HdotW = np.concatenate([ctx.W @ dv for dv in ctx.dV])                    # Hdot^T(0) W(0)
    G1 = A @ MCinv @ ctx.b_C + jd + HdotW - ctx.a_stack() - J @ Minv @ C     # (b.9a)
    Omega = J @ Minv @ J.T + A @ MCinv @ A.T                                 # (b.9b)
    Oinv = np.linalg.inv(Omega)
    if H.shape[0]:
        S = H @ Oinv @ H.T
        Pi = Oinv - Oinv @ H.T @ np.linalg.solve(S, H @ Oinv)                # (b.9c)
        Wdot = -np.linalg.solve(S, H @ Oinv @ J @ Minv @ T + H @ Oinv @ G1)   # (b.9f)
    else:
        Pi, Wdot = Oinv, np.zeros(0)
    f0 = Pi @ (J @ Minv @ T + G1)                                            # (b.9d)
    qdd = (Minv - Minv @ J.T @ Pi @ J @ Minv) @ T - Minv @ J.T @ Pi @ G1 - Minv @ C   # (b.9e)
    res = from_forces(ctx, qdd, f0)                                          # (2.10c)
    res.Wdot = Wdot
    return res
