"""Euler-Bernoulli beam theory in closed form: the analytic oracle for flexible links.

A uniform beam of length L, bending stiffness EI and mass per length rho A vibrates at
omega_i = (beta_i L)^2 sqrt(EI / (rho A L^4)), where beta_i L are the roots of the
frequency equation of its boundary conditions:

* clamped-free (a link clamped to a locked joint):  1 + cos(bL) cosh(bL) = 0,
  bL = 1.87510407, 4.69409113, 7.85475744, 10.99554073, ...
* pinned-free (a link on a free revolute joint with no hub inertia): tan(bL) = tanh(bL),
  bL = 3.92660231, 7.06858275, 10.21017612, ... (after the rigid rotation, omega = 0).

The clamped-free mode shapes are the assumed modes of the floating-frame reference
(:mod:`soagen.oracles.ffr`); they are evaluated here in a form that does not cancel
catastrophically for high modes (cosh(bx) and sinh(bx) grow like e^{bx}, their difference
in the textbook form loses ~bL/ln(10) digits).

Nothing here depends on soagen's models: these are textbook formulas (e.g. Meirovitch,
"Fundamentals of Vibrations", Sec. 7.x; Blevins, "Formulas for Natural Frequency and Mode
Shape", Table 8-1), evaluated in double precision with the roots bracketed and refined by
Brent's method.
"""

from __future__ import annotations

import math

import numpy as np


def _roots(f, brackets):
    from scipy.optimize import brentq

    return np.array([brentq(f, a, b, xtol=1e-14, rtol=1e-15) for a, b in brackets])


def clamped_free_betaL(n):
    """The first n roots of 1 + cos(x) cosh(x) = 0, written as cos(x) + 1/cosh(x) = 0
    (bounded, so the roots stay well conditioned): one root in each ((i - 1) pi, i pi),
    just below (i - 1/2) pi."""
    return _roots(lambda x: math.cos(x) + 1.0 / math.cosh(x),
                  [((i - 1) * math.pi, i * math.pi) for i in range(1, n + 1)])


def pinned_free_betaL(n):
    """The first n nonzero roots of tan(x) = tanh(x), written as sin(x) cosh(x) - cos(x)
    sinh(x) = 0 divided by cosh(x): sin(x) - cos(x) tanh(x) = 0; one root in each
    (i pi, (i + 1/2) pi)."""
    return _roots(lambda x: math.sin(x) - math.cos(x) * math.tanh(x),
                  [(i * math.pi + 1e-9, (i + 0.5) * math.pi) for i in range(1, n + 1)])


def bending_frequencies(betaL, length, EI, rhoA):
    """omega_i = (beta_i L)^2 sqrt(EI / (rho A L^4)) in rad/s."""
    return np.asarray(betaL) ** 2 * math.sqrt(EI / (rhoA * length ** 4))


class ClampedFreeModes:
    """The first n clamped-free bending modes of a beam of length L, normalized so that
    int_0^L phi_i^2 dx = L (phi_i(L) = +-2; the modal mass of mode i is rho A L and its
    stiffness EI beta_i^4 L).

    phi(x) = cosh(bx) - cos(bx) - sigma (sinh(bx) - sin(bx)),
    sigma = (cosh(bL) + cos(bL)) / (sinh(bL) + sin(bL)),
    evaluated as  e^{bx} (1 - sigma)/2 + e^{-bx} (1 + sigma)/2 - cos(bx) + sigma sin(bx)
    with 1 - sigma = (sin(bL) - cos(bL) - e^{-bL}) / (sinh(bL) + sin(bL)), so that
    e^{bx} (1 - sigma) stays of order one for x <= L.
    """

    def __init__(self, n, length):
        self.n, self.length = n, float(length)
        self.betaL = clamped_free_betaL(n)
        self.beta = self.betaL / self.length
        bL = self.betaL
        denom = np.sinh(bL) + np.sin(bL)
        self.sigma = (np.cosh(bL) + np.cos(bL)) / denom
        # e^{bx} (1 - sigma) / 2 = e^{b(x - L)} * c_plus
        self._c_plus = 0.5 * (np.sin(bL) - np.cos(bL) - np.exp(-bL)) * np.exp(bL) / denom

    def _parts(self, x):
        x = np.asarray(x, dtype=float)[..., None]
        b = self.beta
        grow = self._c_plus * np.exp(b * (x - self.length))      # e^{bx} (1 - sigma)/2
        decay = 0.5 * (1 + self.sigma) * np.exp(-b * x)           # e^{-bx} (1 + sigma)/2
        return b, x, grow, decay

    def phi(self, x):
        """phi_i(x), shape x.shape + (n,)."""
        b, x, grow, decay = self._parts(x)
        return grow + decay - np.cos(b * x) + self.sigma * np.sin(b * x)

    def dphi(self, x):
        """phi_i'(x)."""
        b, x, grow, decay = self._parts(x)
        return b * (grow - decay + np.sin(b * x) + self.sigma * np.cos(b * x))

    def ddphi(self, x):
        """phi_i''(x)."""
        b, x, grow, decay = self._parts(x)
        return b ** 2 * (grow + decay + np.cos(b * x) - self.sigma * np.sin(b * x))
