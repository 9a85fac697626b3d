"""Recursive Newton-Euler inverse dynamics, the RSD sweeps (2.24)-(2.30) / (3.17)."""

from __future__ import annotations

from soagen.dynamics.sweeps import anticausal_propagate
from soagen.dynamics.tip import tip_force_at_body
from soagen.spatial import phi_force


def rne(robot, s, qdd, xp, f_tip=None):
    """T = H phi (M alpha + b + B f(0)), alpha = phi^T (H^T qdd + a)  (3.17), (3.18).

    ``s`` is the :class:`~soagen.dynamics.sweeps.State` (V, a already swept); ``f_tip``
    is f(0), world-aligned at the tip point. Returns T(k) per body."""
    return newton_euler(robot, s, qdd, xp, f_tip)[2]


def newton_euler(robot, s, qdd, xp, f_tip=None):
    """The RNE sweeps of :func:`rne`, returning (alpha, f, T): the link accelerations
    alpha(k) (2.26), the joint forces f(k) = phi (M alpha + b + B f(0)) (2.29) and T(k)."""
    alpha = accelerations(robot, s, qdd, xp)
    f = [s.M[i] @ alpha[i] + s.b(i) for i in range(robot.nb)]            # (2.29)
    if f_tip is not None:
        f[robot.tip.body] = f[robot.tip.body] + tip_force_at_body(robot, s.X, f_tip, xp)  # B f(0)
    T = causal_accumulate(robot, s, f, xp)
    return alpha, f, T


def accelerations(robot, s, qdd, xp):
    """alpha = phi^T (H^T qdd + a) (3.15), base to tip (2.26)."""
    u = [s.H[i].T @ qdd[robot.v_slice(i)] + s.a[i] for i in range(robot.nb)]
    return anticausal_propagate(robot, s.X, u, xp, "alpha")


def causal_accumulate(robot, s, f, xp):
    """f(k) = phi(k, k-1) f(k-1) + (own term), T(k) = H(k) f(k), tip to base (2.29)-(2.30).
    ``f`` is accumulated in place: on return f(k) is the joint force of body k."""
    T = [None] * robot.nb
    for i in reversed(range(robot.nb)):
        f[i] = xp.name(f[i], f"f{i}")
        T[i] = s.H[i] @ f[i]
        p = robot.bodies[i].parent
        if p >= 0:
            f[p] = f[p] + phi_force(*s.X[i], f[i])
    return T
