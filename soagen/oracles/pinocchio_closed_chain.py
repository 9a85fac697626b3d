"""A Pinocchio model of a closed-chain system, for the oracle test: every arm as a chain
of revolute/prismatic joints from the universe, the object as a free-flyer body, and one
``RigidConstraintModel`` per grasp closing the loop (CONTACT_6D for rigid grasps, CONTACT_3D
for point contacts), solved by ``pin.constraintDynamics``.

Conventions converted (soagen -> Pinocchio):
* arm base placements are folded into the first joint placement; joint axes become
  ``JointModelRevoluteUnaligned`` / ``JointModelPrismaticUnaligned`` (q identical);
* the object's free-flyer configuration is (p_C, quaternion x, y, z, w) and its velocity
  is the body twist (R^T v_C, R^T omega): linear first, in frame C;
* Pinocchio's free-flyer acceleration is the body-frame spatial acceleration (a, dw);
  the classical acceleration of C is R (a + w x v), and omega_dot = R dw.
Pinocchio is optional: import this module only where ``pinocchio`` is installed."""

from __future__ import annotations

import numpy as np
import pinocchio as pin

from soagen.spatial import quaternion_from_rotation
from soagen.tolerances import PIN_PROXIMAL_ACCURACY

CONTACT = {"rigid": "CONTACT_6D", "spherical": "CONTACT_3D"}


def build(system):
    """(model, constraint models, arm joint ids, object joint id)."""
    model = pin.Model()
    model.gravity.linear = np.asarray(system.gravity, dtype=float)
    tips = []
    for arm in system.arms:
        r = arm.robot
        ids = []
        for i, b in enumerate(r.bodies):
            R0, r0 = np.asarray(b.placement_R), np.asarray(b.placement_r)
            if i == 0:
                R0, r0 = arm.base_R @ R0, arm.base_r + arm.base_R @ r0
            axis = np.asarray(b.joint.axis, dtype=float)
            jm = (pin.JointModelRevoluteUnaligned(axis) if b.joint.kind == "revolute"
                  else pin.JointModelPrismaticUnaligned(axis))
            jid = model.addJoint(ids[b.parent] if b.parent >= 0 else 0, jm, pin.SE3(R0, r0),
                                 f"{arm.name}_{b.joint_name}")
            model.appendBodyToJoint(jid, pin.Inertia(float(b.mass), np.asarray(b.com, float),
                                                     np.asarray(b.inertia, float)), pin.SE3.Identity())
            ids.append(jid)
        tips.append(ids[r.tip.body])
    o = system.obj
    oid = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "object")
    model.appendBodyToJoint(oid, pin.Inertia(o.mass, np.asarray(o.com, float), np.asarray(o.inertia, float)),
                            pin.SE3.Identity())
    constraints = []
    for arm, jid in zip(system.arms, tips):
        t, g = arm.robot.tip, arm.grasp
        if g.kind not in CONTACT:
            raise ValueError(f"no Pinocchio contact type for a {g.kind} grasp")
        c = pin.RigidConstraintModel(getattr(pin.ContactType, CONTACT[g.kind]), model,
                                     jid, pin.SE3(np.asarray(t.R), np.asarray(t.r)),
                                     oid, pin.SE3(np.asarray(g.R), np.asarray(g.r)),
                                     pin.ReferenceFrame.LOCAL)
        constraints.append(c)
    return model, constraints, oid


def constrained_dynamics(system, q, qd, tau, R_C, p_C, V_C, R_tips):
    """Arm accelerations, the object's classical acceleration alpha(C) (world, angular
    first) and f(0) per grasp (see :func:`contact_forces`; ``R_tips``: the arm tip frames
    in the world) from ``pin.constraintDynamics``."""
    solver = Solver(system)
    ddq = solver(*pin_state(system, q, qd, tau, R_C, p_C, V_C))
    n = system.n
    w, v = R_C.T @ V_C[:3], R_C.T @ V_C[3:]
    a_lin, dw = ddq[n:n + 3], ddq[n + 3:n + 6]
    alpha_C = np.concatenate([R_C @ dw, R_C @ (a_lin + np.cross(w, v))])
    return ddq[:n], alpha_C, contact_forces(system, solver.data, R_tips)


def pin_state(system, q, qd, tau, R_C, p_C, V_C):
    """(q, v, tau) of the Pinocchio model: arms, then the object's free flyer."""
    w, v = R_C.T @ V_C[:3], R_C.T @ V_C[3:]
    return (np.concatenate([q, p_C, quaternion_from_rotation(R_C)]), np.concatenate([qd, v, w]),
            np.concatenate([tau, np.zeros(6)]))


class Solver:
    """``pin.constraintDynamics`` on the system's model, set up once: call with
    (q, v, tau) of :func:`pin_state`; ``data`` holds the constraint forces afterwards."""

    def __init__(self, system):
        self.model, self.cms, _ = build(system)
        self.data = self.model.createData()
        self.cds = [c.createData() for c in self.cms]
        pin.initConstraintDynamics(self.model, self.data, self.cms, self.cds)
        self.prox = pin.ProximalSettings(PIN_PROXIMAL_ACCURACY, 0.0, 1)

    def __call__(self, q, v, tau):
        return pin.constraintDynamics(self.model, self.data, q, v, tau, self.cms, self.cds, self.prox)


def contact_forces(system, data, R_tips):
    """Pinocchio's constraint forces (``data.lambda_c``: per constraint, linear then angular,
    in the LOCAL frame of the arm-side contact placement, the force acting on the arm)
    -> f(0) of soagen (world, moment first, the force of the tip on the object): minus it."""
    out, k = [], 0
    for arm, R in zip(system.arms, R_tips):
        m = 6 if arm.grasp.kind == "rigid" else 3
        lam = np.asarray(data.lambda_c[k:k + m])
        k += m
        F = R @ lam[:3]
        N = R @ lam[3:6] if m == 6 else np.zeros(3)
        out.append(-np.concatenate([N, F]))
    return np.array(out)
