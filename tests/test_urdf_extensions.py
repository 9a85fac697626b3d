"""Robot files as other tools read them (soagen/loaders/urdf.py): what URDF does not define
in a link, joint or inertial is named in one warning line per link or joint (a typo such
as <axiss> would turn the joint about x) and refused with --strict; namespaced extensions
are ignored as urdfdom ignores them, also when the file never declares the prefix (not
well-formed XML, which urdfdom's TinyXML reads anyway: one warning for the file); and
xacro files get their arguments from --xacro-arg NAME:=VALUE on every command that takes
a robot file. The fixtures are written here: the same features as the UR e-series
(drake: attributes), Robotiq and Fetch descriptions, nothing copied from them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.errors import RobotFileError, RobotFileWarning
from tests.support.robot_files import TYPO, URDF, write


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def loaded(path, **kw):
    """(model, warning messages) of soagen.load(path, **kw)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RobotFileWarning)
        robot = soagen.load(path, **kw)
    return robot, [str(w.message) for w in caught if issubclass(w.category, RobotFileWarning)]


def same_dynamics(a, b):
    rng = np.random.default_rng(1)
    q, qd, qdd = (rng.normal(size=a.nv) for _ in range(3))
    return np.allclose(A.inverse_dynamics(a, q, qd, qdd), A.inverse_dynamics(b, q, qd, qdd), rtol=1e-14, atol=1e-14)


def test_a_typo_in_a_joint_is_one_warning_line_naming_it_and_the_joint(tmp_path):
    robot, messages = loaded(write(tmp_path, TYPO, "typo.urdf"))
    assert robot.bodies[1].joint.axis == (1.0, 0.0, 0.0)          # what URDF says without <axis>
    assert len(messages) == 1, messages
    assert "<joint name='b'>" in messages[0] and "<axiss> (did you mean axis?)" in messages[0]
    r = run("info", tmp_path / "typo.urdf")
    assert r.exit_code == 0
    assert [line for line in r.stderr.splitlines() if line.startswith("warning:")] == [f"warning: {messages[0]}"]


def test_strict_refuses_an_unknown_element_exit_2(tmp_path):
    path = write(tmp_path, TYPO, "typo.urdf")
    with pytest.raises(RobotFileError, match=r"<joint name='b'>: ignored, not URDF: <axiss>.*\(refused: strict\)"):
        soagen.load(path, strict=True)
    for command in (["info"], ["generate", "--out", tmp_path / "o", "-q"]):
        r = run(*command[:1], path, "--strict", *command[1:])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
        assert r.output.startswith("error: ") and "<axiss>" in r.output
    assert not (tmp_path / "o").exists()


def test_unknown_attributes_and_inertial_elements_are_named(tmp_path):
    text = URDF.replace('<origin xyz="0.3 0 0" rpy="0.1 0.2 0.3"/>', '<origin xyz="0.3 0 0" rpy="0.1 0.2 0.3" rpyy="0"/>')
    text = text.replace('<mass value="0.5"/>', '<mass value="0.5" units="kg"/><masss value="2"/>')
    _, messages = loaded(write(tmp_path, text, "attrs.urdf"))
    assert len(messages) == 2, messages
    joint, link = sorted(messages)
    assert "<joint name='b'>" in joint and "<origin rpyy> (did you mean rpy?)" in joint
    assert "<link name='l2'>" in link and "<inertial><mass units>" in link and "<inertial><masss>" in link


def test_the_same_extension_in_many_links_is_one_line(tmp_path):
    """A PyBullet-style <contact> in every link: one line naming the links, not one each."""
    text = URDF.replace("</inertial></link>", "</inertial><contact><lateral_friction value='1'/></contact></link>")
    _, messages = loaded(write(tmp_path, text, "contact.urdf"))
    assert len(messages) == 1 and "2 links ('l1', 'l2')" in messages[0] and "<contact>" in messages[0], messages


