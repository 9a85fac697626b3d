"""The floating-frame reference: a planar chain of flexible links written directly from
the equations of motion, with clamped-free assumed modes, as the second, independent
reference for soagen's flexible links (the first is :mod:`soagen.oracles.exudyn`, a
geometrically nonlinear finite-element model; the two share only the case data of
:mod:`soagen.oracles.beams`).

Model (per link k, in its hub frame: x along the root tangent, origin at joint k):
the centre-line point at distance x from the root is at

    p(x) = (x + u(x), v(x)),   v(x) = sum_i phi_i(x) q_i,
    u(x) = -1/2 int_0^x v'(s)^2 ds        (foreshortening; "stiffened" model only)

with phi_i the clamped-free Euler-Bernoulli modes (:class:`~.euler_bernoulli.ClampedFreeModes`)
and q the modal coordinates. In the world, r(x) = o_k + R(beta_k) p(x), where o_k is
joint k and beta_k the absolute hub angle: beta_1 = theta_1, o_1 = 0, and for k > 1
o_k = r_{k-1}(L_{k-1}), beta_k = beta_{k-1} + psi_{k-1} + theta_k with psi the rotation of
link k-1's tip cross-section, psi = atan2(v'(L), 1 + u'(L)) (the tangent angle of the
modelled centre line; psi = v'(L) in the linear model).

* ``model="stiffened"``: the foreshortening above, kept exactly in the kinematics, so
  the centrifugal and gravity loads along the beam stiffen (or soften) its bending: the
  geometric stiffening of Kane, Ryan and Banerjee (J. Guidance 10(2), 1987). The beam is
  inextensible.
* ``model="linear"``: u = 0, the small-deformation floating-frame model of the framework
  paper's Section 4 (modes in a body frame clamped at the inboard joint, full rigid-elastic
  inertia coupling, linear stiffness), which has no geometric stiffening.
* ``model="rigid"``: no modes.

Equations of motion (Kane's method, d'Alembert's principle in the generalized coordinates
z = (theta_1, q_1, theta_2, q_2, ...)): every mass point's velocity is r_dot = A(z) z_dot
and its acceleration A z_ddot + a(z, z_dot); then

    M z_ddot = f,   M = sum int rho A A^T A dx (+ hubs),
    f = sum int rho A A^T (g - a) dx (+ hubs) - K q,   K = diag(EI beta_i^4 L)

with the integrals over each beam by Gauss-Legendre quadrature (``QUADRATURE`` points,
exact to round-off for the mode products used here), the elastic energy 1/2 EI int v''^2,
and the hubs' point masses and rotational inertias added at the joints. This is exact
for the assumed displacement field (no term is dropped or linearized), so the model
conserves energy (the tests check it) and converges as modes are added; it is integrated
with scipy's DOP853 (tolerances RTOL, ATOL).

A and a are built link by link from the base (``_Chain.evaluate``): the velocity of the
joint and the angular velocity of the hub, then the points of the link.
"""

from __future__ import annotations

import numpy as np

from soagen.oracles.beams import Trajectory, hub_frame_deflection
from soagen.oracles.euler_bernoulli import ClampedFreeModes

QUADRATURE = 48
"""Gauss points per link: the products phi_i phi_j of the first 8 modes oscillate at up to
2 beta_8 L ~ 48 rad over the beam; 48 points integrate polynomials of degree 95 and these
products to ~1e-14 (checked against 96 points in the tests)."""

MODELS = ("stiffened", "linear", "rigid")

RTOL, ATOL = 1e-8, 1e-10
"""DOP853 tolerances: dividing both by 100 moves the sampled tips of the pendulum by
< 1e-11 m and its deflections by < 1e-9 m (measured, 4 modes)."""


_JT = np.array([[0.0, 1.0], [-1.0, 0.0]])
"""J^T for J = [[0, -1], [1, 0]] (rotation by +90 degrees): rows v @ _JT are J v."""


