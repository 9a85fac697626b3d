"""consistent_state: the returned state closes every loop in position and velocity,
checked without the solver's own residuals (tests.support.systems.closure_errors: tip poses from a
forward kinematics written there, tip velocities by central differences of it, the
object's pose and twist fitted in closed form)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.systems import BUNDLED, closure_errors


@pytest.mark.parametrize("name", list(BUNDLED) + ["dual_revolute", "three_soft_finger"])
def test_closure_in_position_and_velocity(bundled, variants, name):
    """Position closure to the solver's 1e-12 (bound 1e-10); velocity to the central
    difference's accuracy (bound 1e-8)."""
    s = {**bundled, **variants}[name]
    q, qd, _ = s.consistent_state(7)
    pos, vel = closure_errors(s, q, qd)
    assert pos < 1e-10 and vel < 1e-8, (pos, vel)
    # the state moves: it is not the trivial solution
    assert np.abs(qd).max() > 1e-2 and np.abs(q - s.q0()).max() > 1e-3


def test_the_independent_check_can_fail(bundled, variants):
    """A perturbed q or qd of one arm breaks the closure the check measures."""
    for name in ("dual_arm_box", "three_arm_point_contacts"):
        s = bundled[name]
        q, qd, _ = s.consistent_state(7)
        dq = np.zeros(s.n)
        dq[0] = 1e-6
        assert closure_errors(s, q + dq, qd)[0] > 1e-8
        assert closure_errors(s, q, qd + 1e3 * dq)[1] > 1e-5


def test_deterministic_per_seed(bundled):
    s = bundled["dual_arm_box"]
    a, b, c = s.consistent_state(5), s.consistent_state(5), s.consistent_state(6)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert np.abs(a[0] - c[0]).max() > 1e-6
