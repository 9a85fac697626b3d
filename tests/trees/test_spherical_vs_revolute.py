"""A spherical joint against three revolute joints (x, y, z, massless intermediate links)
at the same configuration R = Rx(a) Ry(b) Rz(c).

The two models are the same mechanism with different velocity coordinates: the spherical
joint's v is the body angular velocity omega, the 3R chain's is (a_dot, b_dot, c_dot), with
omega = S(a, b, c) theta_dot. Hence (docs/trees-and-floating-bases.md):
* M_3R = T^T M_sph T, T = diag(I, S, I), tau_3R = T^T tau_sph, omega_dot = S theta_ddot + S_dot theta_dot;
* equal mass matrices and forward dynamics only where S = I (a = b = c = 0) and, for
  forward dynamics, the rates vanish;
* different elsewhere, and at b = +-pi/2 (gimbal lock) M_3R is singular, M_sph is not."""

from __future__ import annotations

import numpy as np

from soagen import algorithms as A
from soagen.loaders.description import Description, JointSpec, LinkSpec, build
from soagen.loaders.random_robots import random_link, random_rotation
from soagen.spatial import quaternion_exp, quaternion_multiply
from tests.support.accuracy import rel_err

TOL = 1e-12
"""The same dynamics in spherical and in three revolute coordinates: round-off only,
measured <= 2e-15 (different coordinates differ by 5e-2 and more)."""
FD = 1e-9
"""The chain rule's S_dot by central differences, h = 1e-6: truncation ~1e-12, round-off
~1e-10 (measured 7e-12)."""


def pair(seed):
    """(spherical model, 3R model) of base -rev-> b0 -sph/3R-> b1 -rev-> b2."""
    rng = np.random.default_rng(seed)
    links = [LinkSpec("base", "base")] + [random_link(rng, f"b{i}") for i in range(3)]
    P = [(random_rotation(rng), rng.uniform(-0.5, 0.5, 3)) for _ in range(3)]
    ax = [rng.normal(size=3) for _ in range(3)]
    g = np.array([0.0, 0.0, -9.81])
    common0 = JointSpec("j0", "j0", "revolute", "base", "b0", *P[0], ax[0])
    common2 = JointSpec("j2", "j2", "revolute", "b1", "b2", *P[2], ax[2])
    sph = Description("<sph>", "sph", links, [common0, JointSpec("s", "s", "spherical", "b0", "b1", *P[1], ax[1]), common2], g)
    mid = [LinkSpec("gx", "gx"), LinkSpec("gy", "gy")]
    E = np.eye(3)
    rrr = Description("<3r>", "3r", links + mid, [
        common0,
        JointSpec("sx", "sx", "revolute", "b0", "gx", *P[1], E[0]),
        JointSpec("sy", "sy", "revolute", "gx", "gy", np.eye(3), np.zeros(3), E[1]),
        JointSpec("sz", "sz", "revolute", "gy", "b1", np.eye(3), np.zeros(3), E[2]),
        common2], g)
    return build(sph), build(rrr), rng


def S_matrix(a, b, c):
    """omega (body) = S theta_dot for R = Rx(a) Ry(b) Rz(c)."""
    Ry = lambda t: np.array([[np.cos(t), 0, np.sin(t)], [0, 1, 0], [-np.sin(t), 0, np.cos(t)]])
    Rz = lambda t: np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    return np.column_stack([Rz(c).T @ Ry(b).T @ [1, 0, 0], Rz(c).T @ [0, 1, 0], [0, 0, 1]])


def states(angles, rates, q0, q2, v0, v2):
    a, b, c = angles
    E = np.eye(3)
    quat = quaternion_multiply(quaternion_multiply(quaternion_exp(a * E[0]), quaternion_exp(b * E[1])),
                               quaternion_exp(c * E[2]))
    S = S_matrix(a, b, c)
    q_s = np.concatenate([[q0], quat, [q2]])
    q_r = np.array([q0, a, b, c, q2])
    v_s = np.concatenate([[v0], S @ rates, [v2]])
    v_r = np.array([v0, *rates, v2])
    T = np.zeros((5, 5))
    T[0, 0] = T[4, 4] = 1
    T[1:4, 1:4] = S
    return q_s, q_r, v_s, v_r, T


def test_same_configuration_is_the_same_pose():
    sph, rrr, rng = pair(0)
    q_s, q_r, *_ = states(rng.normal(size=3), np.zeros(3), 0.3, -0.7, 0, 0)
    Js, Jr = A.jacobian(sph, q_s), A.jacobian(rrr, q_r)
    assert rel_err(Js[:, [0, 4]], Jr[:, [0, 4]]) < TOL                # same geometry


def test_mass_matrix_and_forward_dynamics_transform_with_S():
    sph, rrr, rng = pair(1)
    angles, rates = rng.normal(size=3), rng.normal(size=3)
    q_s, q_r, v_s, v_r, T = states(angles, rates, 0.4, 1.1, 0.5, -0.2)
    Ms, Mr = A.mass_matrix(sph, q_s), A.mass_matrix(rrr, q_r)
    assert rel_err(Mr, T.T @ Ms @ T) < TOL
    assert rel_err(Mr, Ms) > 1e-3                                    # different coordinates
    tau_r = rng.normal(size=5)
    tau_s = np.linalg.solve(T.T, tau_r)                               # tau_3R = T^T tau_sph
    qdd_r = A.forward_dynamics(rrr, q_r, v_r, tau_r)
    qdd_s = A.forward_dynamics(sph, q_s, v_s, tau_s)
    h = 1e-6
    S_dot = (S_matrix(*(angles + h * rates)) - S_matrix(*(angles - h * rates))) / (2 * h)
    assert rel_err(qdd_s[1:4], S_matrix(*angles) @ qdd_r[1:4] + S_dot @ rates) < FD
    assert rel_err(qdd_s[[0, 4]], qdd_r[[0, 4]]) < TOL
    assert rel_err(A.inverse_dynamics(rrr, q_r, v_r, qdd_r), tau_r) < TOL


def test_equal_at_zero_angles_and_rest():
    sph, rrr, rng = pair(2)
    q_s, q_r, v_s, v_r, T = states(np.zeros(3), np.zeros(3), 0.2, 0.9, 0.0, 0.0)
    assert rel_err(A.mass_matrix(sph, q_s), A.mass_matrix(rrr, q_r)) < TOL
    tau = rng.normal(size=5)
    assert rel_err(A.forward_dynamics(sph, q_s, v_s, tau), A.forward_dynamics(rrr, q_r, v_r, tau)) < TOL
    q_s, q_r, v_s, v_r, T = states(np.zeros(3), np.ones(3), 0.2, 0.9, 0.0, 0.0)  # rates: S_dot != 0
    assert rel_err(A.forward_dynamics(sph, q_s, v_s, tau), A.forward_dynamics(rrr, q_r, v_r, tau)) > 1e-3


def test_gimbal_lock_is_a_coordinate_singularity_of_3R_only():
    sph, rrr, rng = pair(3)
    q_s, q_r, *_ = states(np.array([0.3, np.pi / 2, -0.4]), np.zeros(3), 0.1, 0.2, 0, 0)
    assert np.linalg.cond(A.mass_matrix(rrr, q_r)) > 1e12
    assert np.linalg.cond(A.mass_matrix(sph, q_s)) < 1e6
