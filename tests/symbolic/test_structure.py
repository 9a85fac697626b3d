"""The block structure of the all-N algebra (soagen.symbolic.engines.nfree.STRUCTURE): where the tip and base
maps B, E live, and S S^T = Nc on trees.

* adversarial statements: B and E with phi, psi, Upsilon, the Jacobian, the shifts; block-diagonal
  commutations on trees.  Every true one is proved for every N (not "N = 1..k", not undecided), its
  certificate re-checked by the standalone checker and the statement checked on random numeric chains,
  trees and arms; every false one is refuted with an exact counterexample;
* every relation of the block structure holds per N in the block engine (N = 1..4); the exact and
  numeric instances are checked for every relation in test_blockwise.py and test_trees.py;
* every theory the structure step builds completes to a finite confluent system.
"""

import subprocess
import sys

import numpy as np
import pytest

from soagen.symbolic.engines import nfree
from soagen.symbolic.evidence.prove import decide
from soagen.symbolic.kernel.rewriting import overlaps
from soagen.symbolic.kernel.statement import evaluate, parse, parse_expr
from soagen.symbolic.models import instances
from soagen.symbolic.models.chain import symbolic_chain_namespace

MINV = "(I - H@Psi@L).T@Dinv@(I - H@Psi@L)"
# (statement, topology): true for every N on that topology
TRUE = [
    # the tip: nothing is outboard of it (Part I (3.7))
    ("phi.T@B = B", "chain"), ("psi.T@B = B", "chain"), ("B.T@phi = B.T", "chain"), ("B.T@psi = B.T", "chain"),
    ("Ephi.T@B = 0*B", "chain"), ("Epsi.T@B = 0*B", "chain"), ("Phi.T@B = 0*B", "chain"), ("Psi.T@B = 0*B", "chain"),
    ("B.T@Phi = 0*B.T", "chain"), ("K.T@B = 0*J.T", "chain"), ("phi.T@P@B = P@B", "chain"),
    ("psi_t.T@U@B = 0*B", "chain"), ("psi.T@U@B = U@B", "chain"), ("B.T@M@B = B.T@P@B", "chain"),
    ("B.T@psi@M@psi.T@B = B.T@P@B", "chain"),
    # Upsilon at the tip: E_psi^T Upsilon B = 0 and Part II (6.9)'s J M^-1 J^T = B^T Upsilon B
    ("Epsi.T@U@B = 0*B", "chain"), (f"J@{MINV}@J.T = B.T@U@B", "chain"),
    ("B.T@psi.T@H.T@Dinv@H@psi@B = B.T@U@B", "chain"),
    # the base: nothing is inboard of it (Part I (3.8))
    ("phi@E = E", "chain"), ("psi@E = E", "chain"), ("E.T@phi.T = E.T", "chain"), ("Ephi@E = 0*E", "chain"),
    ("Epsi@E = 0*E", "chain"), ("Phi@E = 0*E", "chain"), ("phi_t@E = 0*E", "chain"), ("psi@P@E = P@E", "chain"),
    # the base-to-tip maps
    ("B.T@phi@E = B.T@E", "chain"), ("B.T@psi@E = B.T@E", "chain"),
    # on every tree
    ("phi.T@B = B", "tree"), ("psi@E = E", "tree"), ("Epsi.T@U@B = 0*B", "tree"), ("B.T@psi@E = B.T@E", "tree"),
    ("S@S.T@Dphi = Dphi@S@S.T", "tree"), ("S@S.T@P = P@S@S.T", "tree"), ("S@S.T@tau = tau@S@S.T", "tree"),
    ("S@S.T@U = U@S@S.T", "tree"), ("S@S.T@M = M@S@S.T", "tree"), ("S@S.T@R = R@S@S.T", "tree"),
    ("S@S.T@H.T@Dinv@H = H.T@Dinv@H@S@S.T", "tree"), ("E.T@S@S.T@P@E = E.T@P@S@S.T@E", "tree"),
    ("S@Dphi@P@Dphi.T@S.T@S@S.T = S@S.T@S@Dphi@P@Dphi.T@S.T", "tree"),
    # true under big equal terms
    ("phi.T@B + 1000000000*B = 1000000001*B", "chain"),
]
# (statement, topology): false for some N (the smallest is found exactly)
FALSE = [
    ("B.T@E = 0*Ominv", "chain"),                     # N = 1: the tip link is the base link
    ("phi@B = B", "chain"), ("psi@B = B", "chain"), ("phi.T@E = E", "chain"), ("S@B = 0*B", "chain"),
    ("S.T@E = 0*E", "chain"), ("B.T@U@B = B.T@H.T@Dinv@H@B", "chain"), (f"J@{MINV}@J.T = B.T@P@B", "chain"),
    ("B.T@phi.T@phi@B = B.T@B", "chain"), ("B.T@psi@M@psi.T@B = B.T@M@B + B.T@B", "chain"),
    ("psi.T@U@E = U@E", "chain"), ("phi@P@E = P@phi@E + E", "chain"), ("B.T@U@B = B.T@psi.T@U@psi@B", "chain"),
    ("e1.T@eN = 0*phi10@phiN", "chain"), ("phi@B + 1000000000*B = 1000000001*B", "chain"),
    ("S@S.T@Dphi = Dphi", "tree"), ("S@S.T@P = P", "tree"), ("S.T@S@Dphi = Dphi@S.T@S", "tree"),
    ("S@S.T@S = S", "tree"), ("Epsi.T@U@Epsi = U - H.T@Dinv@H", "tree"), ("S@S.T@Ephi = Ephi@S@S.T", "tree"),
    ("S@S.T@Ephi = Ephi@S@S.T", "chain"), ("S@S.T@S.T@S = S.T@S@S@S.T", "tree"),
]


