"""The nodal operators of a flexible link (framework paper, Section 4) on numbers, built from
their definitions: the random instances of the all-N engine and the per-N block engine.

Link k has n_k nodes Q_k(1), .., Q_k(n_k) at offsets r_j = Q_k(j) - O_k from its point O_k
(random, world-aligned as in the papers' phi(i, j) = [[I, l~], [0, I]], l the vector from i
to j); its inboard child is attached at node Q_k(1) ((4.1)-(4.2)); node n_k is pinned
(u_k^f(n_k) = 0), so its free dofs are u_k = h_k u_k^f with h_k = [I, 0]. Then

    B_k = [phi(O_k, Q_k(1)) .. phi(O_k, Q_k(n_k))]                          (4.3)
    C_{k+1}^* = [phi^*(Q_{k+1}(1), O_k), 0, .., 0]                            (4.2)
    phi(Q_{k+1}(1), O_k) = phi(O_{k+1}, Q_{k+1}(1))^-1 phi(k+1, k)            (3.2)-(3.3)

so that B_{k+1} C_{k+1} = phi(k+1, k) follows from the construction, not from an
assumption (a test checks it exactly). On a tree, each child c of link k is attached at one
node j of link k and C has the block C_{k,c} (phi(Q_k(j), O_c) in rows of node j) at (k, c).
The node masses m_k are random symmetric positive definite. Nothing here is imported from
soagen's flexible-body code (:mod:`soagen.operators.flexible`): these are the paper's
definitions, evaluated independently.

`ar` is the arithmetic of the instance (:class:`soagen.symbolic.models.instances.Reals` or
``Integers``: ``normal(shape)``, ``array(x)``), so the same code gives floats and exact
residues modulo a prime.
"""

from __future__ import annotations

import numpy as np


def node_counts(n: int) -> list:
    """n_k for links 1..n: 2, 3, 1, 2, 3, 1, .. (n_k = 1 is a rigid link: one pinned node)."""
    return [1 + k % 3 for k in range(1, n + 1)]


def _skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def shift(ar, r):
    """phi(a, b) = [[I, r~], [0, I]] for the vector r from point a to point b."""
    m = ar.array(np.eye(6))
    m[:3, 3:] = _skew(r)
    return m


def offsets(ar, n: int) -> list:
    """Random offsets Q_k(j) - O_k of the n nodes of one link."""
    return [ar.normal(3) for _ in range(n)]


def B_block(ar, r: list):
    """B_k = [phi(O_k, Q_k(1)) .. phi(O_k, Q_k(n_k))], 6 x 6 n_k (4.3)."""
    return np.hstack([shift(ar, x) for x in r])


def C_block(ar, r: list, j: int, phi_kc):
    """The 6 n_k x 6 block of C that attaches a child c at node j (1-based) of link k:
    phi(Q_k(j), O_c) = phi(O_k, Q_k(j))^-1 phi(k, c) in the rows of node j, zero elsewhere (4.2)."""
    out = ar.array(np.zeros((6 * len(r), 6)))
    out[6 * (j - 1):6 * j, :] = shift(ar, -r[j - 1]) @ phi_kc
    return out


def h_block(ar, n: int):
    """h_k = [I, 0], 6 (n_k - 1) x 6 n_k: the free dofs u_k = h_k u_k^f (node n_k pinned)."""
    return ar.array(np.eye(6 * (n - 1), 6 * n))


def m_block(ar, n: int):
    """A random symmetric positive definite nodal mass matrix m_k, 6 n_k x 6 n_k."""
    A = ar.normal((6 * n, 6 * n))
    return A @ A.T + 6 * ar.array(np.eye(6 * n))
