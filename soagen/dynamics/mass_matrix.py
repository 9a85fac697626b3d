"""The mass matrix M = H phi M phi^T H^T (3.20) by an O(N^2) recursion.

By Corollary A.1 (Lemma A.1 with psi = phi), phi M phi^T = R + phi~ R + R phi~^T with the
composite inertias R(k+1) = phi(k+1, k) R(k) phi^T(k+1, k) + M(k+1), and the block
(k, l), k >= l, of phi M phi^T is phi(k, l) R(l). Hence
M(k, l) = H(k) phi(k, l) R(l) H^T(l): one tip-to-base sweep for R, then for each l a walk
towards the base."""

from __future__ import annotations

from soagen.spatial import phi_force, phi_matrix


def mass_matrix(robot, s, xp):
    R = list(s.M)
    for i in reversed(range(robot.nb)):                         # (a.44) with psi = phi
        R[i] = xp.name(R[i], f"Rc{i}")
        p = robot.bodies[i].parent
        if p >= 0:
            phi = phi_matrix(*s.X[i])
            R[p] = R[p] + phi @ R[i] @ phi.T
    Mass = xp.zeros((robot.nv, robot.nv))
    for l in range(robot.nb):
        F = R[l] @ s.H[l].T                                     # R(l) H^T(l)
        cl = robot.v_slice(l)
        Mass[cl, cl] = s.H[l] @ F
        k = l
        while robot.bodies[k].parent >= 0:
            F = xp.name(phi_force(*s.X[k], F), f"F{robot.bodies[k].parent}_{l}")   # phi(k+1, k) ...
            k = robot.bodies[k].parent
            block = s.H[k] @ F
            Mass[robot.v_slice(k), cl] = block
            Mass[cl, robot.v_slice(k)] = block.T
    return Mass
