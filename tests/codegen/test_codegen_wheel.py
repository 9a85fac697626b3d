"""The top-level templates/ must be found from an installed, non-editable wheel: build the
wheel, install it into a temporary target directory, and generate from there (in a fresh
interpreter whose `soagen` is the installed copy, not this checkout)."""

import os
import subprocess
import sys

from tests.support.codegen import ROBOTS


def test_templates_from_installed_wheel(tmp_path, installed_wheel):
    site, names = installed_wheel
    assert "soagen/templates/c/source.c.j2" in names and "soagen/templates/python/module.py.j2" in names
    work = tmp_path / "work"
    work.mkdir()
    code = (
        "import soagen, soagen.codegen.emit as e, sys;"
        "from soagen.cli.main import main;"
        "print(soagen.__file__); print(e.template_dir());"
        f"sys.argv = ['soagen', 'generate', {str(ROBOTS / 'planar2.yaml')!r}, '--out', 'out', '-q',"
        " '--algorithms', 'inverse_dynamics'];"
        "main()")
    env = dict(os.environ, PYTHONPATH=str(site))
    run = subprocess.run([sys.executable, "-c", code], cwd=work, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith(str(site)), f"imported the checkout, not the wheel: {lines[0]}"
    assert lines[1].startswith(str(site)) and lines[1].endswith("templates")
    assert sorted(p.name for p in (work / "out").iterdir()) == [          # --lang all: every template set
        "planar2.c", "planar2.h", "planar2.py", "planar2_casadi.py", "planar2_jax.py", "planar2_manifest.json",
        "planar2_torch.py"]
    assert "planar2_inverse_dynamics" in (work / "out" / "planar2.c").read_text()
