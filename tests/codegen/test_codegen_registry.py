"""The registry of generated functions: one entry per function is all the generator,
the CLI help and the docs know of it.

To update the table of docs/codegen.md after an intended change:
SOAGEN_UPDATE_DOCS=1 python -m pytest tests/codegen/test_codegen_registry.py"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.codegen import registry
from soagen.codegen.compile import load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "codegen.md"
BEGIN, END = "<!-- registry: begin -->\n", "<!-- registry: end -->\n"


def test_the_docs_table_is_the_registry():
    text = DOCS.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    want = registry.markdown_table()
    if os.environ.get("SOAGEN_UPDATE_DOCS") == "1":
        DOCS.write_text(text[:start] + want + text[end:], encoding="utf-8")
    assert text[start:end] == want, "docs/codegen.md's function table is stale (SOAGEN_UPDATE_DOCS=1 to update)"
    for name in registry.ENTRIES:
        assert f"| `{name}` |" in want


def test_the_algorithms_help_names_every_entry():
    out = CliRunner().invoke(cli, ["generate", "--help"], terminal_width=400).output
    for name in registry.ENTRIES:
        assert name in out, name
    assert f"these {len(registry.DEFAULT)}" in out


def test_the_derived_groups_follow_the_entries():
    assert set(registry.DEFAULT) | set(registry.NAMED) == set(registry.ENTRIES)
    assert not set(registry.DEFAULT) & set(registry.NAMED)
    for name in registry.AT_A_FRAME + registry.OF_SEVERAL_FRAMES:
        assert registry.ENTRIES[name].frames in ("one", "several")
    fd = registry.ENTRIES["forward_dynamics"]
    assert fd.unrolled_variants() == ("fd1", "fd3", "fd4", "ldl") and fd.unrolled_variants("fd2") == ("fd2",)


def test_a_new_function_is_one_entry(tmp_path, monkeypatch):
    """An entry added to the registry (the gravity torques: RNE at rest) is generated,
    with its summary and equations in the code, and computes what its build says."""
    entry = registry.Entry("gravity_torques", ("q",), (("tau_g", "nv"),),
                           "joint torques that hold the robot's weight at rest",
                           lambda r, x, xp, v, f, c: A.bias_forces(r, x["q"], np.zeros(r.nv, dtype=object), xp=xp),
                           equations="Part I (3.23) at qd = 0", default=False)
    monkeypatch.setitem(registry.ENTRIES, entry.name, entry)
    robot = soagen.load("puma560")
    res = render(robot, None, algorithms=["gravity_torques"], langs=("python",), prefix="p")
    assert "joint torques that hold the robot's weight at rest" in res.files["p.py"]
    assert "Part I (3.23) at qd = 0" in res.files["p.py"]
    write(res, tmp_path)
    mod = load_python(tmp_path / "p.py")
    q = np.random.default_rng(3).uniform(-1, 1, robot.nq)
    got = np.asarray(mod.gravity_torques(list(q)))
    want = A.inverse_dynamics(robot, q, np.zeros(robot.nv), np.zeros(robot.nv))
    assert np.allclose(got, want, rtol=1e-12, atol=1e-12)


def test_an_entry_without_variants_records_none():
    robot = soagen.load("planar2")
    res = render(robot, None, algorithms=["mass_matrix", "forward_dynamics"], langs=("python",), prefix="p")
    records = res.manifest["functions"]
    assert "variant" not in records["mass_matrix"]
    assert records["forward_dynamics"]["variant"] in registry.ENTRIES["forward_dynamics"].variants
    assert set(records["forward_dynamics"]["candidates"]) <= set(registry.ENTRIES["forward_dynamics"].candidates)
    assert dataclasses.is_dataclass(registry.ENTRIES["mass_matrix"])
