"""`soagen generate --lang jax` / `--lang torch`: the straight-line code on JAX arrays and
PyTorch tensors with any leading batch shape, against the generic numpy reference; float64
by default, float32 on request; jit / compile and automatic differentiation through it
(d tau / d qdd of inverse dynamics is the generated mass matrix)."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
from soagen.codegen.compile import load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, batch_states, reference

pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script.*` is deprecated:DeprecationWarning")
ALGOS = ["inverse_dynamics", "mass_matrix", "forward_dynamics", "jacobian"]


class _Modules(dict):
    def __init__(self, factory):
        super().__init__()
        self.factory = factory

    def __missing__(self, name):
        robot = soagen.load(ROBOTS / f"{name}.yaml")
        res = render(robot, ROBOTS / f"{name}.yaml", algorithms=ALGOS, langs=("jax", "torch"),
                     fd_variant="fd3", prefix=name)
        tmp = self.factory.mktemp(name)
        write(res, tmp)
        assert sorted(res.files) == sorted([f"{name}_jax.py", f"{name}_torch.py", f"{name}_manifest.json"])
        self[name] = (robot, res.manifest, {lang: tmp / f"{name}_{lang}.py" for lang in ("jax", "torch")})
        return self[name]


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    """planar2, flexbeam or PUMA 560 in both languages, generated on first use:
    {robot: (model, manifest, {lang: module path})}."""
    return _Modules(tmp_path_factory)


ROBOT_NAMES = ["planar2", "flexbeam", pytest.param("puma560", marks=pytest.mark.slow)]   # flexbeam: modal q


def _states(robot, shape, seed=0):
    return batch_states(robot, shape, np.random.default_rng(seed))


def _against_reference(robot, manifest, call, to_numpy, shape=(2, 3)):
    x = _states(robot, shape)
    for name, fn in manifest["functions"].items():
        got = to_numpy(call(name, *[x[a] for a in fn["inputs"]]))
        assert got.shape == (*shape, *fn["shape"]) and got.dtype == np.float64
        for idx in np.ndindex(*shape):
            want = reference(robot, name, {a: v[idx] for a, v in x.items()})
            assert rel_err(got[idx], want) <= 1e-12, (robot.name, name, idx)


@pytest.mark.parametrize("robot_name", ROBOT_NAMES)
def test_jax_matches_the_reference(modules, robot_name):
    jax = pytest.importorskip("jax", reason="the JAX output is tested where jax is installed (test extra)")
    robot, manifest, paths = modules[robot_name]
    mod = load_python(paths["jax"], f"gen_{robot_name}_jax")
    _against_reference(robot, manifest, lambda n, *a: getattr(mod, n)(*a), np.asarray)
    fd = jax.jit(mod.forward_dynamics)
    x = _states(robot, (4,), seed=1)
    for k in range(4):
        want = reference(robot, "forward_dynamics", {a: v[k] for a, v in x.items()})
        assert rel_err(np.asarray(fd(x["q"], x["qd"], x["tau"]))[k], want) <= 1e-12


@pytest.mark.parametrize("robot_name", ROBOT_NAMES)
def test_torch_matches_the_reference(modules, robot_name):
    pytest.importorskip("torch", reason="the PyTorch output is tested where torch is installed "
                                        "(its default wheel pulls GPU libraries, so it is not a test extra)")
    robot, manifest, paths = modules[robot_name]
    mod = load_python(paths["torch"], f"gen_{robot_name}_torch")
    _against_reference(robot, manifest, lambda n, *a: getattr(mod, n)(*a), lambda t: t.numpy())


@pytest.mark.parametrize("robot_name", ROBOT_NAMES)
def test_jax_broadcasting_float32_and_derivatives(modules, robot_name):
    jax = pytest.importorskip("jax", reason="the JAX output is tested where jax is installed (test extra)")
    import jax.numpy as jnp

    robot, manifest, paths = modules[robot_name]
    mod = load_python(paths["jax"], f"gen_{robot_name}_jax_ad")
    x = _states(robot, (5,), seed=2)
    tau = np.asarray(mod.inverse_dynamics(x["q"], x["qd"][0], x["qdd"][:1]))    # (5,), (), (1,) broadcast
    assert tau.shape == (5, robot.nv)
    assert rel_err(tau[3], reference(robot, "inverse_dynamics", {"q": x["q"][3], "qd": x["qd"][0],
                                                             "qdd": x["qdd"][0]})) <= 1e-12
    single = mod.forward_dynamics(x["q"], x["qd"], x["tau"], dtype=jnp.float32)
    assert single.dtype == jnp.float32
    assert rel_err(np.asarray(single), np.asarray(mod.forward_dynamics(x["q"], x["qd"], x["tau"]))) < 1e-4
    dtau = jax.jacfwd(mod.inverse_dynamics, argnums=2)(x["q"][0], x["qd"][0], x["qdd"][0])
    assert rel_err(np.asarray(dtau), np.asarray(mod.mass_matrix(x["q"][0]))) <= 1e-12


@pytest.mark.parametrize("robot_name", ROBOT_NAMES)
def test_torch_broadcasting_float32_and_derivatives(modules, robot_name):
    torch = pytest.importorskip("torch", reason="the PyTorch output is tested where torch is installed")
    robot, manifest, paths = modules[robot_name]
    mod = load_python(paths["torch"], f"gen_{robot_name}_torch_ad")
    x = _states(robot, (5,), seed=2)
    tau = mod.inverse_dynamics(x["q"], x["qd"][0], x["qdd"][:1])
    assert tuple(tau.shape) == (5, robot.nv)
    single = mod.forward_dynamics(x["q"], x["qd"], x["tau"], dtype=torch.float32)
    assert single.dtype == torch.float32
    assert rel_err(single.numpy(), mod.forward_dynamics(x["q"], x["qd"], x["tau"]).numpy()) < 1e-4
    args = [torch.as_tensor(x[a][0]) for a in ("q", "qd", "qdd")]
    dtau = torch.func.jacfwd(mod.inverse_dynamics, argnums=2)(*args)
    assert rel_err(dtau.numpy(), mod.mass_matrix(args[0]).numpy()) <= 1e-12


@pytest.mark.slow
def test_torch_compile(modules):
    """torch.compile (inductor, fullgraph: no graph breaks) gives the eager result."""
    torch = pytest.importorskip("torch", reason="the PyTorch output is tested where torch is installed")
    robot, manifest, paths = modules["planar2"]
    mod = load_python(paths["torch"], "gen_planar_torch_compile")
    x = {k: torch.as_tensor(v) for k, v in _states(robot, (64,)).items()}
    compiled = torch.compile(mod.forward_dynamics, fullgraph=True)
    assert rel_err(compiled(x["q"], x["qd"], x["tau"]).numpy(),
               mod.forward_dynamics(x["q"], x["qd"], x["tau"]).numpy()) <= 1e-13


def test_several_outputs_are_a_tuple(tmp_path):
    """A function with several outputs returns a tuple, each entry with the batch shape."""
    pytest.importorskip("jax", reason="the JAX output is tested where jax is installed (test extra)")
    from soagen import algorithms as A

    robot = soagen.load(ROBOTS / "planar2.yaml")
    res = render(robot, ROBOTS / "planar2.yaml", algorithms=["forward_dynamics_derivatives"], langs=("jax",),
                 prefix="p2d")
    write(res, tmp_path)
    mod = load_python(tmp_path / "p2d_jax.py", "gen_p2d_jax")
    x = _states(robot, (3,))
    got = mod.forward_dynamics_derivatives(x["q"], x["qd"], x["tau"])
    assert len(got) == 3 and all(g.shape == (3, 2, 2) for g in got)
    want = A.forward_dynamics_derivatives(robot, x["q"][1], x["qd"][1], x["tau"][1])
    for g, w in zip(got, want):
        assert rel_err(np.asarray(g)[1], w) <= 1e-12


def test_cli_lang_jax_torch(tmp_path):
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--lang", "jax,torch",
                                 "--algorithms", "mass_matrix", "--out", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["planar2_jax.py", "planar2_manifest.json",
                                                          "planar2_torch.py"]
    text = (tmp_path / "planar2_jax.py").read_text()
    assert "def mass_matrix(q, dtype=DEFAULT_DTYPE):" in text and "jnp.cos(q[..., 1])" in text
    assert "--lang jax,torch" in text.splitlines()[1]
    r = CliRunner().invoke(cli, ["generate", str(ROBOTS / "planar2.yaml"), "--lang", "c,fortran",
                                 "--out", str(tmp_path / "x"), "-q"])
    assert r.exit_code == 2 and "fortran" in r.output and not (tmp_path / "x").exists()
