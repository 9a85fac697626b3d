"""The generic algorithms of Part I, as functions of a model and a state.

This is the numeric reference that generated code is tested against. Conventions:
joint vectors ordered base to tip as in the robot file; spatial vectors angular first;
Jacobians and tip quantities world-aligned at the tip point; the tip force ``f_tip`` is
f(0) of the papers, the force the tip exerts on the environment (moment about the tip
point, then force), so that T = M qdd + C + J^T f(0) (3.20). Gravity comes from the
robot file. Pass ``xp=soagen.backend.SYMPY`` and SymPy symbols to run the same recursions
symbolically.

The data (robot, q, qd, qdd or tau, the frames, f_tip) are positional; ``method``,
``frame`` and ``xp`` are keyword-only, in that order wherever a function takes them (by
position they still work for one release, with a DeprecationWarning).
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics import base_parameters as base
from soagen.dynamics import centroidal as cen
from soagen.dynamics import forward, loops, omega
from soagen.dynamics import frames as fr
from soagen.dynamics import jacobian as jac
from soagen.dynamics import mass_matrix as crb
from soagen.dynamics import regressor as reg
from soagen.dynamics.coriolis import coriolis_matrix as _coriolis
from soagen.dynamics.elastic import (
    elastic_forces,
    elastic_jacobians,
    has_elastic_forces,
)
from soagen.dynamics.fd_derivatives import fd_derivatives
from soagen.dynamics.id_derivatives import id_derivatives
from soagen.dynamics.rne import accelerations, rne
from soagen.dynamics.sweeps import prepare
from soagen.errors import SoagenError
from soagen.tolerances import RANK

FD_METHODS = tuple(forward.FD)


def _vec(x, n, name, xp):
    x = np.asarray(x, dtype=xp.dtype)
    if x.shape != (n,):
        raise SoagenError(f"{name}: expected a vector of length {n}, got shape {x.shape}")
    return x


def _state(robot, q, qd, xp, gravity=True):
    q = _vec(q, robot.nq, "q", xp)
    qd = _vec(qd, robot.nv, "qd", xp) if qd is not None else xp.zeros(robot.nv)
    return prepare(robot, q, qd, xp, gravity)


def _rigid(robot, what):
    """Refuse an algorithm not derived for flexible bodies (docs/flexible.md, Limits)."""
    if robot.is_flexible:
        raise SoagenError(f"{robot.name}: {what} is not available for flexible bodies "
                          "(docs/flexible.md, Limits)")


def _tip(robot, f_tip, xp):
    if f_tip is None:
        return None
    if robot.tip is None:
        raise SoagenError(f"{robot.name}: no tip frame (a branching tree); name one with tip=")
    return _vec(f_tip, 6, "f_tip", xp)


def _keywords(*legacy):
    """``xp``, ``method``, ``frame`` (and ``base_params``) are keyword-only, in that order:
    ``method``, ``frame``, ``xp``. For one release a call that passes them by position, in
    the order of the old signature (the arguments after the data: ``legacy``), still works
    and warns (DeprecationWarning)."""
    def wrap(fn):
        params = inspect.signature(fn).parameters
        positional = [n for n, p in params.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
        data = [n for n in positional if n not in legacy]
        tail = positional[len(data):]

        @functools.wraps(fn)
        def call(*args, **kwargs):
            extra = args[len(data):]
            if extra and tuple(legacy[:len(extra)]) != tuple(tail[:len(extra)]):
                names = legacy[:len(extra)]
                if len(extra) > len(legacy) or set(names) & set(kwargs):
                    raise TypeError(f"{fn.__name__}() takes {len(data)} positional arguments and the "
                                    f"keywords {', '.join(legacy)}")
                warnings.warn(f"soagen.algorithms.{fn.__name__}: pass {', '.join(names)} by keyword "
                              f"({', '.join(f'{n}=...' for n in names)}); positional use is deprecated and goes "
                              "in the next release", DeprecationWarning, stacklevel=2)
                kwargs.update(zip(names, extra))
                args = args[:len(data)]
            return fn(*args, **kwargs)
        return call
    return wrap


@_keywords("f_tip", "xp")
def inverse_dynamics(robot, q, qd, qdd, f_tip=None, *, xp=NUMPY):
    """Joint forces T = M qdd + C + J^T f(0) - tau_passive by recursive Newton-Euler
    (2.24)-(2.30), with the rotors' J_m qdd and the passive forces (:func:`passive_forces`:
    joint springs and dampers, a flexible body's modal ones (F.5)) where the model has them."""
    s = _state(robot, q, qd, xp)
    T = np.concatenate(rne(s, _vec(qdd, robot.nv, "qdd", xp), _tip(robot, f_tip, xp)))
    return _plus_elastic(robot, s, T, xp)


