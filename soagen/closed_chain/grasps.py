"""Grasp types -> motion space phi and constraint space phi^c (Part II Appendix A,
Lilly-Orin Sec. II), expressed in the grasp frame, angular rows first.

* rigid: no relative motion, phi^c = I (Part II body).
* revolute (Appendix A case 1): rotation about ``axis``; phi = (h, 0).
* soft_finger (case 3): rotation about any axis in the tangent plane (normal to
  ``normal``); phi = [(h2, 0), (h3, 0)]. The twist about the normal is constrained only in
  velocity (a nonholonomic constraint), position stays constrained.
* spherical (case 2, point contact with friction / ball joint): phi = [(I, 0)].
* general: phi and phi^c given as columns (Lilly-Orin); they must be orthogonal and
  together span R^6.

Returned spaces have orthonormal columns, so phi^c^T phi^c = 1 (29), phi^c^T phi = 0 (28).
"""

from __future__ import annotations

import numpy as np

from soagen.reproducible import dot, norm
from soagen.tolerances import GRASP_SPACE

# The spaces are baked into generated code: Gram-Schmidt in a fixed order of arithmetic
# (soagen.reproducible), not LAPACK's QR and SVD, whose bits (and, for a complement, whose
# basis) depend on the machine.


def _orthogonalized(v, basis):
    """v minus its components along the orthonormal ``basis``, twice (Gram-Schmidt with
    reorthogonalization: orthogonal to round-off)."""
    for _ in range(2):
        for q in basis:
            v = v - dot(q, v) * q
    return v


def orthonormal(X):
    """Orthonormal basis of the column space of X: Gram-Schmidt on its columns in order,
    the Q of X = Q R with a positive diagonal of R."""
    basis = []
    for x in np.asarray(X, dtype=float).T:
        v = _orthogonalized(x, basis)
        n = norm(v)
        basis.append(v / n if n > 0 else v)          # dependent columns: refused by the caller
    return np.column_stack(basis) if basis else X


def complement(X):
    """Orthonormal basis of the orthogonal complement of the orthonormal columns of X in
    R^6: the unit vectors e_1..e_6 orthogonalized against X, each time the one with the
    largest remainder (the first of equals)."""
    basis, out = list(np.asarray(X, dtype=float).T), []
    while len(basis) < 6:
        rest = [_orthogonalized(e, basis) for e in np.eye(6)]
        v = max(rest, key=norm)
        v = v / norm(v)
        basis.append(v)
        out.append(v)
    return np.column_stack(out) if out else np.zeros((6, 0))


def _angular(vectors):
    return np.vstack([np.asarray(vectors, dtype=float).T.reshape(3, -1), np.zeros((3, len(vectors)))])


def tangent_basis(n):
    """Two unit vectors orthogonal to the unit normal n (h2, h3 of Appendix A case 3)."""
    a = np.eye(3)[int(np.argmin(np.abs(n)))]
    h2 = np.cross(n, a)
    h2 /= norm(h2)
    return h2, np.cross(n, h2)


def spaces(kind, axis=None, normal=None, motion=None, constraint=None):
    """(phi, phi^c, holonomic) for a grasp type; raises ValueError with the problem."""
    lin = np.vstack([np.zeros((3, 3)), np.eye(3)])
    if kind == "rigid":
        phi, phic = np.zeros((6, 0)), np.eye(6)
    elif kind == "revolute":
        h = axis / norm(axis)
        phi, phic = _angular([h]), np.hstack([_angular(list(tangent_basis(h))), lin])
    elif kind == "soft_finger":
        n = normal / norm(normal)
        phi, phic = _angular(list(tangent_basis(n))), np.hstack([_angular([n]), lin])
    elif kind == "spherical":
        phi, phic = _angular(list(np.eye(3))), lin
    elif kind == "general":
        return general_spaces(motion, constraint)
    else:
        raise ValueError(f"unknown grasp type {kind!r}")
    return phi, phic, holonomic_part(kind, phic)


def general_spaces(motion, constraint):
    phi = np.zeros((6, 0)) if motion is None else np.asarray(motion, dtype=float)
    if constraint is None:
        phic = complement(orthonormal(phi)) if phi.shape[1] else np.eye(6)
    else:
        phic = np.asarray(constraint, dtype=float)
    if phi.shape[1] + phic.shape[1] != 6:
        raise ValueError(f"motion space ({phi.shape[1]} columns) and constraint space "
                         f"({phic.shape[1]} columns) must together have 6 columns")
    if phic.shape[1] == 0:
        raise ValueError("constraint space is empty: the grasp would not hold the object")
    for name, X in (("motion", phi), ("constraint", phic)):
        if X.shape[1] and np.linalg.matrix_rank(X, tol=GRASP_SPACE) < X.shape[1]:
            raise ValueError(f"{name} space columns are linearly dependent")
    if phi.shape[1] and np.abs(phi.T @ phic).max() > GRASP_SPACE:
        raise ValueError("motion and constraint spaces are not orthogonal (phi^c^T phi != 0)")
    phi, phic = orthonormal(phi), orthonormal(phic)
    return phi, phic, holonomic_part("general", phic)


def holonomic_part(kind, phic):
    """The constraint directions that also hold in position: all of phi^c for rigid,
    revolute and spherical grasps; for a soft finger and a general joint the purely
    translational part (twist constraints about a moving axis are nonholonomic)."""
    if kind in ("rigid", "revolute", "spherical"):
        return phic
    lin = phic[:, np.abs(phic[:3]).max(axis=0) < GRASP_SPACE] if phic.shape[1] else phic
    if kind == "soft_finger":
        return np.vstack([np.zeros((3, 3)), np.eye(3)])
    return lin
