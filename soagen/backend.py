"""The array shim: one recursion, two kinds of scalars.

Every recursion in :mod:`soagen.dynamics` is written once against a backend ``xp`` and
runs on float arrays (:data:`NUMPY`, the numeric reference), on numpy object arrays of
SymPy expressions (:data:`SYMPY`, the derivations) or on object arrays of the code
generator's expression nodes (:class:`soagen.codegen.unroll.UnrollBackend`). A backend
supplies only what differs: array creation, ``sin``/``cos``, the inverse of a small
joint-space matrix ``D(k)`` (and solves with such a matrix), and :meth:`name`, the hook
where a symbolic backend may replace a freshly computed quantity by named temporaries (so
that unrolled expressions stay short). Arithmetic (``+``, ``*``, ``@``) is plain numpy on
all of them.
"""

from __future__ import annotations

import numpy as np


def quantity_label(label, body):
    """The label of a named quantity: ``label`` followed by the body's index for a per-body
    one (``P``, 3 -> ``P3``), ``label`` itself for others."""
    return label if body is None else f"{label}{body}"


class NumpyBackend:
    """Float64 arrays: the numeric reference."""

    dtype = float

    def zeros(self, shape):
        return np.zeros(shape, dtype=self.dtype)

    def eye(self, n):
        return np.eye(n, dtype=self.dtype)

    def asarray(self, x):
        return np.asarray(x, dtype=self.dtype)

    def constant(self, a):
        """A model constant (H, placements, inertias) as an array of this backend."""
        return np.asarray(a, dtype=float)

    def sin(self, x):
        return np.sin(x)

    def cos(self, x):
        return np.cos(x)

    def sqrt(self, x):
        return np.sqrt(x)

    def inv(self, A):
        """Inverse of a small symmetric positive definite joint-space block (D(k))."""
        if A.shape == (1, 1):
            return 1.0 / A
        return np.linalg.inv(A)

    def solve(self, A, b):
        """A^-1 b for a small symmetric positive definite system."""
        return np.linalg.solve(A, b)

    def name(self, x, label, body=None, symmetric=False, note=None):
        """Hook for symbolic backends: return ``x`` (possibly as named temporaries).
        ``label`` names the quantity, and ``body`` the body it belongs to: a per-body
        quantity is named by its kind and body (``"P"``, 3: P(3), shown ``P3``), any other
        by its label alone (``body`` None); ``symmetric`` says that ``x`` is a symmetric
        matrix (a symbolic backend names its upper triangle only); ``note`` says what it is,
        with its equation (the generated code's comment). Numbers pass through."""
        return x

    def columns(self, f, blocks, label, note=None, name_inputs=False, body=None):
        """``f(*blocks)``, named ``label`` (:meth:`name`), where ``f`` does the same to every
        column: the blocks' last axis runs over the same columns, and column j of the
        result depends only on column j of each block, through the same operations (a
        spatial transform applied to several force vectors, a substitution step of a
        triangular solve with several right-hand sides). A code generator may then compute
        several columns at once (:mod:`soagen.codegen.c.lanes`); numerically it is ``f``.
        ``name_inputs``: the entries of a block that no earlier such call returned are
        named first (right-hand sides that other code reads too, computed once)."""
        return self.name(f(*blocks), label, body=body, note=note)

    def nonzero_columns(self, B):
        """The columns of the 2-d block B that are not zero by construction (every one:
        numbers are not structure; a symbolic backend leaves out the columns whose entries
        are all the number 0, which a linear map such as a solve sends to zero)."""
        return list(range(B.shape[1]))


class SympyBackend(NumpyBackend):
    """Numpy object arrays holding SymPy expressions; zeros and ones fold on the spot.
    The scalars are made by :meth:`scalar`, the hook a backend of other expression nodes
    (:class:`soagen.codegen.unroll.UnrollBackend`) overrides."""

    dtype = object

    def scalar(self, x):
        """A Python or numpy number (an int an exact integer, a float a Float) or an
        expression as a scalar of this backend."""
        import sympy

        return sympy.sympify(x)

    def zeros(self, shape):
        out = np.empty(shape, dtype=object)
        out.fill(self.scalar(0))
        return out

    def eye(self, n):
        out = self.zeros((n, n))
        for i in range(n):
            out[i, i] = self.scalar(1)
        return out

    def constant(self, a):
        """Floats that are integers become exact integers (so 1.0*x prints as x); entries
        that are already expressions pass through."""
        a = np.asarray(a)
        out = np.empty(a.shape, dtype=object)
        for idx, x in np.ndenumerate(a):
            if isinstance(x, (float, np.floating)):
                out[idx] = self.scalar(int(x) if float(x).is_integer() else float(x))
            else:
                out[idx] = self.scalar(x)
        return out

    def sin(self, x):
        import sympy

        return sympy.sin(x)

    def cos(self, x):
        import sympy

        return sympy.cos(x)

    def sqrt(self, x):
        import sympy

        return sympy.sqrt(x)

    def inv(self, A):
        import sympy

        if A.shape == (1, 1):
            return np.array([[1 / A[0, 0]]], dtype=object)
        return np.array(sympy.Matrix(A).inv(), dtype=object)

    def solve(self, A, b):
        return self.inv(A) @ b

    def nonzero_columns(self, B):
        return [j for j in range(B.shape[1]) if any(not self.is_zero(e) for e in B[:, j])]

    def is_zero(self, x):
        """Whether the scalar ``x`` is the number 0."""
        return x == 0


NUMPY = NumpyBackend()
SYMPY = SympyBackend()
