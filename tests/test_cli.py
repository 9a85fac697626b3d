"""The command line shell: help texts, info, and the one-line error with exit code 2."""

from click.testing import CliRunner

from soagen.cli.main import COMMANDS, cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_help_lists_every_command():
    result = run("--help")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_every_command_has_help():
    for name in COMMANDS:
        result = run(name, "--help")
        assert result.exit_code == 0 and "Usage:" in result.output, name


def test_info_prints_model_table():
    result = run("info", "robots/stanford.yaml")
    assert result.exit_code == 0, result.output
    for text in ("stanford", "prismatic", "link6", "nq 6", "nv 6", "20.77"):
        assert text in result.output


def test_info_bad_file_exit_2_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("links: [{name: base}, {name: a, mass: -1, inertia: {ixx: 1, iyy: 1, izz: 1, ixy: 0, ixz: 0, iyz: 0}}]\n"
                   "joints: [{name: j, type: revolute, parent: base, child: a, axis: [0, 0, 1]}]\n")
    result = run("info", str(bad))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {bad}: link 'a': mass must be zero or positive, got -1"
    assert "Traceback" not in result.output


def test_cflags_default_is_the_fast_flags():
    """--cflags spells out compile.FAST_FLAGS (importing them would load SymPy for --help)."""
    from soagen.cli.bench import bench
    from soagen.cli.build import build
    from soagen.codegen.compile import FAST_FLAGS

    for command in (build, bench):
        option = next(p for p in command.params if p.name == "cflags")
        assert tuple(option.default.split()) == FAST_FLAGS, command.name
