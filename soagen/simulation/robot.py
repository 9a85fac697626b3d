"""Simulation of one robot (open chain or tree, fixed or floating base): RK4 on (q, v)
under a joint torque law, on the generic numpy algorithms or on the generated, compiled
code (``soagen simulate ROBOT``; closed-chain systems are
:mod:`soagen.simulation.closed_chain`).

Per stage the forward dynamics qdd(q, v, tau) is evaluated by one of two dynamics with the
same two operations, forward dynamics and the gravity torques g(q) = C(q, 0) (3.23):
:class:`NumpyRobotDynamics` (:mod:`soagen.algorithms`) or :class:`GeneratedRobotDynamics`
(the generated forward_dynamics and bias_forces, compiled, called through ctypes).

Configuration: spherical and free joints are integrated on their manifold (q (+) h v,
:func:`soagen.quaternion.integrate`); each RK4 stage starts from q moved by the stage's
velocity, the classical RK4 on the vector-space joints.

Joint torques, computed once per step and held over it (zero-order hold, as a digital
controller at 1/dt): ``pd`` (the default) holds the start: gravity compensation plus PD
about the start on every actuated dof a,

    tau_a = g_a(q_j, eta_s) + K_p e_a - K_d v_a,   K_p = w_c^2 M_a,  K_d = 2 w_c M_a,  w_c = 10 rad/s,

with e = q_ref (-) q the position error on the manifold
(:func:`soagen.quaternion.difference`: a spherical joint's rotation vector, a free
joint's body twist), g(q) = C(q, 0) the gravity torques (3.23) taken at the joint
coordinates q_j of the current state and at the elastic coordinates eta_s of the static
equilibrium of the start (:func:`soagen.simulation.elastic.static_equilibrium`; a robot
without elastic coordinates: g(q) itself), and M_a the inertia the actuated dofs move
when the other joint dofs move freely and the elastic coordinates are frozen (the links
rigid): M_a = ((M_rr^-1)_aa)^-1 at the start, r the non-elastic dofs (all of M for a
rigid robot on a fixed or held base). Every mode of the linearized rigid loop is then
critically damped at w_c: none is faster (light wrist joints do not make the equations
stiff for the explicit integrator) and none slower (a diagonal of such gains, per joint,
left a humanoid's hips and base swinging for seconds). K_d is capped where a damper held
over a step would overshoot on a light flexible link's hub (:meth:`RobotSimulator._damping_gain`;
never for a rigid robot). ``zero``: no torques (the robot falls).

Why the elastic coordinates are frozen in both: the torques then depend on the joint
coordinates and rates alone (collocated control), and the closed loop is conservative
plus dissipative: g_a(q_j, eta_s) is the gradient in q_j of U(q_j, eta_s), so
V = T + U(q) - U(q_j, eta_s) + 1/2 e^T K_p e (U: gravity and elastic energy) has
dV/dt = -v_a^T K_d v_a - damping <= 0 and its minimum at the held start with the
links in their static shape (De Luca and Siciliano, "Regulation of flexible arms under
gravity", IEEE Trans. Robotics and Automation 9(4), 1993). Fed back at the current
eta, g_a removes the joints' share of a potential whose modal share stays: a force that
is no gradient, which pumped energy into flexarm2's modes until its shoulder drifted by
1 rad (measured before this rule); and the inertia with the modes free, M_a of the hub
alone, gave gains 30-400 times too soft to hold its links.

A floating robot (a free joint at the root) has two settings of ``base``:

* ``held`` (the default): a fixture holds the base at its start pose, as a test stand
  holds a legged robot: the free joint is actuated like the joints, its g(q) the whole
  robot's weight, so the base stays put while the joints settle;
* ``free``: the free joint is not actuated and nothing compensates gravity (g(q) would
  need the missing support; in free fall the shape needs none): the robot falls as one
  body while the PD holds its joints.

The base starts at rest in both; the random initial rates are the joints'.

The start (:meth:`RobotSimulator.start`) is either given (q0, v0) or random
(:meth:`RobotSimulator.initial_state`): near the neutral configuration, with the elastic
coordinates at the static equilibrium of that pose held (the links sag as they do when
held there, so a held robot starts at rest in its own shape), and random joint rates.

Each step also integrates the work of the joint torques, tau . v, and of the damping of
the elastic forces, with RK4's weights on its stage velocities: W_tau(t) + W_d(t) =
E(t) - E(0) up to the integrator's error (:class:`soagen.simulation.elastic.EnergyBalance`)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from soagen.errors import SoagenError
from soagen.simulation.elastic import (
    damping_matrix,
    elastic_mask,
    q_positions,
    static_equilibrium,
)

CONTROLLERS = ("pd", "zero")
BASES = ("held", "free")


@dataclass
class RobotTrajectory:
    t: np.ndarray
    q: np.ndarray          # steps x nq
    v: np.ndarray          # steps x nv
    tau: np.ndarray        # steps x nv, the torque held over the step from each state
    method: str
    base: str | None = None    # a floating robot's base: "held" or "free"; None: fixed base
    work_tau: np.ndarray = None        # steps: the work of the joint torques since the start [J]
    work_damping: np.ndarray = None    # steps: the work of the elastic forces' damping [J], <= 0
    q_static: np.ndarray = None        # the start with its elastic coordinates in static equilibrium


LOOP_BAUMGARTE = 50.0
"""w (rad/s) of the Baumgarte term that holds a robot with loop closures on them: the
closure errors obey e'' + 2 w e' + w^2 e = 0 (critically damped), fast against the motion
and slow against the RK4 step (w dt = 0.1 at the default 2 ms)."""


class NumpyRobotDynamics:
    """The generic algorithms (forward dynamics by ``method``, FD1-FD4; a robot with loop
    closures: the closed system's, :func:`soagen.algorithms.loop_forward_dynamics`, held on
    its closures by the Baumgarte term :data:`LOOP_BAUMGARTE`)."""

    def __init__(self, robot, method="fd1"):
        self.robot, self.method = robot, method if not robot.closures else "loops (framework (3.11)-(3.12))"

    def forward_dynamics(self, q, v, tau):
        from soagen import algorithms as alg

        if self.robot.closures:
            return alg.loop_forward_dynamics(self.robot, q, v, tau, baumgarte=LOOP_BAUMGARTE)
        return alg.forward_dynamics(self.robot, q, v, tau, method=self.method)

    def gravity(self, q):
        from soagen import algorithms as alg

        return alg.bias_forces(self.robot, q, np.zeros(self.robot.nv))


class GeneratedRobotDynamics:
    """The generated, compiled forward_dynamics and bias_forces of ``lib`` (a
    :class:`~soagen.codegen.compile.CLibrary`), called on buffers bound once."""

    method = "generated C"

    def __init__(self, robot, lib):
        if robot.closures:
            raise SoagenError(f"{robot.name}: the generated forward dynamics is the open tree's; a robot with "
                              "loop closures is simulated with the generic algorithms (--backend numpy)")
        have = lib.manifest["functions"]
        if (have.get("forward_dynamics", {}).get("inputs") != ["q", "qd", "tau"] or "bias_forces" not in have
                or lib.manifest.get("nq") != robot.nq or lib.manifest.get("nv") != robot.nv):
            raise SoagenError(f"{robot.name}: the generated code does not fit (it needs forward_dynamics and "
                              "bias_forces of soagen generate for this robot, without --symbolic-params)")
        self.robot = robot
        self.q, self.v, self.tau, self.zero = np.zeros(robot.nq), np.zeros(robot.nv), np.zeros(robot.nv), \
            np.zeros(robot.nv)
        self.qdd, self.g = np.zeros(robot.nv), np.zeros(robot.nv)
        self._fd = lib.bound("forward_dynamics", self.q, self.v, self.tau, self.qdd)
        self._g = lib.bound("bias_forces", self.q, self.zero, self.g)

    @classmethod
    def for_robot(cls, robot, robot_file, options=None, code=None, announce=None):
        """From the generated code in the folder ``code`` (its manifest must name this
        robot file's SHA-256), else from the compiled-code cache (generated on a miss,
        after ``announce()``);
        ``options``: what the model was loaded with (tip, floating base, locks)."""
        from soagen.codegen import cache

        if code is not None:
            return cls(robot, cache.from_folder(code, source=robot_file))
        from soagen.codegen.robot import render

        lib = cache.compiled(robot.name, [robot_file], {"kind": "robot", **(options or {})},
                             lambda: render(robot, robot_file, algorithms=["bias_forces", "forward_dynamics"],
                                            langs=("c",)), announce=announce)
        return cls(robot, lib)

    def forward_dynamics(self, q, v, tau):
        self.q[:], self.v[:], self.tau[:] = q, v, tau
        self._fd()
        return self.qdd.copy()

    def gravity(self, q):
        self.q[:] = q
        self._g()
        return self.g.copy()


class RobotSimulator:
    """RK4 for one robot under a torque law; ``run`` returns a :class:`RobotTrajectory`."""

    def __init__(self, robot, controller="pd", dynamics=None, omega_c=10.0, base="held"):
        if controller not in CONTROLLERS:
            raise SoagenError(f"unknown controller {controller!r} (choose from {', '.join(CONTROLLERS)})")
        if base not in BASES:
            raise SoagenError(f"unknown base setting {base!r} (choose from {', '.join(BASES)})")
        self.robot, self.controller = robot, controller
        self.dynamics = dynamics or NumpyRobotDynamics(robot)
        self.method, self.omega_c = self.dynamics.method, omega_c
        free = [b.joint.kind == "free" for b in robot.bodies]
        passive = [not b.joint.actuated for b in robot.bodies]   # spring-damper joints: no torque
        self.base = (base if any(free) else None)
        held = self.base == "held"
        self.vector_space = all(b.joint.nv == 1 for b in robot.bodies)     # revolute, prismatic
        self.actuated = self._per_dof([(held or not f) and not p for f, p in zip(free, passive)])
        self.moving = self._per_dof([not f and not p for f, p in zip(free, passive)])   # random initial rates
        self.compensated = self.base != "free"                         # gravity compensation g(q)
        self.elastic = elastic_mask(robot)                             # modal coordinates, spring joints
        self.elastic_q = q_positions(robot, self.elastic)
        self.D = damping_matrix(robot)                                 # the damping's power: -v^T D v

    def _per_dof(self, flags):
        """A mask over v: each body's joint dofs set to its flag, its modal coordinates
        (a flexible body's) False: they are passive and start at rest."""
        return np.concatenate([np.concatenate([np.full(b.joint.nv, f), np.zeros(b.m, dtype=bool)])
                               for b, f in zip(self.robot.bodies, flags)])

    def random_state(self, seed=0, spread=0.3, speed=0.5):
        """(q, v) of the random start: the neutral configuration with the 1-dof joints
        moved by ``spread`` N(0, 1) rad (or m), the elastic coordinates 0, random joint
        velocities of size ``speed``."""
        rng = np.random.default_rng(seed)
        r = self.robot
        one_dof = np.concatenate([np.concatenate([np.full(b.joint.nq, b.joint.nv == 1 and b.joint.actuated),
                                                  np.zeros(b.m, dtype=bool)]) for b in r.bodies])
        q = r.neutral_configuration() + np.where(one_dof, spread * rng.standard_normal(r.nq), 0.0)
        return q, speed * rng.standard_normal(r.nv) * self.moving

    def initial_state(self, seed=0, spread=0.3, speed=0.5, dt=None, settle=True):
        """:meth:`start` at the random start (:meth:`random_state`), by default with the
        elastic coordinates in static equilibrium there."""
        return self.start(*self.random_state(seed, spread, speed), settle=settle, dt=dt)

    def start(self, q, v, settle=False, dt=None):
        """Start at (q, v) and set the controller up there (the module doc): ``q_static``
        is q with its elastic coordinates in static equilibrium (``settled``: whether one
        was found), the reference of the gravity compensation; with ``settle`` the run
        starts there. The start is the PD reference; K_p = w_c^2 M_a, K_d = 2 w_c M_a,
        K_d capped for the controller's step ``dt`` (:meth:`_damping_gain`). A robot with loop
        closures starts on them: (q, v) moved onto the closures first
        (:func:`soagen.algorithms.consistent_loop_state`)."""
        from soagen import algorithms as alg

        r = self.robot
        if r.closures:
            q, v = alg.consistent_loop_state(r, q, v)
        self.q_static, self.settled = static_equilibrium(r, self.dynamics.gravity, q)
        if not self.settled:
            self.q_static = np.array(q, dtype=float)
        self.q_ref = self.q_static.copy() if settle else np.array(q, dtype=float)
        a, e = self.actuated, self.elastic
        Minv = alg.inverse_mass_matrix(r, self.q_ref)
        rigid = Minv[np.ix_(~e, ~e)]
        if e.any():    # (M_rr)^-1: the Schur complement of the elastic block of M^-1
            rigid = rigid - Minv[np.ix_(~e, e)] @ np.linalg.solve(Minv[np.ix_(e, e)], Minv[np.ix_(e, ~e)])
        self.M_a = np.linalg.inv(rigid[np.ix_(a[~e], a[~e])])
        w = self.omega_c
        self.K_p = w * w * self.M_a
        self.K_d = self._damping_gain(2 * w * self.M_a, Minv[np.ix_(a, a)], dt)
        return self.q_ref.copy(), np.array(v, dtype=float)

    @staticmethod
    def _damping_gain(K_d, Minv_aa, dt):
        """K_d, scaled down where a zero-order-hold damper would overshoot: held over a
        step, -K_d v changes the rate of an inertia J by the factor 1 - K_d dt / J, which
        leaves the unit circle for K_d dt / J > 2; J is what the actuated dofs move at the
        step's time scale, the hub alone with the modes free ((M^-1)_aa), so the largest
        eigenvalue lam of (M^-1)_aa K_d is held to lam dt <= 1. Binds only for flexible links
        on light hubs (lam = 2 w_c for a rigid robot)."""
        if dt is None:
            return K_d
        lam = np.linalg.eigvals(Minv_aa @ K_d).real.max()
        return K_d / (lam * dt) if lam * dt > 1 else K_d

    def torque(self, q, v):
        if self.controller == "zero":
            return np.zeros(self.robot.nv)
        a = self.actuated
        tau = self.dynamics.gravity(self.frozen(q)) if self.compensated else np.zeros(self.robot.nv)
        tau[a] += self.K_p @ self.error(q)[a] - self.K_d @ v[a]
        return tau * a

    def frozen(self, q):
        """q with its elastic coordinates at their static equilibrium of the start (the
        state the gravity compensation is computed at; q itself for a rigid robot)."""
        if not len(self.elastic_q):
            return q
        q = q.copy()
        q[self.elastic_q] = self.q_static[self.elastic_q]
        return q

    def power(self, v, tau):
        """(tau . v, the damping's power -v^T D v) at one state: what the work integrals add up."""
        return float(tau @ v), -float(v @ self.D @ v)

    def error(self, q):
        """q_ref (-) q, per dof: the PD's position error (on the manifold for
        quaternions: :func:`soagen.quaternion.difference`)."""
        if self.vector_space:
            return self.q_ref - q
        from soagen.quaternion import difference
        return difference(self.robot, q, self.q_ref)

    def moved(self, q, dq):
        """q (+) dq: q + dq on vector-space joints, on the manifold otherwise."""
        if self.vector_space:
            return q + dq
        from soagen.quaternion import integrate
        return integrate(self.robot, q, dq)

    def step(self, q, v, dt, tau):
        """One RK4 step under the torque ``tau``: (q, v) after it and the work of the
        torques and of the damping over it (RK4's weights on the stage powers)."""
        fd = self.dynamics.forward_dynamics
        a1 = fd(q, v, tau)
        v2 = v + dt / 2 * a1
        q2 = self.moved(q, dt / 2 * v)
        a2 = fd(q2, v2, tau)
        v3 = v + dt / 2 * a2
        q3 = self.moved(q, dt / 2 * v2)
        a3 = fd(q3, v3, tau)
        v4 = v + dt * a3
        q4 = self.moved(q, dt * v3)
        a4 = fd(q4, v4, tau)
        p = [self.power(vs, tau) for vs in (v, v2, v3, v4)]
        work = [dt / 6 * (p[0][k] + 2 * p[1][k] + 2 * p[2][k] + p[3][k]) for k in (0, 1)]
        return (self.moved(q, dt / 6 * (v + 2 * v2 + 2 * v3 + v4)),
                v + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4), work)

    def run(self, duration, dt, seed=0, speed=0.5, progress=None, start=None, settle=None):
        """Integrate over ``duration`` at steps of ``dt`` from ``start`` = (q0, v0), or by
        default from the random start of ``seed`` and ``speed`` (:meth:`initial_state`);
        ``settle``: start the elastic coordinates in static equilibrium (default: for the
        random start only)."""
        if not (dt > 0 and duration > 0):
            raise SoagenError("duration and dt must be positive")
        steps = int(round(duration / dt))
        if start is None:
            q, v = self.initial_state(seed, speed=speed, dt=dt, settle=settle is not False)
        else:
            q, v = self.start(*start, settle=bool(settle), dt=dt)
        qs, vs, taus, works = [q], [v], [], [np.zeros(2)]
        t0 = time.perf_counter()
        for k in range(steps):
            tau = self.torque(q, v)
            q, v, work = self.step(q, v, dt, tau)
            qs.append(q)
            vs.append(v)
            taus.append(tau)
            works.append(works[-1] + work)
            if progress is not None:
                progress(k + 1, steps)
        self.steps_per_second = steps / (time.perf_counter() - t0)
        taus.append(self.torque(q, v))
        W = np.array(works)
        return RobotTrajectory(np.arange(steps + 1) * dt, np.array(qs), np.array(vs), np.array(taus), self.method,
                               self.base, W[:, 0], W[:, 1], self.q_static)