def test_standard_elements_and_namespaced_extensions_are_silent(tmp_path):
    text = URDF.replace('<robot name="r">', '<robot name="r" xmlns:drake="http://drake.mit.edu">')
    text = text.replace('<limit effort="1" velocity="1"/>',
                        '<limit effort="1" velocity="1" lower="-1" upper="1" drake:acceleration="2"/>'
                        '<dynamics damping="0.1" friction="0"/><calibration rising="0"/>'
                        '<safety_controller soft_lower_limit="-1" soft_upper_limit="1" k_position="1" k_velocity="1"/>'
                        '<drake:rotor_inertia value="1e-4"/>')
    text = text.replace('<link name="ee"/>', '<link name="ee"><visual><geometry><box size="1 1 1"/></geometry>'
                        '</visual></link>')
    robot, messages = loaded(write(tmp_path, text, "ext.urdf"))
    assert messages == []
    assert same_dynamics(robot, soagen.load(write(tmp_path, URDF, "plain.urdf")))


# Undeclared prefixes, as Drake's and Gazebo-era files carry them: a drake: element and
# attribute in a joint, a sensor: element in a gazebo block, a drake: element in a link.
UNDECLARED = URDF.replace('<limit effort="1" velocity="1"/>',
                          '<limit effort="1" velocity="1" drake:acceleration="2.5"/><drake:rotor_inertia value="1e-4"/>'
                          '<drake:gear_ratio value="100"/>')
UNDECLARED = UNDECLARED.replace("</robot>", '<gazebo reference="l2"><sensor:camera name="cam"><sensor:fov value="1"/>'
                                '</sensor:camera></gazebo>\n</robot>')
UNDECLARED = UNDECLARED.replace('<link name="ee"/>', '<link name="ee"><drake:collision_filter_group name="g"/></link>')


def test_undeclared_prefixes_are_read_as_urdfdom_reads_them(tmp_path):
    """Not well-formed XML ("unbound prefix" from any namespace-aware parser): the prefixed
    elements and attributes ignored with one warning naming the prefixes and them; the
    model is the file's without them; error lines stay the file's."""
    robot, messages = loaded(write(tmp_path, UNDECLARED, "undeclared.urdf"))
    assert len(messages) == 1, messages
    m = messages[0]
    assert "namespace prefixes drake, sensor never declared" in m and "drake:rotor_inertia" in m
    assert "sensor:camera" in m and "sensor:fov" in m and "drake:acceleration" in m
    assert same_dynamics(robot, soagen.load(write(tmp_path, URDF, "plain.urdf")))
    bad = write(tmp_path, UNDECLARED.replace("<link name=\"l2\">", "<link name=\"l2\"><oops>"), "bad.urdf")
    with pytest.raises(RobotFileError, match=r"bad.urdf: line \d+: malformed XML: mismatched tag"):
        soagen.load(bad)


def test_undeclared_prefixes_agree_with_pinocchio(tmp_path):
    """Pinocchio (urdfdom) reads the undeclared file; soagen's model of it is Pinocchio's."""
    pin = pytest.importorskip("pinocchio", reason="the Pinocchio oracle (pip install pin)")
    from soagen.oracles.pinocchio import Converter, symmetrized

    path = write(tmp_path, UNDECLARED, "undeclared.urdf")
    robot, _ = loaded(path)
    model = pin.buildModelFromUrdf(str(path))
    data, conv = model.createData(), Converter(robot, model)
    rng = np.random.default_rng(2)
    for _ in range(5):
        q, v = robot.random_configuration(rng), rng.normal(size=robot.nv)
        M = conv.matrix_from_pin(symmetrized(pin.crba(model, data, conv.q_to_pin(q))))
        assert np.allclose(A.mass_matrix(robot, q), M, rtol=1e-12, atol=1e-14)
        tau = conv.v_from_pin(pin.rnea(model, data, conv.q_to_pin(q), conv.v_to_pin(v), np.zeros(model.nv)))
        assert np.allclose(A.bias_forces(robot, q, v), tau, rtol=1e-12, atol=1e-12)


def test_an_undeclared_xacro_prefix_stays_an_error(tmp_path):
    """xacro: without its namespace is a xacro file nobody can expand: not read as URDF."""
    text = URDF.replace('<link name="ee"/>', '<xacro:property name="a" value="1"/><link name="ee"/>')
    with pytest.raises(RobotFileError, match="malformed XML: unbound prefix"):
        soagen.load(write(tmp_path, text, "x.urdf"))


