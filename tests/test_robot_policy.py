"""The loader's policy for real robot files (docs/robot-format.md, "Mass properties" and
"Singular mass matrices"): rounding noise is accepted, impossible-but-finite inertias
are warnings (errors with strict), a singular mass matrix is refused with the joints
and the fix (lock), and the algorithms refuse a singular D(k) instead of returning
inf/NaN. Also the CLI side: --lock, --strict, --floating-base, one-line usage errors."""

import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.backend import NUMPY
from soagen.cli.main import cli
from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses
from soagen.errors import RobotFileError, RobotFileWarning, SingularMassMatrixError
from tests.support.accuracy import rel_err
from tests.support.robot_files import BOX, FINGERS, GOOD, URDF, joint, link, urdf, write


def load_quietly(path, **kw):
    """soagen.load, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return soagen.load(path, **kw)


def test_rounding_noise_is_accepted_silently(tmp_path):
    """iCub's head (principal moments -2.4e-35, 0, 2.4e-35 with its centre of mass 0.11 m
    away) and r_ankle_1 (a 0.746 kg link whose inertia of ~1e-20 misses the triangle
    inequality by 1e-21): noise against the links' own inertia scale m |c|^2."""
    text = urdf(link("head", 1.33687, (0, 0, 0, 0, 2.40741e-35, 0), "0.0185 -0.1108 6.78454e-18"),
                link("ankle", 0.746, (2.71051e-20, 5.42101e-20, 1.35525e-20, -1.69407e-21, 1.35525e-20, 3.38813e-21),
                     "-0.0054 0.00163 -0.0172"),
                joint("neck", "base", "head"), joint("ank", "head", "ankle", xyz="0.1 0 0", axis="0 1 0"))
    robot = load_quietly(write(tmp_path, text, "icub.urdf"))
    assert robot.nv == 2 and np.all(np.isfinite(A.forward_dynamics(robot, [0.3, 0.2], [0, 0], [1, 1])))


def test_massless_links_that_carry_mass_or_are_welded_to_it_are_fine(tmp_path):
    """Bolt's foot (mass 0, an inertia, welded to the lower leg) and a massless link
    between two joints (human.urdf's hip) load without a word."""
    text = urdf(link("hip_z", 0, (0, 0, 0, 0, 0, 0)), link("thigh", 2.0, BOX, "0 0 -0.2"),
                link("foot", 0, (5.7e-7, 8.4e-7, 5.3e-7, 0, 0, 0), "0 0 0.00035767"),
                joint("hz", "base", "hip_z"), joint("hx", "hip_z", "thigh", axis="1 0 0"),
                joint("ankle", "thigh", "foot", kind="fixed", xyz="0 0 -0.4"))
    robot = load_quietly(write(tmp_path, text, "leg.urdf"))
    assert [b.mass for b in robot.bodies] == [0, 2.0]


def test_rotational_inertia_without_mass_on_a_moving_body_is_a_warning(tmp_path):
    text = urdf(link("wheel", 0, BOX), joint("spin", "base", "wheel"))
    with pytest.warns(RobotFileWarning, match=r"<link name='wheel'>: mass 0 with a non-zero rotational inertia"):
        soagen.load(write(tmp_path, text, "w.urdf"))
    with pytest.raises(RobotFileError, match="mass 0 with a non-zero rotational inertia.*strict"):
        soagen.load(write(tmp_path, text, "w.urdf"), strict=True)


def test_massless_moving_leaves_warn_with_the_lock_fix(tmp_path):
    """Romeo's fingers: joints that move only massless links make M singular; the warning
    names them all and gives the --lock that fixes it, and that lock loads without one
    (what still works and what is refused: tests/test_singular_mass_matrix.py)."""
    path = write(tmp_path, FINGERS, "hand.urdf")
    with pytest.warns(RobotFileWarning) as rec:
        soagen.load(path)
    assert len(rec) == 1 and str(rec[0].message).startswith(
        f"{path}: joints: 3 joints move only massless links (nothing beyond has mass or "
        "inertia), so the mass matrix is singular; lock them at their neutral position: "
        "--lock finger1,finger2,thumb_joint (")
    robot = load_quietly(path, lock=["finger1", "finger2", "thumb_joint"])
    assert [b.joint_name for b in robot.bodies] == ["wrist"]
    assert {f.name: f.body for f in robot.frames}["f2"] == 0           # the fingers are frames on the palm
    assert load_quietly(path, lock=["finger*", "thumb*"]).nv == 1


def test_zero_inertia_about_the_axis_with_nothing_beyond_warns(tmp_path):
    """A point mass on its joint axis: D(k) = 0 at every configuration; a warning, and the
    algorithms that invert D refuse."""
    text = urdf(link("a", 1.0, BOX, "0.2 0 0"), link("bead", 0.3, (0,) * 6, "0 0 0.1"),
                joint("j1", "base", "a"), joint("spin", "a", "bead", xyz="0.3 0 0"))
    path = write(tmp_path, text, "bead.urdf")
    with pytest.warns(RobotFileWarning) as rec:
        robot = soagen.load(path)
    msg = str(rec[0].message)
    assert msg.startswith(f"{path}: joint 'spin': nothing beyond it has inertia along its motion") and \
        "or lock the joint: --lock spin (" in msg and "\n" not in msg
    with pytest.raises(SingularMassMatrixError, match="joint 'spin'"):
        A.inverse_mass_matrix(robot, np.array([0.1, 0.2]))


