"""Every catalogue record: proved for N = 1..4 (default run), larger N with --runslow;
misprints refuted with a counterexample and their corrected forms proved."""

import pytest

from soagen.symbolic.catalogue import CATALOGUE, Identity
from soagen.symbolic.verify import check_numeric, run_record, theory_namespace

IDS = [r.id for r in CATALOGUE]


@pytest.mark.parametrize("rec", CATALOGUE, ids=IDS)
def test_identity_n1_to_4(rec):
    out = run_record(rec, nmax=4)
    assert out.result == ("misprint" if rec.misprint else "proved"), (out.message, out.counterexample)
    if rec.misprint:
        assert out.counterexample
        assert rec.correction and rec.corrected


@pytest.mark.slow
@pytest.mark.parametrize("rec", [r for r in CATALOGUE if r.theory == "chain"], ids=lambda r: r.id)
def test_identity_n1_to_7(rec):
    out = run_record(rec, nmax=7)
    assert out.result == ("misprint" if rec.misprint else "proved"), (out.message, out.counterexample)


def test_records_are_well_formed():
    seeds = {"001_e87345439e27e1df.txt", "000_1955e51890d74a28.txt",
             "003_c289bb0fa373b503.txt", "002_5314617134f00eeb.txt"}
    for r in CATALOGUE:
        assert r.source in seeds and r.printed and r.checks and r.where
        assert bool(r.misprint) == bool(r.corrected), r.id


def test_catalogue_covers_the_issue_list():
    ids = set(IDS)
    required = {"I-3.20", "I-4.11", "I-4.14", "I-4.16", "I-5.3", "I-5.4", "I-a.45", "I-corA.1",
                "I-a.46", "I-a.47", "I-a.48", "I-a.50", "I-a.51", "I-FD2", "I-FD3", "I-FD4",
                "II-3.5a", "II-3.5b", "II-6.7", "II-6.12", "II-6.15", "II-6.16", "II-6.17", "II-b.7",
                "II-b.8", "FW-L1", "FW-L2", "FW-L3", "FW-L4", "FW-L5", "FW-3.10", "FW-3.13",
                "SM-B7", "SM-B8", "SM-B9", "SM-B10", "SM-B14", "SM-MIL"}
    assert required <= ids
    appendix = {f"I-a.{k}" for k in (6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 22, 23, 24, 25, 26,
                                     27, 28, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43)}
    assert appendix <= ids


def test_known_misprints_of_the_guide_are_all_found():
    mis = {r.id for r in CATALOGUE if r.misprint}
    assert {"I-abstract", "I-4.4", "I-4.20", "I-a.50-proof", "I-FD4-proof", "II-6.9", "II-6.5a",
            "II-6.11g", "II-6.18e", "II-b.4a", "FW-2.1", "SM-B9", "SM-B11"} <= mis


def test_swain_morris_B9_holds_when_Xb_is_square():
    """The printed (B9) is right exactly when X_b X_b^-1 = I: a square X_b (x = b = 6)."""
    rec = next(r for r in CATALOGUE if r.id == "SM-B9")
    tall = check_numeric(rec.checks, rec.let, theory_namespace("swain", numeric=True, seed=5))
    square = check_numeric(rec.checks, rec.let,
                           theory_namespace("swain", numeric=True, seed=5, sizes={"x": 6, "y": 6}))
    assert tall.residual > 1e-3
    assert square.residual < 1e-9


def _fake(checks, misprint=False, corrected=()):
    return Identity("fake", CATALOGUE[0].source, "test", "test", checks, misprint=misprint,
                    corrected=corrected, correction="x" if corrected else "")


def test_verifier_fails_a_false_identity_not_marked_as_misprint():
    out = run_record(_fake((("(I - H@Psi@L).T@Dinv@(I - H@Psi@L)@Mcal", "I"), ("Psi", "Phi"))), nmax=3)
    assert out.result == "FAILED" and out.counterexample.startswith("N=3")


def test_verifier_fails_a_misprint_whose_printed_form_holds():
    out = run_record(_fake((("Psi", "psi@S"),), misprint=True, corrected=(("Psi", "psi@S"),)), nmax=2)
    assert out.result == "FAILED"


def test_verifier_fails_a_wrong_correction():
    out = run_record(_fake((("Psi", "phi@S"),), misprint=True, corrected=(("Psi", "S@psi"),)), nmax=3)
    assert out.result == "FAILED"


def test_symbolic_refutation_must_be_confirmed_numerically(monkeypatch):
    """If the rewriting system lacked a relation, a true identity would get different normal
    forms; the runner must then refuse to call it refuted, because numbers satisfy it."""
    from soagen.symbolic import verify as V

    monkeypatch.setattr(V, "check_symbolic", lambda checks, let, ns: V.CheckResult(False, "simulated"))
    rec = _fake((("Psi", "psi@S"),), misprint=True, corrected=(("Psi", "psi@S"),))
    out = V.run_record(rec, nmax=2)
    assert out.result == "FAILED" and "numeric instance satisfies" in out.message
