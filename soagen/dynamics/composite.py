"""Composite-body sums and the walk that reads them off (Part I Lemma A.1, Corollary A.1).

For any block-diagonal operator X (spatial inertias M, their rates, ...), Corollary A.1
(Lemma A.1 with psi = phi; the proof uses only that phi is causal with the semigroup
property, not that X is symmetric) gives

    phi X phi^T = r + phi~ r + r phi~^T,   r(k) = X(k) + sum over children c of
                                                   phi(k, c) r(c) phi^T(k, c)   (a.44),

so the block (k, l), k inboard of l, of phi X phi^T is phi(k, l) r(l): one tip-to-base
sweep for r, then for each body l a walk towards the base carrying phi(k, l) F. On a tree
the sum runs over the subtree of k (framework paper (A.1)); the walk visits the ancestors.
For X = M (and its rate) the r(k) of an all-rigid subtree is a spatial inertia of 10
parameters, named and shifted as such (:func:`~soagen.dynamics.inertia.phi_inertia`).
With flexible bodies phi is the extended phihat of (4.1)-(4.2) (:class:`~soagen.dynamics.sweeps.State`),
and r(k) of a subtree holding one is a full (6 + m) x (6 + m) block."""

from __future__ import annotations

import numpy as np

from soagen.dynamics.inertia import inertia_parameters, rigid_inertia

COMPOSITE_INERTIA = "composite rigid-body inertia R(k) (a.44)"


def composite_inertias(s, X, label, note):
    """r(k) = X(k) + sum_c phi(k, c) r(c) phi^T(k, c) (a.44) for spatial inertias X(k)
    (or their rates): each r(k) of an all-rigid subtree is named by its 10 parameters,
    ``label`` + k (I_O, upper triangle), ``label`` + ``h`` + k and ``label`` + ``m`` + k,
    with ``note`` (:meth:`soagen.backend.NumpyBackend.name`), and shifted to a rigid
    parent by them; any other r(k) is named by its upper triangle and shifted by phihat
    (:meth:`~soagen.dynamics.sweeps.State.named_inertia`, :meth:`~soagen.dynamics.sweeps.State.shift_inertia`)."""
    robot = s.robot
    rigid = rigid_subtrees(robot)
    r = list(X)
    for i in reversed(range(robot.nb)):
        r[i] = s.named_inertia(i, r[i], label, note, rigid[i])
        p = robot.bodies[i].parent
        if p >= 0:
            r[p] = r[p] + s.shift_inertia(i, r[i], rigid[i])         # phi(k+1, k) r(k) phi^T(k+1, k) (a.44)
    return r


def rigid_subtrees(robot):
    """Per body: whether it and every body outboard of it are rigid."""
    rigid = [b.flex is None for b in robot.bodies]
    for i in reversed(range(robot.nb)):
        p = robot.bodies[i].parent
        if p >= 0 and not rigid[i]:
            rigid[p] = False
    return rigid


def named_inertia(M, xp, label, i, note):
    """The spatial inertia M rebuilt from its named 10 parameters (m, h, I_O)."""
    m, h, I_O = inertia_parameters(M)
    return rigid_inertia(xp.name(np.array([m]), f"{label}m", body=i, note=note)[0],
                         xp.name(h, f"{label}h", body=i, note=note),
                         xp.name(mirrored(I_O), label, body=i, symmetric=True, note=note))


def mirrored(A):
    """A symmetric matrix from the upper triangle of A."""
    return np.triu(A) + np.triu(A, 1).T


def composite_forces(s, x, label, note):
    """phi x: x(k) + sum_c phi(k, c) x(c), the force-vector form of (a.44) (cf. (2.29))."""
    robot, xp = s.robot, s.xp
    r = list(x)
    for i in reversed(range(robot.nb)):
        r[i] = xp.name(r[i], label, body=i, note=note)
        p = robot.bodies[i].parent
        if p >= 0:
            r[p] = r[p] + s.up(i, r[i])
    return r


def towards_base(s, l, F, label, note):
    """Yield (k, phi(k, l) F) for k = l and then each ancestor of body l, base-most last;
    F is a force (6-vector or 6 x n block) at O(l) in frame l, the result at O(k) in frame k.
    Each step transforms every column alike (``xp.columns``)."""
    robot, xp = s.robot, s.xp
    k = l
    yield k, F
    while robot.bodies[k].parent >= 0:
        F = xp.columns(lambda x, k=k: s.up(k, x), [F], f"{label}{robot.bodies[k].parent}_{l}", note=note)
        k = robot.bodies[k].parent
        yield k, F
