"""The command line's shared options (soagen/cli/options.py): one dispatch between robot
and system files for every command, options detected by click's parameter source (an
explicit default counts as given), bundled systems by name, --lang all (every language), --algorithms
all,EXTRA, --out refused before any work, and tables that fit 100 columns."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import soagen
from soagen.cli.main import cli

PLANAR = "robots/planar2.yaml"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_bundled_system_is_named_without_a_path(tmp_path):
    r = run("info", "dual_arm_box")
    assert r.exit_code == 0, r.output
    assert "rigid at O1" in r.output and "mobility n + 6 - 12 = 6" in r.output
    s = soagen.load_system("dual_arm_box")
    assert s.name == "dual_arm_box" and s.n == 12
    r = run("simulate", "dual_arm_box", "--duration", "0.01", "--dt", "0.005", "--backend", "numpy",
            "--out", tmp_path / "sim")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "sim" / "object_pose.png").is_file()


def test_an_unknown_name_lists_the_bundled_robots_and_systems():
    r = run("info", "nowhere")
    assert r.exit_code == 2 and "puma560" in r.output and "dual_arm_box" in r.output
    assert len(r.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["generate", "build", "bench"])
@pytest.mark.parametrize("option", [["--algorithms", "all"], ["--fd-variant", "best"], ["--tip", "x"]])
def test_a_robot_option_on_a_system_file_is_refused_even_at_its_default(tmp_path, command, option):
    """Given explicitly, an option counts whatever its value (click's parameter source, not
    a comparison with the default), in every command that takes both kinds of file."""
    r = run(command, "dual_arm_box", *option, *(["--out", tmp_path / "o"] if command != "bench" else ["-q"]))
    assert r.exit_code == 2, r.output
    assert r.output.strip() == f"error: dual_arm_box: {option[0]}: only for robot files, not for a system file"
    assert not (tmp_path / "o").exists()


def test_every_option_given_is_named_in_one_line():
    r = run("generate", "robots/systems/dual_arm_box.yaml", "--numpy", "--frames", "a", "--lock", "j1", "-q")
    assert r.exit_code == 2
    assert "only for robot files" in r.output and all(o in r.output for o in ("--lock", "--numpy", "--frames"))
    assert len(r.output.strip().splitlines()) == 1


def test_a_system_option_on_a_robot_file_is_refused_even_at_its_default(tmp_path):
    r = run("simulate", PLANAR, "--method", "rccfd1", "--out", tmp_path / "o")
    assert r.exit_code == 2 and "--method: only for system files" in r.output
    assert not (tmp_path / "o").exists()


def test_lang_all_writes_every_language(tmp_path):
    r = run("generate", "planar2", "--algorithms", "mass_matrix", "--out", tmp_path, "-q")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "planar2.c", "planar2.h", "planar2.py", "planar2_casadi.py", "planar2_jax.py", "planar2_manifest.json",
        "planar2_torch.py"]


def test_algorithms_all_combines_with_more(tmp_path):
    from soagen.cli.generate import parse_algorithms
    from soagen.codegen.registry import DEFAULT

    assert parse_algorithms("all,inverse_dynamics_derivatives") == [*DEFAULT, "inverse_dynamics_derivatives"]
    assert sorted(parse_algorithms("mass_matrix,all")) == sorted(DEFAULT)      # each once
    r = run("generate", "planar2", "--algorithms", "all,regressor", "--lang", "python", "--out", tmp_path, "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "planar2.py").read_text()
    assert "def regressor(" in text and "def forward_dynamics(" in text


def test_generate_help_says_what_robot_can_be():
    text = " ".join(run("generate", "--help").output.split())
    for form in (".yaml", ".urdf", "xacro", "MJCF", "bundled robot", "system file"):
        assert form in text, form


@pytest.mark.skipif(not sys.platform.startswith("linux") or not Path("/proc/self").exists(),
                    reason="needs Linux's /proc and /sys")
@pytest.mark.parametrize("out", ["/proc/soagen-test", "/proc", "/sys/soagen-test/sub"])
def test_out_in_a_pseudo_filesystem_is_refused_before_any_work(monkeypatch, out):
    """Permission bits say /proc is writable for root; it takes no new files. One line,
    exit 2, before anything is unrolled, and the first line is the error."""
    import soagen.codegen.robot

    monkeypatch.setattr(soagen.codegen.robot, "render", lambda *a, **k: pytest.fail("generated before --out"))
    r = run("generate", "puma560", "--out", out)
    assert r.exit_code == 2, r.output
    lines = r.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --out {out}: "), r.output


def test_no_progress_bar_and_no_blank_line_when_piped(tmp_path):
    """Without -q and not on a terminal: stderr stays empty (rich's transient bar used to
    leave a blank line there, before any error)."""
    r = run("generate", "planar2", "--algorithms", "mass_matrix", "--lang", "c", "--out", tmp_path)
    assert r.exit_code == 0 and r.stderr == "", repr(r.stderr)
    assert r.stdout.splitlines()[0].startswith("mass_matrix")


def test_tables_fit_100_columns_with_whole_names():
    from rich.console import Console

    from soagen.cli.tables import WIDTH, table

    names = ["op_space_inverse_inertia", "forward_dynamics_derivatives"]
    rows = [[n, "1,234,567", "12,345", "a long note that has to wrap somewhere", "16496x"] for n in names]
    con = Console(width=WIDTH, record=True, file=open("/dev/null", "w"))
    con.print(table("t", [("function", "name"), ("a", "number"), ("b", "number"), ("note", "text"),
                          ("ratio", "number")], rows))
    text = con.export_text()
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    for n in names + ["1,234,567", "16496x"]:
        assert n in text
    assert "…" not in text


def test_info_hints_floating_base_for_a_legged_file(tmp_path):
    legs = "".join(f"""
  <link name="{s}_thigh"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="{s}_foot"/>
  <joint name="{s}_hip" type="revolute"><parent link="trunk"/><child link="{s}_thigh"/>
    <origin xyz="0 {y} 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="{s}_foot_fixed" type="fixed"><parent link="{s}_thigh"/><child link="{s}_foot"/><origin xyz="0 0 -0.3"/></joint>"""
                   for s, y in (("left", 0.1), ("right", -0.1)))
    f = tmp_path / "biped.urdf"
    f.write_text(f"""<robot name="biped"><link name="trunk"><inertial><mass value="5"/>
  <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>{legs}</robot>""")
    r = run("info", f)
    assert r.exit_code == 0, r.output
    words = " ".join(r.output.split())                 # the hint wraps at 100 columns
    hint = words[words.find("hint:"):]
    assert "hint:" in words and "left_foot, right_foot" in hint and "--floating-base adds" in hint, r.output
    assert "hint:" not in run("info", f, "--floating-base").output
    assert "hint:" not in run("info", "puma560").output
