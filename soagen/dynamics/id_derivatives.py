"""Derivatives of inverse dynamics, dT/dtheta and dT/dtheta_dot (docs/derivatives.md).

Operator form (D.11), (D.13): with the rates of :mod:`soagen.dynamics.rates` stacked as
block-diagonal operators and fbar = diag(f(k) xbar*),

    dT/dtheta     = H phi [M phi^T Psi_ddot + 2 B phi^T Psi_dot] + H phi~ fbar H^T
    dT/dtheta_dot = H phi [M phi^T (Psi_dot + S_dot) + 2 B phi^T H^T],

derivatives in the tangent space (the body frame of joint k moved by exp(H^T(k) d)).
By Corollary A.1 (composite.py) the inner phi X phi^T collapse onto the composite R and
B_c, which gives the recursion (D.14): for body l and each k on its path to the
base (k = l included)

    dT(l)/dtheta(k)     = U^T Psi_ddot(k) + W^T Psi_dot(k)
    dT(l)/dtheta_dot(k) = U^T (Psi_dot(k) + S_dot(k)) + W^T H^T(k)
    dT(k)/dtheta(l)     = H(k) phi(k, l) [R Psi_ddot(l) + 2 B_c Psi_dot(l) + H^T(l) x* f(l)]   (k != l)
    dT(k)/dtheta_dot(l) = H(k) phi(k, l) [R (Psi_dot(l) + S_dot(l)) + 2 B_c H^T(l)]

with U = phi(k, l) R(l) H^T(l), W = phi(k, l) 2 B_c(l)^T H^T(l): O(N d) for depth d."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.composite import towards_base
from soagen.dynamics.rne import newton_euler


def id_derivatives(s, qd, qdd):
    """(dT/dtheta, dT/dtheta_dot) at (s.q, s.qd, qdd), nv x nv each (gravity included)."""
    robot, xp = s.robot, s.xp
    alpha, f, _ = newton_euler(s, qdd)                       # (2.26), (2.29)
    j = s.joint_rates(qd, alpha, qdd)
    c = s.composite_rates()
    dq, dqd = xp.zeros((robot.nv, robot.nv)), xp.zeros((robot.nv, robot.nv))
    for l in range(robot.nb):
        n, cl = robot.bodies[l].joint.nv, robot.v_slice(l)
        S, Psd, Psdd, Sd = j.S[l], j.Psi_dot[l], j.Psi_ddot[l], j.S_dot[l]
        F = np.concatenate([c.R[l] @ S,                                                     # U
                            c.twice_BT(l, S),                                               # W
                            c.R[l] @ Psdd + c.twice_B(l, Psd) + j.fbar(l, f[l]),             # Q (D.14)
                            c.R[l] @ (Psd + Sd) + c.twice_B(l, S)], axis=1)                 # Qd
        for k, Fk in towards_base(s, l, F, "dF", "derivative column walk, body k, column l (D.14)"):
            ck = robot.v_slice(k)
            U, W = Fk[:, :n], Fk[:, n:2 * n]
            dq[cl, ck] = U.T @ j.Psi_ddot[k] + W.T @ j.Psi_dot[k]
            dqd[cl, ck] = U.T @ (j.Psi_dot[k] + j.S_dot[k]) + W.T @ j.S[k]
            if k != l:
                dq[ck, cl] = s.H[k] @ Fk[:, 2 * n:3 * n]
                dqd[ck, cl] = s.H[k] @ Fk[:, 3 * n:]
    return dq, dqd
