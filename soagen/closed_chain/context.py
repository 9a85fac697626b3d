"""The quantities every closed-chain method shares at one state: per-arm terms
(:class:`~soagen.closed_chain.arm.ArmTerms`), the object's pose and velocity, the grasp
maps A (2.6), a(C) (2.5), M(C), b(C) (2.4), and the grasp spaces in the world.

Constraint at grasp i (Lilly-Orin (27)-(30), Part II (a.6)-(a.8)): the relative velocity
dV = V^-(0) - V^+(0) (object side minus arm tip, both at O_i) lies in the motion space,
phi^c^T dV = 0. The spaces are fixed in the object, d/dt phi^c = W phi^c with
W = diag(omega~, omega~), so at the acceleration level

    phi^c^T (alpha^+(0) - alpha^-(0)) = gamma,   gamma = -phi^c^T W dV,

with alpha^+ = J qdd + Jdot qd (2.1d) and alpha^- = A alpha(C) + a(C) (2.7b). For a rigid
grasp dV = 0 and gamma = 0, which is (2.10b)."""

from __future__ import annotations

import numpy as np

from soagen.closed_chain.arm import ArmTerms, block
from soagen.errors import SoagenError
from soagen.operators import block_diag
from soagen.spatial import cross, skew, spatial_inertia


def phi_CO(l):
    """phi(C, O_i) = [[I, l~], [0, I]] with l = l(C, O_i) (2.5)."""
    P = np.eye(6)
    P[:3, 3:] = skew(l)
    return P


class Context:
    """One state of the system: arms' terms, object terms, grasp terms (world frame)."""

    def __init__(self, system, q, qd, tau, obj_pose=None, obj_twist=None):
        self.system = system
        qs, qds, taus = system.split(q), system.split(qd), system.split(tau)
        self.arms = [ArmTerms(a, qi, qdi, ti) for a, qi, qdi, ti in zip(system.arms, qs, qds, taus)]
        if obj_pose is None:
            obj_pose = object_pose_from_arms(system, self.arms)
        self.R_C, self.p_C = (np.asarray(x, dtype=float) for x in obj_pose)
        self.grasp_terms()
        if obj_twist is None:
            obj_twist = object_twist_from_arms(self)
        self.V_C = np.asarray(obj_twist, dtype=float)
        self.object_terms()

    def grasp_terms(self):
        self.l_CO, self.A, self.phi, self.phic, self.R_g = [], [], [], [], []
        for a in self.system.arms:
            g = a.grasp
            l = self.R_C @ g.r                                 # l(C, O_i), world
            Rg = self.R_C @ g.R
            self.l_CO.append(l)
            self.A.append(phi_CO(l).T)                           # A_i = phi^T(C, O_i) (2.6)
            self.R_g.append(Rg)
            self.phi.append(block(Rg) @ g.phi)
            self.phic.append(block(Rg) @ g.phic)

    def object_terms(self):
        o = self.system.obj
        w = self.V_C[:3]
        p = self.R_C @ o.com
        I_c = self.R_C @ o.inertia @ self.R_C.T
        self.M_C = spatial_inertia(o.mass, p, I_c)                       # M(C) (2.4)
        I_C = self.M_C[:3, :3]
        b = np.concatenate([cross(w, I_C @ w), o.mass * cross(w, cross(w, p))])   # b(C) (2.4)
        # gravity on the object: M(C) (alpha(C) - (0, g)) + b(C) = f(C), folded into b(C)
        self.b_C = b - self.M_C @ np.concatenate([np.zeros(3), self.system.gravity])
        self.a_C = [np.concatenate([np.zeros(3), cross(w, cross(w, l))]) for l in self.l_CO]  # a_i(C) (2.5)
        self.W = block(skew(w))
        self.V_minus = [A @ self.V_C for A in self.A]                       # (2.7a)
        self.V_plus = [t.V_tip() for t in self.arms]
        self.dV = [vm - vp for vm, vp in zip(self.V_minus, self.V_plus)]
        self.gamma = [-pc.T @ (self.W @ dv) for pc, dv in zip(self.phic, self.dV)]

    # -- stacked forms (dense helpers) -----------------------------------------------
    def A_stack(self):
        return np.vstack(self.A)                                              # (2.6)

    def a_stack(self):
        return np.concatenate(self.a_C)

    def Phic(self):
        """blockdiag(phi^c_i): 6l x m."""
        return block_diag(self.phic)

    def Phi(self):
        """blockdiag(phi_i): the grasps' motion spaces."""
        return block_diag(self.phi)

    def rigid(self):
        return all(a.grasp.kind == "rigid" for a in self.system.arms)

    def M_C_inv(self):
        return np.linalg.inv(self.M_C)

    def check_full_rank(self, method, tol=1e-9):
        """The methods built on Omega^-1 need every J_i M_i^-1 J_i^T invertible (Sec. 4)."""
        for t in self.arms:
            s = np.linalg.svd(t.Lambda(), compute_uv=False)
            if s[-1] <= tol * max(s[0], 1.0):
                raise SoagenError(
                    f"{self.system.name}: arm {t.arm.name!r} is at a singular configuration "
                    f"(J M^-1 J^T has rank {int(np.sum(s > tol * s[0]))} < 6); method {method!r} "
                    "needs J full rank (use method='lilly_orin' or 'dense')")


