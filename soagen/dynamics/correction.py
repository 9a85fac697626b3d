"""The correction accelerations for forces at several frames (framework paper Step (E),
(3.12), (A.6)): beta_delta = -M^-1 J^T f = -(I - H psi K)^T D^-1 H psi B f.

Run as the filter/smoother pair of (4.19)-(4.22) with T = 0 and the frame forces entering
at their bodies: z = psi B f, nu = -D^-1 H z, beta_delta = (I - H psi K)^T nu. The seed's
(A.6) feeds x_hat = -B A^T f through K(k, k-1) x_hat(k-1), which mixes a 6-vector into a
joint-space slot; the form verified here enters x_hat(k) at link k itself
(docs/misprints-trees-swain-morris.md)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.filtering import anticausal_smoother, causal_filter
from soagen.dynamics.innovations import riccati


def correction(s, frames, f):
    """beta_delta = -M^-1 J^T f (3.12) in O(N) (A.6, corrected)."""
    robot, xp = s.robot, s.xp
    inn = riccati(s)
    x = s.frame_forces(frames, f)                               # B f (2.13)
    zero = [xp.zeros(b.nv) for b in robot.bodies]
    nu = causal_filter(s, inn, zero, x=x)          # nu = -D^-1 H psi B f
    qdd, _ = anticausal_smoother(s, inn, nu)
    return np.concatenate(qdd)
