"""Simulation at generated speed: `soagen simulate` on the generated, compiled code gives
the trajectory of the numpy reference (closed-chain systems and robots, every
stabilization), the hold controller holds (a system at rest, the object's weight
included; a robot), and the CLI runs both kinds of model with clear errors.
Steps per second are measured by benchmarks/simulate_bench.py, not here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import load_system
from soagen.cli.main import cli
from soagen.codegen import cache
from soagen.simulation.closed_chain import GeneratedDynamics, Simulator
from soagen.simulation.robot import (
    GeneratedRobotDynamics,
    RobotSimulator,
    tip_positions,
)
from soagen.simulation.robot_plots import orientation_error
from tests.support.accuracy import rel_err

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = REPO / "robots" / "systems"
GENERATED = REPO / "generated" / "systems"


def _largest_difference(a, b, fields):
    """The largest relative error (rel_err: shapes checked) over the trajectories' fields."""
    return max(rel_err(getattr(a, f), getattr(b, f)) for f in fields)


@pytest.fixture(scope="module")
def dual_arm(tmp_path_factory):
    """The dual-arm box and its checked-in generated code, compiled once."""
    s = load_system(SYSTEMS / "dual_arm_box.yaml")
    lib = cache.from_folder(GENERATED / "dual_arm_box", flags=("-O1",), build_dir=tmp_path_factory.mktemp("dab"))
    return s, lib


@pytest.mark.parametrize("stabilization", ["projection", "baumgarte", "none"])
@pytest.mark.cc
def test_generated_backend_gives_the_numpy_trajectory(dual_arm, stabilization):
    """The generated C (Lilly-Orin Table 1 unrolled, closure constraints, gravity) against
    the numpy reference method rccfd1, every stabilization: the same trajectory to 1e-11
    relative (observed 6e-14 over 10 steps)."""
    s, lib = dual_arm
    gen = Simulator(s, stabilization=stabilization, dynamics=GeneratedDynamics(s, lib)).run(0.02, 0.002, seed=2)
    ref = Simulator(s, "rccfd1", stabilization).run(0.02, 0.002, seed=2)
    assert _largest_difference(gen, ref, ("q", "qd", "p_C", "quat_C", "V_C")) < 1e-11
    # closure errors of 1e-12..1e-10 m, the same to round-off (measured 2e-16 m)
    assert np.abs(gen.err_pos - ref.err_pos).max() < 1e-13 and np.all(np.abs(gen.q - gen.q[0]).max(axis=1) < 0.1)


@pytest.mark.cc
def test_hold_holds_the_object_at_rest(dual_arm):
    """At rest at a closed state the pd controller (gravity of the arms and of the object
    through the grasps, plus PD) gives zero accelerations: nothing moves. Holding only the
    arms' weight, the object would sag by its weight over the PD stiffness (millimetres)."""
    s, lib = dual_arm
    tr = Simulator(s, dynamics=GeneratedDynamics(s, lib)).run(0.1, 0.002, speed=0.0)
    assert np.abs(tr.p_C - tr.p_C[0]).max() < 1e-9 and np.abs(tr.q - tr.q[0]).max() < 1e-9
    assert np.degrees(orientation_error(tr.quat_C)).max() < 1e-7
    sim = Simulator(s, "lilly_orin", "none")
    x = sim.initial_state(0, speed=0.0)
    c, G = sim.constraints(x)
    d = sim.derivative(x, sim.torque(x, G))
    assert np.abs(d).max() < 1e-9


@pytest.mark.cc
def test_hold_settles_the_objects_position_and_orientation(dual_arm, monkeypatch):
    """Started with random joint rates, the held object comes back to its start pose in
    position and orientation (critically damped at w_c = 10 rad/s: about 0.2 degrees,
    gone within a second). The joint PD alone, scaled by each arm's own inertia, leaves
    the object's rotation nearly undamped: still degrees off after 1.6 s."""
    s, lib = dual_arm

    def run():
        return Simulator(s, dynamics=GeneratedDynamics(s, lib)).run(1.6, 0.004, seed=0)

    tr = run()
    angle = np.degrees(orientation_error(tr.quat_C))
    last = tr.t > 1.4
    assert angle.max() > 0.05 and angle[last].max() < 1e-3, (angle.max(), angle[last].max())
    assert np.abs(tr.p_C[last] - tr.p_C[0]).max() < 1e-6
    monkeypatch.setattr(Simulator, "object_pd", lambda self, p, quat, V: np.zeros(6))     # the joint PD only
    assert np.degrees(orientation_error(run().quat_C))[last].max() > 1.0


@pytest.mark.cc
def test_generated_code_must_fit_the_model(dual_arm, tmp_path):
    from soagen.errors import SoagenError

    _, lib = dual_arm
    other = load_system(SYSTEMS / "three_arm_point_contacts.yaml")
    with pytest.raises(SoagenError, match="does not fit"):
        GeneratedDynamics(other, lib)
    with pytest.raises(SoagenError, match="another version"):
        GeneratedDynamics.for_system(other, SYSTEMS / "three_arm_point_contacts.yaml", code=GENERATED / "dual_arm_box")


