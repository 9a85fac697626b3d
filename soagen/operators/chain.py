"""The papers' operators as dense matrices, evaluated literally.

For a serial chain at a given state this builds phi, Phi, psi, Psi, H, M, P, D, L, G, S,
B, E, Delta_phi, Delta_psi (and a, b, V when velocities are given) as full block
matrices, in the world frame about the joint origins, with the papers' numbering: block
k = 1 is the tip link, k = N the link next to the base. Nothing here reuses the link-frame
recursions of :mod:`soagen.dynamics` except the world poses; P, D, L come from the
Riccati recursion (4.4)-(4.6) written out on world-frame blocks (D(k) = H P H^T + J_m(k)
with the joints' rotor inertias, armature), so that operator
expressions such as H phi M phi^T H^T or (I - H Psi L)^T D^-1 (I - H Psi L) can be
compared with the O(N) recursions. O(N^3): for checking, not for speed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses
from soagen.errors import SoagenError
from soagen.spatial import (
    cross,
    force_bar_matrix,
    force_cross_matrix,
    motion_cross_matrix,
    skew,
)


def shift(l):
    """phi(i, j) = [[I, l~], [0, I]] with l = l(i, j) = O(j) - O(i) (3.1)."""
    return np.block([[np.eye(3), skew(l)], [np.zeros((3, 3)), np.eye(3)]])


def block_diag(blocks):
    rows = sum(b.shape[0] for b in blocks)
    cols = sum(b.shape[1] for b in blocks)
    out = np.zeros((rows, cols))
    r = c = 0
    for b in blocks:
        out[r:r + b.shape[0], c:c + b.shape[1]] = b
        r, c = r + b.shape[0], c + b.shape[1]
    return out


def causal(N, block):
    """The 6N x 6N lower block-triangular operator with blocks block(k, j), k >= j (1-based)."""
    out = np.zeros((6 * N, 6 * N))
    for k in range(1, N + 1):
        for j in range(1, k + 1):
            out[6 * (k - 1):6 * k, 6 * (j - 1):6 * j] = block(k, j)
    return out


@dataclass
class ChainOperators:
    """Dense operators of one chain state (paper numbering, world frame)."""

    N: int
    phi: np.ndarray
    Phi: np.ndarray
    psi: np.ndarray
    Psi: np.ndarray
    phi_tilde: np.ndarray
    psi_tilde: np.ndarray
    S: np.ndarray
    H: np.ndarray
    M: np.ndarray
    P: np.ndarray
    D: np.ndarray
    Dinv: np.ndarray
    L: np.ndarray
    G: np.ndarray
    B: np.ndarray
    E: np.ndarray
    Delta_phi: np.ndarray
    Delta_psi: np.ndarray
    g: np.ndarray            # (0, -gravity): the base acceleration of (3.21), E g enters a
    Pi: np.ndarray           # joint-order permutation: x_paper = Pi @ x_robot
    Jm: np.ndarray | None = None   # the joints' rotor inertias (armature), diagonal, paper order
    V: np.ndarray | None = None
    a: np.ndarray | None = None
    b: np.ndarray | None = None

    def I(self, n=None):
        return np.eye(self.H.shape[0] if n is None else n)


def chain_operators(robot, q, qd=None) -> ChainOperators:
    """Build the dense operators of a serial chain at configuration q (and velocity qd)."""
    if not robot.is_chain:
        raise SoagenError(f"{robot.name}: the dense operator builder handles serial chains only")
    if robot.is_flexible:
        raise SoagenError(f"{robot.name}: flexible bodies: use soagen.operators.flexible (Section 4)")
    N = robot.nb
    X = link_transforms(robot, np.asarray(q, dtype=float), NUMPY)
    poses = world_poses(robot, X)
    body = lambda k: N - k                                  # paper k (1..N) -> body index
    o = {k: poses[body(k)][1] for k in range(1, N + 1)}
    o[N + 1] = np.zeros(3)                                  # O(N+1): the base frame origin
    o[0] = frame_pose(robot, poses, robot.tip)[1] if robot.tip else o[1]
    Rw = lambda k: block_diag([poses[body(k)][0]] * 2)
    phi_kj = lambda k, j: shift(o[j] - o[k])                # phi(k, j), l(k, j) = O(j) - O(k)

    Hk = [None] + [robot.bodies[body(k)].joint.H() @ Rw(k).T for k in range(1, N + 1)]
    from soagen.spatial import spatial_inertia
    Mk = [None] + [Rw(k) @ spatial_inertia(b.mass, b.com, b.inertia) @ Rw(k).T
                   for k, b in ((k, robot.bodies[body(k)]) for k in range(1, N + 1))]

    # Riccati recursion (4.4)-(4.6), world frame
    Pk, Dk, Lk, Gk = [None] * (N + 1), [None] * (N + 1), [None] * (N + 1), [None] * (N + 1)
    for k in range(1, N + 1):
        if k == 1:
            Pk[k] = Mk[1]                                              # (4.4)
        else:
            Pp, Hp = Pk[k - 1], Hk[k - 1]
            Pk[k] = phi_kj(k, k - 1) @ (Pp - Pp @ Hp.T @ np.linalg.inv(Dk[k - 1]) @ Hp @ Pp) \
                @ phi_kj(k, k - 1).T + Mk[k]                           # (4.5)
        Dk[k] = Hk[k] @ Pk[k] @ Hk[k].T + np.diag(robot.bodies[body(k)].joint.J_m)   # (4.6), + J_m
        Gk[k] = Pk[k] @ Hk[k].T @ np.linalg.inv(Dk[k])                 # (5.12)
        Lk[k] = phi_kj(k + 1, k) @ Gk[k]                               # (4.6), (a.12)
    psi_step = lambda k: phi_kj(k + 1, k) - Lk[k] @ Hk[k]             # psi(k+1, k) (4.7)

    def psi_kj(k, j):
        out = np.eye(6)
        for i in range(j, k):
            out = psi_step(i) @ out
        return out

    phi = causal(N, phi_kj)                                            # (3.4)
    psi = causal(N, psi_kj)                                            # (5.1)
    S = np.kron(np.eye(N, k=-1), np.eye(6))                            # (5.2)
    B = np.zeros((6 * N, 6))
    B[:6] = phi_kj(1, 0)                                               # (3.7)
    E = np.zeros((6 * N, 6))
    E[-6:] = phi_kj(N + 1, N).T                                        # (3.8)
    nv = [robot.bodies[body(k)].joint.nv for k in range(1, N + 1)]
    Pi = np.zeros((robot.nv, robot.nv))
    r = 0
    for k in range(1, N + 1):
        sl = robot.v_slice(body(k))
        Pi[r:r + nv[k - 1], sl] = np.eye(nv[k - 1])
        r += nv[k - 1]
    ops = ChainOperators(
        N=N, phi=phi, Phi=phi @ S, psi=psi, Psi=psi @ S,                # (a.6), (a.7)
        phi_tilde=phi - np.eye(6 * N), psi_tilde=psi - np.eye(6 * N),   # (a.3), (5.11)
        S=S, H=block_diag(Hk[1:]), M=block_diag(Mk[1:]), P=block_diag(Pk[1:]),
        D=block_diag(Dk[1:]), Dinv=block_diag([np.linalg.inv(d) for d in Dk[1:]]),
        L=block_diag(Lk[1:]), G=block_diag(Gk[1:]), B=B, E=E,
        Delta_phi=block_diag([phi_kj(k + 1, k) for k in range(1, N + 1)]),   # (a.4)
        Delta_psi=block_diag([psi_step(k) for k in range(1, N + 1)]),        # (a.5)
        g=np.concatenate([np.zeros(3), -np.asarray(robot.gravity)]), Pi=Pi,
        Jm=Pi @ np.diag(robot.armature) @ Pi.T)
    if qd is not None:
        _velocity_terms(ops, robot, Pi @ np.asarray(qd, dtype=float), o, Mk, Hk)
    return ops


def _velocity_terms(ops, robot, qd_paper, o, Mk, Hk):
    """V = phi^T H^T qdot (3.12); a (2.19)/(2.32 corrected) and b (2.23) from world vectors."""
    N = ops.N
    ops.V = ops.phi.T @ ops.H.T @ qd_paper
    rel = ops.H.T @ qd_paper                                 # H^T(k) qdot(k), stacked
    a, b = np.zeros(6 * N), np.zeros(6 * N)
    for k in range(1, N + 1):
        s = slice(6 * (k - 1), 6 * k)
        w_r, v_r = rel[s][:3], rel[s][3:]
        w_next = ops.V[6 * k:6 * k + 3] if k < N else np.zeros(3)   # omega(k+1)
        l = o[k] - o[k + 1]                                   # l(k+1, k)
        a[s] = np.concatenate([cross(w_next, w_r),
                               cross(w_next, cross(w_next, l)) + 2 * cross(w_next, v_r)
                               + cross(w_r, v_r)])
        w = ops.V[s][:3]
        I_O, mp = Mk[k][:3, :3], np.array([Mk[k][2, 4], Mk[k][0, 5], Mk[k][1, 3]])
        b[s] = np.concatenate([cross(w, I_O @ w), cross(w, cross(w, mp))])
    ops.a, ops.b = a, b


def rate_blocks(M, V, V_p, A_p, HT, f) -> dict:
    """Block k of the derivative operators of docs/derivatives.md, from body k's spatial
    inertia M, velocity V, its parent's velocity V_p and spatial acceleration A_p, H^T(k)
    and the joint force f(k) (all in one frame): Mdot = V x* M - M V x and
    B = (Mdot + (M V) xbar*) / 2 (D.2), fbar = f xbar*, Sdot (D.4), Psidot (D.5), Psiddot (D.6)."""
    Mdot = force_cross_matrix(V) @ M - M @ motion_cross_matrix(V)                     # (D.2)
    Psidot = motion_cross_matrix(V_p) @ HT                                            # (D.5)
    return {"Mdot": Mdot, "Bcor": (Mdot + force_bar_matrix(M @ V)) / 2,              # (D.2)
            "fbar": force_bar_matrix(f), "Sdot": motion_cross_matrix(V) @ HT,        # (D.4)
            "Psidot": Psidot,
            "Psiddot": motion_cross_matrix(A_p) @ HT + motion_cross_matrix(V_p) @ Psidot}   # (D.6)


def derivative_operators(o, thdd) -> dict:
    """The block-diagonal operators of docs/derivatives.md at one state of a chain, dense, in
    the builder's world frame and paper numbering (o = :func:`soagen.operators.chain.chain_operators`
    with velocities; thdd the joint accelerations in paper order): Mdot, B (D.2), fbar of the
    joint forces f = phi (M alpha + b) (3.17), Sdot, Psidot, Psiddot (D.4)-(D.6) from the
    parent's velocity V_p and spatial acceleration A_p (gravity as the base's, (3.21)), and
    the composites R, B_c by the loop of (a.44) with psi = phi."""
    N = o.N
    blk = lambda k: slice(6 * (k - 1), 6 * k)                                  # noqa: E731
    step = lambda k: o.phi[blk(k + 1), blk(k)]                                 # noqa: E731  phi(k+1, k)
    alpha = o.phi.T @ (o.H.T @ thdd + o.a + o.E @ o.g)                        # (3.15), (3.21)
    f = o.phi @ (o.M @ alpha + o.b)                                            # (3.17)
    V = o.V
    A = np.concatenate([alpha[blk(k)] - np.concatenate([np.zeros(3), cross(V[blk(k)][:3], V[blk(k)][3:])])
                        for k in range(1, N + 1)])                            # spatial acceleration (D.3)
    out = {name: [] for name in ("Mdot", "Bcor", "fbar", "Sdot", "Psidot", "Psiddot", "R", "Bcor_c")}
    row = 0
    for k in range(1, N + 1):
        nv = int(np.count_nonzero(np.any(o.H[:, blk(k)] != 0, axis=1)))
        HT = o.H[row:row + nv, blk(k)].T
        row += nv
        Vk, Mk = V[blk(k)], o.M[blk(k), blk(k)]
        Vp = step(k).T @ V[blk(k + 1)] if k < N else np.zeros(6)
        Ap = step(k).T @ A[blk(k + 1)] if k < N else (o.E @ o.g)[blk(N)]
        for name, X in rate_blocks(Mk, Vk, Vp, Ap, HT, f[blk(k)]).items():
            out[name].append(X)
        for name, X in (("R", Mk), ("Bcor_c", out["Bcor"][-1])):               # (a.44)
            out[name].append(X if k == 1 else X + step(k - 1) @ out[name][-1] @ step(k - 1).T)
    return {name: block_diag(blocks) for name, blocks in out.items()}
