"""Rates of body-fixed quantities, shared by the derivatives of inverse dynamics and the
Coriolis matrix (docs/derivatives.md, (D.1)-(D.6)).

With the spatial cross product V x (:func:`soagen.spatial.motion_cross`) and its dual
x* (:func:`soagen.spatial.force_cross`), a motion vector fixed in a body that moves with
velocity V changes at the rate V x, a spatial inertia fixed in it at
Idot = V x* M - M V x. Per joint k, at O(k) in frame k:

* ``S`` = H^T(k), the joint's motion subspace (6 x n_k);
* ``Psi_dot`` = V_p x H^T(k), V_p = V(k) - H^T(k) qd(k) the parent's velocity
  seen at O(k)                                                                  (D.5);
* ``S_dot`` = V(k) x H^T(k) = Psi_dot + (H^T qd) x H^T(k), its rate as the body
  moves (= Psi_dot for a 1-dof joint)                                           (D.4);
* ``Psi_ddot`` = A_p x H^T(k) + V_p x Psi_dot, A_p = A(k) - H^T qdd - Psi_dot qd
  the parent's spatial acceleration at O(k) (gravity included as the base
  acceleration (3.21))                                                          (D.6).

The spatial acceleration A = (omega_dot, v_dot - omega x v) of a link is the one that
transports like a velocity (A(k) = phi^T A(k+1) + ...); the papers' alpha (2.14) is the
classical one, alpha = A + (0, omega x v).

Composite-body rates, tip to base ((a.44) with psi = phi, :mod:`~soagen.dynamics.composite`):
``Idot_c(k)`` = sum over the subtree of phi Idot phi^T, ``h_c(k)`` = sum of phi M V (the
subtree's momentum about O(k)); the composite Coriolis operator (D.3) is
2 B_c = Idot_c + (h_c xbar*), where (h xbar*) x = x x* h."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.dynamics.composite import (
    COMPOSITE_INERTIA,
    composite_forces,
    composite_inertias,
)
from soagen.spatial import cross, force_cross, force_cross_matrix, motion_cross


@dataclass
class JointRates:
    S: list            # H^T(k)
    S_dot: list        # (D.4)
    Psi_dot: list      # (D.5)
    Psi_ddot: list     # (D.6), only with accelerations

    def fbar(self, k, f):
        """(f xbar*) H^T(k) = H^T(k) x* f: a force f at body k against the joint's axes
        (fbar of (D.2), the last term of (D.10))."""
        return force_cross(self.S[k], f)


def spatial_accelerations(s, alpha):
    """A(k) = alpha(k) - (0, omega(k) x v(k)) from the classical link accelerations."""
    xp = s.xp
    return [alpha[i] - np.concatenate([xp.zeros(3), cross(V[:3], V[3:])]) for i, V in enumerate(s.V)]


def joint_rates(s, qd, A=None, qdd=None):
    """S, S_dot, Psi_dot of every joint, and Psi_ddot when the spatial accelerations A
    (gravity included) and qdd are given."""
    robot, xp = s.robot, s.xp
    S, S_dot, Psi_dot, Psi_ddot = [], [], [], []
    for i in range(robot.nb):
        Si, qdi = s.H[i].T, qd[robot.v_slice(i)]
        Vp = s.V[i] - Si @ qdi                                                     # (2.25)
        Psd = xp.name(motion_cross(Vp, Si), "Psd", body=i, note="Psi_dot(k) = V_p x H^T(k) (D.5)")   # (D.5)
        S.append(Si)
        Psi_dot.append(Psd)
        S_dot.append(Psd + motion_cross(Si @ qdi, Si))                             # (D.4)
        if A is not None:
            Ap = A[i] - Si @ qdd[robot.v_slice(i)] - Psd @ qdi
            Psi_ddot.append(xp.name(motion_cross(Ap, Si) + motion_cross(Vp, Psd), "Psdd", body=i,   # (D.6)
                                    note="Psi_ddot(k) = A_p x H^T(k) + V_p x Psi_dot(k) (D.6)"))
    return JointRates(S, S_dot, Psi_dot, Psi_ddot if A is not None else None)


@dataclass
class CompositeRates:
    R: list        # composite inertia R(k) (a.44)
    Idot: list     # composite inertia rate
    h: list        # composite momentum about O(k)

    def twice_B(self, k, x):
        """2 B_c(k) x = Idot_c x + x x* h_c  (D.3)."""
        return self.Idot[k] @ x + force_cross(x, self.h[k])

    def twice_BT(self, k, y):
        """2 B_c(k)^T y = Idot_c y - y x* h_c  ((h xbar*) is skew)."""
        return self.Idot[k] @ y - force_cross(y, self.h[k])


def composite_rates(s) -> CompositeRates:
    robot = s.robot
    Idot, h = [], []
    for i in range(robot.nb):
        XM = force_cross_matrix(s.V[i]) @ s.M[i]                     # V x* M
        Idot.append(XM + XM.T)                                        # V x* M - M V x
        h.append(s.M[i] @ s.V[i])
    return CompositeRates(composite_inertias(s, s.M, "Rc", COMPOSITE_INERTIA),
                          composite_inertias(s, Idot, "Icd", "composite inertia rate Idot_c(k) (D.3)"),
                          composite_forces(s, h, "hc", "composite momentum h_c(k) about O(k) (D.3)"))
