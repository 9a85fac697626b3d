"""Shared helpers of the derivative, Coriolis and regressor tests: random trees and states,
central finite differences in the tangent space."""

from __future__ import annotations

import numpy as np

from soagen.loaders.random_robots import random_chain
from soagen.quaternion import integrate

ALL_JOINTS = ("revolute", "prismatic", "spherical", "free", "planar")


def random_tree(seed, n=7, joint_types=ALL_JOINTS):
    """A random tree mixing the given joint types (free and spherical joints deep in it too)."""
    rng = np.random.default_rng(seed)
    parents = [-1] + [int(rng.integers(-1, i)) for i in range(1, n)]
    return random_chain(n, rng, joint_types=joint_types, parents=parents), rng


def random_state(robot, rng):
    """q (quaternions unit, free-joint positions of order 1 m), qd, qdd, tau."""
    q = robot.random_configuration(rng)
    for b in robot.bodies:
        if b.joint.kind == "free":
            q[b.q_index:b.q_index + 3] = rng.normal(size=3)
    return (q, *(rng.normal(size=robot.nv) for _ in range(3)))


def tangent_fd(f, robot, q, h=1e-6):
    """Central differences of f(q) along q (+) h e_j (soagen.quaternion.integrate): the
    tangent-space derivative, one column per velocity coordinate."""
    cols = []
    for j in range(robot.nv):
        e = np.zeros(robot.nv)
        e[j] = h
        cols.append((np.asarray(f(integrate(robot, q, e))) - np.asarray(f(integrate(robot, q, -e)))) / (2 * h))
    return np.stack(cols, axis=-1)


def vector_fd(f, x, h=1e-6):
    """Central differences of f(x) in the coordinates of the vector x."""
    cols = []
    for j in range(len(x)):
        e = np.zeros(len(x))
        e[j] = h
        cols.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * h))
    return np.stack(cols, axis=-1)