@_keywords("f_tip", "xp")
def bias_forces(robot, q, qd, f_tip=None, *, xp=NUMPY):
    """C (+ J^T f(0)): Coriolis, centrifugal and gravity forces, RNE with qdd = 0 (3.23)
    (- tau_passive where the model has passive forces: MuJoCo's qfrc_bias - qfrc_passive),
    so that forward dynamics is M^-1 (tau - bias_forces)."""
    s = _state(robot, q, qd, xp)
    T = np.concatenate(rne(s, xp.zeros(robot.nv), _tip(robot, f_tip, xp)))
    return _plus_elastic(robot, s, T, xp)


def _plus_elastic(robot, s, T, xp, sign=1):
    """T + sign e(q, qd): the elastic forces of flexible bodies and spring-damper joints
    (:mod:`soagen.dynamics.elastic`); T itself for a robot without them."""
    if not has_elastic_forces(robot):
        return T
    return T + sign * elastic_forces(robot, s.q, s.qd, xp)


@_keywords("xp")
def passive_forces(robot, q, qd, *, xp=NUMPY):
    """tau_passive (nv): the joints' springs and viscous dampers, -k (q - q_rest) - d qd,
    and a flexible body's modal -K eta - C eta_dot; MuJoCo's ``qfrc_passive`` for what
    soagen models of it (its ``qfrc_spring + qfrc_damper`` of the joints; friction loss,
    fluid forces, gravity compensation and tendons are not modelled). Forward dynamics
    solves M qdd + C = tau + tau_passive, and inverse dynamics returns that tau."""
    s = _state(robot, q, qd, xp, gravity=False)
    if not has_elastic_forces(robot):
        return xp.zeros(robot.nv)
    return -elastic_forces(robot, s.q, s.qd, xp)


@_keywords("xp")
def known_forces(robot, q, qd, qdd, *, xp=NUMPY):
    """The part of inverse dynamics that does not depend on the inertial parameters pi:
    the rotors' J_m qdd and -tau_passive, so that
    inverse_dynamics(q, qd, qdd) = regressor(q, qd, qdd) @ pi + known_forces(q, qd, qdd)."""
    _vec(q, robot.nq, "q", xp)
    T = robot.armature * _vec(qdd, robot.nv, "qdd", xp)
    return T - passive_forces(robot, q, qd, xp=xp)


@_keywords("xp")
def mass_matrix(robot, q, *, xp=NUMPY):
    """M = H phi M phi^T H^T + J_m (3.20), O(N^2) composite-inertia recursion; J_m the
    joints' rotor inertias (armature), zero without them."""
    return crb.mass_matrix(_state(robot, q, None, xp, gravity=False))


@_keywords("xp", "method")
def inverse_mass_matrix(robot, q, *, method="innovations", xp=NUMPY):
    """M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) (4.16), O(N^2); ``method="ldl"``: from
    M = L^T D L of the composite-inertia mass matrix (dense, for small N)."""
    _method(method, forward.MINV_METHODS, "inverse mass matrix")
    return forward.inverse_mass_matrix(_state(robot, q, None, xp, gravity=False), method)


def _method(method, known, what):
    if method not in known:
        raise SoagenError(f"unknown {what} method {method!r} (choose from {', '.join(known)})")


@_keywords("method", "f_tip", "xp")
def forward_dynamics(robot, q, qd, tau, *, f_tip=None, method="fd1", xp=NUMPY):
    """Joint accelerations qdd from T + tau_passive = M qdd + C + J^T f(0), by FD1-FD4 of
    Part I or ``method="ldl"``, M^-1 (T - C) with M = L^T D L (dense, for small N); the
    passive forces (:func:`passive_forces`) and the rotors' J_m (in D(k) = H P H^T + J_m)
    where the model has them: with tau = 0, MuJoCo's qacc without constraints."""
    _method(method, FD_METHODS, "forward dynamics")
    s = _state(robot, q, qd, xp)
    tau = _plus_elastic(robot, s, _vec(tau, robot.nv, "tau", xp), xp, -1)
    qdd, _ = forward.FD[method](s, tau, _tip(robot, f_tip, xp))
    return np.concatenate(qdd)


