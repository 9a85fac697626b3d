"""`soagen simulate` and the integrator: files written, constraint drift bounded by the
stabilization, one-line errors with nothing written."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.simulation.closed_chain import Simulator, simulate
from tests.support.accuracy import rel_err
from tests.support.systems import SYSTEMS, closure_errors


def test_cli_writes_trajectory_and_plots(tmp_path):
    out = tmp_path / "sim"
    res = CliRunner().invoke(cli, ["simulate", str(SYSTEMS / "dual_arm_box.yaml"), "--duration", "0.01",
                                   "--dt", "0.005", "--out", str(out), "--backend", "numpy"])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["constraint_violation.png", "joint_angles.png", "object_pose.png",
                     "trajectory.csv", "trajectory.npz"]
    data = np.load(out / "trajectory.npz")
    assert data["q"].shape == (3, 12) and data["t"][-1] == pytest.approx(0.01, rel=1e-12)
    assert np.max(data["err_pos"]) < 1e-9
    header = (out / "trajectory.csv").read_text().splitlines()[0]
    assert header.startswith("t,q[left.j1]") and header.endswith("err_pos,err_vel")
    assert "max closure error" in res.output


@pytest.mark.parametrize("args,problem", [
    (["--dt", "-1"], "must be positive"),
    (["--dt", "0.5", "--duration", "0.1"], "longer than --duration"),
])
def test_cli_errors_write_nothing(tmp_path, args, problem):
    out = tmp_path / "sim"
    res = CliRunner().invoke(cli, ["simulate", str(SYSTEMS / "dual_arm_box.yaml"), "--out", str(out), *args])
    assert res.exit_code == 2 and problem in res.output and not out.exists()
    assert len(res.output.strip().splitlines()) == 1


def test_cli_out_under_a_file_fails_before_any_work(tmp_path, monkeypatch):
    """--out naming a path below a file: one line, exit 2, before anything is simulated."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setattr(Simulator, "run", lambda *a, **k: pytest.fail("simulated before checking --out"))
    res = CliRunner().invoke(cli, ["simulate", str(SYSTEMS / "dual_arm_box.yaml"), "--out", str(blocker / "sub")])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "--out" in res.output and "cannot create directory" in res.output


def test_cli_bad_system_file(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("arms: []\nobject: {}\n")
    res = CliRunner().invoke(cli, ["simulate", str(f), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and res.output.startswith(f"error: {f}: ") and not (tmp_path / "o").exists()


@pytest.fixture(scope="module")
def runs(bundled):
    s = bundled["dual_arm_box"]
    return {st: simulate(s, 0.12, 0.006, method="lilly_orin", stabilization=st) for st in ("none", "baumgarte", "projection")}


def _independent(s, tr, steps):
    """closure_errors (not the simulator's own residuals) at the given steps."""
    return np.array([closure_errors(s, tr.q[k], tr.qd[k]) for k in steps])


def test_projection_keeps_the_constraints(bundled, runs):
    p = runs["projection"]
    assert p.err_pos.max() < 1e-10 and p.err_vel.max() < 1e-10
    err = _independent(bundled["dual_arm_box"], p, range(0, len(p.t), 5))
    assert err[:, 0].max() < 1e-10 and err[:, 1].max() < 1e-8, err


def test_drift_without_stabilization_grows(bundled, runs):
    """Without stabilization the closure error grows steadily from round-off (RK4
    truncation, here ~1e-10 after 0.12 s with the hold controller, whose motion is smooth);
    Baumgarte bounds it (it peaks and decays); projection keeps it at round-off."""
    none, bg = runs["none"], runs["baumgarte"]
    assert none.err_pos[0] < 1e-12 and none.err_pos[-1] > 3e-11
    start, end = _independent(bundled["dual_arm_box"], none, (0, -1))[:, 0]
    assert start < 1e-12 and end > 3e-11
    assert np.all(np.diff(none.err_pos) > 0) and none.err_pos[-1] > 5 * none.err_pos[1]
    assert none.err_pos[-1] > 100 * runs["projection"].err_pos[-1]
    assert bg.err_pos[-1] < 0.8 * bg.err_pos.max()


def test_stages_stay_near_the_start(runs):
    """A sanity check on the physics: with the PD hold the arms move by less than 0.2 rad
    in 0.12 s, and the stabilizations give the same trajectory up to the drift they remove
    (3e-11 m in the closure error; measured 1.6e-10 relative in q)."""
    p, n = runs["projection"], runs["none"]
    assert np.abs(p.q - p.q[0]).max() < 0.2
    assert rel_err(p.q, n.q) < 1e-9


def test_revolute_grasp_drift_is_small(variants):
    """The closure bias gamma of non-rigid grasps (moving constraint spaces): a wrong gamma
    would show here as a velocity violation growing at O(h^0); with the right one the
    unstabilized velocity error stays at the RK4 truncation level. Zero torques: the hold
    controller would need large internal forces here (the two hinge axes are nearly one
    line, so the object's weight moment about it is carried by a near-singular grasp map),
    and this test is about gamma."""
    s = variants["dual_revolute_x"]
    tr = Simulator(s, "rccfd1", "none", "zero").run(0.03, 0.003, seed=1, speed=1.0)
    assert tr.err_vel.max() < 1e-7 and tr.err_pos.max() < 1e-8
    pos, vel = closure_errors(s, tr.q[-1], tr.qd[-1])
    assert pos < 1e-8 and vel < 1e-7
