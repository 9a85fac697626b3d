"""The extended inertia of a flexible body as a polynomial in its modal coordinates
(the floating-frame inertia invariants; docs/flexible.md (F.3)).

The body's mass points p (:class:`soagen.model.MassPoints`) move with eta as
r_p = r0 + Phi eta + 1/2 eta^T G eta, Pi_p = dr_p/deta = Phi + G eta, and turn with the
body at the rate omega + Psi eta_dot. With Vhat = (omega, v, eta_dot) in the body frame,
point p's spatial velocity at its position is E_p Vhat, E_p = [[I, 0, Psi], [-r~, I, Pi]],
and the kinetic energy is sum_p 1/2 Vhat^T E_p^T M_p E_p Vhat with M_p = diag(J_p, m_p I):
the framework paper's 1/2 V^f* m V^f of (4.3) with the mass points as its nodes.

E_p is a polynomial in eta of degree 1 (the linear model, G = 0) or 2 (foreshortening),
so Mhat(eta) = sum_p E_p^T M_p E_p is a polynomial of degree 2 or 4 whose coefficients
(the invariants: mass, first and second moments, rigid-elastic coupling, modal mass and
their eta-derivatives) are computed here once, exactly; the recursions evaluate it.
Nothing is truncated: Mhat is positive semi-definite at every eta, and the kinetic
energy is exactly the mass points' (a second-order truncation loses definiteness at a
few per cent of deflection when the modes nearly exhaust the rigid inertia, as they do
for a link without a hub: docs/flexible.md)."""

from __future__ import annotations

import itertools

import numpy as np

from soagen.reproducible import matmul
from soagen.spatial import skew


def monomials(m, degree):
    """Exponent tuples of the monomials in m variables of total degree <= ``degree``,
    ordered by degree, then lexicographically (largest exponent of eta_1 first)."""
    out = []
    for d in range(degree + 1):
        for combo in itertools.combinations_with_replacement(range(m), d):
            e = [0] * m
            for i in combo:
                e[i] += 1
            out.append(tuple(e))
    return out


def point_polynomial(points, m, linear_only=False):
    """E_p(eta) of every mass point as {exponents: (P, 6, 6+m) array}: degree 0, 1, and 2
    when there is foreshortening (E_p's -r~ block holds the quadratic position term);
    ``linear_only``: the constant term only."""
    P = len(points.m)
    zero = (0,) * m
    E0 = np.zeros((P, 6, 6 + m))
    E0[:, :3, :3] = np.eye(3)
    E0[:, :3, 6:] = points.Psi
    E0[:, 3:, :3] = -np.array([skew(r) for r in points.r0])
    E0[:, 3:, 3:6] = np.eye(3)
    E0[:, 3:, 6:] = points.Phi
    poly = {zero: E0}
    if linear_only:
        return poly
    G = points.G
    for i in range(m):
        e = _unit(m, i)
        E1 = np.zeros((P, 6, 6 + m))
        E1[:, 3:, :3] = -np.array([skew(v) for v in points.Phi[:, :, i]])
        E1[:, 3:, 6:] = G[:, :, :, i]
        if np.any(E1):
            poly[e] = E1
    for i, j in itertools.combinations_with_replacement(range(m), 2):
        g = G[:, :, i, j] if i != j else G[:, :, i, i] / 2           # r = ... + 1/2 sum_ij G_ij eta_i eta_j
        if np.any(g):
            E2 = np.zeros((P, 6, 6 + m))
            E2[:, 3:, :3] = -np.array([skew(v) for v in g])
            poly[_add(_unit(m, i), _unit(m, j))] = E2
    return poly


def inertia_polynomial(points, m):
    """(powers, coeffs): Mhat(eta) = sum_a eta^powers[a] coeffs[a], exactly
    sum_p E_p^T M_p E_p; powers[0] is the constant term; monomials whose coefficient is
    zero are left out."""
    E = point_polynomial(points, m)
    Mp = _point_inertias(points)
    MpE = {b: matmul(Mp, Eb) for b, Eb in E.items()}
    acc = {}
    for (a, Ea), (b, MEb) in itertools.product(E.items(), MpE.items()):
        term = _sum_points(Ea, MEb)
        key = _add(a, b)
        acc[key] = acc.get(key, 0) + term
    degree = max(sum(k) for k in acc)
    powers = [e for e in monomials(m, degree) if e in acc and (not any(e) or np.any(acc[e]))]
    coeffs = np.array([(acc[e] + acc[e].T) / 2 for e in powers])
    return np.array(powers, dtype=int).reshape(len(powers), m), coeffs


def zero_inertia(points):
    """Mhat(0) = sum_p E_p(0)^T M_p E_p(0), without the polynomial (for many modes)."""
    m = points.Phi.shape[2]
    E0 = point_polynomial(points, m, linear_only=True)[(0,) * m]
    return _sum_points(E0, matmul(_point_inertias(points), E0))


def _sum_points(Ea, MEb):
    """sum_p Ea_p^T (M_p Eb_p), in a fixed order (soagen.reproducible: these numbers are
    baked into generated code)."""
    return matmul(np.swapaxes(Ea, 1, 2), MEb).sum(axis=0)


def exact_inertia(points, eta):
    """sum_p E_p^T M_p E_p at eta, point by point (the check of the polynomial)."""
    m = len(eta)
    out = np.zeros((6 + m, 6 + m))
    for mp, J, r0, Phi, Psi, G in zip(points.m, points.J, points.r0, points.Phi, points.Psi, points.G):
        r = r0 + Phi @ eta + (G @ eta) @ eta / 2
        E = np.zeros((6, 6 + m))
        E[:3, :3], E[:3, 6:] = np.eye(3), Psi
        E[3:, :3], E[3:, 3:6], E[3:, 6:] = -skew(r), np.eye(3), Phi + G @ eta
        Mp = np.zeros((6, 6))
        Mp[:3, :3], Mp[3:, 3:] = J, mp * np.eye(3)
        out += E.T @ Mp @ E
    return out


def _point_inertias(points):
    """M_p = diag(J_p, m_p I) of every point, (P, 6, 6)."""
    Mp = np.zeros((len(points.m), 6, 6))
    Mp[:, :3, :3] = points.J
    Mp[:, 3:, 3:] = points.m[:, None, None] * np.eye(3)
    return Mp


def _unit(m, i):
    e = [0] * m
    e[i] = 1
    return tuple(e)


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))