@_keywords("f_tip", "xp")
def link_accelerations(robot, q, qd, tau, f_tip=None, *, xp=NUMPY):
    """FD2 (5.5)-(5.7): (qdd, alpha, alpha0) with the link spatial accelerations alpha(k)
    (body frames, gravity included as the base acceleration, body order) and the tip
    acceleration alpha(0) = B^T alpha + a(0) without gravity, world-aligned."""
    s = _state(robot, q, qd, xp)
    tau = _plus_elastic(robot, s, _vec(tau, robot.nv, "tau", xp), xp, -1)
    qdd, alpha = forward.fd2(s, tau, _tip(robot, f_tip, xp))
    qdd = np.concatenate(qdd)
    return qdd, alpha, jacobian(robot, q, xp=xp) @ qdd + jacobian_dot_qd(robot, q, qd, xp=xp)


@_keywords("xp", "frame")
def jacobian(robot, q, *, frame=None, xp=NUMPY):
    """Tip Jacobian J = B^T phi^T H^T (3.13): 6 x nv, world-aligned, angular rows first."""
    return jac.jacobian(_state(robot, q, None, xp, gravity=False), _frame(robot, frame))


@_keywords("xp", "frame")
def jacobian_dot_qd(robot, q, qd, *, frame=None, xp=NUMPY):
    """Jdot qdot = B^T phi^T a + a(0), world-aligned (Sec. 3 below (3.17))."""
    return jac.jacobian_dot_qd(_state(robot, q, qd, xp, gravity=False), _frame(robot, frame))


@_keywords("xp", "frame", "method")
def op_space_inverse_inertia(robot, q, *, method="omega", frame=None, xp=NUMPY):
    """J M^-1 J^T by the O(N) recursion (6.10) of Part II (6 x 6, world-aligned), or with
    ``method="ldl"`` from J and M = L^T D L (dense, for small N)."""
    _method(method, omega.OSIM_METHODS, "operational-space inverse inertia")
    return omega.op_space_inverse_inertia(_state(robot, q, None, xp, gravity=False), _frame(robot, frame), method)


def node_frame(robot, body, node):
    """A frame on node ``node`` of flexible body ``body`` (its name or index), for the
    frame functions (jacobian, jacobian_dot_qd, op_space_inverse_inertia, ...): its
    Jacobian has the joint columns of the bodies on the path and one column per modal
    coordinate of each flexible body on it (docs/flexible.md)."""
    from soagen.model import Frame

    i = body if isinstance(body, int) else next((k for k, b in enumerate(robot.bodies) if b.name == body), None)
    if i is None or robot.bodies[i].flex is None:
        raise SoagenError(f"{robot.name}: no flexible body {body!r}")
    nodes = robot.bodies[i].flex.nodes
    if not 0 <= node < len(nodes.r0):
        raise SoagenError(f"{robot.name}: body {robot.bodies[i].name!r} has nodes 0..{len(nodes.r0) - 1}")
    return Frame(f"{robot.bodies[i].name}.node{node}", i, np.eye(3), nodes.r0[node], node)


def _frame(robot, frame):
    if frame is None:
        if robot.tip is None:
            raise SoagenError(f"{robot.name}: no tip frame (a branching tree); name a frame")
        return robot.tip
    if isinstance(frame, str):
        try:
            return robot.frame(frame)
        except KeyError:
            raise SoagenError(f"{robot.name}: no frame named {frame!r}") from None
    return frame


def _frames(robot, frames):
    """The frames named (names or :class:`~soagen.model.Frame` objects), every frame of the
    file (its links and sites) by default."""
    return list(robot.frames) if frames is None else [_frame(robot, f) for f in frames]


@_keywords("xp")
def frame_placements(robot, q, frames=None, *, xp=NUMPY):
    """{name: 4 x 4 world transform} of each frame (default: every frame of the file),
    from one sweep of the link transforms phi(k+1, k) (3.1)."""
    frames = _frames(robot, frames)
    s = _state(robot, q, None, xp, gravity=False)
    return dict(zip((f.name for f in frames), fr.placements(s, frames)))


@_keywords("xp")
def frame_velocities(robot, q, qd, frames=None, *, xp=NUMPY):
    """{name: spatial velocity (omega, v)} of each frame, world-aligned at the frame's
    origin (Pinocchio's getFrameVelocity, LOCAL_WORLD_ALIGNED, angular first), from the
    velocity sweep (2.25)."""
    frames = _frames(robot, frames)
    s = _state(robot, q, _vec(qd, robot.nv, "qd", xp), xp, gravity=False)
    return dict(zip((f.name for f in frames), fr.velocities(s, frames)))


