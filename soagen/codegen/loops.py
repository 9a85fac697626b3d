"""The looped style: the steps along a tree's parent array that the generated code runs as
loops instead of unrolling them.

Unrolled, the L^T D L factorization of a tree's mass matrix (:mod:`soagen.dynamics.ldl`)
and its solves are straight-line code whose size grows with the work: the explicit inverse
M^-1 = L^-1 D^-1 L^-T alone has n^2 outputs, each a sum over the common path of two
coordinates, and the FD derivatives solve 2 n right-hand sides. For a humanoid that is
hundreds of kilobytes of machine code, more than the instruction caches hold
(docs/codegen.md, "Large robots"). The looped style keeps the mass matrix, the bias
forces and the derivatives of inverse dynamics unrolled (their code grows like their
nonzeros) and hands the factorization and the solves to a few loops over the parent
array of the coordinates, Featherstone's lambda (:func:`~soagen.dynamics.ldl.dof_parents`),
printed once per file (``templates/c/_ltdl.c.j2``, ``templates/python/_ltdl.py.j2``). The
rows of M and L are stored along the coordinates' paths, by depth
(:func:`~soagen.dynamics.ldl.path_layout`): an ancestor's row is the start of its
descendant's, so the inner loops run over contiguous entries, and the paths are read from
static tables, not walked through the parent array:

* ``soagen_ltdl``: M = L^T D L in place on the rows of M's lower triangle along the paths;
* ``soagen_ltdl_solve``: M^-1 B for m columns;
* ``soagen_ltdl_congruence``: B^T M^-1 B = Y^T D^-1 Y with Y = L^-T B (J M^-1 J^T for
  B = J^T);
* ``soagen_ltdl_inverse``: M^-1 itself, each entry a dot product over the path its two
  coordinates share.

Their work is that of the sparse factorization: the sum over the coordinates of their path
length squared, and per column of a solve twice the sum of the path lengths (exact counts
in the manifest, ``loop_ops``). :class:`LoopedBackend` is the unrolling backend whose
``loops`` make :mod:`soagen.dynamics.ldl` record a :class:`Call` instead of unrolling; the
program then holds the calls among its statements (:func:`soagen.codegen.unroll.unroll`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.codegen.graph import expr as nodes
from soagen.codegen.unroll import Call, UnrollBackend
from soagen.dynamics.ldl import dof_parents, dof_path, path_layout

LTDL = "L^T D L of the mass matrix along the parent array of the coordinates (a loop)"
SOLVE = "M^-1 B by the factors of M = L^T D L (a loop)"
CONGRUENCE = "B^T M^-1 B = Y^T D^-1 Y, Y = L^-T B (a loop)"
INVERSE = "M^-1 = Z^T D^-1 Z, Z = L^-T, over the paths the coordinates share (a loop)"
LOOP_CODE_BYTES = 3072
"""The machine code of the loops of templates/c/_ltdl.c.j2, about (printed once per file)."""


def along_paths(lam):
    """Where entry (k, j), j = k or on k's path, of M's lower triangle sits when its rows
    are stored along the paths (:func:`~soagen.dynamics.ldl.path_layout`), and how many
    entries that is."""
    depth, off, _ = path_layout(lam)
    return (lambda k, j: off[k] + depth[j]), off[-1]


@dataclass(frozen=True)
class Factor:
    """The factors of M = L^T D L held by the workspace ``workspace`` of a :class:`Call`."""

    workspace: str
    lam: tuple
    n: int


def _counts(mul, add, div) -> dict:
    return {"mul": mul, "add": add, "div": div, "trig": 0, "sqrt": 0}


def ltdl_ops(lam) -> dict:
    """Operations of ``soagen_ltdl`` on the parent array ``lam``: per coordinate k, a
    division per coordinate i on its path and a multiply-add per coordinate of i's path
    (i included)."""
    div = mul = 0
    for k in range(len(lam)):
        path = dof_path(lam, k)
        div += len(path)
        mul += sum(1 + len(dof_path(lam, i)) for i in path)
    return _counts(mul, mul, div)


def _path_sum(lam) -> int:
    return sum(len(dof_path(lam, k)) for k in range(len(lam)))


def solve_ops(lam, m) -> dict:
    """Operations of ``soagen_ltdl_solve`` on m columns: L^-T (a multiply-add per
    coordinate on each path and column), D^-1 (one division per coordinate, a multiply
    per entry), L^-1 (as L^-T)."""
    n, path = len(lam), _path_sum(lam)
    return _counts(2 * path * m + n * m, 2 * path * m, n)


def congruence_ops(lam, m) -> dict:
    """Operations of ``soagen_ltdl_congruence``: Y = L^-T B, then the upper triangle of
    Y^T D^-1 Y (one division per coordinate, n m multiplies by it, a multiply-add per
    coordinate and entry of the triangle)."""
    n, path = len(lam), _path_sum(lam)
    half = m * (m + 1) // 2
    return _counts(path * m + n * m + n * half, path * m + n * half, n)


def inverse_ops(lam) -> dict:
    """Operations of ``soagen_ltdl_inverse``: per coordinate a, z_a = L^-T e_a along its
    path and D^-1 z_a (a division per coordinate on the path), then per pair a <= b a
    multiply-add per coordinate the two paths share."""
    n = len(lam)
    down = sum(len(dof_path(lam, k)) for a in range(n) for k in [a] + dof_path(lam, a))
    div = sum(1 + len(dof_path(lam, a)) for a in range(n))
    paths = [set([a] + dof_path(lam, a)) for a in range(n)]
    shared = sum(len(paths[a] & paths[b]) for b in range(n) for a in range(b + 1))
    return _counts(down + shared, down + shared, div)


class LoopedBackend(UnrollBackend):
    """The unrolling backend of the looped style: the L^T D L factorization and its solves
    (:mod:`soagen.dynamics.ldl`, which asks ``xp.loops``) become :class:`Call` statements;
    everything else unrolls as usual. The columns lanes are not used (a looped function's
    C is printed in program order with its loops)."""

    loops = True

    def __init__(self):
        super().__init__()
        self._calls = 0

    def _workspace(self, base):
        self._calls += 1
        return self._unique(f"{base}{self._calls}")

    def _results(self, name, shape):
        out = np.empty(shape, dtype=object)
        for k, idx in enumerate(np.ndindex(shape)):
            out[idx] = nodes.workspace_symbol(name, k)
        return out

    def columns(self, f, blocks, label, note=None, name_inputs=False, body=None):
        return self.name(f(*blocks), label, body=body, note=note)

    def loop_ltdl(self, robot, M) -> Factor:
        """Record M = L^T D L of the n x n mass matrix ``M`` (its lower triangle on the
        pattern of the parent array) as a call; return the factor."""
        lam = tuple(dof_parents(robot))
        n = len(lam)
        at, size = along_paths(lam)
        args = []
        for k in range(n):
            for j in [k] + dof_path(lam, k):
                e = nodes.sympify(M[k, j])
                if not (e.is_Number and e.value == 0):
                    args.append((at(k, j), e))
        ws = self._workspace("ltdl_W")
        self.defs.append(Call("ltdl", ws, size, sorted(args, key=lambda a: a[0]), lam, n,
                              label="ltdl", note=LTDL, ops=ltdl_ops(lam), paths=path_layout(lam)))
        return Factor(ws, lam, n)

    def loop_ltdl_solve(self, F: Factor, B, label="ltdl_x"):
        """Record M^-1 B (a vector or n x m block) as a call; return its entries."""
        shape = np.shape(B)
        B2 = np.reshape(np.asarray(B, dtype=object), (F.n, -1))
        m = B2.shape[1]
        ws = self._workspace(f"{label}_X")
        args = [(k, nodes.sympify(e)) for k, e in enumerate(B2.reshape(-1))
                if not (nodes.sympify(e).is_Number and nodes.sympify(e).value == 0)]
        self.defs.append(Call("ltdl_solve", ws, F.n * m, args, F.lam, F.n, m, factor=F.workspace,
                              label=label, note=SOLVE, ops=solve_ops(F.lam, m)))
        return self._results(ws, shape)

    def loop_ltdl_congruence(self, F: Factor, B):
        """Record B^T M^-1 B (B n x m) as a call, M^-1 itself when B is the identity;
        return the m x m result."""
        B = np.asarray(B, dtype=object)
        m = B.shape[1]
        entries = [nodes.sympify(e) for e in B.reshape(-1)]
        ws = self._workspace("ltdl_R")
        if m == F.n and all(e.is_Number and e.value == (1 if k // m == k % m else 0) for k, e in enumerate(entries)):
            self.defs.append(Call("ltdl_inverse", ws, m * m, [], F.lam, F.n, m, factor=F.workspace,
                                  label="ltdl_inverse", note=INVERSE, ops=inverse_ops(F.lam)))
        else:
            args = [(k, e) for k, e in enumerate(entries) if not (e.is_Number and e.value == 0)]
            self.defs.append(Call("ltdl_congruence", ws, m * m, args, F.lam, F.n, m, factor=F.workspace,
                                  scratch=self._unique(f"{ws}_Y"), label="ltdl_congruence", note=CONGRUENCE,
                                  ops=congruence_ops(F.lam, m)))
        return self._results(ws, (m, m))
