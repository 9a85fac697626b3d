"""Forward dynamics FD1-FD4 of Part I and the explicit inverse M^-1 (4.16).

All four share the Riccati sweep and the filter/smoother pair; they differ in how the
bias terms enter, which is the point of Sections 4-5 of Part I. The dense route through
M itself, qdd = M^-1 (tau - C) with M = L^T D L (:mod:`soagen.dynamics.ldl`), is the
fifth method and the second form of M^-1: cheaper for small N."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.filtering import anticausal_smoother, causal_filter
from soagen.dynamics.innovations import riccati
from soagen.dynamics.ldl import ltdl, ltdl_congruence, ltdl_solve
from soagen.dynamics.mass_matrix import mass_matrix
from soagen.dynamics.rne import rne
from soagen.dynamics.sweeps import ZETA, anticausal_propagate


def _split(robot, tau):
    return [tau[robot.v_slice(i)] for i in range(robot.nb)]


def _with_tip_force(s, x, f_tip):
    robot = s.robot
    if f_tip is not None:
        x[robot.tip.body] = x[robot.tip.body] + s.tip_force(f_tip)  # B f(0)
    return x


def fd1(s, tau, f_tip=None):
    """FD1 (4.17)-(4.22): T' = T - H phi [M phi^T a + b + B f(0)];
    qdd = (I - H Psi L)^T D^-1 (I - H Psi L) T'. Returns (qdd, lambda)."""
    robot, xp = s.robot, s.xp
    T_hat = rne(s, xp.zeros(robot.nv), f_tip)                    # (4.17)
    T_prime = [t - th for t, th in zip(_split(robot, tau), T_hat)]
    inn = riccati(s)
    nu = causal_filter(s, inn, T_prime)                             # (4.19)-(4.20)
    return anticausal_smoother(s, inn, nu)                         # (4.21)-(4.22)


def fd2(s, tau, f_tip=None):
    """FD2 (5.5)-(5.7): FD1 plus the link accelerations alpha = lambda + phi^T a (5.6),
    (4.22b). Returns (qdd, alpha)."""
    qdd, lam = fd1(s, tau, f_tip)
    return qdd, link_accelerations(s, lam)


def link_accelerations(s, lam):
    """alpha = lambda + phi^T a (5.6): zeta(k) = phi^T(k+1, k) zeta(k+1) + a(k) and
    alpha(k) = lambda(k) + zeta(k) (4.21b)-(4.22b), from the smoother's lambda."""
    zeta = anticausal_propagate(s, s.a, "zeta", ZETA)            # (4.22b)
    return [l + z for l, z in zip(lam, zeta)]


def fd3(s, tau, f_tip=None):
    """FD3 (5.8)-(5.10): zeta = phi^T a; eps = T - H psi [S L T + M zeta + b + B f(0)];
    qdd = (I - H Psi L)^T D^-1 eps. Three sweeps, no separate bias pass."""
    robot = s.robot
    zeta = anticausal_propagate(s, s.a, "zeta", ZETA)            # (5.8)
    x = _with_tip_force(s, [s.M[i] @ zeta[i] + s.b(i) for i in range(robot.nb)], f_tip)
    inn = riccati(s)
    nu = causal_filter(s, inn, _split(robot, tau), x=x)            # (5.9)
    return anticausal_smoother(s, inn, nu)                         # (5.10)


def fd4(s, tau, f_tip=None):
    """FD4 (5.13)-(5.17): z(k) = psi(k,k-1)[z(k-1) + P(k-1) a(k-1)] + L(k-1) T(k-1) + b(k);
    lambda(k) = psi^T lambda(k+1) + H^T nu(k) + (I - G H)^T a(k),
    qdd(k) = nu(k) - L^T(k) lambda(k+1) - G^T(k) a(k). Returns (qdd, alpha)."""
    robot = s.robot
    inn = riccati(s)
    x = _with_tip_force(s, [s.b(i) for i in range(robot.nb)], f_tip)
    y = [inn.P[i] @ s.a[i] - inn.G[i] @ (s.H[i] @ (inn.P[i] @ s.a[i])) for i in range(robot.nb)]
    nu = causal_filter(s, inn, _split(robot, tau), x=x, y=y)       # (5.16)
    return anticausal_smoother(s, inn, nu, a=s.a)                  # (5.17)


def fd_ldl(s, tau, f_tip=None):
    """qdd = M^-1 (tau - C) (3.22)-(3.23): C by RNE at qdd = 0 (+ J^T f(0)), M by
    composite inertias (3.20), solved with M = L^T D L. Returns (qdd, None)."""
    robot, xp = s.robot, s.xp
    C = np.concatenate(rne(s, xp.zeros(robot.nv), f_tip))               # (3.23)
    qdd = ltdl_solve(*ltdl(robot, mass_matrix(s), xp), tau - C, xp)
    return _split(robot, qdd), None


FD = {"fd1": fd1, "fd2": fd2, "fd3": fd3, "fd4": fd4, "ldl": fd_ldl}
MINV_METHODS = ("innovations", "ldl")


def inverse_mass_matrix(s, method="innovations"):
    """M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) (4.16), applied to the identity: the
    filter and smoother on all nv columns at once, O(N^2); or with ``method="ldl"`` from
    M = L^T D L of the composite-inertia mass matrix (3.20), M^-1 = L^-1 D^-1 L^-T."""
    robot, xp = s.robot, s.xp
    if method == "ldl":
        return ltdl_congruence(*ltdl(robot, mass_matrix(s), xp), xp.eye(robot.nv), xp)
    eye = xp.eye(robot.nv)
    inn = riccati(s)
    nu = causal_filter(s, inn, _split(robot, eye))
    qdd, _ = anticausal_smoother(s, inn, nu)
    return np.concatenate(qdd, axis=0)
