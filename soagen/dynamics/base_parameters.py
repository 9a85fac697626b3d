"""Base (minimal identifiable) inertial parameters: which combinations of the standard
parameters pi (regressor.py) the joint forces determine (docs/derivatives.md, "Base
parameters").

Two steps, as in the classical literature (Gautier and Khalil's regrouping rules, then
Gautier's numerical QR method for what the rules leave):

1. **Structural rules, from the joint types, axes and placements.** A direction u of body
   k's parameters whose spatial inertia M(u) is invariant under the joint's motion and
   does no work with it (M(u) H^T(k) = 0) contributes to the dynamics exactly as the same
   inertia fixed on the parent: it is regrouped into the parent (through the joint
   placement) or, for a body on the fixed base, dropped. The directions are
   revolute about h: a point mass at O(k), a first moment along h, the inertia 1 - h h^T
   (3 per joint, Khalil's M, MZ, YY for h = z); prismatic: the rotational inertia (6);
   spherical: a point mass at the centre (1); planar with normal n: 1 - n n^T (1);
   free: none. Processed tip to base, this gives exact regrouping expressions.
2. **Rank of a stacked random regressor** on the parameters left by step 1: columns that
   depend on earlier ones (base to tip, Pinocchio's parameter order within a body) are
   regrouped by least squares. This finds what the rules cannot see from one joint alone:
   motion restricted near the base (a first axis parallel to gravity leaves only Izz1)
   and special geometry (parallel axes).

``base_parameters(robot)`` returns K (b x 10 nb) with pi_b = K pi and Y = Y_b K, where
Y_b = Y[:, columns] is the base regressor; K restricted to ``columns`` is the identity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.backend import NUMPY
from soagen.dynamics.regressor import regressor
from soagen.dynamics.sweeps import prepare
from soagen.model import PARAMETERS, pack, unpack
from soagen.spatial import skew
from soagen.tolerances import BASE_COEFFICIENT_ZERO, BASE_RANK, REGROUP_ZERO

# which coordinate a regrouping eliminates first: m, then the first moment, then inertia
ELIMINATION_ORDER = (0, 3, 2, 1, 6, 4, 9, 8, 7, 5)


@dataclass(frozen=True)
class BaseParameters:
    """pi_b = K pi; Y = Y_b K with Y_b = Y[:, columns]. Unpacks as (K, names)."""

    K: np.ndarray
    names: tuple          # standard name of the kept column, "R" appended when regrouped
    columns: tuple
    expressions: tuple    # pi_b(i) = ... as text
    structural: int       # parameters left after step 1 (the joint rules)
    gap: tuple            # (largest dependent, smallest independent) relative residual of step 2

    def __iter__(self):
        return iter((self.K, self.names))


def standard_names(robot):
    return tuple(f"{p}{i + 1}" for i in range(robot.nb) for p in PARAMETERS)


def transferable(joint):
    """The parameter directions (columns, 10 x t) of a body that its joint cannot feel."""
    h = np.asarray(joint.axis, dtype=float)
    mass = pack(1.0, np.zeros(3), np.zeros((3, 3)))
    if joint.kind == "revolute":
        return np.stack([mass, pack(0.0, h, np.zeros((3, 3))),
                         pack(0.0, np.zeros(3), np.eye(3) - np.outer(h, h))], axis=1)
    if joint.kind == "prismatic":
        return np.stack([pack(0.0, np.zeros(3), E) for E in _symmetric_basis()], axis=1)
    if joint.kind == "spherical":
        return mass[:, None]
    if joint.kind == "planar":
        return pack(0.0, np.zeros(3), np.eye(3) - np.outer(h, h))[:, None]
    return np.zeros((10, 0))


def _symmetric_basis():
    out = []
    for i, j in ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)):
        E = np.zeros((3, 3))
        E[i, j] = E[j, i] = 1.0
        out.append(E)
    return out


def placement_map(R, r):
    """10 x 10: the parameters of a rigid inertia given in a frame with axes R and origin r
    (in the parent frame), expressed in the parent frame: m, R mc + m r,
    R I R^T - m r~ r~ - (r~ (R mc)~ + (R mc)~ r~)."""
    out = np.zeros((10, 10))
    rt = skew(r)
    for c in range(10):
        m, mc, I = unpack(np.eye(10)[c])
        Rmc = R @ mc
        out[:, c] = pack(m, Rmc + m * r, R @ I @ R.T - m * rt @ rt - (rt @ skew(Rmc) + skew(Rmc) @ rt))
    return out


def regroup(robot):
    """Step 1: (K1, kept), K1 (b1 x 10 nb) with kept columns in body, then parameter order."""
    nb = robot.nb
    E = [np.zeros((10, 10 * nb)) for _ in range(nb)]       # effective parameters of each body
    for i in range(nb):
        E[i][:, 10 * i:10 * i + 10] = np.eye(10)
    kept = [None] * nb
    for i in reversed(range(nb)):
        b = robot.bodies[i]
        T = transferable(b.joint)
        d = _eliminated(T)
        w = np.linalg.solve(T[d], E[i][d]) if d else np.zeros((0, 10 * nb))
        E[i] = E[i] - T @ w
        if b.parent >= 0 and d:
            E[b.parent] = E[b.parent] + placement_map(np.asarray(b.placement_R), np.asarray(b.placement_r)) @ T @ w
        kept[i] = [c for c in range(10) if c not in d]
    rows = [E[i][c] for i in range(nb) for c in kept[i]]
    K1 = np.where(np.abs(rows) < REGROUP_ZERO, 0.0, rows)
    return K1, [10 * i + c for i in range(nb) for c in kept[i]]


def _eliminated(T):
    d = []
    for c in ELIMINATION_ORDER:
        if len(d) == T.shape[1]:
            break
        if np.linalg.matrix_rank(T[d + [c]]) > len(d):
            d.append(c)
    return sorted(d)


def stacked_regressor(robot, rows=None, seed=0):
    """Y at random states (q uniform, qd, qdd normal) stacked: (rows x 10 nb)."""
    rng = np.random.default_rng(seed)
    samples = max(8, -(-(rows or 3 * 10 * robot.nb) // robot.nv))
    out = []
    for _ in range(samples):
        q = robot.random_configuration(rng)
        s = prepare(robot, q, rng.normal(size=robot.nv), NUMPY)
        out.append(regressor(s, rng.normal(size=robot.nv)))
    return np.vstack(out)


def independent_columns(W):
    """Greedy left-to-right choice of linearly independent columns of W (Gram-Schmidt,
    twice, on unit columns): (independent, dependent, (max dependent, min independent)
    relative residual)."""
    norms = np.linalg.norm(W, axis=0)
    scale = norms.max() if norms.size else 1.0
    Q = np.zeros((W.shape[0], 0))
    ind, dep, res_dep, res_ind = [], [], [0.0], [1.0]
    for c in range(W.shape[1]):
        if norms[c] <= REGROUP_ZERO * scale:
            dep.append(c)
            continue
        x = W[:, c] / norms[c]
        for _ in range(2):
            x = x - Q @ (Q.T @ x)
        r = np.linalg.norm(x)
        if r > BASE_RANK:
            ind.append(c)
            res_ind.append(r)
            Q = np.hstack([Q, (x / r)[:, None]])
        else:
            dep.append(c)
            res_dep.append(r)
    return ind, dep, (max(res_dep), min(res_ind))


def base_parameters(robot) -> BaseParameters:
    K1, kept = regroup(robot)
    W = stacked_regressor(robot)[:, kept]
    ind, dep, gap = independent_columns(W)
    K2 = np.zeros((len(ind), len(kept)))
    K2[np.arange(len(ind)), ind] = 1.0
    if dep:
        beta = np.linalg.lstsq(W[:, ind], W[:, dep], rcond=None)[0]
        K2[:, dep] = np.where(np.abs(beta) < BASE_COEFFICIENT_ZERO, 0.0, beta)
    K = K2 @ K1
    K = np.where(np.abs(K) < REGROUP_ZERO, 0.0, K)
    cols = tuple(kept[i] for i in ind)
    std = standard_names(robot)
    names = tuple(std[c] + ("R" if np.count_nonzero(K[r]) > 1 else "") for r, c in enumerate(cols))
    return BaseParameters(K, names, cols, tuple(_expression(K[r], std) for r in range(len(cols))),
                          len(kept), gap)


def _expression(row, std):
    terms = []
    for c in np.flatnonzero(row):
        k = row[c]
        coef = "" if k == 1 else "-" if k == -1 else f"{k:.12g} "
        terms.append(f"{coef}{std[c]}")
    return " + ".join(terms).replace("+ -", "- ")
