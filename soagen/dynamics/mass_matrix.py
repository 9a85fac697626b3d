"""The mass matrix M = H phi M phi^T H^T (3.20) by an O(N^2) recursion.

By Corollary A.1 (Lemma A.1 with psi = phi), phi M phi^T = R + phi~ R + R phi~^T with the
composite inertias R(k+1) = phi(k+1, k) R(k) phi^T(k+1, k) + M(k+1), and the block
(k, l), k >= l, of phi M phi^T is phi(k, l) R(l). Hence
M(k, l) = H(k) phi(k, l) R(l) H^T(l): one tip-to-base sweep for R, then for each l a walk
towards the base (:mod:`soagen.dynamics.composite`). The joints' rotor inertias J_m(k)
(armature) add to the diagonal blocks: M = H phi M phi^T H^T + J_m."""

from __future__ import annotations

from soagen.dynamics.armature import plus_armature
from soagen.dynamics.composite import (
    COMPOSITE_INERTIA,
    composite_inertias,
    towards_base,
)

COLUMN_WALK = "mass matrix column walk, body k, column l: phi(k, l) R(l) H^T(l) (Cor. A.1)"


def mass_matrix(s):
    """M(k, l) = H(k) phi(k, l) R(l) H^T(l) (3.20), Corollary A.1: composite inertias, then a walk per column."""
    robot, xp = s.robot, s.xp
    R = composite_inertias(s, s.M, "Rc", COMPOSITE_INERTIA)     # (a.44) with psi = phi
    Mass = xp.zeros((robot.nv, robot.nv))
    for l in range(robot.nb):
        cl = robot.v_slice(l)
        for k, F in towards_base(s, l, R[l] @ s.H[l].T, "F", COLUMN_WALK):   # phi(k, l) R(l) H^T(l)
            block = s.H[k] @ F
            if k == l:
                block = plus_armature(block, robot.bodies[l], xp)               # + J_m(k)
            Mass[robot.v_slice(k), cl] = block
            if k != l:
                Mass[cl, robot.v_slice(k)] = block.T
    return Mass
