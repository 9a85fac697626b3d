"""The proof layer itself: orders and rules, completion, typing, transpose, the block
engine's confluence, scalar and multi-dof joints, and the scaled-identity defect."""

import numpy as np
import pytest

from soagen.symbolic.engines import nfree
from soagen.symbolic.kernel.blocks import I, IllTyped
from soagen.symbolic.kernel.ncpoly import NCPoly, QuotientAlgebra, critical_pairs
from soagen.symbolic.kernel.rewriting import (
    NonDecreasingRule,
    Order,
    Rule,
    complete,
    overlaps,
)
from soagen.symbolic.models.chain import random_chain_ops, soa_theory, symbolic_chain


# --------------------------------------------------------------------------- per-N engine
@pytest.mark.parametrize("N", [1, 2, 3, 4])
def test_chain_rewriting_system_is_confluent(N):
    th = soa_theory(N)
    assert len(th.rules) == 2 * N + 2 * (N - 1)      # D^-1 D = I per joint, B_k C_k = phi(k, k-1) for k = 2..N
    assert critical_pairs(th) == []


def test_critical_pair_check_detects_a_non_confluent_system():
    th = QuotientAlgebra("bad")
    th.gen("a"), th.gen("b")
    th.add_rule(("a", "b"), 1, with_transpose=False)
    th.add_rule(("b", "a"), NCPoly.const(th, 0), with_transpose=False)   # a b a -> a, or -> 0
    assert critical_pairs(th)


def test_rules_must_shorten_words():
    th = QuotientAlgebra("t")
    x = th.gen("x")
    with pytest.raises(NonDecreasingRule, match="does not decrease"):
        th.add_rule(("x",), x @ x)


def test_a_rule_whose_transpose_does_not_decrease_is_refused():
    """x -> y decreases (y ranked below x) but its transpose x^T -> y^T does not."""
    th = QuotientAlgebra("t", ranks=["y", "x^T", "x", "y^T"])
    th.gen("x"), th.gen("y")
    with pytest.raises(NonDecreasingRule, match="transposed: rule x\\^T -> y\\^T"):
        th.add_rule(("x",), th.gen("y"))
    assert th.rules == []                   # nothing half-added


# --------------------------------------------------------------------------- the N-free algebra
def _tiny(relations, ranks=("a", "b")):
    gens = [nfree.Gen(n, "s", "s") for n in ranks]
    return nfree.Algebra("tiny", gens, relations, list(ranks))


def test_nfree_refuses_a_stated_relation_that_does_not_decrease():
    with pytest.raises(NonDecreasingRule, match="relation grow"):
        _tiny([nfree.Relation("grow", "a", "b@b", "test")])


def test_nfree_refuses_a_relation_whose_transpose_does_not_decrease():
    # b a -> a b decreases (a < b); its transpose a^T b^T -> b^T a^T does not
    with pytest.raises(NonDecreasingRule, match="relation swap transposed"):
        _tiny([nfree.Relation("swap", "b@a", "a@b", "test")])


def test_every_stated_relation_and_its_transpose_decrease():
    alg = nfree.algebra()
    for r in nfree.RELATIONS:
        word, rhs, _ = alg.rule_of(r)          # raises if it or its transpose does not
        assert all(alg.order.less(w, word) for w in rhs), r.id


def test_chain_relations_complete_to_a_confluent_system():
    alg = nfree.algebra()
    for top in ("tree", "chain"):
        th = nfree.theory(alg, alg.relation_ids(top))
        assert th.complete and th.completion.reason == ""
        assert 20 <= th.size <= 80
        # independently of the completion: every overlap of the final rules resolves
        sysm = th.completion.system
        for r1 in sysm.rules:
            for r2 in sysm.rules:
                for _, s, _ in overlaps(r1, r2):
                    assert sysm.normal_form(s) == {}, (r1.lhs, r2.lhs)


@pytest.mark.parametrize("name", ["closed", "grasp", "swain", "closure"])
def test_matrix_theories_complete(name):
    alg = nfree.algebra(name)
    th = nfree.theory(alg, alg.relation_ids("chain"))
    assert th.complete and th.size >= 4


