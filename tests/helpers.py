"""Small shared test utilities."""

import numpy as np


def rel_err(a, b):
    """max |a - b| relative to max(1, max |b|)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.abs(a - b).max() / max(1.0, np.abs(b).max()))
