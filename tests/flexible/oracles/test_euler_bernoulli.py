"""The analytic oracle (soagen.oracles.euler_bernoulli) against textbook values and its own
defining equations: the roots of the frequency equations, and clamped-free mode shapes
that satisfy the boundary conditions, are orthogonal, and whose Rayleigh quotient is the
frequency."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the beam oracles need scipy (pip install soagen[flexible-oracle])")

from soagen.oracles.euler_bernoulli import (  # noqa: E402
    ClampedFreeModes,
    bending_frequencies,
    clamped_free_betaL,
    pinned_free_betaL,
)

# Blevins, "Formulas for Natural Frequency and Mode Shape", Table 8-1 (to the digits printed)
CLAMPED_FREE = [1.87510407, 4.69409113, 7.85475744, 10.99554073, 14.13716839]
PINNED_FREE = [3.92660231, 7.06858275, 10.21017612, 13.35176878]


def test_roots_are_the_textbook_values():
    # 1e-8: the tables print 9 significant digits
    assert np.abs(clamped_free_betaL(5) - CLAMPED_FREE).max() < 1e-8
    assert np.abs(pinned_free_betaL(4) - PINNED_FREE).max() < 1e-8


def test_roots_solve_their_frequency_equations():
    x = clamped_free_betaL(8)
    assert np.abs((1 + np.cos(x) * np.cosh(x)) / np.cosh(x)).max() < 1e-14
    y = pinned_free_betaL(8)
    assert np.abs(np.tan(y) - np.tanh(y)).max() < 1e-9
    # one root per interval, none missed or repeated: ((i - 1) pi, i pi) and (i pi, (i + 1/2) pi)
    i = np.arange(1, 9)
    assert np.all(((i - 1) * np.pi < x) & (x < i * np.pi))
    assert np.all((i * np.pi < y) & (y < (i + 0.5) * np.pi))


@pytest.mark.parametrize("length", [0.3, 1.0, 10.0])
def test_clamped_free_modes(length):
    n = 8
    modes = ClampedFreeModes(n, length)
    # boundary conditions: phi(0) = phi'(0) = 0 (clamped), phi''(L) = 0 (no moment)
    scale = modes.beta ** 2
    assert np.abs(modes.phi(0.0)).max() < 1e-12
    assert np.abs(modes.dphi(0.0) / modes.beta).max() < 1e-12
    assert np.abs(modes.ddphi(length) / scale).max() < 1e-11
    # orthogonality (int phi_i phi_j = L delta_ij) and the Rayleigh quotient:
    # EI int phi''^2 / (rho A int phi^2) = omega^2 = beta^4 EI / rho A
    x, w = np.polynomial.legendre.leggauss(96)
    x, w = (x + 1) * length / 2, w * length / 2
    P, D = modes.phi(x), modes.ddphi(x)
    assert np.abs(P.T @ (w[:, None] * P) / length - np.eye(n)).max() < 1e-12
    assert np.abs(np.diag(D.T @ (w[:, None] * D)) / (modes.beta ** 4 * length) - 1).max() < 1e-12
    # the textbook form agrees where it has not yet lost its digits (low modes)
    b, s, xx = modes.beta[:3], modes.sigma[:3], 0.7 * length
    textbook = np.cosh(b * xx) - np.cos(b * xx) - s * (np.sinh(b * xx) - np.sin(b * xx))
    assert np.abs(modes.phi(xx)[:3] - textbook).max() < 1e-12


def test_frequency_scaling():
    # omega = (beta L)^2 sqrt(EI / (rho A L^4)): a 1 m steel-like beam with EI / rho A = 1
    assert bending_frequencies([1.0, 2.0], 1.0, 3.0, 3.0) == pytest.approx([1.0, 4.0], rel=1e-15)
    assert bending_frequencies([1.0], 2.0, 16.0, 1.0)[0] == pytest.approx(1.0, rel=1e-15)

