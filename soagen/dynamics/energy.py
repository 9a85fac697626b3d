"""Kinetic and potential energy (for energy-conservation checks and `soagen simulate`).

T = sum_k 1/2 Vhat(k)^T Mhat(k) Vhat(k) over the bodies (Part I (3.20): 1/2 qd^T M qd;
for flexible bodies the kinetic energy (F.3) the recursions are derived from; plus the
rotors' 1/2 J_m qd^2). The
potential is gravity's, -g . (sum_k m_k o_k + R_k s_k), s_k the first moment of body k
about O(k) (read off M(k) = [[., s~], [-s~, m]], a function of eta for a flexible body),
plus the elastic energy 1/2 eta^T K eta and 1/2 k (q - q_rest)^2 of spring joints (F.5)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.kinematics import world_poses


def kinetic_energy(s):
    """sum_k 1/2 V^T M V, plus each rotor's 1/2 J_m qd^2 (armature)."""
    T = sum(0.5 * (V @ (M @ V)) for V, M in zip(s.V, s.M))
    if s.robot.has_armature:
        T += 0.5 * float(s.qd @ (s.robot.armature * s.qd))
    return T


def potential_energy(s):
    robot = s.robot
    poses = world_poses(robot, s.X)
    g = np.asarray(robot.gravity, dtype=float)
    U = 0.0
    for i, body in enumerate(robot.bodies):
        M = s.M[i]
        first = np.array([M[2, 4], M[0, 5], M[1, 3]])          # s = m p from the m p~ block
        R, o = poses[i]
        U -= g @ (M[3, 3] * o + R @ first)
        if body.m:
            eta = robot.eta(i, s.q)
            U += 0.5 * eta @ body.flex.K @ eta
        if body.joint.stiffness:
            U += 0.5 * body.joint.stiffness * float(robot.joint_q(i, s.q)[0] - body.joint.rest) ** 2
    return U
