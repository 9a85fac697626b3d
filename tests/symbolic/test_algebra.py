"""The proof layer itself: rewriting system confluent, transpose an anti-automorphism,
block operators with dimension checks, scalar and multi-dof joints."""

import numpy as np
import pytest

from soagen.symbolic import matrices
from soagen.symbolic.blocks import I, IllTyped
from soagen.symbolic.chain import random_chain_ops, soa_theory, symbolic_chain
from soagen.symbolic.ncpoly import NCPoly, Theory, critical_pairs


@pytest.mark.parametrize("N", [1, 2, 3, 4])
def test_chain_rewriting_system_is_confluent(N):
    th = soa_theory(N)
    assert len(th.rules) == 2 * N
    assert critical_pairs(th) == []


@pytest.mark.parametrize("name", sorted(matrices.THEORIES))
def test_matrix_theories_are_confluent(name):
    assert critical_pairs(matrices.theory(name)) == []


def test_critical_pair_check_detects_a_non_confluent_system():
    th = Theory("bad")
    th.gen("a"), th.gen("b")
    th.add_rule(("a", "b"), 1, with_transpose=False)
    th.add_rule(("b", "a"), NCPoly.const(th, 0), with_transpose=False)   # a b a -> a, or -> 0
    assert critical_pairs(th)


def test_rules_must_shorten_words():
    th = Theory("t")
    x = th.gen("x")
    with pytest.raises(ValueError):
        th.add_rule(("x",), x @ x)


def test_transpose_is_an_anti_automorphism():
    th = soa_theory(2)
    phi, H, P = th.gen("phi(2,1)"), th.gen("H(1)"), th.gen("P(1)", symmetric=True)
    x = phi @ P @ H.T
    assert x.T == H @ P @ phi.T
    assert (x @ H).T == H.T @ x.T
    assert P.T == P


def test_D_inverse_rule_both_sides():
    th = soa_theory(1)
    H, P, Di = th.gen("H(1)"), th.gen("P(1)", symmetric=True), th.gen("Dinv(1)", symmetric=True)
    D = H @ P @ H.T
    assert Di @ D == 1 and D @ Di == 1
    assert (P @ H.T @ Di @ D @ Di @ H) == P @ H.T @ Di @ H


def test_non_conforming_product_is_refused():
    o = symbolic_chain(2)
    with pytest.raises(IllTyped):
        _ = o.Dinv @ o.psi


def test_psi_entries_expand_by_the_semigroup_rule():
    o = symbolic_chain(3)
    # psi(3,1) = psi(3,2) psi(2,1): 4 words; phi(3,1) = phi(3,2) phi(2,1): 1 word
    assert len(o.psi[3, 1]) == 4
    assert list(o.phi[3, 1].terms) == [("phi(3,2)", "phi(2,1)")]


@pytest.mark.parametrize("dofs", [[1, 1, 1, 1], [3, 3, 3, 3], [1, 3, 2, 1]])
def test_numeric_instances_scalar_and_multi_dof(dofs):
    o = random_chain_ops(4, seed=3, dofs=dofs)
    assert o.H.dense().shape == (sum(dofs), 24)
    Minv = (I - o.H @ o.Psi @ o.L).T @ o.Dinv @ (I - o.H @ o.Psi @ o.L)
    res = np.linalg.norm((o.Mcal @ Minv - I).dense())
    assert res < 1e-9


@pytest.mark.parametrize("labels", ["1", "3", "mixed"])
def test_scalar_and_multi_dof_labels_prove_the_same_identities(labels):
    """The proof never uses the joint dimension: with H(k) labelled 1 x 6 (scalar joints),
    3 x 6 (spherical) or mixed, the core identities prove and the ill-typed misprints stay ill-typed."""
    from soagen.symbolic.catalogue import BY_ID
    from soagen.symbolic.verify import chain_namespace, check_symbolic

    N = 4
    lab = {k: ("1" if labels == "1" else "3" if labels == "3" else ("1" if k % 2 else "3")) for k in range(1, N + 1)}
    ns = chain_namespace(symbolic_chain(N, lab))
    for rid in ("I-4.11", "I-4.14", "I-4.16", "I-5.4", "I-a.48", "I-a.50", "I-FD4", "FW-L5"):
        rec = BY_ID[rid]
        assert check_symbolic(rec.checks, rec.let, ns).ok, rid
    rec = BY_ID["II-6.5a"]
    assert "do not conform" in check_symbolic(rec.checks, rec.let, ns).detail
