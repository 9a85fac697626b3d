"""Passive generalized forces: the stiffness and damping of flexible bodies' modal
coordinates, -K eta - C eta_dot (docs/flexible.md (F.5)), and of joints with a spring or a
viscous damper (Swain-Morris Appendix C: (C5) for a flexible base, (C10) for virtual
elastic joints; MJCF ``stiffness``/``springref`` and ``damping``, URDF ``<dynamics
damping>``), -k (q - q_rest) - d qd. They act in joint space, next to the inertial forces of
the recursions. The convention is MuJoCo's ``qfrc_passive``: the passive force
tau_passive = -e(q, qd) adds to the applied joint force, M qdd + C = tau + tau_passive, so
inverse dynamics returns tau = M qdd + C + e and forward dynamics solves with tau - e.
"""

from __future__ import annotations

import numpy as np


def has_elastic_forces(robot) -> bool:
    return any(b.flex is not None or b.joint.elastic for b in robot.bodies)


def elastic_forces(robot, q, qd, xp):
    """e(q, qd) = -tau_passive (nv): K eta + C eta_dot on each flexible body's modal
    coordinates, k (q - q_rest) + d qd on each joint with a spring (1-dof joints) or a
    damper (every dof of the joint), zero elsewhere (F.5), (C5), (C10)."""
    parts = []
    for i, b in enumerate(robot.bodies):
        v = qd[robot.v_slice(i)]
        if b.joint.elastic:
            e = b.joint.damping * v[:b.joint.nv]
            if b.joint.stiffness:
                e = e + b.joint.stiffness * (robot.joint_q(i, q) - b.joint.rest)
            parts.append(e)
        else:
            parts.append(xp.zeros(b.joint.nv))
        if b.m:
            eta, etad = robot.eta(i, q), v[b.joint.nv:]
            parts.append(xp.constant(b.flex.K) @ eta + xp.constant(b.flex.C) @ etad)
    return np.concatenate(parts)


def elastic_jacobians(robot):
    """(de/dq, de/dqd) of the joints' springs and dampers, nv x nv, constant and diagonal:
    k on a spring joint's coordinate, d on each dof of a damped joint (the tangent space is
    that of :func:`soagen.algorithms.inverse_dynamics_derivatives`; springs are on 1-dof
    joints only). Rigid robots only: a flexible body's modal terms are not included."""
    K, C = np.zeros((robot.nv, robot.nv)), np.zeros((robot.nv, robot.nv))
    for i, b in enumerate(robot.bodies):
        sl = robot.joint_v_slice(i)
        K[sl, sl] = b.joint.stiffness * np.eye(b.joint.nv)
        C[sl, sl] = b.joint.damping * np.eye(b.joint.nv)
    return K, C