@_keywords("xp")
def frame_accelerations(robot, q, qd, qdd, frames=None, *, xp=NUMPY):
    """{name: classical acceleration (omega_dot, v_dot)} of each frame, world-aligned at
    the frame's origin, without gravity (Pinocchio's getFrameClassicalAcceleration,
    LOCAL_WORLD_ALIGNED, angular first), from alpha = phi^T (H^T qdd + a) (3.15)."""
    frames = _frames(robot, frames)
    s = _state(robot, q, _vec(qd, robot.nv, "qd", xp), xp, gravity=False)
    alpha = accelerations(s, _vec(qdd, robot.nv, "qdd", xp))
    return dict(zip((f.name for f in frames), fr.accelerations(s, alpha, frames)))


def _massive(robot, what):
    """Refuse a centroidal quantity of a robot without mass (or with flexible bodies)."""
    _rigid(robot, what)
    if all(isinstance(b.mass, (int, float)) for b in robot.bodies) and not robot.total_mass > 0:
        raise SoagenError(f"{robot.name}: {what}: the robot has no mass")


@_keywords("xp")
def center_of_mass(robot, q, *, xp=NUMPY):
    """The centre of mass c (world), from the composite inertias (a.44) of the roots (the
    fixed base's own links are not counted, as in Pinocchio's centerOfMass)."""
    _massive(robot, "center_of_mass")
    return cen.centre_of_mass(_state(robot, q, None, xp, gravity=False))[0]


@_keywords("xp")
def com_jacobian(robot, q, *, xp=NUMPY):
    """J_com (3 x nv) with c-dot = J_com qd: the linear rows of A_G over the total mass."""
    _massive(robot, "com_jacobian")
    A_G, _, m = cen.momentum_matrix(_state(robot, q, None, xp, gravity=False))
    return A_G[3:] / m


@_keywords("xp")
def centroidal_momentum_matrix(robot, q, *, xp=NUMPY):
    """A_G (6 x nv), h_G = A_G qd: the spatial momentum about the centre of mass,
    world-aligned, angular rows first (Orin and Goswami; Pinocchio's computeCentroidalMap
    with its rows swapped), column block l = phi(G, l) R(l) H^T(l), O(N)."""
    _massive(robot, "centroidal_momentum_matrix")
    return cen.momentum_matrix(_state(robot, q, None, xp, gravity=False))[0]


@_keywords("xp")
def centroidal_bias(robot, q, qd, *, xp=NUMPY):
    """A_G-dot qd: the rate of the centroidal momentum at qdd = 0 without gravity, so that
    d/dt h_G = A_G qdd + A_G-dot qd (Pinocchio's dAg v of
    computeCentroidalMapTimeVariation, rows swapped), from the RNE's base forces."""
    _massive(robot, "centroidal_bias")
    s = _state(robot, q, _vec(qd, robot.nv, "qd", xp), xp, gravity=False)
    return cen.momentum_bias(s)[0]


def _loops(robot, what):
    """Refuse a loop-closure quantity of a robot without loop closures."""
    if not robot.closures:
        raise SoagenError(f"{robot.name}: {what}: the robot has no loop closures")


@_keywords("baumgarte", "xp")
def loop_forward_dynamics(robot, q, qd, tau, baumgarte=None, *, xp=NUMPY):
    """Joint accelerations of the closed system, the tree's forward dynamics corrected by
    the loop closures' constraint forces (framework paper Section 3, steps (A)-(F) with
    (3.10)-(3.12); :mod:`soagen.dynamics.loops`). The state must close the loops (see
    :func:`consistent_loop_state`); ``baumgarte=w`` (rad/s) adds the critically damped
    correction A alpha~ = -2 w e-dot - w^2 e that holds a simulation on them. Redundant
    closures are solved in the least-squares sense (the accelerations stay unique). A
    robot without loop closures: the tree's forward dynamics (FD2)."""
    _rigid(robot, "loop_forward_dynamics")
    s = _state(robot, q, qd, xp)
    tau = _plus_elastic(robot, s, _vec(tau, robot.nv, "tau", xp), xp, -1)
    U = None
    if baumgarte is not None and robot.closures:
        v = _state(robot, q, qd, xp, gravity=False)
        U = -2 * baumgarte * loops.closure_velocities(v) - baumgarte ** 2 * loops.closure_errors(v)
    return loops.forward_dynamics(s, tau, U)[0]


