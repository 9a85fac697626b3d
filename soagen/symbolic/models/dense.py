"""Dense operators with block labels: numpy matrices in the syntax of the proof layer.

:class:`Dense` wraps a numpy array with its block-row and block-column labels ("6" per
link, "r<k>" per joint, ...) so that a product or sum that does not conform raises
:class:`~soagen.symbolic.kernel.blocks.IllTyped`, as in the algebra.  It is what the numeric
cross-checks evaluate statements on (random robots, random instances of any topology), in
floating point or, with :class:`~soagen.symbolic.kernel.exact.Zp` arrays, exactly modulo a prime.
"""

from __future__ import annotations

import numpy as np

from soagen.symbolic.kernel.blocks import IllTyped, ScaledIdentity
from soagen.symbolic.kernel.exact import Zp


class Dense:
    """A dense operator with block-dimension labels (to refuse non-conforming products)."""

    __array_ufunc__ = None

    def __init__(self, arr, rdims, cdims):
        self.a = arr if isinstance(arr, Zp) else np.asarray(arr, float)
        self.rdims, self.cdims = list(rdims), list(cdims)

    def _eye(self, c=1.0):
        if self.rdims != self.cdims:
            raise IllTyped(f"I added to a non-square operator {self.rdims} x {self.cdims}")
        return Dense(self.a * 0 + c * np.eye(self.a.shape[0]), self.rdims, self.cdims)

    def __add__(self, o):
        if isinstance(o, ScaledIdentity):
            return self if o.c == 0 else self + self._eye(o.c)
        if self.rdims != o.rdims or self.cdims != o.cdims:
            raise IllTyped(f"sum of {len(self.rdims)}x{len(self.cdims)} blocks {self.rdims[:3]}.. "
                           f"and {o.rdims[:3]}..")
        return Dense(self.a + o.a, self.rdims, self.cdims)

    __radd__ = __add__

    def __neg__(self):
        return Dense(-self.a, self.rdims, self.cdims)

    def __sub__(self, o):
        return self + (-o)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, k):
        return Dense(self.a * k, self.rdims, self.cdims)

    __rmul__ = __mul__

    def __matmul__(self, o):
        if isinstance(o, ScaledIdentity):
            return self * o.c
        if self.cdims != o.rdims:
            raise IllTyped(f"product with inner dimensions {self.cdims[:3]}.. and {o.rdims[:3]}..")
        return Dense(self.a @ o.a, self.rdims, o.cdims)

    def __rmatmul__(self, o):
        if isinstance(o, ScaledIdentity):
            return self * o.c
        return NotImplemented

    @property
    def T(self):
        return Dense(self.a.T, self.cdims, self.rdims)

    def dense(self):
        return self.a