@pytest.fixture(scope="module")
def planar():
    path = REPO / "robots" / "planar2.yaml"
    robot = soagen.load(path)
    return robot, path, GeneratedRobotDynamics.for_robot(robot, path)


@pytest.mark.parametrize("controller", ["pd", "zero"])
@pytest.mark.cc
def test_robot_generated_backend_gives_the_numpy_trajectory(planar, controller):
    robot, _, dyn = planar
    gen = RobotSimulator(robot, controller, dyn).run(0.1, 0.002)
    ref = RobotSimulator(robot, controller).run(0.1, 0.002)
    assert _largest_difference(gen, ref, ("q", "v", "tau")) < 1e-11     # round-off, as above
    moved = np.abs(gen.q[-1] - gen.q[0]).max()
    assert (moved < 0.2) if controller == "pd" else (moved > 0.05)       # it holds, or it falls


@pytest.mark.cc
def test_robot_hold_at_rest_and_the_cache(planar, compiled_code_cache):
    """Gravity compensation plus PD keeps a robot at rest exactly; the compiled code is
    reused from the cache (no second generation)."""
    robot, path, dyn = planar
    tr = RobotSimulator(robot, "pd", dyn).run(0.2, 0.002, speed=0.0)
    tip = tip_positions(robot, tr.q)
    assert np.abs(tip - tip[0]).max() < 1e-12
    entries = list(Path(compiled_code_cache).glob("planar2-*"))
    calls = []
    GeneratedRobotDynamics.for_robot(robot, path, announce=lambda: calls.append(1))
    assert len(entries) == 1 and calls == []


def test_robot_on_a_floating_base_moves_on_its_manifold():
    """With base="free" a free joint is integrated on SE(3) (unit quaternion kept) and not
    actuated: started at rest, the robot falls as one rigid body, its base by g t^2 / 2,
    the joints held."""
    from soagen.oracles.pinocchio import example_robot_data_dir

    erd = example_robot_data_dir()
    if erd is None:
        pytest.skip("example-robot-data not installed (the bundled YAML robots have a massless base)")
    robot = soagen.load(erd / "ur_description/urdf/ur5_robot.urdf", floating_base=True)
    tr = RobotSimulator(robot, "pd", base="free").run(0.1, 0.005, speed=0.0)
    assert rel_err(np.linalg.norm(tr.q[:, 3:7], axis=1), np.ones(len(tr.q))) < 1e-14   # unit, to a few ulp
    assert np.abs(tr.q[:, 7:] - tr.q[0, 7:]).max() < 1e-9 and np.abs(tr.q[:, 3:7] - tr.q[0, 3:7]).max() < 1e-9
    # RK4 integrates a constant acceleration exactly: round-off only
    assert rel_err(tr.q[-1, :3] - tr.q[0, :3], 0.5 * robot.gravity * 0.1 ** 2) < 1e-12


@pytest.mark.cc
def test_cli_simulate_robot_generated(tmp_path):
    out = tmp_path / "sim"
    r = CliRunner().invoke(cli, ["simulate", str(REPO / "robots" / "planar2.yaml"), "--backend", "generated",
                                 "-T", "0.02", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["energy.png", "joint_angles.png", "tip_deviation.png",
                                                     "trajectory.csv", "trajectory.npz"]
    assert "generated backend" in r.output and "steps/s" in r.output and "energy balance" in r.output
    assert (out / "trajectory.csv").read_text().splitlines()[0] == \
        "t,q[shoulder],q[elbow],tip.x,tip.y,tip.z,T,U,E,W_tau,W_d"


@pytest.mark.cc
@pytest.mark.slow
def test_cli_simulate_system_with_checked_in_code(tmp_path):
    out = tmp_path / "sim"
    r = CliRunner().invoke(cli, ["simulate", str(SYSTEMS / "dual_arm_box.yaml"), "--backend", "generated",
                                 "--code", str(GENERATED / "dual_arm_box"), "-T", "0.004", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "lilly_orin (generated C)" in r.output
    data = np.load(out / "trajectory.npz")
    assert data["violation"].shape == (3, 4)


@pytest.mark.parametrize("args,message", [
    (["robots/planar2.yaml", "--method", "dense"], "--method: only for system files"),
    (["robots/planar2.yaml", "--backend", "numpy", "--code", "generated/planar2"], "--code: only with --backend generated"),
    (["robots/systems/dual_arm_box.yaml", "--backend", "generated", "--method", "dense"], "is for --backend numpy"),
    (["robots/systems/dual_arm_box.yaml", "--tip", "x"], "--tip: only for robot files"),
    (["robots/planar2.yaml", "--backend", "generated", "--code", "generated/puma560"], "another version"),
])
@pytest.mark.cc
def test_cli_simulate_errors(tmp_path, args, message):
    args[0] = str(REPO / args[0])
    args = [str(REPO / a) if a.startswith("generated/") else a for a in args]
    r = CliRunner().invoke(cli, ["simulate", *args, "--out", str(tmp_path / "o"), "-T", "0.01"])
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output
    assert not (tmp_path / "o").exists()
