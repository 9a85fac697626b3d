"""Spatial quantities of the papers, Part I (2.14)-(2.16), (3.1).

Conventions (the papers', not Featherstone's):

* spatial velocity ``V = (omega, v)`` and acceleration ``alpha = (omega_dot, v_dot)``:
  angular part first, ``v`` the velocity of the frame origin, ``v_dot`` its classical
  (inertial) derivative (2.14);
* spatial force ``f = (N, F)``: moment about the frame origin first, then force (2.14);
* ``phi(k+1, k) = [[I, l~], [0, I]]`` shifts a force from O(k) to O(k+1); ``phi^T`` shifts
  a velocity back (2.16), (3.1), with ``l = l(k+1, k) = O(k) - O(k+1)``;
* spatial inertia about O(k): ``M = [[I_O, m p~], [-m p~, m I]]`` with
  ``I_O = I_c - m p~ p~`` (2.15).

In link frames a link-to-link shift also carries the rotation ``R`` of the child frame
in the parent frame; :func:`phi_force` and :func:`phiT_motion` apply it. The shifts and
inertias run on floats and on SymPy expressions alike (those that build arrays take the
backend ``xp``).

Rotations and unit quaternions live here too, in one place: rotation matrices about an
axis, from URDF roll-pitch-yaw, from and to quaternions stored ``(x, y, z, w)`` (vector
part first, Pinocchio's order), the exponential and logarithm of SO(3), the quaternion
product and rate. The joint-level maps of Part I Appendix B built on them are in
:mod:`soagen.quaternion`.
"""

from __future__ import annotations

import numpy as np

from soagen import reproducible
from soagen.backend import NUMPY


def cross(a, b):
    """a x b for 3-vectors (written out so SymPy folds zeros entry by entry)."""
    return np.array([a[1] * b[2] - a[2] * b[1],
                     a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]], dtype=np.result_type(a, b))


def skew(v):
    """The cross-product matrix v~ with v~ y = v x y."""
    z = v[0] * 0
    return np.array([[z, -v[2], v[1]],
                     [v[2], z, -v[0]],
                     [-v[1], v[0], z]], dtype=np.asarray(v).dtype)


def axis_rotation(axis, q, xp):
    """Rotation by angle q about the unit vector ``axis`` (Rodrigues)."""
    c, s = xp.cos(q), xp.sin(q)
    a = np.asarray(axis, dtype=float)
    if _axis_aligned(a):
        return _aligned_rotation(a, c, s, xp)
    return c * np.eye(3) + s * skew(a) + (1 - c) * np.outer(a, a)


def _axis_aligned(a):
    return np.count_nonzero(a) == 1 and abs(abs(a).max() - 1.0) == 0.0


def _aligned_rotation(a, c, s, xp):
    """Rotation about +-x, +-y or +-z, with exact zeros and ones (no 1 - cos terms)."""
    i = int(np.flatnonzero(a)[0])
    sign = 1 if a[i] > 0 else -1
    j, k = (i + 1) % 3, (i + 2) % 3
    R = xp.zeros((3, 3))
    R[i, i] = 1
    R[j, j] = c
    R[k, k] = c
    R[k, j] = sign * s
    R[j, k] = -sign * s
    return R


def rpy_rotation(rpy):
    """URDF fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll) (numeric only)."""
    r, p, y = (float(x) for x in rpy)
    cos, sin = reproducible.cos, reproducible.sin      # correctly rounded: baked into generated code
    cr, sr, cp, sp, cy, sy = cos(r), sin(r), cos(p), sin(p), cos(y), sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def quaternion_rotation(quat):
    """Rotation matrix of a unit quaternion given as (x, y, z, w) (Pinocchio's order)."""
    x, y, z, w = quat
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]],
                    dtype=np.asarray(quat).dtype)


def quaternion_from_rotation(R):
    """The unit quaternion (x, y, z, w) of a rotation matrix (Shepperd's method), w >= 0."""
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


def rotation_exp(w):
    """exp(w~): the rotation by the angle |w| about w / |w| (numeric)."""
    th = np.linalg.norm(w)
    if th < 1e-15:      # below round-off of 1: exp(w~) = I in double precision
        return np.eye(3)
    return axis_rotation(np.asarray(w, dtype=float) / th, th, NUMPY)


def rotation_log(R):
    """The rotation vector w (axis * angle, angle in [0, pi]) with exp(w~) = R."""
    c = np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)
    th = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    if th < 1e-8:       # sin(th) = th to th^2/6 < 1e-16
        return w / 2
    if np.pi - th < 1e-6:   # w / sin(th) loses precision near pi: axis from the symmetric part
        B = (R + np.eye(3)) / 2
        k = np.argmax(np.diag(B))
        axis = B[:, k] / np.sqrt(B[k, k])
        return axis * th
    return w * th / (2 * np.sin(th))


def rotation_error(R1, R2):
    """The orientation error of frame 1 against frame 2, world axes: the vee of the skew part
    of R1 R2^T (sin of the angle times the axis; to first order the rotation vector from
    frame 2 to frame 1, whose rate is omega_1 - omega_2). Polynomial: any backend."""
    E = R1 @ R2.T
    return 0.5 * np.array([E[2, 1] - E[1, 2], E[0, 2] - E[2, 0], E[1, 0] - E[0, 1]])


