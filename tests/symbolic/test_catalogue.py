"""Every catalogue record: the valid form proved for every N (or, for statements with
block indices, per N), misprints refuted and classified, certificates for all-N proofs;
what the issue requires to be proved for all N is."""

import pytest

from soagen.symbolic.evidence.catalogue import (
    BY_ID,
    CATALOGUE,
    COVERAGE,
    IdentityRecord,
)
from soagen.symbolic.evidence.verify import check_numeric, run_record, theory_namespace

IDS = [r.id for r in CATALOGUE]

# issue 13, item 7: the derivation of docs/derivatives.md, proved for every N (D-19 for all sizes)
DERIVATIVES = {"D-a.44", "D-corA.1", "D-merge", "D-11", "D-13", "D-15", "D-skew", "D-2C", "D-19"}
MUST_BE_ALL_N = (
    {f"I-a.{k}" for k in (1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 22, 23, 24, 25, 26, 27, 28, 32, 33, 34,
                          35, 36, 37, 38, 39, 40, 41, 42, 43, 45, 46, 47, 48, 49, 50, 51)}
    | {"I-a.45-gen", "I-corA.1", "I-a.47-proof", "I-4.11", "I-4.14", "I-4.16", "I-5.4", "I-FD1", "I-FD2", "I-FD3",
       "I-FD4", "I-FD4-rec", "II-6.7", "FW-L1", "FW-L2", "FW-L3", "FW-L4", "FW-L5"}
    | DERIVATIVES)
TREES = {"FW-L1", "FW-L2", "FW-L3", "FW-L4", "FW-2.4", "FW-2.5", "FW-3.1", "FW-3.2", "FW-3.10", "FW-3.12"}
BLOCK_LEVEL = {"I-4.4", "I-4.23", "I-a.20", "I-a.21", "I-a.30", "I-a.31", "I-a.45-proof", "II-6.9", "II-6.10", "FW-A.3"}


@pytest.mark.parametrize("rid", IDS)
def test_identity(rid, outcomes):
    rec, out = BY_ID[rid], outcomes[rid]
    assert out.result == ("misprint" if rec.misprint else "proved"), (out.message, out.counterexample)
    assert out.scope
    if rec.misprint:
        assert out.counterexample
        assert rec.correction and rec.corrected
        assert rec.misprint_kind in ("paper", "ocr") and rec.evidence, rid
    if out.all_n:
        assert out.certificate.startswith("soagen certificate 1"), rid


def test_what_the_issue_requires_is_proved_for_all_n(outcomes):
    assert {rid for rid in MUST_BE_ALL_N if not outcomes[rid].all_n} == set()
    assert {rid for rid in TREES if outcomes[rid].topology != "tree"} == set()
    assert outcomes["FW-L5"].topology == "chain"          # needs the chain-only relation (A.3)
    assert {rid for rid in DERIVATIVES - {"D-19"} if outcomes[rid].topology != "tree"} == set()
    # issue 19: the statements with block indices too, by induction over the index (chains)
    assert {rid for rid, o in outcomes.items() if not o.all_n} == set()
    assert all(outcomes[rid].scope == "all N (chains)" for rid in BLOCK_LEVEL)
    assert all("index-lemma" in outcomes[rid].certificate or " block " in outcomes[rid].certificate
               or "by blocks" in outcomes[rid].certificate for rid in BLOCK_LEVEL)
    # issue 19: a conditional record carries its condition
    assert outcomes["D-2C"].scope == "all N (trees), 1-dof joints only"
    assert "\ncondition one-dof : Psidot -> Sdot" in outcomes["D-2C"].certificate


def test_misprints_split_paper_and_ocr():
    kinds = {r.id: r.misprint_kind for r in CATALOGUE if r.misprint}
    assert {k for k, v in kinds.items() if v == "ocr"} == {"I-4.4", "I-4.20", "I-a.50-proof", "II-b.4", "II-b.14",
                                                           "SM-B5"}
    assert kinds["I-abstract"] == "paper"
    assert all(not r.misprint_kind for r in CATALOGUE if not r.misprint)


@pytest.mark.slow
@pytest.mark.parametrize("rec", [r for r in CATALOGUE if r.theory == "chain"], ids=lambda r: r.id)
def test_identity_n1_to_7(rec):
    out = run_record(rec, nmax=7)
    assert out.result == ("misprint" if rec.misprint else "proved"), (out.message, out.counterexample)


def test_records_are_well_formed():
    seeds = {"001_e87345439e27e1df.txt", "000_1955e51890d74a28.txt",
             "003_c289bb0fa373b503.txt", "002_5314617134f00eeb.txt", "docs/derivatives.md"}
    for r in CATALOGUE:
        assert r.source in seeds and r.printed and r.checks and r.where
        assert bool(r.misprint) == bool(r.corrected), r.id
        assert not r.operator_corrected or r.misprint, r.id
        assert bool(r.given) <= bool(r.assume), r.id


