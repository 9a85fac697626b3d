"""The tip Jacobian J = B^T phi^T H^T (3.13) and Jdot qdot = B^T phi^T a + a(0) (Sec. 3).
Outputs are world-aligned, angular rows first, at the tip point. (J M^-1 J^T by the
recursion (6.10) is in :mod:`soagen.dynamics.omega`.)

A flexible body on the path contributes, besides its joint's columns, one column per
modal coordinate: the spatial velocity its deformation gives the node the path leaves it
through (the modal influence U of (F.2), the framework paper's h^T of (4.1), (4.3))."""

from __future__ import annotations

import numpy as np

from soagen.dynamics import flexible
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
        S = _world(Rb, s.H[i].T if not robot.bodies[i].m else _columns(s, path, n, frame))
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
    (``s`` must be prepared with gravity=False)."""
    robot, xp = s.robot, s.xp
    frame = frame or robot.tip
    zeta = anticausal_propagate(s, s.a, "zeta", ZETA)
    k = frame.body
    w = s.V[k][:3]
    nf = s.frame_node(frame)
    if nf is None:
        r = xp.constant(frame.r)
        z = zeta[k][:6] if robot.bodies[k].m else zeta[k]
        alpha0 = phiT_motion(xp.eye(3), r, z)             # B^T phi^T a
        alpha0 = alpha0 + np.concatenate([xp.zeros(3), cross(w, cross(w, r))])   # + a(0)
        return _world(world_poses(robot, s.X, xp)[k][0], alpha0)
    # a frame on a node of a flexible body: the node frame's motion (F.6)
    r, etad = s.frame_origin(frame, nf), s.V[k][6:]
    node_vel = nf.U @ etad
    rate = flexible.node_rate(robot.bodies[k].flex, nf.node, etad, nf.U, nf.Pi, nf.r, nf.theta, nf.c, xp)
    alpha0 = phiT_motion(nf.R, r, zeta[k][:6] + nf.U @ zeta[k][6:]) \
        + flexible.attached_bias(nf.R, r, w, phiT_motion(nf.R, r, node_vel), rate, xp.zeros(6))
    return _world(world_poses(robot, s.X, xp)[k][0] @ nf.R, alpha0)
