"""Exudyn (soagen.oracles.exudyn) against Euler-Bernoulli's frequencies and against the
floating-frame reference written here (soagen.oracles.ffr): two models that share no
code, only the case data. The reduced checks run in seconds on coarse but converged-enough
settings; the full runs (docs/flexible-oracles.md) are marked slow.

Tolerances come from the convergence study in docs/flexible-oracles.md: each bound is a
few times the measured difference of the two references at the settings used, and below
the error of the model that must fail it (the linear floating-frame model, which misses
geometric stiffening)."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the beam oracles need scipy (pip install soagen[flexible-oracle])")
pytest.importorskip("exudyn", reason="the Exudyn oracle needs exudyn (pip install soagen[flexible-oracle])")

from soagen.oracles import beams, ffr  # noqa: E402
from soagen.oracles import exudyn as exu  # noqa: E402
from soagen.oracles.euler_bernoulli import (  # noqa: E402
    bending_frequencies,
    clamped_free_betaL,
    pinned_free_betaL,
)

pytestmark = pytest.mark.oracle


def short(arm, duration):
    return beams.Arm(links=arm.links, theta0=arm.theta0, gravity=arm.gravity, duration=duration,
                     sample=0.01)


@pytest.mark.parametrize("clamped", [True, False], ids=["clamped-free", "pinned-free"])
def test_frequencies_converge_to_euler_bernoulli(clamped):
    b = beams.aluminium_strip()
    roots = clamped_free_betaL(3) if clamped else pinned_free_betaL(3)
    exact = bending_frequencies(roots, b.length, b.EIz, b.rhoA)
    solve = exu.clamped_free_frequencies if clamped else exu.pinned_free_frequencies
    err8 = np.abs(solve(b, 8) / exact - 1)
    err16 = np.abs(solve(b, 16) / exact - 1)
    # cubic Hermite elements: 8 elements within 0.2% (measured <= 0.17%, the third pinned
    # frequency), and the error falls ~16x per halving (h^4); 10x allows for round-off
    assert err8.max() < 2e-3
    assert np.all(err16 < err8 / 10)


def test_pendulum_agrees_with_the_floating_frame_reference():
    """0.3 s of the flexible pendulum: Exudyn with 8 elements and h = 2.5e-4 s against the
    stiffened floating-frame model with 3 modes. Measured: deflection 2.6% of its peak,
    hub angle 2.9e-4 rad, tip 3.1e-5 m; the linear model is off by 14%, 1.2e-3 rad,
    4.3e-4 m (over the first 0.2 s only by 3.4%: the error grows with the swing speed)."""
    arm = short(beams.flexible_pendulum(), 0.3)
    ref = exu.simulate(arm, elements=8, step=2.5e-4)
    assert np.abs(ref.hub_angle[-1, 0]) > 0.1 and np.abs(ref.deflection).max() > 5e-3   # it moved
    stiff = beams.compare(ffr.simulate(arm, "stiffened", 3), ref, arm.reach)
    linear = beams.compare(ffr.simulate(arm, "linear", 3), ref, arm.reach)
    assert stiff.deflection[0] < 0.05 and stiff.hub_angle[0] < 5e-4 and stiff.tip[0] < 1e-4
    assert linear.deflection[0] > 0.08


def test_spin_up_hub_follows_the_prescribed_angle():
    spec = beams.SpinUp(duration=1.0, sample=0.1)
    traj = exu.spin_up(spec, elements=4, step=1e-2)
    assert np.abs(traj.hub_angle[:, 0] - spec.profile(traj.t)[0]).max() < 1e-10


@pytest.mark.slow
def test_pendulum_full():
    """1 s: Exudyn 16 elements, h = 6.25e-5 s against 6 modes (measured against the finest
    Exudyn run: deflection 0.54% of peak, hub angle 6.5e-5 rad, tip 1.2e-5 m)."""
    arm = beams.flexible_pendulum()
    ref = exu.simulate(arm, elements=16, step=6.25e-5)
    e = beams.compare(ffr.simulate(arm, "stiffened", 6), ref, arm.reach)
    assert e.deflection[0] < 0.015 and e.hub_angle[0] < 2e-4 and e.tip[0] < 3e-5
    linear = beams.compare(ffr.simulate(arm, "linear", 6), ref, arm.reach)
    assert linear.deflection[0] > 0.4                 # the linear model's deflection is wrong
    assert linear.tip_rel[0] < 0.004                  # ... while its tip looks right


@pytest.mark.slow
def test_two_link_arm_full():
    """1 s of the two-link arm: Exudyn 16 elements, h = 6.25e-5 s against 6 modes per link
    (measured against the finest Exudyn run: deflection 0.71% / 0.59% of peak, hub angles
    1.1e-4 rad, tips 2.6e-5 / 4.0e-5 m)."""
    arm = beams.two_link_arm()
    ref = exu.simulate(arm, elements=16, step=6.25e-5)
    e = beams.compare(ffr.simulate(arm, "stiffened", 6), ref, arm.reach)
    assert np.all(e.deflection < 0.02) and np.all(e.hub_angle < 3e-4) and np.all(e.tip < 1e-4)


@pytest.mark.slow
def test_hubs_agree():
    """Hub inertias at both joints and a hub mass at the elbow (both references model them
    independently: a rigid body clamped to the beam root in Exudyn, point mass and
    rotational inertia terms in the floating frame). Measured: deflection 3.8% / 12% (of a
    0.7 mm peak), hub angle 3e-4 rad, tip 4e-5 m with 3 modes."""
    arm = beams.Arm(links=(beams.Link(beams.aluminium_strip(height=0.004), hub_inertia=0.01),
                           beams.Link(beams.aluminium_strip(length=0.6), hub_mass=0.3, hub_inertia=0.002)),
                    theta0=(0.1, -0.4), duration=0.3)
    ref = exu.simulate(arm, elements=8, step=2.5e-4)
    e = beams.compare(ffr.simulate(arm, "stiffened", 4), ref, arm.reach)
    assert e.deflection[0] < 0.05 and np.all(e.hub_angle < 5e-4) and np.all(e.tip < 1e-4)
    rigid = beams.compare(ffr.simulate(arm, "rigid"), ref, arm.reach)
    assert np.all(rigid.hub_angle > 2e-3)


@pytest.mark.slow
def test_spin_up_full():
    """Kane-Ryan-Banerjee: 20 s, Exudyn 8 elements, h = 2e-3 s against 4 modes (measured:
    2.1 mm on a 0.57 m peak)."""
    spec = beams.SpinUp()
    ref = exu.spin_up(spec, elements=8, step=2e-3)
    stiff = ffr.spin_up(spec, "stiffened", 4)
    peak = np.abs(ref.deflection).max()
    assert 0.3 < peak < 1.0
    assert np.abs(stiff.deflection - ref.deflection).max() < 0.01 * peak
