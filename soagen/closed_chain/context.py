"""The quantities every closed-chain method shares at one state: per-arm terms
(:class:`~soagen.closed_chain.arm.ArmTerms`), the object's pose and velocity, the grasp
maps A (2.6), a(C) (2.5), M(C), b(C) (2.4), and the grasp spaces in the world.

Constraint at grasp i (Lilly-Orin (27)-(30), Part II (a.6)-(a.8)): the relative velocity
dV = V^-(0) - V^+(0) (object side minus arm tip, both at O_i) lies in the motion space,
phi^c^T dV = 0. The spaces are fixed in the object, d/dt phi^c = W phi^c with
W = diag(omega~, omega~), so at the acceleration level

    phi^c^T (alpha^+(0) - alpha^-(0)) = gamma,   gamma = -phi^c^T W dV,

with alpha^+ = J qdd + Jdot qd (2.1d) and alpha^- = A alpha(C) + a(C) (2.7b). For a rigid
grasp dV = 0 and gamma = 0, which is (2.10b); its constraint space is all of R^6, taken as
phi^c = I whatever the grasp frame (every method depends on phi^c only through its span).

Like the arm recursions, a Context runs on a backend ``xp``: on floats for the generic
methods, on SymPy symbols for the generated closed-chain code
(:mod:`soagen.codegen.closed_chain`), so the object and grasp terms are written once."""

from __future__ import annotations

import numpy as np

from soagen.backend import NUMPY
from soagen.closed_chain.arm import ArmTerms, block
from soagen.closed_chain.consistent import grasp_errors, world_basis
from soagen.errors import SoagenError
from soagen.operators.chain import block_diag
from soagen.spatial import cross, phi_CO, rotation_exp, skew, spatial_inertia
from soagen.tolerances import CLOSURE, CLOSURE_ACCEPT, RANK


class Context:
    """One state of the system: arms' terms, object terms, grasp terms (world frame)."""

    def __init__(self, system, q, qd, tau, obj_pose=None, obj_twist=None, xp=NUMPY):
        self.system, self.xp = system, xp
        qs, qds, taus = (system.split(x, xp.dtype) for x in (q, qd, tau))
        self.arms = [ArmTerms(a, qi, qdi, ti, xp) for a, qi, qdi, ti in zip(system.arms, qs, qds, taus)]
        if obj_pose is None:
            obj_pose = object_pose_from_arms(system, self.arms)
        R_C, p_C = obj_pose
        self.R_C = xp.name(xp.asarray(R_C), "RC", note="X(C): orientation of the object frame C in the world")
        self.p_C = None if p_C is None else xp.asarray(p_C)   # not needed by the dynamics
        self.grasp_terms()
        if obj_twist is None:
            obj_twist = object_twist_from_arms(self)
        self.V_C = xp.asarray(obj_twist)
        self.object_terms()

    def grasp_terms(self):
        xp = self.xp
        self.l_CO, self.A, self.phi, self.phic, self.R_g = [], [], [], [], []
        for a in self.system.arms:
            g = a.grasp
            l = self.R_C @ xp.constant(g.r)                      # l(C, O_i), world
            Rg = xp.name(self.R_C @ xp.constant(g.R), "Rg", note="orientation of a grasp frame in the world")
            self.l_CO.append(l)
            self.A.append(phi_CO(l).T)                           # A_i = phi^T(C, O_i) (2.6)
            self.R_g.append(Rg)
            self.phi.append(block(Rg) @ xp.constant(g.phi))
            self.phic.append(world_basis(g.phic, Rg, xp))

    def object_terms(self):
        xp, o = self.xp, self.system.obj
        w = self.V_C[:3]
        p = self.R_C @ xp.constant(o.com)
        I_c = self.R_C @ xp.constant(o.inertia) @ self.R_C.T
        self.M_C = xp.name(spatial_inertia(o.mass, p, I_c), "MC", symmetric=True,   # M(C) (2.4)
                           note="I_0 = M(C), the object's spatial inertia about C (Part II (2.4))")
        I_C = self.M_C[:3, :3]
        b = np.concatenate([cross(w, I_C @ w), o.mass * cross(w, cross(w, p))])   # b(C) (2.4)
        # gravity on the object: M(C) (alpha(C) - (0, g)) + b(C) = f(C), folded into b(C)
        g = np.concatenate([xp.zeros(3), xp.constant(self.system.gravity)])
        self.b_C = xp.name(b - self.M_C @ g, "bC",
                           note="b_0 - g_0 = b(C) with the object's weight (Part II (2.4), Lilly-Orin (43))")
        self.a_C = [np.concatenate([xp.zeros(3), cross(w, cross(w, l))]) for l in self.l_CO]  # a_i(C) (2.5)
        self.W = block(skew(w))
        self.V_minus = [A @ self.V_C for A in self.A]                       # (2.7a)
        self.V_plus = [t.V_tip() for t in self.arms]
        self.dV = [vm - vp for vm, vp in zip(self.V_minus, self.V_plus)]
        self.gamma = [xp.name(-pc.T @ (self.W @ dv), "gam",
                              note="-alpha^c_k = -phi^c^T W dV: the grasp's closure bias (Lilly-Orin (30))")
                      for pc, dv in zip(self.phic, self.dV)]

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

    def M_C_inv(self):
        return np.linalg.inv(self.M_C)

    def check_full_rank(self, method, tol=RANK):
        """The methods built on Omega^-1 need every J_i M_i^-1 J_i^T invertible (Sec. 4)."""
        for t in self.arms:
            s = np.linalg.svd(t.Lambda(), compute_uv=False)
            if s[-1] <= tol * max(s[0], 1.0):
                raise SoagenError(
                    f"{self.system.name}: arm {t.arm.name!r} is at a singular configuration "
                    f"(J M^-1 J^T has rank {int(np.sum(s > tol * s[0]))} < 6); method {method!r} "
                    "needs J full rank (use method='lilly_orin' or 'dense')")


