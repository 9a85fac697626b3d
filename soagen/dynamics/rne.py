"""Recursive Newton-Euler inverse dynamics, the RSD sweeps (2.24)-(2.30) / (3.17)."""

from __future__ import annotations

from soagen.dynamics.composite import composite_forces
from soagen.dynamics.sweeps import anticausal_propagate
from soagen.model import armature_block


def rne(s, qdd, f_tip=None):
    """T = H phi (M alpha + b + B f(0)), alpha = phi^T (H^T qdd + a)  (3.17), (3.18).

    ``s`` is the :class:`~soagen.dynamics.sweeps.State` (V, a already swept); ``f_tip``
    is f(0), world-aligned at the tip point. A joint's rotor inertia adds J_m(k) qdd(k),
    the rotor's own inertial torque (M = H phi M phi^T H^T + J_m). Returns T(k) per body."""
    robot, xp = s.robot, s.xp
    T = newton_euler(s, qdd, f_tip)[2]
    for i, body in enumerate(robot.bodies):
        J_m = armature_block(body)
        if J_m is not None:
            T[i] = T[i] + xp.constant(J_m) @ qdd[robot.v_slice(i)]            # + J_m qdd
    return T


def newton_euler(s, qdd, f_tip=None):
    """The RNE sweeps of :func:`rne`, returning (alpha, f, T): the link accelerations
    alpha(k) (2.26), the joint forces f(k) = phi (M alpha + b + B f(0)) (2.29) and T(k)."""
    robot = s.robot
    alpha = accelerations(s, qdd)
    f = [s.M[i] @ alpha[i] + s.b(i) for i in range(robot.nb)]            # (2.29)
    if f_tip is not None:
        f[robot.tip.body] = f[robot.tip.body] + s.tip_force(f_tip)  # B f(0)
    f = composite_forces(s, f, "f", "spatial force f(k) (2.29)")          # f(k) = phi(k, k-1) f(k-1) + own term
    return alpha, f, [s.H[i] @ f[i] for i in range(robot.nb)]       # T(k) = H(k) f(k) (2.30)


def accelerations(s, qdd):
    """alpha = phi^T (H^T qdd + a) (3.15), base to tip (2.26)."""
    robot = s.robot
    u = [s.H[i].T @ qdd[robot.v_slice(i)] + s.a[i] for i in range(robot.nb)]
    return anticausal_propagate(s, u, "alpha", "spatial acceleration alpha(k) (2.26)")