@pytest.mark.parametrize("stmt,topology", TRUE, ids=[f"{s} ({t})" for s, t in TRUE])
def test_a_true_statement_is_proved_for_every_n(stmt, topology, tmp_path):
    cert = tmp_path / "c.txt"
    v = decide(stmt, topology=topology, certificate_path=cert)
    assert v.result == "proved-all-n", (stmt, v.result, v.detail)
    if topology == "tree":
        assert v.topology == "tree"
    lhs, rhs = parse(stmt)
    kinds = ("chain",) if v.topology == "chain" else ("chain", "tree", "arms")
    for kind in kinds:                          # the numbers agree, on instances built from the definitions
        for n in (1, 4, 7) if kind == "chain" else (4, 7):
            ns = instances.topology_instance(kind, n, seed=n + 3)
            d = (evaluate(lhs, ns) - evaluate(rhs, ns)).dense()
            assert np.abs(d).max() < 1e-7 * max(1.0, np.abs(evaluate(lhs, ns).dense()).max()), (stmt, kind, n)


@pytest.mark.parametrize("stmt,topology", FALSE, ids=[f"{s} ({t})" for s, t in FALSE])
def test_a_false_statement_is_refuted(stmt, topology):
    v = decide(stmt, topology=topology)
    assert v.result == "refuted", (stmt, v.result, v.detail)
    assert v.counterexample["N"] >= 1 and "nonzero modulo" in v.counterexample["exact"]


def test_the_tip_and_the_base_coincide_only_for_one_link():
    v = decide("B.T@E = 0*Ominv")
    assert v.counterexample["N"] == 1          # false at N = 1 only: B^T E = 0 holds for N >= 2
    for n in (2, 5):
        ns = instances.topology_instance("chain", n, seed=1)
        assert not np.any((ns["B"].T @ ns["E"]).dense())


