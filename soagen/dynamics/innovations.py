"""The innovations factorization: P, D, G (and L = phi G) by the Riccati recursion
(4.4)-(4.6), (a.49), in tree form: P(k) = M(k) + sum over children c of
psi(k, c) P(c) phi^T(k, c), with psi(k, c) = phi(k, c) - L(c) H(c) (4.7). A flexible body's
blocks are extended: P(k) is (6+m) square, D(k) = Hhat P Hhat^T gives joint and modal
accelerations together, phi is phihat (4.1)-(4.2).

Rotor inertia (armature) J_m(k) of a geared joint adds the kinetic energy 1/2 J_m qd(k)^2,
so the mass matrix becomes H phi M phi^T H^T + J_m with J_m = diag(J_m(k)) in joint space.
It enters the factorization at one place, D(k) = H(k) P(k) H^T(k) + J_m(k): with that D the
gain G, the update P - G H P and so psi, the filter and the smoother are those of Part I
(``soagen derive armature`` shows why). Without armature nothing is added, so the recursion is
exactly the papers'."""

from __future__ import annotations

from dataclasses import dataclass

from soagen.dynamics.armature import note, plus_armature
from soagen.model import check_articulated_inertia


@dataclass
class Innovations:
    P: list      # P(k), 6x6                 (4.5)
    D: list      # D(k) = H P H^T (+ J_m), nv x nv   (4.6), (a.1)
    Dinv: list   # D^-1(k)
    G: list      # G(k) = P H^T D^-1         (5.12), (a.2); L(k) = phi(k+1, k) G(k) (a.12)


def riccati(s) -> Innovations:
    """P, D, D^-1, G of every body by the Riccati sweep (4.4)-(4.6), tip to base."""
    robot, xp = s.robot, s.xp
    P = list(s.M)
    D, Dinv, G = [None] * robot.nb, [None] * robot.nb, [None] * robot.nb
    for i in reversed(range(robot.nb)):
        P[i] = xp.name(P[i], "P", body=i, symmetric=True, note="articulated inertia P(k) (4.5)")
        PHt = P[i] @ s.H[i].T
        D[i] = xp.name(plus_armature(s.H[i] @ PHt, robot.bodies[i], xp), "D", body=i, symmetric=True,
                       note=note("D(k) = H P H^T (4.6)", robot.bodies[i]))       # (4.6) (+ J_m)
        check_articulated_inertia(robot, i, P[i], s.H[i], D[i])  # never inf/NaN from D^-1
        Dinv[i] = xp.name(xp.inv(D[i]), "Dinv", body=i, symmetric=True, note="D^-1(k)")
        G[i] = xp.name(PHt @ Dinv[i], "G", body=i, note="Kalman gain G(k) = P H^T D^-1 (5.12)")   # (5.12)
        p = robot.bodies[i].parent
        if p >= 0:
            phi = s.phi(i)
            P[p] = P[p] + phi @ (P[i] - G[i] @ PHt.T) @ phi.T    # (4.5)
    return Innovations(P, D, Dinv, G)
