"""Robot files: what loads, and the one-line error for each kind of bad input."""

import textwrap

import numpy as np
import pytest

import soagen
from soagen.errors import RobotFileError
from tests.support.accuracy import rel_err
from tests.support.robot_files import GOOD, URDF, write

EXACT = 1e-14
"""The loader's arithmetic on the file's decimals (merging, normalizing, rotating) against
the same numbers written out: a few ulp, measured <= 2e-16."""

def test_good_file_loads_and_merges_fixed_joint(tmp_path):
    r = soagen.load(write(tmp_path, GOOD))
    assert (r.nb, r.nq, r.nv) == (2, 2, 2)
    assert [b.joint.kind for b in r.bodies] == ["revolute", "prismatic"]
    assert rel_err(r.bodies[1].joint.axis, np.array([1, 1, 0]) / np.sqrt(2)) < EXACT
    # the fixed tool is merged into body b: mass 2.5, centre of mass moved toward the tool
    assert r.bodies[1].mass == 2.5
    assert rel_err(r.bodies[1].com, [0, 0, 0.5 * 0.2 / 2.5]) < EXACT
    # parallel-axis term: I_xx = 0.2 + 0.01 + 2 * 0.04^2 + 0.5 * 0.16^2
    assert r.bodies[1].inertia[0, 0] == pytest.approx(0.21 + 2 * 0.04**2 + 0.5 * 0.16**2, rel=EXACT)
    assert r.tip.name == "tool" and r.tip.body == 1 and rel_err(r.tip.r, [0, 0, 0.2]) < EXACT


