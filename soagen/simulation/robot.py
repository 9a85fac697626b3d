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
controller at 1/dt): ``pd`` (the default) holds the start: gravity compensation g(q)
plus PD about the start on every actuated dof a,

    tau_a = M_a (w_c^2 e_a - 2 w_c v_a),   M_a = ((M^-1)_aa)^-1 at the start, w_c = 10 rad/s,

with e = q_ref (-) q the position error on the manifold
(:func:`soagen.quaternion.difference`: a spherical joint's rotation vector, a free
joint's body twist). M_a is the inertia the actuated dofs move while the others move
freely (all of M for a fixed or held base), so every mode of the linearized loop is
critically damped at w_c: none is faster (light wrist joints do not make the equations
stiff for the explicit integrator) and none slower (a diagonal of such gains, per joint,
left a humanoid's hips and base swinging for seconds). ``zero``: no torques (the robot
falls).

A floating robot (a free joint at the root) has two settings of ``base``:

* ``held`` (the default): a fixture holds the base at its start pose, as a test stand
  holds a legged robot: the free joint is actuated like the joints, its g(q) the whole
  robot's weight, so the base stays put while the joints settle;
* ``free``: the free joint is not actuated and nothing compensates gravity (g(q) would
  need the missing support; in free fall the shape needs none): the robot falls as one
  body while the PD holds its joints.

The base starts at rest in both; the random initial rates are the joints'."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from soagen.errors import SoagenError

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

    def _per_dof(self, flags):
        """A mask over v: each body's joint dofs set to its flag, its modal coordinates
        (a flexible body's) False: they are passive and start at rest."""
        return np.concatenate([np.concatenate([np.full(b.joint.nv, f), np.zeros(b.m, dtype=bool)])
                               for b, f in zip(self.robot.bodies, flags)])

    def initial_state(self, seed=0, spread=0.3, speed=0.5):
        """The neutral configuration with the 1-dof joints moved by ``spread`` N(0, 1) rad
        (or m), random joint velocities of size ``speed``; the start is also the PD
        reference, and M_a there its gain (see the module doc)."""
        from soagen import algorithms as alg

        rng = np.random.default_rng(seed)
        r = self.robot
        one_dof = np.concatenate([np.concatenate([np.full(b.joint.nq, b.joint.nv == 1 and b.joint.actuated),
                                                  np.zeros(b.m, dtype=bool)]) for b in r.bodies])
        q = r.neutral_configuration() + np.where(one_dof, spread * rng.standard_normal(r.nq), 0.0)
        v = speed * rng.standard_normal(r.nv) * self.moving
        if r.closures:                                    # start on the loop closures
            q, v = alg.consistent_loop_state(r, q, v)
        a = self.actuated
        self.q_ref = q
        self.M_a = np.linalg.inv(alg.inverse_mass_matrix(r, q)[np.ix_(a, a)])
        return q, v

    def torque(self, q, v):
        if self.controller == "zero":
            return np.zeros(self.robot.nv)
        a, w = self.actuated, self.omega_c
        tau = self.dynamics.gravity(q) if self.compensated else np.zeros(self.robot.nv)
        tau[a] += self.M_a @ (w * w * self.error(q)[a] - 2 * w * v[a])
        return tau * a

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
        fd = self.dynamics.forward_dynamics
        a1 = fd(q, v, tau)
        v2 = v + dt / 2 * a1
        a2 = fd(self.moved(q, dt / 2 * v), v2, tau)
        v3 = v + dt / 2 * a2
        a3 = fd(self.moved(q, dt / 2 * v2), v3, tau)
        v4 = v + dt * a3
        a4 = fd(self.moved(q, dt * v3), v4, tau)
        return (self.moved(q, dt / 6 * (v + 2 * v2 + 2 * v3 + v4)),
                v + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4))

    def run(self, duration, dt, seed=0, speed=0.5, progress=None):
        if not (dt > 0 and duration > 0):
            raise SoagenError("duration and dt must be positive")
        steps = int(round(duration / dt))
        q, v = self.initial_state(seed, speed=speed)
        qs, vs, taus = [q], [v], []
        start = time.perf_counter()
        for k in range(steps):
            tau = self.torque(q, v)
            q, v = self.step(q, v, dt, tau)
            qs.append(q)
            vs.append(v)
            taus.append(tau)
            if progress is not None:
                progress(k + 1, steps)
        self.steps_per_second = steps / (time.perf_counter() - start)
        taus.append(self.torque(q, v))
        return RobotTrajectory(np.arange(steps + 1) * dt, np.array(qs), np.array(vs), np.array(taus), self.method,
                               self.base)


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


def tip_deflections(robot, Q):
    """Per flexible body: the elastic displacement of its tip node in its own (hub) frame,
    Phi eta + eta^T G eta / 2 (steps x 3, m), the deflection the model exists for."""
    out = {}
    for i, b in enumerate(robot.bodies):
        if b.m:
            n, nodes = b.flex.tip_node, b.flex.nodes
            eta = Q[:, robot.modal_q_slice(i)]
            out[b.name] = eta @ nodes.Phi[n].T + np.einsum("ti,kij,tj->tk", eta, nodes.G[n], eta) / 2
    return out


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


def write_robot_trajectory(traj, robot, out_dir):
    """trajectory.npz (t, q, v, tau, tip) and trajectory.csv (t, q by joint name, tip
    position) in ``out_dir`` (an existing directory); the written paths."""
    tip = tip_positions(robot, traj.q)
    columns = ["t"] + [f"q[{n}]" for n in q_names(robot)] + ["tip.x", "tip.y", "tip.z"]
    return write_trajectory_files(out_dir, dict(t=traj.t, q=traj.q, v=traj.v, tau=traj.tau, tip=tip), columns,
                                  np.column_stack([traj.t, traj.q, tip]))
