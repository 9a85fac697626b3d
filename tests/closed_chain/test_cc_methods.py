"""Every closed-chain method against the dense solution of (2.11), on the bundled systems
and on non-rigid grasp variants; the dense solution itself against the physics it must
satisfy (closure at the acceleration level, Newton-Euler of the object, reciprocity of the
grasp forces), computed from independent arm routines."""

from __future__ import annotations

import numpy as np
import pytest

import soagen.closed_chain as cc
from soagen import algorithms as alg
from soagen.closed_chain.context import Context
from soagen.errors import SoagenError
from tests.support.accuracy import rel_err
from tests.support.systems import BUNDLED

TOL = 1e-10
"""Closed-chain solutions (rccfd, Lilly-Orin, the dense form) and the physics they must
satisfy: round-off amplified by the conditioning of the coupled system (object inertia
plus the arms' Lambda), measured <= 2e-12 relative (a sign or term error gives 1e-2 and
more)."""

METHODS = [m for m in cc.METHODS if m != "dense"]
ALL = list(BUNDLED) + ["dual_revolute", "three_soft_finger", "three_general", "dual_revolute_x"]


@pytest.fixture(scope="module")
def systems(bundled, variants):
    return {**bundled, **variants}


@pytest.fixture(scope="module")
def states(systems):
    return {(name, seed): systems[name].consistent_state(seed) for name in ALL for seed in (0, 1)}


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("method", METHODS)
def test_method_agrees_with_dense(systems, states, name, seed, method):
    s = systems[name]
    q, qd, tau = states[(name, seed)]
    ref = cc.forward_dynamics(s, q, qd, tau, method="dense")
    r = cc.forward_dynamics(s, q, qd, tau, method=method)
    assert rel_err(r.qdd_all, ref.qdd_all) < 1e-10
    assert rel_err(r.alpha_C, ref.alpha_C) < 1e-10
    assert rel_err(r.f0, ref.f0) < 1e-10


@pytest.mark.parametrize("name", ALL)
def test_dense_solution_satisfies_the_physics(systems, states, name):
    """Closure phi^c^T (alpha^+ - alpha^-) = gamma (2.10b), object Newton-Euler (2.10c),
    arm dynamics (2.10a) by RNE, and H(0) f(0) = 0 (a.7)."""
    s = systems[name]
    q, qd, tau = states[(name, 0)]
    r = cc.forward_dynamics(s, q, qd, tau, method="dense")
    ctx = Context(s, q, qd, tau)
    for i, (arm, t) in enumerate(zip(s.arms, ctx.arms)):
        Rb6 = t.Rb6
        alpha_plus = Rb6 @ (alg.jacobian(arm.robot, t.q) @ r.qdd[i] + alg.jacobian_dot_qd(arm.robot, t.q, t.qd))
        alpha_minus = ctx.A[i] @ r.alpha_C + ctx.a_C[i]
        closure = ctx.phic[i].T @ (alpha_plus - alpha_minus) - ctx.gamma[i]     # gamma ~ 0: scale by alpha
        assert np.abs(closure).max() < TOL * np.abs(alpha_plus).max()
        T = alg.inverse_dynamics(arm.robot, t.q, t.qd, r.qdd[i], f_tip=Rb6.T @ r.f0[i])   # (2.10a)
        assert rel_err(T, t.tau) < TOL
        assert np.abs(ctx.phi[i].T @ r.f0[i]).max(initial=0.0) < TOL * np.abs(r.f0[i]).max()   # (a.7)
    fC = sum(A.T @ f for A, f in zip(ctx.A, r.f0))                                             # (2.9)
    assert rel_err(ctx.M_C @ r.alpha_C + ctx.b_C, fC) < TOL                   # (2.10c)


def test_gravity_only_statics(bundled):
    """A sanity check with numbers one can reason about: the dual-arm box at rest with
    the arms' gravity torques plus the box's weight shared through J^T, accelerations 0."""
    s = bundled["dual_arm_box"]
    q, _, _ = s.consistent_state(0)
    ctx = Context(s, q, np.zeros(s.n), np.zeros(s.n))
    # a statically admissible grasp force pair: each arm carries half the weight at C
    W = np.concatenate([np.zeros(3), -s.obj.mass * s.gravity])        # force the tips must supply
    f = []
    for i in range(2):
        f_half = np.linalg.solve(ctx.A[i].T, W / 2)                     # A_i^T f_i = W / 2
        f.append(f_half)
    tau = np.concatenate([alg.bias_forces(a.robot, qi, np.zeros(a.n), f_tip=t.Rb6.T @ fi)
                          for a, qi, t, fi in zip(s.arms, s.split(q), ctx.arms, f)])
    for m in ("rccfd1", "lilly_orin", "dense"):
        r = cc.forward_dynamics(s, q, np.zeros(s.n), tau, method=m)
        assert np.abs(r.qdd_all).max() < TOL and np.abs(r.alpha_C).max() < TOL
        assert rel_err(sum(A.T @ fi for A, fi in zip(ctx.A, r.f0)), W) < TOL


