"""The tip Jacobian J = B^T phi^T H^T (3.13) and Jdot qdot = B^T phi^T a + a(0) (Sec. 3).
Outputs are world-aligned, angular rows first, at the tip point. (J M^-1 J^T by the
recursion (6.10) is in :mod:`soagen.dynamics.omega`.)"""

from __future__ import annotations

import numpy as np

from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.dynamics.sweeps import ZETA, anticausal_propagate
from soagen.spatial import cross, phiT_motion


def ancestors(robot, body):
    """Bodies from the base to ``body`` (inclusive)."""
    path = []
    while body >= 0:
        path.append(body)
        body = robot.bodies[body].parent
    return path[::-1]


def _world(R, x):
    return np.concatenate([R @ x[:3], R @ x[3:]])


def jacobian(robot, s, xp, frame=None):
    """V(0) = J qdot: column block of joint k is phi^T(k, 0) H^T(k) in world axes (3.13)."""
    frame = frame or robot.tip
    poses = world_poses(robot, s.X, xp)
    _, o_tip = frame_pose(robot, poses, frame)
    J = xp.zeros((6, robot.nv))
    for i in ancestors(robot, frame.body):
        Rb, ob = poses[i]
        S = _world(Rb, s.H[i].T)                          # H^T(k) in world axes
        l = o_tip - ob                                    # l(k, 0)
        J[:, robot.v_slice(i)] = np.concatenate([S[:3], S[3:] + cross(S[:3], l)])
    return J


def jacobian_dot_qd(robot, s, xp, frame=None):
    """Jdot qdot = B^T phi^T a + a(0): the tip acceleration at qdd = 0 without gravity
    (``s`` must be prepared with gravity=False)."""
    frame = frame or robot.tip
    zeta = anticausal_propagate(robot, s.X, s.a, xp, "zeta", ZETA)
    k = frame.body
    r = xp.constant(frame.r)
    w = s.V[k][:3]
    alpha0 = phiT_motion(xp.eye(3), r, zeta[k])           # B^T phi^T a
    alpha0 = alpha0 + np.concatenate([xp.zeros(3), cross(w, cross(w, r))])   # + a(0)
    return _world(world_poses(robot, s.X, xp)[k][0], alpha0)
