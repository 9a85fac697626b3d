"""Gauss-Newton on closure equations and the velocity projection: what puts a state on the
closures of a closed-chain system (:mod:`soagen.closed_chain.consistent`) or of the loops
inside one robot (:func:`soagen.dynamics.loops.solve_loops`)."""

from __future__ import annotations

import numpy as np

from soagen.tolerances import CLOSURE


def gauss_newton(residual, x, moved, tol=CLOSURE, max_iter=60, rcond=None):
    """(x, e): Gauss-Newton with minimum-norm steps on residual(x) = (e, G), G = de/dx,
    x <- moved(x, -G^+ e) until the largest |e| is below ``tol``; x is None when it does
    not converge within ``max_iter`` steps (e: the last residual); singular values of G
    below ``rcond`` times the largest count as zero (numpy's default: round-off)."""
    for _ in range(max_iter):
        e, G = residual(x)
        if np.abs(e).max(initial=0.0) < tol:
            return x, e
        x = moved(x, -np.linalg.lstsq(G, e, rcond=rcond)[0])
    return None, e


def project_velocity(G, u, rcond=1e-15):
    """u - G^+ G u: the minimum-norm change of u that satisfies G u = 0 (singular values of
    G below ``rcond`` times the largest count as zero: RANK for redundant closures)."""
    return u - np.linalg.pinv(G, rcond=rcond) @ (G @ u)
