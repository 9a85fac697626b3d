"""The rotation and quaternion helpers of soagen.spatial, each against another route:
matrix <-> quaternion round trips, the SO(3) exponential against the quaternion one and
the logarithm, the quaternion rate against a finite difference."""

from __future__ import annotations

import numpy as np

from soagen.spatial import (
    quaternion_exp,
    quaternion_from_rotation,
    quaternion_multiply,
    quaternion_rate,
    quaternion_rotation,
    rotation_exp,
    rotation_log,
    skew,
)
from tests.support.accuracy import rel_err

TOL = 1e-13     # closed forms on unit quaternions and rotations: round-off, measured <= 7e-16
FD = 1e-8       # central differences, h = 1e-6: truncation ~1e-12, round-off ~1e-10
LOG = 1e-8      # the logarithm near angle pi - 1e-9 loses digits (R - R^T ~ 1e-9): measured 3e-10


def _unit(rng):
    x = rng.normal(size=4)
    x /= np.linalg.norm(x)
    return x if x[3] >= 0 else -x


def test_quaternion_matrix_round_trip():
    """Shepperd's branches: random quaternions, and rotations by pi (trace -1) about each axis."""
    rng = np.random.default_rng(0)
    for x in [_unit(rng) for _ in range(20)] + [np.r_[e, 0.0] for e in np.eye(3)]:
        assert rel_err(quaternion_from_rotation(quaternion_rotation(x)), x) < TOL


def test_exponentials_and_logarithm_agree():
    rng = np.random.default_rng(1)
    for w in [rng.normal(size=3) for _ in range(20)] + [np.array([0.0, 0.0, np.pi - 1e-9]), np.full(3, 1e-10)]:
        R = rotation_exp(w)
        assert rel_err(R @ R.T, np.eye(3)) < TOL
        assert rel_err(quaternion_rotation(quaternion_exp(w)), R) < TOL
        if np.linalg.norm(w) < np.pi:
            assert rel_err(rotation_log(R), w) < LOG


def test_quaternion_product_composes_rotations():
    rng = np.random.default_rng(2)
    a, b = _unit(rng), _unit(rng)
    assert rel_err(quaternion_rotation(quaternion_multiply(a, b)), quaternion_rotation(a) @ quaternion_rotation(b)) < TOL


def test_quaternion_rate_is_the_world_angular_velocity():
    """Rdot R^T = w~ for the quaternion moving at quaternion_rate (central difference)."""
    rng = np.random.default_rng(3)
    x, w, h = _unit(rng), rng.normal(size=3), 1e-6
    xd = quaternion_rate(x, w)
    Rdot = (quaternion_rotation(x + h * xd) - quaternion_rotation(x - h * xd)) / (2 * h)
    assert rel_err(Rdot @ quaternion_rotation(x).T, skew(w)) < FD
