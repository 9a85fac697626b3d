"""The checker stands alone: run as `python -m soagen.symbolic.evidence.checker FILE` (a new process, on
copies outside the repository's certificate directory), it refuses every tampering a reader could
slip into a certificate or an axioms file, and accepts the untouched files."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CERTS = Path(__file__).resolve().parents[2] / "docs" / "certificates"


def _run(path: Path, *extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "soagen.symbolic.evidence.checker", str(path), *extra],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture()
def workdir(tmp_path):
    for ax in CERTS.glob("axioms-*.txt"):
        shutil.copy(ax, tmp_path / ax.name)
    return tmp_path


def _statement(claim: str, body: str, head: str = "") -> str:
    return (f"soagen certificate 1\nidentity statement\nsource test\nalgebra chain\ntopology chain\n{head}"
            f"claim 1: {claim}\n{body}end\n")


def _edit(name: str, old: str, new: str, count: int = 1) -> str:
    text = (CERTS / name).read_text()
    assert old in text, (name, old)
    return text.replace(old, new, count)


TAMPER = {
    # a hypothesis of one's own proves anything
    "assume not pinned": lambda: _statement("Phi = Psi", "terms 1: 1\n  1 | . | h | .\n",
                                            "assume h : Phi -> Psi | whatever\n"),
    "pinned id, other equation": lambda: _statement("Phi = Psi", "terms 1: 1\n  1 | . | loop-4.20 | .\n",
                                                    "assume loop-4.20 : Phi -> Psi | (4.19)-(4.20)\n"),
    "condition not pinned": lambda: _edit("D-2C.txt", "condition one-dof : Psidot -> Sdot",
                                          "condition one-dof : Psiddot -> Sdot"),
    # a let that rebinds a generator changes what the claim means
    "let rebinds a generator": lambda: _statement("Phi = Psi", "terms 1: 0\n", "let Phi = Psi\n"),
    "let rebinds I": lambda: _statement("I = 2*I", "terms 1: 0\n", "let I = 2*I\n"),
    # a block statement must list every block once
    "block claim deleted and another changed": lambda: _drop_block_claim(),
    # the block level
    "a case dropped": lambda: _edit("reading-loop-4.20.txt", "case . 1..1\nterms: 1\n  -1 | . | loop-4.20.first(1) | .\n", ""),
    "a case's range moved": lambda: _edit("reading-loop-4.20.txt", "case . 2..N", "case . 3..N"),
    "the loop not declared": lambda: _edit("reading-loop-4.20.txt", "loop loop-4.20\n", ""),
    "a loop that is not pinned": lambda: _edit("reading-loop-4.20.txt", "loop loop-4.20\n", "loop loop-4.20\nloop loop-9.99\n"),
    "two loops for one family": lambda: _edit("I-a.45-proof.txt", "loop lemma-A1 as rp", "loop lemma-A1"),
    "induction from the wrong end": lambda: _edit("II-6.10.txt", "induction j down N", "induction j down N+1"),
    "a lemma's range widened": lambda: _edit("II-6.10.txt", "index-lemma ups (j) [1 <= j; j <= N]",
                                             "index-lemma ups (j) [0 <= j; j <= N]"),
    "a sum taken as empty": lambda: _edit("I-a.20.txt", "sum-empty[sum(i=m..m-1)", "sum-empty[sum(i=m..m)"),
    "a semigroup step out of order": lambda: _edit("I-a.21.txt", "psi-semi(k,n,n-1)", "psi-semi(k,n-1,n)"),
    "the block level on a tree": lambda: _edit("II-6.10.txt", "topology chain", "topology tree"),
    "the hypothesis outside a step": lambda: _edit("II-6.10.txt", "  1 | . | ups(1) | .", "  1 | . | ih | ."),
    "via a lemma with another left side": lambda: _edit("II-6.9.txt", " via via-U:", " via lemma5:"),
    "a claimed block of another operator": lambda: _edit("I-4.4.txt", "of L:", "of G:"),
    "a coefficient of an index term": lambda: _edit("II-6.10.txt", "  1 | . | ups(1) | .", "  2 | . | ups(1) | ."),
}


def _drop_block_claim() -> str:
    lines = (CERTS / "II-3.5a.txt").read_text().splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("claim ")]
    a, b = starts[0], starts[1]                         # delete the first block's claim and its terms
    del lines[a:b]
    k = next(i for i, ln in enumerate(lines) if ln.startswith("claim ") and " block " in ln)
    lines[k] = lines[k].replace("block 1,2", "block 2,2") if "block 1,2" in lines[k] else lines[k]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", list(TAMPER))
def test_the_checker_alone_refuses_a_tampered_certificate(kind, workdir):
    path = workdir / "tampered.txt"
    path.write_text(TAMPER[kind]())
    r = _run(path)
    assert r.returncode == 1, (kind, r.stdout, r.stderr)
    assert r.stdout.startswith("FAILED: tampered.txt:") and "Traceback" not in r.stderr, (kind, r.stdout, r.stderr)


def test_a_block_statement_must_list_every_block(workdir):
    """Deleting one block's claim leaves every remaining claim valid: only completeness catches it."""
    lines = (CERTS / "II-3.5a.txt").read_text().splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("claim ")]
    del lines[starts[0]:starts[1]]
    path = workdir / "tampered.txt"
    path.write_text("\n".join(lines) + "\n")
    r = _run(path)
    assert r.returncode == 1 and "does not list each of its 4 blocks once" in r.stdout, r.stdout


