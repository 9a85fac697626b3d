"""The centre of mass, its Jacobian, the centroidal momentum matrix A_G (Orin and Goswami,
"Centroidal momentum matrix of a humanoid robot", IROS 2008) and A_G-dot qd, in O(N)
from the composite-body recursion (a.44) and the RNE's force sweep (3.17).

The spatial momentum of all bodies about the world origin O, world-aligned, is
h_O = E^T phi M phi^T H^T qd (E^T phi has the blocks phi(O, k), Part I (3.8)). By
Corollary A.1, phi M phi^T = phi R + R phi~^T with the composite inertias R (a.44), and a
root link has no ancestor, so the rows of R phi~^T that E^T picks are zero:

    A_O = E^T phi R H^T,  column block l = phi(O, l) R(l) H^T(l)

(``soagen derive centroidal`` proves each step). The whole robot's inertia about O is
E^T phi R phi^T E, the sum over the roots of phi(O, k) R(k) phi^T(O, k): its mass m and
first moment h = m c give the centre of mass c; A_G = phi(G, O) A_O, and the linear rows
of A_G are m J_com. The momentum's rate at qdd = 0 without gravity is, about the fixed
point O, the base force of the RNE, E^T phi (M phi^T a + b) (3.17); about the moving G
it is phi(G, O) times that (the extra term Gdot x m Gdot vanishes): A_G-dot qd."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.composite import COMPOSITE_INERTIA, composite_inertias
from soagen.dynamics.inertia import inertia_parameters, phi_inertia
from soagen.dynamics.kinematics import world_poses
from soagen.dynamics.rne import newton_euler
from soagen.spatial import phi_force


def whole_body_inertia(s, R, poses):
    """E^T phi R phi^T E: the robot's spatial inertia about the world origin, world axes,
    as its 10 parameters (m, h = m c, I_O), from the composite inertias R(k) of the roots."""
    robot, xp = s.robot, s.xp
    total = None
    for i, body in enumerate(robot.bodies):
        if body.parent < 0:
            Rw, o = poses[i]
            Mi = phi_inertia(Rw, o, R[i])                                     # phi(O, k) R(k) phi^T(O, k)
            total = Mi if total is None else total + Mi
    m, h, I_O = inertia_parameters(total)
    return xp.name(np.array([m]), "mtot", note="total mass")[0], h, I_O


def centre_of_mass(s, R=None, poses=None):
    """(c, m, R, poses): the centre of mass c = h / m in the world, the total mass m, and the
    composite inertias R and world poses it was computed from."""
    robot, xp = s.robot, s.xp
    R = R if R is not None else composite_inertias(s, s.M, "Rc", COMPOSITE_INERTIA)   # (a.44)
    poses = poses if poses is not None else world_poses(robot, s.X, xp)
    m, h, _ = whole_body_inertia(s, R, poses)
    c = xp.name(h / m, "com", note="centre of mass c = h / m, world")
    return c, m, R, poses


def momentum_matrix(s):
    """(A_G, c, m): A_G (6 x nv) with column block l = phi(G, l) R(l) H^T(l), world-aligned
    at the centre of mass G, angular rows first."""
    robot, xp = s.robot, s.xp
    c, m, R, poses = centre_of_mass(s)
    A = xp.zeros((6, robot.nv))
    for l in range(robot.nb):
        Rw, o = poses[l]
        F = R[l] @ s.H[l].T                                                   # R(l) H^T(l) at O(l)
        A[:, robot.v_slice(l)] = xp.columns(lambda x, Rw=Rw, o=o: phi_force(Rw, o - c, x), [F],
                                            "AG", body=l, note="A_G column block phi(G, l) R(l) H^T(l)")
    return A, c, m


def momentum_bias(s):
    """(A_G-dot qd, c): phi(G, O) E^T phi (M phi^T a + b), the RNE's base forces at
    qdd = 0 (``s`` prepared without gravity), world-aligned at G."""
    robot, xp = s.robot, s.xp
    c, _, _, poses = centre_of_mass(s)
    f = newton_euler(s, xp.zeros(robot.nv))[1]                    # (2.29), (3.17)
    out = xp.zeros(6)
    for i, body in enumerate(robot.bodies):
        if body.parent < 0:
            Rw, o = poses[i]
            out = out + phi_force(Rw, o - c, f[i])
    return out, c
