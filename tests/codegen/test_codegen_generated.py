"""generated/ holds the code of every bundled robot, and generated/systems/ that of every
bundled closed-chain system; regenerating it must give the same file set and the same
bytes. To update after an intended change:

    SOAGEN_UPDATE_GENERATED=1 pytest tests/codegen/test_codegen_generated.py --runslow

(or `soagen generate robots/NAME.yaml --lang c,python --out generated/NAME` per robot,
`soagen generate robots/systems/NAME.yaml --lang c,python --out generated/systems/NAME`
per system)."""

import difflib
import os
import subprocess
import sys

import pytest

import soagen
from soagen.codegen.emit import Emitted, write
from soagen.codegen.robot import render
from tests.support.codegen import REPO, ROBOTS

GENERATED = REPO / "generated"
UPDATE = os.environ.get("SOAGEN_UPDATE_GENERATED") == "1"
BUNDLED = sorted(p.stem for p in ROBOTS.glob("*.yaml"))
SYSTEMS = sorted(p.stem for p in (ROBOTS / "systems").glob("*.yaml"))
FAST = {"planar2", "puma560"}


def _compare(files, target):
    """Write ``files`` to ``target`` (update mode) or assert they equal what is there."""
    name = target.relative_to(GENERATED.parent)
    if UPDATE:
        for old in target.glob("*") if target.is_dir() else []:
            if old.name not in files:
                old.unlink()
        write(Emitted(files, [], {}), target)
        return
    have = sorted(p.name for p in target.iterdir()) if target.is_dir() else []
    assert have == sorted(files), f"{name}: file set {have} != {sorted(files)} " \
                                  "(set SOAGEN_UPDATE_GENERATED=1 to update)"
    diffs = []
    for fname, text in files.items():
        old = (target / fname).read_text(encoding="utf-8")
        if old != text:
            diffs.append("".join(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), f"{name}/{fname}",
                f"regenerated/{fname}", n=2))[:4000])
    if diffs:      # raised, not asserted: pytest would shorten the diff in an assert message
        raise AssertionError("generated code differs from a fresh generation "
                             "(SOAGEN_UPDATE_GENERATED=1 to update):\n" + "\n".join(diffs))


def _check(name, tmp_path):
    path = ROBOTS / f"{name}.yaml"
    _compare(render(soagen.load(path), path, prefix=name).files, GENERATED / name)


def test_every_bundled_robot_and_system_has_generated_code():
    have = sorted(p.name for p in GENERATED.iterdir() if p.is_dir() and p.name != "systems")
    systems = sorted(p.name for p in (GENERATED / "systems").iterdir() if p.is_dir()) \
        if (GENERATED / "systems").is_dir() else []
    if not UPDATE:
        assert have == BUNDLED, f"generated/ has {have}, robots/ has {BUNDLED} " \
                                "(SOAGEN_UPDATE_GENERATED=1 ... --runslow to update)"
        assert systems == SYSTEMS, f"generated/systems/ has {systems}, robots/systems/ has {SYSTEMS} " \
                                   "(SOAGEN_UPDATE_GENERATED=1 ... --runslow to update)"


@pytest.mark.parametrize("name", sorted(FAST & set(BUNDLED)))
def test_regenerate_matches(name, tmp_path):
    _check(name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(BUNDLED) - FAST))
def test_regenerate_matches_slow(name, tmp_path):
    _check(name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", SYSTEMS)
def test_regenerate_system_matches(name):
    """Closed-chain systems take 20-40 s each to unroll; their checked-in code is checked
    numerically in the default run (tests/closed_chain/test_cc_codegen.py)."""
    from soagen import load_system
    from soagen.codegen.closed_chain import render as render_system

    path = ROBOTS / "systems" / f"{name}.yaml"
    _compare(render_system(load_system(path), path, prefix=name).files, GENERATED / "systems" / name)


def test_detects_a_difference(tmp_path, monkeypatch):
    """The check can fail: a one-character edit of a copy is reported with a diff."""
    import shutil

    copy = tmp_path / "generated"
    shutil.copytree(GENERATED / "planar2", copy / "planar2")
    p = copy / "planar2" / "planar2.c"
    p.write_text(p.read_text().replace("tau[0] =", "tau[0] = 1.0 +", 1))
    monkeypatch.setattr(sys.modules[__name__], "GENERATED", copy)
    monkeypatch.setattr(sys.modules[__name__], "UPDATE", False)
    with pytest.raises(AssertionError) as err:
        _check("planar2", tmp_path)
    assert "-    tau[0] = 1.0 + f0_2;\n+    tau[0] = f0_2;" in str(err.value)


def test_deterministic_across_hash_seeds(tmp_path):
    """Same input, same bytes, whatever PYTHONHASHSEED is."""
    outs = []
    for seed in ("0", "12345"):
        out = tmp_path / seed
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "soagen.cli.main", "generate", str(ROBOTS / "planar2.yaml"),
                        "--out", str(out), "-q"], check=True, env=env, capture_output=True)
        outs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outs[0] == outs[1] and len(outs[0]) == 7      # --lang all: .c .h .py _jax _torch _casadi manifest
