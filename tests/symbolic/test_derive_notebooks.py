"""`soagen derive TOPIC --format ipynb`: every topic's notebook is written, executed with
nbclient, and each of its numeric checks runs and passes; a perturbed step makes it fail."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.symbolic.engines.nfree import GENERATORS
from soagen.symbolic.teaching import derive as D
from soagen.symbolic.teaching.notebook import notebook

nbformat = pytest.importorskip("nbformat", reason="--format ipynb needs nbformat (pip install 'soagen[notebooks]')")
nbclient = pytest.importorskip("nbclient", reason="executing notebooks needs nbclient (the notebooks extra)")
pytest.importorskip("ipykernel", reason="executing notebooks needs a Python kernel: ipykernel (the notebooks extra)")

ROOT = Path(__file__).resolve().parents[2]
CHECKED = re.compile(r"^equal \(relative difference ", re.M)


def _resolves(link: str, where: Path) -> bool:
    from urllib.parse import unquote, urlparse

    if link.startswith("file://"):
        return Path(unquote(urlparse(link).path)).is_file()
    return (where / link).is_file()


def _write(topic, path: Path) -> Path:
    r = CliRunner().invoke(cli, ["derive", topic, "--format", "ipynb", "--out", str(path)])
    assert r.exit_code == 0, r.output
    return path


def _execute(path: Path):
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def _expected_checks(topic: str) -> int:
    """The numeric checks a topic's notebook must run: one per proved equality of a chain,
    one per sweep, one per hypothesis a chain assumes (such as Psidot = Sdot)."""
    if topic == "planar2":
        return 3 * 3                 # three random states x (M, C + g, g)
    generators = {g.name for g in GENERATORS}
    n = 0
    for item in D.TOPICS[topic]()[1]:
        if isinstance(item, D.Chain):
            n += len(D._chain_pairs(item)) + sum(name in generators for name, _ in item.let)
        elif isinstance(item, D.Rec):
            n += 1
    return n


def _outputs(nb) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


@pytest.mark.parametrize("topic", D.bundled_topics())    # each in about 2 s (a kernel start, the imports)
def test_notebook_executes_and_checks_every_step(topic, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    nb = _execute(_write(topic, tmp_path / "nb" / f"{topic}.ipynb"))
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert len(CHECKED.findall(_outputs(nb))) == _expected_checks(topic) > 0


def test_notebook_cells_show_each_step_with_its_justification(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    nb = nbformat.read(_write("fact-4.2", tmp_path / "f.ipynb"), as_version=4)
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert md[0].startswith("# Fact 4.2")
    step = next(s for s in md if "(a.27)" in s)
    assert "\\Phi LH\\Psi = \\Psi LH\\Phi" in step and "\\begin{aligned}" in step
    cell = next(c for c in code if "(a.27)" in c)
    assert "step2 = I + H@(Phi - Psi - Psi@L@H@Phi)@L" in cell and "check(step1, step2)" in cell
    assert [c.id for c in nb.cells] == [f"cell-{n:03d}" for n in range(1, len(nb.cells) + 1)]


def test_notebook_fails_on_a_wrong_step(tmp_path, monkeypatch):
    """The checks can fail: Fact 4.2's second step with Phi for Psi (false from N = 3), and a
    closed-form mass matrix with a wrong coefficient, stop their notebooks."""
    monkeypatch.chdir(ROOT)
    for topic, right, wrong in (("fact-4.2", "Psi@L@H@Phi)@L", "Phi@L@H@Phi)@L"),
                                ("planar2", "2*c2_x*m2*cos(q2)", "3*c2_x*m2*cos(q2)")):
        path = _write(topic, tmp_path / f"{topic}.ipynb")
        text = path.read_text()
        assert text.count(right) == 1
        path.write_text(text.replace(right, wrong))
        with pytest.raises(nbclient.exceptions.CellExecutionError, match="differ"):
            _execute(path)


def test_notebook_links_resolve_where_it_is_written(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = _write("derivatives", tmp_path / "deep" / "er" / "d.ipynb")
    nb = nbformat.read(path, as_version=4)
    links = [t for c in nb.cells if c.cell_type == "markdown" for t in re.findall(r"\]\(([^)]+)\)", c.source)]
    # written outside the repository: file URIs of the certificates soagen carries, so the
    # notebook can be moved (tests/symbolic/test_derive.py, the same rule for Markdown)
    assert len(links) > 10 and all(_resolves(t, path.parent) for t in links), links
    assert all(t.startswith("file://") for t in links)


def test_notebook_bytes_do_not_depend_on_hash_seed(tmp_path):
    texts = []
    for seed in ("0", "12345"):
        out = tmp_path / f"n{seed}.ipynb"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "soagen.cli.main", "derive", "rne", "--format", "ipynb",
                        "--out", str(out)], check=True, env=env, cwd=ROOT)
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]
    assert notebook("rne") == notebook("rne")


def test_cli_ipynb_errors(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    bad = str(tmp_path / "file" / "x.ipynb")                  # a directory that is a file
    r = CliRunner().invoke(cli, ["derive", "fact-4.2", "--format", "ipynb", "--out", bad])
    assert r.exit_code == 2 and "cannot write" in r.output and "Traceback" not in r.output
    monkeypatch.setitem(sys.modules, "nbformat", None)       # as if the notebooks extra were missing
    r = CliRunner().invoke(cli, ["derive", "fact-4.2", "--format", "ipynb", "--out", str(tmp_path / "y.ipynb")])
    assert r.exit_code == 2 and "soagen[notebooks]" in r.output and not (tmp_path / "y.ipynb").exists()


@pytest.mark.slow
def test_cli_all_notebooks(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["derive", "--all", str(tmp_path), "--format", "ipynb"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{t}.ipynb" for t in D.bundled_topics())
    for p in tmp_path.iterdir():
        nbformat.validate(nbformat.read(p, as_version=4))