def _psi(s, stiffened):
    """Tip cross-section rotation psi(s) of a link with tip slope s = v'(L), and its first
    two derivatives: atan2(s, 1 - s^2/2) (stiffened) or s (linear)."""
    if not stiffened:
        return s, 1.0, 0.0
    d = 1 + s ** 4 / 4
    return np.arctan2(s, 1 - s ** 2 / 2), (1 + s ** 2 / 2) / d, s * (1 - s ** 2 - s ** 4 / 4) / d ** 2


class _Link:
    """One link's precomputed shape data: quadrature points and weights, the modes at
    the points and at the tip, the foreshortening matrices H(x) = int_0^x phi' phi'^T."""

    def __init__(self, link, modes, model):
        beam = link.beam
        self.L, self.rhoA = beam.length, beam.rhoA
        self.hub_mass, self.hub_inertia = link.hub_mass, link.hub_inertia
        self.m = 0 if model == "rigid" else int(modes)
        self.stiffened = model == "stiffened"
        xg, wg = np.polynomial.legendre.leggauss(QUADRATURE)
        self.x = (xg + 1) * self.L / 2
        self.w = wg * self.L / 2
        self.wm = self.rhoA * self.w                        # mass of each quadrature point
        self.wm2 = np.repeat(self.wm, 2)                    # ... per x, y row of A
        # evaluation points: the quadrature points and the tip (last row)
        self.xs = np.append(self.x, self.L)
        if self.m == 0:
            return
        shapes = ClampedFreeModes(self.m, self.L)
        self.phi = shapes.phi(self.xs)                       # (npts, m)
        self.dphi_tip = shapes.dphi(self.L)                  # (m,)
        self.K = beam.EIz * shapes.beta ** 4 * self.L        # modal stiffness, int phi^2 = L
        if self.stiffened:
            # H(x) = int_0^x phi'(s) phi'(s)^T ds at every evaluation point, by a Gauss
            # rule on [0, x] (the integrand is smooth; same order as the outer rule)
            H = np.empty((len(self.xs), self.m, self.m))
            for j, x in enumerate(self.xs):
                s, ws = (xg + 1) * x / 2, wg * x / 2
                d = shapes.dphi(s)
                H[j] = d.T @ (ws[:, None] * d)
            self.H = H

    def points(self, q, qd):
        """p (npts, 2), P = dp/dq (npts, 2, m) and P_dot q_dot (npts, 2) in the hub frame."""
        n = len(self.xs)
        p = np.zeros((n, 2))
        p[:, 0] = self.xs
        P = np.zeros((n, 2, self.m))
        Pdqd = np.zeros((n, 2))
        if self.m:
            p[:, 1] = self.phi @ q
            P[:, 1, :] = self.phi
            if self.stiffened:
                Hq = self.H @ q                             # (n, m)
                p[:, 0] -= 0.5 * Hq @ q
                P[:, 0, :] = -Hq
                Pdqd[:, 0] = -(self.H @ qd) @ qd
        return p, P, Pdqd