def quaternion_multiply(a, b):
    """Hamilton product a b of quaternions stored (x, y, z, w): R(a b) = R(a) R(b)."""
    ea, wa, eb, wb = np.asarray(a[:3]), a[3], np.asarray(b[:3]), b[3]
    return np.concatenate([wa * eb + wb * ea + np.cross(ea, eb), [wa * wb - ea @ eb]])


def quaternion_exp(w):
    """The unit quaternion of the rotation vector ``w`` (angle |w| about w/|w|)."""
    th = float(np.linalg.norm(w))
    if th < 1e-8:       # sin(th/2)/th by its series, exact in double precision here
        s = 0.5 - th * th / 48.0
        return np.concatenate([s * np.asarray(w), [np.cos(th / 2)]])
    return np.concatenate([np.sin(th / 2) / th * np.asarray(w), [np.cos(th / 2)]])


def quaternion_rate(quat, w):
    """d/dt of the unit quaternion (x, y, z, w) of a frame turning at the angular
    velocity ``w`` given in the fixed (world) frame."""
    x, y, z, s = quat.tolist()
    a, b, c = w.tolist()                   # 0.5 (s w + w x v, -w . v), v = (x, y, z)
    return np.array([s * a + b * z - c * y, s * b + c * x - a * z, s * c + a * y - b * x,
                     -(a * x + b * y + c * z)]) * 0.5


def phi_CO(l):
    """phi(C, O_i) = [[I, l~], [0, I]] with l = l(C, O_i): the shift of a force from O_i
    to C, both world-aligned (Part II (2.5))."""
    P = np.eye(6, dtype=np.asarray(l).dtype)
    P[:3, 3:] = skew(l)
    return P


def phi_force(R, l, f):
    """phi(k+1, k) f: a force at O(k) in frame k, as a force at O(k+1) in frame k+1 (2.20).

    ``R`` is the rotation of frame k in frame k+1 and ``l = l(k+1, k)`` the position of
    O(k) in frame k+1."""
    N, F = R @ f[:3], R @ f[3:]
    return np.concatenate([N + cross(l, F), F])


def phiT_motion(R, l, V):
    """phi^T(k+1, k) V: a velocity at O(k+1) in frame k+1, seen at O(k) in frame k (2.17)."""
    w, v = V[:3], V[3:]
    return np.concatenate([R.T @ w, R.T @ (v + cross(w, l))])


def phi_matrix(R, l):
    """phi(k+1, k) as a 6x6 matrix in link frames: [[R, l~ R], [0, R]]."""
    Z = R * 0
    return np.block([[R, skew(l) @ R], [Z, R]])


def spatial_inertia(m, p, I_c):
    """M(k) about O(k) from the mass, the centre of mass p and the inertia about it (2.15)."""
    P = skew(p)
    I_O = I_c - parallel_axis(m, p)
    return np.block([[I_O, m * P], [-m * P, m * np.eye(3, dtype=int)]])     # m, not 1.0 m, on symbols


def parallel_axis(m, p):
    """m p~ p~: the inertia about the origin is I_c - m p~ p~ (2.15) for a mass m at p
    (Steiner). One function for both directions of the conversion, so that on symbols the
    two terms are the same expression and cancel (soagen.model.mass_properties). On
    numbers, the product in a fixed order (soagen.reproducible): M(k) is baked into
    generated code."""
    P = skew(p)
    return m * reproducible.matmul(P, P)


def motion_cross(V, X):
    """V x X: the spatial cross product of a velocity V = (w, v) with motion vectors X
    (one 6-vector or the columns of a 6 x n block): (w x X_w, w x X_v + v x X_w). It is
    the time derivative of a motion vector fixed in a body moving with velocity V."""
    w, v = V[:3], V[3:]
    return np.concatenate([cross(w, X[:3]), cross(w, X[3:]) + cross(v, X[:3])])


def force_cross(X, f):
    """X x* f for motion vectors X (a 6-vector or the columns of a 6 x n block) and one
    force f = (n, F): (X_w x n + X_v x F, X_w x F); x* = -(x)^T, the dual of
    :func:`motion_cross`."""
    n, F, Xw, Xv = f[:3], f[3:], X[:3], X[3:]
    return np.concatenate([cross(Xw, n) + cross(Xv, F), cross(Xw, F)])


def force_cross_matrix(V):
    """The 6 x 6 matrix of f -> V x* f: [[w~, v~], [0, w~]] (= -(V x)^T)."""
    W, Vt = skew(V[:3]), skew(V[3:])
    return np.block([[W, Vt], [W * 0, W]])


def motion_cross_matrix(V):
    """The 6 x 6 matrix of x -> V x x (Jain-Rodriguez's V x; docs/derivatives.md (D.2)): -(V x*)^T."""
    return -force_cross_matrix(V).T


def force_bar_matrix(f):
    """The 6 x 6 matrix of x -> x x* f (f xbar*, docs/derivatives.md (D.2)); skew."""
    n, F = skew(f[:3]), skew(f[3:])
    return -np.block([[n, F], [F, np.zeros((3, 3))]])
