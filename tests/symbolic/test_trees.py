"""Trees (framework paper Section 2): E_phi is a nilpotent shift over the tree; E X E^T is
block diagonal for block-diagonal X, so the Riccati equation (3.1) has a block-diagonal P
and Lemmas 1-4 hold for every tree; E^T X E couples siblings, so the block-diagonal
Upsilon of (A.5) does not solve (A.3) on a branching tree, and Lemma 5 needs a chain."""

import numpy as np
import pytest

from soagen.symbolic.engines import nfree
from soagen.symbolic.evidence.catalogue import BY_ID
from soagen.symbolic.evidence.verify import prove_all_n
from soagen.symbolic.models import instances
from tests.support.accuracy import rel_err


def _blocks(A, n):
    return {(i, j) for i in range(n) for j in range(n) if np.any(np.abs(A[6 * i:6 * i + 6, 6 * j:6 * j + 6]) > 1e-12)}


def _tree(n, seed):
    rng = np.random.default_rng(seed)
    parents = instances.random_tree_parents(n, rng)
    return parents, instances.instance(parents, rng)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_E_is_a_nilpotent_shift_and_E_X_ET_is_block_diagonal(seed):
    n = 7
    parents, ns = _tree(n, seed)
    E = ns["Ephi"].dense()
    assert not np.any(np.linalg.matrix_power(E, n))               # nilpotent (2.9)
    assert rel_err(ns["phi"].dense(), np.linalg.inv(np.eye(6 * n) - E)) < 1e-12    # round-off (measured 0)
    X = np.zeros_like(E)
    for k in range(n):
        X[6 * k:6 * k + 6, 6 * k:6 * k + 6] = np.random.default_rng(k).normal(size=(6, 6))
    assert _blocks(E @ X @ E.T, n) <= {(i, i) for i in range(n)}   # block diagonal, on every tree
    coupled = _blocks(E.T @ X @ E, n) - {(i, i) for i in range(n)}
    siblings = {(k - 1, m - 1) for k in parents for m in parents
                if k != m and parents[k] == parents[m] and parents[k] <= n}
    assert coupled == siblings and coupled                      # E^T X E couples exactly the siblings


def test_on_a_chain_both_products_are_block_diagonal():
    ns = instances.topology_instance("chain", 6, seed=3)
    E = ns["Ephi"].dense()
    X = np.kron(np.eye(6), np.ones((6, 6)))
    assert _blocks(E @ X @ E.T, 6) <= {(i, i) for i in range(6)}
    assert _blocks(E.T @ X @ E, 6) <= {(i, i) for i in range(6)}


def test_the_missing_relation_for_lemma_5():
    """(A.3) with the block-diagonal Upsilon of (A.5) holds on chains; on a branching tree its
    residual is exactly the sibling blocks psi^T(c,k) Upsilon(c) psi(c,m)."""
    for kind in ("chain", "arms"):
        ns = instances.topology_instance(kind, 6, seed=4)
        d = ns["U"].dense() - (ns["Epsi"].T @ ns["U"] @ ns["Epsi"]).dense() - (ns["H"].T @ ns["Dinv"] @ ns["H"]).dense()
        assert np.abs(d).max() < 1e-9, kind
    n = 7
    parents, ns = _tree(n, 5)
    d = ns["U"].dense() - (ns["Epsi"].T @ ns["U"] @ ns["Epsi"]).dense() - (ns["H"].T @ ns["Dinv"] @ ns["H"]).dense()
    U, Ep = ns["U"].dense(), ns["Epsi"].dense()
    for k in range(1, n + 1):
        for m in range(1, n + 1):
            blk = d[6 * (k - 1):6 * k, 6 * (m - 1):6 * m]
            c = parents[k]
            if k != m and c == parents[m] and c <= n:
                psi_ck = Ep[6 * (c - 1):6 * c, 6 * (k - 1):6 * k]
                psi_cm = Ep[6 * (c - 1):6 * c, 6 * (m - 1):6 * m]
                assert rel_err(blk, -psi_ck.T @ U[6 * (c - 1):6 * c, 6 * (c - 1):6 * c] @ psi_cm) < 1e-12
                assert np.abs(blk).max() > 1e-3
            else:
                assert np.abs(blk).max() < 1e-9


def test_lemmas_1_to_4_on_trees_and_lemma_5_on_chains_only():
    for rid in ("FW-L1", "FW-L2", "FW-L3", "FW-L4"):
        out = prove_all_n(BY_ID[rid], corrected=False, traced=False)
        assert out.status == "proved" and out.proof.topology == "tree", rid
    rec = BY_ID["FW-L5"]
    with_tree = nfree.prove_checks(rec.operator_form, (), "chain", "tree", traced=False)
    assert not with_tree.proved and "upsilon" not in with_tree.theory.relation_ids
    with_chain = nfree.prove_checks(rec.operator_form, (), "chain", "chain", traced=False)
    assert with_chain.proved and "upsilon" in with_chain.theory.relation_ids
    # and exact numbers agree: Lemma 5 holds on chains and fails on a branching tree (its
    # normal form modulo the tree relations, evaluated on integer instances modulo a prime)
    from soagen.symbolic.evidence.prove import counterexample

    nf = with_tree.checks[0].nf
    assert counterexample(nf, with_tree.algebra, "chain")[0] is None
    ce, _ = counterexample(nf, with_tree.algebra, "tree")
    assert ce["topology"] == "tree" and ce["residual"] > 1e-3


def test_every_relation_holds_on_its_topologies():
    """The relations are axioms: check each numerically where it is said to hold, and the
    chain-only one fails on a branching tree."""
    from soagen.symbolic.kernel.statement import evaluate, parse_expr

    for kind, n, seed in (("chain", 1, 1), ("chain", 5, 2), ("tree", 6, 3), ("tree", 8, 4), ("arms", 6, 5)):
        ns = instances.topology_instance(kind, n, seed)
        topo = "chain" if kind in ("chain", "arms") else "tree"
        for r in nfree.RELATIONS:
            lhs, rhs = evaluate(parse_expr(r.lhs), ns), evaluate(parse_expr(r.rhs), ns)
            res = np.linalg.norm((lhs - rhs).dense()) / max(1.0, np.linalg.norm(lhs.dense()))
            if topo in r.topologies:
                assert res < 1e-9, (r.id, kind, n, res)
            elif n > 2:
                assert res > 1e-3, (r.id, kind, n)
