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

from soagen.tolerances import GRASP_SPACE


def orthonormal(X):
    """Orthonormal basis of the column space of X (QR, signs fixed for determinism)."""
    if X.shape[1] == 0:
        return X
    Q, R = np.linalg.qr(X)
    s = np.sign(np.diag(R))
    s[s == 0] = 1
    return Q * s


def complement(X):
    """Orthonormal basis of the orthogonal complement of the columns of X in R^6."""
    if X.shape[1] == 0:
        return np.eye(6)
    U, _, _ = np.linalg.svd(X, full_matrices=True)
    return U[:, X.shape[1]:]


def _angular(vectors):
    return np.vstack([np.asarray(vectors, dtype=float).T.reshape(3, -1), np.zeros((3, len(vectors)))])


def tangent_basis(n):
    """Two unit vectors orthogonal to the unit normal n (h2, h3 of Appendix A case 3)."""
    a = np.eye(3)[int(np.argmin(np.abs(n)))]
    h2 = np.cross(n, a)
    h2 /= np.linalg.norm(h2)
    return h2, np.cross(n, h2)


def spaces(kind, axis=None, normal=None, motion=None, constraint=None):
    """(phi, phi^c, holonomic) for a grasp type; raises ValueError with the problem."""
    lin = np.vstack([np.zeros((3, 3)), np.eye(3)])
    if kind == "rigid":
        phi, phic = np.zeros((6, 0)), np.eye(6)
    elif kind == "revolute":
        h = axis / np.linalg.norm(axis)
        phi, phic = _angular([h]), np.hstack([_angular(list(tangent_basis(h))), lin])
    elif kind == "soft_finger":
        n = normal / np.linalg.norm(normal)
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