def object_pose_from_arms(system, arms, tol=1e-12, max_iter=50):
    """X(C) from the arm tips: directly from a rigid grasp if there is one; otherwise the
    holonomic closure equations are solved for the object pose alone (Gauss-Newton),
    starting from the best rigid fit (Kabsch) of the grasp points O_i to the tip points
    when there are three non-collinear ones, else from the first tip as if rigid."""
    for a, t in zip(system.arms, arms):
        if a.grasp.kind == "rigid":
            R_C = t.R_tip @ a.grasp.R.T
            return R_C, t.p_tip - R_C @ a.grasp.r
    P = np.array([a.grasp.r for a in system.arms])
    Q = np.array([t.p_tip for t in arms])
    if len(P) >= 3 and np.linalg.matrix_rank(P - P.mean(0), tol=1e-9) >= 2:
        pc, qc = P.mean(0), Q.mean(0)
        U, _, Vt = np.linalg.svd((Q - qc).T @ (P - pc))
        R = U @ np.diag([1, 1, np.sign(np.linalg.det(U @ Vt))]) @ Vt
        p = qc - R @ pc
    else:
        a, t = system.arms[0], arms[0]
        R = t.R_tip @ a.grasp.R.T
        p = t.p_tip - R @ a.grasp.r
    from soagen.closed_chain.consistent import expm_so3, grasp_errors
    for _ in range(max_iter):
        e, JX = grasp_errors(system, arms, R, p)
        if np.abs(e).max() < tol:
            return R, p
        if np.linalg.matrix_rank(JX, tol=1e-9) < 6:
            break
        dX = -np.linalg.lstsq(JX, e, rcond=None)[0]
        R, p = expm_so3(dX[:3]) @ R, p + dX[3:]
    if np.abs(e).max() < 1e-8:
        return R, p
    raise SoagenError(f"{system.name}: the object pose is not determined by the arm tips; "
                      "pass obj_pose=(R, p)")


def object_twist_from_arms(ctx):
    """V(C) from the tip velocities: least squares of phi^c^T (A_i V(C) - V_i(0)) = 0, the
    constrained directions of every grasp ((2.8a) for rigid grasps)."""
    rows = [pc.T @ A for pc, A in zip(ctx.phic, ctx.A)]
    rhs = [pc.T @ t.V_tip() for pc, t in zip(ctx.phic, ctx.arms)]
    G = np.vstack(rows)
    if np.linalg.matrix_rank(G, tol=1e-9) < 6:
        raise SoagenError(f"{ctx.system.name}: the object velocity is not determined by the arm tips; "
                          "pass obj_twist")
    return np.linalg.lstsq(G, np.concatenate(rhs), rcond=None)[0]
