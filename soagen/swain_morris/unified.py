"""Generalized inertia, Jacobian, Coriolis and torque of Swain-Morris (28), Lemma B1,
the disturbance Jacobian (38)/(B14), H (48) and the forward dynamics of Table I.

Symbols follow the paper; ``D`` is Swain-Morris's end-effector selector B^T (18), not the
articulated-body D of the Rodriguez papers (docs/glossary: SOA names win elsewhere).
The Coriolis terms are the corrected ones (docs/misprints-trees-swain-morris.md):
C_a = Phi^T X^T (b + M_q (X_dot Phi qd + X_b_dot V_b)),
C_p = X_b^T (b + M_q (X_dot Phi qd + X_b_dot V_b)) + b_b,
which need no inverse of the 6nm x 6 matrix X_b; :func:`printed_C` keeps the paper's
grouping with a pseudo-inverse X_b^+ for comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.operators.swain_morris import Operators, crf
from soagen.spatial import phi_matrix


@dataclass
class Unified:
    M_a: np.ndarray
    M_ap: np.ndarray     # 6 x d_m
    M_p: np.ndarray      # 6 x 6
    M: np.ndarray        # (B7) generalized inertia
    J_a: np.ndarray      # Phi^T X^T D   (d_m x 6m)
    J_p: np.ndarray      # X_b^T D       (6 x 6m)
    J_b: np.ndarray      # B X_b  (14)
    J_q: np.ndarray      # B X Phi (14)
    J_D: np.ndarray      # (38), (B14)
    J: np.ndarray        # (41) generalized Jacobian, J^T = (B8)
    C_a: np.ndarray
    C_p: np.ndarray
    C: np.ndarray        # (B9)
    G: np.ndarray        # (26): (M_q^-1 + X_b M_b^-1 X_b^T)^-1
    H: np.ndarray        # (48)
    bias_e: np.ndarray   # J_b_dot V_b + J_q_dot qd  (36)


def unified(o: Operators) -> Unified:
    Mq, Xb, X, Phi, D = o.M_q, o.X_b, o.X, o.Phi, o.D
    M_a = Phi.T @ X.T @ Mq @ X @ Phi
    M_ap = Xb.T @ Mq @ X @ Phi
    M_p = o.M_b + Xb.T @ Mq @ Xb
    Mp_inv = np.linalg.inv(M_p)
    M = M_a - M_ap.T @ Mp_inv @ M_ap                                    # (B7)
    J_a, J_p = Phi.T @ X.T @ D, Xb.T @ D
    J_b, J_q = o.B @ Xb, o.B @ X @ Phi                                   # (14)
    J_D = Mp_inv @ M_ap                                                  # (B14)
    J = J_q - J_b @ J_D                                                  # (41)
    acc_bias = o.X_dot @ Phi @ o.qd + o.X_b_dot @ o.V_b                  # (15) at qdd = 0, V_b_dot = 0
    C_a = Phi.T @ X.T @ (o.b + Mq @ acc_bias)
    C_p = Xb.T @ (o.b + Mq @ acc_bias) + o.b_b
    C = C_a - M_ap.T @ Mp_inv @ C_p                                      # (B9)
    Mb_inv = np.linalg.inv(o.M_b)
    G = np.linalg.inv(np.linalg.inv(Mq) + Xb @ Mb_inv @ Xb.T)            # (26)
    E = np.eye(Mq.shape[0])
    H = J @ np.linalg.solve(M, J.T) + J_b @ Mb_inv @ Xb.T @ (E - G @ Xb @ Mb_inv @ Xb.T) @ D   # (48)
    bias_e = o.B @ acc_bias                                              # J_b_dot V_b + J_q_dot qd (B_dot = 0)
    return Unified(M_a, M_ap, M_p, M, J_a, J_p, J_b, J_q, J_D, J, C_a, C_p, C, G, H, bias_e)


def T_hat(u: Unified, T_a, f_b):
    """(B10): T_hat = T_a - M_ap^T M_p^-1 T_p with T_p = f_b."""
    return T_a - u.M_ap.T @ np.linalg.solve(u.M_p, f_b)


def printed_C(o: Operators, u: Unified):
    """C of Lemma B1 as printed: C_a = Phi^T X^T b + Phi^T X^T M_q X_dot Phi qd and
    C_p = X_b^T (b + M_q X_dot Phi qd) - (M_b X_b^-1 X_b_dot V_b - b_b), with X_b^-1 read as
    the Moore-Penrose left inverse (X_b is 6nm x 6)."""
    Phi, X, Xb = o.Phi, o.X, o.X_b
    C_a = Phi.T @ X.T @ o.b + Phi.T @ X.T @ o.M_q @ o.X_dot @ Phi @ o.qd
    C_p = Xb.T @ (o.b + o.M_q @ o.X_dot @ Phi @ o.qd) - (o.M_b @ np.linalg.pinv(Xb) @ o.X_b_dot @ o.V_b - o.b_b)
    return C_a - u.M_ap.T @ np.linalg.solve(u.M_p, C_p)


def base_acceleration(o: Operators, u: Unified, qdd, f_b, f_e):
    """V_b_dot from the base equation (23): M_p V_b_dot = f_b - M_ap qdd - C_p - J_p f_e
    (equal to the expanded (26))."""
    return np.linalg.solve(u.M_p, f_b - u.M_ap @ qdd - u.C_p - u.J_p @ f_e)


def base_acceleration_26(o: Operators, u: Unified, qdd, f_b, f_e):
    """(26) as printed (the last term read as - X_b^T b, see the misprints doc)."""
    Mb_inv = np.linalg.inv(o.M_b)
    Xb, G, E6 = o.X_b, u.G, np.eye(6)
    E = np.eye(Xb.shape[0])
    return Mb_inv @ ((E6 - Xb.T @ G @ Xb @ Mb_inv) @ (f_b - o.b_b)
                     - Xb.T @ (E - G @ Xb @ Mb_inv @ Xb.T) @ o.D @ f_e
                     - Xb.T @ G @ o.X @ o.Phi @ qdd - Xb.T @ G @ o.X_b_dot @ o.V_b
                     + Xb.T @ G @ Xb @ Mb_inv @ Xb.T @ o.b - Xb.T @ G @ o.X_dot @ o.Phi @ o.qd
                     - Xb.T @ o.b)


@dataclass
class Grasp:
    """A rigid object held by all end-effectors: its spatial inertia about its frame
    origin (object frame), and W (34): V^e = W V^o, the velocity transforms from the object
    frame to each end-effector frame (constant in body coordinates: W_dot = 0)."""

    M_o: np.ndarray
    W: np.ndarray


def grasp_from_pose(robot, q, ee_frames, M_o, T_obj_in_ee0):
    """The grasp matrix for an object rigidly attached at pose ``(R, r)`` in the first
    end-effector frame, the other grasps taken at configuration q."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses

    poses = world_poses(robot, link_transforms(robot, np.asarray(q, float), NUMPY))
    R0, p0 = frame_pose(robot, poses, ee_frames[0])
    Ro, po = R0 @ T_obj_in_ee0[0], p0 + R0 @ T_obj_in_ee0[1]
    W = []
    for f in ee_frames:
        Re, pe = frame_pose(robot, poses, f)
        # object frame in EE frame: R = Re^T Ro, r = Re^T (po - pe); X(e <- o) = phi(e, o)^T
        W.append(phi_matrix(Re.T @ Ro, Re.T @ (po - pe)).T)
    return Grasp(np.asarray(M_o, float), np.vstack(W))


