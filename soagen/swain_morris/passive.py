"""Swain-Morris Appendix C: flexible bases (C.1) and flexible arms (C.2) as passive
elastic coordinates of the unified model.

Appendix C writes a flexible-base or flexible-arm system as the unified model (28) with
the elastic coordinates x_b (the base's displacement, or the deflections of virtual
elastic joints) in the place of the passive base: T_hat - J^T f = M qdd + C (C1), (C6)
with M = M_a - M_ap^T M_p^-1 M_ap (B7), C = C_a - M_ap^T M_p^-1 C_p (B9) and
T_hat = T_a - M_ap^T M_p^-1 T_p (B10), where T_p = f_b = -delta_b x_b_dot - s_b dx_b is
the spring-damper force (C5), (C10). In soagen those coordinates are ordinary coordinates
of the same recursions: spring-damper joints (a flexible base on six of them, C.1;
virtual elastic joints, C.2) and the modal coordinates of flexible links, with their
elastic forces next to the inertial ones (:mod:`soagen.dynamics.elastic`). This module
forms the paper's reduced equations from soagen's M and C, for the check that the O(N)
forward dynamics solves them (tests/flexible/test_flexible_swain_morris.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen import algorithms as A
from soagen.backend import NUMPY
from soagen.dynamics.elastic import elastic_forces


def passive_mask(robot):
    """The passive coordinates of v: the (unactuated) spring-damper joints' and the modal ones."""
    out = np.zeros(robot.nv, dtype=bool)
    for i, b in enumerate(robot.bodies):
        if not b.joint.actuated:
            out[robot.joint_v_slice(i)] = True
        out[robot.modal_v_slice(i)] = True
    return out


@dataclass
class Reduced:
    M: np.ndarray        # (B7)
    C: np.ndarray        # (B9)
    T_hat: np.ndarray    # (B10)
    f_b: np.ndarray      # (C5), (C10): the elastic coordinates' spring-damper forces


def reduced(robot, q, qd, T_a):
    """The unified model's (C6) for the active coordinates: M qdd_a + C = T_hat."""
    p = passive_mask(robot)
    a = ~p
    M = A.mass_matrix(robot, q)
    e = elastic_forces(robot, np.asarray(q, float), np.asarray(qd, float), NUMPY)
    C = A.bias_forces(robot, q, qd) - e                      # the inertial and gravity part
    f_b = -e[p]                                              # (C10): -delta_b xdot_b - s_b dx_b
    Mp_inv_Map = np.linalg.solve(M[np.ix_(p, p)], M[np.ix_(p, a)])
    return Reduced(M[np.ix_(a, a)] - M[np.ix_(a, p)] @ Mp_inv_Map,                   # (B7)
                   C[a] - Mp_inv_Map.T @ C[p],                                         # (B9)
                   np.asarray(T_a) - Mp_inv_Map.T @ f_b, f_b)                          # (B10)
