"""A straight 3D Euler-Bernoulli beam as finite elements, clamped at the body origin
(the framework paper's Section 4: the link "pinned at O_k", u_k^f(n_k) = 0).

The beam runs from the body origin along the unit vector ``axis`` (e1); e2, e3 complete a
right-handed frame (e2 = y, e3 = z for the default axis x). Each of its ``elements``
equal elements carries four uncoupled fields, each a *family* of modes:

* ``axial``: u along e1, linear shape functions, stiffness EA;
* ``torsion``: the twist theta1 about e1, linear, stiffness GJ, rotary inertia rho J;
* ``y``: the deflection v along e2 with slope theta3 = v', cubic Hermite, stiffness EIz;
* ``z``: the deflection w along e3 with theta2 = -w', cubic Hermite, stiffness EIy.

Mass and stiffness matrices are consistent (integrated from the same shape functions by
Gauss-Legendre quadrature, exactly). The clamped modes come from the generalized
eigenproblem K x = omega^2 M x of each family, mass-normalized. The same shape functions
give the fields the flexible body needs between the nodes: the mass points (Gauss
points of every element, exact for the kinetic energy) and the foreshortening
u2(x) = -1/2 int_0^x (v'^2 + w'^2) (Kane, Ryan and Banerjee 1987; docs/flexible.md (F.1)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from soagen.reproducible import generalized_eigh, matmul, norm

FAMILIES = ("y", "z", "torsion", "axial")


def gauss_legendre(n):
    """Gauss-Legendre abscissae (ascending) and weights on [-1, 1] for n = 3 or 4 points,
    in closed form: correctly rounded square roots, so the same bits on every machine
    (numpy's leggauss takes them from a LAPACK eigensolver and one Newton step)."""
    if n == 3:
        a = math.sqrt(3 / 5)
        return np.array([-a, 0.0, a]), np.array([5 / 9, 8 / 9, 5 / 9])
    s = math.sqrt(6 / 5)
    a, b = math.sqrt(3 / 7 - 2 / 7 * s), math.sqrt(3 / 7 + 2 / 7 * s)
    wa, wb = (18 + math.sqrt(30)) / 36, (18 - math.sqrt(30)) / 36
    return np.array([-b, -a, a, b]), np.array([wb, wa, wa, wb])


GAUSS = gauss_legendre(4)       # exact to degree 7: the kinetic energy of cubic fields


@dataclass(frozen=True, eq=False)
class Beam:
    """Physical data of a uniform beam (SI units): length, axial stiffness EA, bending
    stiffnesses EIy (deflection along z) and EIz (along y), torsional stiffness GJ, mass
    per length rhoA, rotary inertia per length rhoJ (polar, about the beam axis). A
    stiffness given as 0 drops its family of modes."""

    length: float
    EA: float = 0.0
    EIy: float = 0.0
    EIz: float = 0.0
    GJ: float = 0.0
    rhoA: float = 0.0
    rhoJ: float = 0.0

    def families(self):
        """The families of modes this beam's data support."""
        have = {"y": self.EIz > 0, "z": self.EIy > 0, "torsion": self.GJ > 0 and self.rhoJ > 0,
                "axial": self.EA > 0}
        return tuple(f for f in FAMILIES if have[f])


def frame_of(axis):
    """(e1, e2, e3) as the columns of a rotation: e1 = axis; for axis x: the identity."""
    e1 = np.asarray(axis, dtype=float)
    e1 = e1 / norm(e1)
    helper = np.array([0.0, 1.0, 0.0]) if abs(e1[1]) < 0.9 else np.array([0.0, 0.0, 1.0])
    if np.allclose(e1, [1, 0, 0]):
        return np.eye(3)
    e3 = np.cross(e1, helper)
    e3 /= norm(e3)
    return np.column_stack([e1, np.cross(e3, e1), e3])


def hermite(xi, L):
    """Cubic Hermite shape functions and their first and second x-derivatives at xi in
    [0, 1] on an element of length L: value, slope at the ends (a, b)."""
    x2, x3 = xi * xi, xi * xi * xi              # products, not pow (libm's pow differs by CPU)
    N = np.array([1 - 3 * x2 + 2 * x3, L * (xi - 2 * x2 + x3), 3 * x2 - 2 * x3, L * (-x2 + x3)])
    dN = np.array([-6 * xi + 6 * x2, L * (1 - 4 * xi + 3 * x2), 6 * xi - 6 * x2, L * (-2 * xi + 3 * x2)]) / L
    d2N = np.array([-6 + 12 * xi, L * (-4 + 6 * xi), 6 - 12 * xi, L * (-2 + 6 * xi)]) / (L * L)
    return N, dN, d2N


def linear(xi, L):
    return np.array([1 - xi, xi]), np.array([-1.0, 1.0]) / L


# Global dofs per node: (u, v, w, theta1, theta2, theta3) in the beam frame (e1, e2, e3).
# Element dofs of each family (node a, node b); the z family's rotation enters as -theta2.
FAMILY_DOFS = {"axial": (0,), "torsion": (3,), "y": (1, 5), "z": (2, 4)}


class BeamFE:
    """The finite-element model of a :class:`Beam` with ``elements`` elements (nodes at
    x_j = j L / elements, node 0 clamped)."""

    def __init__(self, beam: Beam, elements: int, axis=(1.0, 0.0, 0.0)):
        self.beam, self.n = beam, int(elements)
        self.Le = beam.length / self.n
        self.x = np.arange(self.n + 1) * self.Le
        self.R = frame_of(axis)                       # beam frame in the body frame
        ndof = 6 * (self.n + 1)
        self.M, self.K = np.zeros((ndof, ndof)), np.zeros((ndof, ndof))
        for e in range(self.n):
            for fam in FAMILIES:
                me, ke, idx = self._element(fam, e)
                self.M[np.ix_(idx, idx)] += me
                self.K[np.ix_(idx, idx)] += ke

    def _element(self, fam, e):
        """Element mass and stiffness of one family, and their global dof indices."""
        b, L = self.beam, self.Le
        dofs = FAMILY_DOFS[fam]
        idx = [6 * (e + j) + d for j in (0, 1) for d in dofs]
        xs, ws = (GAUSS[0] + 1) / 2, GAUSS[1] / 2
        if fam in ("axial", "torsion"):
            mu, k = (b.rhoA, b.EA) if fam == "axial" else (b.rhoJ, b.GJ)
            me = sum(w * L * mu * np.outer(*[linear(x, L)[0]] * 2) for x, w in zip(xs, ws))
            ke = sum(w * L * k * np.outer(*[linear(x, L)[1]] * 2) for x, w in zip(xs, ws))
        else:
            EI = b.EIz if fam == "y" else b.EIy
            s = self._sign(fam)
            me = sum(w * L * b.rhoA * np.outer(*[s * hermite(x, L)[0]] * 2) for x, w in zip(xs, ws))
            ke = sum(w * L * EI * np.outer(*[s * hermite(x, L)[2]] * 2) for x, w in zip(xs, ws))
        return me, ke, idx

    @staticmethod
    def _sign(fam):
        """The z family's rotation dof theta2 = -w': its Hermite slope functions flip sign."""
        return np.array([1.0, -1.0, 1.0, -1.0]) if fam == "z" else np.ones(4)

    def free(self, fam):
        """Global indices of a family's dofs on the free nodes 1..n."""
        return [6 * j + d for j in range(1, self.n + 1) for d in FAMILY_DOFS[fam]]

    def clamped_modes(self, families):
        """(omega, X, names): the clamped natural frequencies (rad/s, ascending; ties in
        the order of FAMILIES) and mass-normalized mode shapes as global nodal vectors
        (columns), of the given families. Each family is its own eigenproblem (a clamped
        beam's spectrum is simple within a family; two families with equal stiffness give
        equal frequencies, kept in FAMILIES order). Solved as M x = (1/omega^2) K x (K is
        positive definite once clamped), whose largest eigenvalue, the fundamental, is
        the one Jacobi's rotations give to the round-off of the data (docs/flexible.md,
        "The same modes on every machine"); each shape scaled to x^T M x = 1 and signed
        so that its largest entry is positive."""
        found = []
        for f, fam in enumerate(families):
            idx = self.free(fam)
            K, M = self.K[np.ix_(idx, idx)], self.M[np.ix_(idx, idx)]
            mu, Y = generalized_eigh(M, K)                 # mu = 1/omega^2, ascending
            mu, Y = mu[::-1], Y[:, ::-1]
            Y = Y / np.sqrt((Y * matmul(M, Y)).sum(axis=0))
            for j in range(len(mu)):
                x = np.zeros(len(self.M))
                x[idx] = Y[:, j]
                x *= np.sign(x[idx][np.argmax(np.abs(Y[:, j]))])    # deterministic sign
                omega = math.sqrt(1 / mu[j])
                found.append((float(f"{omega:.9g}"), FAMILIES.index(fam), j, omega, x, f"{fam}{j + 1}"))
        found.sort(key=lambda t: t[:3])
        return (np.array([t[3] for t in found]), np.column_stack([t[4] for t in found]),
                tuple(t[5] for t in found))

    def field(self, X, x):
        """Displacement and rotation (body axes) at abscissa x for nodal vectors X
        (columns): (3 x m, 3 x m), and the transverse slopes (v', w') (2 x m)."""
        e = min(int(x / self.Le), self.n - 1)
        xi = (x - e * self.Le) / self.Le
        N, dN, _ = hermite(xi, self.Le)
        Nl, _ = linear(xi, self.Le)
        a, b = 6 * e, 6 * (e + 1)
        u = Nl[0] * X[a] + Nl[1] * X[b]
        t1 = Nl[0] * X[a + 3] + Nl[1] * X[b + 3]
        vn = np.array([X[a + 1], X[a + 5], X[b + 1], X[b + 5]])
        wn = np.array([X[a + 2], -X[a + 4], X[b + 2], -X[b + 4]])
        v, w = matmul(N, vn), matmul(N, wn)
        dv, dw = matmul(dN, vn), matmul(dN, wn)
        disp = matmul(self.R, np.array([u, v, w]))
        rot = matmul(self.R, np.array([t1, -dw, dv]))
        return disp, rot, np.array([dv, dw])

    def foreshortening(self, X, x):
        """G(x) (3 x m x m): the second-order axial displacement u2 = 1/2 eta^T G eta e1 of
        the point at x, G_ij = -int_0^x (v_i' v_j' + w_i' w_j') (Kane-Ryan-Banerjee)."""
        m = X.shape[1]
        g = np.zeros((m, m))
        xs3, ws3 = gauss_legendre(3)                           # exact: the integrand is quartic
        start = 0.0
        while start < x - 1e-15 * self.beam.length:
            end = min((int(start / self.Le + 1e-9) + 1) * self.Le, x)
            for t, w in zip((xs3 + 1) / 2, ws3 / 2):
                _, _, s = self.field(X, start + t * (end - start))
                g -= w * (end - start) * (np.outer(s[0], s[0]) + np.outer(s[1], s[1]))
            start = end
        return self.R[:, 0, None, None] * g

    def mass_points(self):
        """The Gauss points of every element: abscissae, masses rho A w L_e, and polar
        rotary inertias rho J w L_e about e1 (exact for the element's kinetic energy)."""
        xs, ws = (GAUSS[0] + 1) / 2, GAUSS[1] / 2
        x = np.concatenate([(e + xs) * self.Le for e in range(self.n)])
        w = np.tile(ws, self.n) * self.Le
        e1 = self.R[:, 0]
        J = (w * self.beam.rhoJ)[:, None, None] * np.outer(e1, e1)
        return x, w * self.beam.rhoA, J
