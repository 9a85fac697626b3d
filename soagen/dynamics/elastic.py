"""Elastic generalized forces: the stiffness and damping of flexible bodies' modal
coordinates, -K eta - C eta_dot (docs/flexible.md (F.5)), and of spring-damper joints
(Swain-Morris Appendix C: (C5) for a flexible base, (C10) for virtual elastic joints),
-k (q - q_rest) - d qd. They act in joint space, next to the inertial forces of the
recursions: T = M qdd + C + e (inverse dynamics adds e, forward dynamics subtracts it).
"""

from __future__ import annotations

import numpy as np


def has_elastic_forces(robot) -> bool:
    return any(b.flex is not None or b.joint.elastic for b in robot.bodies)


def elastic_forces(robot, q, qd, xp):
    """e(q, qd) (nv): K eta + C eta_dot on each flexible body's modal coordinates,
    k (q - q_rest) + d qd on each spring-damper joint, zero elsewhere (F.5), (C5), (C10)."""
    parts = []
    for i, b in enumerate(robot.bodies):
        v = qd[robot.v_slice(i)]
        if b.joint.elastic:
            parts.append(b.joint.stiffness * (robot.joint_q(i, q) - b.joint.rest) + b.joint.damping * v[:1])
        else:
            parts.append(xp.zeros(b.joint.nv))
        if b.m:
            eta, etad = robot.eta(i, q), v[b.joint.nv:]
            parts.append(xp.constant(b.flex.K) @ eta + xp.constant(b.flex.C) @ etad)
    return np.concatenate(parts)
