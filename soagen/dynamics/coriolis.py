"""The Coriolis matrix C(q, qd) (docs/derivatives.md (D.15)-(D.16)).

Operator form (D.15): C = H phi [M phi^T S_dot + B phi^T H^T], with S_dot = diag(V(k) x
H^T(k)) and B = diag(B(k)), B(k) = 1/2 [V x* M + (M V) xbar* - M V x] the body Coriolis
operator (rates.py). Then C qd = H phi (M phi^T a + b) is the velocity part of the bias
(3.20) and Mdot = C + C^T, i.e. Mdot - 2C is skew; for 1-dof joints C is the Christoffel
matrix (dT/dqd = 2 C). By Corollary A.1 the recursion is the mass matrix walk (D.16):

    C(l, k) = U^T S_dot(k) + W^T H^T(k),            k on the path from l to the base,
    C(k, l) = H(k) phi(k, l) [R S_dot(l) + B_c H^T(l)],   k a strict ancestor of l,

with U = phi(k, l) R(l) H^T(l), W = phi(k, l) B_c(l)^T H^T(l): O(N d)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.composite import towards_base


def coriolis_matrix(s, qd):
    """C(q, qd) by the walk (D.16), nv x nv."""
    robot, xp = s.robot, s.xp
    j = s.joint_rates(qd)
    c = s.composite_rates()
    C = xp.zeros((robot.nv, robot.nv))
    for l in range(robot.nb):
        n, cl = robot.bodies[l].joint.nv, robot.v_slice(l)
        S = j.S[l]
        F = np.concatenate([c.R[l] @ S, c.twice_BT(l, S) / 2,                     # U, W
                            c.R[l] @ j.S_dot[l] + c.twice_B(l, S) / 2], axis=1)    # (D.16)
        for k, Fk in towards_base(s, l, F, "cF", "Coriolis column walk, body k, column l (D.16)"):
            ck = robot.v_slice(k)
            C[cl, ck] = Fk[:, :n].T @ j.S_dot[k] + Fk[:, n:2 * n].T @ j.S[k]      # (D.16)
            if k != l:
                C[ck, cl] = s.H[k] @ Fk[:, 2 * n:]
    return C
