"""The dense route from the mass matrix: M = L^T D L, and with it M^-1, qdd = M^-1 (tau - C)
and B^T M^-1 B (J M^-1 J^T).

Part I factors M^-1 without forming M: (4.16), M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L),
O(N) per column. Once M itself is cheap (composite inertias (a.44), O(N d)), a dense
factorization of it costs O(N d^2) on a tree of depth d (O(N^3) on a chain) and wins for
small N: which route is cheaper for a robot is decided by the code generator on exact
operation counts. Here M = L^T D L with L unit lower triangular, eliminated from the
last coordinate towards the first (Featherstone's LTDL): on a tree numbered base first,
the entries M(i, j) that are zero (neither coordinate's body an ancestor of the other's)
stay zero in L, so symbolic zeros fold and the fill-in is nil."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.jacobian import ancestors
from soagen.errors import SingularMassMatrixError
from soagen.tolerances import SINGULAR_D

LTDL = "L^T D L factorization of the mass matrix: row k of L (k = last coordinate first)"
PIVOT = "L^T D L factorization: 1/D(k)"


def dof_parents(robot):
    """lambda(k) of every coordinate k (Featherstone's parent array of the coordinates):
    the coordinate before k on the path to the base, -1 for the first coordinate of a body
    on the base. Within a body its coordinates follow each other (joint, then modes); a
    body's first coordinate follows its parent's last. M(k, j), j < k, is zero unless j is
    on k's path: lambda(k), lambda(lambda(k)), ..."""
    lam = [-1] * robot.nv
    last = {}
    for i, b in enumerate(robot.bodies):
        prev = last.get(b.parent, -1) if b.parent >= 0 else -1
        for k in range(b.v_index, b.v_index + b.nv):
            lam[k], prev = prev, k
        last[i] = prev if b.nv else last.get(b.parent, -1)
    return lam


def path_layout(lam):
    """(depth, off, path) of the parent array ``lam``: each coordinate's path from the base,
    stored by depth. Coordinate k has depth(k) coordinates before it; ``path[off[k] + d]``
    is the one at depth d (``path[off[k] + depth[k]] = k``). Row k of a tree's L (and of M
    below the diagonal) is nonzero only on that path, so it is stored there too, entry
    (k, j) at ``off[k] + depth[j]``: the row of an ancestor i of k is then the first
    depth(i) + 1 entries of row k's columns, and the factorization's updates run over
    contiguous entries (the looped style, :mod:`soagen.codegen.loops`)."""
    n = len(lam)
    depth, off = [0] * n, [0] * (n + 1)
    for k in range(n):
        depth[k] = 0 if lam[k] < 0 else depth[lam[k]] + 1
        off[k + 1] = off[k] + depth[k] + 1
    path = [0] * off[n]
    for k in range(n):
        j = k
        for d in range(depth[k], -1, -1):
            path[off[k] + d], j = j, lam[j]
    return depth, off, path


def dof_path(lam, k):
    """lambda(k), lambda(lambda(k)), ... down to the base: the coordinates before k on its path."""
    out = []
    k = lam[k]
    while k >= 0:
        out.append(k)
        k = lam[k]
    return out


def ltdl(robot, M, xp):
    """(L, dinv): M = L^T D L, L unit lower triangular (a numpy array of the backend's
    scalars), dinv[k] = 1 / D(k). Row k is final once the coordinates after it are
    eliminated; it is then named and divided by its pivot, and its outer product
    subtracted from the rows before it, along the tree: only the rows i and columns j on
    k's path hold nonzeros (:func:`dof_parents`), so the work is the sum over k of its
    path length squared (Featherstone's LTDL), not n^3. With a backend that runs these
    loops itself (``xp.loops``: the looped C) the factorization is left to it."""
    if getattr(xp, "loops", False):
        return xp.loop_ltdl(robot, M), None
    n = M.shape[0]
    lam = dof_parents(robot)
    A = np.array(M, dtype=xp.dtype, copy=True)
    L, dinv = xp.eye(n), [None] * n
    for k in reversed(range(n)):
        row = xp.name(A[k, :k + 1], f"ltdl_A{k}", note=LTDL)
        _check_pivot(robot, k, row[k], M[k, k])
        dinv[k] = xp.name(np.array([1 / row[k]]), f"ltdl_dinv{k}", note=PIVOT)[0]
        L[k, :k] = xp.name(row[:k] * dinv[k], f"ltdl_L{k}", note=LTDL)
        path = dof_path(lam, k)
        for i in path:                                     # rows i < k on k's path
            cols = [i] + dof_path(lam, i)
            A[i, cols] = A[i, cols] - row[i] * L[k, cols]
    return L, np.array(dinv, dtype=xp.dtype)


def ltdl_multiplications(robot):
    """The multiplications of :func:`ltdl` on the structural pattern of M (M(i, j) is
    nonzero when the body of coordinate i is the body of j or an ancestor or descendant
    of it; the elimination adds no fill-in): about n^3 / 6 on a chain, far fewer on a
    branching tree. An estimate before unrolling (constant entries may fold further)."""
    body = [i for i, b in enumerate(robot.bodies) for _ in range(b.nv)]
    line = [set(ancestors(robot, i)) for i in range(robot.nb)]
    mul = 0
    for k in range(len(body)):
        row = [j for j in range(k) if body[j] in line[body[k]] or body[k] in line[body[j]]]
        mul += len(row) + sum(1 + sum(1 for j in row if j < i) for i in row)
    return mul


def ltdl_solve(L, dinv, B, xp, label="ltdl_x"):
    """M^-1 B for a vector or the columns of a block B: L^T y = B (last coordinate first),
    then L x = D^-1 y (first coordinate first); the rows of x named ``label`` + k. Columns
    of B that are zero by construction (``xp.nonzero_columns``: a floating base's dT/dq
    has three, the base translations) are not solved: their x is zero."""
    if getattr(xp, "loops", False):
        return xp.loop_ltdl_solve(L, B, label)
    shape, B = np.shape(B), np.reshape(B, (L.shape[0], -1))
    cols = xp.nonzero_columns(B)
    Y = _back(L, B[:, cols], xp, f"{label}y", "y = L^-T b")
    n = L.shape[0]
    x = [None] * n
    for k in range(n):
        x[k] = xp.columns(lambda y, *xs, k=k: dinv[k] * y - sum((L[k, j] * xj for j, xj in enumerate(xs)), 0),
                          [Y[k], *x[:k]], f"{label}{k}", note="x = L^-1 D^-1 y")
    X = xp.zeros(B.shape)
    X[:, cols] = np.array(x, dtype=xp.dtype)
    return np.reshape(X, shape)


def ltdl_congruence(L, dinv, B, xp):
    """B^T M^-1 B = Y^T D^-1 Y with Y = L^-T B (symmetric; B is n x m): M^-1 itself for
    B = I, the operational-space inverse inertia J M^-1 J^T for B = J^T."""
    if getattr(xp, "loops", False):
        return xp.loop_ltdl_congruence(L, B)
    Y = np.array(_back(L, B, xp, "ltdl_Y", "Y = L^-T B"), dtype=xp.dtype)
    return (Y.T * dinv) @ Y


def _back(L, B, xp, label, note):
    """The rows of Y = L^-T B (B: n x m), from the last up: Y(k) = B(k) - sum_{i > k} L(i, k) Y(i)."""
    n = L.shape[0]
    Y = [None] * n
    for k in reversed(range(n)):
        Y[k] = xp.columns(lambda b, *ys, k=k: b - sum((L[i, k] * y for i, y in enumerate(ys, k + 1)), 0),
                          [B[k], *Y[k + 1:]], f"{label}{k}", note=note, name_inputs=True)
    return Y


def _check_pivot(robot, k, d, m_kk):
    """Refuse a numerically singular M: a pivot D(k) not above SINGULAR_D times the
    diagonal entry M(k, k) it came from (numbers only; a symbolic pivot passes)."""
    if not isinstance(d, (float, np.floating)):
        return
    if not d > SINGULAR_D * abs(float(m_kk)):
        body = next(b for b in robot.bodies if b.v_index <= k < b.v_index + b.nv)
        mode = k - body.v_index - body.joint.nv
        raise SingularMassMatrixError(robot.source, body.joint_name if mode < 0 else f"{body.name} mode {mode + 1}",
                                      f"L^T D L pivot {d:.3g} against M(k, k) = {float(m_kk):.3g}")