@_keywords("xp")
def loop_constraint_forces(robot, q, qd, tau, *, xp=NUMPY):
    """{closure name: force} of :func:`loop_forward_dynamics`: the force (moment about the
    frame origin, then force; world-aligned) that the cut joint exerts on frame 1 of each
    closure (frame 2 gets minus it); for a connect the moment is zero. Not unique for
    redundant closures (the minimum-norm set is returned)."""
    _loops(robot, "loop_constraint_forces")
    s = _state(robot, q, qd, xp)
    tau = _plus_elastic(robot, s, _vec(tau, robot.nv, "tau", xp), xp, -1)
    f = loops.forward_dynamics(s, tau)[1]
    out, row = {}, 0
    for c in robot.closures:
        out[c.name] = np.concatenate([xp.zeros(6 - c.rows), -f[row:row + c.rows]])
        row += c.rows
    return out


@_keywords("xp")
def closure_errors(robot, q, *, xp=NUMPY):
    """The loop closures' position errors (per closure: the weld's orientation error, then
    the origins' difference; world axes), zero on a closed configuration."""
    _loops(robot, "closure_errors")
    return loops.closure_errors(_state(robot, q, None, xp, gravity=False))


@_keywords("xp")
def closure_jacobian(robot, q, *, xp=NUMPY):
    """G (m x nv): the velocity constraints G qd = 0 of the loop closures, the rate of
    :func:`closure_errors` (exactly, for connect)."""
    _loops(robot, "closure_jacobian")
    return loops.closure_jacobian(_state(robot, q, None, xp, gravity=False))


@_keywords("xp")
def closure_acceleration(robot, q, qd, qdd, *, xp=NUMPY):
    """A alpha~: the closures' relative classical accelerations at (q, qd, qdd), zero for
    the accelerations of the closed system (the acceleration-level residual)."""
    _loops(robot, "closure_acceleration")
    frames = loops.moving_frames(robot)
    acc = frame_accelerations(robot, q, qd, qdd, frames, xp=xp)
    return xp.constant(loops.constraint_map(robot)) @ np.concatenate([acc[f.name] for f in frames])


def consistent_loop_state(robot, q, qd=None):
    """(q, qd) moved onto the loop closures: q by Gauss-Newton (minimum-norm steps), qd by
    the minimum-norm correction onto G qd = 0 (numpy only)."""
    from soagen.dynamics.newton import project_velocity

    _loops(robot, "consistent_loop_state")
    q = loops.solve_loops(robot, _vec(q, robot.nq, "q", NUMPY))
    qd = np.zeros(robot.nv) if qd is None else _vec(qd, robot.nv, "qd", NUMPY)
    return q, project_velocity(closure_jacobian(robot, q), qd, RANK)


@_keywords("xp", "method")
def inverse_inertia_at_frames(robot, q, frames, *, method="omega", xp=NUMPY):
    """Lambda = J M^-1 J^T for several frames of a tree at once, (6 n_C) square,
    world-aligned: B^T Omega B with the tree Upsilon/Omega recursion (framework (3.10), (A.5)),
    or with ``method="ldl"`` from the stacked J and M = L^T D L (dense, for small N)."""
    _method(method, omega.OSIM_METHODS, "operational-space inverse inertia")
    frames = [_frame(robot, f) for f in frames]
    return omega.inverse_inertia_at_frames(_state(robot, q, None, xp, gravity=False), frames, method)


@_keywords("xp")
def frame_force_correction(robot, q, frames, f, *, xp=NUMPY):
    """beta_delta = -M^-1 J^T f for stacked world-aligned forces f at several frames,
    O(N) (framework (3.12), (A.6) corrected)."""
    from soagen.dynamics.correction import correction

    frames = [_frame(robot, fr) for fr in frames]
    f = _vec(f, 6 * len(frames), "f", xp)
    return correction(_state(robot, q, None, xp, gravity=False), frames, f)


@_keywords("xp")
def inverse_dynamics_derivatives(robot, q, qd, qdd, *, xp=NUMPY):
    """(dtau/dq, dtau/dqd), nv x nv, gravity included; dtau/dqdd is the mass matrix.
    Derivatives in the tangent space: column j is the change of tau when the body of joint
    j moves by the body-frame twist H^T e_j (for a quaternion joint q (+) e_j as
    :func:`soagen.quaternion.integrate`, Pinocchio's convention; for revolute and prismatic
    joints simply d/dq) (docs/derivatives.md (D.1), (D.11)-(D.14))."""
    _rigid(robot, "inverse_dynamics_derivatives")
    s, qd = _state(robot, q, qd, xp), _vec(qd, robot.nv, "qd", xp)
    dq, dqd = id_derivatives(s, qd, _vec(qdd, robot.nv, "qdd", xp))
    if has_elastic_forces(robot):                      # - d tau_passive: + k, + d
        K, C = elastic_jacobians(robot)
        dq, dqd = dq + xp.constant(K), dqd + xp.constant(C)
    return dq, dqd


