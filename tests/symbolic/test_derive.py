"""`soagen derive`: bundled derivations regenerate byte-identically, steps are checked,
closed forms agree with the numeric reference and the textbook two-link formulas."""

import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.symbolic.teaching import derive as D

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "derivations"


@pytest.mark.parametrize("topic", D.bundled_topics())
def test_bundled_derivation_is_up_to_date(topic, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = D.render(topic, "markdown")
    assert (DOCS / f"{topic}.md").read_text() == text, \
        "regenerate with: soagen derive --all docs/derivations"


@pytest.mark.parametrize("topic", D.bundled_topics())
def test_text_rendering(topic, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = D.render(topic, "text")
    assert text.splitlines()[1].startswith("===") and "$$" not in text


def test_a_wrong_step_cannot_be_rendered():
    bad = D.Chain("X", "X", "(I + H@Phi@L)@(I - H@Psi@L)", (D.Step("I + H L", "I + H L", "", "I + H@L"),))
    with pytest.raises(AssertionError, match="not proved for all N"):
        D._verify(bad)
    # a step that holds for N <= 2 only (Phi for Psi in Fact 4.2) is not accepted either
    small = D.Chain("X", "X", "(I + H@Phi@L)@(I - H@Phi@L)", (D.Step("I", "I", "", "I"),))
    with pytest.raises(AssertionError, match="not proved for all N"):
        D._verify(small)
    bad_rec = D.Rec("t", ("x",), ("x",), ("causal_filter(T)", "Dinv@(I - H@Psi@L)@Tp"))
    with pytest.raises(AssertionError):
        D._verify(bad_rec)


@pytest.mark.parametrize("topic", [t for t in D.bundled_topics() if t != "planar2"])
def test_every_step_is_proved_for_every_n(topic):
    title, items = D.TOPICS[topic]()
    for item in items:
        note = D._verify(item)
        if isinstance(item, D.Chain) and D._chain_pairs(item):
            every = "N" if item.algebra == "chain" else "size"
            assert note.startswith(f"each equality proved for every {every}"), (topic, item.lhs_plain)
        if isinstance(item, D.Rec):
            assert item.record and "proved for every N" in note, (topic, item.title)


@pytest.mark.parametrize("topic", D.bundled_topics())
def test_text_keeps_spaces_between_symbols(topic, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = D.render(topic, "text")
    glued = re.findall(r"\b(?:[A-Z][a-z]*){2,}(?:Phi|Psi|phi|psi)\b|\b[A-Z][A-Z]+(?:Phi|Psi|phi|psi)\b", text)
    assert not glued, glued[:5]
    for bad in ("LHPsi", "HPsi", "Hphi", "D^-1H", "LHPhi"):
        assert bad not in text, bad


# hand-written: what a reader of the terminal should see for the papers' LaTeX
PLAIN = [
    ("\\Phi LH\\Psi", "Phi L H Psi"),
    ("H\\left(P + \\tilde\\phi P\\right)H^T", "H (P + phi~ P) H^T"),
    ("(I + H\\Phi L)(I - H\\Psi L)", "(I + H Phi L)(I - H Psi L)"),
    ("\\hat z(k) = [\\phi(k,k-1) - L(k-1)H(k-1)]\\,\\hat z(k-1) + L(k-1)T'(k-1)",
     "z(k) = [phi(k,k-1) - L(k-1) H(k-1)] z(k-1) + L(k-1) T'(k-1)"),
    ("\\lambda(N+1) = 0", "lambda(N+1) = 0"),
    ("k = l+1..N:\\; (U, W, Q) \\leftarrow \\phi(k,k-1)(U, W, Q)", "k = l+1..N: (U, W, Q) <- phi(k,k-1) (U, W, Q)"),
    ("\\partial T(k)/\\partial\\theta(l) = H(k)Q", "dT(k)/dtheta(l) = H(k) Q"),
    ("\\partial T/\\partial\\dot\\theta", "dT/dtheta_dot"),
    ("-d\\mathcal{M}\\,\\mathcal{M}^{-1}(T - C) - dC", "-dM M^-1 (T - C) - dC"),
    ("J^T\\dot MJ + \\dot J^TMJ", "J^T Mdot J + Jdot^T M J"),
    ("\\dot{\\mathcal{M}} = J^T\\dot MJ", "d/dt M = J^T Mdot J"),
    ("\\ddot\\Psi = A_p\\times H^T + V_p\\times\\dot\\Psi", "Psi_ddot = A_p x H^T + V_p x Psi_dot"),
    ("\\dot M = \\mathrm{diag}(V\\times^* M - MV\\times)", "Mdot = diag(V x* M - M V x)"),
    ("2B = \\dot M + (MV)\\bar\\times^*", "2 B = Mdot + (M V) xbar*"),
    ("H\\tilde\\phi\\bar fH^T", "H phi~ fbar H^T"),
    ("B_c(\\phi - I)^T + 2B_c(l)", "B_c (phi - I)^T + 2 B_c(l)"),
    ("T_{ID}(\\theta, \\dot\\theta, \\ddot\\theta) = T", "T_ID(theta, thd, thdd) = T"),
    ("\\epsilon(k) = T'(k),\\quad \\nu(k) = D^{-1}(k)\\epsilon(k)\\qquad k = 1..N",
     "eps(k) = T'(k),  nu(k) = D^-1(k) eps(k)    k = 1..N"),
]


@pytest.mark.parametrize("tex, plain", PLAIN)
def test_tex_to_plain(tex, plain):
    assert D.tex_to_plain(tex) == plain


def _overrides():
    """(topic, hand-written plain text, the generated one) of every override."""
    out = []
    for topic, make in D.TOPICS.items():
        for item in make()[1] if make else ():
            if isinstance(item, D.Para) and item.text is not None:
                out.append((topic, item.text, D.markdown_to_plain(item.markdown)))
            elif isinstance(item, D.Chain):
                if item.lhs_text is not None:
                    out.append((topic, item.lhs_text, D.tex_to_plain(item.lhs_latex)))
                out += [(topic, s.text, D.tex_to_plain(s.latex)) for s in item.steps if s.text is not None]
            elif isinstance(item, D.Rec) and item.lines_text is not None:
                out.append((topic, item.lines_text, D.Rec(item.title, item.lines_latex).plain_lines))
    return out


def test_plain_text_is_written_by_hand_only_where_the_converter_differs():
    overrides = _overrides()
    assert [(t, hand) for t, hand, generated in overrides if hand == generated] == []
    # the few that remain: the abbreviated steps of FD4 and the composition of the two FD1 sweeps
    assert sorted(t for t, _, _ in overrides) == ["fd4"] * 3 + ["minv-recursions"]


def test_plain_sweep_ranges_share_one_column():
    rec = D.TOPICS["fd4"]()[1][-1]
    lines = [ln for ln in rec.plain_lines if ln.endswith(("k = 1..N", "k = N..1"))]
    assert len(lines) == 2 and len({ln.index("k = ") for ln in lines}) == 1
    assert lines[0].startswith("eps(k) = T(k) - H(k) z(k),  nu(k) = D^-1(k) eps(k) ")


def test_the_crux_of_fact_4_1_is_shown():
    text = D.render("fact-4.1", "text")
    assert "phi Theta phi^T = (phi E_phi) P H^T D^-1 H P (phi E_phi)^T" in text
    assert "= phi~ P H^T D^-1 H P phi~^T" in text


def test_planar2_closed_form_matches_reference_and_textbook(monkeypatch):
    """The exact closed form (the file's decimals as rationals) equals soagen's numeric
    M and bias forces and the textbook two-link formulas to round-off; the printed
    6-digit form only to its display precision."""
    monkeypatch.chdir(ROOT)
    from soagen import algorithms as A
    from soagen.loaders import load
    from soagen.symbolic.teaching.closed_form import closed_form
    from tests.support.accuracy import rel_err

    robot = load("robots/planar2.yaml")
    exact = closed_form(robot, numeric=False)
    shown = closed_form(robot, numeric=True)
    # the file's values (planar2.yaml), not the rounded-off 1/12 of a textbook rod
    m1, m2, l1, lc1, lc2, I1, I2, grav = 1.0, 0.7, 1.0, 0.5, 0.4, 0.083333333333333, 0.037333333333333, 9.81
    rng = np.random.default_rng(11)

    def evaluate(form, qv, qdv):
        q, qd, M, C, g = form
        sub = {q[0]: qv[0], q[1]: qv[1], qd[0]: qdv[0], qd[1]: qdv[1]}
        return [np.array(X.subs(sub).evalf(30), dtype=float).reshape(X.shape) for X in (M, C, g)]

    for _ in range(5):
        qv, qdv = rng.uniform(-3, 3, 2), rng.normal(size=2)
        Mn, Cn, gn = evaluate(exact, qv, qdv)
        assert rel_err(Mn, A.mass_matrix(robot, qv)) < 1e-13                 # round-off of M(q)
        assert rel_err((Cn + gn).ravel(), A.bias_forces(robot, qv, qdv)) < 1e-13
        c2, s2 = np.cos(qv[1]), np.sin(qv[1])
        M11 = I1 + I2 + m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * c2)
        M12 = I2 + m2 * (lc2**2 + l1 * lc2 * c2)
        assert rel_err(Mn, np.array([[M11, M12], [M12, I2 + m2 * lc2**2]])) < 1e-13
        h = m2 * l1 * lc2 * s2
        assert rel_err(Cn.ravel(), np.array([-h * (2 * qdv[0] * qdv[1] + qdv[1] ** 2), h * qdv[0] ** 2])) < 1e-13
        g1 = (m1 * lc1 + m2 * l1) * grav * np.cos(qv[0]) + m2 * lc2 * grav * np.cos(qv[0] + qv[1])
        assert rel_err(gn.ravel(), np.array([g1, m2 * lc2 * grav * np.cos(qv[0] + qv[1])])) < 1e-13
        # the printed form keeps 6 significant digits per coefficient
        for printed, true in zip(evaluate(shown, qv, qdv), (Mn, Cn, gn)):
            assert rel_err(printed, true) < 5e-6


def test_cli_derive(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["derive", "--list"])
    assert r.exit_code == 0 and "minv-recursions" in r.stdout
    r = CliRunner().invoke(cli, ["derive", "fact-4.2"])
    assert r.exit_code == 0 and "(a.27)" in r.stdout
    r = CliRunner().invoke(cli, ["derive", "theorem-4.1", "--format", "markdown", "--output", str(tmp_path / "t.md")])
    assert r.exit_code == 0 and (tmp_path / "t.md").read_text().startswith("# Theorem 4.1")
    r = CliRunner().invoke(cli, ["derive", "fact-4.2", "--out", str(tmp_path / "f.txt")])
    assert r.exit_code == 0 and (tmp_path / "f.txt").read_text().startswith("Fact 4.2")
    r = CliRunner().invoke(cli, ["derive", "--all", str(tmp_path / "d")])
    assert r.exit_code == 0 and sorted(p.name for p in (tmp_path / "d").iterdir()) == \
        sorted(f"{t}.md" for t in D.bundled_topics())


def _links(md_path: Path) -> list:
    return re.findall(r"\]\(([^)]+)\)", md_path.read_text())


@pytest.mark.parametrize("topic", D.bundled_topics())
def test_docs_derivation_links_resolve(topic):
    links = _links(DOCS / f"{topic}.md")
    assert all((DOCS / t).is_file() for t in links), links


def _resolves(link: str, where: Path) -> bool:
    """A link of a rendering at ``where`` names an existing file: a file URI anywhere, a
    relative path from ``where``."""
    from urllib.parse import unquote, urlparse

    if link.startswith("file://"):
        return Path(unquote(urlparse(link).path)).is_file()
    return (where / link).is_file()


def test_markdown_links_resolve_wherever_it_is_written(tmp_path, monkeypatch):
    """--out FILE outside the repository, and stdout from any folder: file URIs of the
    certificates soagen carries, so the text can be moved (a path relative to the current
    directory pointed into the clone, and broke when moved); inside the repository a
    relative path, as docs/derivations has."""
    monkeypatch.chdir(ROOT)
    out = tmp_path / "some" / "where" / "d.md"
    r = CliRunner().invoke(cli, ["derive", "derivatives", "--format", "markdown", "--out", str(out)])
    assert r.exit_code == 0
    links = _links(out)
    assert len(links) > 10 and all(t.startswith("file://") and _resolves(t, out.parent) for t in links), links
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["derive", "fd4", "--format", "markdown"])
    moved = tmp_path / "elsewhere" / "fd4.md"
    moved.parent.mkdir()
    moved.write_text(r.stdout)
    links = _links(moved)
    assert links and all(t.startswith("file://") and _resolves(t, moved.parent) for t in links), links
    assert not any("docs/certificates/../" in t or t.startswith("..") for t in links)
    import soagen

    # docs/derivations of a checkout links relatively, whichever soagen runs the tests
    # (an installed wheel carries its own copy, linked by URI above)
    monkeypatch.setattr(soagen, "__file__", str(ROOT / "soagen" / "__init__.py"))
    assert D.certificate_link(ROOT / "docs" / "derivations") == "../certificates"


def test_the_wheel_ships_the_certificates_the_links_name(tmp_path, monkeypatch):
    """Installed, soagen finds its certificates in the package (soagen/certificates, a
    force-include of the wheel) and links them by file URI."""
    import shutil

    import soagen

    pkg = tmp_path / "site-packages" / "soagen"
    shutil.copytree(ROOT / "docs" / "certificates", pkg / "certificates")
    monkeypatch.setattr(soagen, "__file__", str(pkg / "__init__.py"))
    assert D.certificates_dir() == pkg / "certificates"
    link = D.certificate_link(tmp_path)
    assert link == (pkg / "certificates").as_uri()
    text = D.render("fd4", "markdown", links=link)
    assert all(_resolves(t, tmp_path) for t in re.findall(r"\]\(([^)]+)\)", text))
    wheel = (ROOT / "pyproject.toml").read_text()
    assert '"docs/certificates" = "soagen/certificates"' in wheel


def test_markdown_without_the_repository_has_no_dead_links(tmp_path, monkeypatch):
    """A soagen with no certificates beside it (neither a wheel's soagen/certificates nor a
    repository's docs/certificates): records are named, not linked."""
    import soagen

    monkeypatch.setattr(soagen, "__file__", str(tmp_path / "site-packages" / "soagen" / "__init__.py"))
    assert D.certificate_link(tmp_path) is None
    text = D.render("derivatives", "markdown", links=D.certificate_link(tmp_path))
    assert "](" not in text and "the marked step is the catalogue record D-merge, proved for" in text


def test_cli_derive_help_names_the_formats_and_out():
    r = CliRunner().invoke(cli, ["derive", "--help"])
    assert r.exit_code == 0
    assert "[text|markdown|ipynb]" in r.stdout and "--out, --output FILE" in r.stdout
    assert "relative to FILE's directory" in " ".join(r.stdout.split())


def test_cli_derive_user_errors(tmp_path):
    r = CliRunner().invoke(cli, ["derive", "nope"])
    assert r.exit_code == 2 and "unknown derivation topic" in r.output
    r = CliRunner().invoke(cli, ["derive"])                     # no topic: the list, as --list
    assert r.exit_code == 0 and r.stdout == CliRunner().invoke(cli, ["derive", "--list"]).stdout
    assert all(name in r.stdout for name in D.TOPICS)
    r = CliRunner().invoke(cli, ["derive", "planar2", "--robot", str(tmp_path / "missing.yaml")])
    assert r.exit_code == 2 and "no such robot file" in r.output


def test_catalogue_docs_are_up_to_date(outcomes):
    from soagen.symbolic.evidence import report

    assert (ROOT / "docs" / "identities.md").read_text() == report.identities_markdown(outcomes), \
        "regenerate with: python -m soagen.symbolic.evidence.report"
    assert (ROOT / "docs" / "misprints.md").read_text() == report.misprints_markdown(outcomes), \
        "regenerate with: python -m soagen.symbolic.evidence.report"


def test_closed_form_refuses_large_robots(monkeypatch):
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(cli, ["derive", "planar2", "--robot", "robots/arm6.yaml"])
    assert r.exit_code == 2 and "at most 3" in r.output
