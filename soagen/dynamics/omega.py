"""Omega = psi^T H^T D^-1 H psi on a tree, and the multi-point operational-space inverse
inertia Lambda = B^T Omega B (framework paper Step (C), (3.10), (A.3)-(A.5)).

Upsilon(k) = Omega(k, k) by the base-to-tip recursion (A.5),
    Upsilon(k) = psi^T(p, k) Upsilon(p) psi(p, k) + H^T(k) D^-1(k) H(k),   p = parent(k).
Off the diagonal the tree form is Omega(k, m) = psi^T(c, k) Upsilon(c) psi(c, m) with c the
nearest common ancestor of k and m (c = k or m when one is inboard of the other). The
seed's (A.5) sets Omega(k, m) = 0 when neither branch is a predecessor of the other, and
Lemma 5 / (A.3) (Upsilon block diagonal with H^T D^-1 H = Upsilon - E_psi^T Upsilon E_psi)
have no solution on a branching tree: siblings are coupled through their common ancestor
unless one of the two hangs from a 6-dof joint, where psi(c, child) = 0
(docs/misprints-trees-swain-morris.md).
"""

from __future__ import annotations

import numpy as np

from soagen.dynamics.innovations import riccati
from soagen.dynamics.jacobian import ancestors, jacobian
from soagen.dynamics.kinematics import pad, world_poses
from soagen.dynamics.ldl import ltdl, ltdl_congruence
from soagen.dynamics.mass_matrix import mass_matrix
from soagen.spatial import phi_matrix


def psi_step(s, inn, i):
    """psi(parent(k), k) = phi(parent, k) (I - G(k) H(k))  (3.2), link frames."""
    phi = s.phi(i)
    return phi - phi @ inn.G[i] @ s.H[i]


def upsilon(s, inn):
    """Upsilon(k) = Omega(k, k) of every body (A.5), base to tip, body frames."""
    robot, xp = s.robot, s.xp
    Ups = [None] * robot.nb
    for i, body in enumerate(robot.bodies):
        own = s.H[i].T @ inn.Dinv[i] @ s.H[i]
        if body.parent >= 0:
            psi = psi_step(s, inn, i)
            own = own + psi.T @ Ups[body.parent] @ psi
        Ups[i] = xp.name(own, "Ups", body=i, symmetric=True,
                         note="Upsilon(k) = Lambda(k) of Part II (6.10b), framework (A.5)")
    return Ups


OSIM_METHODS = ("omega", "ldl")


def inverse_inertia_at_frames(s, frames, method="omega"):
    """Lambda = B^T Omega B = J M^-1 J^T for several frames at once (6 n_C square,
    world-aligned, angular rows first, at each frame's origin), by one articulated sweep
    and the Upsilon recursion (A.5). With ``method="ldl"``: the frames' Jacobians J (3.13)
    stacked and M = L^T D L of the composite-inertia mass matrix (3.20),
    J M^-1 J^T = Y^T D^-1 Y with Y = L^-T J^T."""
    robot, xp = s.robot, s.xp
    if method == "ldl":
        J = np.concatenate([jacobian(s, f) for f in frames], axis=0)
        return ltdl_congruence(*ltdl(robot, mass_matrix(s), xp), J.T, xp)
    inn = riccati(s)
    Ups = upsilon(s, inn)
    poses = world_poses(robot, s.X, xp)
    Z, Rw = [], []                   # Z[c][body] = psi(body, b_c) B_c for ancestors of b_c
    for f in frames:
        Rb = poses[f.body][0]
        Rw.append(np.block([[Rb, Rb * 0], [Rb * 0, Rb]]))            # body -> world axes
        chain = {f.body: frame_map(s, f)}                   # B_c (2.13), body axes
        k = f.body
        while robot.bodies[k].parent >= 0:
            chain[robot.bodies[k].parent] = psi_step(s, inn, k) @ chain[k]
            k = robot.bodies[k].parent
        Z.append(chain)
    nC = len(frames)
    Lam = xp.zeros((6 * nC, 6 * nC))
    for a in range(nC):
        for b in range(a, nC):
            common = [c for c in ancestors(robot, frames[a].body) if c in Z[b]]
            if not common:
                continue                                              # different roots
            c = common[-1]                                            # nearest common ancestor
            # rotate after the congruence: B_c keeps its identity blocks, so this is cheaper
            blk = Rw[a] @ (Z[a][c].T @ Ups[c] @ Z[b][c]) @ Rw[b].T
            Lam[6 * a:6 * a + 6, 6 * b:6 * b + 6] = blk
            Lam[6 * b:6 * b + 6, 6 * a:6 * a + 6] = blk.T
    return Lam


def frame_map(s, f):
    """B_c (2.13): a force at frame f (body axes) as a force at its body's origin, body
    axes; on a flexible body (6+m) x 6, the node's modal influence giving the modal
    forces (F.2)."""
    robot, xp = s.robot, s.xp
    nf = s.frame_node(f)
    if nf is None:
        B = phi_matrix(xp.eye(3), xp.constant(f.r))
        return pad(B, robot.bodies[f.body].m, xp)
    B = phi_matrix(xp.eye(3), s.frame_origin(f, nf))
    return np.concatenate([B, nf.U.T @ B])


def op_space_inverse_inertia(s, frame, method="omega"):
    """J M^-1 J^T = B^T psi^T H^T D^-1 H psi B at one frame: Part II (6.10), whose
    Lambda(k) is Upsilon(k) on the path to the frame's body; 6 x 6, world-aligned (or by
    ``method="ldl"``, see :func:`inverse_inertia_at_frames`)."""
    return inverse_inertia_at_frames(s, [frame], method)
