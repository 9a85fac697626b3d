"""The bundled robot files against their published sources."""

import numpy as np
import pytest

import soagen
from soagen.backend import NUMPY
from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses
from soagen.errors import RobotFileError, RobotFileWarning
from tests.support.accuracy import rel_err

PI2 = np.pi / 2
# standard DH rows (theta offset, d, a, alpha, type) as printed in the sources quoted
# in the robot files; for the prismatic row d is the offset added to q
DH = {
    "puma560": [(0, 0, 0, PI2, "R"), (0, 0, 0.4318, 0, "R"), (0, 0.15005, 0.0203, -PI2, "R"),
                (0, 0.4318, 0, PI2, "R"), (0, 0, 0, -PI2, "R"), (0, 0, 0, 0, "R")],
    "stanford": [(0, 0.412, 0, -PI2, "R"), (0, 0.154, 0, PI2, "R"), (-PI2, 0, 0.0203, 0, "P"),
                 (0, 0, 0, -PI2, "R"), (0, 0, 0, PI2, "R"), (0, 0.263, 0, 0, "R")],
}


def dh_transform(theta, d, a, alpha):
    ct, st, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                     [0, sa, ca, d], [0, 0, 0, 1]])


@pytest.mark.parametrize("name", sorted(DH))
def test_forward_kinematics_matches_dh_table(name):
    robot = soagen.load(f"robots/{name}.yaml")
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = rng.uniform(-np.pi, np.pi, robot.nq)
        T = np.eye(4)
        for qi, (th, d, a, alpha, kind) in zip(q, DH[name]):
            T = T @ (dh_transform(qi + th, d, a, alpha) if kind == "R" else dh_transform(th, d + qi, a, alpha))
        R, o = frame_pose(robot, world_poses(robot, link_transforms(robot, q, NUMPY)), robot.tip)
        # the DH product against the model's link transforms: round-off, measured <= 4e-16
        assert rel_err(R, T[:3, :3]) < 1e-13 and rel_err(o, T[:3, 3]) < 1e-13


def test_published_puma_link3_inertia_is_a_warning_and_refused_when_strict(tmp_path):
    """Armstrong et al.'s (Ixx, Iyy, Izz) of link 3 violates the triangle inequality: no
    rigid body has it, yet the dynamics stay finite, so it loads with a warning naming the
    link, and strict=True refuses it."""
    text = open("robots/puma560.yaml").read().replace("izz: 0.0200", "izz: 0.0125")
    path = tmp_path / "puma_published.yaml"
    path.write_text(text)
    with pytest.warns(RobotFileWarning, match="link 'link3': inertia violates the triangle inequality") as rec:
        soagen.load(path)
    assert len(rec) == 1 and "\n" not in str(rec[0].message)
    with pytest.raises(RobotFileError, match="link 'link3': inertia violates the triangle inequality.*strict"):
        soagen.load(path, strict=True)


@pytest.mark.parametrize("name,nv,kinds", [
    ("planar2", 2, {"revolute"}), ("puma560", 6, {"revolute"}),
    ("stanford", 6, {"revolute", "prismatic"}), ("arm7", 7, {"revolute"})])
def test_bundled_robots_load(name, nv, kinds):
    robot = soagen.load(f"robots/{name}.yaml")
    assert robot.nv == nv and robot.is_chain and {b.joint.kind for b in robot.bodies} == kinds
    assert robot.tip is not None


def test_bundled_robot_by_name_and_not_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                       # outside the checkout
    assert soagen.load("puma560").nv == 6
    with pytest.raises(RobotFileError, match=r"nowhere: file: no such file \(nor a bundled robot: arm3_flexlink, arm6, "):
        soagen.load("nowhere")
    with pytest.raises(RobotFileError, match="is a directory, not a robot file"):
        soagen.load(tmp_path)


def test_bundled_robots_from_the_installed_wheel(tmp_path, installed_wheel):
    """The wheel ships robots/ as soagen/robots: `soagen info puma560` and `soagen derive
    planar2` work from any directory, with the installed copy."""
    import os
    import subprocess
    import sys

    site, names = installed_wheel
    assert "soagen/robots/planar2.yaml" in names and "soagen/robots/systems/dual_arm_box.yaml" in names
    env = dict(os.environ, PYTHONPATH=str(site))
    code = "import sys; from soagen.cli.main import main; sys.argv = ['soagen'] + sys.argv[1:]; main()"
    for args, expect in ((["info", "puma560"], "nq 6, nv 6"),
                         (["derive", "planar2", "--format", "text"], "Closed-form dynamics of planar2")):
        run = subprocess.run([sys.executable, "-c", code, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0 and expect in run.stdout, run.stderr[-2000:]
    run = subprocess.run([sys.executable, "-c", "import soagen.loaders.bundled as b; print(b.robots_dir())"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.stdout.strip() == str(site / "soagen" / "robots")
