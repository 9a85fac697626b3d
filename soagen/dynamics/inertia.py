"""Link spatial inertias M(k) (2.15), bias forces b(k) (2.23), and the shift of a
rigid-body inertia from one link frame to its parent's by its 10 parameters."""

from __future__ import annotations

import numpy as np

from soagen.dynamics import flexible
from soagen.spatial import cross, skew, spatial_inertia


def link_inertias(robot, xp, q=None):
    """M(k) of every body, about O(k) in the body frame (2.15); for a flexible body the
    extended Mhat(k)(eta) (F.3), which needs the configuration ``q``."""
    return [xp.name(xp.constant(spatial_inertia(b.mass, np.asarray(b.com), np.asarray(b.inertia))), "M",
                    body=i, symmetric=True, note="spatial inertia M(k) about O(k) (2.15)") if b.flex is None
            else xp.name(flexible.inertia(b.flex, robot.eta(i, q), xp), "M", body=i, symmetric=True,
                         note="extended inertia Mhat(k)(eta) of the flexible body about O(k) (F.3)")
            for i, b in enumerate(robot.bodies)]


def bias_force(M_k, V_k):
    """b(k) = (w x I(k) w, m w x (w x p)) (2.23), read off M(k) = [[I, m p~], [-m p~, m]]."""
    w = V_k[:3]
    I_O = M_k[:3, :3]
    mp = np.array([M_k[2, 4], M_k[0, 5], M_k[1, 3]])      # m p from the m p~ block
    return np.concatenate([cross(w, I_O @ w), cross(w, cross(w, mp))])


def inertia_parameters(M):
    """(m, h, I_O) of a spatial inertia about O (2.15), M = [[I_O, h~], [-h~, m 1]] with
    h = m p: the 10 numbers that fix it (a composite of rigid bodies, or the rate of one,
    whose m is 0, has the same form)."""
    return M[3, 3], np.array([M[2, 4], M[0, 5], M[1, 3]]), M[:3, :3]


def rigid_inertia(m, h, I_O):
    """The 6 x 6 spatial inertia [[I_O, h~], [-h~, m 1]] (2.15) from its 10 parameters."""
    H = skew(h)
    return np.block([[I_O, H], [-H, m * np.eye(3, dtype=H.dtype)]])


def phi_inertia(R, l, M):
    """phi(k+1, k) M phi^T(k+1, k) for a spatial inertia M about O(k) in frame k, as the
    inertia about O(k+1) in frame k+1 (the step of (a.44)), on its 10 parameters: with
    the rotated h_r = R h and I_r = R I_O R^T,

        m' = m,   h' = h_r + m l,
        I' = I_r - l~ h_r~ - h_r~ l~ - m l~ l~
           = I_r + 2 (l . h_r) 1 - (h_r l^T + l h_r^T) + m (|l|^2 1 - l l^T)

    (a~ b~ = b a^T - (a . b) 1), which the full congruence [[R, l~ R], [0, R]] M [...]^T
    computes with 6 x 6 products."""
    m, h, I_O = inertia_parameters(M)
    h_r = R @ h
    I_r = R @ I_O @ R.T
    lh, ll = l @ h_r, l @ l
    eye = np.eye(3, dtype=np.result_type(I_r, l))
    I_new = I_r + 2 * lh * eye - (np.outer(h_r, l) + np.outer(l, h_r)) + m * (ll * eye - np.outer(l, l))
    return rigid_inertia(m, h_r + m * l, I_new)
