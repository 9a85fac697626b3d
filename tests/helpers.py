"""Small shared test utilities."""

import numpy as np


def rel_err(got, want):
    """The relative error of the test suite, one definition for every test: norm-wise,
    max |got - want| / max |want| over all entries (the absolute error when ``want`` is
    exactly zero). The shapes must agree: broadcasting would hide a wrong shape."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    if got.size == 0:
        return 0.0
    err, scale = np.abs(got - want).max(), np.abs(want).max()
    return float(err / scale) if scale > 0 else float(err)
