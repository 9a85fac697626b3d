"""Simulation of a closed-chain system: RK4 on (q, qd, p_C, quat_C, V_C) with constraint
stabilization, on the generic numpy methods or on the generated, compiled code. The
trajectory files are written by :mod:`soagen.simulation.closed_chain_files`, the plots
drawn by :mod:`soagen.simulation.closed_chain_plots`.

State: arm joints q, qd; the object's position p_C, orientation (unit quaternion x, y, z,
w) and V(C) = (omega, v_C), world. Derivatives: qdd and alpha(C) from the forward
dynamics, pdot_C = v_C, quaternion rate from omega.

What is evaluated per stage is one of two :class:`Dynamics`, with the same three
operations: the closed-chain forward dynamics (with a stabilization term ``corr`` added to
the closure gamma), the closure constraints (per constraint direction the error c and the
row of G, G (qd, V(C)) = c'; :func:`~soagen.closed_chain.consistent.closure_residual`) and
the arms' gravity torques:

* :class:`NumpyDynamics`: the generic methods (``method``: rccfd1, lilly_orin, ...);
* :class:`GeneratedDynamics`: the generated C of ``soagen generate SYSTEM``
  (closed_chain_forward_dynamics, closure_constraints, gravity_torques: Lilly-Orin Table 1
  unrolled), compiled and called through ctypes.

The closure equations hold only at the acceleration level in the dynamics, so the
numerical solution drifts off the constraint manifold. Stabilization, one of:

* ``projection`` (default): after every RK4 step the positions are projected back onto
  the holonomic closure (Gauss-Newton, minimum-norm correction of (q, X(C))) and the
  velocities onto the null space of the velocity constraints (minimum-norm).
* ``baumgarte``: the closure is imposed as c'' + 2 w c' + w^2 c = 0 (critically damped,
  w = ``omega_b``, default 50 rad/s): corr = -2 w c' - w^2 c.
* ``none``: plain RK4, for measuring the drift.

Joint torques, computed once per step and held over it (zero-order hold, as a digital
controller running at 1/dt): ``pd`` (the default) holds the start. Gravity compensation of the arms' own
weight (gravity_torques) and of the object's, carried through the grasps: f = phi^c lam
with the minimum-norm lam that balances the object's weight wrench, -G_X^T lam = A^T f =
-W (2.9) (in the least-squares sense if the grasps leave the object a free motion),
added as J^T f = G_q^T lam; plus PD about the start with gains scaled by the
diagonal of each arm's mass matrix there, kp = w_c^2 M_jj, kd = 2 w_c M_jj (w_c = 10
rad/s), so that light wrist joints do not make the equations stiff for an explicit
integrator; plus PD on the object's pose (position and orientation) about its start,
F = Lambda(C) (w_c^2 e - 2 w_c V(C)), carried through the grasps like its weight. The
joint gains alone, scaled by each arm's own inertia, leave the object's motion almost
undamped (the object's inertia dwarfs a wrist's): the dual-arm box kept oscillating by 4
degrees. Lambda(C) = M(C) + G_X^T (G_q M^-1 G_q^T)^-1 G_X at the start is the inertia the
object's motion meets, its own and the arms' it drags along (the closed chain's kinetic
energy minimized over the arm rates that keep the closure), so every object mode is
critically damped at w_c. At rest at a closed state this gives zero accelerations.
``zero``: no torques."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY
from soagen.closed_chain.consistent import closure_residual, solve_closure, world_basis
from soagen.closed_chain.context import Context
from soagen.closed_chain.forward import forward_dynamics
from soagen.codegen.closed_chain import (
    CONSTRAINTS,
    GRAVITY,
    NAME,
    constraint_count,
    gravity_torques,
    render,
)
from soagen.errors import SoagenError
from soagen.simulation.robot import CONTROLLERS
from soagen.spatial import (
    cross,
    quaternion_from_rotation,
    quaternion_rate,
    quaternion_rotation,
    rotation_log,
    spatial_inertia,
)
from soagen.tolerances import GRASP_SPACE

STABILIZATION = ("projection", "baumgarte", "none")
BACKENDS = ("generated", "numpy")


@dataclass
class Trajectory:
    t: np.ndarray
    q: np.ndarray          # steps x n
    qd: np.ndarray
    p_C: np.ndarray        # steps x 3
    quat_C: np.ndarray     # steps x 4 (x, y, z, w)
    V_C: np.ndarray        # steps x 6
    stabilization: str
    method: str
    violation: np.ndarray  # steps x 4: max closure error [m], [rad]; velocity violation [m/s], [rad/s]

    @property
    def err_pos(self):
        """max |closure error| over the holonomic directions, per step."""
        return self.violation[:, :2].max(axis=1)

    @property
    def err_vel(self):
        """max |velocity constraint violation|, per step."""
        return self.violation[:, 2:].max(axis=1)


def unpack(x, n):
    """The parts of a state (or of states along the last axis): q, qd (n each), p_C (3),
    the quaternion of X(C) (4), V(C) (6)."""
    return x[..., :n], x[..., n:2 * n], x[..., 2 * n:2 * n + 3], x[..., 2 * n + 3:2 * n + 7], x[..., 2 * n + 7:]


def constraint_rows(system):
    """Per constraint direction (the rows of closure_constraints): (holonomic, angular) as
    two boolean arrays; a direction is angular when it has no linear part. Both are
    rotation-invariant, so the grasp-frame directions (R = I) stand for the world ones."""
    holo, ang = [], []
    for a in system.arms:
        g = a.grasp
        cols = world_basis(g.phic, np.eye(3))
        hol = cols if g.n_c == 6 else g.holonomic         # six constraints: all hold in position
        for c in cols.T:
            holo.append(any(np.allclose(c, h) for h in hol.T))
            ang.append(bool(np.abs(c[3:]).max() < GRASP_SPACE))
    return np.array(holo), np.array(ang)


class NumpyDynamics:
    """The generic methods of :mod:`soagen.closed_chain.forward` (see the module doc)."""

    def __init__(self, system, method="rccfd1"):
        self.system, self.method = system, method

    def accelerations(self, q, qd, tau, p, quat, V, corr):
        """(qdd, alpha(C)) at the state (q, qd; the object at p_C, quat with V(C)) under
        tau; ``corr`` flat over the constraint directions, or None."""
        if corr is not None:
            corr = np.split(corr, np.cumsum([a.grasp.n_c for a in self.system.arms])[:-1])
        r = forward_dynamics(self.system, q, qd, tau, self.method, (quaternion_rotation(quat), None), V,
                             correction=corr)
        return r.qdd_all, r.alpha_C

    def constraints(self, q, p, quat):
        """(c, G): closure errors and velocity constraints, all constraint directions."""
        return closure_residual(self.system, q, quaternion_rotation(quat), p, holonomic=False)

    def gravity(self, q):
        return gravity_torques(self.system, q, NUMPY)


class GeneratedDynamics:
    """The generated, compiled closed_chain_forward_dynamics, closure_constraints and
    gravity_torques of ``lib`` (a :class:`~soagen.codegen.compile.CLibrary`), called on
    buffers bound once."""

    method = "lilly_orin (generated C)"

    def __init__(self, system, lib):
        have = lib.manifest["functions"]
        want = {NAME: ["q", "qd", "tau", "obj", "corr"], CONSTRAINTS: ["q", "pose"], GRAVITY: ["q"]}
        if any(have.get(k, {}).get("inputs") != v for k, v in want.items()) or lib.manifest.get("n") != system.n:
            raise SoagenError(f"{system.name}: the generated code does not fit (it needs {', '.join(want)} "
                              f"of soagen generate for this system)")
        n, m = system.n, constraint_count(system)
        self.system, self.n, self.m = system, n, m
        self.q, self.qd, self.tau, self.obj, self.corr, self.pose = (np.zeros(k) for k in (n, n, n, 10, m, 7))
        self.out, self.cons, self.grav = np.zeros(n + 6 + 6 * system.l), np.zeros((m, n + 7)), np.zeros(n)
        self._fd = lib.bound(NAME, self.q, self.qd, self.tau, self.obj, self.corr, self.out)
        self._cons = lib.bound(CONSTRAINTS, self.q, self.pose, self.cons)
        self._grav = lib.bound(GRAVITY, self.q, self.grav)

    @classmethod
    def for_system(cls, system, system_file=None, code=None, announce=None):
        """From the generated code in the folder ``code`` (its manifest must name this
        system file's SHA-256), else from the compiled-code cache (generated on a miss,
        after ``announce()``)."""
        from soagen.codegen import cache

        if code is not None:
            return cls(system, cache.from_folder(code, source=system_file))
        files = [system_file] if system_file else []
        files += sorted({a.robot.source for a in system.arms if a.robot.source})
        lib = cache.compiled(system.name, files, {"kind": "system"},
                             lambda: render(system, system_file, langs=("c",)), announce=announce)
        return cls(system, lib)

    def accelerations(self, q, qd, tau, p, quat, V, corr):
        self.q[:], self.qd[:], self.tau[:], self.obj[:4], self.obj[4:] = q, qd, tau, quat, V
        self.corr[:] = 0.0 if corr is None else corr
        self._fd()
        return self.out[:self.n].copy(), self.out[self.n:self.n + 6].copy()

    def constraints(self, q, p, quat):
        self.q[:], self.pose[:3], self.pose[3:] = q, p, quat
        self._cons()
        return self.cons[:, 0].copy(), self.cons[:, 1:].copy()

    def gravity(self, q):
        self.q[:] = q
        self._grav()
        return self.grav.copy()


class Simulator:
    """RK4 with stabilization for one system; ``run`` returns a :class:`Trajectory`.
    ``dynamics``: a :class:`NumpyDynamics` (the default, with ``method``) or a
    :class:`GeneratedDynamics`."""

    def __init__(self, system, method="rccfd1", stabilization="projection", controller="pd",
                 omega_c=10.0, omega_b=50.0, dynamics=None):
        if stabilization not in STABILIZATION:
            raise SoagenError(f"unknown stabilization {stabilization!r} (choose from {', '.join(STABILIZATION)})")
        if controller not in CONTROLLERS:
            raise SoagenError(f"unknown controller {controller!r} (choose from {', '.join(CONTROLLERS)})")
        self.system, self.stab, self.controller = system, stabilization, controller
        self.dynamics = dynamics or NumpyDynamics(system, method)
        self.method = self.dynamics.method
        self.omega_c, self.omega_b = omega_c, omega_b
        self.n = system.n
        self.holonomic, self.angular = constraint_rows(system)
        self.q_ref = None

    def object_weight(self, quat):
        """The object's weight as a wrench at C (moment, force), world."""
        o, g = self.system.obj, self.system.gravity
        moment = cross(quaternion_rotation(quat) @ o.com, o.mass * g) if o.com.any() else np.zeros(3)
        return np.concatenate([moment, o.mass * g])

    def torque(self, x, G):
        """Hold (see the module doc): arm and object gravity compensation plus PD at the
        state x (G: its velocity constraints); or zero."""
        n = self.n
        if self.controller == "zero":
            return np.zeros(n)
        q, qd, p, quat, V = unpack(x, n)
        Gq, GX = G[:, :n], G[:, n:]
        W = self.object_weight(quat) - self.object_pd(p, quat, V)     # what the grasps must balance
        try:                                               # GX^T lam = W, minimum norm
            lam = GX @ np.linalg.solve(GX.T @ GX, W)
        except np.linalg.LinAlgError:                      # the grasps leave the object a free motion
            lam = np.linalg.lstsq(GX.T, W, rcond=None)[0]
        return self.dynamics.gravity(q) + Gq.T @ lam + self.kp * (self.q_ref - q) - self.kd * qd

    def object_pd(self, p, quat, V):
        """The wrench (moment, force) at C, world, that holds the object at its start pose:
        Lambda(C) (w_c^2 e - 2 w_c V(C)), e = (log(R_ref R^T), p_ref - p)."""
        R_ref, p_ref = self.pose_ref
        e = np.concatenate([rotation_log(R_ref @ quaternion_rotation(quat).T), p_ref - p])
        w = self.omega_c
        return self.Lambda_C @ (w * w * e - 2 * w * V)

    def held_inertia(self, q, quat, G):
        """Lambda(C) = M(C) + G_X^T (G_q M^-1 G_q^T)^-1 G_X (world, about C, (omega, v)
        order): the inertia the object's motion meets at the state, its own and that of
        the arms it drags along through the grasps."""
        from soagen import algorithms as alg

        s, n = self.system, self.n
        Minv = np.zeros((n, n))
        for k, a, qi in zip(s.offsets(), s.arms, s.split(q)):
            Minv[k:k + a.n, k:k + a.n] = alg.inverse_mass_matrix(a.robot, qi)
        Gq, GX = G[:, :n], G[:, n:]
        R, o = quaternion_rotation(quat), s.obj
        M_C = spatial_inertia(o.mass, R @ o.com, R @ o.inertia @ R.T)
        return M_C + GX.T @ np.linalg.pinv(Gq @ Minv @ Gq.T, hermitian=True) @ GX

    def derivative(self, x, tau, cG=None):
        """d/dt of the state x under the joint torques tau (``cG``: the constraints at x,
        if already evaluated)."""
        q, qd, p, quat, V = unpack(x, self.n)
        quat = quat / np.sqrt(quat @ quat)                  # RK4's inner stages leave the sphere
        corr = None
        if self.stab == "baumgarte":
            c, G = cG or self.dynamics.constraints(q, p, quat)
            w = self.omega_b
            corr = -2 * w * (G @ np.concatenate([qd, V])) - w * w * c       # c'' + 2w c' + w^2 c = 0
        qdd, alpha_C = self.dynamics.accelerations(q, qd, tau, p, quat, V, corr)
        return np.concatenate([qd, qdd, V[3:], quaternion_rate(quat, V[:3]), alpha_C])

    def constraints(self, x):
        q, _, p, quat, _ = unpack(x, self.n)
        return self.dynamics.constraints(q, p, quat)

    def violations(self, X, cGs):
        """Per state of X (states along the first axis) with its constraints ``cGs``: the
        maxima of the position error over the holonomic directions and of the velocity
        violation, linear and angular: [m], [rad], [m/s], [rad/s] (steps x 4)."""
        _, qd, _, _, V = unpack(X, self.n)
        c = np.abs(np.array([cg[0] for cg in cGs]))[:, self.holonomic]
        cd = np.abs(np.einsum("kij,kj->ki", np.array([cg[1] for cg in cGs]), np.hstack([qd, V])))
        ang = self.angular[self.holonomic]
        parts = [c[:, ~ang], c[:, ang], cd[:, ~self.angular], cd[:, self.angular]]
        return np.column_stack([p.max(axis=1) if p.shape[1] else np.zeros(len(X)) for p in parts])

    def project(self, x):
        """x projected on the closure (positions by Gauss-Newton, velocities minimum-norm),
        and the constraints there."""
        n, hol = self.n, self.holonomic
        q, qd, p, quat, V = unpack(x, n)
        last = []

        def residual(q, R, p):
            last[:] = self.dynamics.constraints(q, p, quaternion_from_rotation(R))
            return last[0][hol], last[1][hol]
        q, R, p = solve_closure(self.system, q, quaternion_rotation(quat), p, residual=residual)
        c, G = last
        u = np.concatenate([qd, V])
        try:                                               # u - G^+ G u, G of full row rank
            u = u - G.T @ np.linalg.solve(G @ G.T, G @ u)
        except np.linalg.LinAlgError:
            u = u - np.linalg.pinv(G) @ (G @ u)
        return np.concatenate([q, u[:n], p, quaternion_from_rotation(R), u[n:]]), (c, G)

    def initial_state(self, seed=0, speed=0.5):
        s = self.system
        q, qd, _ = s.consistent_state(seed, speed=speed)
        ctx = Context(s, q, qd, np.zeros(s.n))
        self.q_ref = q.copy()
        from soagen import algorithms as alg
        m = np.concatenate([np.diag(alg.mass_matrix(a.robot, qi)) for a, qi in zip(s.arms, s.split(q))])
        self.kp, self.kd = self.omega_c ** 2 * m, 2 * self.omega_c * m
        x = np.concatenate([q, qd, ctx.p_C, quaternion_from_rotation(ctx.R_C), ctx.V_C])
        self.pose_ref = (ctx.R_C.copy(), ctx.p_C.copy())
        self.Lambda_C = self.held_inertia(q, unpack(x, s.n)[3], self.constraints(x)[1])
        return x

    def step(self, x, dt, cG):
        """One RK4 step from x (``cG``: the constraints at x) with the torques held over
        the step, the quaternion normalized, the projection if chosen; the new state and
        the constraints there."""
        tau = self.torque(x, cG[1])
        k1 = self.derivative(x, tau, cG)
        k2 = self.derivative(x + dt / 2 * k1, tau)
        k3 = self.derivative(x + dt / 2 * k2, tau)
        k4 = self.derivative(x + dt * k3, tau)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        quat = unpack(x, self.n)[3]                 # a view: normalized in place
        quat /= np.sqrt(quat @ quat)
        if self.stab == "projection":
            return self.project(x)
        return x, self.constraints(x)

    def run(self, duration, dt, seed=0, speed=0.5, progress=None):
        if not (dt > 0 and duration > 0):
            raise SoagenError("duration and dt must be positive")
        steps = int(round(duration / dt))
        x = self.initial_state(seed, speed)
        cG = self.constraints(x)
        rows, cGs = [x], [cG]
        start = time.perf_counter()
        for k in range(steps):
            x, cG = self.step(x, dt, cG)
            rows.append(x)
            cGs.append(cG)
            if progress is not None:
                progress(k + 1, steps)
        self.steps_per_second = steps / (time.perf_counter() - start)
        X = np.array(rows)
        return Trajectory(np.arange(steps + 1) * dt, *unpack(X, self.n), self.stab, self.method,
                          self.violations(X, cGs))


def simulate(system, duration=1.0, dt=2e-3, method="rccfd1", stabilization="projection",
             controller="pd", seed=0, progress=None, dynamics=None):
    """Integrate ``system`` from ``system.consistent_state(seed)``; see the module doc."""
    return Simulator(system, method, stabilization, controller, dynamics=dynamics).run(
        duration, dt, seed, progress=progress)