def test_rccfd1_tip_accelerations(bundled, states):
    """(6.11j): alpha(0) = alpha_f(0) + Delta alpha(0) equals A alpha(C) + a(C) (rigid)."""
    s = bundled["dual_arm_box"]
    q, qd, tau = states[("dual_arm_box", 1)]
    r = cc.forward_dynamics(s, q, qd, tau, method="rccfd1")
    ctx = Context(s, q, qd, tau)
    for i in range(s.l):
        assert rel_err(r.alpha0[i], ctx.A[i] @ r.alpha_C + ctx.a_C[i]) < TOL


@pytest.mark.parametrize("name", ["three_soft_finger", "dual_revolute", "three_general"])
def test_contact_accelerations_b9f(systems, states, name):
    """Wdot of (b.9f) is the relative acceleration along the motion space:
    H^T(0) Wdot = alpha^-(0) - alpha^+(0) - Hdot^T(0) W(0) (b.1f)."""
    s = systems[name]
    q, qd, tau = states[(name, 0)]
    r = cc.forward_dynamics(s, q, qd, tau, method="nonrigid")
    ctx = Context(s, q, qd, tau)
    jd = np.concatenate([t.jdot_qdot() for t in ctx.arms])
    J = [t.Rb6 @ alg.jacobian(t.robot, t.q) for t in ctx.arms]
    rel_acc = np.concatenate([ctx.A[i] @ r.alpha_C + ctx.a_C[i] - J[i] @ r.qdd[i] - jd[6 * i:6 * i + 6]
                              - ctx.W @ ctx.dV[i] for i in range(s.l)])
    assert rel_err(ctx.Phi() @ r.Wdot, rel_acc) < TOL


def test_arm_terms_match_the_public_algorithms(bundled, states):
    """The per-arm operator quantities (world-aligned): Lambda(0) by (6.10) = J M^-1 J^T,
    Jdot qd with the gravity pseudo-acceleration removed, tip velocity = J qd."""
    s = bundled["three_arm_point_contacts"]
    q, qd, tau = states[("three_arm_point_contacts", 0)]
    for t in Context(s, q, qd, tau).arms:
        J = t.Rb6 @ alg.jacobian(t.robot, t.q)
        Minv = np.linalg.inv(alg.mass_matrix(t.robot, t.q))
        assert rel_err(t.Lambda(), J @ Minv @ J.T) < 1e-12
        assert rel_err(t.jdot_qdot(), t.Rb6 @ alg.jacobian_dot_qd(t.robot, t.q, t.qd)) < 1e-12
        assert rel_err(t.V_tip(), J @ t.qd) < 1e-12
        f = np.arange(6.0) - 2.5
        dq, da = t.delta(f)                                                # (6.4)
        assert rel_err(dq, -Minv @ J.T @ f) < 1e-10
        assert rel_err(da, J @ dq) < 1e-10


def test_singular_arm_is_a_clear_error(bundled):
    s = bundled["dual_arm_box"]
    q = s.q0().copy()
    q[4] = 0.0                                   # wrist pitch 0: joints 4 and 6 aligned
    for m in ("rccfd1", "rccfd2", "rccfd3", "schur", "nonrigid"):
        with pytest.raises(SoagenError) as err:
            cc.forward_dynamics(s, q, np.zeros(s.n), np.zeros(s.n), method=m)
        assert "singular configuration" in str(err.value) and "arm 'left'" in str(err.value)


def test_unknown_method(bundled):
    s = bundled["dual_arm_box"]
    with pytest.raises(SoagenError, match="unknown closed-chain method 'rccfd9'"):
        cc.forward_dynamics(s, s.q0(), np.zeros(s.n), np.zeros(s.n), method="rccfd9")
    with pytest.raises(SoagenError, match="expected a vector of 12"):
        cc.forward_dynamics(s, np.zeros(3), np.zeros(s.n), np.zeros(s.n))