@_keywords("xp", "method")
def forward_dynamics_derivatives(robot, q, qd, tau, *, method="innovations", xp=NUMPY):
    """(dqdd/dq, dqdd/dqd, dqdd/dtau = M^-1): -M^-1 (dtau/dq, dtau/dqd) at the
    forward-dynamics accelerations, with the one M^-1 of (4.16) (docs/derivatives.md (D.19)),
    or of M = L^T D L with ``method="ldl"``."""
    _rigid(robot, "forward_dynamics_derivatives")
    _method(method, forward.MINV_METHODS, "inverse mass matrix")
    s, qd = _state(robot, q, qd, xp), _vec(qd, robot.nv, "qd", xp)
    tau = _plus_elastic(robot, s, _vec(tau, robot.nv, "tau", xp), xp, -1)
    dq, dqd, Minv = fd_derivatives(s, qd, tau, method)
    if has_elastic_forces(robot):                      # the passive forces' own -M^-1 (k, d)
        K, C = elastic_jacobians(robot)
        dq, dqd = dq - Minv @ xp.constant(K), dqd - Minv @ xp.constant(C)
    return dq, dqd, Minv


@_keywords("xp")
def coriolis_matrix(robot, q, qd, *, xp=NUMPY):
    """C(q, qd) with C qd the velocity-dependent bias forces and Mdot - 2C skew-symmetric
    (Christoffel-consistent for 1-dof joints), O(N d) (docs/derivatives.md (D.15)-(D.16))."""
    _rigid(robot, "coriolis_matrix")
    s, qd = _state(robot, q, qd, xp, gravity=False), _vec(qd, robot.nv, "qd", xp)
    return _coriolis(s, qd)


@_keywords("xp")
def mass_matrix_dot(robot, q, qd, *, xp=NUMPY):
    """Mdot = dM/dt along the velocity qd, = C + C^T."""
    C = coriolis_matrix(robot, q, qd, xp=xp)
    return C + C.T


def energy(robot, q, qd):
    """(T, U): the kinetic energy 1/2 qd^T M qd and the potential energy (gravity, and
    the elastic energy of flexible bodies and spring joints) (numpy only)."""
    from soagen.dynamics.energy import kinetic_energy, potential_energy

    s = _state(robot, q, qd, NUMPY)
    return kinetic_energy(s), potential_energy(s)


def inertial_parameters(robot):
    """pi (10 nb): per body (m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz),
    inertia about the body origin in the body frame (Pinocchio's order), so tau = Y pi."""
    _rigid(robot, "inertial_parameters")
    return reg.inertial_parameters(robot)


@_keywords("xp")
def regressor(robot, q, qd, qdd, *, xp=NUMPY):
    """Y (nv x 10 nb) with inverse_dynamics(q, qd, qdd) = Y pi + known_forces(q, qd, qdd)
    (docs/derivatives.md (D.17)-(D.18)): the rotors' J_m qdd and the passive forces are
    known terms, not parameters (zero for a robot without them)."""
    _rigid(robot, "regressor")
    s = _state(robot, q, qd, xp)
    return reg.regressor(s, _vec(qdd, robot.nv, "qdd", xp))


def base_parameters(robot):
    """The base (identifiable) parameters: unpacks as (K, names) with pi_b = K pi and
    Y = Y_b K; ``.columns`` are the columns of Y that form Y_b, ``.expressions`` the
    regrouping of each base parameter (docs/derivatives.md, "Base parameters")."""
    _rigid(robot, "base_parameters")
    return base.base_parameters(robot)


@_keywords("xp", "base_params")
def base_regressor(robot, q, qd, qdd, *, base_params=None, xp=NUMPY):
    """Y_b = Y[:, columns] (nv x b), full column rank, Y_b (K pi) = tau. Pass the result of
    :func:`base_parameters` as ``base_params`` to avoid recomputing it."""
    bp = base_params if base_params is not None else base_parameters(robot)
    return regressor(robot, q, qd, qdd, xp=xp)[:, list(bp.columns)]
