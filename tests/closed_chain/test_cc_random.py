"""All methods against the dense solution on random systems: random chains with mixed
revolute/prismatic joints, random grasp frames, random (not closed) states, rigid and
non-rigid grasps. An algebraic cross-check over many geometries; bigger ones slow-marked."""

from __future__ import annotations

import numpy as np
import pytest

import soagen.closed_chain as cc
from soagen.loaders.random_systems import random_system
from tests.support.accuracy import rel_err

METHODS = [m for m in cc.METHODS if m != "dense"]


def _grasp(kind):
    if kind == "mixed":
        def pick(rng):
            k = rng.choice(["rigid", "revolute", "soft_finger", "spherical"])
            if k == "revolute":
                return {"type": k, "axis": rng.normal(size=3)}
            if k == "soft_finger":
                return {"type": k, "normal": rng.normal(size=3)}
            return {"type": str(k)}
        return pick
    return kind


def _check(l, N, seed, grasp):
    rng = np.random.default_rng(seed)
    # six or more revolute joints per arm (so J can have full rank), prismatic ones mixed in
    kinds = ["prismatic" if k % 3 == 2 and N - 6 > k // 3 else "revolute" for k in range(N)]
    s = random_system(l, N, rng, grasp=_grasp(grasp), kinds=kinds)
    q, qd, tau = rng.uniform(-1, 1, s.n), rng.uniform(-1, 1, s.n), rng.uniform(-2, 2, s.n)
    from soagen.spatial import rotation_exp
    pose = (rotation_exp(rng.normal(size=3)), rng.normal(size=3))
    twist = rng.normal(size=6)
    ref = cc.forward_dynamics(s, q, qd, tau, "dense", pose, twist)
    for m in METHODS:
        r = cc.forward_dynamics(s, q, qd, tau, m, pose, twist)
        assert rel_err(r.qdd_all, ref.qdd_all) < 1e-8, m
        assert rel_err(r.alpha_C, ref.alpha_C) < 1e-8, m
        assert rel_err(r.f0, ref.f0) < 1e-8, m


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("l,N,grasp", [(2, 6, "rigid"), (3, 8, "mixed"), (1, 7, "rigid"), (3, 6, "spherical")])
def test_random_systems(l, N, seed, grasp):
    _check(l, N, seed, grasp)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("l,N,grasp", [(5, 12, "rigid"), (4, 20, "mixed"), (8, 8, "mixed")])
def test_random_systems_large(l, N, seed, grasp):
    _check(l, N, seed, grasp)
