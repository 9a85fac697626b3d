"""`soagen simulate` on a floating robot: by default a fixture holds the base at its start
pose (the title says so; ``--base free`` lets it fall); the plots show the base as a
displacement and a rotation angle, and the joints grouped by limb, no two curves of one
axes in one colour."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen.cli.main import cli
from soagen.simulation import robot_plots
from soagen.simulation.robot import RobotSimulator
from soagen.simulation.robot_plots import (
    base_panels,
    joint_panels,
    limbs,
    orientation_error,
    styles,
)
from soagen.spatial import quaternion_from_rotation, rotation_exp


def _leg(side, y):
    inertia = 'ixx="0.01" iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"'
    return f"""
  <link name="{side}_thigh"><inertial><origin xyz="0 0 -0.1"/><mass value="1"/><inertia {inertia}/></inertial></link>
  <link name="{side}_shank"><inertial><origin xyz="0 0 -0.1"/><mass value="0.5"/><inertia {inertia}/></inertial></link>
  <link name="{side}_foot"/>
  <joint name="{side}_hip" type="revolute"><parent link="trunk"/><child link="{side}_thigh"/>
    <origin xyz="0 {y} 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="{side}_knee" type="revolute"><parent link="{side}_thigh"/><child link="{side}_shank"/>
    <origin xyz="0 0 -0.2"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="{side}_ankle" type="fixed"><parent link="{side}_shank"/><child link="{side}_foot"/>
    <origin xyz="0 0 -0.2"/></joint>"""


BIPED = f"""<robot name="biped"><link name="trunk"><inertial><mass value="5"/>
  <inertia ixx="0.1" iyy="0.08" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial></link>
  {_leg("left", 0.1)}{_leg("right", -0.1)}</robot>"""


@pytest.fixture(scope="module")
def biped(tmp_path_factory):
    path = tmp_path_factory.mktemp("biped") / "biped.urdf"
    path.write_text(BIPED)
    return path, soagen.load(path, floating_base=True)


def test_the_base_is_held_by_default_and_falls_when_free(biped):
    _, robot = biped
    rest = RobotSimulator(robot).run(0.2, 0.005, speed=0.0)        # gravity compensated exactly
    assert rest.base == "held" and np.abs(rest.q - rest.q[0]).max() < 1e-12
    held = RobotSimulator(robot).run(1.0, 0.005, speed=1.0)
    base = held.q[:, :3] - held.q[0, :3]
    angle = np.degrees(orientation_error(held.q[:, 3:7]))
    legs = np.abs(held.q[:, 7:] - held.q[0, 7:]).max(axis=1)
    assert legs.max() > 0.02 and legs[-1] < 0.01 * legs.max()             # the legs moved and settled ...
    # ... the base by 0.1 mm and 0.05 degrees (falling, it would drop 4.9 m in the second)
    assert np.abs(base).max() < 1e-4 and angle.max() < 0.05
    assert np.abs(base[-1]).max() < 0.05 * np.abs(base).max() and angle[-1] < 0.05 * angle.max()   # and returns
    free = RobotSimulator(robot, base="free").run(0.2, 0.005, speed=0.0)
    assert free.base == "free"
    assert free.q[-1, 2] - free.q[0, 2] == pytest.approx(0.5 * -9.81 * 0.2 ** 2, rel=1e-9)


def test_a_fixed_base_robot_has_no_base_setting():
    robot = soagen.load("planar2")
    assert RobotSimulator(robot).run(0.01, 0.005).base is None
    assert base_panels(robot, np.zeros((3, robot.nq))) == []


def test_joints_are_grouped_by_limb(biped):
    _, robot = biped
    names = [b.joint_name for b in robot.bodies]
    assert [(n, [names[i] for i in m]) for n, m in limbs(robot)] == [
        ("left", ["left_hip", "left_knee"]), ("right", ["right_hip", "right_knee"])]
    assert [label for label, _ in joint_panels(robot, np.zeros((2, robot.nq)))] == ["left [rad]", "right [rad]"]
    assert limbs(soagen.load("puma560"))[0][1] == list(range(6))          # a serial arm: one limb


def test_limbs_of_a_quadruped_and_of_a_humanoid():
    from soagen.oracles.pinocchio import example_robot_data_dir

    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    solo = soagen.load(root / "solo_description/robots/solo12.urdf", floating_base=True)
    assert [n for n, _ in limbs(solo)] == ["FL", "FR", "HL", "HR"]
    talos = soagen.load(root / "talos_data/robots/talos_reduced.urdf", floating_base=True)
    panels = joint_panels(talos, np.zeros((2, talos.nq)))
    assert len(panels) <= robot_plots.MAX_LIMB_AXES
    assert sum(len(curves) for _, curves in panels) == talos.nv - 6        # every joint, once


@pytest.mark.parametrize("n", [1, 3, 10, 11, 20, 37])
def test_no_two_curves_share_a_colour(n):
    colours = [c for c, _ in styles(n)]
    assert len(set(colours)) == n and len(set(styles(n))) == n


def test_the_base_is_a_displacement_and_a_rotation_angle(biped):
    """Not the seven raw q components: a known motion gives its millimetres and degrees."""
    _, robot = biped
    t = np.linspace(0, 1, 5)
    q = np.zeros((len(t), robot.nq))
    q[:, :3] = np.outer(t, [0.3, 0.0, -0.4])                             # 0.5 m at t = 1
    q[:, 3:7] = [quaternion_from_rotation(rotation_exp(np.array([0.0, 0.0, np.radians(30 * s)]))) for s in t]
    (pos_label, pos), (ang_label, ang) = base_panels(robot, q)
    assert pos_label == "base displacement [mm]" and ang_label == "base rotation [deg]"
    assert np.linalg.norm([y[-1] for _, y in pos]) == pytest.approx(500.0)
    assert ang[0][1][-1] == pytest.approx(30.0)


@pytest.mark.parametrize("base,title", [(None, "base held at its start pose"), ("free", "base free, falling")])
def test_cli_titles_say_what_holds_the_base(biped, tmp_path, monkeypatch, base, title):
    path, _ = biped
    titles = []
    original = robot_plots.save

    def save(fig, where):
        titles.append(fig._suptitle.get_text() if fig._suptitle else fig.axes[0].get_title())
        return original(fig, where)

    monkeypatch.setattr(robot_plots, "save", save)
    args = ["simulate", str(path), "--floating-base", "--backend", "numpy", "-T", "0.02", "--dt", "0.01",
            "--out", str(tmp_path / "o")] + (["--base", base] if base else [])
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert all(title in t for t in titles) and len(titles) == 3, titles     # joints, end frames, energy
    assert (tmp_path / "o" / "joint_angles.png").is_file()


def test_cli_base_only_for_a_floating_robot(tmp_path):
    r = CliRunner().invoke(cli, ["simulate", "planar2", "--base", "free", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2 and "--base: only for a floating robot" in r.output and not (tmp_path / "o").exists()
