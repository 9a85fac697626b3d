"""Random closed-chain systems (random serial chains from :mod:`soagen.loaders.random_robots`
holding one object) for cross-checks and the scaling benchmark. Their states need not
close the loops: every method solves the same equations at any state, so agreement is an
algebraic check; physics checks use the bundled systems and ``consistent_state``."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from soagen.closed_chain.grasps import spaces
from soagen.closed_chain.system import Arm, Grasp, HeldObject, System
from soagen.loaders.random_robots import random_chain, random_rotation


def random_system(l, N, rng, joint_types=("revolute",), grasp="rigid", kinds=None):
    """l random N-joint chains on a circle of radius 1 m, each tip grasping a random
    frame of a 5 kg object; ``grasp`` is a grasp type without parameters (rigid, spherical)
    or a function ``rng -> dict(type=..., axis=/normal=...)``; ``kinds`` fixes the joint
    type of every body (see :func:`soagen.loaders.random_robots.random_chain`)."""
    g = np.array([0, 0, -9.81])
    arms = []
    for i in range(l):
        robot = random_chain(N, rng, joint_types=joint_types, kinds=kinds)
        a = 2 * np.pi * i / l
        R = random_rotation(rng)
        spec = grasp(rng) if callable(grasp) else {"type": grasp}
        kind = spec.pop("type")
        phi, phic, hol = spaces(kind, **{k: np.asarray(v, float) for k, v in spec.items()})
        gr = Grasp(kind, f"O{i + 1}", random_rotation(rng), rng.uniform(-0.2, 0.2, 3), phi, phic, hol)
        arms.append(Arm(f"arm{i + 1}", replace(robot, gravity=R.T @ g), R,
                        np.array([np.cos(a), np.sin(a), 0.0]), np.zeros(N), gr))
    obj = HeldObject("object", 5.0, rng.uniform(-0.05, 0.05, 3), np.diag([0.1, 0.12, 0.15]), np.eye(3),
                     np.zeros(3), {a.grasp.frame: (a.grasp.R, a.grasp.r) for a in arms})
    return System(f"random_l{l}_N{N}", "random", 0, g, obj, tuple(arms))
