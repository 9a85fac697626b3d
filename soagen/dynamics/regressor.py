"""The joint torque regressor: T = Y(q, qd, qdd) pi, linear in the inertial parameters
(docs/derivatives.md (D.17)-(D.18)).

Per body, in Pinocchio's order (``Inertia.toDynamicParameters``), about the body origin
O(k) in the body frame:

    pi(k) = (m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz),

c the centre of mass and I = I_c - m c~ c~ the inertia about O(k) (2.15). The joint force
of body k, f = M(k) alpha(k) + b(k) (2.22)-(2.23), is linear in pi(k): f = A(k) pi(k) with
the 6 x 10 body regressor (D.17) of alpha = (omega_dot, a) (gravity included) and V, and
T = H phi (M alpha + b) (3.18) gives Y = H phi A (D.18): the block of body l in the row of
joint k is H(k) phi(k, l) A(l), read off by the mass-matrix walk towards the base."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.composite import towards_base
from soagen.dynamics.rne import accelerations
from soagen.model import dynamic_parameters
from soagen.spatial import cross, skew


def inertial_parameters(robot):
    """pi: the 10 nb dynamic parameters (soagen.model.PARAMETERS), body after body."""
    return np.concatenate([dynamic_parameters(b.mass, b.com, b.inertia) for b in robot.bodies])


def _inertia_map(w):
    """L(w) with I w = L(w) (I_xx, I_xy, I_yy, I_xz, I_yz, I_zz)."""
    z = w[0] * 0
    return np.array([[w[0], w[1], z, w[2], z, z],
                     [z, w[0], w[1], z, w[2], z],
                     [z, z, z, w[0], w[1], w[2]]])


def body_regressor(alpha, V, xp):
    """A(k) (D.17): M(k) alpha + b(k) = A(k) pi(k), with
    moment N = I wd + w x I w + m c x a,  force F = m a + wd x m c + w x (w x m c)."""
    wd, a, w = alpha[:3], alpha[3:], V[:3]
    A = xp.zeros((6, 10))
    A[3:, 0] = a
    A[:3, 1:4] = -skew(a)
    A[3:, 1:4] = skew(wd) + skew(w) @ skew(w)
    L = _inertia_map(w)
    A[:3, 4:] = _inertia_map(wd) + np.array([cross(w, L[:, c]) for c in range(6)]).T
    return A


def regressor(s, qdd):
    """Y (nv x 10 nb) at (s.q, s.qd, qdd), gravity included (D.18)."""
    robot, xp = s.robot, s.xp
    alpha = accelerations(s, qdd)                     # (3.15)
    Y = xp.zeros((robot.nv, 10 * robot.nb))
    for l in range(robot.nb):
        A = xp.name(body_regressor(alpha[l], s.V[l], xp), "Ab", body=l,
                    note="body regressor A(k): M(k) alpha(k) + b(k) = A(k) pi(k) (D.17)")
        for k, F in towards_base(s, l, A, "yF", "regressor column walk, body k, column l: "
                                 "phi(k, l) A(l) (D.18)"):
            Y[robot.v_slice(k), 10 * l:10 * l + 10] = s.H[k] @ F
    return Y
