"""What a flexible body adds to the sweeps (docs/flexible.md): its extended inertia and
bias force, and the motion of the nodes its children and frames sit on.

A flexible body k has m deformation coordinates eta; its extended velocity is
Vhat(k) = (V(k), eta_dot) and its joint map Hhat(k) = diag(H(k), I_m), so the sweeps of
:mod:`soagen.dynamics` run on (6+m)-blocks unchanged (the framework paper's "similar
techniques ... with the flexible dofs", Section 4). Only three things are per body:

* the inertia Mhat(eta) (F.3), a polynomial in eta given by the model;
* the bias force bhat, derived from the kinetic energy 1/2 Vhat^T Mhat(eta) Vhat by the
  Euler-Poincare (Boltzmann-Hamel) equations with the body velocity V as quasi-velocity
  (F.4); for a rigid body it reduces to (2.23);
* the node a child is attached to: its pose (R_a, r_a)(eta) and its modal influence
  U_a (6 x m, at O(k), body axes: the spatial velocity of the node's frame per eta_dot),
  which make the extended shift phihat(k, c) = [I; U_a^T] phi(k, c) of (4.1)-(4.2), and
  the velocity-product terms of its acceleration (F.6).

Node rotations use the Cayley map of the small rotation theta = Psi eta: a rational
rotation (no sin/cos, no singularity at 0) equal to I + theta~ to first order, whose
angular velocity is exactly c (theta_dot + theta x theta_dot / 2), c = 1/(1 + |theta|^2/4);
so the child's velocity is the exact derivative of its pose and energy is conserved.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from soagen.spatial import cross, force_cross, phiT_motion, skew


def _tables(powers):
    return _monomial_tables(powers.tobytes(), powers.shape)


@lru_cache(maxsize=256)
def _monomial_tables(data, shape):
    """For the monomials ``powers`` (rows of exponents, as bytes and shape): ``steps``, how to build
    every monomial needed from a lower one (parent index, variable; (-1, -1) for 1),
    ``rows``, where each of ``powers`` is among them, and ``deriv``, for each of
    ``powers`` and variable i, (index of c_(a - e_i), exponent p_ai) or None."""
    powers = [tuple(int(x) for x in p) for p in np.frombuffer(data, dtype=int).reshape(shape)]
    index, steps = {}, []

    def need(p):
        if p not in index:
            if not any(p):
                step = (-1, -1)
            else:
                k = max(i for i, e in enumerate(p) if e)
                step = (need(p[:k] + (p[k] - 1,) + p[k + 1:]), k)
            index[p] = len(steps)
            steps.append(step)
        return index[p]

    rows = tuple(need(p) for p in powers)
    deriv = tuple(tuple((need(p[:i] + (p[i] - 1,) + p[i + 1:]), p[i]) if p[i] else None for i in range(len(p)))
                  for p in powers)
    return tuple(steps), rows, deriv


def monomials(flex, eta, xp):
    """(c, D): the monomials c_a(eta) of the body's inertia polynomial, and their
    derivatives D[a, i] = dc_a/deta_i = p_ai c_(a - e_i), each from a lower one by one product."""
    steps, rows, deriv = _tables(flex.powers)
    vals = []
    for parent, k in steps:
        vals.append(1 if parent < 0 else vals[parent] * eta[k])
    c = np.array([vals[r] for r in rows], dtype=xp.dtype)
    D = np.array([[0 if d is None else d[1] * vals[d[0]] for d in row] for row in deriv], dtype=xp.dtype)
    return c, D.reshape(len(rows), flex.modes)


def inertia(flex, eta, xp):
    """Mhat(eta) = sum_a c_a(eta) coeffs[a], the monomials c_a of eta (F.3)."""
    c, _ = monomials(flex, eta, xp)
    return np.tensordot(c, xp.constant(flex.coeffs), 1)


def bias(flex, M, Vh, eta, xp):
    """bhat = -Mhat[:, v] (w x v) + Mhat_dot Vhat + (V x* mu, -1/2 Vhat^T dMhat/deta Vhat)
    (F.4): the velocity terms of d/dt dT/dVhat - dT/deta with T = 1/2 Vhat^T Mhat Vhat,
    mu = (Mhat Vhat)[:6] the body's momentum about O(k). With Mhat = sum_a c_a C_a and
    u_a = C_a Vhat: Mhat_dot Vhat = sum_a (D eta_dot)_a u_a and dT/deta_i =
    1/2 sum_a D[a, i] (Vhat . u_a)."""
    w, v, etad = Vh[:3], Vh[3:6], Vh[6:]
    _, D = monomials(flex, eta, xp)
    U = np.tensordot(xp.constant(flex.coeffs), Vh, 1)              # u_a = C_a Vhat
    b = -M[:, 3:6] @ cross(w, v) + (D @ etad) @ U
    b[:6] = b[:6] + force_cross(Vh[:6], (M @ Vh)[:6])
    b[6:] = b[6:] - D.T @ (U @ Vh) / 2
    return b


def node_pose(flex, n, eta, xp):
    """Rotation and origin of node n's frame in the body frame: (cay(Psi eta),
    r0 + Phi eta + 1/2 eta^T G eta) (F.1)."""
    nodes = flex.nodes
    theta = xp.constant(nodes.Psi[n]) @ eta
    r = xp.constant(nodes.r0[n]) + xp.constant(nodes.Phi[n]) @ eta
    if flex.stiffening:
        r = r + (xp.constant(nodes.G[n]) @ eta) @ eta / 2
    c = 1 / (1 + theta @ theta / 4)
    T = skew(theta)
    return xp.eye(3) + c * (T + T @ T / 2), r, theta, c


def node_influence(flex, n, eta, r, theta, c, xp):
    """U_n (6 x m): the spatial velocity, at O(k) in body axes, of node n's frame per
    unit eta_dot: (W, Pi + r~ W), W = c (I + theta~/2) Psi, Pi = Phi + G eta (F.2)."""
    nodes = flex.nodes
    Psi = xp.constant(nodes.Psi[n])
    W = c * (Psi + skew(theta) @ Psi / 2)
    Pi = xp.constant(nodes.Phi[n])
    if flex.stiffening:
        Pi = Pi + xp.constant(nodes.G[n]) @ eta
    return np.concatenate([W, Pi + skew(r) @ W]), Pi


def node_rate(flex, n, etad, U, Pi, r, theta, c, xp):
    """Udot eta_dot: the velocity-product part of the node frame's acceleration at O(k),
    (Wdot eta_dot, Pidot eta_dot + rdot x omega_n + r x Wdot eta_dot) with
    Wdot eta_dot = -c (theta . theta_dot) omega_n / 2 (Cayley), Pidot eta_dot =
    eta_dot^T G eta_dot (F.6)."""
    omega = U[:3] @ etad
    theta_dot = xp.constant(flex.nodes.Psi[n]) @ etad
    Wd = -(c * (theta @ theta_dot) / 2) * omega
    lin = cross(Pi @ etad, omega) + cross(r, Wd)
    if flex.stiffening:
        lin = lin + (xp.constant(flex.nodes.G[n]) @ etad) @ etad
    return np.concatenate([Wd, lin])


def attached_bias(R, l, w_p, rel_a, Ud_etad, rel):
    """a(k) of a body (or frame) on a node of a flexible parent, in its own axes (F.6).

    (R, l) is phi(parent, k) at the current deformation, w_p the parent's angular
    velocity (parent axes), rel_a = phi^T(parent, k) U eta_dot and rel = Hhat^T qd(k)
    (6-part) the node's and the joint's relative velocities in k axes, Ud_etad the node
    frame's Udot eta_dot. With rel_a = 0 and Ud_etad = 0 this is the rigid (2.19)."""
    w = R.T @ w_p
    W_a, L_a = rel_a[:3], rel_a[3:]
    w_r, v_r = rel[:3], rel[3:6]
    Om, L = W_a + w_r, L_a + v_r
    l_k = R.T @ l
    ang = cross(w, Om) + cross(Om, w_r)
    lin = cross(w, cross(w, l_k)) + 2 * cross(w, L) + cross(Om, v_r) + cross(W_a, L)
    return np.concatenate([ang, lin]) + phiT_motion(R, l, Ud_etad)
