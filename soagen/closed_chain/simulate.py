"""Simulation of a closed-chain system: RK4 on (q, qd, X(C), V(C)) with constraint
stabilization. The trajectory files are written by :mod:`soagen.closed_chain.trajectory_files`,
the plots drawn by :mod:`soagen.closed_chain.plots`.

State: arm joints q, qd; the object's position p_C, orientation (unit quaternion x, y, z,
w) and V(C) = (omega, v_C), world. Derivatives: qdd and alpha(C) from a closed-chain
method, pdot_C = v_C, Rdot_C = omega~ R_C.

The closure equations hold only at the acceleration level in the dynamics, so the
numerical solution drifts off the constraint manifold. Stabilization, one of:

* ``projection`` (default): after every RK4 step the positions are projected back onto
  the holonomic closure (Gauss-Newton, minimum-norm correction of (q, X(C))) and the
  velocities onto the null space of the velocity constraints (minimum-norm).
* ``baumgarte``: the closure is imposed as c'' + 2 w c' + w^2 c = 0 (critically damped,
  w = ``omega_b``, default 50 rad/s), c = phi^c^T e the closure error, through the
  closure bias gamma of the methods.
* ``none``: plain RK4, for measuring the drift.

Joint torques: a PD controller about the initial configuration plus each arm's own
gravity torques (the object's weight is carried by the PD error), or zero torques. The PD
gains are scaled by the diagonal of each arm's mass matrix at the start,
kp = w_c^2 M_jj, kd = 2 w_c M_jj (w_c = 10 rad/s), so that light wrist joints do not make
the equations stiff for an explicit integrator."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.closed_chain.consistent import (
    angular_error,
    closure_residual,
    solve_closure,
    velocity_constraints,
)
from soagen.closed_chain.context import Context
from soagen.closed_chain.forward import forward_dynamics
from soagen.errors import SoagenError
from soagen.spatial import (
    quaternion_from_rotation,
    quaternion_rate,
    quaternion_rotation,
)

STABILIZATION = ("projection", "baumgarte", "none")
CONTROLLERS = ("pd", "zero")


@dataclass
class Trajectory:
    t: np.ndarray
    q: np.ndarray          # steps x n
    qd: np.ndarray
    p_C: np.ndarray        # steps x 3
    quat_C: np.ndarray     # steps x 4 (x, y, z, w)
    V_C: np.ndarray        # steps x 6
    err_pos: np.ndarray    # max |closure error| (holonomic directions)
    err_vel: np.ndarray    # max |velocity constraint violation|
    stabilization: str
    method: str


def unpack(x, n):
    """The parts of a state (or of states along the last axis): q, qd (n each), p_C (3),
    the quaternion of X(C) (4), V(C) (6)."""
    return x[..., :n], x[..., n:2 * n], x[..., 2 * n:2 * n + 3], x[..., 2 * n + 3:2 * n + 7], x[..., 2 * n + 7:]


class Simulator:
    """RK4 with stabilization for one system; ``run`` returns a :class:`Trajectory`.
    :meth:`accelerations` is where the forward dynamics is evaluated."""

    def __init__(self, system, method="rccfd1", stabilization="projection", controller="pd",
                 omega_c=10.0, omega_b=50.0):
        if stabilization not in STABILIZATION:
            raise SoagenError(f"unknown stabilization {stabilization!r} (choose from {', '.join(STABILIZATION)})")
        if controller not in CONTROLLERS:
            raise SoagenError(f"unknown controller {controller!r} (choose from {', '.join(CONTROLLERS)})")
        self.system, self.method, self.stab, self.controller = system, method, stabilization, controller
        self.omega_c, self.omega_b = omega_c, omega_b
        self.q_ref = None

    def torque(self, q, qd):
        s = self.system
        if self.controller == "zero":
            return np.zeros(s.n)
        from soagen import algorithms as alg
        g = np.concatenate([alg.bias_forces(a.robot, qi, np.zeros(a.n)) for a, qi in zip(s.arms, s.split(q))])
        return g + self.kp * (self.q_ref - q) - self.kd * qd

    def accelerations(self, q, qd, tau, R, p, V, correction):
        """(qdd of all arms, alpha(C)) by the chosen closed-chain method."""
        r = forward_dynamics(self.system, q, qd, tau, self.method, (R, p), V, correction=correction)
        return r.qdd_all, r.alpha_C

    def derivative(self, x):
        q, qd, p, quat, V = unpack(x, self.system.n)
        quat = quat / np.linalg.norm(quat)                  # RK4's inner stages leave the sphere
        R = quaternion_rotation(quat)
        tau = self.torque(q, qd)
        corr = self.baumgarte(q, qd, tau, R, p, V) if self.stab == "baumgarte" else None
        qdd, alpha_C = self.accelerations(q, qd, tau, R, p, V, corr)
        return np.concatenate([qd, qdd, V[3:], quaternion_rate(quat, V[:3]), alpha_C])

    def baumgarte(self, q, qd, tau, R, p, V):
        """-2 w c' - w^2 c per grasp, c = phi^c^T e (closure error), c' = -phi^c^T dV."""
        ctx = Context(self.system, q, qd, tau, (R, p), V)
        w = self.omega_b
        out = []
        for a, t, pc, dv in zip(self.system.arms, ctx.arms, ctx.phic, ctx.dV):
            Rg = R @ a.grasp.R
            err = np.concatenate([angular_error(a.grasp, t.R_tip, Rg), t.p_tip - (p + R @ a.grasp.r)])
            c, cd = pc.T @ err, -pc.T @ dv
            out.append(-2 * w * cd - w * w * c)
        return out

    def violation(self, x):
        s = self.system
        q, qd, p, quat, V = unpack(x, s.n)
        R = quaternion_rotation(quat)
        e, _, _ = closure_residual(s, q, R, p)
        G = velocity_constraints(s, q, R, p)
        return float(np.abs(e).max()), float(np.abs(G @ np.concatenate([qd, V])).max())

    def project(self, x):
        s, n = self.system, self.system.n
        q, qd, p, quat, V = unpack(x, n)
        q, R, p = solve_closure(s, q, quaternion_rotation(quat), p)
        G = velocity_constraints(s, q, R, p)
        u = np.concatenate([qd, V])
        u = u - np.linalg.pinv(G) @ (G @ u)
        return np.concatenate([q, u[:n], p, quaternion_from_rotation(R), u[n:]])

    def initial_state(self, seed=0, speed=0.5):
        s = self.system
        q, qd, _ = s.consistent_state(seed, speed=speed)
        ctx = Context(s, q, qd, np.zeros(s.n))
        self.q_ref = q.copy()
        from soagen import algorithms as alg
        m = np.concatenate([np.diag(alg.mass_matrix(a.robot, qi)) for a, qi in zip(s.arms, s.split(q))])
        self.kp, self.kd = self.omega_c ** 2 * m, 2 * self.omega_c * m
        return np.concatenate([q, qd, ctx.p_C, quaternion_from_rotation(ctx.R_C), ctx.V_C])

    def run(self, duration, dt, seed=0, speed=0.5, progress=None):
        if not (dt > 0 and duration > 0):
            raise SoagenError("duration and dt must be positive")
        steps = int(round(duration / dt))
        x = self.initial_state(seed, speed)
        rows, errs = [x], [self.violation(x)]
        for k in range(steps):
            k1 = self.derivative(x)
            k2 = self.derivative(x + dt / 2 * k1)
            k3 = self.derivative(x + dt / 2 * k2)
            k4 = self.derivative(x + dt * k3)
            x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            quat = unpack(x, self.system.n)[3]          # a view: normalized in place
            quat /= np.linalg.norm(quat)
            if self.stab == "projection":
                x = self.project(x)
            rows.append(x)
            errs.append(self.violation(x))
            if progress is not None:
                progress(k + 1, steps)
        X, E = np.array(rows), np.array(errs)
        return Trajectory(np.arange(steps + 1) * dt, *unpack(X, self.system.n), E[:, 0], E[:, 1],
                          self.stab, self.method)


def simulate(system, duration=1.0, dt=2e-3, method="rccfd1", stabilization="projection",
             controller="pd", seed=0, progress=None):
    """Integrate ``system`` from ``system.consistent_state(seed)``; see the module doc."""
    return Simulator(system, method, stabilization, controller).run(duration, dt, seed, progress=progress)

