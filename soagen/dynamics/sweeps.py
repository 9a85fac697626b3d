"""What every dynamics algorithm computes first: phi(k+1, k), H(k), M(k), V(k), a(k)."""

from __future__ import annotations

from dataclasses import dataclass

from soagen.dynamics.inertia import bias_force, link_inertias
from soagen.dynamics.kinematics import joint_maps, link_transforms, velocity_sweep
from soagen.spatial import phiT_motion


@dataclass
class State:
    """The per-body quantities of one configuration and velocity (link frames)."""

    X: list        # phi(parent, k) as (R, l)
    H: list        # H(k)
    M: list        # M(k)
    V: list        # V(k)       (2.25)
    a: list        # a(k) (+ E g at the base when gravity is on)  (2.19), (3.21)

    def b(self, i):
        """b(k) (2.23)."""
        return bias_force(self.M[i], self.V[i])


def prepare(robot, q, qd, xp, gravity=True) -> State:
    X = link_transforms(robot, q, xp)
    H = joint_maps(robot, xp)
    V, a = velocity_sweep(robot, X, H, qd, xp, gravity)
    return State(X, H, link_inertias(robot, xp), V, a)


ZETA = "zeta(k) = phi^T a (4.22b)"


def anticausal_propagate(robot, X, u, xp, label, note):
    """zeta = phi^T u: zeta(k) = phi^T(k+1, k) zeta(k+1) + u(k), base to tip (4.22b);
    named ``label`` with ``note`` (:meth:`soagen.backend.NumpyBackend.name`)."""
    zeta = []
    for i, body in enumerate(robot.bodies):
        z = u[i] if body.parent < 0 else phiT_motion(*X[i], zeta[body.parent]) + u[i]
        zeta.append(xp.name(z, f"{label}{i}", note=note))
    return zeta
