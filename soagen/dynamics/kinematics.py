"""Link-to-link transforms phi(k+1, k) and the velocity sweep (2.25), bias accelerations
a(k) (2.19), (2.32) and gravity (3.21).

A body on a node of a flexible parent (framework paper (4.1)-(4.2)) sits on the node's
deformed frame: phi(k+1, k) is taken at the current deformation, and the node's modal
influence U (:mod:`soagen.dynamics.flexible`) adds U eta_dot(k+1) to the parent's
velocity before the shift; its bias acceleration has the node's terms (F.6)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.dynamics import flexible
from soagen.spatial import cross, phiT_motion


@dataclass
class NodeFrame:
    """Node ``node`` of a flexible body at the current configuration: its frame (R, r)
    in the body frame, its modal influence U (6 x m, at the body origin, body axes) and
    what its rate needs (Pi = Phi + G eta, theta = Psi eta, the Cayley factor c)
    (F.1), (F.2), (F.6)."""

    node: int
    R: np.ndarray
    r: np.ndarray
    U: np.ndarray
    Pi: np.ndarray
    theta: np.ndarray
    c: object


def joint_velocities(robot, i, qd):
    return qd[robot.v_slice(i)]


def link_transforms(robot, q, xp):
    """phi(parent, i) of every body as ``(R, l)``: the rotation of the body frame in its
    parent's frame, and l(k+1, k), the body origin O(k) seen from O(k+1) (3.1)."""
    return link_frames(robot, q, xp)[0]


def link_frames(robot, q, xp):
    """(X, att): the transforms of :func:`link_transforms` and, per body, the
    :class:`NodeFrame` it sits on (None on a rigid parent or the base)."""
    X, att = [], []
    for i, body in enumerate(robot.bodies):
        Rj, rj = body.joint.motion(robot.joint_q(i, q), xp)
        R0, r0 = xp.constant(body.placement_R), xp.constant(body.placement_r)
        a = None if body.attach < 0 else node_attachment(robot, body.parent, body.attach, q, xp, i)
        if a is None:
            R = R0 @ Rj
            l = r0 + R0 @ rj
        else:                                                # on the node's deformed frame (4.1)
            r0 = r0 - xp.constant(robot.bodies[body.parent].flex.nodes.r0[body.attach])
            R = a.R @ (R0 @ Rj)
            l = a.r + a.R @ (r0 + R0 @ rj)
        X.append((xp.name(R, "R", body=i, note="rotation of body frame k in its parent's frame, phi(k+1,k) (3.1)"),
                  xp.name(l, "l", body=i, note="l(k+1,k): origin O(k) in the parent's frame (3.1)")))
        att.append(a)
    return X, att


def node_attachment(robot, k, n, q, xp, label):
    """Node n of flexible body k at q: its frame (R, r) in body k's frame and its modal
    influence U, named ``Rn``, ``rn``, ``U`` + ``label`` (F.1)-(F.2)."""
    flex = robot.bodies[k].flex
    eta = robot.eta(k, q)
    R, r, theta, c = flexible.node_pose(flex, n, eta, xp)
    R = xp.name(R, f"Rn{label}", note="rotation of the node frame, Cayley map of Psi eta (F.1)")
    r = xp.name(r, f"rn{label}", note="node position r0 + Phi eta + eta^T G eta / 2 (F.1)")
    U, Pi = flexible.node_influence(flex, n, eta, r, theta, c, xp)
    U = xp.name(U, f"U{label}", note="modal influence of the node at O(k): (W, Pi + r~ W) (F.2)")
    return NodeFrame(n, R, r, U, Pi, theta, c)


def joint_maps(robot, xp):
    """H(k) of every body (nv_k x 6, constant in the body frame) (2.16), (2.31); for a
    flexible body the extended Hhat(k) = diag(H(k), I_m) (nv_k + m) x (6 + m)."""
    return [xp.constant(joint_map(body)) for body in robot.bodies]


def joint_map(body):
    """H(k), or Hhat(k) = diag(H(k), I_m) for a flexible body (its eta_dot are joint rates
    of the extended body, the framework paper's (HB; h))."""
    H = body.joint.H()
    if not body.m:
        return H
    out = np.zeros((H.shape[0] + body.m, 6 + body.m))
    out[:H.shape[0], :6] = H
    out[H.shape[0]:, 6:] = np.eye(body.m)
    return out


def pad(x, m, xp):
    """A 6-vector (or 6 x n block) with m zero rows appended: the extended vector of a
    body whose deformation does not enter (phihat^T has no modal rows)."""
    if not m:
        return x
    return np.concatenate([x, xp.zeros((m,) + x.shape[1:])])


