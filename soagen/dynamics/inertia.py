"""Link spatial inertias M(k) (2.15) and bias forces b(k) (2.23)."""

from __future__ import annotations

import numpy as np

from soagen.spatial import cross, spatial_inertia


def link_inertias(robot, xp):
    """M(k) of every body, about O(k) in the body frame (2.15)."""
    return [xp.name(xp.constant(spatial_inertia(b.mass, np.asarray(b.com), np.asarray(b.inertia))), f"M{i}",
                    symmetric=True, note="spatial inertia M(k) about O(k) (2.15)")
            for i, b in enumerate(robot.bodies)]


def bias_force(M_k, V_k):
    """b(k) = (w x I(k) w, m w x (w x p)) (2.23), read off M(k) = [[I, m p~], [-m p~, m]]."""
    w = V_k[:3]
    I_O = M_k[:3, :3]
    mp = np.array([M_k[2, 4], M_k[0, 5], M_k[1, 3]])      # m p from the m p~ block
    return np.concatenate([cross(w, I_O @ w), cross(w, cross(w, mp))])
