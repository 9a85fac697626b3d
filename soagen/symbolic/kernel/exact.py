"""Exact arithmetic for counterexamples: integer instances computed modulo a prime.

A counterexample refutes a statement only if it survives exact arithmetic, so that
rounding never refutes a true statement (nor hides a false one behind large terms).  The
instances of :mod:`soagen.symbolic.models.instances` are built here from small random *integers*
(rigid-body transformations with integer offsets, integer joint maps, integer SPD
inertias); every other operator is a rational function of them (the Riccati recursion
inverts D = H P H^T, phi = (I - E_phi)^-1, ...).  Reducing the whole computation modulo a
prime p is a ring homomorphism from the rationals whose denominators p does not divide
onto the integers modulo p, so:

* if every matrix inverted along the way is invertible modulo p (checked: :func:`inv`
  raises otherwise), the values modulo p are the reductions of an exact rational
  instance, which satisfies every relation of the algebra exactly;
* a statement whose two sides differ modulo p therefore differ over the rationals: the
  rational instance is an exact counterexample.  The converse can fail by chance (a
  difference divisible by p), with probability about 1/p per entry; then another
  instance is tried.

:class:`Zp` is a numpy array whose every operation (``+ - * @``, division by an
integer, transpose) is reduced modulo :data:`PRIME`.  A float operand is accepted only if
it holds integers (``np.block`` with a float zero block, for instance), anything else
raises, so a value can never slip through as a rounded float.
"""

from __future__ import annotations

import numpy as np

PRIME = 67_108_859        # a prime below 2**26: a product of residues is below 2**52 and
#                           sums of up to 2**11 of them stay below 2**63 in int64
MAX_INNER = 2 ** 11       # longest inner dimension of a product that cannot overflow


class NotExact(TypeError):
    """A non-integer value met exact arithmetic."""


def _residues(x) -> np.ndarray:
    a = np.asarray(x.view(np.ndarray) if isinstance(x, Zp) else x)
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.round(a)) or np.any(np.abs(a) >= 2.0 ** 52):
            raise NotExact("a non-integer float in exact arithmetic")
        a = a.astype(np.int64)
    elif a.dtype.kind not in "iub":
        raise NotExact(f"values of type {a.dtype} in exact arithmetic")
    return a.astype(np.int64) % PRIME


class Zp(np.ndarray):
    """An integer array whose arithmetic is modulo :data:`PRIME`."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kw):
        args = [_residues(x) for x in inputs]
        if ufunc in (np.true_divide, np.floor_divide):
            a, d = args
            if d.ndim or not d:
                raise NotExact("division by an array, or by zero modulo the prime")
            res = a * pow(int(d), -1, PRIME)
        elif ufunc is np.matmul:
            if args[0].shape[-1] >= MAX_INNER:
                raise NotExact("a product too long for int64 residues")
            res = np.matmul(*args)
        else:
            res = getattr(ufunc, method)(*args, **kw)
        res = np.asarray(res)
        if res.dtype == bool:
            return res
        res = (res % PRIME).view(Zp)
        if out is not None:
            out[0].view(np.ndarray)[...] = res
            return out[0]
        return res


def zp(x) -> Zp:
    """x (integers, or floats holding integers) as residues modulo the prime."""
    return _residues(x).view(Zp)


def inv(X) -> Zp:
    """The inverse modulo the prime (Gauss-Jordan); ZeroDivisionError if X is singular there."""
    A = _residues(X)
    n = A.shape[0]
    if A.shape != (n, n):
        raise ValueError("inverse of a non-square matrix")
    M = np.concatenate([A, np.eye(n, dtype=np.int64)], axis=1)
    for c in range(n):
        piv = next((r for r in range(c, n) if M[r, c]), None)
        if piv is None:
            raise ZeroDivisionError("singular modulo the prime")
        M[[c, piv]] = M[[piv, c]]
        M[c] = M[c] * pow(int(M[c, c]), -1, PRIME) % PRIME
        col = M[:, c].copy()
        col[c] = 0
        M = (M - np.outer(col, M[c])) % PRIME
    return M[:, n:].view(Zp)


def is_zero(x) -> bool:
    return not np.any(_residues(x))
