"""CliRunner tests of `soagen generate` and `soagen bench`: happy paths and the user
errors (exit 2, one line, nothing written)."""

import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import soagen
from soagen.cli.main import cli
from tests.support.codegen import ROBOTS
from tests.support.erd import erd

PLANAR = str(ROBOTS / "planar2.yaml")


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_generate_all(tmp_path):
    r = run("generate", PLANAR, "--out", str(tmp_path / "out"), "--name", "pl", "-q")
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == ["pl.c", "pl.h", "pl.py", "pl_casadi.py", "pl_jax.py", "pl_manifest.json",     # --lang all
                     "pl_torch.py"]
    h = (tmp_path / "out" / "pl.h").read_text()
    assert "#define pl_NQ 2" in h and "#define pl_NV 2" in h
    assert "void pl_inverse_dynamics(const double* q, const double* qd, const double* qdd, double* tau);" in h
    assert "void pl_forward_dynamics(const double* q, const double* qd, const double* tau, double* qdd);" in h
    m = json.loads((tmp_path / "out" / "pl_manifest.json").read_text())
    assert m["soagen_version"] and len(m["input_sha256"]) == 64
    assert set(m["functions"]["inverse_dynamics"]["ops"]) == {"mul", "add", "div", "trig", "sqrt"}
    assert "inverse_dynamics" in r.output and "mul" in r.output


@pytest.mark.oracle
def test_regenerate_command_reproduces_the_model(tmp_path):
    """The header's regenerate command carries the options that shaped the model (--tip,
    --floating-base, --lock); run from the file's folder it gives the same bytes."""
    import os
    import shlex

    urdf = erd("ur_description/urdf/ur5_robot.urdf")
    if urdf is None:
        pytest.skip("needs example-robot-data (test extra)")
    out1, out2 = tmp_path / "a", tmp_path / "b"
    r = run("generate", str(urdf), "--floating-base", "--lock", "wrist_3_joint", "--tip", "wrist_2_link",
            "--algorithms", "inverse_dynamics", "--lang", "c", "--out", str(out1), "-q")
    assert r.exit_code == 0, r.output
    line = next(x for x in (out1 / "ur5.c").read_text().splitlines() if "regenerate with" in x)
    words = shlex.split(line.split("`")[1])
    assert words[:3] == ["soagen", "generate", urdf.name]
    for opt in ("--floating-base", "--lock", "--tip"):
        assert opt in words, line
    cwd = os.getcwd()
    os.chdir(urdf.parent)
    try:
        r = run(*words[1:], "--out", str(out2), "-q")
    finally:
        os.chdir(cwd)
    assert r.exit_code == 0, r.output
    assert (out2 / "ur5.c").read_text() == (out1 / "ur5.c").read_text()


def test_generate_c_only_selected_algorithms(tmp_path):
    r = run("generate", PLANAR, "--lang", "c", "--out", str(tmp_path), "--algorithms",
            "mass_matrix,forward_dynamics", "--fd-variant", "fd4", "-q")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["planar2.c", "planar2.h", "planar2_manifest.json"]
    c = (tmp_path / "planar2.c").read_text()
    assert "planar2_mass_matrix" in c and "planar2_forward_dynamics" in c and "planar2_jacobian" not in c
    assert "(FD4)" in c


def test_generate_numpy_and_symbolic_params(tmp_path):
    r = run("generate", PLANAR, "--lang", "python", "--numpy", "--symbolic-params", "--out",
            str(tmp_path), "--algorithms", "mass_matrix", "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "planar2.py").read_text()
    assert "import numpy as np" in text and "def mass_matrix(q, params):" in text
    assert "params[..., 0]" in text or "params[..., 10]" in text


@pytest.mark.parametrize("args,message", [
    (["generate", "nonexistent.yaml"], "no such file"),
    (["generate", PLANAR, "--algorithms", "inverse_dynamics,warp_drive"], "unknown algorithm 'warp_drive'"),
    (["generate", PLANAR, "--name", "9bad-name"], "must be a C identifier"),
])
def test_generate_user_errors(tmp_path, args, message):
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, args + ["--out", str(out), "-q"])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert not out.exists()