@dataclass
class Solution:
    qdd: np.ndarray
    V_b_dot: np.ndarray
    V_o_dot: np.ndarray | None
    f_e: np.ndarray


def forward_dynamics(o: Operators, u: Unified, T_a, f_b, grasp: Grasp | None = None, V_o=None):
    """Table I: (1) the open-chain end-effector acceleration (f_e = 0); (2) the object
    acceleration (49, corrected); (3) f_e (47); (4) qdd = M^-1 (T_hat - J^T f_e - C);
    (5) V_b_dot (23)/(26). Without a grasp, f_e = 0 (non-cooperative arms)."""
    Th = T_hat(u, T_a, f_b)
    qdd_open = np.linalg.solve(u.M, Th - u.C)
    m6 = u.J.shape[0]
    if grasp is None:
        f_e, V_o_dot = np.zeros(m6), None
    else:
        Vb_dot_open = base_acceleration(o, u, qdd_open, f_b, np.zeros(m6))
        Ve_open = u.J_b @ Vb_dot_open + u.J_q @ qdd_open + u.bias_e              # (44)
        W, M_o = grasp.W, grasp.M_o
        b_o = crf(V_o) @ M_o @ V_o
        Hinv_W = np.linalg.solve(u.H, W)
        V_o_dot = np.linalg.solve(M_o + W.T @ Hinv_W,                       # (49) corrected
                                  W.T @ np.linalg.solve(u.H, Ve_open) - b_o)
        f_e = np.linalg.solve(u.H, Ve_open - W @ V_o_dot)                     # (47), W_dot V_o = 0
    qdd = np.linalg.solve(u.M, Th - u.J.T @ f_e - u.C)                            # Step 4
    return Solution(qdd, base_acceleration(o, u, qdd, f_b, f_e), V_o_dot, f_e)


def flexible_base_force(delta_b, s_b, V_b, dx_b):
    """(C5): f_b = -delta_b x_b_dot - s_b Delta x_b (base frame; x_b_dot = V_b)."""
    return -np.asarray(delta_b) @ V_b - np.asarray(s_b) @ dx_b
