"""The framework paper's Section 4 evaluated literally: a serial chain of flexible (and
rigid) links as dense block operators, for tests.

Paper numbering (link 1 = tip .. N = base), world-aligned spatial vectors about points,
phi(i, j) = [[I, l~], [0, I]] with l = (point j) - (point i). Each link k has n_k nodes
Q_k(j): first the node its inboard child link k-1 is attached to (Q_k(1), as in (4.2)),
then its mass points (:class:`soagen.model.MassPoints`; one node at O(k) carrying M(k)
for a rigid link). With the nodal inertias m (block diagonal), the nodal velocity maps
h^* (6 n_k x m_k per link: (Psi, Pi) of a mass point, (W, Pi) of the attachment node,
at the current deformation) and

    B_k = [phi(O_k, Q_k(1)) .. phi(O_k, Q_k(n_k))]              (4.3)
    C_{k+1}^* = [phi^*(Q_{k+1}(1), O_k), 0, .., 0]               (4.2)
    V = phi^* [H^* beta + C^* h^* u]                            (4.1)
    V^f = B^* V + h^* u = [I + B^* phi^* C^*] [h^* u + B^* H^* beta]   (4.3)
    M^f = (HB; h) [I + C phi B] m [I + C phi B]^* (HB; h)^*

the kinetic energy is T = 1/2 (V^f)^* m V^f = 1/2 X^* M^f X, X = (beta; u). Nothing here
uses the recursions of :mod:`soagen.dynamics`: only the link poses and the node
kinematics (positions, the Cayley rotation, :mod:`soagen.dynamics.flexible`). With the
mass points as nodes, M^f is the exact kinetic energy of the linear model; with
foreshortening the recursions use its second-order truncation (docs/flexible.md (F.3)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics import flexible
from soagen.dynamics.kinematics import joint_map, link_transforms, world_poses
from soagen.errors import SoagenError
from soagen.operators.chain import block_diag, shift
from soagen.spatial import spatial_inertia


@dataclass
class FlexibleChainOperators:
    N: int
    phi: np.ndarray        # 6N x 6N
    B: np.ndarray          # 6N x sum 6 n_k  (block diagonal, B_k)
    C: np.ndarray          # sum 6 n_k x 6N  (C_{k+1} on the first block subdiagonal)
    H: np.ndarray          # sum nv_k x 6N  (world-aligned joint maps)
    h: np.ndarray          # sum m_k x sum 6 n_k  (h_k: h_k^* the nodal velocity maps)
    m: np.ndarray          # sum 6 n_k square: nodal inertias
    E_phi: np.ndarray      # phi(k, k-1) on the first block subdiagonal
    Mf: np.ndarray         # the mass matrix in robot order (joint, then modal, per body)
    X_perm: np.ndarray     # X_paper = X_perm @ x_robot, X = (beta; u)
    nodes: list            # per link k (paper order): world positions of its nodes


def _world6(R):
    return block_diag([R, R])


def _link_nodes(robot, i, q, poses):
    """Body i's nodes: [(world position, 6x6 inertia, 6 x m map)], the attachment node of
    its child first (when it has one)."""
    body = robot.bodies[i]
    R, o = poses[i]
    W6 = _world6(R)
    out = []
    child = [c for c, b in enumerate(robot.bodies) if b.parent == i]
    if child:
        c = child[0]
        cb = robot.bodies[c]
        if body.flex is None:                                    # the joint's placement on link k
            out.append((o + R @ cb.placement_r, np.zeros((6, 6)), np.zeros((6, 0))))
        else:                                                    # the node (4.2) the child is on
            eta = robot.eta(i, q)
            Rn, rn, theta, cc = flexible.node_pose(body.flex, cb.attach, eta, NUMPY)
            U, Pi = flexible.node_influence(body.flex, cb.attach, eta, rn, theta, cc, NUMPY)
            out.append((o + R @ rn, np.zeros((6, 6)), W6 @ np.concatenate([U[:3], Pi])))
    if body.flex is None:
        out.append((o, W6 @ spatial_inertia(body.mass, body.com, body.inertia) @ W6.T, np.zeros((6, 0))))
        return out
    pts, eta = body.flex.points, robot.eta(i, q)
    for mp, J, r0, Phi, Psi, G in zip(pts.m, pts.J, pts.r0, pts.Phi, pts.Psi, pts.G):
        r = r0 + Phi @ eta + (G @ eta) @ eta / 2
        Mp = block_diag([J, mp * np.eye(3)])
        out.append((o + R @ r, W6 @ Mp @ W6.T, W6 @ np.concatenate([Psi, Phi + G @ eta])))
    return out


def flexible_chain_operators(robot, q) -> FlexibleChainOperators:
    """The dense operators of Section 4 for a serial chain at configuration q."""
    if not robot.is_chain:
        raise SoagenError(f"{robot.name}: the dense operator form handles serial chains only")
    N = robot.nb
    q = np.asarray(q, dtype=float)
    X = link_transforms(robot, q, NUMPY)
    poses = world_poses(robot, X)
    body = lambda k: N - k                                   # noqa: E731  paper k -> body index
    o = {k: poses[body(k)][1] for k in range(1, N + 1)}
    nodes = {k: _link_nodes(robot, body(k), q, poses) for k in range(1, N + 1)}
    n6 = {k: 6 * len(nodes[k]) for k in nodes}
    off = np.cumsum([0] + [n6[k] for k in range(1, N + 1)])

    phi = np.zeros((6 * N, 6 * N))
    for k in range(1, N + 1):
        for j in range(1, k + 1):
            phi[6 * (k - 1):6 * k, 6 * (j - 1):6 * j] = shift(o[j] - o[k])             # (3.4)
    B = np.zeros((6 * N, off[-1]))
    C = np.zeros((off[-1], 6 * N))
    for k in range(1, N + 1):
        for j, (pos, _, _) in enumerate(nodes[k]):
            B[6 * (k - 1):6 * k, off[k - 1] + 6 * j:off[k - 1] + 6 * j + 6] = shift(pos - o[k])   # phi(O_k, Q_k(j))
        if k > 1:                                                                      # C_k (4.2)
            C[off[k - 1]:off[k - 1] + 6, 6 * (k - 2):6 * (k - 1)] = shift(o[k - 1] - nodes[k][0][0])
    m = block_diag([M for k in range(1, N + 1) for _, M, _ in nodes[k]])
    hk = [np.concatenate([hh for _, _, hh in nodes[k]]).T for k in range(1, N + 1)]   # m_k x 6 n_k
    h = block_diag(hk)
    Hk = [joint_map(robot.bodies[body(k)])[:robot.bodies[body(k)].joint.nv, :6] @ _world6(poses[body(k)][0]).T
          for k in range(1, N + 1)]
    H = block_diag(Hk)
    E_phi = np.zeros_like(phi)
    for k in range(2, N + 1):
        E_phi[6 * (k - 1):6 * k, 6 * (k - 2):6 * (k - 1)] = shift(o[k - 1] - o[k])
    A = np.vstack([H @ B, h]) @ (np.eye(off[-1]) + C @ phi @ B)
    Mf_paper = A @ m @ A.T
    Xp = _permutation(robot)
    Mf = Xp.T @ Mf_paper @ Xp
    return FlexibleChainOperators(N, phi, B, C, H, h, m, E_phi, Mf, Xp,
                                  [[p for p, _, _ in nodes[k]] for k in range(1, N + 1)])


def _permutation(robot):
    """X_paper = P x_robot with X = (beta_1 .. beta_N; u_1 .. u_N), link 1 = the tip."""
    N = robot.nb
    rows = []
    for k in range(1, N + 1):
        b = robot.bodies[N - k]
        rows += list(range(b.v_index, b.v_index + b.joint.nv))
    for k in range(1, N + 1):
        b = robot.bodies[N - k]
        rows += list(range(b.v_index + b.joint.nv, b.v_index + b.nv))
    P = np.zeros((robot.nv, robot.nv))
    P[np.arange(robot.nv), rows] = 1.0
    return P


def link_velocities(ops, robot, qd):
    """V = phi^* [H^* beta + C^* h^* u] (4.1), stacked world-aligned link velocities."""
    x = ops.X_perm @ np.asarray(qd, dtype=float)
    nb = ops.H.shape[0]
    return ops.phi.T @ (ops.H.T @ x[:nb] + ops.C.T @ ops.h.T @ x[nb:])


def nodal_velocities(ops, robot, qd):
    """V^f = [I + B^* phi^* C^*] [h^* u + B^* H^* beta] (4.3)."""
    x = ops.X_perm @ np.asarray(qd, dtype=float)
    nb = ops.H.shape[0]
    I = np.eye(ops.B.shape[1])
    return (I + ops.B.T @ ops.phi.T @ ops.C.T) @ (ops.h.T @ x[nb:] + ops.B.T @ ops.H.T @ x[:nb])


def potential_energy(robot, q):
    """Gravity's potential of the nodal masses plus 1/2 eta^T K eta (and spring joints),
    from the world node positions: independent of the recursions."""
    q = np.asarray(q, dtype=float)
    X = link_transforms(robot, q, NUMPY)
    poses = world_poses(robot, X)
    g = np.asarray(robot.gravity)
    U = 0.0
    for i, b in enumerate(robot.bodies):
        R, o = poses[i]
        if b.flex is None:
            U -= b.mass * g @ (o + R @ b.com)
        else:
            pts, eta = b.flex.points, robot.eta(i, q)
            for mp, r0, Phi, G in zip(pts.m, pts.r0, pts.Phi, pts.G):
                U -= mp * g @ (o + R @ (r0 + Phi @ eta + (G @ eta) @ eta / 2))
            U += 0.5 * eta @ b.flex.K @ eta
        if b.joint.stiffness:
            U += 0.5 * b.joint.stiffness * float(robot.joint_q(i, q)[0] - b.joint.rest) ** 2
    return U
