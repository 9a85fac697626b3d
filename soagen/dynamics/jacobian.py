"""The tip Jacobian J = B^T phi^T H^T (3.13), Jdot qdot = B^T phi^T a + a(0) (Sec. 3), and
the operational-space inverse inertia J M^-1 J^T = B^T psi^T H^T D^-1 H psi B by the O(N)
recursion (6.10) of Part II. Outputs are world-aligned, angular rows first, at the tip
point."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.innovations import riccati
from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.dynamics.sweeps import anticausal_propagate
from soagen.spatial import cross, phi_matrix, phiT_motion


def ancestors(robot, body):
    """Bodies from the base to ``body`` (inclusive)."""
    path = []
    while body >= 0:
        path.append(body)
        body = robot.bodies[body].parent
    return path[::-1]


def _world(R, x):
    return np.concatenate([R @ x[:3], R @ x[3:]])


def jacobian(robot, s, xp, frame=None):
    """V(0) = J qdot: column block of joint k is phi^T(k, 0) H^T(k) in world axes (3.13)."""
    frame = frame or robot.tip
    poses = world_poses(robot, s.X)
    _, o_tip = frame_pose(robot, poses, frame)
    J = xp.zeros((6, robot.nv))
    for i in ancestors(robot, frame.body):
        Rb, ob = poses[i]
        S = _world(Rb, s.H[i].T)                          # H^T(k) in world axes
        l = o_tip - ob                                    # l(k, 0)
        J[:, robot.v_slice(i)] = np.concatenate([S[:3], S[3:] + cross(S[:3], l)])
    return J


def jacobian_dot_qd(robot, s, xp, frame=None):
    """Jdot qdot = B^T phi^T a + a(0): the tip acceleration at qdd = 0 without gravity
    (``s`` must be prepared with gravity=False)."""
    frame = frame or robot.tip
    zeta = anticausal_propagate(robot, s.X, s.a, xp, "zeta")
    k = frame.body
    r = xp.constant(frame.r)
    w = s.V[k][:3]
    alpha0 = phiT_motion(xp.eye(3), r, zeta[k])           # B^T phi^T a
    alpha0 = alpha0 + np.concatenate([xp.zeros(3), cross(w, cross(w, r))])   # + a(0)
    return _world(world_poses(robot, s.X)[k][0], alpha0)


def op_space_inverse_inertia(robot, s, xp, frame=None):
    """Lambda(k) = psi^T(k+1,k) Lambda(k+1) psi(k+1,k) + H^T D^-1 H along the path to the
    tip (6.10b); Lambda(0) = phi^T(1,0) Lambda(1) phi(1,0) (6.10c)."""
    frame = frame or robot.tip
    inn = riccati(robot, s, xp)
    Lam = None
    for i in ancestors(robot, frame.body):
        own = s.H[i].T @ inn.Dinv[i] @ s.H[i]
        p = robot.bodies[i].parent
        if p >= 0:
            psi = phi_matrix(*s.X[i]) - phi_matrix(*s.X[i]) @ inn.G[i] @ s.H[i]   # (4.7)
            own = own + psi.T @ Lam @ psi
        Lam = xp.name(own, f"Lam{i}")
    B = phi_matrix(xp.eye(3), xp.constant(frame.r))       # phi(1, 0)
    Lam0 = B.T @ Lam @ B
    Rb = world_poses(robot, s.X)[frame.body][0]
    Rw = np.block([[Rb, Rb * 0], [Rb * 0, Rb]])
    return Rw @ Lam0 @ Rw.T
