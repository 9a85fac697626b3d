"""The framework paper's closed-topology forward dynamics, Section 3, steps (A)-(F).

Primary system P: the arms (a forest of serial chains). Secondary system S: the object, a
free rigid body (beta_S = V(C), J_S = I, M_S = M(C), T_S = -b(C) with gravity). Closure
(2.16): A_P J_P beta_P + A_S beta_S with A_P = diag(phi^c_i^T), A_S = -phi^c^T A, and at
the acceleration level A_P J_P betadot_P + A_S betadot_S = U,
U = gamma + phi^c^T (a(C) - Jdot qd) (the derivative terms of (2.17)).

  (A) betadot_f = M^-1 T (3.7)            (B) alpha~_f = J betadot_f (3.8)
  (C) Lambda = J M^-1 J^T = B^* Omega B (3.10), Lambda_S = M(C)^-1
  (D) [A_P Lambda_P A_P^* + A_S Lambda_S A_S^*] f~ = A_P alpha~_P + A_S alpha~_S - U (3.11)
  (E) betadot_e = -M^-1 J^* A^* f~ (3.12)  (F) betadot = betadot_f + betadot_e

The grasp forces are f(0) = A_P^* f~ = phi^c f~ (the force on the object). Step (D) is the
rank-revealing solve shared with the loops inside one robot (:mod:`soagen.dynamics.loops`)."""

from __future__ import annotations

import numpy as np

from soagen.backend import NUMPY
from soagen.closed_chain import solve
from soagen.closed_chain.result import from_forces
from soagen.dynamics.loops import closure_forces
from soagen.operators.chain import block_diag


def framework(ctx):
    Pc = ctx.Phic()
    A_P, A_S = Pc.T, -Pc.T @ ctx.A_stack()
    MCinv = ctx.M_C_inv()
    beta_f, alpha_f = [], []
    for t in ctx.arms:
        q_f, Jq_f = t.smooth(t.filter(t.T_prime))                          # (A), (B)
        beta_f.append(q_f)
        alpha_f.append(Jq_f)
    beta_S_f = MCinv @ (-ctx.b_C)                                          # (A) secondary
    Lam_P = block_diag([t.Lambda() for t in ctx.arms])                    # (C) (3.10), (A.5)
    jd = np.concatenate([t.jdot_qdot() for t in ctx.arms])
    U = np.concatenate(ctx.gamma) + Pc.T @ (ctx.a_stack() - jd)
    K = A_P @ Lam_P @ A_P.T + A_S @ MCinv @ A_S.T
    ft = closure_forces(K, A_P @ np.concatenate(alpha_f) + A_S @ beta_S_f - U, NUMPY)   # (D) (3.11)
    f0 = A_P.T @ ft
    qdd = [q_f + t.delta(f)[0] for t, q_f, f in zip(ctx.arms, beta_f, solve.per_arm(f0))]   # (E), (F)
    beta_S = beta_S_f - MCinv @ (A_S.T @ ft)                               # (E), (F) secondary
    return from_forces(ctx, qdd, f0, beta_S)