def stable_step(robot, q):
    """The largest RK4 step for a robot with passive forces (flexible links, joint springs
    and dampers): RK4 is stable for |lambda dt| < 2.8, lambda the eigenvalue of largest
    modulus of the linearized system at q, x' = [[0, I], [-M^-1 K, -M^-1 C]] x (for an
    undamped or lightly damped mode |lambda| is its frequency omega; a stiff damper's rate
    d / M is what limits the step of a damped joint with little inertia). None without them."""
    from soagen import algorithms as alg
    from soagen.dynamics.elastic import has_elastic_forces

    if not has_elastic_forces(robot):
        return None
    n = robot.nv
    K, C = np.zeros((n, n)), np.zeros((n, n))
    for i, b in enumerate(robot.bodies):
        if b.m:
            s = robot.modal_v_slice(i)
            K[s, s], C[s, s] = b.flex.K, b.flex.C
        s = robot.joint_v_slice(i)
        K[s, s] += b.joint.stiffness * np.eye(b.joint.nv) * (b.joint.nv == 1)
        C[s, s] += b.joint.damping * np.eye(b.joint.nv)
    Minv = np.linalg.inv(alg.mass_matrix(robot, q))
    A = np.block([[np.zeros((n, n)), np.eye(n)], [-Minv @ K, -Minv @ C]])
    lam = np.abs(np.linalg.eigvals(A)).max()
    return 2.8 / lam if lam > 0 else None


