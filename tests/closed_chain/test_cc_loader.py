"""The system file: bundled examples load; malformed input is a one-line error naming the
file and the element."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
from soagen.errors import RobotFileError
from tests.support.accuracy import rel_err
from tests.support.systems import BUNDLED, SYSTEMS, system_doc, write_system


@pytest.mark.parametrize("name,l,n,kind", [("dual_arm_box", 2, 12, 0), ("three_arm_point_contacts", 3, 18, 0),
                                           ("quadruped_platform", 4, 24, 1)])
def test_bundled_systems_load(name, l, n, kind):
    s = soagen.load_system(SYSTEMS / f"{name}.yaml")
    assert (s.l, s.n, s.kind) == (l, n, kind)
    for arm in s.arms:
        g = arm.grasp
        assert g.phi.shape[1] + g.phic.shape[1] == 6
        assert rel_err(g.phic.T @ g.phic, np.eye(g.n_c)) < 1e-12   # (29)
        if g.phi.shape[1]:
            assert np.abs(g.phic.T @ g.phi).max() < 1e-12      # (28), unit columns: round-off
        # the arm's gravity is the system's, in the arm base frame
        assert rel_err(arm.base_R @ arm.robot.gravity, s.gravity) < 1e-12


def _break(doc, path, value):
    *keys, last = path
    d = doc
    for k in keys:
        d = d[k]
    if value is KeyError:
        del d[last]
    else:
        d[last] = value


BAD = [
    (("arms", 0, "grasp", "frame"), "O9", "arm 'left'.grasp.frame", "no frame 'O9' on the object"),
    (("arms", 0, "grasp", "type"), "glue", "arm 'left'.grasp.type", "unknown grasp type 'glue'"),
    (("arms", 0, "grasp"), {"frame": "O1", "type": "revolute"}, "arm 'left'.grasp", "missing 'axis'"),
    (("arms", 0, "grasp"), {"frame": "O1", "type": "revolute", "axis": [0, 0, 0]}, "axis", "non-zero"),
    (("arms", 0, "grasp"), {"frame": "O1", "type": "rigid", "axis": [0, 0, 1]}, "arm 'left'.grasp", "does not apply"),
    (("arms", 0, "grasp"), {"frame": "O1", "type": "general", "motion": [[1, 0, 0, 0, 0, 0]],
                            "constraint": [[1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],
                                           [0, 0, 0, 0, 0, 1], [0, 1, 0, 0, 0, 0]]},
     "arm 'left'.grasp", "not orthogonal"),
    (("arms", 0, "grasp"), {"frame": "O1", "type": "general", "motion": [[1, 0, 0, 0, 0, 0]],
                            "constraint": [[0, 1, 0, 0, 0, 0]]}, "arm 'left'.grasp", "together have 6 columns"),
    (("arms", 0, "q0"), [0, 0, 0], "arm 'left'.q0", "expected 6 joint values"),
    (("arms", 0, "robot"), "nowhere.yaml", "arm 'left'.robot", "no such robot file"),
    (("arms", 0, "elbow"), 1, "arms[0]", "unknown key 'elbow'"),
    (("object", "mass"), -1.0, "object", "mass must be positive"),
    (("object", "frames"), KeyError, "object", "missing required key 'frames'"),
    (("type",), 3, "type", "must be 0"),
    (("arms", 1, "name"), "left", "arm 'left'", "unique"),
]


@pytest.mark.parametrize("path,value,element,problem", BAD, ids=[b[3][:24] for b in BAD])
def test_bad_system_files(tmp_path, path, value, element, problem):
    doc = system_doc("dual_arm_box")
    _break(doc, path, value)
    f = write_system(tmp_path, doc)
    with pytest.raises(RobotFileError) as err:
        soagen.load_system(f)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"{f}: ") and element in msg and problem in msg, msg


def test_arm_with_spherical_joint_is_rejected(tmp_path):
    robot = tmp_path / "ball_arm.yaml"
    robot.write_text((SYSTEMS.parent / "arm6.yaml").read_text().replace(
        "{name: j1, type: revolute, parent: base, child: waist, xyz: [0, 0, 0.4], axis: [0, 0, 1]}",
        "{name: j1, type: spherical, parent: base, child: waist, xyz: [0, 0, 0.4]}"))
    doc = system_doc("dual_arm_box")
    doc["arms"][0]["robot"] = str(robot)
    with pytest.raises(RobotFileError, match="only revolute and prismatic"):
        soagen.load_system(write_system(tmp_path, doc))


def test_malformed_yaml_and_missing_file(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("arms: [\n")
    with pytest.raises(RobotFileError, match="malformed YAML"):
        soagen.load_system(f)
    with pytest.raises(RobotFileError, match="no such file"):
        soagen.load_system(tmp_path / "none.yaml")


def test_every_bundled_system_is_listed():
    assert sorted(p.stem for p in SYSTEMS.glob("*.yaml")) == sorted(BUNDLED)


def test_a_robot_file_given_as_a_system_file_says_so():
    with pytest.raises(RobotFileError, match="this is a robot file; a system file names 'arms'"):
        soagen.load_system("robots/puma560.yaml")


def test_soagen_info_on_a_system_file():
    """`soagen info SYSTEM` lists the arms with their joints in q and their grasps, and the
    mobility; the quadruped's file states 4 x 6 joints + 6 body dofs - 24 constraints = 6."""
    from click.testing import CliRunner

    from soagen.cli.main import cli

    r = CliRunner().invoke(cli, ["info", str(SYSTEMS / "quadruped_platform.yaml")])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())                  # rich wraps at the console width
    assert "front_left" in text and "18..23" in text and "rigid at O4" in text
    assert "mobility n + 6 - 24 = 6" in text and "Type 1" in text
    r = CliRunner().invoke(cli, ["info", str(SYSTEMS / "dual_arm_box.yaml"), "--tip", "x"])
    assert r.exit_code == 2 and "--tip: only for robot files" in r.output
