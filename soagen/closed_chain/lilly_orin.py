"""Lilly and Orin, Table 1: the reference-member acceleration a_0 from one 6 x 6 system.

Per chain k (world-aligned, at the grasp point O_k; X_0^k = A_k = phi^T(C, O_k),
zeta_0^k = a_k(C), I_0 = M(C), b_0 - g_0 = b(C) with gravity folded in):

  Step 1  (qdd_k)_open, (xdd_k)_open = alpha_f(0) (6.1), Lambda_k^-1 = J M^-1 J^T (6.10)
  Step 2  S_k = alpha_k^c - phi^c^T [zeta_0^k - (xdd_k)_open + Lambda_k^-1 phi h_k]
          M_k = (phi^c^T Lambda_k^-1 phi^c)^-1                                  (35)-(38)
          P_k = phi h_k + phi^c M_k S_k,  R_k = phi^c M_k phi^c^T X_0^k            (41)-(42)
          [I_0 + sum X^T R_k] a_0 = sum X^T P_k - b_0 + g_0                         (45)
  Step 3  f_k = P_k - R_k a_0                                                       (47)
  Step 4  qdd_k = (qdd_k)_open - Omega_k f_k,  Omega_k = M^-1 J^T by (6.4)           (48)

alpha_k^c = phi^c^T (a_0^k - xdd_k) is minus the gamma of the context; h_k = 0 (no
actuation in the free directions of the grasp). Only phi^c^T Lambda^-1 phi^c must be
invertible: chains with fewer than six joints or at a singularity are fine as long as
their constrained directions are reachable.

:func:`table1` runs on the context's backend: on floats it is the generic method, on
SymPy symbols it is what ``soagen generate SYSTEM`` unrolls
(:mod:`soagen.codegen.closed_chain`)."""

from __future__ import annotations

import numpy as np

from soagen.closed_chain.result import from_forces


def table1(ctx):
    """Steps 1-4 of Table 1 on ``ctx.xp``: (qdd per arm, a_0 = alpha(C), f_k(0) per arm)."""
    xp = ctx.xp
    K = ctx.M_C                                                            # I_0
    rhs = -ctx.b_C                                                         # - b_0 + g_0
    terms = []
    for k, (t, X, zeta, pc, gam) in enumerate(zip(ctx.arms, ctx.A, ctx.a_C, ctx.phic, ctx.gamma)):
        q_open, x_open = t.free()                                          # Step 1
        Lam_inv = xp.name(t.Lambda(), f"Lam{k}", symmetric=True, note="Lambda(k) (6.10b)")
        S = -gam - pc.T @ (zeta - x_open)                                  # (35)-(36), h_k = 0
        Mk = xp.inv(xp.name(pc.T @ Lam_inv @ pc, f"Lamc{k}", symmetric=True,                 # (37)
                            note="M_k^-1 = phi^c^T Lambda_k^-1 phi^c (Lilly-Orin (35)-(37))"))
        P = xp.name(pc @ (Mk @ S), f"Pk{k}", note="P_k = phi^c M_k S_k (Lilly-Orin (41)-(42))")      # (41)
        R = xp.name(pc @ Mk @ pc.T @ X, f"Rk{k}",                                                   # (42)
                    note="R_k = phi^c M_k phi^c^T X_0^k (Lilly-Orin (41)-(42))")
        K = K + X.T @ R
        rhs = rhs + X.T @ P
        terms.append((q_open, P, R))
    K = xp.name(K, "K", symmetric=True, note="I_0 + sum X^T R_k (Lilly-Orin (45))")
    rhs = xp.name(rhs, "rhs", note="sum X^T P_k - b_0 + g_0 (Lilly-Orin (45))")
    a0 = xp.name(xp.solve(K, rhs), "alphaC", note="a_0 = alpha(C), the object's acceleration (Lilly-Orin (45))")
    qdd, f = [], []
    for t, (q_open, P, R) in zip(ctx.arms, terms):
        fk = xp.name(P - R @ a0, "fk", note="f_k = P_k - R_k a_0, the grasp force (Lilly-Orin (47))")   # (47)
        qdd.append(q_open + t.delta(fk)[0])                  # (48): - Omega_k f_k = Delta qdd
        f.append(fk)
    return qdd, a0, f


def lilly_orin(ctx):
    qdd, a0, f = table1(ctx)
    return from_forces(ctx, qdd, np.concatenate(f), a0)