class _Chain:
    """The assembled chain: coordinates z = (theta_1, q_1, theta_2, q_2, ...)."""

    def __init__(self, links, modes, model, gravity):
        if model not in MODELS:
            raise ValueError(f"model must be one of {MODELS}, got {model!r}")
        if np.isscalar(modes):
            modes = [modes] * len(links)
        self.links = [_Link(link, m, model) for link, m in zip(links, modes)]
        self.theta_index, self.q_slice = [], []
        i = 0
        for link in self.links:
            self.theta_index.append(i)
            self.q_slice.append(slice(i + 1, i + 1 + link.m))
            i += 1 + link.m
        self.nz = i
        self.g = np.array([0.0, -gravity])

    def evaluate(self, z, zd, dynamics=True):
        """Kinematics of every link and, with ``dynamics``, M and f of ``M z_ddot = f``.
        Returns (M, f, kin) with kin a list of (beta, theta, o, tip, tip tangent angle);
        leaves the potential energy (gravity and elastic) in ``self.potential``."""
        nz = self.nz
        o, A_o, a_o = np.zeros(2), np.zeros((2, nz)), np.zeros(2)
        beta, b, b_c = 0.0, np.zeros(nz), 0.0
        M, f = np.zeros((nz, nz)), np.zeros(nz)
        V = 0.0
        kin = []
        for link, it, sl in zip(self.links, self.theta_index, self.q_slice):
            beta += z[it]
            b[it] += 1.0
            betad = b @ zd
            q, qd = z[sl], zd[sl]
            # the hub: a point mass at the joint and an inertia turning with the hub frame
            if link.hub_mass:
                M += link.hub_mass * A_o.T @ A_o
                f += link.hub_mass * A_o.T @ (self.g - a_o)
                V -= link.hub_mass * self.g @ o
            if link.hub_inertia:
                M += link.hub_inertia * np.outer(b, b)
                f -= link.hub_inertia * b * b_c
            # the beam's points: r = o + R p, r_dot = A z_dot, r_ddot = A z_ddot + a
            c, s = np.cos(beta), np.sin(beta)
            R = np.array([[c, -s], [s, c]])
            p, P, Pdqd = link.points(q, qd)
            Rp = p @ R.T
            RJp = Rp @ _JT
            A = RJp[:, :, None] * b
            A += A_o
            RP = R @ P
            A[:, :, sl] += RP
            a = a_o + RJp * b_c - betad ** 2 * Rp + (2 * betad) * ((RP @ qd) @ _JT) + Pdqd @ R.T
            if dynamics:
                nq = len(link.w)
                A2 = A[:nq].reshape(2 * nq, nz)
                wA2 = link.wm2[:, None] * A2
                M += A2.T @ wA2
                f += wA2.T @ (self.g - a[:nq]).ravel()
                V -= self.g @ (link.wm @ (o + Rp[:nq]))
                if link.m:
                    f[sl] -= link.K * q
                    V += 0.5 * link.K @ q ** 2
            # the tip carries the next joint; the tip cross-section turns by psi
            tip = o + Rp[-1]
            psi = psi_d = psi_dd = 0.0
            if link.m:
                slope = link.dphi_tip @ q
                psi, psi_d, psi_dd = _psi(slope, link.stiffened)
            kin.append((beta, z[it], o.copy(), tip, beta + psi))
            o, A_o, a_o = tip, A[-1].copy(), a[-1].copy()
            beta += psi
            if link.m:
                b[sl] += psi_d * link.dphi_tip
                b_c += psi_dd * (link.dphi_tip @ qd) ** 2
        self.potential = V
        return M, f, kin


def _trajectory(chain, times, Z, label):
    n = len(chain.links)
    hub, joint = np.empty((len(times), n)), np.empty((len(times), n))
    root, tip = np.empty((len(times), n, 2)), np.empty((len(times), n, 2))
    for j, z in enumerate(Z):
        kin = chain.evaluate(z, np.zeros_like(z), dynamics=False)[2]
        prev = 0.0
        for k, (beta, _theta, o, r_tip, tip_angle) in enumerate(kin):
            hub[j, k], root[j, k], tip[j, k] = beta, o, r_tip
            joint[j, k] = beta - prev
            prev = tip_angle
    return Trajectory(t=np.asarray(times), hub_angle=hub, joint_angle=joint, root=root, tip=tip,
                      deflection=hub_frame_deflection(hub, root, tip), label=label)


