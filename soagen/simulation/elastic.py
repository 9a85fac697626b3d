"""What a simulated robot with elastic coordinates (flexible links' modal coordinates,
spring-damper joints) is judged by: the static equilibrium its elastic coordinates take
when the other coordinates are held (the start of ``soagen simulate`` and the reference of
its gravity compensation), the transverse tip deflection of each flexible link
(docs/flexible.md, "Simulation"), and the energy balance of a run.

Transverse tip deflection: the elastic displacement of the link's tip node in its hub
frame (the body frame, clamped at the joint), d = Phi eta + 1/2 eta^T G eta (F.1), split
along the undeformed link's axis a (the unit vector from the clamp to the tip node's
undeformed position) into the axial part a . d (the foreshortening, second order in the
deflection) and the transverse part d - a (a . d), the deflection of a beam: for a planar
link along x in the x-y plane its y component is e_y(hub angle) . (tip - root), the
quantity of :mod:`soagen.oracles.beams` and of the tables of docs/flexible.md."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.errors import SoagenError


def elastic_mask(robot) -> np.ndarray:
    """The elastic coordinates, a mask over v (and, as they are 1-dof joints and modal
    coordinates, the same entries of q in the same order): each flexible body's modal
    coordinates and each passive spring-damper joint's coordinate (not actuated: a joint
    with a damper or spring that is driven, as MJCF's damped joints are, is an actuated
    joint)."""
    return np.concatenate([np.concatenate([np.full(b.joint.nv, b.joint.elastic and not b.joint.actuated),
                                           np.ones(b.m, dtype=bool)])
                           for b in robot.bodies]) if robot.bodies else np.zeros(0, dtype=bool)


def q_positions(robot, mask_v) -> np.ndarray:
    """The indices in q of the entries of v that ``mask_v`` selects, for coordinates whose
    q and v agree (1-dof joints, modal coordinates)."""
    out = []
    for b in robot.bodies:
        for k in range(b.nv):
            if mask_v[b.v_index + k]:
                out.append(b.q_index + k)
    return np.array(out, dtype=int)


def static_equilibrium(robot, gravity, q, tol=1e-10, iterations=50):
    """(q_s, converged): ``q`` with its elastic coordinates moved to the static
    equilibrium under gravity while the others stay where ``q`` has them, the zero of the
    elastic rows of g(q) = C(q, 0) (gravity and elastic forces, (F.5)), by Newton's method
    from ``q`` on a central-difference Jacobian (``gravity``: q -> g(q), the simulator's dynamics).
    ``converged`` is False when no equilibrium was found (a link too soft for its load)."""
    el = elastic_mask(robot)
    if not el.any():
        return np.array(q, dtype=float), True
    iq = q_positions(robot, el)
    q = np.array(q, dtype=float)
    h = 1e-6
    scale = 1.0 + np.abs(gravity(q)).max()
    for _ in range(iterations):
        r = gravity(q)[el]
        if np.abs(r).max() <= tol * scale:
            return q, True
        J = np.empty((len(iq), len(iq)))
        for k, j in enumerate(iq):
            qp, qm = q.copy(), q.copy()
            qp[j] += h
            qm[j] -= h
            J[:, k] = (gravity(qp)[el] - gravity(qm)[el]) / (2 * h)
        try:
            step = np.linalg.solve(J, r)
        except np.linalg.LinAlgError:
            break
        q[iq] -= step
        if not np.all(np.isfinite(q)):
            break
    r = gravity(q)[el] if np.all(np.isfinite(q)) else np.array([np.inf])
    return q, bool(np.abs(r).max() <= 1e-6 * scale)


@dataclass(frozen=True)
class TipDeflection:
    """A flexible link's tip node over a trajectory, in its hub frame: ``displacement``
    d (steps x 3, m), its ``transverse`` part (steps x 3) and ``axial`` part (steps, m,
    negative when the link shortens) along the undeformed ``axis`` of the link, whose
    ``length`` (m) is the clamp-to-tip distance (module doc)."""

    displacement: np.ndarray
    transverse: np.ndarray
    axial: np.ndarray
    axis: np.ndarray
    length: float

    @property
    def magnitude(self) -> np.ndarray:
        """|transverse| (steps, m): the tip deflection of the link."""
        return np.linalg.norm(self.transverse, axis=-1)


def tip_deflections(robot, Q) -> dict:
    """{body name: :class:`TipDeflection`} of every flexible body over the configurations
    ``Q`` (steps x nq)."""
    Q = np.atleast_2d(Q)
    out = {}
    for i, b in enumerate(robot.bodies):
        if b.m:
            n, nodes = b.flex.tip_node, b.flex.nodes
            eta = Q[:, robot.modal_q_slice(i)]
            d = eta @ nodes.Phi[n].T
            if b.flex.stiffening:
                d = d + np.einsum("ti,kij,tj->tk", eta, nodes.G[n], eta) / 2
            length = float(np.linalg.norm(nodes.r0[n]))
            if length == 0:
                raise SoagenError(f"{robot.name}: flexible body {b.name}: its tip node is at the clamp")
            a = nodes.r0[n] / length
            axial = d @ a
            out[b.name] = TipDeflection(d, d - np.outer(axial, a), axial, a, length)
    return out


def damping_matrix(robot) -> np.ndarray:
    """D (nv x nv): the dissipative part of the elastic forces, e(q, v) - e(q, 0) = D v
    (modal damping C of each flexible body, the damper d on each dof of a damped joint;
    (F.5), (C10)), whose power is -v^T D v <= 0."""
    D = np.zeros((robot.nv, robot.nv))
    for i, b in enumerate(robot.bodies):
        if b.joint.damping:
            sl = robot.joint_v_slice(i)
            D[sl, sl] = b.joint.damping * np.eye(b.joint.nv)
        if b.m:
            s = robot.modal_v_slice(i)
            D[s, s] = b.flex.C
    return D


@dataclass(frozen=True)
class EnergyBalance:
    """E(t) - E(0) = W_tau(t) + W_d(t) over a run: the kinetic energy T and the potential
    energy U (gravity and elastic) with E = T + U, the work of the joint torques and of
    the damping, and the residual E(t) - E(0) - W_tau(t) - W_d(t) (the integrator's
    error), all in J, per step. ``scale``: the energy the run moves around, the largest of
    |E(0)|, T, |U - U(0)|, |W_tau| and |W_d| over the run, what the residual is measured
    against."""

    T: np.ndarray
    U: np.ndarray
    W_tau: np.ndarray
    W_d: np.ndarray

    @property
    def E(self) -> np.ndarray:
        return self.T + self.U

    @property
    def residual(self) -> np.ndarray:
        return self.E - self.E[0] - self.W_tau - self.W_d

    @property
    def scale(self) -> float:
        return float(max(abs(self.E[0]), self.T.max(), np.abs(self.U - self.U[0]).max(), np.abs(self.W_tau).max(),
                         np.abs(self.W_d).max(), 1e-300))

    @property
    def relative(self) -> float:
        """max |residual| / scale: the balance closes when this is small (it falls as
        dt^4 with RK4's step)."""
        return float(np.abs(self.residual).max() / self.scale)


def energy_balance(traj, energy) -> EnergyBalance:
    """The :class:`EnergyBalance` of ``traj`` (a RobotTrajectory) with ``energy`` its
    (T, U) per step (:func:`soagen.simulation.robot.energies`)."""
    return EnergyBalance(energy[0], energy[1], traj.work_tau, traj.work_damping)
