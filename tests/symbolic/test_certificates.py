"""Certificates: the checked-in ones (docs/certificates) are current and all re-check with
the independent checker; tampered certificates are rejected; the checker shares no code
with the engine."""

import ast
from pathlib import Path

import pytest

from soagen.symbolic.evidence import checker
from soagen.symbolic.evidence.certificate import certificate_files

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "docs" / "certificates"


def test_checked_in_certificates_are_current(outcomes, readings):
    files = certificate_files(outcomes.values(), readings)
    on_disk = {p.name: p.read_text() for p in CERTS.glob("*.txt")}
    assert sorted(on_disk) == sorted(files), "regenerate with: soagen verify --certificates docs/certificates"
    stale = [name for name in files if on_disk[name] != files[name]]
    assert not stale, f"regenerate with: soagen verify --certificates docs/certificates ({stale[:5]})"


def test_every_checked_in_certificate_rechecks():
    results = checker.check_dir(CERTS)
    assert len(results) >= 120
    assert all(r["claims"] >= 1 for _, r in results)


def test_the_checker_imports_nothing_of_the_engine():
    tree = ast.parse(Path(checker.__file__).read_text())
    mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | \
           {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert mods <= {"__future__", "argparse", "hashlib", "re", "fractions", "pathlib", "sys"}, mods


def _cert(name):
    return (CERTS / name).read_text()


def _axioms(name="chain"):
    return checker.Axioms((CERTS / f"axioms-{name}.txt").read_text())


def _blocks():
    return checker.Blocks((CERTS / "axioms-blocks.txt").read_text())


def _first_term(text):
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("  "))
    return lines, i


@pytest.mark.parametrize("tamper,match", [
    ("coefficient", "do not add up"),
    ("drop", "do not add up"),
    ("claim", "do not add up"),
    ("cofactor", "does not conform|not a product"),
    ("relation", "neither in the axioms"),
    ("unknown-generator", "unknown generator"),
])
def test_tampered_certificates_are_rejected(tamper, match):
    text = _cert("I-4.16.txt")
    assert checker.check(text, _axioms())["terms"] > 50
    lines, i = _first_term(text)
    c, u, rid, v = [p.strip() for p in lines[i].split("|")]
    if tamper == "coefficient":
        lines[i] = f"  {int(c) * 2} | {u} | {rid} | {v}"
    elif tamper == "drop":
        del lines[i]
        k = next(j for j, ln in enumerate(lines) if ln.startswith("terms 1:"))
        n = int(lines[k].split(":")[1])
        lines[k] = f"terms 1: {n - 1}"
    elif tamper == "claim":
        k = next(j for j, ln in enumerate(lines) if ln.startswith("claim 1:"))
        lines[k] = lines[k].replace("Psi", "Phi")
    elif tamper == "cofactor":
        lines[i] = f"  {c} | H H | {rid} | {v}"
    elif tamper == "relation":
        lines[i] = f"  {c} | {u} | no-such-relation | {v}"
    elif tamper == "unknown-generator":
        lines[i] = f"  {c} | Zeta | {rid} | {v}"
    with pytest.raises(checker.CertificateError, match=match):
        checker.check("\n".join(lines) + "\n", _axioms())


def test_a_chain_only_relation_is_rejected_in_a_tree_certificate():
    text = _cert("FW-L5.txt")
    assert "topology chain" in text and "upsilon" in text
    checker.check(text, _axioms())
    with pytest.raises(checker.CertificateError, match="does not hold on topology tree"):
        checker.check(text.replace("topology chain", "topology tree"), _axioms())


def test_an_undeclared_hypothesis_is_rejected():
    text = _cert("I-a.45.txt")
    assert "assume lemma-A1" in text
    checker.check(text, _axioms(), _blocks())
    stripped = "\n".join(ln for ln in text.splitlines() if not ln.startswith("assume ")) + "\n"
    with pytest.raises(checker.CertificateError, match="neither in the axioms of chain nor assumed"):
        checker.check(stripped, _axioms(), _blocks())


def test_block_claims_are_checked_block_by_block():
    text = _cert("II-3.5a.txt")
    res = checker.check(text, _axioms("closed"))
    assert res["claims"] == 8                 # two 2 x 2 block equations
    bad = text.replace("claim 1 block 1,1:", "claim 1 block 1,2:", 1)
    with pytest.raises(checker.CertificateError):
        checker.check(bad, _axioms("closed"))


def test_the_checker_pins_the_axioms_it_is_given():
    """The pinned hashes are those of the generated axioms files (a changed relation list must be
    pinned again, on purpose: update PINNED in soagen/symbolic/evidence/checker.py)."""
    import hashlib

    from soagen.symbolic.engines.nfree import algebra
    from soagen.symbolic.evidence.certificate import axioms_text, blocks_axioms_text

    texts = {name: axioms_text(algebra(name)) for name in checker.PINNED if name != "blocks"}
    texts["blocks"] = blocks_axioms_text()
    assert {k: hashlib.sha256(t.encode()).hexdigest() for k, t in texts.items()} == checker.PINNED
    with pytest.raises(checker.CertificateError, match="not the pinned ones"):
        checker.Axioms(texts["chain"] + "rel evil [relation; chain,tree] : Phi -> Psi | nowhere\n")
