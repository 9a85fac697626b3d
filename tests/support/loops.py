"""Shared by the loop-closure tests: closed states, MuJoCo's qpos in soagen's coordinates,
and Pinocchio's constraintDynamics with the same closures."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen import algorithms as A
from soagen.quaternion import integrate

DATA = Path(__file__).resolve().parents[1] / "loops" / "data"
"""The loop tests' robot files (tests/loops/data: not bundled robots, no generated/ for them)."""


def closed_state(robot, q0, seed, spread=0.2, speed=1.0, torque=1.0):
    """(q, qd, tau): q0 moved by ``spread`` on the manifold and projected back onto the
    closures, random closure-consistent qd, random tau."""
    rng = np.random.default_rng(seed)
    q = integrate(robot, q0, spread * rng.normal(size=robot.nv))
    q, qd = A.consistent_loop_state(robot, q, speed * rng.normal(size=robot.nv))
    return q, qd, torque * rng.normal(size=robot.nv)


def q_from_qpos(robot, qpos):
    """MuJoCo's qpos (quaternions w x y z) as soagen's q (x y z w)."""
    out, i = [], 0
    for b in robot.bodies:
        x = qpos[i:i + b.joint.nq]
        if b.joint.kind == "free":
            out += [*x[:3], *x[4:7], x[3]]
        elif b.joint.kind == "spherical":
            out += [*x[1:4], x[0]]
        else:
            out += list(x)
        i += b.joint.nq
    return np.array(out)


def qpos_from_q(robot, q):
    out = []
    for i, b in enumerate(robot.bodies):
        x = q[robot.q_slice(i)]
        if b.joint.kind == "free":
            out += [*x[:3], x[6], *x[3:6]]
        elif b.joint.kind == "spherical":
            out += [x[3], *x[:3]]
        else:
            out += list(x)
    return np.array(out)


def pin_closures(pin, robot, model):
    """RigidConstraintModels of the robot's closures on a model built joint by joint from
    it (soagen.oracles.pinocchio.pin_model_from_robot: body i is joint i + 1, its frame the
    joint frame): CONTACT_3D for connect, CONTACT_6D for weld, LOCAL."""
    cms = pin.StdVec_RigidConstraintModel()
    kind = {"connect": pin.ContactType.CONTACT_3D, "weld": pin.ContactType.CONTACT_6D}
    for c in robot.closures:
        f1, f2 = c.frame1, c.frame2
        cms.append(pin.RigidConstraintModel(kind[c.kind], model, f1.body + 1, pin.SE3(np.array(f1.R), np.array(f1.r)),
                                            f2.body + 1, pin.SE3(np.array(f2.R), np.array(f2.r)),
                                            pin.ReferenceFrame.LOCAL))
    return cms


def pin_mjcf_closures(pin, model, parsed):
    """RigidConstraintModels of the equality constraints Pinocchio's own MJCF reader found."""
    cms = pin.StdVec_RigidConstraintModel()
    for key in ("point_anchor_constraint_models", "frame_anchor_constraint_models"):
        for x in parsed.get(key, ()):
            cms.append(pin.convertToRigidConstraintModel(model, x, pin.ReferenceFrame.LOCAL))
    return cms


def pin_constraint_dynamics(pin, model, cms, c, q, qd, tau, mu=1e-8):
    """Pinocchio's constraintDynamics (proximal, mu > 0: redundant closures are fine) in
    soagen's coordinates (``c``: the Converter), with soagen's rotor inertias as Pinocchio's
    ``model.armature`` and its passive forces (which Pinocchio's dynamics leave out) added
    to tau."""
    model.armature = c.v_to_pin(c.robot.armature)
    tau = tau + A.passive_forces(c.robot, q, qd)
    data = model.createData()
    cds = pin.StdVec_RigidConstraintData()
    for cm in cms:
        cds.append(cm.createData())
    pin.initConstraintDynamics(model, data, cms, cds)
    prox = pin.ProximalSettings(1e-14, mu, 1000)
    a = pin.constraintDynamics(model, data, c.q_to_pin(q), c.v_to_pin(qd), c.v_to_pin(tau), cms, cds, prox)
    return c.v_from_pin(a)