def velocity_sweep(robot, X, H, qd, xp, gravity=True, att=None):
    """Base-to-tip sweep for the link velocities V(k) (2.25) and bias accelerations a(k).

    a(k) is written for any joint whose H^T(k) is constant in the body frame, with
    w = omega(k+1) (in body k's frame) and H^T(k) qd(k) = (w_r, v_r):
    ``a = (w x w_r, w x (w x l) + 2 w x v_r + w_r x v_r)``. For a revolute joint this is
    (2.19); for a prismatic one it corrects (2.32), whose Coriolis term lacks the factor 2
    (see docs/misprints.md). With ``gravity`` the base acceleration -g enters through
    a(k) of the bodies attached to the base, the reassignment a -> a + E g of (3.21).

    A flexible body's V and a are extended: Vhat = (V, eta_dot), ahat = (a, 0). A body on
    a flexible parent's node (``att``) sees the parent's velocity plus U eta_dot(parent)
    (4.1), and its a(k) has the node's terms (F.6)."""
    g = xp.constant(np.concatenate([np.zeros(3), -np.asarray(robot.gravity)]))
    V, a = [], []
    for i, body in enumerate(robot.bodies):
        R, l = X[i]
        rel = H[i].T @ joint_velocities(robot, i, qd)        # H^T(k) qd(k)
        w_r, v_r = rel[:3], rel[3:6]
        if body.parent < 0:
            V_i = rel                                        # V(N+1) = 0 (2.24)
            a_i = phiT_motion(R, l, g) if gravity else xp.zeros(6)
            a_i = pad(a_i + np.concatenate([xp.zeros(3), cross(w_r, v_r)]), body.m, xp)
        elif att is None or att[i] is None:
            V_p = V[body.parent]
            w = R.T @ V_p[:3]                                # omega(k+1) in frame k
            V_i = pad(phiT_motion(R, l, V_p), body.m, xp) + rel                 # (2.25)
            # the centripetal term w x (w x l) in the parent's frame, where l is constant
            a_i = pad(np.concatenate([cross(w, w_r),                             # (2.19)
                                      R.T @ cross(V_p[:3], cross(V_p[:3], l)) + 2 * cross(w, v_r)
                                      + cross(w_r, v_r)]), body.m, xp)
        else:                                                # on a flexible parent's node (4.1), (F.6)
            A, V_p = att[i], V[body.parent]
            etad = V_p[6:]
            node_vel = A.U @ etad
            V_i = pad(phiT_motion(R, l, V_p[:6] + node_vel), body.m, xp) + rel
            flex = robot.bodies[body.parent].flex
            rate = flexible.node_rate(flex, A.node, etad, A.U, A.Pi, A.r, A.theta, A.c, xp)
            a_i = pad(flexible.attached_bias(R, l, V_p[:3], phiT_motion(R, l, node_vel), rate, rel),
                      body.m, xp)
        V.append(xp.name(V_i, "V", body=i, note="spatial velocity V(k) (2.25)"))
        a.append(xp.name(a_i, "a", body=i, note="bias acceleration a(k), with -g at the base (2.19), (3.21)"))
    return V, a


POSE_CHECKPOINT = 16
"""Unrolled, the world pose of a body is named at every POSE_CHECKPOINT-th body along a
branch (counting from the base). Unnamed, the origin of body k is a sum over all its
ancestors, so a long chain's Jacobian grows as N^2 (and the product of rotations is N
levels deep); named at every body, short chains lose simplifications the common-
subexpression pass finds across a few links (arms and legs have branches of at most a
dozen moving bodies, TALOS's arm from its free base 11: their code is unchanged by this)."""


def world_poses(robot, X, xp=None):
    """Rotation and origin of every body frame in the world (base) frame. With ``xp``
    (a symbolic backend) they are named every :data:`POSE_CHECKPOINT` bodies along a
    branch, so that unrolled expressions stay bounded in size and depth."""
    poses, depth = [], []
    for i, body in enumerate(robot.bodies):
        R, l = X[i]
        d = 1 if body.parent < 0 else depth[body.parent] + 1
        if body.parent >= 0:
            Rp, op = poses[body.parent]
            R, l = Rp @ R, op + Rp @ l
            if xp is not None and d % POSE_CHECKPOINT == 0:
                R = xp.name(R, "Rw", body=i, note="rotation of body frame k in the world frame (product of the phi rotations)")
                l = xp.name(l, "ow", body=i, note="origin O(k) in the world frame")
        poses.append((R, l))
        depth.append(d)
    return poses


def frame_pose(robot, poses, frame, q=None, xp=None):
    """World rotation and origin of a frame fixed on a body (on a node of a flexible body:
    at the configuration ``q``)."""
    if frame.body < 0:
        return np.asarray(frame.R), np.asarray(frame.r)
    Rb, ob = poses[frame.body]
    R, r = frame_local(robot, frame, q, xp)
    return Rb @ R, ob + Rb @ r


def frame_local(robot, frame, q=None, xp=None):
    """A frame's rotation and origin in its body's frame; on a node of a flexible body,
    on the node's deformed frame at ``q`` (F.1)."""
    if frame.node < 0:
        return frame.R, frame.r
    from soagen.backend import NUMPY

    xp = xp or NUMPY
    if q is None:
        raise ValueError(f"frame {frame.name!r} is on a flexible body: its pose needs q")
    flex = robot.bodies[frame.body].flex
    R, r, _, _ = flexible.node_pose(flex, frame.node, robot.eta(frame.body, q), xp)
    return R @ xp.constant(frame.R), r + R @ xp.constant(np.asarray(frame.r) - flex.nodes.r0[frame.node])