@pytest.mark.parametrize("old,new,element,problem", [
    ("type: revolute, parent: base", "type: helical, parent: base", "joint 'j1'", "unknown joint type 'helical'"),
    ("mass: 2.0", "mass: -2.0", "link 'b'", "mass must be zero or positive"),
    ("mass: 2.0", 'mass: "2.0"', "link 'b'.mass", "expected a number, got '2.0' (a string: remove the quotes)"),
    ("mass: 2.0", "mass: true", "link 'b'.mass", "expected a number, got True"),
    ("mass: 2.0", "mass: 1" + "0" * 400, "link 'b'.mass", "number too large for double precision (about 10^400)"),
    ("mass: 2.0", "mass: 1" + "0" * 5000, "file", "malformed YAML: Exceeds the limit"),
    ("mass: 2.0", "mass: 1.0e+308", "link 'b'.mass", "larger than soagen accepts"),
    ("mass: 2.0", "mass: 2.0\n    mass: 3.0", "line 11", "malformed YAML: duplicate key 'mass'"),
    ("name: two", "name: two\nname: three", "line 2", "malformed YAML: duplicate key 'name'"),
    ("{ixx: 0.2, iyy: 0.2, izz: 0.2,", "{ixx: 0.2, iyy: -0.2, izz: 0.2,", "link 'b'", "not positive semi-definite"),
    ("xyz: [0.5, 0, 0]", "xyz: '0.5 0 0'", "joint 'j2'.xyz", "expected 3 numbers, got '0.5 0 0'"),
    ("axis: [1, 1, 0]", "axis: [0, 0, 0]", "joint 'j2'", "axis must be a non-zero vector"),
    ("axis: [1, 1, 0]", "axis: [1, 1]", "joint 'j2'.axis", "expected 3 numbers"),
    ("parent: a, child: b", "parent: a, child: nowhere", "joint 'j2'", "child link 'nowhere' is not defined"),
    ("parent: b, child: tool", "parent: b, child: a", "joint 'j3'", "already has parent joint"),
    ("{name: j1, type: revolute, parent: base, child: a, axis: [0, 0, 1]}",
     "{name: j1, type: revolute, parent: b, child: a, axis: [0, 0, 1]}", "links", "not connected"),
    ("  - {name: j2, type: prismatic", "  - {type: prismatic", "joints[1]", "missing required key 'name'"),
    ("    mass: 1.0\n", "    masss: 1.0\n", "links[1]", "unknown key 'masss'"),
    ("gravity: [0, 0, -9.81]", "gravity: [0, 0, x]", "gravity", "expected a number"),
    ("name: two", "name: two\ntip: {link: hand}", "tip", "tip link 'hand' is not defined"),
    ("links:", "links: [", "line", "malformed YAML"),
])
def test_bad_yaml_gives_one_line_error(tmp_path, old, new, element, problem):
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(RobotFileError) as err:
        soagen.load(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(str(path)) and element in msg and problem in msg, msg


def test_cycle_is_reported(tmp_path):
    text = GOOD.replace("  - {name: j3, type: fixed, parent: b, child: tool, xyz: [0, 0, 0.2]}",
                        "  - {name: j3, type: fixed, parent: b, child: tool}\n"
                        "  - {name: j4, type: fixed, parent: tool, child: base}")
    with pytest.raises(RobotFileError, match="cycle"):
        soagen.load(write(tmp_path, text))


def test_urdf_continuous_fixed_and_tilted_axis(tmp_path):
    r = soagen.load(write(tmp_path, URDF, "r.urdf"))
    assert [b.joint.urdf_type for b in r.bodies] == ["continuous", "revolute"]
    assert rel_err(r.bodies[0].joint.axis, (0, 0.6, 0.8)) < EXACT
    assert r.tip.name == "ee" and rel_err(r.tip.r, [0, 0, 0.1]) < EXACT
    # inertial origin rpy rotates the inertia: the trace is invariant, the xy term is not
    assert np.trace(r.bodies[0].inertia) == pytest.approx(0.09, rel=EXACT)
    assert rel_err(r.bodies[0].com, [0.1, 0, 0]) < EXACT


@pytest.mark.parametrize("old,new,problem", [
    ('<mass value="1.5"/>', '<mass value="-1.5"/>', "mass must be zero or positive"),
    ('<mass value="1.5"/>', '<mass value="1e308"/>', "larger than soagen accepts"),
    ('<mass value="1.5"/>', '<mass value="1.5"/><mass value="2"/>', "<mass> given 2 times"),
    ('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><axis xyz="0 1 0"/>', "<axis> given 2 times"),
    ('<child link="l2"/>', '<child link="l2"/><child link="ee"/>', "<child> given 2 times"),
    ('<inertial><mass value="0.5"/>', '<inertial><mass value="0.5"/><origin xyz="1 0 0"/><origin xyz="0 1 0"/>',
     "<origin> given 2 times"),
    ('type="continuous"', 'type="screw"', "unknown joint type"),
    ('<axis xyz="1 0 0"/>', '<axis xyz="1 0"/>', "expected 3 numbers"),
    ('<child link="l2"/>', '<child link="l9"/>', "child link 'l9' is not defined"),
    ('</robot>', '', "malformed XML"),
    ('ixx="0.02"', 'ixx="abc"', "expected a number"),
])
def test_bad_urdf_gives_one_line_error(tmp_path, old, new, problem):
    path = write(tmp_path, URDF.replace(old, new, 1), "r.urdf")
    with pytest.raises(RobotFileError) as err:
        soagen.load(path)
    assert problem in str(err.value) and "\n" not in str(err.value) and str(path) in str(err.value)


def test_unknown_suffix_and_missing_file(tmp_path):
    with pytest.raises(RobotFileError, match="unknown robot file type"):
        soagen.load(write(tmp_path, "x", "r.txt"))
    with pytest.raises(RobotFileError, match="no such file"):
        soagen.load(tmp_path / "absent.yaml")


def test_point_mass_and_welded_placeholder_accepted_but_not_an_indefinite_body(tmp_path):
    """A zero inertia is a point mass; a degenerate link welded by a fixed joint into a
    physical body is accepted (real URDFs carry such placeholders), and so is a thin rod
    (one zero principal moment); an inertia with a clearly negative principal moment is
    refused: that body could have negative kinetic energy."""
    point = GOOD.replace("inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01,", "inertia: {ixx: 0, iyy: 0, izz: 0,")
    assert soagen.load(write(tmp_path, point)).bodies[1].mass == 2.5
    welded = GOOD.replace("inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01,", "inertia: {ixx: 0, iyy: 0.01, izz: 0.01,")
    assert soagen.load(write(tmp_path, welded)).bodies[1].mass == 2.5
    rod = GOOD.replace("inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1,", "inertia: {ixx: 0, iyy: 0.1, izz: 0.1,")
    assert soagen.load(write(tmp_path, rod)).bodies[0].inertia[0, 0] == 0
    bad = GOOD.replace("inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1,", "inertia: {ixx: -0.01, iyy: 0.1, izz: 0.1,")
    with pytest.raises(RobotFileError, match="link 'a': inertia is not positive semi-definite"):
        soagen.load(write(tmp_path, bad))


UNIVERSAL = textwrap.dedent("""\
    links:
      - name: base
      - name: a
        mass: 1.0
        com: [0.1, 0.2, 0.3]
        inertia: {ixx: 0.1, iyy: 0.12, izz: 0.15, ixy: 0.01, ixz: 0, iyz: 0}
    joints:
      - {name: hooke, type: universal, parent: base, child: a, axis: [0, 0, 1], axis2: [0, 1, 0], xyz: [0, 0, 0.5]}
    """)


def test_universal_joint_is_two_revolutes_through_a_massless_cross(tmp_path):
    r = soagen.load(write(tmp_path, UNIVERSAL))
    assert [b.joint_name for b in r.bodies] == ["hooke_1", "hooke_2"]
    assert [b.name for b in r.bodies] == ["a_cross", "a"] and r.bodies[0].mass == 0
    assert rel_err(r.bodies[0].placement_r, [0, 0, 0.5]) < EXACT
    assert r.bodies[0].joint.axis == (0, 0, 1) and r.bodies[1].joint.axis == (0, 1, 0)
    # R = Rot(z, q1) Rot(y, q2): the body frame of `a` at (q1, q2)
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import link_transforms, world_poses
    q = np.array([0.3, -0.7])
    R = world_poses(r, link_transforms(r, q, NUMPY))[1][0]
    c1, s1, c2, s2 = np.cos(0.3), np.sin(0.3), np.cos(-0.7), np.sin(-0.7)
    Rz = np.array([[c1, -s1, 0], [s1, c1, 0], [0, 0, 1]])
    Ry = np.array([[c2, 0, s2], [0, 1, 0], [-s2, 0, c2]])
    assert rel_err(R, Rz @ Ry) < EXACT


def test_universal_joint_needs_axis2(tmp_path):
    with pytest.raises(RobotFileError, match="joint 'hooke': a universal joint needs 'axis2'"):
        soagen.load(write(tmp_path, UNIVERSAL.replace(", axis2: [0, 1, 0]", "")))


def test_huge_axis_is_normalized_without_overflow(tmp_path):
    """Found by the fuzz test: |axis| overflowed to inf and the axis silently became zero;
    then the length check itself overflowed (a numpy warning)."""
    with np.errstate(all="raise"):
        r = soagen.load(write(tmp_path, GOOD.replace("axis: [1, 1, 0]", "axis: [1.3e308, 1.3e308, 0]")))
    assert rel_err(r.bodies[1].joint.axis, (2 ** -0.5, 2 ** -0.5, 0)) < EXACT


def test_absurd_magnitudes_are_refused_before_they_overflow(tmp_path):
    """Found by the fuzz test: a fixed child link with its centre of mass at 1e200 m made
    the merged inertia overflow to inf/nan, and the model was accepted with it; URDF masses
    of 1e308 overflowed in the dynamics. Numbers beyond 1e30 are refused where they are
    written, with no numpy warning on the way."""
    import warnings

    urdf = """<robot name="r">
  <link name="base"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><origin xyz="1e200 0 0"/><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <joint name="f" type="fixed"><parent link="a"/><child link="b"/><origin xyz="0 0 0.1"/></joint>
</robot>"""
    path = write(tmp_path, urdf, "r.urdf")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RobotFileError) as err:
            soagen.load(path)
    msg = str(err.value)
    assert str(path) in msg and "<link name='b'>/inertial/origin@xyz: 1e+200 is larger than soagen accepts" in msg
    soagen.load(write(tmp_path, urdf.replace("1e200", "0.2"), "ok.urdf"))      # a sane offset loads
