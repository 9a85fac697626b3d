"""Forces given at frames fixed on bodies, carried to the body origins: B f (3.7), (2.13).

The tip frame O(0) is one such frame, B = phi(1, 0) between the tip body and the tip point.
On a flexible body the frame sits on a node (F.1): B carries the force to the body origin
from the node's deformed position and, through the node's modal influence U^T, to the
body's modal forces (the framework paper's B_k and h_k of (4.3))."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.kinematics import pad, world_poses
from soagen.spatial import phi_force


def frame_force_at_body(s, Rb, frame, f):
    """A force f (moment about the frame origin, then force, world-aligned) as a force at
    the origin of the frame's body, in the body frame; ``Rb`` is the body's world rotation."""
    xp = s.xp
    f_local = np.concatenate([Rb.T @ f[:3], Rb.T @ f[3:]])
    nf = s.frame_node(frame)
    if nf is None:
        g = phi_force(xp.eye(3), xp.constant(frame.r), f_local)        # phi(k, frame)
        return pad(g, s.robot.bodies[frame.body].m, xp)
    g = phi_force(xp.eye(3), s.frame_origin(frame, nf), f_local)
    return np.concatenate([g, nf.U.T @ g])                               # modal forces U^T g


def tip_force_at_body(s, f0):
    """B f(0): the tip force f(0) (exerted by the tip on the environment, as in (2.28)) at
    the tip body's origin O(1), in the tip body's frame."""
    robot = s.robot
    return frame_force_at_body(s, world_poses(robot, s.X)[robot.tip.body][0], robot.tip, f0)


def frame_forces_at_bodies(s, frames, f):
    """B f: forces f_c at the frames as forces at the body origins, summed per body (2.13)."""
    robot, xp = s.robot, s.xp
    poses = world_poses(robot, s.X)
    x = [xp.zeros(6 + b.m) for b in robot.bodies]
    for c, fr in enumerate(frames):
        x[fr.body] = x[fr.body] + frame_force_at_body(s, poses[fr.body][0], fr, f[6 * c:6 * c + 6])
    return x