XACRO_ARGS = URDF.replace('<robot name="r">', '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                          '  <xacro:arg name="reach" default="0.3"/>\n  <xacro:arg name="payload" default="0.5"/>')
XACRO_ARGS = XACRO_ARGS.replace('<origin xyz="0.3 0 0"', '<origin xyz="$(arg reach) 0 0"')
XACRO_ARGS = XACRO_ARGS.replace('<mass value="0.5"/>', '<mass value="$(arg payload)"/>')


def test_xacro_arguments_reach_the_model(tmp_path):
    pytest.importorskip("xacro", reason="xacro files are expanded with the optional 'xacro' package")
    path = write(tmp_path, XACRO_ARGS, "args.urdf.xacro")
    default = soagen.load(path)
    assert default.bodies[1].placement_r[0] == 0.3 and default.bodies[1].mass == 0.5
    other = soagen.load(path, xacro_args={"reach": "0.8", "payload": "2.0"})
    assert other.bodies[1].placement_r[0] == 0.8 and other.bodies[1].mass == 2.0
    plain = soagen.load(write(tmp_path, URDF.replace('<origin xyz="0.3 0 0"', '<origin xyz="0.8 0 0"')
                              .replace('<mass value="0.5"/>', '<mass value="2.0"/>'), "plain.urdf"))
    assert same_dynamics(other, plain)


@pytest.mark.parametrize("command", ["info", "generate", "build", "bench", "simulate"])
def test_every_command_that_takes_a_robot_file_takes_xacro_args(tmp_path, command):
    pytest.importorskip("xacro", reason="xacro files are expanded with the optional 'xacro' package")
    path = write(tmp_path, XACRO_ARGS, "args.urdf.xacro")
    assert "--xacro-arg NAME:=VALUE" in run(command, "--help").output
    # an argument the file reads changes the model; it reaches the loader before any work
    r = run(command, path, "--xacro-arg", "payload:=-1", *(["--out", tmp_path / "o"] if command not in ("info", "bench")
                                                            else []))
    assert r.exit_code == 2 and "<link name='l2'>: mass must be zero or positive, got -1" in r.output, r.output


def test_info_shows_the_model_of_the_arguments_and_generate_repeats_them(tmp_path):
    pytest.importorskip("xacro", reason="xacro files are expanded with the optional 'xacro' package")
    path = write(tmp_path, XACRO_ARGS, "args.urdf.xacro")
    r = run("info", path, "--format", "json", "--xacro-arg", "payload:=2.5")
    assert r.exit_code == 0, r.output
    import json

    assert [b["mass"] for b in json.loads(r.stdout)["bodies"]] == [1.5, 2.5]
    r = run("generate", path, "--xacro-arg", "payload:=2.5", "--xacro-arg", "reach:=0.4", "--lang", "python",
            "--algorithms", "mass_matrix", "--out", tmp_path / "g", "-q")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "g" / "r.py").read_text()
    assert "--xacro-arg payload:=2.5 --xacro-arg reach:=0.4" in text


@pytest.mark.parametrize("args,message", [
    (["--xacro-arg", "payload"], "expected NAME:=VALUE"),
    (["--xacro-arg", ":=1"], "expected NAME:=VALUE"),
])
def test_a_malformed_xacro_arg_is_one_line(tmp_path, args, message):
    r = run("info", "planar2", *args)
    assert r.exit_code == 2 and message in r.output and len(r.output.strip().splitlines()) == 1, r.output


def test_xacro_args_for_a_file_xacro_does_not_expand_are_refused(tmp_path):
    r = run("info", write(tmp_path, URDF, "plain.urdf"), "--xacro-arg", "reach:=1")
    assert r.exit_code == 2 and "xacro arguments (reach) for a file that xacro does not expand" in r.output
    r = run("info", "planar2", "--xacro-arg", "reach:=1")
    assert r.exit_code == 2 and "xacro does not expand" in r.output
