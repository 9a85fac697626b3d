"""Generated C (cc -O2, ctypes) and Python against the generic implementation at random
states: norm-wise relative error <= 1e-12 for every function.

Covered: revolute (planar2, PUMA, UR5), prismatic (Stanford arm), continuous (Kinova),
fixed joints merged and a branching tree (Panda with its fingers, tip = hand),
non-axis-aligned axes (random chains), and link parameters as inputs."""

import numpy as np
import pytest

import soagen
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, build, compare, random_states, reference
from tests.support.erd import erd

FAST = ["inverse_dynamics", "mass_matrix", "jacobian"]


pytestmark = pytest.mark.cc          # every test here compiles the generated C

def test_planar2_all_functions(tmp_path):
    path = ROBOTS / "planar2.yaml"
    robot = soagen.load(path)
    manifest, lib, py = build(robot, path, tmp_path)
    worst = compare(robot, manifest, lib, py, states=40)
    assert set(worst) == set(manifest["functions"]) and len(worst) == 8


def test_stanford_prismatic(tmp_path):
    path = ROBOTS / "stanford.yaml"
    robot = soagen.load(path)
    assert "prismatic" in {b.joint.kind for b in robot.bodies}
    compare(robot, *build(robot, path, tmp_path, algorithms=FAST + ["bias_forces"]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["stanford", "puma560", "arm6", "arm7"])
def test_bundled_all_functions_slow(name, tmp_path):
    path = ROBOTS / f"{name}.yaml"
    robot = soagen.load(path)
    compare(robot, *build(robot, path, tmp_path))


def _unaligned_chain(n, seed):
    robot = random_chain(n, np.random.default_rng(seed))
    assert {b.joint.kind for b in robot.bodies} == {"revolute", "prismatic"}
    assert any(np.count_nonzero(b.joint.axis) > 1 for b in robot.bodies)
    return robot


def test_random_chain_unaligned_axes_mixed_joints(tmp_path):
    """Non-axis-aligned revolute and prismatic axes, random placements and tip."""
    robot = _unaligned_chain(3, 7)
    compare(robot, *build(robot, None, tmp_path, fd_variant="fd3",
                          algorithms=["inverse_dynamics", "forward_dynamics", "jacobian"]))


@pytest.mark.slow
@pytest.mark.parametrize("n,seed", [(3, 7), (5, 11)])
def test_random_chain_all_functions(n, seed, tmp_path):
    robot = _unaligned_chain(n, seed)
    compare(robot, *build(robot, None, tmp_path), states=30)


@pytest.mark.parametrize("variant", ["fd1", "fd2", "fd3", "fd4", "ldl"])
def test_each_fd_variant(variant, tmp_path):
    robot = random_chain(2, np.random.default_rng(3))
    manifest, lib, py = build(robot, None, tmp_path, algorithms=["forward_dynamics"], fd_variant=variant)
    assert manifest["functions"]["forward_dynamics"]["variant"] == variant
    compare(robot, manifest, lib, py)


def test_the_cheapest_variant_is_kept(tmp_path):
    """Functions with several derivations: every candidate's counts in the manifest, the
    kept one has the fewest mul + add + div and its counts are the function's; the code is
    right. PUMA 560: the dense route through M wins for M^-1 and J M^-1 J^T at 6 dof."""
    path = ROBOTS / "puma560.yaml"
    robot = soagen.load(path)
    names = ["inverse_mass_matrix", "op_space_inverse_inertia", "forward_dynamics"]
    manifest, lib, py = build(robot, path, tmp_path, algorithms=names)
    for name in names:
        rec = manifest["functions"][name]
        cand = rec["candidates"]
        assert rec["variant"] == min(cand, key=lambda v: cand[v]["mul"] + cand[v]["add"] + cand[v]["div"])
        assert rec["ops"] == cand[rec["variant"]]
    assert set(manifest["functions"]["forward_dynamics"]["candidates"]) == {"fd1", "fd3", "fd4", "ldl"}
    assert manifest["functions"]["inverse_mass_matrix"]["variant"] == "ldl"
    compare(robot, manifest, lib, py)


def test_numpy_module_batched(tmp_path):
    path = ROBOTS / "stanford.yaml"
    robot = soagen.load(path)
    manifest, _, py = build(robot, path, tmp_path, algorithms=FAST, numpy=True)
    states = list(random_states(robot, 7))
    for name, fn in manifest["functions"].items():
        batch = [np.stack([s[i] for s in states]) for i in fn["inputs"]]
        got = py.__dict__[name](*batch)
        assert got.shape == (len(states), *fn["shape"])
        for k, s in enumerate(states):
            assert rel_err(got[k], reference(robot, name, s)) <= 1e-12, name
        one = py.__dict__[name](*[s for s in (states[0][i] for i in fn["inputs"])])
        assert one.shape == tuple(fn["shape"])


def test_symbolic_params_take_identified_parameters(tmp_path):
    """--symbolic-params takes the regressor's pi (Pinocchio's dynamic parameters): the
    model's own pi, and parameters identified by least squares on tau = Y pi from the
    numeric model's torques (only the base parameters are identifiable, so the estimate is
    another vector), give the numeric model's dynamics in the generated C and Python; the
    code has no division by a parameter (linear in pi); another pi gives other dynamics."""
    from soagen import algorithms as A

    robot = random_chain(4, np.random.default_rng(7))      # unaligned revolute / prismatic axes
    algorithms = ["inverse_dynamics", "mass_matrix", "forward_dynamics"]
    manifest, lib, py = build(robot, None, tmp_path, algorithms=algorithms, symbolic_params=True)
    assert manifest["symbolic_params"] and manifest["functions"]["mass_matrix"]["inputs"] == ["q", "params"]
    assert manifest["functions"]["inverse_dynamics"]["ops"]["div"] == 0
    pi = A.inertial_parameters(robot)
    Y, tau = [], []
    for s in random_states(robot, 30, seed=5):
        Y.append(A.regressor(robot, s["q"], s["qd"], s["qdd"]))
        tau.append(A.inverse_dynamics(robot, s["q"], s["qd"], s["qdd"]))
    identified = np.linalg.lstsq(np.vstack(Y), np.concatenate(tau), rcond=None)[0]
    assert rel_err(identified, pi) > 1e-3                   # not the model's own vector
    other = pi * np.repeat([1.0, 1.3, 0.8, 1.1], 10)        # each body's density scaled
    for args in random_states(robot, 10):
        for name, fn in manifest["functions"].items():
            ins = [args[i] for i in fn["inputs"] if i != "params"]
            want = reference(robot, name, args)
            for p in (pi, identified):      # measured <= 6e-15: round-off (the regressor's cond is ~40)
                assert rel_err(lib(name, *ins, p), want) <= 1e-12, name
                assert rel_err(np.array(py.__dict__[name](*ins, p), dtype=float), want) <= 1e-12, name
            assert rel_err(lib(name, *ins, other), want) > 1e-3, name


def _urdf(rel_path, tip=None):
    path = erd(rel_path)
    if path is None:
        pytest.skip(f"example-robot-data not installed ({rel_path})")
    return path, soagen.load(path, tip=tip)


@pytest.mark.oracle
def test_ur5(tmp_path):
    path, robot = _urdf("ur_description/urdf/ur5_robot.urdf")
    compare(robot, *build(robot, path, tmp_path, algorithms=FAST))


@pytest.mark.oracle
def test_kinova_continuous_joints(tmp_path):
    path, robot = _urdf("kinova_description/robots/kinova.urdf")
    assert any(b.joint.urdf_type == "continuous" for b in robot.bodies)
    compare(robot, *build(robot, path, tmp_path, algorithms=["inverse_dynamics", "jacobian"]))


@pytest.mark.oracle
def test_panda_tree_with_fixed_joints(tmp_path):
    """Panda: fixed joints (hand, link8) merged; two prismatic fingers make it a tree."""
    path, robot = _urdf("panda_description/urdf/panda.urdf", tip="panda_hand")
    assert not robot.is_chain
    compare(robot, *build(robot, path, tmp_path, algorithms=["inverse_dynamics", "jacobian"]))


@pytest.mark.slow
@pytest.mark.parametrize("rel_path,tip", [("ur_description/urdf/ur5_robot.urdf", None),
                                          ("kinova_description/robots/kinova.urdf", None),
                                          ("panda_description/urdf/panda.urdf", "panda_hand")])
def test_example_robot_data_all_functions(rel_path, tip, tmp_path):
    path, robot = _urdf(rel_path, tip)
    compare(robot, *build(robot, path, tmp_path), states=30)


@pytest.mark.parametrize("name", sorted(p.stem for p in ROBOTS.glob("*.yaml")))
def test_checked_in_generated_code(name, tmp_path):
    """The files in generated/<robot>/ (all eight functions, C and Python) against the
    generic implementation; cheap, since nothing is unrolled here."""
    import json
    import shutil

    from soagen.codegen.compile import load_c, load_python

    src = ROBOTS.parent / "generated" / name
    if not src.is_dir():
        pytest.fail(f"generated/{name} is missing (see test_codegen_generated.py)")
    for f in src.iterdir():
        shutil.copy(f, tmp_path)
    manifest = json.loads((tmp_path / f"{name}_manifest.json").read_text())
    robot = soagen.load(ROBOTS / f"{name}.yaml")
    assert (manifest["nq"], manifest["nv"]) == (robot.nq, robot.nv)
    lib = load_c(tmp_path, name, manifest)
    py = load_python(tmp_path / f"{name}.py", f"checked_in_{name}")
    worst = compare(robot, manifest, lib, py, states=20)
    assert len(worst) == 8
