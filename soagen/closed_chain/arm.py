"""Per-arm operator quantities of Part II Sec. 5-6, built from the existing O(N) sweeps of
:mod:`soagen.dynamics` (no second copy of any recursion):

* T' = T - H phi (M phi^T a + b)            (6.1a)  the RNE with qdd = 0
* P, D, G, L                                  the Riccati sweep (4.4)-(4.6)
* nu = D^-1 (I - H Psi L) T' (- D^-1 H psi B f(0))   the causal filter, with B f(0)
  injected at the tip body: that is the recursion (6.4a)-(6.4c)
* qdd = (I - H Psi L)^T nu and lambda = psi^T H^T nu  the smoother (5.10e)-(5.10g);
  its lambda at the tip body gives B^T psi^T H^T nu = J M^-1 (...) (6.12)
* Lambda(0) = J M^-1 J^T                      the recursion (6.10)
* Jdot qdot = B^T phi^T a + a(0)              (5.1d)

Arm quantities live in the arm base frame; :class:`ArmTerms` converts tip quantities to
the world with the base rotation (the base is fixed, so classical accelerations rotate
like vectors). Like the recursions it runs on the backend ``xp`` (numpy floats, or SymPy
for code generation)."""

from __future__ import annotations

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics import jacobian as jac
from soagen.dynamics import omega
from soagen.dynamics.filtering import anticausal_smoother, causal_filter
from soagen.dynamics.innovations import riccati
from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.dynamics.rne import rne
from soagen.dynamics.sweeps import prepare
from soagen.dynamics.tip import tip_force_at_body
from soagen.spatial import phiT_motion


def block(R):
    """diag(R, R): rotates a spatial vector (both halves)."""
    Z = np.zeros((3, 3), dtype=np.asarray(R).dtype)
    return np.block([[R, Z], [Z, R]])


class ArmTerms:
    """Everything RCCFD needs from one arm at (q, qd, tau), computed once, O(N)."""

    def __init__(self, arm, q, qd, tau, xp=NUMPY):
        self.arm, self.robot, self.xp = arm, arm.robot, xp
        r = self.robot
        self.q, self.qd, self.tau = q, qd, tau
        self.s = prepare(r, q, qd, xp, gravity=True)
        self.Rb6 = block(arm.base_R)
        poses = world_poses(r, self.s.X)
        R_tip, o_tip = frame_pose(r, poses, r.tip)
        self.R_tip = arm.base_R @ R_tip                    # tip frame in the world
        self.p_tip = arm.base_r + arm.base_R @ o_tip
        self._T_prime = self._inn = self._jdqd = self._Lambda = None

    @property
    def T_prime(self):
        """T' = T - H phi (M phi^T a + b) (6.1a), on first use (kinematics alone does not need it)."""
        if self._T_prime is None:
            r = self.robot
            self._T_prime = self.tau - np.concatenate(rne(self.s, self.xp.zeros(r.nv)))
        return self._T_prime

    @property
    def inn(self):
        """The Riccati sweep's P, D, G, L (4.4)-(4.6), on first use."""
        if self._inn is None:
            self._inn = riccati(self.s)
        return self._inn

    # -- the filter/smoother pair --------------------------------------------------
    def _split(self, x):
        r = self.robot
        return [x[r.v_slice(i)] for i in range(r.nb)]

    def tip_injection(self, f_world):
        """x with B f(0) at the tip body (the tip force as a body force, link frame)."""
        r = self.robot
        x = [self.xp.zeros(6) for _ in range(r.nb)]
        if f_world is not None:
            x[r.tip.body] = tip_force_at_body(self.s, self.Rb6.T @ f_world)   # (6.4a)
        return x

    def filter(self, T=None, f_world=None):
        """nu = D^-1 [(I - H Psi L) T - H psi B f(0)] (5.9a-b), (6.4a-c), (6.17)."""
        T = self._split(T if T is not None else self.xp.zeros(self.robot.nv))
        return causal_filter(self.s, self.inn, T, x=self.tip_injection(f_world))

    def smooth(self, nu):
        """(qdd, J qdd): qdd = (I - H Psi L)^T nu (5.10e-g), and B^T psi^T H^T nu = J qdd
        from the smoother's lambda at the tip body (6.12), world-aligned."""
        qdd, lam = anticausal_smoother(self.s, self.inn, nu)
        tip = self.robot.tip
        Jqdd = phiT_motion(np.eye(3), tip.r, lam[tip.body])            # B^T lambda(1)
        R_tip_body = self.R_tip @ tip.R.T                                # tip body in world
        return np.concatenate(qdd), block(R_tip_body) @ Jqdd

    # -- derived quantities ----------------------------------------------------------
    def jdot_qdot(self):
        """Jdot qdot = B^T phi^T a + a(0) (5.1d), world-aligned, without gravity: with the
        pseudo-acceleration -g at the base, phi^T carries (0, -g) unchanged to the tip, so
        it is removed by adding (0, g) (3.21)."""
        if self._jdqd is None:
            base = jac.jacobian_dot_qd(self.s, self.robot.tip)
            base = base + np.concatenate([np.zeros(3), self.robot.gravity])
            self._jdqd = self.Rb6 @ base
        return self._jdqd

    def jacobian(self):
        """J(q) at the tip point, world-aligned (3.13)."""
        return self.Rb6 @ jac.jacobian(self.s, self.robot.tip)

    def Lambda(self):
        """Lambda(0) = J M^-1 J^T by (6.10), world-aligned."""
        if self._Lambda is None:
            L = omega.op_space_inverse_inertia(self.s, self.robot.tip)
            self._Lambda = self.Rb6 @ L @ self.Rb6.T
        return self._Lambda

    def free(self):
        """(qdd_f, alpha_f(0)) (6.1b), (6.1c): the open-chain accelerations."""
        qdd_f, Jqdd = self.smooth(self.filter(self.T_prime))
        return qdd_f, Jqdd + self.jdot_qdot()

    def delta(self, f_world):
        """(Delta qdd, Delta alpha(0)) = (-M^-1 J^T f(0), J Delta qdd) (6.3)-(6.5)."""
        return self.smooth(self.filter(None, f_world))

    def V_tip(self):
        """V(0) = J qd at the tip point, world-aligned (2.1c)."""
        r = self.robot
        k = r.tip.body
        V = phiT_motion(np.eye(3), r.tip.r, self.s.V[k])
        R_tip_body = self.R_tip @ r.tip.R.T
        return block(R_tip_body) @ V
