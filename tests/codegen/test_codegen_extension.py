"""`soagen build`: the generated C compiled into a CPython extension module. Results equal
the generic numpy reference for any leading batch shape; a single state broadcasts; out=;
conversions (lists, float32, non-contiguous); clear errors for bad shapes and arguments;
the CLI writes the module and its sources, or nothing."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen.cli.main import cli
from soagen.codegen.extension import build, load_extension, module_path
from soagen.codegen.robot import render
from tests.support.codegen import ROBOTS, batch_states, reference

pytestmark = pytest.mark.cc
from tests.support.accuracy import rel_err


@pytest.fixture(scope="module")
def planar(tmp_path_factory):
    """planar2, every function, built once: (robot, manifest, module)."""
    robot = soagen.load(ROBOTS / "planar2.yaml")
    res = render(robot, ROBOTS / "planar2.yaml", langs=("c", "python_ext"), batch=True, prefix="planar2_ext")
    out = tmp_path_factory.mktemp("ext")
    paths = build(res, out, ("-O2",))
    assert paths[-1] == module_path(out, "planar2_ext") and paths[-1].is_file()
    return robot, res.manifest, load_extension(paths[-1])


def _states(robot, shape, seed=0):
    return batch_states(robot, shape, np.random.default_rng(seed))


@pytest.mark.parametrize("shape", [(), (1,), (7,), (2, 3), (0,)])
def test_every_function_any_batch_shape(planar, shape):
    robot, manifest, mod = planar
    x = _states(robot, shape)
    for name, fn in manifest["functions"].items():
        got = getattr(mod, name)(*[x[a] for a in fn["inputs"]])
        assert isinstance(got, np.ndarray) and got.dtype == np.float64
        assert got.shape == (*shape, *fn["shape"])
        for idx in np.ndindex(*shape):
            want = reference(robot, name, {a: v[idx] for a, v in x.items()})
            assert rel_err(got[idx], want) <= 1e-12, (name, idx)


def test_one_state_broadcasts_out_and_conversions(planar):
    robot, _, mod = planar
    x = _states(robot, (5,), seed=1)
    want = mod.inverse_dynamics(x["q"], x["qd"], np.repeat(x["qdd"][:1], 5, axis=0))
    assert np.array_equal(mod.inverse_dynamics(x["q"], x["qd"], x["qdd"][0]), want)     # one state for all
    out = np.empty((5, robot.nv))
    assert mod.inverse_dynamics(x["q"], x["qd"], x["qdd"][0], out=out) is out and np.array_equal(out, want)
    lists = mod.mass_matrix(x["q"].tolist())
    assert np.array_equal(lists, mod.mass_matrix(x["q"]))
    strided = np.asfortranarray(x["q"])[::2]
    assert np.array_equal(mod.mass_matrix(strided), mod.mass_matrix(np.ascontiguousarray(x["q"][::2])))
    single = mod.mass_matrix(x["q"].astype(np.float32))
    assert single.dtype == np.float64 and rel_err(single, mod.mass_matrix(x["q"])) < 1e-6


@pytest.mark.parametrize("call,error,message", [
    (lambda m, q: m.mass_matrix(np.zeros((4, 3))), ValueError, "q must have shape (..., 2), got last dimension 3"),
    (lambda m, q: m.inverse_dynamics(q, q[:2], q), ValueError, "leading dimensions of qd differ"),
    (lambda m, q: m.inverse_dynamics(q, q), TypeError, "takes 3 positional arguments (q, qd, qdd) but 2 were given"),
    (lambda m, q: m.mass_matrix(q, output=q), TypeError, "unexpected keyword argument 'output'"),
    (lambda m, q: m.mass_matrix(q, out=np.empty((4, 2))), ValueError, "out must be a writable C-contiguous"),
    (lambda m, q: m.mass_matrix(np.zeros(())), ValueError, "q must have shape (..., 2), got a scalar"),
    (lambda m, q: m.mass_matrix("no"), ValueError, "could not convert"),
])
def test_bad_arguments_are_clear_errors(planar, call, error, message):
    _, _, mod = planar
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        call(mod, np.zeros((4, 2)))


def test_several_outputs_return_a_tuple(tmp_path):
    """A function with several outputs returns a tuple of arrays (out= takes a tuple), each
    equal to the generic derivatives."""
    from soagen import algorithms as A

    robot = soagen.load(ROBOTS / "planar2.yaml")
    res = render(robot, ROBOTS / "planar2.yaml", algorithms=["inverse_dynamics_derivatives"],
                 langs=("c", "python_ext"), batch=True, prefix="planar2_d")
    mod = load_extension(build(res, tmp_path, ("-O1",))[-1])
    x = _states(robot, (4,))
    dq, dqd = mod.inverse_dynamics_derivatives(x["q"], x["qd"], x["qdd"])
    assert dq.shape == dqd.shape == (4, 2, 2)
    for k in range(4):
        want = A.inverse_dynamics_derivatives(robot, x["q"][k], x["qd"][k], x["qdd"][k])
        assert rel_err(dq[k], want[0]) <= 1e-12 and rel_err(dqd[k], want[1]) <= 1e-12
    outs = (np.empty((4, 2, 2)), np.empty((4, 2, 2)))
    got = mod.inverse_dynamics_derivatives(x["q"], x["qd"], x["qdd"], out=outs)
    assert got[0] is outs[0] and got[1] is outs[1] and np.array_equal(outs[1], dqd)
    with pytest.raises(ValueError, match="out must be a tuple of 2 arrays"):
        mod.inverse_dynamics_derivatives(x["q"], x["qd"], x["qdd"], out=outs[0])


def test_threads_share_the_module(planar):
    """The GIL is released while a batch runs: batches in threads give the results of the
    same calls made one after another."""
    robot, _, mod = planar
    xs = [_states(robot, (3000,), seed=s) for s in range(4)]
    want = [mod.forward_dynamics(x["q"], x["qd"], x["tau"]) for x in xs]
    got = [None] * 4

    def work(k):
        got[k] = mod.forward_dynamics(xs[k]["q"], xs[k]["qd"], xs[k]["tau"])
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_module_attributes(planar):
    robot, _, mod = planar
    assert (mod.NQ, mod.NV) == (robot.nq, robot.nv) and mod.BATCH_WIDTH in (1, 2, 4, 8)
    assert mod.forward_dynamics.__doc__.startswith("joint accelerations")
    assert mod.forward_dynamics.__text_signature__ == "(q, qd, tau, out=None)"


def test_cli_build_writes_an_importable_module(tmp_path, monkeypatch):
    out = tmp_path / "built"
    r = CliRunner().invoke(cli, ["build", str(ROBOTS / "planar2.yaml"), "--out", str(out), "--name", "p2x",
                                 "--algorithms", "forward_dynamics", "--cflags", "-O1", "-q"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["p2x.c", "p2x.h", "p2x_module.c", "p2x_manifest.json", module_path(out, "p2x").name])
    monkeypatch.syspath_prepend(str(out))            # where the user imports it from, as the CLI says
    try:
        import p2x
        robot = soagen.load(ROBOTS / "planar2.yaml")
        x = _states(robot, (3,))
        assert rel_err(p2x.forward_dynamics(x["q"], x["qd"], x["tau"])[1],
                   reference(robot, "forward_dynamics", {a: v[1] for a, v in x.items()})) <= 1e-12
    finally:
        sys.modules.pop("p2x", None)
    assert "import p2x" in r.output


def test_cli_build_regenerate_command_reproduces_the_files(tmp_path, monkeypatch):
    """The regenerate command of the built sources is the `soagen build` command with the
    options that shaped the model (here --tip and --lock); run from the robot file's folder
    it writes the same sources."""
    import shlex

    out1, out2 = tmp_path / "a", tmp_path / "b"
    r = CliRunner().invoke(cli, ["build", str(ROBOTS / "arm6.yaml"), "--lock", "j6",
                                 "--tip", "wrist2", "--algorithms", "inverse_dynamics", "--name", "a6x",
                                 "--out", str(out1), "--cflags", "-O0", "-q"])
    assert r.exit_code == 0, r.output
    line = next(x for x in (out1 / "a6x.c").read_text().splitlines() if "regenerate with" in x)
    words = shlex.split(line.split("`")[1])
    assert words[:3] == ["soagen", "build", "arm6.yaml"]
    assert "--lock" in words and "--tip" in words, line
    monkeypatch.chdir(ROBOTS)
    r = CliRunner().invoke(cli, [*words[1:], "--out", str(out2), "--cflags", "-O0", "-q"])
    assert r.exit_code == 0, r.output
    for name in ("a6x.c", "a6x.h", "a6x_module.c"):
        assert (out2 / name).read_text() == (out1 / name).read_text(), name


def test_cli_build_failing_compiler_writes_nothing(tmp_path, monkeypatch):
    cc = tmp_path / "fake-cc"
    cc.write_text("#!/bin/sh\necho 'p2_module.c:1:1: error: no Python here' >&2\nexit 1\n")
    cc.chmod(0o755)
    monkeypatch.setenv("CC", str(cc))
    out = tmp_path / "built"
    r = CliRunner().invoke(cli, ["build", str(ROBOTS / "planar2.yaml"), "--out", str(out),
                                 "--algorithms", "mass_matrix", "-q"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "compiling the Python module" in r.output and "error: no Python here" in r.output
    assert not out.exists()


def test_bench_reports_every_output_per_state():
    """soagen bench: scalar and batched C, the module over batch sizes with its call
    overhead, JAX when installed; ns per state."""
    import importlib.util

    r = CliRunner().invoke(cli, ["bench", str(ROBOTS / "planar2.yaml"), "--algorithms", "forward_dynamics",
                                 "--no-numpy", "--no-pinocchio", "--no-torch", "--repeats", "3", "--iterations",
                                 "2000", "--cflags", "-O2", "-q"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "ns per state" in text and "C batch W=" in text and "batch x" in text and "Py module" in text
    assert "n = 100,000" in text and "Module call overhead" in text
    assert ("JAX" in text) == (importlib.util.find_spec("jax") is not None)
    row = next(line for line in r.output.splitlines() if line.strip().startswith("forward_dynamics"))
    assert len(row.split()) >= 6          # function, C, C loop, C batch, batch x, Py module (, JAX)