def object_pose_from_arms(system, arms, tol=CLOSURE, max_iter=50):
    """X(C) from the arm tips: directly from the first rigid grasp if there is one (on any
    backend); otherwise (numeric only) the
    holonomic closure equations are solved for the object pose alone (Gauss-Newton),
    starting from the best rigid fit (Kabsch) of the grasp points O_i to the tip points
    when there are three non-collinear ones, else from the first tip as if rigid."""
    i = first_rigid(system)
    if i is not None:
        g, t = system.arms[i].grasp, arms[i]
        R_C = t.R_tip @ g.R.T
        return R_C, t.p_tip - R_C @ g.r
    P = np.array([a.grasp.r for a in system.arms])
    Q = np.array([t.p_tip for t in arms])
    if len(P) >= 3 and np.linalg.matrix_rank(P - P.mean(0), tol=RANK) >= 2:
        pc, qc = P.mean(0), Q.mean(0)
        U, _, Vt = np.linalg.svd((Q - qc).T @ (P - pc))
        R = U @ np.diag([1, 1, np.sign(np.linalg.det(U @ Vt))]) @ Vt
        p = qc - R @ pc
    else:
        a, t = system.arms[0], arms[0]
        R = t.R_tip @ a.grasp.R.T
        p = t.p_tip - R @ a.grasp.r
    for _ in range(max_iter):
        e, JX = grasp_errors(system, arms, R, p)
        if np.abs(e).max() < tol:
            return R, p
        if np.linalg.matrix_rank(JX, tol=RANK) < 6:
            break
        dX = -np.linalg.lstsq(JX, e, rcond=None)[0]
        R, p = rotation_exp(dX[:3]) @ R, p + dX[3:]
    if np.abs(e).max() < CLOSURE_ACCEPT:
        return R, p
    raise SoagenError(f"{system.name}: the object pose is not determined by the arm tips; "
                      "pass obj_pose=(R, p)")


def first_rigid(system):
    """Index of the first arm with a rigid grasp (it fixes the object's pose), or None."""
    return next((i for i, a in enumerate(system.arms) if a.grasp.kind == "rigid"), None)


def object_twist_from_arms(ctx):
    """V(C) from the tip velocities: through the first rigid grasp, V(C) = A_i^-1 V_i(0)
    (2.8a), on any backend; otherwise (numeric only) by least squares of
    phi^c^T (A_i V(C) - V_i(0)) = 0 over the constrained directions of every grasp."""
    i = first_rigid(ctx.system)
    if i is not None:
        V = ctx.arms[i].V_tip()
        w = V[:3]
        return np.concatenate([w, V[3:] - cross(w, ctx.l_CO[i])])        # (2.8a)
    rows = [pc.T @ A for pc, A in zip(ctx.phic, ctx.A)]
    rhs = [pc.T @ t.V_tip() for pc, t in zip(ctx.phic, ctx.arms)]
    G = np.vstack(rows)
    if np.linalg.matrix_rank(G, tol=RANK) < 6:
        raise SoagenError(f"{ctx.system.name}: the object velocity is not determined by the arm tips; "
                          "pass obj_twist")
    return np.linalg.lstsq(G, np.concatenate(rhs), rcond=None)[0]
