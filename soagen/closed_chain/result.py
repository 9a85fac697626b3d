"""What every closed-chain method returns (:class:`Result`), and the step most of them
end with: the object's acceleration from the grasp forces,
alpha(C) = M^-1(C) [A^T f(0) - b(C)] (Part II (2.10c), (2.9))."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Result:
    """Joint accelerations per arm, the object's spatial acceleration alpha(C) (world,
    at C, angular first, classical), and the grasp forces f_i(0) (l x 6: force of tip i on
    the object at O_i, moment first, world-aligned)."""

    qdd: list
    alpha_C: np.ndarray
    f0: np.ndarray
    alpha0: np.ndarray | None = None      # tip accelerations (RCCFD1 (6.11j))
    Wdot: np.ndarray | None = None        # contact accelerations (b.9f)
    extra: dict = field(default_factory=dict)

    @property
    def qdd_all(self):
        return np.concatenate(self.qdd)


def object_acceleration(ctx, f0):
    """alpha(C) = M^-1(C) [A^T f(0) - b(C)] (2.10c), (2.9); ``f0`` stacked (6l)."""
    return ctx.M_C_inv() @ (ctx.A_stack().T @ f0 - ctx.b_C)


def from_forces(ctx, qdd, f0, alpha_C=None):
    """The Result of joint accelerations ``qdd`` (one vector per arm, or stacked) and grasp
    forces ``f0`` (stacked); alpha(C) by (2.10c) unless the method solved for it."""
    if not isinstance(qdd, list):
        qdd = ctx.system.split(qdd)
    f0 = np.asarray(f0)
    if alpha_C is None:
        alpha_C = object_acceleration(ctx, f0)
    return Result(qdd, alpha_C, f0.reshape(ctx.system.l, 6))
