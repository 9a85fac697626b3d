"""Link-to-link transforms phi(k+1, k) and the velocity sweep (2.25), bias accelerations
a(k) (2.19), (2.32) and gravity (3.21)."""

from __future__ import annotations

import numpy as np

from soagen.spatial import cross, phiT_motion


def joint_velocities(robot, i, qd):
    return qd[robot.v_slice(i)]


def link_transforms(robot, q, xp):
    """phi(parent, i) of every body as ``(R, l)``: the rotation of the body frame in its
    parent's frame, and l(k+1, k), the body origin O(k) seen from O(k+1) (3.1)."""
    X = []
    for i, body in enumerate(robot.bodies):
        Rj, rj = body.joint.motion(q[robot.q_slice(i)], xp)
        R0, r0 = xp.constant(body.placement_R), xp.constant(body.placement_r)
        R = R0 @ Rj
        l = r0 + R0 @ rj
        X.append((xp.name(R, f"R{i}", note="rotation of body frame k in its parent's frame, phi(k+1,k) (3.1)"),
                  xp.name(l, f"l{i}", note="l(k+1,k): origin O(k) in the parent's frame (3.1)")))
    return X


def joint_maps(robot, xp):
    """H(k) of every body (nv_k x 6, constant in the body frame) (2.16), (2.31)."""
    return [xp.constant(body.joint.H()) for body in robot.bodies]


def velocity_sweep(robot, X, H, qd, xp, gravity=True):
    """Base-to-tip sweep for the link velocities V(k) (2.25) and bias accelerations a(k).

    a(k) is written for any joint whose H^T(k) is constant in the body frame, with
    w = omega(k+1) (in body k's frame) and H^T(k) qd(k) = (w_r, v_r):
    ``a = (w x w_r, w x (w x l) + 2 w x v_r + w_r x v_r)``. For a revolute joint this is
    (2.19); for a prismatic one it corrects (2.32), whose Coriolis term lacks the factor 2
    (see docs/misprints.md). With ``gravity`` the base acceleration -g enters through
    a(k) of the bodies attached to the base, the reassignment a -> a + E g of (3.21)."""
    g = xp.constant(np.concatenate([np.zeros(3), -np.asarray(robot.gravity)]))
    V, a = [], []
    for i, body in enumerate(robot.bodies):
        R, l = X[i]
        rel = H[i].T @ joint_velocities(robot, i, qd)        # H^T(k) qd(k)
        w_r, v_r = rel[:3], rel[3:]
        if body.parent < 0:
            V_i = rel                                        # V(N+1) = 0 (2.24)
            a_i = phiT_motion(R, l, g) if gravity else xp.zeros(6)
            a_i = a_i + np.concatenate([xp.zeros(3), cross(w_r, v_r)])
        else:
            V_p = V[body.parent]
            w = R.T @ V_p[:3]                                # omega(k+1) in frame k
            V_i = phiT_motion(R, l, V_p) + rel               # (2.25)
            # the centripetal term w x (w x l) in the parent's frame, where l is constant
            a_i = np.concatenate([cross(w, w_r),             # (2.19)
                                  R.T @ cross(V_p[:3], cross(V_p[:3], l)) + 2 * cross(w, v_r) + cross(w_r, v_r)])
        V.append(xp.name(V_i, f"V{i}", note="spatial velocity V(k) (2.25)"))
        a.append(xp.name(a_i, f"a{i}", note="bias acceleration a(k), with -g at the base (2.19), (3.21)"))
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
                R = xp.name(R, f"Rw{i}", note="rotation of body frame k in the world frame (product of the phi rotations)")
                l = xp.name(l, f"ow{i}", note="origin O(k) in the world frame")
        poses.append((R, l))
        depth.append(d)
    return poses


def frame_pose(robot, poses, frame):
    """World rotation and origin of a frame fixed on a body."""
    if frame.body < 0:
        return np.asarray(frame.R), np.asarray(frame.r)
    Rb, ob = poses[frame.body]
    return Rb @ frame.R, ob + Rb @ frame.r
