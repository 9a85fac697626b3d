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


# --- the comma-list types, the load options, info --format json, whole tables -----------

@pytest.mark.parametrize("args,message", [
    (["--lang", "c,fortran"], "'fortran': choose from c, python, jax, torch, casadi, all"),
    (["--lang", ","], "an empty list"),
    (["--algorithms", " , "], "an empty list"),
])
def test_a_bad_comma_list_is_one_line_naming_the_word(tmp_path, args, message):
    r = run("generate", "planar2", *args, "--out", tmp_path / "o", "-q")
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "o").exists()


def test_comma_lists_split_expand_and_join():
    from soagen.cli.generate import LANG_LIST
    from soagen.cli.options import CommaList, joined

    assert LANG_LIST.convert("python, c,python", None, None) == ("python", "c")
    assert LANG_LIST.convert("all", None, None) == ("c", "python", "jax", "torch", "casadi")
    assert joined(None, None, (("a", "b"), ("b", "c*"))) == ("a", "b", "c*")
    assert CommaList(expand=lambda: {"all": ("x", "y")}).convert("y,all", None, None) == ("y", "x")


def test_repeated_and_comma_separated_locks_reach_the_model(tmp_path):
    """--lock a --lock b,c: one list; the generated file's regenerate command repeats it."""
    r = run("generate", "puma560", "--lock", "joint5", "--lock", "joint6=0.5,joint4", "--lang", "python",
            "--algorithms", "mass_matrix", "--out", tmp_path, "-q")
    assert r.exit_code == 0, r.output
    import json

    assert json.loads((tmp_path / "puma560_manifest.json").read_text())["nv"] == 3
    assert "--lock joint5,joint6=0.5,joint4" in (tmp_path / "puma560.py").read_text()


def test_load_options_reproduce_the_model():
    from soagen.cli.options import LoadOptions

    opts = LoadOptions(tip="link5", floating_base=True, lock=("joint6",), xacro_args=(("a", "b c"),))
    assert opts.args() == ("--tip", "link5", "--floating-base", "--lock", "joint6", "--xacro-arg", "'a:=b c'")
    from soagen.errors import RobotFileWarning

    with pytest.warns(RobotFileWarning, match="root_joint"):      # puma560's base link is massless
        model = LoadOptions(tip="link5", floating_base=True, lock=("joint6",)).load("puma560")
    assert model.nv == 5 + 6 and model.tip.name == "link5"
    assert opts.key()["xacro_args"] == [["a", "b c"]]


