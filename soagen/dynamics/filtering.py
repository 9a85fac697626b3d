"""The two sweeps of (I - H Psi L)^T D^-1 (I - H Psi L): the Kalman filter (4.19)-(4.20)
and the smoother (4.21)-(4.22), shared by FD1, FD3, FD4 and the explicit inverse (4.16).

They act on a vector per body or, for M^-1, on a block of columns (trailing axis)."""

from __future__ import annotations


def causal_filter(s, inn, T, x=None, y=None):
    """nu = D^-1 eps with eps = T - H z and z = Psi L T + psi x (+ Psi y), tip to base.

    Per body: eps(k) = T(k) - H(k) z(k), and the parent receives
    psi(k+1, k) z(k) + L(k) T(k) = phi(k+1, k) [z(k) + G(k) eps(k)] (4.20), plus
    phi(k+1, k) y(k) when given (FD4's (I - G H) P a term, (5.16)). ``x(k)`` is added at
    body k itself (FD3's M zeta + b, FD4's b, and B f(0))."""
    robot, xp = s.robot, s.xp
    n = robot.nb
    z = [x[i] if x is not None else xp.zeros((6 + robot.bodies[i].m,) + T[i].shape[1:]) for i in range(n)]
    nu = [None] * n
    for i in reversed(range(n)):
        z[i] = xp.name(z[i], "z", body=i, note="z(k) (4.20)")
        eps = T[i] - s.H[i] @ z[i]                              # (4.20) eps(k) = T'(k) - H z
        nu[i] = xp.name(inn.Dinv[i] @ eps, "nu", body=i, note="nu(k) = D^-1 eps(k) (4.20)")
        p = robot.bodies[i].parent
        if p >= 0:
            carry = z[i] + inn.G[i] @ eps
            if y is not None:
                carry = carry + y[i]
            z[p] = z[p] + s.up(i, carry)
    return nu


def anticausal_smoother(s, inn, nu, a=None):
    """qdd = (I - H Psi L)^T nu, base to tip (4.21)-(4.22): from lambda(N+1) = 0 (4.21),
    lambda(k) = psi^T(k+1, k) lambda(k+1) + H^T nu(k), qdd(k) = nu(k) - L^T(k) lambda(k+1) (4.22).

    With ``a`` it is FD4's (5.17) instead: qdd(k) = nu(k) - G^T(k) [phi^T lambda(k+1) + a(k)]
    and lambda(k) then equals the link acceleration alpha(k). Returns (qdd, lambda)."""
    robot, xp = s.robot, s.xp
    qdd, lam = [None] * robot.nb, [None] * robot.nb
    for i, body in enumerate(robot.bodies):
        lam_bar = xp.zeros((6 + body.m,) + nu[i].shape[1:]) if body.parent < 0 \
            else s.down(i, lam[body.parent])
        if a is not None:
            lam_bar = lam_bar + a[i]
        qdd[i] = xp.name(nu[i] - inn.G[i].T @ lam_bar, "qdd", body=i, note="joint acceleration qdd(k) (4.22)")
        lam[i] = xp.name(lam_bar + s.H[i].T @ qdd[i], "lam", body=i, note="lambda(k) (4.22)")
    return qdd, lam