def _integrate(chain, z0, zd0, times, prescribed=None):
    """Integrate M z_ddot = f from (z0, zd0), sampling at ``times``: (times reached, z and
    z_dot at them); fewer times than asked if the model diverged. ``prescribed`` maps a
    coordinate index to a function t -> (value, rate, acceleration)."""
    from scipy.integrate import solve_ivp

    prescribed = prescribed or {}
    P = sorted(prescribed)
    F = [i for i in range(chain.nz) if i not in prescribed]
    nF = len(F)

    def full(t, y):
        z, zd, zdd_p = np.empty(chain.nz), np.empty(chain.nz), np.empty(len(P))
        z[F], zd[F] = y[:nF], y[nF:]
        for j, i in enumerate(P):
            z[i], zd[i], zdd_p[j] = prescribed[i](t)
        return z, zd, zdd_p

    def rhs(t, y):
        z, zd, zdd_p = full(t, y)
        M, f, _ = chain.evaluate(z, zd)
        rhs_f = f[F] - M[np.ix_(F, P)] @ zdd_p if P else f[F]
        return np.concatenate([y[nF:], np.linalg.solve(M[np.ix_(F, F)], rhs_f)])

    # a model that diverges (the linear one spun above its first frequency) is stopped when
    # a modal amplitude reaches half a link length (a tip deflection of about L)
    modal = [F.index(i) for sl in chain.q_slice for i in range(sl.start, sl.stop) if i in F]
    bound = 0.5 * min(link.L for link in chain.links)

    def diverged(t, y):
        return bound - (np.abs(y[modal]).max() if modal else 0.0)

    diverged.terminal = True
    y0 = np.concatenate([np.asarray(z0, float)[F], np.asarray(zd0, float)[F]])
    sol = solve_ivp(rhs, (times[0], times[-1]), y0, method="DOP853", t_eval=times,
                    rtol=RTOL, atol=ATOL, events=diverged)
    if not sol.success:
        raise RuntimeError(f"floating-frame reference: integration failed: {sol.message}")
    states = [full(t, y)[:2] for t, y in zip(sol.t, sol.y.T)]
    return sol.t, np.array([z for z, _ in states]), np.array([zd for _, zd in states])


def _count(modes):
    return f"{modes} mode" + ("" if modes == 1 else "s")


def simulate(arm, model="stiffened", modes=6):
    """The trajectory of ``arm`` (a :class:`~soagen.oracles.beams.Arm`) with ``modes``
    clamped-free modes per link (an int, or one per link) in the given model
    ("stiffened", "linear" or "rigid"). A model that diverges (the linear one, for soft
    links) stops where a modal amplitude reaches L/2: its ``t`` is then shorter."""
    chain = _Chain(arm.links, modes, model, arm.gravity)
    z0 = np.zeros(chain.nz)
    z0[chain.theta_index] = arm.theta0
    times, Z, _ = _integrate(chain, z0, np.zeros(chain.nz), arm.times())
    label = f"floating frame, {model}" + ("" if model == "rigid" else f", {_count(modes)}")
    return _trajectory(chain, times, Z, label)


def spin_up(spec, model="stiffened", modes=6):
    """The Kane-Ryan-Banerjee spin-up (a :class:`~soagen.oracles.beams.SpinUp`): the
    hub angle is prescribed, the beam's modes respond. Returns a one-link Trajectory; the
    linear model diverges once the spin rate passes its first frequency, and its
    trajectory then ends where a modal amplitude reaches L/2 (``t`` is shorter)."""
    from soagen.oracles.beams import Link

    chain = _Chain([Link(spec.beam)], modes, model, gravity=0.0)
    times = spec.times()

    def theta(t):
        return tuple(float(v) for v in spec.profile(t))

    times, Z, _ = _integrate(chain, np.zeros(chain.nz), np.zeros(chain.nz), times, {0: theta})
    return _trajectory(chain, times, Z, f"floating frame, {model}, {_count(modes)}")


def pinned_frequencies(link, modes):
    """Natural frequencies (rad/s) of one link on a free revolute joint, linearized about
    the undeformed state without gravity: the rigid rotation (0) first, then the elastic
    ones. With no hub these converge, from above, to the pinned-free Euler-Bernoulli
    frequencies as modes are added."""
    from scipy.linalg import eigh

    chain = _Chain([link], modes, "linear", gravity=0.0)
    M = chain.evaluate(np.zeros(chain.nz), np.zeros(chain.nz))[0]
    K = np.zeros((chain.nz, chain.nz))
    sl = chain.q_slice[0]
    K[sl, sl] = np.diag(chain.links[0].K)
    w2 = eigh(K, M, eigvals_only=True)
    return np.sqrt(np.clip(w2, 0.0, None))
