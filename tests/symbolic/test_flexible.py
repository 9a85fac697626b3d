"""Flexible links (framework paper, Section 4) in the all-N algebra: the numeric instances of B, C,
h are the paper's definitions, the records of Section 4 are proved for every N (B C = E_phi block
by block, the rest in the N-free algebra), and the printed misprints are refuted by their types."""

from pathlib import Path

import numpy as np
import pytest

from soagen.symbolic.engines.blockwise import World
from soagen.symbolic.engines.indexed import Context, ix
from soagen.symbolic.evidence import checker
from soagen.symbolic.evidence.block_records import prove_reading
from soagen.symbolic.evidence.catalogue import BY_ID
from soagen.symbolic.evidence.prove import decide
from soagen.symbolic.evidence.verify import run_record
from soagen.symbolic.kernel import exact
from soagen.symbolic.models import instances, nodes
from soagen.symbolic.models.chain import random_chain_ops, symbolic_chain

CERTS = Path(__file__).resolve().parents[2] / "docs" / "certificates"


def _skew_vector(block):
    """l from the upper right block l~ of [[I, l~], [0, I]]."""
    return np.array([block[2, 1], block[0, 2], block[1, 0]], dtype=np.int64)


@pytest.mark.parametrize("kind", ["chain", "tree", "arms"])
@pytest.mark.parametrize("n", [1, 4, 7])
def test_instances_are_the_papers_definitions(kind, n):
    """On exact instances, C_{p,c} holds phi(Q_p(j), O_c) computed from positions, in the rows of one
    node j (node 1 on a chain, (4.2)), B C = E_phi exactly, and h = [I, 0] per link (node n_k pinned)."""
    ns = instances.topology_instance(kind, n, seed=5, exact_arithmetic=True)
    Bf, Cf, h, Dphi, S = (ns[x].a for x in ("Bf", "Cf", "h", "Dphi", "S"))
    counts = nodes.node_counts(n)
    f0 = np.concatenate([[0], np.cumsum([6 * c for c in counts])])
    assert exact.is_zero(Bf @ Cf - S @ Dphi)                                      # B C = E_phi
    for c in range(1, n + 1):
        p = next((q for q in range(c + 1, n + 1) if S[6 * (q - 1), 6 * (c - 1)]), None)
        col = Cf[:, 6 * (c - 1):6 * c]
        if p is None:                                                            # a link on the base
            assert exact.is_zero(col)
            continue
        l_pc = _skew_vector(Dphi[6 * (c - 1):6 * (c - 1) + 3, 6 * (c - 1) + 3:6 * c])    # O_c - O_p
        hits = [j for j in range(counts[p - 1]) if not exact.is_zero(col[f0[p - 1] + 6 * j:f0[p - 1] + 6 * j + 6])]
        assert len(hits) == 1 and (kind != "chain" or hits == [0])
        j = hits[0]
        r = _skew_vector(Bf[6 * (p - 1):6 * (p - 1) + 3, f0[p - 1] + 6 * j + 3:f0[p - 1] + 6 * j + 6])   # Q_p(j) - O_p
        want = np.eye(6, dtype=np.int64)
        want[:3, 3:] = nodes._skew(l_pc - r)                                     # phi(Q_p(j), O_c)
        assert exact.is_zero(col[f0[p - 1] + 6 * j:f0[p - 1] + 6 * j + 6] - exact.zp(want))
    u0 = 0
    for k, c in enumerate(counts, start=1):                                      # h_k = [I, 0]
        blk = h[u0:u0 + 6 * (c - 1), f0[k - 1]:f0[k]]
        assert exact.is_zero(blk - exact.zp(np.eye(6 * (c - 1), 6 * c)))
        u0 += 6 * (c - 1)