def test_completion_reports_when_it_stops_early():
    """a b a = b a b has no finite Groebner basis in this order: the completion must stop at its
    bound and say so (and a reduction to 0 with what it has is still a valid proof)."""
    order = Order(["a", "b"])
    rule = Rule(("b", "a", "b"), {("a", "b", "a"): 1}, {((), "braid", ()): 1}, "braid")
    c = complete([rule], order, max_rounds=3)
    assert not c.complete and "rounds" in c.reason
    assert c.rounds == 3


def test_ill_typed_products_and_sums_are_refused():
    alg = nfree.algebra()
    with pytest.raises(IllTyped, match="product of a j <- j and a s <- s"):
        alg.op("Dinv@psi")
    with pytest.raises(IllTyped, match="sum of"):
        alg.op("H + P")
    with pytest.raises(IllTyped, match="non-square"):
        alg.op("H + I")


def test_transpose_is_an_anti_automorphism():
    alg = nfree.algebra()
    x = alg.op("phi@P@H.T")
    assert x.T.poly == alg.op("H@P@phi.T").poly
    assert alg.op("(phi@P@H.T@Dinv).T").poly == alg.op("Dinv@H@P@phi.T").poly
    assert alg.op("P.T").poly == alg.op("P").poly


def test_transpose_is_an_anti_automorphism_per_n():
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


# --------------------------------------------------------------------------- the scaled identity
def test_scaled_identity_in_a_product_keeps_its_coefficient():
    """Regression: (-I)@X evaluated to X (and -I@X parses the same way in Python), so
    (-I)@Mcal = Mcal was reported proved, by the symbols and by the numbers."""
    from soagen.symbolic.evidence.catalogue import BY_ID
    from soagen.symbolic.evidence.verify import (
        check_numeric,
        check_symbolic,
        numeric_ns,
    )
    from soagen.symbolic.models.chain import symbolic_chain_namespace

    rec = BY_ID["I-4.11"]
    for lhs in ("(-I)@Mcal", "-I@Mcal", "Mcal@(-I)", "(I - 2*I)@Mcal"):
        assert not check_symbolic(((lhs, "Mcal"),), (), symbolic_chain_namespace(2)).ok, lhs
        assert not check_numeric(((lhs, "Mcal"),), (), numeric_ns(rec, 3)).ok, lhs
        assert check_symbolic(((lhs, "-Mcal"),), (), symbolic_chain_namespace(2)).ok, lhs
        assert check_numeric(((lhs, "-Mcal"),), (), numeric_ns(rec, 3)).ok, lhs
    assert check_symbolic((("2*I@Mcal", "Mcal + Mcal"),), (), symbolic_chain_namespace(2)).ok
    assert check_symbolic((("(I + I)@Mcal - Mcal", "Mcal@I"),), (), symbolic_chain_namespace(2)).ok
    assert check_symbolic((("Mcal + 0*I", "Mcal"),), (), symbolic_chain_namespace(2)).ok
    assert (I @ I).c == 1 and (2 * I @ (3 * I)).c == 6 and (-I).T.c == -1


def test_scaled_identity_in_the_dense_cross_check():
    from soagen.symbolic.kernel.statement import evaluate, parse_expr
    from soagen.symbolic.models.instances import topology_instance

    ns = topology_instance("chain", 3, seed=1)
    X = ns["Mcal"].dense()
    assert np.array_equal(evaluate(parse_expr("(-I)@Mcal"), ns).dense(), -X)       # scalings by -1, 2: exact
    assert np.array_equal(evaluate(parse_expr("Mcal@(2*I)"), ns).dense(), 2 * X)
    assert np.array_equal((ns["Mcal"] @ (-I)).dense(), -X)


# --------------------------------------------------------------------------- joints of any dimension
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
    from soagen.symbolic.evidence.catalogue import BY_ID
    from soagen.symbolic.evidence.verify import check_symbolic
    from soagen.symbolic.models.chain import chain_namespace

    N = 4
    lab = {k: ("1" if labels == "1" else "3" if labels == "3" else ("1" if k % 2 else "3")) for k in range(1, N + 1)}
    ns = chain_namespace(symbolic_chain(N, lab))
    for rid in ("I-4.11", "I-4.14", "I-4.16", "I-5.4", "I-a.48", "I-a.50", "I-FD4", "FW-L5"):
        rec = BY_ID[rid]
        assert check_symbolic(rec.checks, rec.let, ns).ok, rid
    rec = BY_ID["II-6.5a"]
    assert "do not conform" in check_symbolic(rec.checks, rec.let, ns).detail
