"""The oracle: Pinocchio's constrained dynamics (pin.constraintDynamics with one
RigidConstraintModel per grasp closing the loop, the object a free-flyer body) against
every soagen method: arm accelerations, the object's acceleration and the grasp forces
to 1e-8 relative."""

from __future__ import annotations

import numpy as np
import pytest

import soagen.closed_chain as cc
from soagen.closed_chain.context import Context
from tests.support.accuracy import rel_err

pin = pytest.importorskip("pinocchio", reason="the Pinocchio oracle needs `pip install pin`")
pytestmark = pytest.mark.oracle


def _pin(system, q, qd, tau):
    from soagen.oracles import pinocchio_closed_chain as pm

    ctx = Context(system, q, qd, tau)
    return pm.constrained_dynamics(system, q, qd, tau, ctx.R_C, ctx.p_C, ctx.V_C, [t.R_tip for t in ctx.arms])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("method", cc.METHODS)
def test_dual_arm_against_pinocchio(bundled, method, seed):
    s = bundled["dual_arm_box"]
    q, qd, tau = s.consistent_state(seed, speed=1.0, torque=5.0)
    qdd, alpha_C, f0 = _pin(s, q, qd, tau)
    r = cc.forward_dynamics(s, q, qd, tau, method=method)
    assert rel_err(r.qdd_all, qdd) < 1e-8
    assert rel_err(r.alpha_C, alpha_C) < 1e-8
    assert rel_err(r.f0, f0) < 1e-8


@pytest.mark.parametrize("name", ["three_arm_point_contacts", "quadruped_platform"])
def test_point_contacts_and_legs_against_pinocchio(bundled, name):
    """CONTACT_3D for the point contacts (3-dof rotational grasps), CONTACT_6D for legs."""
    s = bundled[name]
    q, qd, tau = s.consistent_state(4)
    qdd, alpha_C, f0 = _pin(s, q, qd, tau)
    for method in ("rccfd1", "lilly_orin", "nonrigid"):
        r = cc.forward_dynamics(s, q, qd, tau, method=method)
        assert rel_err(r.qdd_all, qdd) < 1e-8 and rel_err(r.alpha_C, alpha_C) < 1e-8
        np.testing.assert_allclose(r.f0[:, 3:], f0[:, 3:], rtol=0, atol=1e-8 * np.abs(f0).max())