def test_an_axioms_file_with_an_extra_rule_is_refused(workdir):
    ax = workdir / "axioms-chain.txt"
    ax.write_text(ax.read_text() + "rel evil [relation; chain,tree] : Phi -> Psi | nowhere\n")
    path = workdir / "evil.txt"
    path.write_text(_statement("Phi = Psi", "terms 1: 1\n  1 | . | evil | .\n"))
    r = _run(path)
    assert r.returncode == 1 and "not the pinned ones" in r.stdout, r.stdout


def test_a_block_axioms_file_with_an_extra_relation_is_refused(workdir):
    ax = workdir / "axioms-blocks.txt"
    ax.write_text(ax.read_text().replace("brel psi-tip ", "brel evil () [] : phi(1,0) -> I | nowhere\nbrel psi-tip "))
    shutil.copy(CERTS / "reading-loop-4.20.txt", workdir / "r.txt")
    r = _run(workdir / "r.txt")
    assert r.returncode == 1 and "not the pinned ones" in r.stdout, r.stdout


@pytest.mark.parametrize("name", ["I-4.16.txt", "II-6.9.txt", "reading-loop-5.17.txt", "I-a.45-proof.txt", "D-2C.txt"])
def test_the_checker_alone_accepts_the_untouched_files(name, workdir):
    shutil.copy(CERTS / name, workdir / name)
    r = _run(workdir / name)
    assert r.returncode == 0 and "all valid" in r.stdout, r.stdout
    if name == "D-2C.txt":
        assert "under the conditions one-dof" in r.stdout


def test_axioms_from_another_directory(tmp_path):
    shutil.copy(CERTS / "FW-A.3.txt", tmp_path / "c.txt")
    assert _run(tmp_path / "c.txt").returncode == 1                  # no axioms next to it
    r = _run(tmp_path / "c.txt", "--axioms", str(CERTS))
    assert r.returncode == 0, r.stdout


def test_axioms_from_another_directory_for_a_directory_of_certificates(tmp_path):
    """--axioms DIR applies to a directory of certificates too (it was ignored there)."""
    for name in ("FW-A.3.txt", "I-4.16.txt"):
        shutil.copy(CERTS / name, tmp_path / name)
    r = _run(tmp_path)
    assert r.returncode == 1 and "no axioms-" in r.stdout, r.stdout          # none next to them
    r = _run(tmp_path, "--axioms", str(CERTS))
    assert r.returncode == 0 and r.stdout.startswith("2 certificates checked"), r.stdout


@pytest.mark.parametrize("extra,message", [
    (["--axioms", "nowhere"], "--axioms nowhere: not a directory"),
    (["--axoims", "x"], "unrecognized arguments: --axoims"),
])
def test_the_checker_refuses_a_bad_command_line_with_exit_2(tmp_path, extra, message):
    shutil.copy(CERTS / "FW-A.3.txt", tmp_path / "c.txt")
    r = _run(tmp_path / "c.txt", *extra)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_checker_has_a_help_and_stays_standard_library_only():
    r = subprocess.run([sys.executable, "-m", "soagen.symbolic.evidence.checker", "--help"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "--axioms DIR" in r.stdout
    import ast

    tree = ast.parse((Path(__file__).resolve().parents[2] / "soagen" / "symbolic" / "evidence" / "checker.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | \
        {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported - set(sys.stdlib_module_names)
