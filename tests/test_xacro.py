"""xacro files: expanded by the xacro package into the URDF they stand for, or a
one-line error saying how to expand them."""

import sys

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import RobotFileError
from soagen.oracles.pinocchio import example_robot_data_dir
from tests.support.robot_files import URDF, write

pytest.importorskip("xacro", reason="xacro files are expanded with the optional 'xacro' package (pip install soagen[xacro])")

# tests.support.robot_files.URDF written with a property, a macro with parameters and ${} maths
EDITS = [
    ('<robot name="r">', '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
     '  <xacro:property name="reach" value="0.3"/>\n'
     '  <xacro:macro name="box_link" params="name mass i">\n'
     '    <link name="${name}"><inertial><mass value="${mass}"/>\n'
     '      <inertia ixx="${i}" iyy="${i}" izz="${i}" ixy="0" ixz="0" iyz="0"/></inertial></link>\n'
     '  </xacro:macro>'),
    ('<link name="l2"><inertial><mass value="0.5"/>\n    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>'
     '</inertial></link>', '<xacro:box_link name="l2" mass="0.5" i="0.01"/>'),
    ('<origin xyz="0.3 0 0"', '<origin xyz="${reach} 0 0"'),
    ('<origin xyz="0.1 0 0"', '<origin xyz="${reach / 3} 0 0"'),
]
XACRO = URDF
for old, new in EDITS:
    assert old in XACRO, old
    XACRO = XACRO.replace(old, new)


def same_dynamics(a, b):
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.normal(size=a.nv) for _ in range(3))
    return np.allclose(A.inverse_dynamics(a, q, qd, qdd), A.inverse_dynamics(b, q, qd, qdd), rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("name", ["r.urdf.xacro", "r.xacro", "r.urdf"])
def test_xacro_expands_to_the_urdf_it_stands_for(tmp_path, name):
    """.urdf.xacro, .xacro, and a .urdf that still holds xacro macros all expand."""
    expanded = soagen.load(write(tmp_path, XACRO, name))
    plain = soagen.load(write(tmp_path, URDF, "plain.urdf"))
    assert [b.joint_name for b in expanded.bodies] == ["a", "b"] and expanded.tip.name == "ee"
    assert same_dynamics(expanded, plain)


def test_xacro_errors_are_one_line(tmp_path, monkeypatch):
    bad = write(tmp_path, XACRO.replace("${reach}", "${nowhere}"), "bad.urdf.xacro")
    with pytest.raises(RobotFileError) as err:
        soagen.load(bad)
    msg = str(err.value)
    assert msg.startswith(f"{bad}: xacro: expansion failed:") and "nowhere" in msg and "\n" not in msg
    monkeypatch.setitem(sys.modules, "xacro", None)              # as without the package
    good = write(tmp_path, XACRO, "good.urdf.xacro")
    with pytest.raises(RobotFileError) as err:
        soagen.load(good)
    assert str(err.value) == (f"{good}: file: a xacro file: expand it first (xacro FILE > robot.urdf), "
                              "or install the xacro package (pip install soagen[xacro])")


def test_ros_package_include_fails_on_one_line():
    """example-robot-data's quadrotor xacro includes a package:// path, which needs ROS."""
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    path = root / "hector_description/robots/quadrotor_base.xacro"
    with pytest.raises(RobotFileError) as err:
        soagen.load(path)
    assert "xacro: expansion failed: No such file or directory" in str(err.value)
    assert "\n" not in str(err.value)
