"""Block operators: N x N (or N x 1) grids of blocks, on symbols or on numbers.

The same block code runs on two kinds of entries:

* :class:`~soagen.symbolic.kernel.ncpoly.NCPoly` (free noncommutative symbols, the proof layer);
* numpy arrays (random instances for counterexamples, and the dense operators of a real
  robot for the numeric cross-check).

A zero block is stored as ``None`` (structural zero).  Every block row and column
carries a *dimension label* (``"6"`` for spatial, ``"r3"`` for the dofs of joint 3 in
the symbolic case; integers in the numeric case); a product whose inner labels do not
match raises :class:`IllTyped`, which is how dimensionally impossible printed
formulas (e.g. ``H^T D^-1 H^T``) are refuted.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from soagen.symbolic.kernel.ncpoly import NCPoly, QuotientAlgebra


class IllTyped(Exception):
    """A product or sum of blocks whose dimensions do not conform."""


class ScaledIdentity:
    """c I: the identity (c = 1) or a multiple of it, of whatever size the other operand has.

    Every operation keeps the coefficient: (-I) @ X = -X, I + I = 2 I, 0 I + X = X for
    any X (the zero operator of any shape)."""

    __array_ufunc__ = None

    def __init__(self, c=1):
        self.c = c

    def __repr__(self):
        return "I" if self.c == 1 else f"{self.c} I"

    def __mul__(self, k):
        if isinstance(k, ScaledIdentity):
            return ScaledIdentity(self.c * k.c)
        if isinstance(k, int | float | Fraction):
            return ScaledIdentity(self.c * k)
        return NotImplemented

    __rmul__ = __mul__

    def __neg__(self):
        return ScaledIdentity(-self.c)

    def __matmul__(self, other):
        if isinstance(other, ScaledIdentity):
            return ScaledIdentity(self.c * other.c)
        return other if self.c == 1 else other * self.c

    def __rmatmul__(self, other):
        return other if self.c == 1 else other * self.c

    def __add__(self, other):
        if isinstance(other, ScaledIdentity):
            return ScaledIdentity(self.c + other.c)
        return other + self          # the operator adds c I to its diagonal

    __radd__ = __add__

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    @property
    def T(self):
        return self


I = ScaledIdentity(1)


class Field:
    """How to make zero/identity blocks and test blocks for zero."""

    def one(self, dim):
        raise NotImplementedError

    def is_zero(self, x) -> bool:
        raise NotImplementedError


class SymbolicField(Field):
    def __init__(self, th: QuotientAlgebra):
        self.th = th

    def one(self, dim):
        return NCPoly.const(self.th, 1)

    def is_zero(self, x):
        return x.is_zero()


class NumericField(Field):
    def one(self, dim):
        return np.eye(dim)

    def is_zero(self, x):
        return not np.any(x)


class BM:
    """A block matrix with dimension labels; entries None (zero) or blocks."""

    __array_ufunc__ = None

    def __init__(self, field: Field, rdims: list, cdims: list, blocks: list[list]):
        self.field, self.rdims, self.cdims, self.b = field, list(rdims), list(cdims), blocks

    # -- construction ---------------------------------------------------------
    @classmethod
    def zeros(cls, field, rdims, cdims):
        return cls(field, rdims, cdims, [[None] * len(cdims) for _ in rdims])

    @classmethod
    def eye(cls, field, dims):
        m = cls.zeros(field, dims, dims)
        for i, d in enumerate(dims):
            m.b[i][i] = field.one(d)
        return m

    @classmethod
    def diag(cls, field, rdims, cdims, entries):
        m = cls.zeros(field, rdims, cdims)
        for i, e in enumerate(entries):
            m.b[i][i] = e
        return m

    @property
    def shape(self):
        return len(self.rdims), len(self.cdims)

    def __getitem__(self, ij):
        """Block (i, j), 1-based like the papers; None means zero."""
        i, j = ij
        return self.b[i - 1][j - 1]

    # -- algebra --------------------------------------------------------------
    def _eye_like(self, c=1):
        if self.rdims != self.cdims:
            raise IllTyped(f"I added to a non-square operator {self.rdims} x {self.cdims}")
        m = BM.eye(self.field, self.rdims)
        if c != 1:
            m = m * c
        return m

    def __add__(self, other):
        if isinstance(other, ScaledIdentity):
            return self if other.c == 0 else self + self._eye_like(other.c)
        if self.rdims != other.rdims or self.cdims != other.cdims:
            raise IllTyped(f"sum of {self.rdims}x{self.cdims} and {other.rdims}x{other.cdims}")
        out = BM.zeros(self.field, self.rdims, self.cdims)
        for i in range(len(self.rdims)):
            for j in range(len(self.cdims)):
                x, y = self.b[i][j], other.b[i][j]
                out.b[i][j] = x if y is None else (y if x is None else x + y)
        return out

    __radd__ = __add__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, k):
        out = BM.zeros(self.field, self.rdims, self.cdims)
        for i, row in enumerate(self.b):
            for j, x in enumerate(row):
                out.b[i][j] = None if x is None else x * k
        return out

    __rmul__ = __mul__

    def __matmul__(self, other):
        if isinstance(other, ScaledIdentity):
            return self if other.c == 1 else self * other.c
        if self.cdims != other.rdims:
            raise IllTyped(f"product of {self.rdims}x{self.cdims} and {other.rdims}x{other.cdims}")
        n, m, p = len(self.rdims), len(self.cdims), len(other.cdims)
        out = BM.zeros(self.field, self.rdims, other.cdims)
        for i in range(n):
            row = self.b[i]
            for j in range(p):
                acc = None
                for k in range(m):
                    x = row[k]
                    if x is None:
                        continue
                    y = other.b[k][j]
                    if y is None:
                        continue
                    t = x @ y
                    acc = t if acc is None else acc + t
                out.b[i][j] = acc
        return out

    def __rmatmul__(self, other):
        if isinstance(other, ScaledIdentity):
            return self if other.c == 1 else self * other.c
        return NotImplemented

    @property
    def T(self):
        out = BM.zeros(self.field, self.cdims, self.rdims)
        for i, row in enumerate(self.b):
            for j, x in enumerate(row):
                out.b[j][i] = None if x is None else x.T
        return out

    # -- comparison -----------------------------------------------------------
    def nonzero_blocks(self):
        """[(i, j, block)] of the blocks that are not zero (1-based indices)."""
        out = []
        for i, row in enumerate(self.b):
            for j, x in enumerate(row):
                if x is not None and not self.field.is_zero(x):
                    out.append((i + 1, j + 1, x))
        return out

    def is_zero(self) -> bool:
        return not self.nonzero_blocks()

    def dense(self) -> np.ndarray:
        """Numeric case: the full matrix."""
        rows = []
        for i, rd in enumerate(self.rdims):
            rows.append(np.hstack([np.zeros((rd, cd)) if x is None else np.asarray(x, float)
                                   for x, cd in zip(self.b[i], self.cdims)]))
        return np.vstack(rows)

    def size(self) -> int:
        """Symbolic case: total number of words in all blocks (expression size)."""
        return sum(len(x) for row in self.b for x in row if x is not None)


def blk2(A: BM, B: BM, C: BM, D: BM) -> BM:
    """The 2 x 2 block operator [[A, B], [C, D]] from four 1 x 1 block operators."""
    return BM(A.field, [A.rdims[0], C.rdims[0]], [A.cdims[0], B.cdims[0]],
              [[A.b[0][0], B.b[0][0]], [C.b[0][0], D.b[0][0]]])


def vcat(A: BM, B: BM) -> BM:
    """The 2 x 1 block operator [A; B] from two 1 x 1 block operators."""
    return BM(A.field, [A.rdims[0], B.rdims[0]], [A.cdims[0]], [[A.b[0][0]], [B.b[0][0]]])


def split_dense(field, A: np.ndarray, rdims: list[int], cdims: list[int]) -> BM:
    """Cut a dense numpy matrix into blocks with the given row/column sizes."""
    ro = np.concatenate([[0], np.cumsum(rdims)]).astype(int)
    co = np.concatenate([[0], np.cumsum(cdims)]).astype(int)
    if A.shape != (ro[-1], co[-1]):
        raise IllTyped(f"dense matrix {A.shape} does not match block sizes {ro[-1]}x{co[-1]}")
    m = BM.zeros(field, rdims, cdims)
    for i in range(len(rdims)):
        for j in range(len(cdims)):
            blk = A[ro[i]:ro[i + 1], co[j]:co[j + 1]]
            m.b[i][j] = np.array(blk, dtype=float) if np.any(blk) else None
    return m
