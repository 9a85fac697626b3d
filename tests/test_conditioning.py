"""Accuracy on ill-conditioned chains: long chains and tiny distal masses.

Measured (see docs/accuracy.md): the O(N) forward dynamics stay within a small multiple
of machine precision times cond(M), like a dense Cholesky solve, down to distal masses
1e-6 of the proximal ones and N = 50."""

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err


def shrinking(ratio, n):
    """Mass scale from 1 at the base to ``ratio`` at the tip, geometrically."""
    return lambda i: ratio ** (i / max(1, n - 1))


@pytest.mark.parametrize("n,ratio", [(50, 1.0), (12, 1e-3), (12, 1e-6), (30, 1e-4)])
def test_forward_dynamics_and_inverse_on_ill_conditioned_chains(n, ratio):
    rng = np.random.default_rng(n)
    robot = random_chain(n, rng, mass_scale=shrinking(ratio, n))
    q, qd, tau = robot.random_configuration(rng), rng.normal(size=n), rng.normal(size=n)
    M = A.mass_matrix(robot, q)
    cond = np.linalg.cond(M)
    # reference: solve in extended precision is not available; use the exact relation
    # M qdd = tau - C, whose residual is what a backward-stable method keeps small
    C = A.bias_forces(robot, q, qd)
    for method in A.FD_METHODS:
        qdd = A.forward_dynamics(robot, q, qd, tau, method=method)
        residual = np.linalg.norm(M @ qdd - (tau - C)) / (np.linalg.norm(M) * np.linalg.norm(qdd) + np.linalg.norm(tau - C))
        assert residual < 1e-13 * n, (method, residual, cond)
    for method in ("innovations", "ldl"):
        Minv = A.inverse_mass_matrix(robot, q, method=method)
        assert np.linalg.norm(Minv @ M - np.eye(n)) < 1e-14 * n * cond, method
        assert rel_err(Minv, Minv.T) < 1e-14 * cond, method