def energies(robot, traj):
    """(T, U) at every step of ``traj`` (numpy): kinetic and potential energy (gravity and
    elastic), whose sum an undamped, unactuated robot conserves."""
    from soagen import algorithms as alg

    return np.array([alg.energy(robot, q, v) for q, v in zip(traj.q, traj.v)]).T


def frame_positions(robot, Q, frames):
    """World positions of ``frames`` at each q of Q (steps x frames x 3)."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses

    out = []
    for q in Q:
        poses = world_poses(robot, link_transforms(robot, q, NUMPY))
        out.append([frame_pose(robot, poses, f, q)[1] for f in frames])
    return np.array(out).reshape(len(Q), len(frames), 3)


def tip_positions(robot, Q):
    """World position of the tip frame (or of the last body's origin) at each q of Q."""
    from soagen.model import Frame

    tip = robot.tip or Frame(robot.bodies[-1].name, robot.nb - 1, np.eye(3), np.zeros(3))
    return frame_positions(robot, Q, [tip])[:, 0]


def q_names(robot):
    """A name per entry of q: the joint name, with [i] for multi-dof joints."""
    return [n for b in robot.bodies for n in
            [b.joint_name if b.joint.nq == 1 else f"{b.joint_name}[{i}]" for i in range(b.joint.nq)]
            + [f"{b.name}.eta[{m}]" for m in (b.flex.names if b.m else ())]]


def write_trajectory_files(out_dir, arrays, columns, rows):
    """trajectory.npz (the named ``arrays``) and trajectory.csv (``rows``, one per step,
    under the header ``columns``) in ``out_dir`` (an existing directory); the written paths."""
    from pathlib import Path

    out = Path(out_dir)
    npz, csv = out / "trajectory.npz", out / "trajectory.csv"
    np.savez(npz, **arrays)
    np.savetxt(csv, rows, delimiter=",", header=",".join(columns), comments="", fmt="%.10g")
    return [npz, csv]


def write_robot_trajectory(traj, robot, out_dir, energy=None):
    """trajectory.npz and trajectory.csv in ``out_dir`` (an existing directory): per step
    the time t [s], q by joint name, the tip frame's world position [m], with ``energy``
    ((T, U) per step, :func:`energies`) the energies T, U, E = T + U and the work of the
    joint torques and of the damping W_tau, W_d [J] (E - E(0) = W_tau + W_d), and per
    flexible link its transverse tip deflection in its hub frame [m] (x, y, z and the
    magnitude; :mod:`soagen.simulation.elastic`). The npz holds the same (v and tau too)
    as arrays; the written paths."""
    from soagen.simulation.elastic import tip_deflections

    tip = tip_positions(robot, traj.q)
    columns = ["t"] + [f"q[{n}]" for n in q_names(robot)] + ["tip.x", "tip.y", "tip.z"]
    arrays = dict(t=traj.t, q=traj.q, v=traj.v, tau=traj.tau, tip=tip)
    data = [traj.t, traj.q, tip]
    if energy is not None:
        T, U = energy
        columns += ["T", "U", "E", "W_tau", "W_d"]
        arrays.update(T=T, U=U, E=T + U, W_tau=traj.work_tau, W_d=traj.work_damping)
        data += [T, U, T + U, traj.work_tau, traj.work_damping]
    for name, d in tip_deflections(robot, traj.q).items():
        columns += [f"{name}.deflection.{c}" for c in "xyz"] + [f"{name}.deflection"]
        arrays[f"deflection.{name}"] = d.transverse
        data += [d.transverse, d.magnitude]
    return write_trajectory_files(out_dir, arrays, columns, np.column_stack(data))