def test_coverage_of_the_seeds():
    """Every numbered operator statement has a record or a stated reason; the issue's list is in."""
    ids = set(IDS)
    for paper, eqs, what in COVERAGE:
        assert eqs and what, (paper, eqs)
        if isinstance(what, tuple):
            assert set(what) <= ids, (paper, eqs, set(what) - ids)
    required = {"I-3.12", "I-3.13", "I-3.17", "I-3.18", "I-3.22", "I-4.2", "I-4.3", "I-4.23", "I-5.7", "I-a.20",
                "I-a.30", "II-5.2", "II-5.3", "II-5.4", "FW-2.17", "FW-3.11", "FW-3.11-alt", "FW-2.5", "SM-B1"}
    assert required <= ids
    covered = {i for _, _, w in COVERAGE if isinstance(w, tuple) for i in w}
    assert ids <= covered, ids - covered


def test_swain_morris_B9_holds_when_Xb_is_square():
    """The printed (B9) is right exactly when X_b X_b^-1 = I: a square X_b (x = b = 6)."""
    rec = BY_ID["SM-B9"]
    tall = check_numeric(rec.checks, rec.let, theory_namespace("swain", seed=5))
    square = check_numeric(rec.checks, rec.let,
                           theory_namespace("swain", seed=5, sizes={"x": 6, "y": 6}))
    assert tall.residual > 1e-3
    assert square.residual < 1e-9


def _fake(checks, misprint=False, corrected=(), **kw):
    return IdentityRecord(id="fake", source=CATALOGUE[0].source, where="test", printed="test", checks=checks, misprint=misprint,
                    corrected=corrected, correction="x" if corrected else "", **kw)


def test_verifier_fails_a_false_identity_not_marked_as_misprint():
    out = run_record(_fake((("(I - H@Psi@L).T@Dinv@(I - H@Psi@L)@Mcal", "I"), ("Psi", "Phi"))), nmax=3)
    assert out.result == "FAILED" and "not proved at N=" in out.message and not out.all_n


def test_verifier_fails_a_misprint_whose_printed_form_holds():
    out = run_record(_fake((("Psi", "psi@S"),), misprint=True, corrected=(("Psi", "psi@S"),)), nmax=2)
    assert out.result == "FAILED" and "printed form holds for every N" in out.message


def test_verifier_fails_a_wrong_correction():
    out = run_record(_fake((("Psi", "phi@S"),), misprint=True, corrected=(("Psi", "S@psi"),)), nmax=3)
    assert out.result == "FAILED"


def test_verifier_fails_when_the_engines_disagree(monkeypatch):
    """If the all-N proof and the block engine disagreed (an unsound relation), the record fails."""
    from soagen.symbolic.evidence import verify as V

    monkeypatch.setattr(V, "check_symbolic", lambda checks, let, ns: V.CheckResult(False, "simulated"))
    out = V.run_record(BY_ID["I-a.16"], nmax=2)
    assert out.result == "FAILED" and "disagree" in out.message


def test_symbolic_refutation_must_be_confirmed_numerically(monkeypatch):
    """If the rewriting system lacked a relation, a true identity would get different normal
    forms; the runner must then refuse to call it refuted, because numbers satisfy it."""
    from soagen.symbolic.evidence import verify as V

    rec = _fake((("B.T@S", "0*B.T"),), misprint=True, corrected=(("Psi", "psi@S"),))  # true, not all-N provable
    real = V.check_symbolic
    monkeypatch.setattr(V, "check_symbolic",
                        lambda checks, let, ns: V.CheckResult(False, "simulated") if checks == rec.checks
                        else real(checks, let, ns))
    out = V.run_record(rec, nmax=2)
    assert out.result == "FAILED" and "numeric instance satisfies" in out.message


def test_numeric_check_respects_nmin():
    """A record with nmin = 2 is not evaluated numerically at N = 1 (where it means nothing)."""
    out = run_record(BY_ID["I-4.4"], nmax=3, numeric_n=(1, 3))
    assert out.result == "misprint" and "N=1" not in out.numeric


def _expressions(rec):
    pairs = rec.checks + rec.corrected + rec.operator_form + rec.operator_corrected + rec.code
    return [x for c in pairs for x in c] + [e for _, e in rec.let + (rec.operator_let or ())]


def test_every_catalogue_expression_is_read_by_the_statement_parser():
    """No eval: each expression parses (calls allowed), and its canonical text parses to the same."""
    from soagen.symbolic.kernel.statement import catalogue_expr, unparse

    n = 0
    for rec in CATALOGUE:
        for e in _expressions(rec):
            text = unparse(catalogue_expr(e))
            assert unparse(catalogue_expr(text)) == text, (rec.id, e)
            n += 1
    assert n > 600


def test_a_typed_statement_may_not_call_or_index():
    from soagen.errors import SoagenError
    from soagen.symbolic.kernel.statement import catalogue_expr, parse

    for text in ("rec_f(y) = y", "fd1(T, f0)[0] = T", "riccati().P = P", "block(L,1,1) = L"):
        with pytest.raises(SoagenError, match="syntax error"):
            parse(text)
    assert catalogue_expr("fd1(T, f0)[0]")[0] == "index"
    assert catalogue_expr("sum_r(printed=True, left='chi')")[3] == (("printed", ("bool", True)), ("left", ("str", "chi")))


def test_records_take_keywords_and_statuses_are_enums(outcomes):
    from soagen.symbolic.kernel.status import MisprintKind, RecordResult

    with pytest.raises(TypeError):
        IdentityRecord("X", "src", "where", "printed", (("I", "I"),))
    assert {type(o.result) for o in outcomes.values()} == {RecordResult}
    assert all(isinstance(r.misprint_kind, MisprintKind) for r in CATALOGUE if r.misprint)