def test_singular_configuration_is_refused_by_the_algorithms(tmp_path):
    """A point mass at the end of two massless links is fine at generic configurations
    but its mass matrix is singular with the arm stretched: every algorithm that inverts
    D(k) says so, naming the joint, instead of returning inf or NaN."""
    text = urdf(link("l1", 0, (0,) * 6), link("l2", 1.0, (0,) * 6, "0.5 0 0"),
                joint("shoulder", "base", "l1"), joint("elbow", "l1", "l2", xyz="1 0 0"))
    robot = load_quietly(write(tmp_path, text, "pendulum.urdf"))
    with np.errstate(all="raise"):
        assert np.all(np.isfinite(A.forward_dynamics(robot, [0.3, 0.5], [0.1, 0.2], [1, 2])))
        for call in (lambda q: A.forward_dynamics(robot, q, [0.1, 0.2], [1, 2]),
                     lambda q: A.inverse_mass_matrix(robot, q),
                     lambda q: A.forward_dynamics(robot, q, [0.1, 0.2], [1, 2], method="fd4"),
                     lambda q: A.op_space_inverse_inertia(robot, q)):
            with pytest.raises(SingularMassMatrixError) as err:
                call(np.array([0.3, 0.0]))
            assert "joint 'shoulder': the mass matrix is singular here" in str(err.value)


def test_lock_at_a_value_is_the_constrained_system(tmp_path):
    """Locking a joint at a value gives the full system with that joint held there: the
    same tip pose, and M and RNE restricted to the remaining joints."""
    full = soagen.load(write(tmp_path, URDF, "r.urdf"))
    locked = soagen.load(write(tmp_path, URDF, "r.urdf"), lock=["b=0.4"])
    assert [b.joint_name for b in locked.bodies] == ["a"]
    rng = np.random.default_rng(1)
    q1, qd1, qdd1 = rng.normal(size=3)
    q = np.array([q1, 0.4])
    pose = frame_pose(full, world_poses(full, link_transforms(full, q, NUMPY)), full.tip)
    pose_l = frame_pose(locked, world_poses(locked, link_transforms(locked, [q1], NUMPY)), locked.tip)
    assert rel_err(pose[0], pose_l[0]) < 1e-14 and rel_err(pose[1], pose_l[1]) < 1e-14   # a few ulp
    assert A.mass_matrix(locked, [q1])[0, 0] == pytest.approx(A.mass_matrix(full, q)[0, 0], rel=1e-14)
    assert A.inverse_dynamics(locked, [q1], [qd1], [qdd1])[0] == pytest.approx(
        A.inverse_dynamics(full, q, [qd1, 0], [qdd1, 0])[0], rel=1e-14)
    prismatic = soagen.load(write(tmp_path, GOOD), lock=["j2=0.25"])
    assert rel_err(prismatic.frame("b").r, np.array([0.5, 0, 0]) + 0.25 * np.array([1, 1, 0]) / 2 ** 0.5) < 1e-14


@pytest.mark.parametrize("lock,problem", [
    (["nope"], "lock: no joint matches 'nope'"),
    (["b=abc"], "lock b: expected a number, got 'abc'"),
    (["b=1e99"], "larger than soagen accepts"),
])
def test_bad_lock_is_one_line(tmp_path, lock, problem):
    path = write(tmp_path, URDF, "r.urdf")
    with pytest.raises(RobotFileError) as err:
        soagen.load(path, lock=lock)
    assert str(err.value).startswith(str(path)) and problem in str(err.value) and "\n" not in str(err.value)


def test_lock_value_on_a_multi_dof_joint_is_refused(tmp_path):
    text = GOOD.replace("type: revolute, parent: base", "type: spherical, parent: base")
    path = write(tmp_path, text)
    assert soagen.load(path, lock=["j1"]).nv == 1                    # at its neutral position
    with pytest.raises(RobotFileError, match="joint 'j1': lock: a spherical joint is locked at its neutral position only"):
        soagen.load(path, lock=["j1=0.3"])


def test_stacked_floating_joints_are_refused(tmp_path):
    """A floating base on a file whose root already floats (g1.urdf) would stack two free
    joints on a massless link: cond(M) ~ 1e17 before, a one-line error now."""
    text = urdf(link("pelvis", 3.0, BOX), joint("floating_base_joint", "base", "pelvis", kind="floating"),
                link("leg", 1.0, BOX, "0 0 -0.2"), joint("hip", "pelvis", "leg"))
    path = write(tmp_path, text, "g1.urdf")
    assert soagen.load(path).bodies[0].joint.kind == "free"
    with pytest.raises(RobotFileError) as err:
        soagen.load(path, floating_base=True)
    assert str(err.value) == (f"{path}: <joint name='floating_base_joint'>: already a floating joint between 'base' "
                              "and 'pelvis': a floating base would stack a second one (drop --floating-base)")


