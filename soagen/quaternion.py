"""Unit quaternions for spherical and free joints: the kinematic map of Part I Appendix B
(b.3)-(b.5) and integration on the configuration manifold.

Convention (the model's, and Pinocchio's): a quaternion is stored as ``(x, y, z, w)`` =
``(eps, eta)``, vector part first; it gives the rotation ``R`` of the body frame in its
joint (parent) frame; the angular velocity ``omega`` of a spherical or free joint is
expressed in the *body* frame. A free joint has ``q = (p, quat)`` with ``p`` the body origin
in the parent frame and ``v = (omega, v)``, ``v = R^T pdot`` the origin velocity in body axes.

(b.3) q_dot = Lambda(q) omega, omega = pi(q) q_dot, with (4x3 and 3x4, pi Lambda = I3)
    Lambda(q) = 1/2 [[eta I + eps~], [-eps^T]],   pi(q) = 2 [eta I - eps~, -eps].
The seed prints ``pi^-1(q) = pi(q)`` and calls Lambda "nonsingular"; both are 4x3 / 3x4,
so what holds is pi(q) Lambda(q) = I3 on unit quaternions (docs/misprints-trees-swain-morris.md).
(b.4)-(b.5) theta_dot = Omega(theta) W: per joint block diag(Lambda, R) for a free joint
here (p is in the parent frame, v in the body frame; the seed's W uses ell_dot directly,
i.e. the identity block), Lambda for a spherical joint, 1 for a 1-dof joint; a planar
joint (q = (x, y, theta), v = (omega, v1, v2) in the body frame) has its SE(2) analogue.
"""

from __future__ import annotations

import numpy as np

from soagen.spatial import (
    quaternion_exp,
    quaternion_multiply,
    quaternion_rotation,
    skew,
)


def Lambda(quat):
    """(b.3) q_dot = Lambda(q) omega (omega in the body frame), 4 x 3."""
    eps, eta = np.asarray(quat[:3]), quat[3]
    return 0.5 * np.vstack([eta * np.eye(3) + skew(eps), -eps[None, :]])


def pi(quat):
    """(b.3) omega = pi(q) q_dot, 3 x 4; pi(q) Lambda(q) = I3 for a unit quaternion."""
    eps, eta = np.asarray(quat[:3]), quat[3]
    return 2.0 * np.hstack([eta * np.eye(3) - skew(eps), -eps[:, None]])


def _left_jacobian(w):
    """V(w) of the SE(3) exponential: p = V(w) v for a constant body twist (w, v)."""
    th = float(np.linalg.norm(w))
    W = skew(np.asarray(w, dtype=float))
    if th < 1e-3:       # the closed form cancels (1 - cos); the series is exact to th^4/720
        a, b = 0.5 - th * th / 24, 1 / 6 - th * th / 120
    else:
        a, b = (1 - np.cos(th)) / th**2, (th - np.sin(th)) / th**3
    return np.eye(3) + a * W + b * W @ W


def joint_Omega(joint, q):
    """(b.4) theta_dot(k) = Omega(theta(k)) W(k) for one joint (nq x nv)."""
    if joint.kind == "spherical":
        return Lambda(q[0:4])
    if joint.kind == "free":
        out = np.zeros((7, 6))
        out[0:3, 3:6] = quaternion_rotation(np.asarray(q[3:7], dtype=float))   # p_dot = R v
        out[3:7, 0:3] = Lambda(q[3:7])
        return out
    if joint.kind == "planar":                       # (x, y)_dot = R2(theta) (v1, v2), theta_dot = omega
        c, s_ = np.cos(q[2]), np.sin(q[2])
        return np.array([[0.0, c, -s_], [0.0, s_, c], [1.0, 0.0, 0.0]])
    return np.eye(joint.nq)


def Omega(robot, q):
    """(b.5) theta_dot = Omega W: the block-diagonal kinematic map, nq x nv."""
    out = np.zeros((robot.nq, robot.nv))
    for i, b in enumerate(robot.bodies):
        out[robot.q_slice(i), robot.v_slice(i)] = joint_Omega(b.joint, q[robot.q_slice(i)])
    return out


