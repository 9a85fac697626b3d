"""The floating-frame reference (soagen.oracles.ffr) against what it must reproduce without
any other code: the rigid compound pendulum and double pendulum (closed-form equations
written here), conservation of energy (which fails for any wrong velocity or inertia
term), a symmetric positive definite mass matrix, the Rayleigh-Ritz bounds on the
pinned-free frequencies of Euler-Bernoulli theory, and the Southwell coefficient of a
spinning cantilever (the geometric stiffening the foreshortening term must produce, and
the spin softening of the linear model)."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the beam oracles need scipy (pip install soagen[flexible-oracle])")

from scipy.integrate import solve_ivp  # noqa: E402

from soagen.oracles import beams, ffr  # noqa: E402
from soagen.oracles.euler_bernoulli import (  # noqa: E402
    bending_frequencies,
    clamped_free_betaL,
    pinned_free_betaL,
)

G = 9.81


def short(arm, duration=0.2):
    return beams.Arm(links=arm.links, theta0=arm.theta0, gravity=arm.gravity, duration=duration,
                     sample=0.01)


def test_rigid_pendulum_is_the_compound_pendulum():
    # a uniform rod on a pin: theta'' = -(3 g / 2 L) cos(theta)
    arm = beams.Arm(links=(beams.Link(beams.aluminium_strip(length=0.8)),), theta0=(0.3,))
    got = ffr.simulate(arm, "rigid")
    want = solve_ivp(lambda t, y: [y[1], -1.5 * G / 0.8 * np.cos(y[0])], (0, 1), [0.3, 0.0],
                     method="DOP853", rtol=1e-12, atol=1e-12, t_eval=arm.times())
    # 1e-7 rad: both integrations are converged far below it (rtol 1e-8 vs 1e-12)
    assert np.abs(got.hub_angle[:, 0] - want.y[0]).max() < 1e-7
    assert np.abs(got.deflection).max() < 1e-15      # round-off of the hub-frame projection


def test_rigid_two_link_is_the_double_compound_pendulum():
    # two uniform rods (masses m1, m2, lengths l1, l2) in absolute angles a1, a2:
    # [(m1/3 + m2) l1^2, m2 l1 l2/2 c12; sym, m2 l2^2/3] a'' = -[m2 l1 l2/2 s12 a2'^2
    #   + (m1/2 + m2) g l1 cos a1; -m2 l1 l2/2 s12 a1'^2 + m2 g l2/2 cos a2],  s12 = sin(a1 - a2)
    inner, outer = beams.aluminium_strip(length=0.7, height=0.004), beams.aluminium_strip(length=0.5)
    arm = beams.Arm(links=(beams.Link(inner), beams.Link(outer)), theta0=(0.2, 0.5))
    m1, m2, l1, l2 = inner.rhoA * 0.7, outer.rhoA * 0.5, 0.7, 0.5

    def rhs(t, y):
        a1, a2, w1, w2 = y
        c, s = np.cos(a1 - a2), np.sin(a1 - a2)
        M = [[(m1 / 3 + m2) * l1 ** 2, m2 * l1 * l2 / 2 * c], [m2 * l1 * l2 / 2 * c, m2 * l2 ** 2 / 3]]
        f = [-m2 * l1 * l2 / 2 * s * w2 ** 2 - (m1 / 2 + m2) * G * l1 * np.cos(a1),
             m2 * l1 * l2 / 2 * s * w1 ** 2 - m2 * G * l2 / 2 * np.cos(a2)]
        return [w1, w2, *np.linalg.solve(M, f)]

    want = solve_ivp(rhs, (0, 1), [0.2, 0.7, 0, 0], method="DOP853", rtol=1e-12, atol=1e-12,
                     t_eval=arm.times())
    got = ffr.simulate(arm, "rigid")
    assert np.abs(got.hub_angle - want.y[:2].T).max() < 1e-7
    tip2 = l1 * np.stack([np.cos(want.y[0]), np.sin(want.y[0])], 1) + l2 * np.stack(
        [np.cos(want.y[1]), np.sin(want.y[1])], 1)
    assert np.abs(got.tip[:, 1] - tip2).max() < 1e-7


def _hub_arm():
    """Two links with hubs (a point mass and an inertia at the elbow, an inertia at the
    base) so that every term of the chain is exercised."""
    return beams.Arm(links=(beams.Link(beams.aluminium_strip(height=0.004), hub_inertia=0.01),
                            beams.Link(beams.aluminium_strip(length=0.6), hub_mass=0.3, hub_inertia=0.002)),
                     theta0=(0.1, -0.4))


@pytest.mark.parametrize("model", ["stiffened", "linear"])
def test_energy_is_conserved(model):
    arm = short(_hub_arm(), 0.1)
    chain = ffr._Chain(arm.links, 2, model, arm.gravity)
    z0 = np.zeros(chain.nz)
    z0[chain.theta_index] = arm.theta0
    _, Z, Zd = ffr._integrate(chain, z0, np.zeros(chain.nz), arm.times())
    E = []
    for z, zd in zip(Z, Zd):
        M = chain.evaluate(z, zd)[0]
        E.append(0.5 * zd @ M @ zd + chain.potential)
    kinetic = 0.5 * Zd[-1] @ chain.evaluate(Z[-1], Zd[-1])[0] @ Zd[-1]
    # measured drift ~1e-12 of the kinetic energy gained (DOP853 at rtol 1e-8); a wrong
    # velocity-product or inertia term shows at 1e-3 and more
    assert np.ptp(E) < 1e-9 * kinetic
    assert np.abs(Z[-1, chain.q_slice[1]]).max() > 1e-5          # the modes did move


def test_mass_matrix_is_symmetric_positive_definite():
    arm = _hub_arm()
    chain = ffr._Chain(arm.links, 3, "stiffened", arm.gravity)
    rng = np.random.default_rng(1)
    for _ in range(5):
        z = rng.normal(size=chain.nz) * 0.05
        M = chain.evaluate(z, rng.normal(size=chain.nz))[0]
        assert np.abs(M - M.T).max() < 1e-13 * np.abs(M).max()
        assert np.linalg.eigvalsh(M).min() > 0


def test_quadrature_is_converged(monkeypatch):
    arm = _hub_arm()
    rng = np.random.default_rng(2)
    z, zd = rng.normal(size=16) * 0.05, rng.normal(size=16)
    M, f, _ = ffr._Chain(arm.links, 7, "stiffened", arm.gravity).evaluate(z, zd)
    monkeypatch.setattr(ffr, "QUADRATURE", 2 * ffr.QUADRATURE)
    M2, f2, _ = ffr._Chain(arm.links, 7, "stiffened", arm.gravity).evaluate(z, zd)
    assert np.abs(M - M2).max() < 1e-12 * np.abs(M).max()
    assert np.abs(f - f2).max() < 1e-11 * np.abs(f).max()


def test_pinned_frequencies_are_ritz_upper_bounds():
    link = beams.Link(beams.aluminium_strip())
    b = link.beam
    exact = bending_frequencies(pinned_free_betaL(3), b.length, b.EIz, b.rhoA)
    previous = np.full(3, np.inf)
    for m in (1, 2, 3, 4, 6):
        w = ffr.pinned_frequencies(link, m)
        assert abs(w[0]) < 1e-6 * exact[0]                      # the rigid rotation
        k = min(m, 3)
        assert np.all(w[1:k + 1] >= exact[:k] * (1 - 1e-12))   # Rayleigh-Ritz: from above
        assert np.all(w[1:k + 1] <= previous[:k])               # and monotonically
        previous = w[1:4] if m >= 3 else np.append(w[1:], [np.inf] * (3 - m))
    assert w[1] / exact[0] - 1 < 1e-5 and w[3] / exact[2] - 1 < 1e-3
    # one clamped-free mode on a free joint: the first elastic frequency is a third too high
    assert 1.30 < ffr.pinned_frequencies(link, 1)[1] / exact[0] < 1.36


def _spinning_frequency(model, modes, omega):
    """Lowest in-plane frequency^2 of a cantilever spun at constant omega about its root:
    the modal equations linearized (central differences) about the straight beam."""
    link = beams.Link(beams.aluminium_strip())
    chain = ffr._Chain([link], modes, model, 0.0)
    sl = chain.q_slice[0]

    def qdd(q):
        z, zd = np.zeros(chain.nz), np.zeros(chain.nz)
        z[sl], zd[0] = q, omega
        M, f, _ = chain.evaluate(z, zd)
        return np.linalg.solve(M[sl, sl], f[sl])

    h = 1e-7
    J = np.array([(qdd(h * e) - qdd(-h * e)) / (2 * h) for e in np.eye(modes)]).T
    return np.sort(-np.linalg.eigvals(J).real)[0]


@pytest.mark.parametrize("modes", [2, 6])
def test_geometric_stiffening_gives_the_southwell_coefficient(modes):
    # in-plane bending of a spinning cantilever (no hub radius): omega^2 = omega_1^2
    # + (K_1 - 1) Omega^2 with the Southwell coefficient K_1 = 1.193 (Wright, Smith,
    # Thresher and Wang, J. Appl. Mech. 49, 1982); the linear model has K_1 = 0:
    # omega^2 = omega_1^2 - Omega^2 (spin softening, the divergence of the spin-up)
    b = beams.aluminium_strip()
    w1 = bending_frequencies(clamped_free_betaL(1), b.length, b.EIz, b.rhoA)[0]
    omega = 0.1 * w1
    stiff = (_spinning_frequency("stiffened", modes, omega) - w1 ** 2) / omega ** 2
    linear = (_spinning_frequency("linear", modes, omega) - w1 ** 2) / omega ** 2
    assert stiff == pytest.approx(0.193, abs=1e-3)
    assert linear == pytest.approx(-1.0, abs=1e-6)


@pytest.mark.slow
def test_spin_up_linear_diverges_stiffened_does_not():
    spec = beams.SpinUp()
    linear = ffr.spin_up(spec, "linear", 2)
    stiff = ffr.spin_up(spec, "stiffened", 2)
    # the linear model passes its first frequency (3.8 rad/s) at t ~ 8.5 s and diverges
    assert 8.5 < linear.t[-1] < 12
    assert len(stiff.t) == len(spec.times())
    assert np.abs(stiff.deflection).max() < 0.1 * spec.beam.length
