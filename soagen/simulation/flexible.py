"""Flexible arms in time, for the benchmarks of docs/flexible.md and comparisons with
other codes: RK4 on the generated C (or the numpy recursions), with joint angles free or
prescribed (Kane, Ryan and Banerjee's spin-up), sampled at fixed times; and the
quantities a flexible model is judged by, for planar arms (motion in the world x-y
plane): the hub angles, joint angles, link roots and tips, and the elastic tip deflection
of each link in its hub frame, e_y(hub angle) . (tip - root)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY


class Dynamics:
    """Forward dynamics (and with ``prescribed``, for prescribed joints, the mass matrix
    and bias forces) of a robot: the generated C (``generated=True``, compiled into a
    temporary folder) or the numpy recursions."""

    def __init__(self, robot, generated=True, prescribed=False):
        self.robot = robot
        if generated:
            from soagen.codegen.compile import load_c
            from soagen.codegen.emit import write
            from soagen.codegen.robot import render

            names = ["mass_matrix", "bias_forces", "forward_dynamics"] if prescribed else ["forward_dynamics"]
            res = render(robot, None, algorithms=names, langs=("c",), prefix="flex")
            self._dir = tempfile.TemporaryDirectory()
            write(res, self._dir.name)
            self.lib = load_c(self._dir.name, "flex", res.manifest)
        else:
            self.lib = None

    def forward_dynamics(self, q, v, tau):
        if self.lib is not None:
            return self.lib("forward_dynamics", q, v, tau)
        from soagen import algorithms as A
        return A.forward_dynamics(self.robot, q, v, tau)

    def mass_matrix(self, q):
        if self.lib is not None:
            return self.lib("mass_matrix", q)
        from soagen import algorithms as A
        return A.mass_matrix(self.robot, q)

    def bias_forces(self, q, v):
        if self.lib is not None:
            return self.lib("bias_forces", q, v)
        from soagen import algorithms as A
        return A.bias_forces(self.robot, q, v)


@dataclass
class Prescribed:
    """Coordinates of v whose motion is given: ``mask`` (over v, on 1-dof joints) and
    ``profile(t)`` -> (position, velocity, acceleration) of those coordinates."""

    mask: np.ndarray
    profile: object


def accelerations(dyn, q, v, t, prescribed=None):
    """qdd with zero generalized forces on the free coordinates; with ``prescribed``, the
    given accelerations on its coordinates and M_ff qdd_f = -C_f - M_fp qdd_p on the rest."""
    zero = np.zeros(len(v))
    if prescribed is None:
        return dyn.forward_dynamics(q, v, zero)
    p = prescribed.mask
    f = ~p
    a_p = np.atleast_1d(prescribed.profile(t)[2])
    M, C = dyn.mass_matrix(q), dyn.bias_forces(q, v)
    qdd = np.zeros(len(v))
    qdd[p] = a_p
    qdd[f] = np.linalg.solve(M[np.ix_(f, f)], -C[f] - M[np.ix_(f, p)] @ a_p)
    return qdd


def integrate(dyn, q0, v0, duration, dt, sample, prescribed=None):
    """RK4 from (q0, v0) (vector-space coordinates: revolute joints and modal
    coordinates) over ``duration``; (t, Q, V) at every ``sample`` seconds (a multiple of
    dt). Prescribed coordinates are set from their profile at each sample."""
    steps, every = int(round(duration / dt)), int(round(sample / dt))
    q, v = np.array(q0, dtype=float), np.array(v0, dtype=float)
    if prescribed is not None:
        x, xd, _ = prescribed.profile(0.0)
        q[prescribed.mask], v[prescribed.mask] = x, xd
    f = lambda t, q, v: accelerations(dyn, q, v, t, prescribed)       # noqa: E731
    T, Q, V = [0.0], [q.copy()], [v.copy()]
    for k in range(steps):
        t = k * dt
        a1 = f(t, q, v)
        a2 = f(t + dt / 2, q + dt / 2 * v, v + dt / 2 * a1)
        v2 = v + dt / 2 * a1
        a3 = f(t + dt / 2, q + dt / 2 * v2, v + dt / 2 * a2)
        v3 = v + dt / 2 * a2
        a4 = f(t + dt, q + dt * v3, v + dt * a3)
        v4 = v + dt * a3
        q = q + dt / 6 * (v + 2 * v2 + 2 * v3 + v4)
        v = v + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
        if (k + 1) % every == 0:
            T.append((k + 1) * dt)
            Q.append(q.copy())
            V.append(v.copy())
    return np.array(T), np.array(Q), np.array(V)


@dataclass
class PlanarOutputs:
    """Per sample and body: the hub (body frame) angle from world x, the joint angle, the
    root (body origin) and tip (a flexible link's tip node; a rigid link's tip frame or
    child joint) in world x-y, and the elastic tip deflection in the hub frame."""

    hub_angle: np.ndarray
    joint_angle: np.ndarray
    root: np.ndarray
    tip: np.ndarray
    deflection: np.ndarray


def planar_outputs(robot, Q):
    from soagen.dynamics import flexible
    from soagen.dynamics.kinematics import link_transforms, world_poses

    nb = robot.nb
    hub, root, tip = np.zeros((len(Q), nb)), np.zeros((len(Q), nb, 2)), np.zeros((len(Q), nb, 2))
    tip_angle = np.zeros((len(Q), nb))
    for s, q in enumerate(Q):
        poses = world_poses(robot, link_transforms(robot, q, NUMPY))
        for i, b in enumerate(robot.bodies):
            R, o = poses[i]
            hub[s, i] = np.arctan2(R[1, 0], R[0, 0])
            root[s, i] = o[:2]
            if b.m:
                Rn, rn, _, _ = flexible.node_pose(b.flex, b.flex.tip_node, robot.eta(i, q), NUMPY)
                end, Rt = o + R @ rn, R @ Rn
            else:
                child = [c for c, cb in enumerate(robot.bodies) if cb.parent == i]
                r = robot.bodies[child[0]].placement_r if child else (robot.tip.r if robot.tip else np.zeros(3))
                end, Rt = o + R @ r, R
            tip[s, i] = end[:2]
            tip_angle[s, i] = np.arctan2(Rt[1, 0], Rt[0, 0])
    hub = np.unwrap(hub, axis=0)
    joint = hub - np.concatenate([np.zeros((len(Q), 1)), np.unwrap(tip_angle, axis=0)[:, :-1]], axis=1)
    d = tip - root
    defl = -np.sin(hub) * d[..., 0] + np.cos(hub) * d[..., 1]
    return PlanarOutputs(hub, joint, root, tip, defl)


def arm_robot(arm, modes=6, elements=10, stiffening=True, shapes=("y",)):
    """(robot, q0): a planar chain of flexible beams described by physical data, as
    :func:`soagen.loaders.flexible.beam_robot` builds it, from ``arm``: any object with
    ``links`` (each with ``beam`` (length, EA, EIy, EIz, GJ, rhoA, rhoJ), ``hub_mass``,
    ``hub_inertia``), ``theta0`` (joint angles: the first from world x, the others
    relative to the previous link's tip cross-section) and ``gravity`` (m/s^2 along -y).
    Joints about z, motion in the x-y plane, the links released undeformed."""
    from soagen.loaders.flexible import beam_robot

    robot = beam_robot([link.beam for link in arm.links], modes=modes, elements=elements, shapes=shapes,
                       stiffening=stiffening, gravity=(0.0, -float(arm.gravity), 0.0),
                       hub_mass=[float(link.hub_mass) for link in arm.links],
                       hub_inertia=[float(link.hub_inertia) for link in arm.links])
    q0 = np.zeros(robot.nq)
    q0[[b.q_index for b in robot.bodies]] = arm.theta0
    return robot, q0


def simulate_arm(arm, modes=6, elements=10, stiffening=True, dt=None, generated=True):
    """(t, PlanarOutputs): ``arm`` (see :func:`arm_robot`) released from rest for
    ``arm.duration`` s, sampled every ``arm.sample`` s; RK4 at ``dt`` or at a tenth of the
    stable step of the stiffest mode. What soagen's flexible links are compared on."""
    from soagen.simulation.robot import stable_step

    robot, q0 = arm_robot(arm, modes, elements, stiffening)
    if dt is None:
        dt = arm.sample / np.ceil(arm.sample / (stable_step(robot, q0) / 10))
    t, Q, _ = integrate(Dynamics(robot, generated), q0, np.zeros(robot.nv), arm.duration, dt, arm.sample)
    return t, planar_outputs(robot, Q)


def simulate_spin_up(spec, modes=4, elements=10, stiffening=True, dt=None, generated=True):
    """(t, PlanarOutputs) of Kane, Ryan and Banerjee's spin-up: ``spec`` has ``beam``, a
    hub-angle ``profile(t)`` -> (theta, theta_dot, theta_ddot), ``duration`` and ``sample``
    (as :class:`soagen.oracles.beams.SpinUp`); the beam clamped to a hub on z whose angle
    is prescribed, in a horizontal plane."""
    from soagen.loaders.flexible import beam_robot
    from soagen.simulation.robot import stable_step

    robot = beam_robot(spec.beam, modes=modes, elements=elements, shapes=("y",), stiffening=stiffening,
                       gravity=(0.0, 0.0, 0.0), hub_inertia=1.0)
    mask = np.zeros(robot.nv, dtype=bool)
    mask[0] = True
    q0 = np.zeros(robot.nq)
    if dt is None:
        dt = spec.sample / np.ceil(spec.sample / (stable_step(robot, q0) / 10))
    profile = lambda t: tuple(float(x) for x in spec.profile(t))        # noqa: E731
    t, Q, _ = integrate(Dynamics(robot, generated, prescribed=True), q0, np.zeros(robot.nv), spec.duration, dt,
                        spec.sample, Prescribed(mask, profile))
    return t, planar_outputs(robot, Q)
