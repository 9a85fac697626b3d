"""The block level (soagen.symbolic.engines.indexed, blockwise, block_records) and exact arithmetic
(soagen.symbolic.kernel.exact): what follows from index bounds, the block of an operator product,
proofs that must fail, and integer instances that satisfy every relation exactly."""

import numpy as np
import pytest

from soagen.symbolic.engines import loops, nfree
from soagen.symbolic.engines.blockwise import (
    BlockProofError,
    Lemma,
    World,
    prove_by_blocks,
    prove_lemma,
)
from soagen.symbolic.engines.indexed import SINGLE, BlockStatementError, Context, Ix, ix
from soagen.symbolic.evidence import block_records
from soagen.symbolic.kernel import exact
from soagen.symbolic.kernel.statement import evaluate, parse_expr
from soagen.symbolic.models import instances


# --------------------------------------------------------------------------- bounds between indices
def test_context_decides_what_follows_from_bounds():
    ctx = Context([("1", "m"), ("m+1", "k"), ("k", "N")])
    assert ctx.le("m", "k-1") and ctx.le("2", "k") and ctx.le("m+1", "N")
    assert ctx.decide_le("k", "m") is False and ctx.decide_le("k", "N-1") is None
    assert ctx.decide_eq("k", "m") is False and ctx.decide_eq("N", "N") is True
    assert not Context([("k", "1"), ("2", "k")]).consistent
    assert Context().le("1", "N") and not Context().le("2", "N")          # only 1 <= N is known


def test_index_text_round_trip():
    for t in ("k", "k+1", "k-2", "N+1", "0", "7"):
        assert str(ix(t)) == t
    assert ix("k+1").subst({"k": ix("N-1")}) == Ix("N", 0)


# --------------------------------------------------------------------------- blocks of operators
def _block(world, text, row, col, ctx, given=()):
    poly, _ = world.op_poly(text, given)
    return world.letters.poly_text(world.expand(world.primitive(poly), row, col, ctx))


def test_block_k_of_an_operator_product_over_the_shift_structure():
    w = World(["loop-4.20"])
    g = ("zf : s <- 1",)
    inner = Context([("2", "k"), ("k", "N")])
    assert _block(w, "Ephi@zf", Ix("k"), SINGLE, inner, g) == "phi(k,k-1) zf(k-1)"
    assert _block(w, "Ephi@zf", Ix(None, 1), SINGLE, Context(), g) == "0"            # nothing enters the tip
    assert _block(w, "K@Tp", Ix("k"), SINGLE, inner) == "phi(k,k-1) P(k-1) H(k-1)^T Dinv(k-1) Tp(k-1)"
    assert _block(w, "E@g", Ix("N"), SINGLE, Context()) == "phi(N+1,N)^T g"          # gravity enters block N
    assert _block(w, "S.T@B", Ix("k"), SINGLE, Context([("1", "k"), ("k", "N-1")])) == "0"   # nothing above the tip
    assert _block(w, "B.T@psi.T@a", SINGLE, SINGLE, Context()) == "phi(1,0)^T [psi^T*a](1)"
    with pytest.raises(BlockStatementError, match="does not decide"):
        _block(w, "Ephi@zf", Ix("k"), SINGLE, Context([("1", "k"), ("k", "N")]), g)


def test_a_reading_that_does_not_follow_from_its_loop_is_not_proved():
    w = World(["loop-4.13"])
    with pytest.raises(BlockProofError, match="not proved"):
        prove_by_blocks(w, "Ephi@z", "z - K@Tp", ("z : s <- 1",))      # the loop (4.13) is fed T, not T'
    with pytest.raises(BlockProofError, match="not proved"):
        prove_by_blocks(World(), "Ephi@S.T@S", "Ephi@S.T")                # false at the base block


def test_a_wrong_telescoping_lemma_is_not_proved():
    body = "psi(k,i+1)*phi(i+1,m)-psi(k,i)*phi(i,m)"
    S = block_records.S
    wrong = Lemma("tel", ("k", "m", "n"), block_records.WHERE_KMN, S("i", "m", "n-1", body), "psi(k,n) phi(n,m)",
                  induction=("n", "up", "m"), base=(f"sum-empty[{S('i', 'm', 'm-1', body)}]",),
                  step=(f"sum-last[{S('i', 'm', 'n-1', body)}]",))
    with pytest.raises(BlockProofError):
        prove_lemma(World(), wrong)
    right = Lemma("tel", ("k", "m", "n"), block_records.WHERE_KMN, S("i", "m", "n-1", body),
                  "psi(k,n) phi(n,m) - psi(k,m)", induction=("n", "up", "m"),
                  base=(f"sum-empty[{S('i', 'm', 'm-1', body)}]",), step=(f"sum-last[{S('i', 'm', 'n-1', body)}]",))
    assert prove_lemma(World(), right).step_terms


def test_a_relation_outside_its_range_is_refused():
    w = World()
    with pytest.raises(BlockProofError, match="does not follow"):
        w.instance("psi-step(k)", Context([("0", "k"), ("k", "N")]))      # psi(1,0) is psi-tip, not psi-step
    with pytest.raises(BlockProofError, match="may be empty"):
        w.instance("sum-last[sum(i=m..n){L(i)}]", Context([("1", "m"), ("1", "n")]))


@pytest.mark.parametrize("loop_id", list(loops.BY_ID))
def test_every_reading_is_proved_block_by_block(loop_id):
    cases = block_records.prove_reading(loop_id)
    lo, hi = cases[0].lo, cases[-1].hi
    assert lo == Ix(None, 1) and hi == Ix("N")                          # every row, first to last
    assert all(a.hi + 1 == b.lo for a, b in zip(cases, cases[1:]))


def test_the_pinned_hypotheses_are_the_catalogue_s():
    from soagen.symbolic.evidence.catalogue import CATALOGUE

    used = {a for r in CATALOGUE for a in r.assume}
    assert used <= set(loops.HYPOTHESES.values()) | set(loops.CONDITIONS.values())
    assert {h for h in loops.HYPOTHESES.values()} - used == {loops.HYPOTHESES["loop-4.22b-alpha"],
                                                             loops.HYPOTHESES["loop-A.5"]}


# --------------------------------------------------------------------------- exact arithmetic
def test_arithmetic_modulo_the_prime():
    a = exact.zp(np.array([[2, 3], [1, 4]]))
    ai = exact.inv(a)
    assert exact.is_zero(a @ ai - np.eye(2, dtype=np.int64))
    assert exact.is_zero((a / 2) * 2 - a)
    with pytest.raises(exact.NotExact):
        a + np.array([[0.5, 0], [0, 0]])
    with pytest.raises(ZeroDivisionError):
        exact.inv(exact.zp(np.array([[1, 2], [2, 4]])))


@pytest.mark.parametrize("kind,n", [("chain", 1), ("chain", 5), ("tree", 6), ("arms", 5)])
def test_integer_instances_satisfy_every_relation_exactly(kind, n):
    """Modulo the prime, every relation holds exactly where it is said to (no tolerance), and the
    chain-only ones fail on a branching tree."""
    ns = instances.topology_instance(kind, n, seed=7, exact_arithmetic=True)
    topo = "chain" if kind in ("chain", "arms") else "tree"
    for r in nfree.RELATIONS:
        d = evaluate(parse_expr(r.lhs), ns) - evaluate(parse_expr(r.rhs), ns)
        if topo in r.topologies:
            assert exact.is_zero(d.dense()), (r.id, kind, n)
        elif n > 2:
            assert not exact.is_zero(d.dense()), (r.id, kind, n)
