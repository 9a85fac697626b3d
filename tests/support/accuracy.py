"""The relative error of the test suite."""

import numpy as np


class RelErr(float):
    """A relative error that says where: its repr names the worst entry (index, got, want),
    so that a failing ``assert rel_err(got, want) < tol`` shows where, not only how much."""

    def __new__(cls, value, where=""):
        out = super().__new__(cls, value)
        out.where = where
        return out

    def __repr__(self):
        return f"{float(self)!r} ({self.where})" if self.where else repr(float(self))

    __str__ = __repr__


def rel_err(got, want):
    """The relative error of the test suite, one definition for every test: norm-wise,
    max |got - want| / max |want| over all entries (the absolute error when ``want`` is
    exactly zero). The shapes must agree: broadcasting would hide a wrong shape. The result
    is a float that names its worst entry (:class:`RelErr`)."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    if got.size == 0:
        return RelErr(0.0)
    diff = np.abs(got - want)
    nan = np.flatnonzero(np.isnan(diff))                 # a NaN entry is the worst one
    worst = np.unravel_index(int(nan[0]) if nan.size else int(np.argmax(diff)), diff.shape)
    err, scale = diff.max(), np.abs(want).max()
    at = tuple(int(i) for i in worst)
    where = "" if err == 0 else \
        f"worst at {list(at) if len(at) != 1 else at[0]}: got {float(got[worst])!r}, want {float(want[worst])!r}"
    return RelErr(float(err / scale) if scale > 0 else float(err), where)


def dense_tol(n):
    """The tolerance of a recursion against the dense operator form on n links: round-off of
    the O(N^3) products, 1e-12 (max(10, n))^2."""
    return 1e-12 * max(10, n) ** 2
