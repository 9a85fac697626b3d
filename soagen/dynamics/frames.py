"""Frame placements, velocities and classical accelerations: one sweep over the bodies,
then O(1) per frame (Part I (2.14), (2.17), (2.25)-(2.26); Sec. 3 below (3.17)).

For a frame at the point r of body k (body axes) the sweeps give the body's world pose
(rotation and origin O(k)), its velocity V(k) (2.25) and its acceleration alpha(k) =
phi^T (H^T qdd + a) (3.15), all at O(k) in body axes; at the frame

    V_f = phi^T(k, f) V(k),    alpha_f = phi^T(k, f) alpha(k) + (0, w x (w x r)),

world-aligned at the frame origin, angular first (alpha_f is the classical acceleration:
(2.14)'s v_dot of the frame's origin, the extra term the centripetal acceleration of the
point r, the a(0) of (2.27)). A frame on a node of a flexible body moves with the node's
deformed frame: its velocity adds U eta_dot, its acceleration U eta_ddot and the node's
own bias terms (F.2), (F.6). The frame's own rotation does not enter: the results are
world-aligned (Pinocchio's LOCAL_WORLD_ALIGNED)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics import flexible
from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.spatial import cross, phiT_motion


def world(R, x):
    """A spatial vector in the axes R, rotated into the world axes (both halves)."""
    return np.concatenate([R @ x[:3], R @ x[3:]])


def at_frame(s, frame, x, acceleration=False):
    """(R, y): the motion x of body k = frame.body (V(k) or alpha(k) at O(k), body axes,
    extended for a flexible body) seen at the frame's origin, y in the axes R relative to
    the body (None: the body's own axes; on a node, the node frame's). With
    ``acceleration``, y is the classical acceleration (the point's centripetal term, or the
    node frame's bias (F.6), added)."""
    robot, xp = s.robot, s.xp
    k = frame.body
    w = s.V[k][:3]
    nf = s.frame_node(frame)
    if nf is None:
        r = xp.constant(frame.r)
        y = phiT_motion(xp.eye(3), r, x[:6] if robot.bodies[k].m else x)             # B^T x
        if acceleration:
            y = y + np.concatenate([xp.zeros(3), cross(w, cross(w, r))])             # + a(0)
        return None, y
    r, etad = s.frame_origin(frame, nf), s.V[k][6:]
    if not acceleration:
        return nf.R, phiT_motion(nf.R, r, x[:6] + nf.U @ x[6:])                       # (F.2)
    node_vel = nf.U @ etad
    rate = flexible.node_rate(robot.bodies[k].flex, nf.node, etad, nf.U, nf.Pi, nf.r, nf.theta, nf.c, xp)
    return nf.R, phiT_motion(nf.R, r, x[:6] + nf.U @ x[6:]) \
        + flexible.attached_bias(nf.R, r, w, phiT_motion(nf.R, r, node_vel), rate, xp.zeros(6))      # (F.6)


def world_aligned(s, poses, frame, x, acceleration=False):
    """:func:`at_frame`, world-aligned; zero for a frame on the fixed base."""
    if frame.body < 0:
        return s.xp.zeros(6)
    R, y = at_frame(s, frame, x, acceleration)
    Rb = poses[frame.body][0]
    return world(Rb if R is None else Rb @ R, y)


def placements(s, frames):
    """The 4 x 4 world transforms of ``frames`` (``s`` gives the link transforms)."""
    robot, xp = s.robot, s.xp
    poses = world_poses(robot, s.X, xp)
    out = []
    for f in frames:
        R, o = frame_pose(robot, poses, f, s.q, xp)
        T = xp.zeros((4, 4))
        T[:3, :3], T[:3, 3], T[3, 3] = R, o, xp.eye(1)[0, 0]
        out.append(T)
    return out


def velocities(s, frames):
    """V_f = phi^T(k, f) V(k) of each frame, world-aligned (2.17), (2.25)."""
    poses = world_poses(s.robot, s.X, s.xp)
    return [world_aligned(s, poses, f, s.V[f.body] if f.body >= 0 else None) for f in frames]


def accelerations(s, alpha, frames):
    """The classical accelerations of the frames from the link accelerations alpha(k)
    (``s`` prepared without gravity), world-aligned."""
    poses = world_poses(s.robot, s.X, s.xp)
    return [world_aligned(s, poses, f, alpha[f.body] if f.body >= 0 else None, acceleration=True)
            for f in frames]