def test_frames_as_a_comma_list(tmp_path):
    r = run("generate", "puma560", "--frames", "link3, link6", "--algorithms", "jacobian", "--lang", "python",
            "--out", tmp_path, "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "puma560.py").read_text()
    assert "def jacobian_link3(" in text and "def jacobian_link6(" in text


def test_info_json_holds_what_the_table_shows():
    import json

    r = run("info", "flexarm2", "--format", "json")
    assert r.exit_code == 0, r.output
    f = json.loads(r.stdout)
    assert (f["name"], f["nq"], f["nv"], f["topology"]) == ("flexarm2", 8, 8, "serial chain")
    assert [(b["body"], b["joint"], b["type"], b["parent"], b["q"]) for b in f["bodies"]] == [
        ("upper", "shoulder", "revolute", "base", [0, 4]), ("fore", "elbow", "revolute", "upper", [4, 4])]
    model = soagen.load("flexarm2")
    assert f["total_mass"] == pytest.approx(model.total_mass) and f["tip"]["offset"] == [1.0, 0.0, 0.0]
    upper = f["flexible"][0]
    assert upper["modes"] == ["y1", "y2", "y3"] and upper["eta_q"] == [1, 3]
    assert upper["clamped_hz"][0] == pytest.approx(model.bodies[0].flex.frequencies[0] / (2 * 3.141592653589793))
    assert f["warnings"] == [] and f["hint"] is None
    table = run("info", "flexarm2").output
    assert all(f"{x:.4g}" in table for x in upper["clamped_hz"])        # the same numbers as the table


def test_info_json_carries_the_warnings_and_stderr_still_gets_them(tmp_path):
    import json

    from tests.support.robot_files import TYPO

    path = tmp_path / "typo.urdf"
    path.write_text(TYPO)
    r = run("info", path, "--format", "json")
    assert r.exit_code == 0
    (w,) = json.loads(r.stdout)["warnings"]
    assert w["element"] == "<joint name='b'>" and "<axiss>" in w["problem"]
    assert r.stderr.startswith("warning: ") and "<axiss>" in r.stderr


def test_info_json_of_a_system_file():
    import json

    r = run("info", "dual_arm_box", "--format", "json")
    assert r.exit_code == 0, r.output
    f = json.loads(r.stdout)
    assert f["kind"] == "system" and f["mobility"] == 6 and len(f["arms"]) == 2 and f["n"] == 12


def test_a_piped_table_never_drops_or_cuts_a_column(tmp_path, monkeypatch):
    """Long link names (a UR10 from a CAD export): piped, even with COLUMNS=200, every
    column is there whole ('mass (kg)', 'v'), at the table's natural width."""
    names = ["shoulder_link", "upper_arm_link", "forearm_link", "wrist_1_link", "wrist_2_link", "wrist_3_link"]
    joints = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint",
              "wrist_3_joint"]
    links = "".join(f'<link name="{n}"><inertial><mass value="{7.778 - k}"/><inertia ixx="0.03" iyy="0.03" '
                    f'izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>' for k, n in enumerate(names))
    chain = ["world"] + names
    js = "".join(f'<joint name="{j}" type="revolute"><parent link="{chain[k]}"/><child link="{chain[k + 1]}"/>'
                 f'<origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit effort="1" velocity="1"/></joint>'
                 for k, j in enumerate(joints))
    path = tmp_path / ("a_long_folder_name_" * 4) / "ur10_robot.urdf"
    path.parent.mkdir()
    path.write_text(f'<robot name="ur10"><link name="world"/>{links}{js}</robot>')
    monkeypatch.setenv("COLUMNS", "200")
    r = run("info", path)
    assert r.exit_code == 0, r.output
    header = next(line for line in r.output.splitlines() if "mass" in line)
    assert header.split() == ["#", "k", "body", "joint", "type", "axis", "parent", "mass", "(kg)", "q", "v"]
    assert str(path) in r.output                                   # the file's path whole, on its own line
    for j in joints:
        assert j in r.output


MASSLESS = """<robot name="hand"><link name="base"><inertial><mass value="1"/>
  <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="palm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>
  </inertial></link><link name="finger"/>
  <joint name="wrist" type="revolute"><parent link="base"/><child link="palm"/><axis xyz="0 0 1"/>
    <limit effort="1" velocity="1"/></joint>
  <joint name="finger_joint" type="revolute"><parent link="palm"/><child link="finger"/><origin xyz="0.1 0 0"/>
    <axis xyz="0 1 0"/><limit effort="1" velocity="1"/><axiss/></joint></robot>"""


@pytest.mark.parametrize("command", [["generate", "--algorithms", "forward_dynamics", "-q"],
                                     ["simulate", "--backend", "numpy", "-T", "0.01"]])
def test_an_error_for_the_reason_a_warning_gave_is_printed_once(tmp_path, command):
    """A massless moving link: the load warning (singular mass matrix) and the command's
    refusal said the same sentence; now the error line only (other warnings stay)."""
    path = tmp_path / "hand.urdf"
    path.write_text(MASSLESS)
    r = run(command[0], path, *command[1:], "--out", tmp_path / "o")
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert [line.split(": ")[0] for line in lines] == ["warning", "error"], lines      # <axiss>, then the error
    assert "<axiss>" in lines[0] and "finger_joint" in lines[1] and "singular" in lines[1]
    r = run("info", path)                       # the command succeeds: the warning, at its end
    assert r.exit_code == 0 and sum("mass matrix is singular" in line for line in r.stderr.splitlines()) == 1
