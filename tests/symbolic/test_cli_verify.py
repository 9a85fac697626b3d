"""`soagen verify` through click's CliRunner."""

import json

from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.symbolic.evidence import catalogue, checker
from soagen.symbolic.evidence import verify as V


def test_verify_json_all_identities(tmp_path):
    r = CliRunner().invoke(cli, ["verify", "--nmax", "2", "--numeric-nmax", "5", "--format", "json",
                                 "--certificates", str(tmp_path / "certs")])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["failed"] == []
    rows = {row["id"]: row for row in data["identities"]}
    assert list(rows) == [rec.id for rec in catalogue.CATALOGUE]
    assert rows["I-abstract"]["result"] == "misprint" and rows["I-abstract"]["misprint_kind"] == "paper"
    assert rows["I-abstract"]["counterexample"].startswith("N=")
    assert rows["I-4.16"]["all_n"] and rows["I-4.16"]["scope"] == "all N (trees)"
    assert rows["FW-L5"]["topology"] == "chain"
    assert rows["I-a.21"]["all_n"] and rows["I-a.21"]["scope"] == "all N (chains)"      # by induction over the index
    assert rows["D-2C"]["scope"] == "all N (trees), 1-dof joints only"
    assert rows["I-4.16"]["certificate"].endswith("I-4.16.txt")
    assert rows["FW-4.BC"]["scope"] == "all N (chains)" and rows["FW-4.Mf"]["result"] == "misprint"
    assert rows["FW-4.Mf"]["counterexample"].startswith("ill-typed for every N")
    assert "160 of 160 identities proved for all N" in data["summary"]
    assert len(data["readings"]) == 31 and all(r["proved"] for r in data["readings"])
    checked = checker.check_dir(tmp_path / "certs")
    assert len(checked) == sum(row["all_n"] for row in rows.values()) + len(data["readings"])


def test_verify_only_markdown():
    r = CliRunner().invoke(cli, ["verify", "--only", "I-4.11", "--only", "I-abstract", "--nmax", "3",
                                 "--format", "markdown", "--numeric-nmax", "0"])
    assert r.exit_code == 0, r.output
    assert "| I-4.11 |" in r.stdout and "| I-abstract |" in r.stdout and "error in the paper" in r.stdout
    assert "N=3" in r.stdout   # the abstract's Phi-for-Psi first fails at N = 3


def test_verify_table_and_list():
    r = CliRunner().invoke(cli, ["verify", "--only", "I-5.4", "--only", "I-abstract", "--nmax", "2",
                                 "--numeric-nmax", "2"])
    assert r.exit_code == 0 and "proved" in r.stdout and "all N (trees)" in r.stdout
    table = r.stdout[:r.stdout.index("I-abstract:")]          # the notes after it are free text
    assert max(len(line) for line in table.splitlines()) <= 100 and "…" not in table
    assert "I-abstract " in table and "misprint (error" in table
    r = CliRunner().invoke(cli, ["verify", "--list"])
    assert r.exit_code == 0 and "I-a.50-proof" in r.stdout and "known misprint" in r.stdout


def test_verify_unknown_id_is_a_user_error():
    r = CliRunner().invoke(cli, ["verify", "--only", "NOPE"])
    assert r.exit_code == 2 and "unknown identity" in r.output


def test_verify_certificates_into_a_file_is_a_user_error(tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    r = CliRunner().invoke(cli, ["verify", "--only", "I-5.4", "--numeric-nmax", "0", "--certificates", str(f)])
    assert r.exit_code == 2 and "is a file" in r.output


def test_verify_exits_nonzero_on_failure(monkeypatch):
    bad = catalogue.IdentityRecord(id="BAD", source=catalogue.P1, where="test", printed="Psi = Phi", checks=(("Psi", "Phi"),))
    monkeypatch.setattr(catalogue, "CATALOGUE", [bad])
    monkeypatch.setattr(V, "select", lambda only: [bad])
    r = CliRunner().invoke(cli, ["verify", "--nmax", "3", "--numeric-nmax", "0", "--format", "json"])
    assert r.exit_code == 1
    assert json.loads(r.stdout)["failed"] == ["BAD"]