def test_a_certificate_with_the_block_structure_checks_alone(tmp_path):
    cert = tmp_path / "tip.txt"
    assert decide(f"J@{MINV}@J.T = B.T@U@B", certificate_path=cert).result == "proved-all-n"
    text = cert.read_text()
    assert "at-U-1" in text and "tip-leaf" in text
    r = subprocess.run([sys.executable, "-m", "soagen.symbolic.evidence.checker", str(cert), "--axioms", "docs/certificates"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    bad = tmp_path / "bad.txt"                  # the same terms for a false claim are refused
    bad.write_text(text.replace("= B.T@U@B", "= B.T@P@B"))
    r = subprocess.run([sys.executable, "-m", "soagen.symbolic.evidence.checker", str(bad), "--axioms", "docs/certificates"],
                       capture_output=True, text=True)
    assert r.returncode == 1


@pytest.mark.parametrize("N", [1, 2, 3, 4])
def test_every_structure_relation_holds_in_the_block_engine(N):
    ns = symbolic_chain_namespace(N)
    for r in nfree.STRUCTURE:
        if "chain" in r.topologies:
            d = evaluate(parse_expr(r.lhs), ns) - evaluate(parse_expr(r.rhs), ns)
            assert not d.nonzero_blocks(), (r.id, N)


def test_a_tree_has_what_a_chain_has_not():
    """S S^T is a child count, not a projection, on a branching tree; S^T S couples siblings."""
    ns = instances.topology_instance("tree", 6, seed=3, exact_arithmetic=True)
    nc = (ns["S"] @ ns["S"].T).dense()
    assert int(nc.max()) >= 2
    sts = (ns["S"].T @ ns["S"]).dense()
    assert any(sts[6 * i:6 * i + 6, 6 * j:6 * j + 6].any() for i in range(6) for j in range(6) if i != j)


SIDES = [{"B"}, {"E"}, {"B", "E"}, set()]
MODULES = [set(), {"U"}, {"R"}, {"chi"}, {"Mdot"}, {"Bcor_c"}, {"Bf"}]


def _theories(modules):
    alg = nfree.algebra()
    for kind in ("ports", "children"):
        for mods in modules:
            for sides in SIDES:
                for top in ("tree", "chain") if kind == "ports" else ("tree",):
                    syms = mods | sides | ({"S"} if kind == "children" else {"phi", "psi"})
                    ids = alg.relation_ids(top, syms)
                    more = nfree.structure_ids(alg, top, ids, syms, kind)
                    if more is not None:
                        base = nfree.block_sparse_ids(alg, ids) if kind == "children" else ids
                        yield kind, top, sorted(syms), nfree.theory(alg, base + more)


@pytest.mark.parametrize("modules", [MODULES[:1], pytest.param(MODULES[1:], marks=pytest.mark.slow)])
def test_every_structure_theory_completes(modules):
    for kind, top, syms, th in _theories(modules):
        assert th.complete, (kind, top, syms, th.completion.reason)
        assert th.size <= 250, (kind, top, syms, th.size)
        sysm = th.completion.system
        for r1 in sysm.rules:                     # independently of the completion: every overlap resolves
            for r2 in sysm.rules:
                for _, s, _ in overlaps(r1, r2):
                    assert sysm.normal_form(s) == {}, (kind, top, syms, r1.lhs, r2.lhs)


def test_the_structure_is_left_out_where_it_has_no_finite_completion():
    alg = nfree.algebra()
    ids = alg.relation_ids("chain", {"U"})
    assert nfree.structure_ids(alg, "chain", ids, {"B", "E", "U"}, "ports") is None
    assert nfree.structure_ids(alg, "chain", ids, {"B", "U"}, "ports") is not None
    assert nfree.structure_ids(alg, "tree", alg.relation_ids("tree", {"phi"}), {"S", "phi"}, "children") is None


def test_no_catalogue_theory_uses_the_block_structure():
    """It enters only `soagen prove`'s own steps, so the catalogue's certificates do not change."""
    alg = nfree.algebra()
    for top in ("tree", "chain"):
        assert not set(alg.relation_ids(top, {"B", "E", "S", "U", "R"})) & set(nfree.STRUCTURE_IDS)
