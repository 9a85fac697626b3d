"""The wheel is the product: it holds every file of the source package, every template,
every bundled robot and the proof certificates, and nothing else; an installed copy
imports every module (the wheel build honours .gitignore, whose unanchored
``simulation/`` once dropped soagen/simulation/ from it)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = {"soagen": "soagen", "templates": "soagen/templates", "robots": "soagen/robots",
           "docs/certificates": "soagen/certificates"}      # source folder -> place in the wheel


def _tree():
    """The wheel paths that the source tree says the wheel must hold."""
    out = set()
    for folder, target in SHIPPED.items():
        for p in (ROOT / folder).rglob("*"):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                out.add(f"{target}/{p.relative_to(ROOT / folder).as_posix()}")
    return out


def test_the_wheel_holds_the_source_tree(installed_wheel):
    _, names = installed_wheel
    shipped = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    want = _tree()
    assert {"soagen/simulation/robot.py", "soagen/templates/c/source.c.j2", "soagen/robots/flexbeam.yaml",
            "soagen/certificates/I-FD4-rec.txt"} <= want
    assert sorted(want - shipped) == [], "missing from the wheel"
    assert sorted(shipped - want) == [], "in the wheel but not in the source tree"
    assert len([n for n in want if n.endswith(".py")]) == len(list((ROOT / "soagen").rglob("*.py")))


def test_every_module_imports_from_the_installed_wheel(tmp_path, installed_wheel):
    """From a folder outside the checkout, with only the installed copy on the path."""
    site, names = installed_wheel
    modules = sorted(n[:-3].replace("/", ".").removesuffix(".__init__") for n in names
                     if n.startswith("soagen/") and n.endswith(".py") and "/templates/" not in n)
    code = ("import importlib, sys; from pathlib import Path; bad = []\n"
            "for m in sys.argv[1:]:\n"
            "    try:\n"
            "        mod = importlib.import_module(m)\n"
            "    except ModuleNotFoundError as err:         # an optional package (pin, mujoco...) is fine\n"
            "        bad += [f'{m}: {err}'] if err.name.split('.')[0] == 'soagen' else []\n"
            "        continue\n"
            f"    bad += [m] if not Path(mod.__file__).resolve().is_relative_to({str(site.resolve())!r}) else []\n"
            "print(len(sys.argv) - 1, bad)")
    run = subprocess.run([sys.executable, "-c", code, *modules], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PYTHONSAFEPATH": "1", "PATH": ""})
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split()[0] == str(len(modules)) and run.stdout.strip().endswith("[]"), run.stdout
    assert "soagen.simulation.robot" in modules and "soagen.cli.simulate" in modules


def test_derivations_from_the_installed_wheel_link_its_certificates(tmp_path, installed_wheel):
    """`soagen derive --format markdown` run from an installed wheel, outside the checkout,
    links the certificates the wheel ships (soagen/certificates), and every link resolves
    (outside a repository the links are file URIs: soagen.symbolic.teaching.derive.certificate_link)."""
    import re
    from urllib.parse import unquote, urlparse

    site, _ = installed_wheel
    out = tmp_path / "notes" / "rne.md"
    code = "import sys; from soagen.cli.main import main; sys.argv = ['soagen'] + sys.argv[1:]; main()"
    run = subprocess.run([sys.executable, "-c", code, "derive", "rne", "--format", "markdown", "--out", str(out)],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PYTHONSAFEPATH": "1", "PATH": ""})
    assert run.returncode == 0, run.stderr[-2000:]
    links = re.findall(r"\]\(([^)]+)\)", out.read_text())
    targets = [Path(unquote(urlparse(t).path)) if t.startswith("file:") else out.parent / t for t in links]
    assert links and all(p.resolve().is_relative_to(site.resolve() / "soagen" / "certificates") and p.is_file()
                         for p in targets), links