def test_generate_bad_robot_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nlinks: [{name: base}, {name: l1, mass: -1}]\njoints: []\n")
    r = CliRunner().invoke(cli, ["generate", str(bad), "--out", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 2 and "bad.yaml" in r.output
    assert not (tmp_path / "out").exists()


def test_generate_unwritable_output(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = CliRunner().invoke(cli, ["generate", PLANAR, "--out", str(blocker / "sub"), "-q",
                                 "--algorithms", "jacobian"])
    assert r.exit_code == 2 and "--out" in r.output and "cannot create" in r.output
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        r = CliRunner().invoke(cli, ["generate", PLANAR, "--out", str(ro), "-q", "--algorithms", "jacobian"])
        import os
        if os.access(ro, os.W_OK):       # running as root: permissions do not bind
            pytest.skip("directory permissions are not enforced for this user")
        assert r.exit_code == 2 and "not a writable directory" in r.output
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o700)


@pytest.mark.cc
def test_bench_smoke():
    r = run("bench", PLANAR, "--no-numpy", "--no-pinocchio", "--no-jax", "--no-torch", "--repeats", "1",
            "--iterations", "200",
            "--algorithms", "inverse_dynamics,forward_dynamics", "--cflags", "-O2", "-q")
    assert r.exit_code == 0, r.output
    assert "inverse_dynamics" in r.output and "Lilly-Orin" in r.output and "Featherstone" in r.output
    assert "ns per state" in r.output
    assert max(len(line) for line in r.output.splitlines()) <= 100      # piped: 100 columns
    assert "…" not in r.output and "forward_dynamics " in r.output       # nothing cut
    from soagen.bench.gpu import visible_gpus

    if visible_gpus()[0]:
        assert "GPU: states per second" in r.output
    else:                                   # this machine: the section says why it is skipped
        assert "GPU: no GPU is visible (JAX" in r.output and "the GPU section is skipped" in r.output
    quiet = run("bench", PLANAR, "--no-numpy", "--no-pinocchio", "--no-jax", "--no-torch", "--no-gpu",
                "--repeats", "1", "--iterations", "200", "--algorithms", "inverse_dynamics", "--cflags", "-O2", "-q")
    assert quiet.exit_code == 0 and "GPU" not in quiet.output


def test_gpu_section_code_path_on_the_cpu():
    """The GPU section's timing code, run on JAX's CPU device (the path a GPU takes): one
    row per function and size, positive rates, and the bound = copy bandwidth / bytes in and
    out per state (UR5-sized planar2: q, qd, qdd/tau and tau/qdd of 2 entries: 64 bytes)."""
    jax = pytest.importorskip("jax", reason="JAX (test extra) runs the section's code path on its CPU device")
    from soagen.bench.gpu import GpuDevice, bytes_per_state
    from soagen.bench.robot import gpu_section

    robot = soagen.load(PLANAR)
    res, note = gpu_section(robot, PLANAR, (), devices=[GpuDevice("jax", "cpu", jax.devices("cpu")[0])],
                            sizes=(10, 1000))
    assert [(r.function, r.n) for r in res.rows] == [("inverse_dynamics", 10), ("inverse_dynamics", 1000),
                                                     ("forward_dynamics", 10), ("forward_dynamics", 1000)]
    assert all(r.states_per_s > 0 for r in res.rows)
    bw = res.bandwidth["cpu"]
    assert bw > 0 and all(r.bound_states_per_s == bw / 64 for r in res.rows)
    assert "copy bandwidth" in note
    from soagen.codegen.functions import generate_function

    assert bytes_per_state(generate_function(robot, "inverse_dynamics"), SimpleNamespace(nq=2, nv=2, params=())) == 64


@pytest.mark.cc
@pytest.mark.oracle
def test_bench_with_pinocchio():
    pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
    path = erd("ur_description/urdf/ur5_robot.urdf")
    if path is None:
        pytest.skip("example-robot-data not installed")
    r = run("bench", str(path), "--repeats", "3", "--iterations", "2000", "--algorithms",
            "inverse_dynamics", "--no-jax", "--no-torch", "-q")
    assert r.exit_code == 0, r.output
    assert "rnea" in r.output and "binding overhead" in r.output


def test_bench_unknown_algorithm():
    r = CliRunner().invoke(cli, ["bench", PLANAR, "--algorithms", "nope", "-q"])
    assert r.exit_code == 2 and "unknown algorithm 'nope'" in r.output


def test_compiler_errors_are_one_line_with_a_log(tmp_path, monkeypatch):
    """A compiler that fails with several lines of diagnostics: `soagen bench` says so in
    one line (the first error line and where the full log is), exit 2; the log holds it all."""
    cc = tmp_path / "fake-cc"
    cc.write_text("#!/bin/sh\necho 'In function main:' >&2\necho 'bench_main.c:3:1: error: boom' >&2\n"
                  "echo '    3 | int x = ;' >&2\nexit 1\n")
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))      # the log lands here
    r = CliRunner().invoke(cli, ["bench", PLANAR, "--no-numpy", "--no-pinocchio", "--algorithms",
                                 "inverse_dynamics", "-q"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "compiling the benchmark" in r.output and "error: boom" in r.output
    log = r.output.strip().rsplit("full log: ", 1)[1].rstrip(")")
    assert Path(log).parent == tmp_path
    text = open(log).read()
    assert "In function main:" in text and "int x = ;" in text and str(cc) in text