def test_per_n_instances_have_BC_equal_phi():
    o = random_chain_ops(5, seed=3)
    for k in range(2, 6):
        assert np.allclose(o.pr.flex["Bf"][k] @ o.pr.flex["Cf"][k], o.pr.phi1[k - 1], atol=1e-12)
    s = symbolic_chain(3)
    assert (s.Bf @ s.Cf - s.Ephi).is_zero()               # the per-N rule B_k C_k -> phi(k, k-1)
    assert not (s.Cf.T @ s.Bf.T - s.Ephi).is_zero()


def test_the_lower_pattern_gives_the_blocks_of_C():
    """Block k of C^* h^* u is C^*_{k+1} h^*_{k+1} u_{k+1} below the base and 0 at the base (4.1)."""
    w = World()
    poly, _ = w.op_poly("Cf.T@h.T@u")
    k = Context([("1", "k"), ("k", "N-1")])
    assert w.expand(poly, ix("k"), ".", k) == {("Cf(k+1)^T", "h(k+1)^T", "u(k+1)"): 1}
    assert w.expand(poly, ix("N"), ".", Context()) == {}
    poly, _ = w.op_poly("Bf@Cf")
    assert w.expand(poly, ix("k"), ix("k-1"), Context([("2", "k"), ("k", "N")])) == {("Bf(k)", "Cf(k)"): 1}
    assert w.expand(poly, ix(1), ix(0), Context()) == {}


@pytest.mark.parametrize("loop", ["loop-FW-4.1", "loop-FW-4.3"])
def test_the_readings_of_the_velocity_sweeps(loop):
    cases = prove_reading(loop)
    assert cases and all(c.terms for c in cases)


def test_section_4_records():
    out = {rid: run_record(BY_ID[rid], nmax=3, numeric_n=(1, 4), certificates=True)
           for rid in ("FW-4.BC", "FW-4.BCphi", "FW-4.BI", "FW-4.1", "FW-4.3", "FW-4.Mf")}
    assert {o.result for o in out.values()} <= {"proved", "misprint"}, {k: o.message for k, o in out.items()}
    assert out["FW-4.BC"].scope == "all N (chains)" and "BC(k)" in out["FW-4.BC"].certificate
    for rid in ("FW-4.BCphi", "FW-4.BI", "FW-4.1", "FW-4.3", "FW-4.Mf"):
        assert out[rid].scope == "all N (trees)", rid
        assert "flex-BC" in out[rid].certificate or rid == "FW-4.1", rid
    assert out["FW-4.1"].result == "misprint" and out["FW-4.1"].counterexample.startswith("N=2: dimensions")
    assert out["FW-4.Mf"].result == "misprint" and out["FW-4.Mf"].counterexample.startswith("ill-typed for every N")
    blocks = checker.Blocks((CERTS / "axioms-blocks.txt").read_text())
    axioms = checker.Axioms((CERTS / "axioms-chain.txt").read_text())
    for rid, o in out.items():
        assert checker.check(o.certificate, axioms, blocks)["claims"] >= 1, rid
        assert o.certificate == (CERTS / f"{rid}.txt").read_text(), rid


def test_exact_refutation_and_proof_with_the_nodal_operators():
    v = decide("Bf@Cf@phi = phi")
    assert v.result == "refuted" and v.counterexample["N"] == 1
    assert decide("Bf@(I + Cf@phi@Bf) = phi@Bf", topology="tree").result == "proved-all-n"
    assert decide("Cf@Bf = Ephi").result == "ill-typed"


def test_the_checker_refuses_B_C_at_the_tip(tmp_path):
    """The block relation B_k C_k = phi(k, k-1) holds for k >= 2: a case that starts at the tip is refused."""
    text = (CERTS / "FW-4.BC.txt").read_text().replace("case -1 2..N", "case -1 1..N")
    blocks = checker.Blocks((CERTS / "axioms-blocks.txt").read_text())
    axioms = checker.Axioms((CERTS / "axioms-chain.txt").read_text())
    with pytest.raises(checker.CertificateError):
        checker.check(text, axioms, blocks)
