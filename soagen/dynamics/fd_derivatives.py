"""Derivatives of forward dynamics (docs/derivatives.md (D.19)).

qdd = M^-1 (T - C) solves T_ID(q, qd, qdd) = T, so at the solution
d qdd = -M^-1 (dT_ID/dq dq + dT_ID/dqd dqd) + M^-1 dT: the derivatives of inverse dynamics
(id_derivatives.py) evaluated at the forward-dynamics accelerations, multiplied by the one
M^-1 that the innovations factorization (4.16) gives; the same M^-1 also gives qdd
(3.22)-(3.23), so the Riccati sweep (4.4)-(4.6) runs once (or, with ``method="ldl"``,
M = L^T D L of the composite-inertia mass matrix, :mod:`soagen.dynamics.ldl`). M^-1 is
read from its upper triangle (the lower-triangle entries then feed nothing and drop out
of generated code)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.composite import mirrored
from soagen.dynamics.forward import inverse_mass_matrix
from soagen.dynamics.id_derivatives import id_derivatives
from soagen.dynamics.ldl import ltdl, ltdl_congruence, ltdl_solve
from soagen.dynamics.mass_matrix import mass_matrix
from soagen.dynamics.rne import rne


def fd_derivatives(s, qd, tau, method="innovations"):
    """(dqdd/dq, dqdd/dqd, dqdd/dtau = M^-1) at (s.q, s.qd, tau), tangent space. With
    ``method="ldl"`` the products with M^-1 are solves with the factors of M = L^T D L,
    which keep a tree's sparsity (on a chain they cost the same as the products); dT/dq
    and dT/dqd are solved together, as the 2 nv columns of one block."""
    robot, xp = s.robot, s.xp
    if method == "ldl":
        L, dinv = ltdl(robot, mass_matrix(s), xp)
        Minv = mirrored(ltdl_congruence(L, dinv, xp.eye(robot.nv), xp))

        def solve(B, label):
            return ltdl_solve(L, dinv, B, xp, label)
    else:
        Minv = mirrored(inverse_mass_matrix(s))                   # (4.16), symmetric

        def solve(B, label):
            return Minv @ B
    T_hat = np.concatenate(rne(s, xp.zeros(robot.nv)))           # (3.23)
    qdd = xp.name(solve(tau - T_hat, "ltdl_qdd"), "qddfd", note="qdd = M^-1 (tau - C) (3.22)")   # (3.22)
    dq, dqd = id_derivatives(s, qd, qdd)                             # (D.14)
    dx = -solve(np.concatenate([dq, dqd], axis=1), "ltdl_dx")                 # (D.19), one solve
    return dx[:, :robot.nv], dx[:, robot.nv:], Minv
