"""The operators of Swain-Morris (7)-(21), evaluated densely in link frames.

Velocity transforms ``X(i <- k)`` map a spatial velocity in frame k to frame i (the paper's
``^i_k X``); force transforms are their transposes. For joint k with parent frame p, the
one-step velocity transform is soagen's phi^T(p, k) (Part I (2.17)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics.sweeps import prepare
from soagen.errors import SoagenError
from soagen.spatial import phi_matrix, skew


def crm(V):
    """Motion cross product V x (angular first): [[w~, 0], [v~, w~]]."""
    w, v = skew(V[:3]), skew(V[3:])
    return np.block([[w, np.zeros((3, 3))], [v, w]])


def crf(V):
    """Force cross product V x* = -crm(V)^T."""
    return -crm(V).T


def arms_of(robot):
    """The m arms: serial chains of bodies hanging from the base body 0 (free joint)."""
    if robot.nb == 0 or robot.bodies[0].joint.kind != "free" or robot.bodies[0].parent != -1:
        raise SoagenError(f"{robot.name}: the unified model needs a free root joint (the base); "
                          "load with floating_base=True")
    arms = []
    for c in robot.children(0):
        arm = [c]
        while True:
            ch = robot.children(arm[-1])
            if not ch:
                break
            if len(ch) > 1:
                raise SoagenError(f"{robot.name}: arm from {robot.bodies[c].name!r} branches; "
                                  "the unified model has serial arms")
            arm.append(ch[0])
        arms.append(arm)
    if sum(len(a) for a in arms) != robot.nb - 1:
        raise SoagenError(f"{robot.name}: bodies not on an arm of the base")
    return arms


@dataclass
class Operators:
    """X, X_b, Phi, B, D, M_q, M_b, b, b_b, X_dot, X_b_dot and the velocities (9)-(21)."""

    arms: list          # body indices of each arm, base to tip
    links: list         # all arm bodies in the paper's order (arm by arm, base to tip)
    X: np.ndarray       # 6nm x 6nm, block lower triangular (10), block diagonal over arms (11)
    X_b: np.ndarray     # 6nm x 6 (9), (11)
    Phi: np.ndarray     # 6nm x d_m, free-mode (joint map) matrices, = soagen H^T
    B: np.ndarray       # 6m x 6nm (13)
    D: np.ndarray       # 6nm x 6m, D = B^T (18)
    M_q: np.ndarray     # 6nm x 6nm link inertias about the link origins (19)
    M_b: np.ndarray     # 6 x 6 base inertia about the base origin (22)
    V: np.ndarray       # 6nm link velocities (11)
    V_b: np.ndarray     # 6 base velocity (base frame)
    qd: np.ndarray      # d_m arm joint rates
    b: np.ndarray       # 6nm bias forces d/dt(M_q) V = V x* M_q V (19)
    b_b: np.ndarray     # 6 base bias force (22)
    X_dot: np.ndarray
    X_b_dot: np.ndarray
    arm_v: np.ndarray   # robot v indices of the arm joints (paper order)
    ee: list            # end-effector frames, one per arm


def operators(robot, q, v, ee_frames) -> Operators:
    """Build the operators at state (q, v) of a soagen robot (free root + m serial arms);
    ``ee_frames[j]`` is the end-effector frame (n+1) of arm j (on its last body)."""
    arms = arms_of(robot)
    if len(ee_frames) != len(arms):
        raise SoagenError(f"{robot.name}: {len(arms)} arms but {len(ee_frames)} end-effector frames")
    for arm, f in zip(arms, ee_frames):
        if f.body != arm[-1]:
            raise SoagenError(f"{robot.name}: end-effector frame {f.name!r} is not on the last link of its arm")
    s = prepare(robot, np.asarray(q, float), np.asarray(v, float), NUMPY, gravity=False)
    links = [i for arm in arms for i in arm]
    pos = {i: n for n, i in enumerate(links)}
    N, m = len(links), len(arms)
    step = {i: phi_matrix(*s.X[i]).T for i in links}          # X(i <- parent(i)) (7)
    Xb = {0: np.eye(6)}
    for i in links:                                           # X(i <- b) (8)
        Xb[i] = step[i] @ Xb[robot.bodies[i].parent]
    X = np.zeros((6 * N, 6 * N))
    X_b = np.zeros((6 * N, 6))
    for arm in arms:
        for a, i in enumerate(arm):
            X_b[6 * pos[i]:6 * pos[i] + 6] = Xb[i]
            T = np.eye(6)
            for k in reversed(arm[:a + 1]):                   # X(i <- k), k = i, parent ...
                X[6 * pos[i]:6 * pos[i] + 6, 6 * pos[k]:6 * pos[k] + 6] = T
                T = T @ step[k]
    arm_v = np.concatenate([np.arange(robot.v_slice(i).start, robot.v_slice(i).stop) for i in links])
    Phi = np.zeros((6 * N, len(arm_v)))
    c = 0
    for i in links:
        Hi = s.H[i]
        Phi[6 * pos[i]:6 * pos[i] + 6, c:c + Hi.shape[0]] = Hi.T
        c += Hi.shape[0]
    B = np.zeros((6 * m, 6 * N))
    for j, (arm, f) in enumerate(zip(arms, ee_frames)):
        B[6 * j:6 * j + 6, 6 * pos[arm[-1]]:6 * pos[arm[-1]] + 6] = \
            phi_matrix(np.asarray(f.R, float), np.asarray(f.r, float)).T   # X(n+1 <- n) (13)
    Vl = {i: s.V[i] for i in [0] + links}
    V = np.concatenate([Vl[i] for i in links])
    M_q = np.zeros((6 * N, 6 * N))
    for i in links:
        M_q[6 * pos[i]:6 * pos[i] + 6, 6 * pos[i]:6 * pos[i] + 6] = s.M[i]
    b = np.concatenate([crf(Vl[i]) @ s.M[i] @ Vl[i] for i in links])
    # d/dt X(i <- k) = X(i <- k) crm(V_k) - crm(V_i) X(i <- k)  (Sec. 9, step (3))
    X_dot = np.zeros_like(X)
    for i in links:
        for k in links:
            blk = X[6 * pos[i]:6 * pos[i] + 6, 6 * pos[k]:6 * pos[k] + 6]
            if blk.any():
                X_dot[6 * pos[i]:6 * pos[i] + 6, 6 * pos[k]:6 * pos[k] + 6] = blk @ crm(Vl[k]) - crm(Vl[i]) @ blk
    X_b_dot = np.vstack([Xb[i] @ crm(Vl[0]) - crm(Vl[i]) @ Xb[i] for i in links])
    return Operators(arms=arms, links=links, X=X, X_b=X_b, Phi=Phi, B=B, D=B.T, M_q=M_q,
                     M_b=s.M[0], V=V, V_b=Vl[0], qd=np.asarray(v, float)[arm_v],
                     b=b, b_b=crf(Vl[0]) @ s.M[0] @ Vl[0], X_dot=X_dot, X_b_dot=X_b_dot,
                     arm_v=arm_v, ee=list(ee_frames))
