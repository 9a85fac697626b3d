"""The tip Jacobian J = B^T phi^T H^T (3.13) and Jdot qdot = B^T phi^T a + a(0) (Sec. 3).
Outputs are world-aligned, angular rows first, at the tip point. (J M^-1 J^T by the
recursion (6.10) is in :mod:`soagen.dynamics.omega`.)

A flexible body on the path contributes, besides its joint's columns, one column per
modal coordinate: the spatial velocity its deformation gives the node the path leaves it
through (the modal influence U of (F.2), the framework paper's h^T of (4.1), (4.3))."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.frames import at_frame, world
from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.dynamics.sweeps import ZETA, anticausal_propagate
from soagen.spatial import cross


def ancestors(robot, body):
    """Bodies from the base to ``body`` (inclusive)."""
    path = []
    while body >= 0:
        path.append(body)
        body = robot.bodies[body].parent
    return path[::-1]


def jacobian(s, frame=None):
    """V(0) = J qdot: column block of joint k is phi^T(k, 0) H^T(k) in world axes (3.13)."""
    robot, xp = s.robot, s.xp
    frame = frame or robot.tip
    poses = world_poses(robot, s.X, xp)
    _, o_tip = frame_pose(robot, poses, frame, s.q, xp)
    J = xp.zeros((6, robot.nv))
    path = ancestors(robot, frame.body)
    for n, i in enumerate(path):
        Rb, ob = poses[i]
        S = world(Rb, s.H[i].T if not robot.bodies[i].m else _columns(s, path, n, frame))
        l = o_tip - ob                                    # l(k, 0)
        J[:, robot.v_slice(i)] = np.concatenate([S[:3], S[3:] + cross(S[:3], l)])
    return J


def _columns(s, path, n, frame):
    """H^T(k) of a flexible body's joint, then the modal influence U of the node the path
    to the frame leaves it through (body axes, at O(k)) (F.2)."""
    robot, xp = s.robot, s.xp
    i, b = path[n], robot.bodies[path[n]]
    if n + 1 < len(path):
        U = s.att[path[n + 1]].U
    else:
        nf = s.frame_node(frame)
        U = nf.U if nf is not None else xp.zeros((6, b.m))
    return np.concatenate([s.H[i][:b.joint.nv, :6].T, U], axis=1)


def jacobian_dot_qd(s, frame=None):
    """Jdot qdot = B^T phi^T a + a(0): the tip acceleration at qdd = 0 without gravity
    (``s`` must be prepared with gravity=False), the frame's classical acceleration of
    :mod:`soagen.dynamics.frames` with alpha = zeta = phi^T a."""
    robot, xp = s.robot, s.xp
    frame = frame or robot.tip
    zeta = anticausal_propagate(s, s.a, "zeta", ZETA)
    R, alpha0 = at_frame(s, frame, zeta[frame.body], acceleration=True)
    Rb = world_poses(robot, s.X, xp)[frame.body][0]
    return world(Rb if R is None else Rb @ R, alpha0)
