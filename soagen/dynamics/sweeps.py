"""What every dynamics algorithm computes first: phi(k+1, k), H(k), M(k), V(k), a(k),
and the shifts between a body and its parent that every sweep uses.

Every step a recursion takes between the link frames, or from a body's own numbers, is a
:class:`State` method: phi (:meth:`State.up`, :meth:`State.down`, :meth:`State.phi`), the
bias force b(k), the 10-parameter shift of a spatial inertia, the forces at frames (B), the
rates of the joint axes and of the composite bodies. The same recursions then run on the
blocks of the papers' operators (:mod:`soagen.symbolic.models.block_state`), where each of these
methods is the operator it implements.

For a flexible parent the shift is the extended one of the framework paper's (4.1)-(4.2):
phihat(k+1, k) = [I; U^T] phi(k+1, k) [I, 0], (6 + m_parent) x (6 + m_k), where U is the
modal influence of the node body k sits on (:mod:`soagen.dynamics.flexible`). A force
carried to the parent becomes its spatial force and, through U^T, its modal forces; a
parent's extended velocity reaches the child as V + U eta_dot. Between rigid bodies these
are phi and phi^T, computed exactly as before."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from soagen.dynamics import flexible
from soagen.dynamics.composite import mirrored, named_inertia
from soagen.dynamics.inertia import bias_force, link_inertias, phi_inertia
from soagen.dynamics.kinematics import (
    joint_maps,
    link_frames,
    node_attachment,
    pad,
    velocity_sweep,
)
from soagen.dynamics.rates import composite_rates, joint_rates, spatial_accelerations
from soagen.dynamics.tip import frame_forces_at_bodies, tip_force_at_body
from soagen.spatial import phi_force, phi_matrix, phiT_motion


@dataclass
class State:
    """The per-body quantities of one configuration and velocity (link frames)."""

    X: list        # phi(parent, k) as (R, l)
    H: list        # H(k)  (Hhat(k) for a flexible body)
    M: list        # M(k)  (Mhat(k))
    V: list        # V(k)       (2.25)   (Vhat(k) = (V(k), eta_dot))
    a: list        # a(k) (+ E g at the base when gravity is on)  (2.19), (3.21)
    robot: object = None
    xp: object = None
    att: list = None     # per body: the NodeFrame of a flexible parent it sits on, or None
    q: object = None
    qd: object = None
    _b: dict = field(default_factory=dict)
    _frames: dict = field(default_factory=dict)

    def b(self, i):
        """b(k) (2.23); for a flexible body bhat(k) from its kinetic energy (F.4)."""
        body = self.robot.bodies[i]
        if body.flex is None:
            return bias_force(self.M[i], self.V[i])
        if i not in self._b:
            bh = flexible.bias(body.flex, self.M[i], self.V[i], self.robot.eta(i, self.q), self.xp)
            self._b[i] = self.xp.name(bh, "b", body=i, note="bias force bhat(k) of the flexible body (F.4)")
        return self._b[i]

    def node_of(self, i):
        """The NodeFrame of the flexible parent's node body k sits on, or None."""
        return self.att[i] if self.att else None

    def up(self, i, f):
        """phihat(parent, k) f: a force (or 6+m rows) at body k, as a force at its parent."""
        m = self.robot.bodies[i].m
        g = phi_force(*self.X[i], f[:6] if m else f)
        A = self.node_of(i)
        return g if A is None else np.concatenate([g, A.U.T @ g])

    def down(self, i, x):
        """phihat^T(parent, k) x: a velocity (or acceleration) of the parent, seen at body k."""
        A = self.node_of(i)
        y = x if A is None else x[:6] + A.U @ x[6:]
        return pad(phiT_motion(*self.X[i], y), self.robot.bodies[i].m, self.xp)

    def frame_node(self, frame):
        """The NodeFrame a frame on a flexible body sits on (None for other frames)."""
        if frame.node < 0:
            return None
        if frame.name not in self._frames:
            self._frames[frame.name] = node_attachment(self.robot, frame.body, frame.node, self.q, self.xp,
                                                       f"f{frame.body}")
        return self._frames[frame.name]

    def frame_origin(self, frame, nf):
        """The origin of a frame on node frame ``nf`` in its body's frame (F.1)."""
        r0 = self.robot.bodies[frame.body].flex.nodes.r0[frame.node]
        return nf.r + nf.R @ self.xp.constant(np.asarray(frame.r) - r0)

    def phi(self, i):
        """phihat(parent, k) as a (6 + m_parent) x (6 + m_k) matrix (link frames)."""
        P = phi_matrix(*self.X[i])
        A = self.node_of(i)
        if A is not None:
            P = np.concatenate([P, A.U.T @ P])
        m = self.robot.bodies[i].m
        if m:
            P = np.concatenate([P, self.xp.zeros((P.shape[0], m))], axis=1)
        return P

    def shift_inertia(self, i, X, rigid):
        """phihat(parent, k) X phihat^T(parent, k), the step of (a.44): for a spatial inertia
        of an all-rigid subtree (``rigid``) on a rigid parent by its 10 parameters
        (:func:`~soagen.dynamics.inertia.phi_inertia`), else by the 6 x 6 congruence."""
        if rigid and self.node_of(i) is None:
            return phi_inertia(*self.X[i], X)
        phi = self.phi(i)
        return phi @ X @ phi.T

    def named_inertia(self, i, X, label, note, rigid):
        """X named ``label`` + k: a spatial inertia of an all-rigid subtree (``rigid``) by its
        10 parameters (:func:`~soagen.dynamics.composite.named_inertia`), else by its upper
        triangle."""
        if rigid:
            return named_inertia(X, self.xp, label, i, note)
        return self.xp.name(mirrored(X), label, body=i, symmetric=True, note=note)

    def tip_force(self, f0):
        """B f(0) (3.7): the tip force f(0) at the tip body's origin, in its frame."""
        return tip_force_at_body(self, f0)

    def frame_forces(self, frames, f):
        """B f (2.13): forces at several frames as forces at the body origins, per body."""
        return frame_forces_at_bodies(self, frames, f)

    def joint_rates(self, qd, alpha=None, qdd=None):
        """S, S_dot, Psi_dot of every joint (D.4)-(D.5), and Psi_ddot (D.6) when the link
        accelerations alpha (gravity included) and qdd are given
        (:func:`~soagen.dynamics.rates.joint_rates`)."""
        A = None if alpha is None else spatial_accelerations(self, alpha)
        return joint_rates(self, qd, A, qdd)

    def composite_rates(self):
        """The composite inertias and their rates (D.3) (:func:`~soagen.dynamics.rates.composite_rates`)."""
        return composite_rates(self)


def prepare(robot, q, qd, xp, gravity=True) -> State:
    X, att = link_frames(robot, q, xp)
    H = joint_maps(robot, xp)
    V, a = velocity_sweep(robot, X, H, qd, xp, gravity, att)
    return State(X, H, link_inertias(robot, xp, q), V, a, robot, xp, att, q, qd)


ZETA = "zeta(k) = phi^T a (4.22b)"


def anticausal_propagate(s, u, label, note):
    """zeta = phi^T u: zeta(k) = phi^T(k+1, k) zeta(k+1) + u(k), base to tip (4.22b);
    named ``label`` with ``note`` (:meth:`soagen.backend.NumpyBackend.name`)."""
    robot, xp = s.robot, s.xp
    zeta = []
    for i, body in enumerate(robot.bodies):
        z = u[i] if body.parent < 0 else s.down(i, zeta[body.parent]) + u[i]
        zeta.append(xp.name(z, label, body=i, note=note))
    return zeta
