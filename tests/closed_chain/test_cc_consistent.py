"""consistent_state: the returned state closes every loop in position and velocity."""

from __future__ import annotations

import numpy as np
import pytest
from cc_helpers import BUNDLED

from soagen.closed_chain.consistent import closure_residual, velocity_constraints
from soagen.closed_chain.context import Context


@pytest.mark.parametrize("name", list(BUNDLED) + ["dual_revolute", "three_soft_finger"])
def test_closure_in_position_and_velocity(bundled, variants, name):
    s = {**bundled, **variants}[name]
    q, qd, tau = s.consistent_state(7)
    ctx = Context(s, q, qd, tau)
    e, _, _ = closure_residual(s, q, ctx.R_C, ctx.p_C)
    assert np.abs(e).max() < 1e-10
    G = velocity_constraints(s, q, ctx.R_C, ctx.p_C)
    assert np.abs(G @ np.concatenate([qd, ctx.V_C])).max() < 1e-10
    # the state moves: it is not the trivial solution
    assert np.abs(qd).max() > 1e-2 and np.abs(q - s.q0()).max() > 1e-3


def test_rigid_grasps_close_the_full_pose(bundled):
    s = bundled["quadruped_platform"]
    q, _, _ = s.consistent_state(3)
    ctx = Context(s, q, np.zeros(s.n), np.zeros(s.n))
    for a, t in zip(s.arms, ctx.arms):
        np.testing.assert_allclose(t.R_tip, ctx.R_C @ a.grasp.R, atol=1e-10)
        np.testing.assert_allclose(t.p_tip, ctx.p_C + ctx.R_C @ a.grasp.r, atol=1e-10)


def test_deterministic_per_seed(bundled):
    s = bundled["dual_arm_box"]
    a, b, c = s.consistent_state(5), s.consistent_state(5), s.consistent_state(6)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert np.abs(a[0] - c[0]).max() > 1e-6
