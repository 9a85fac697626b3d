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
from soagen.dynamics.rne import rne


def fd_derivatives(robot, s, qd, tau, xp, method="innovations"):
    """(dqdd/dq, dqdd/dqd, dqdd/dtau = M^-1) at (s.q, s.qd, tau), tangent space."""
    Minv = mirrored(inverse_mass_matrix(robot, s, xp, method))               # (4.16), symmetric
    T_hat = np.concatenate(rne(robot, s, xp.zeros(robot.nv), xp))           # (3.23)
    qdd = xp.name(Minv @ (tau - T_hat), "qddfd", note="qdd = M^-1 (tau - C) (3.22)")   # (3.22)
    dq, dqd = id_derivatives(robot, s, qd, qdd, xp)                             # (D.14)
    return -Minv @ dq, -Minv @ dqd, Minv
