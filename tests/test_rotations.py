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


def _unit(rng):
    x = rng.normal(size=4)
    x /= np.linalg.norm(x)
    return x if x[3] >= 0 else -x


def test_quaternion_matrix_round_trip():
    """Shepperd's branches: random quaternions, and rotations by pi (trace -1) about each axis."""
    rng = np.random.default_rng(0)
    for x in [_unit(rng) for _ in range(20)] + [np.r_[e, 0.0] for e in np.eye(3)]:
        np.testing.assert_allclose(quaternion_from_rotation(quaternion_rotation(x)), x, atol=1e-12)


def test_exponentials_and_logarithm_agree():
    rng = np.random.default_rng(1)
    for w in [rng.normal(size=3) for _ in range(20)] + [np.array([0.0, 0.0, np.pi - 1e-9]), np.full(3, 1e-10)]:
        R = rotation_exp(w)
        np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-13)
        np.testing.assert_allclose(quaternion_rotation(quaternion_exp(w)), R, atol=1e-12)
        if np.linalg.norm(w) < np.pi:
            np.testing.assert_allclose(rotation_log(R), w, atol=1e-7)


def test_quaternion_product_composes_rotations():
    rng = np.random.default_rng(2)
    a, b = _unit(rng), _unit(rng)
    np.testing.assert_allclose(quaternion_rotation(quaternion_multiply(a, b)),
                               quaternion_rotation(a) @ quaternion_rotation(b), atol=1e-13)


def test_quaternion_rate_is_the_world_angular_velocity():
    """Rdot R^T = w~ for the quaternion moving at quaternion_rate (central difference)."""
    rng = np.random.default_rng(3)
    x, w, h = _unit(rng), rng.normal(size=3), 1e-6
    xd = quaternion_rate(x, w)
    Rdot = (quaternion_rotation(x + h * xd) - quaternion_rotation(x - h * xd)) / (2 * h)
    np.testing.assert_allclose(Rdot @ quaternion_rotation(x).T, skew(w), atol=1e-8)