def q_dot(robot, q, v):
    """theta_dot = Omega(theta) W (b.5)."""
    return Omega(robot, q) @ np.asarray(v)


def normalize(robot, q):
    """q with every joint quaternion scaled to unit length."""
    q = np.array(q, dtype=float)
    for i, b in enumerate(robot.bodies):
        if b.joint.kind in ("spherical", "free"):
            s = robot.q_slice(i)
            q[s.stop - 4:s.stop] /= np.linalg.norm(q[s.stop - 4:s.stop])
    return q


def integrate(robot, q, v):
    """q (+) v: the configuration reached from q after one unit of time at the constant
    velocity v (on the manifold: exact exponential maps, quaternions stay unit).

    Spherical: quat <- quat exp(omega). Free: the SE(3) exponential of the constant body
    twist (omega, v), i.e. p <- p + R V(omega) v, R <- R exp(omega~) (as Pinocchio's
    ``integrate`` for a free-flyer). 1-dof joints: q + v."""
    q = np.array(q, dtype=float)
    v = np.asarray(v, dtype=float)
    out = q.copy()
    for i, b in enumerate(robot.bodies):
        qs, vs = robot.q_slice(i), robot.v_slice(i)
        qi, vi = q[qs], v[vs]
        if b.joint.kind == "spherical":
            out[qs] = quaternion_multiply(qi, quaternion_exp(vi))
        elif b.joint.kind == "free":
            R = quaternion_rotation(qi[3:7])
            out[qs.start:qs.start + 3] = qi[0:3] + R @ (_left_jacobian(vi[0:3]) @ vi[3:6])
            out[qs.start + 3:qs.stop] = quaternion_multiply(qi[3:7], quaternion_exp(vi[0:3]))
        elif b.joint.kind == "planar":               # SE(2) exponential of (omega, v1, v2)
            out[qs.start:qs.start + 2] = qi[0:2] + _rotation2(qi[2]) @ (_se2_left_jacobian(vi[0]) @ vi[1:3])
            out[qs.start + 2] = qi[2] + vi[0]
        else:
            out[qs] = qi + vi
    return normalize(robot, out)


def _rotation2(theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s], [s, c]])


def _se2_left_jacobian(w):
    """V(w) of the SE(2) exponential: p = V(w) v for a constant planar twist (w, v)."""
    if abs(w) < 1e-4:   # sin(w)/w, (1 - cos w)/w by series, exact to w^4/120
        sw, cw = 1 - w * w / 6, w / 2 - w**3 / 24
    else:
        sw, cw = np.sin(w) / w, (1 - np.cos(w)) / w
    return np.array([[sw, -cw], [cw, sw]])


def difference(robot, q0, q1):
    """q1 (-) q0: the velocity v (nv) that :func:`integrate` takes from q0 to q1 in one
    unit of time, its inverse: rotations by their logarithm (body frame), a free or
    planar joint's translation through the inverse of V(omega). The position error of a
    PD law on the manifold."""
    from soagen.spatial import rotation_log

    q0, q1 = np.asarray(q0, dtype=float), np.asarray(q1, dtype=float)
    out = np.zeros(robot.nv)
    for i, b in enumerate(robot.bodies):
        a, c, vs = q0[robot.q_slice(i)], q1[robot.q_slice(i)], robot.v_slice(i)
        if b.joint.kind in ("spherical", "free"):
            R0 = quaternion_rotation(a[-4:])
            w = rotation_log(R0.T @ quaternion_rotation(c[-4:]))
            out[vs] = w if b.joint.kind == "spherical" else \
                np.concatenate([w, np.linalg.solve(_left_jacobian(w), R0.T @ (c[:3] - a[:3]))])
        elif b.joint.kind == "planar":
            w = c[2] - a[2]
            out[vs] = [w, *np.linalg.solve(_se2_left_jacobian(w), _rotation2(a[2]).T @ (c[:2] - a[:2]))]
        else:
            out[vs] = c - a
    return out
