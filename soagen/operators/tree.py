"""The framework paper's tree operators as dense matrices, evaluated literally.

Tree topology (framework paper Sec. 2.2): the links are grouped into *branches* (maximal
serial segments; a branch starts outboard of a link with several children, or at the
base); the connectivity iota(j) names the branch inboard of branch j; within a branch the
links are numbered tip = 1_j .. n_j, and inboard branches get larger numbers, so that
E_phi is strictly lower block-triangular (2.7). Here a link's paper index is
``k = nb - i`` for body ``i`` of the model (bodies are in depth-first order from the base,
so each branch is a contiguous run and every ancestor has the larger index); branch j
holds the links ``first_j .. last_j``.

Everything is in the world frame about the joint origins, as in
:mod:`soagen.operators.chain` (whose helpers this module shares): E_phi has the block
phi(parent(k), k) = [[I, l~], [0, I]] at (parent(k), k) (2.7); phi = (I - E_phi)^-1 (2.9);
H, M block diagonal; P, D, G, K = E_phi G, tau_bar = I - G H, E_psi = E_phi tau_bar (3.2),
psi = (I - E_psi)^-1 (3.3), by the Riccati recursion (A.1) written on world-frame blocks
(D(k) = H P H^T + J_m(k) with the joints' rotor inertias, armature);
B (2.13) for a list of frames (the closure/contact points C_k). O(N^3): for checking.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses
from soagen.errors import SoagenError
from soagen.operators.chain import block_diag, shift
from soagen.spatial import cross, spatial_inertia


@dataclass
class TreeOperators:
    """Dense operators of one tree state (paper numbering k = 1..n, world frame)."""

    n: int
    parent: list            # parent[k] (paper index, 1-based; n + 1 = the base)
    branches: list          # branch j (1..l): the paper indices 1_j .. n_j, tip first
    iota: dict              # iota[j]: the direct predecessor branch (None at the base)
    E_phi: np.ndarray
    phi: np.ndarray
    H: np.ndarray
    M: np.ndarray
    P: np.ndarray
    D: np.ndarray
    Dinv: np.ndarray
    G: np.ndarray
    K: np.ndarray
    tau_bar: np.ndarray
    E_psi: np.ndarray
    psi: np.ndarray
    B: np.ndarray | None
    Pi: np.ndarray          # x_paper = Pi @ x_robot (joint space)
    E: np.ndarray           # 6n x 6: phi^T(base, k) for links on the base (gravity enters a = a + E g)
    g: np.ndarray
    Jm: np.ndarray | None = None   # the joints' rotor inertias (armature), diagonal, paper order
    V: np.ndarray | None = None
    a: np.ndarray | None = None
    b: np.ndarray | None = None
    blocks: dict = field(default_factory=dict)

    def blk(self, A, k, m):
        """Block (k, m) of a 6n x 6n operator (1-based paper indices)."""
        return A[6 * (k - 1):6 * k, 6 * (m - 1):6 * m]


def branches_of(parent_paper, n):
    """Branches (lists of paper indices, tip first) and the connectivity iota (2.7)."""
    children = {k: [] for k in range(1, n + 2)}
    for k in range(1, n + 1):
        children[parent_paper[k]].append(k)
    start = [k for k in range(1, n + 1)
             if parent_paper[k] == n + 1 or len(children[parent_paper[k]]) > 1]
    branches = []
    for s in sorted(start, reverse=True):        # inboard branches first, renumbered below
        run = [s]
        while len(children[run[-1]]) == 1:
            run.append(children[run[-1]][0])
        branches.append(run[::-1])                # tip first: 1_j .. n_j
    branches = branches[::-1]                     # branch 1 = the most outboard
    owner = {k: j for j, br in enumerate(branches, start=1) for k in br}
    iota = {j: (owner[parent_paper[br[-1]]] if parent_paper[br[-1]] <= n else None)
            for j, br in enumerate(branches, start=1)}
    return branches, iota


def tree_operators(robot, q, qd=None, frames=()) -> TreeOperators:
    """Build the dense tree operators at configuration q (and velocity qd)."""
    if robot.is_flexible:
        raise SoagenError(f"{robot.name}: flexible bodies: use soagen.operators.flexible (Section 4)")
    n = robot.nb
    X = link_transforms(robot, np.asarray(q, dtype=float), NUMPY)
    poses = world_poses(robot, X)
    body = lambda k: n - k
    par = [None] + [n - robot.bodies[body(k)].parent if robot.bodies[body(k)].parent >= 0 else n + 1
                    for k in range(1, n + 1)]
    o = {k: poses[body(k)][1] for k in range(1, n + 1)}
    o[n + 1] = np.zeros(3)
    Rw = lambda k: block_diag([poses[body(k)][0]] * 2)
    phi_kj = lambda k, j: shift(o[j] - o[k])

    Hk = [None] + [robot.bodies[body(k)].joint.H() @ Rw(k).T for k in range(1, n + 1)]
    Mk = [None] + [Rw(k) @ spatial_inertia(b.mass, b.com, b.inertia) @ Rw(k).T
                   for k, b in ((k, robot.bodies[body(k)]) for k in range(1, n + 1))]
    E_phi = np.zeros((6 * n, 6 * n))
    for k in range(1, n + 1):
        if par[k] <= n:
            E_phi[6 * (par[k] - 1):6 * par[k], 6 * (k - 1):6 * k] = phi_kj(par[k], k)   # (2.7)
    phi = np.linalg.inv(np.eye(6 * n) - E_phi)                                      # (2.9)

    # (A.1): P(k) = sum over children c of psi(k, c) P(c) psi^T(k, c) + M(k), tip to base; with
    # rotor inertia the symmetric form needs + L(c) J_m(c) L^T(c) (docs/derivations/armature.md)
    P, D, G = [None] * (n + 1), [None] * (n + 1), [None] * (n + 1)
    for k in range(1, n + 1):                    # children have smaller indices
        P[k] = Mk[k].copy()
        for c in (c for c in range(1, k) if par[c] == k):
            tb = np.eye(6) - G[c] @ Hk[c]
            psi_kc = phi_kj(k, c) @ tb
            L_kc = phi_kj(k, c) @ G[c]
            P[k] = P[k] + psi_kc @ P[c] @ psi_kc.T + L_kc @ np.diag(robot.bodies[body(c)].joint.J_m) @ L_kc.T
        D[k] = Hk[k] @ P[k] @ Hk[k].T + np.diag(robot.bodies[body(k)].joint.J_m)     # (4.6), + J_m
        G[k] = P[k] @ Hk[k].T @ np.linalg.inv(D[k])
    Gd = block_diag(G[1:])
    Hd = block_diag(Hk[1:])
    tau_bar = np.eye(6 * n) - Gd @ Hd
    E_psi = E_phi @ tau_bar                                                        # (3.2)
    psi = np.linalg.inv(np.eye(6 * n) - E_psi)                                     # (3.3)

    B = None
    if frames:                                                                     # (2.13)
        B = np.zeros((6 * n, 6 * len(frames)))
        for c, f in enumerate(frames):
            k = n - f.body
            pc = frame_pose(robot, poses, f)[1]
            B[6 * (k - 1):6 * k, 6 * c:6 * c + 6] = shift(pc - o[k])     # phi(O(k), C_c)
    E = np.zeros((6 * n, 6))
    for k in range(1, n + 1):
        if par[k] == n + 1:
            E[6 * (k - 1):6 * k] = phi_kj(n + 1, k).T                               # (3.8)
    Pi = np.zeros((robot.nv, robot.nv))
    r = 0
    for k in range(1, n + 1):
        sl = robot.v_slice(body(k))
        m = sl.stop - sl.start
        Pi[r:r + m, sl] = np.eye(m)
        r += m
    branches, iota = branches_of(par, n)
    ops = TreeOperators(n=n, parent=par, branches=branches, iota=iota, E_phi=E_phi, phi=phi,
                        H=Hd, M=block_diag(Mk[1:]), P=block_diag(P[1:]), D=block_diag(D[1:]),
                        Dinv=block_diag([np.linalg.inv(d) for d in D[1:]]), G=Gd, K=E_phi @ Gd,
                        tau_bar=tau_bar, E_psi=E_psi, psi=psi, B=B, Pi=Pi, E=E,
                        g=np.concatenate([np.zeros(3), -np.asarray(robot.gravity)]),
                        Jm=Pi @ np.diag(robot.armature) @ Pi.T)
    if qd is not None:
        _velocity_terms(ops, Pi @ np.asarray(qd, dtype=float), o, Mk)
    return ops


def _velocity_terms(ops, qd_paper, o, Mk):
    """V = phi^T H^T qdot (2.11); a(k) from omega of the parent (2.19 / corrected 2.32) and
    b(k) (2.23), world vectors."""
    n = ops.n
    ops.V = ops.phi.T @ ops.H.T @ qd_paper
    rel = ops.H.T @ qd_paper
    a, b = np.zeros(6 * n), np.zeros(6 * n)
    for k in range(1, n + 1):
        s = slice(6 * (k - 1), 6 * k)
        p = ops.parent[k]
        w_r, v_r = rel[s][:3], rel[s][3:]
        w_p = ops.V[6 * (p - 1):6 * (p - 1) + 3] if p <= n else np.zeros(3)
        l = o[k] - o[p]
        a[s] = np.concatenate([cross(w_p, w_r), cross(w_p, cross(w_p, l)) + 2 * cross(w_p, v_r)
                               + cross(w_r, v_r)])
        w = ops.V[s][:3]
        I_O, mp = Mk[k][:3, :3], np.array([Mk[k][2, 4], Mk[k][0, 5], Mk[k][1, 3]])
        b[s] = np.concatenate([cross(w, I_O @ w), cross(w, cross(w, mp))])
    ops.a, ops.b = a, b
