"""Simulation of a closed-chain system: RK4 on (q, qd, X(C), V(C)) with constraint
stabilization, trajectory files and plots.

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
from pathlib import Path

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

STABILIZATION = ("projection", "baumgarte", "none")


def quat_to_R(x):
    x = x / np.linalg.norm(x)
    from soagen.spatial import quaternion_rotation
    return quaternion_rotation(x)


def R_to_quat(R):
    """Unit quaternion (x, y, z, w) of a rotation matrix (Shepperd's method), w >= 0."""
    t = np.trace(R)
    if t > 0:
        s = 2 * np.sqrt(1 + t)
        q = np.array([(R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s, s / 4])
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2 * np.sqrt(1 + R[i, i] - R[j, j] - R[k, k])
        q = np.zeros(4)
        q[i] = s / 4
        q[j] = (R[j, i] + R[i, j]) / s
        q[k] = (R[k, i] + R[i, k]) / s
        q[3] = (R[k, j] - R[j, k]) / s
    return q if q[3] >= 0 else -q


def quat_dot(x, w):
    """d/dt of the quaternion (x, y, z, w) for a world angular velocity w."""
    v, s = x[:3], x[3]
    return 0.5 * np.concatenate([s * w + np.cross(w, v), [-w @ v]])


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


class Simulator:
    """RK4 with stabilization for one system; ``run`` returns a :class:`Trajectory`."""

    def __init__(self, system, method="rccfd1", stabilization="projection", controller="pd",
                 omega_c=10.0, omega_b=50.0):
        if stabilization not in STABILIZATION:
            raise SoagenError(f"unknown stabilization {stabilization!r} (choose from {', '.join(STABILIZATION)})")
        if controller not in ("pd", "zero"):
            raise SoagenError(f"unknown controller {controller!r} (choose from pd, zero)")
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

    def derivative(self, x):
        s, n = self.system, self.system.n
        q, qd, p, quat, V = x[:n], x[n:2 * n], x[2 * n:2 * n + 3], x[2 * n + 3:2 * n + 7], x[2 * n + 7:]
        R = quat_to_R(quat)
        tau = self.torque(q, qd)
        corr = None
        if self.stab == "baumgarte":
            corr = self.baumgarte(q, qd, tau, R, p, V)
        r = forward_dynamics(s, q, qd, tau, self.method, (R, p), V, correction=corr)
        return np.concatenate([qd, r.qdd_all, V[3:], quat_dot(quat / np.linalg.norm(quat), V[:3]), r.alpha_C])

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
        s, n = self.system, self.system.n
        q, qd, p, quat, V = x[:n], x[n:2 * n], x[2 * n:2 * n + 3], x[2 * n + 3:2 * n + 7], x[2 * n + 7:]
        R = quat_to_R(quat)
        e, _, _ = closure_residual(s, q, R, p)
        G = velocity_constraints(s, q, R, p)
        return float(np.abs(e).max()), float(np.abs(G @ np.concatenate([qd, V])).max())

    def project(self, x):
        s, n = self.system, self.system.n
        q, p, quat = x[:n], x[2 * n:2 * n + 3], x[2 * n + 3:2 * n + 7]
        q, R, p = solve_closure(s, q, quat_to_R(quat), p)
        G = velocity_constraints(s, q, R, p)
        u = np.concatenate([x[n:2 * n], x[2 * n + 7:]])
        u = u - np.linalg.pinv(G) @ (G @ u)
        return np.concatenate([q, u[:n], p, R_to_quat(R), u[n:]])

    def initial_state(self, seed=0, speed=0.5):
        s = self.system
        q, qd, _ = s.consistent_state(seed, speed=speed)
        ctx = Context(s, q, qd, np.zeros(s.n))
        self.q_ref = q.copy()
        from soagen import algorithms as alg
        m = np.concatenate([np.diag(alg.mass_matrix(a.robot, qi)) for a, qi in zip(s.arms, s.split(q))])
        self.kp, self.kd = self.omega_c ** 2 * m, 2 * self.omega_c * m
        return np.concatenate([q, qd, ctx.p_C, R_to_quat(ctx.R_C), ctx.V_C])

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
            n = self.system.n
            x[2 * n + 3:2 * n + 7] /= np.linalg.norm(x[2 * n + 3:2 * n + 7])
            if self.stab == "projection":
                x = self.project(x)
            rows.append(x)
            errs.append(self.violation(x))
            if progress is not None:
                progress(k + 1, steps)
        X, E = np.array(rows), np.array(errs)
        n = self.system.n
        return Trajectory(np.arange(steps + 1) * dt, X[:, :n], X[:, n:2 * n], X[:, 2 * n:2 * n + 3],
                          X[:, 2 * n + 3:2 * n + 7], X[:, 2 * n + 7:], E[:, 0], E[:, 1], self.stab, self.method)


def simulate(system, duration=1.0, dt=2e-3, method="rccfd1", stabilization="projection",
             controller="pd", seed=0, progress=None):
    """Integrate ``system`` from ``system.consistent_state(seed)``; see the module doc."""
    return Simulator(system, method, stabilization, controller).run(duration, dt, seed, progress=progress)


def save(traj, system, out_dir):
    """trajectory.npz, trajectory.csv and three PNG plots (joint angles, object pose,
    constraint violation) in ``out_dir``; returns the written paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    np.savez(out / "trajectory.npz", t=traj.t, q=traj.q, qd=traj.qd, p_C=traj.p_C, quat_C=traj.quat_C,
             V_C=traj.V_C, err_pos=traj.err_pos, err_vel=traj.err_vel)
    paths.append(out / "trajectory.npz")
    names = [f"{a.name}.{b.joint_name}" for a in system.arms for b in a.robot.bodies]
    header = ",".join(["t"] + [f"q[{n}]" for n in names] + ["p_C.x", "p_C.y", "p_C.z", "quat_C.x", "quat_C.y",
                                                            "quat_C.z", "quat_C.w", "err_pos", "err_vel"])
    data = np.column_stack([traj.t, traj.q, traj.p_C, traj.quat_C, traj.err_pos, traj.err_vel])
    np.savetxt(out / "trajectory.csv", data, delimiter=",", header=header, comments="", fmt="%.10g")
    paths.append(out / "trajectory.csv")
    paths += plot(traj, system, out)
    return paths


def plot(traj, system, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    fig, axes = plt.subplots(system.l, 1, figsize=(7, 2.2 * system.l), sharex=True, squeeze=False)
    for ax, a, off in zip(axes[:, 0], system.arms, system.offsets()):
        for j, b in enumerate(a.robot.bodies):
            ax.plot(traj.t, traj.q[:, off + j], label=b.joint_name)
        ax.set_ylabel(f"{a.name} [rad]")
        ax.legend(fontsize=6, ncol=3, loc="upper right")
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(f"{system.name}: joint angles")
    fig.tight_layout()
    fig.savefig(out / "joint_angles.png", dpi=100)
    plt.close(fig)
    paths.append(out / "joint_angles.png")

    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    for i, c in enumerate("xyz"):
        a1.plot(traj.t, traj.p_C[:, i], label=f"p_C.{c}")
    for i, c in enumerate("xyzw"):
        a2.plot(traj.t, traj.quat_C[:, i], label=f"quat.{c}")
    a1.set_ylabel("position [m]")
    a2.set_ylabel("orientation (quaternion)")
    a2.set_xlabel("t [s]")
    a1.legend(fontsize=7)
    a2.legend(fontsize=7)
    fig.suptitle(f"{system.name}: object pose (frame C)")
    fig.tight_layout()
    fig.savefig(out / "object_pose.png", dpi=100)
    plt.close(fig)
    paths.append(out / "object_pose.png")

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.semilogy(traj.t, np.maximum(traj.err_pos, 1e-17), label="position (closure error)")
    ax.semilogy(traj.t, np.maximum(traj.err_vel, 1e-17), label="velocity")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("max |violation|")
    ax.set_title(f"{system.name}: constraint violation ({traj.stabilization})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "constraint_violation.png", dpi=100)
    plt.close(fig)
    paths.append(out / "constraint_violation.png")
    return paths