def test_mimic_naming_no_joint_is_a_warning(tmp_path):
    text = URDF.replace('<limit effort="1" velocity="1"/>', '<limit effort="1" velocity="1"/><mimic joint="nope"/>')
    path = write(tmp_path, text, "r.urdf")
    with pytest.warns(RobotFileWarning, match=r"<joint name='b'>/mimic: mimics joint 'nope', which is not defined"):
        soagen.load(path)
    with pytest.raises(RobotFileError, match="mimics joint 'nope'.*strict"):
        soagen.load(path, strict=True)
    soagen.load(write(tmp_path, text.replace('"nope"', '"a"'), "ok.urdf"))     # a real joint: fine
    with pytest.raises(RobotFileError, match="mimic@multiplier: expected a number"):
        soagen.load(write(tmp_path, text.replace('joint="nope"', 'joint="a" multiplier="x"'), "m.urdf"))


# --- the command line ---------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_cli_lock_strict_floating_base_and_warning_lines(tmp_path):
    hand = write(tmp_path, FINGERS, "hand.urdf")
    r = run("info", str(hand))
    assert r.exit_code == 0 and r.stderr.count("\n") == 1 and "--lock finger1,finger2,thumb_joint" in r.stderr
    r = run("info", str(hand), "--lock", "finger1,finger2", "--lock", "thumb*")
    assert r.exit_code == 0 and "nq 1, nv 1" in r.output, r.output
    heavy = write(tmp_path, FINGERS.replace('<link name="base"/>', link("base", 3.0, BOX)), "heavy.urdf")
    r = run("info", str(heavy), "--lock", "finger*,thumb_joint", "--floating-base")
    assert r.exit_code == 0 and "root_joint" in r.output and "nq 8, nv 7" in r.output, r.output
    wheel = write(tmp_path, urdf(link("wheel", 0, BOX), joint("spin", "base", "wheel")), "w.urdf")
    r = CliRunner().invoke(cli, ["info", str(wheel)])
    warn = [line for line in r.output.splitlines() if line.startswith("warning:")]
    assert r.exit_code == 0 and len(warn) == 1 and "mass 0 with a non-zero rotational inertia" in warn[0]
    r = run("info", str(wheel), "--strict")
    assert r.exit_code == 2 and r.output.startswith("error: ") and r.output.count("\n") == 1


def test_cli_generate_with_lock(tmp_path):
    """--lock reaches generate: planar2 with its elbow locked at 0.5 rad is one joint."""
    import json

    r = run("generate", "planar2", "--lock", "elbow=0.5", "--out", str(tmp_path), "-q", "--lang", "python",
            "--algorithms", "mass_matrix")
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "planar2_manifest.json").read_text())
    assert manifest["nv"] == 1
    full, locked = soagen.load("planar2"), soagen.load("planar2", lock=["elbow=0.5"])
    assert A.mass_matrix(locked, [0.3])[0, 0] == pytest.approx(A.mass_matrix(full, [0.3, 0.5])[0, 0], rel=1e-14)


def test_cli_info_piped_is_not_cut_at_80_columns(tmp_path):
    long = "a_rather_long_link_name_from_a_cad_export"
    text = urdf(link(long, 1.0, BOX), joint(f"{long}_joint", "base", long))
    r = run("info", str(write(tmp_path, text, "long.urdf")))
    assert r.exit_code == 0 and f"{long}_joint" in r.output and max(map(len, r.output.splitlines())) > 100


@pytest.mark.parametrize("args,problem", [
    (["info", "."], "soagen info: Invalid value for 'ROBOT': File '.' is a directory."),
    (["info", "robots/planar2.yaml", "--nope"], "soagen info: No such option '--nope'"),
    (["generate", "robots/planar2.yaml", "--out", "README.md"], "soagen generate: Invalid value for '--out'"),
    (["info"], "soagen info: Missing argument 'ROBOT'"),
])
def test_cli_usage_errors_are_one_line(args, problem):
    """Click's usage errors print like soagen's own: one `error:` line, exit 2."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "soagen.cli.main", *args], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"error: {problem}") and "Traceback" not in r.stderr


def test_cli_robot_options_refused_for_system_files():
    r = run("info", "robots/systems/dual_arm_box.yaml", "--lock", "j1", "--strict")
    assert r.exit_code == 2 and "--lock, --strict: only for robot files" in r.output


def test_yaml_system_file_duplicate_key(tmp_path):
    from pathlib import Path

    text = open("robots/systems/dual_arm_box.yaml").read().replace("name: dual_arm_box", "name: a\nname: b", 1)
    path = write(tmp_path, text.replace("../arm6.yaml", str(Path("robots/arm6.yaml").resolve())), "sys.yaml")
    with pytest.raises(RobotFileError, match="duplicate key 'name'"):
        soagen.load_system(path)
