"""The quaternion kinematic map (b.3)-(b.5) and integration on the manifold."""

from __future__ import annotations

import numpy as np
import pytest

from soagen import quaternion as Q
from soagen.loaders.random_robots import random_chain
from soagen.oracles.pinocchio import Converter, pin_model_from_robot
from soagen.spatial import quaternion_rotation, skew
from tests.support.accuracy import rel_err

TOL = 1e-13     # Pinocchio's integrate (another formula): round-off, measured <= 4e-16
FD = 1e-8       # central differences, h = 1e-6: truncation ~1e-12, round-off ~1e-10


def unit(rng):
    x = rng.normal(size=4)
    return x / np.linalg.norm(x)


def test_pi_is_a_left_inverse_of_Lambda():
    """(b.3): pi(q) Lambda(q) = I3 (the seed's 'pi^-1 = pi' cannot hold: 3x4)."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        q = unit(rng)
        assert rel_err(Q.pi(q) @ Q.Lambda(q), np.eye(3)) < 1e-14      # entries O(1): a few ulp
        assert abs(q @ Q.Lambda(q) @ rng.normal(size=3)) < 1e-14      # unit length kept


def test_Lambda_gives_the_body_angular_velocity():
    """R(q)^T d/dt R(q) = omega~ with q_dot = Lambda(q) omega, by central differences."""
    rng = np.random.default_rng(1)
    q, w = unit(rng), rng.normal(size=3)
    h = 1e-6
    qd = Q.Lambda(q) @ w
    Rdot = (quaternion_rotation(q + h * qd) - quaternion_rotation(q - h * qd)) / (2 * h)
    assert rel_err(quaternion_rotation(q).T @ Rdot, skew(w)) < FD


def tree(seed):
    rng = np.random.default_rng(seed)
    return random_chain(5, rng, joint_types=("spherical", "free", "revolute"),
                        parents=[-1, 0, 0, 1, 2]), rng


def test_integrate_is_the_flow_of_theta_dot_equals_Omega_W():
    """(b.5): RK4 on theta_dot = Omega(theta) W in R^nq converges to the exact exponential."""
    robot, rng = tree(2)
    q0, v = robot.random_configuration(rng), rng.normal(size=robot.nv)
    exact = Q.integrate(robot, q0, v)
    n = 200
    q, h = q0.copy(), 1.0 / n
    f = lambda x: Q.q_dot(robot, x, v)
    for _ in range(n):
        k1 = f(q); k2 = f(q + h / 2 * k1); k3 = f(q + h / 2 * k2); k4 = f(q + h * k3)
        q = q + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    assert np.abs(q - exact).max() < 1e-8
    assert np.abs(q0 - exact).max() > 1e-2                          # it did move


@pytest.mark.oracle
def test_integrate_matches_pinocchio(pin):
    robot, rng = tree(3)
    model = pin_model_from_robot(robot)
    c = Converter(robot, model)
    for _ in range(5):
        q, v = robot.random_configuration(rng), 2 * rng.normal(size=robot.nv)
        ours = Q.integrate(robot, q, v)
        theirs = pin.integrate(model, c.q_to_pin(q), c.v_to_pin(v))
        ours = c.q_to_pin(ours)
        for i, b in enumerate(robot.bodies):          # q and -q: the same rotation
            if b.joint.kind in ("spherical", "free"):
                j = model.idx_qs[c.map[i][1]] + (3 if b.joint.kind == "free" else 0)
                ours[j:j + 4] *= np.sign(ours[j:j + 4] @ theirs[j:j + 4])
        assert rel_err(ours, theirs) < TOL


def test_difference_inverts_integrate():
    """q1 (-) q0 is the velocity that integrate takes from q0 to q1 in unit time, on
    every joint kind (rotations below pi, where the logarithm is unique)."""
    rng = np.random.default_rng(6)
    robot = random_chain(6, rng, joint_types=("spherical", "free", "revolute", "planar", "prismatic"),
                         parents=[-1, 0, 0, 1, 2, 2])
    for _ in range(5):
        q0, v = robot.random_configuration(rng), 0.8 * rng.normal(size=robot.nv) / np.sqrt(3)   # |omega| < pi
        d = Q.difference(robot, q0, Q.integrate(robot, q0, v))
        assert np.abs(d - v).max() < 1e-12, np.abs(d - v).max()
        assert np.abs(Q.difference(robot, q0, q0)).max() == 0.0


@pytest.mark.oracle
def test_difference_matches_pinocchio(pin):
    robot, rng = tree(4)
    model = pin_model_from_robot(robot)
    c = Converter(robot, model)
    for _ in range(5):
        q0, q1 = robot.random_configuration(rng), robot.random_configuration(rng)
        theirs = c.v_from_pin(pin.difference(model, c.q_to_pin(q0), c.q_to_pin(q1)))
        assert np.abs(Q.difference(robot, q0, q1) - theirs).max() < 1e-12
