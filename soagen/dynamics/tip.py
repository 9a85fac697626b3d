"""The tip frame O(0): B = phi(1, 0) (3.7) between the tip body and the tip point."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.kinematics import world_poses
from soagen.spatial import phi_force


def tip_force_at_body(robot, X, f0, xp):
    """B f(0): the tip force f(0) (moment about the tip point, then force, world-aligned,
    exerted by the tip on the environment, as in (2.28)) as a force at the tip body's
    origin O(1), in the tip body's frame."""
    Rb = world_poses(robot, X)[robot.tip.body][0]
    f_local = np.concatenate([Rb.T @ f0[:3], Rb.T @ f0[3:]])
    return phi_force(xp.eye(3), xp.constant(robot.tip.r), f_local)   # phi(1, 0)
