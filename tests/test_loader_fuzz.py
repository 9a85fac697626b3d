"""Property tests: any malformed robot or system description gives a clean one-line
RobotFileError, or loads into a model that is finite and sound; never another exception,
a numpy warning or a traceback.

The base documents use every feature of the formats (YAML: free, spherical, universal,
planar, prismatic, continuous and fixed joints, a fixed chain, an inertial frame, a
rotation matrix, a tip; URDF: every joint type, a mimic, inertial origins), and the
mutations reach values, keys, text, whole elements (URDF elements removed, duplicated,
inserted) and system files. Warnings (RobotFileWarning) must be one line naming the file
and become the error with strict=True; any other warning is an error here. Every model
that loads is checked at a random configuration: M finite and symmetric, and either a
clean SingularMassMatrixError or M^-1 finite with positive diagonals of M and M^-1.
The CLI cases at the end: malformed input to `soagen generate --out DIR` exits 2 with one
line and leaves DIR unwritten.
"""

import copy
import textwrap
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import yaml
from click.testing import CliRunner

hypothesis = pytest.importorskip("hypothesis", reason="property tests need hypothesis (test extra)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.errors import RobotFileError, RobotFileWarning, SingularMassMatrixError

EVERYTHING = textwrap.dedent("""\
    name: everything
    gravity: [0.1, 0, -9.81]
    links:
      - name: base
      - {name: trunk, mass: 8.0, com: [0.02, 0, 0.05],
         inertia: {ixx: 0.3, iyy: 0.4, izz: 0.5, ixy: 0.01, ixz: 0, iyz: 0.02}}
      - {name: shoulder, mass: 1.0, inertia: {ixx: 0.01, iyy: 0.012, izz: 0.014, ixy: 0, ixz: 0, iyz: 0}}
      - {name: upper, mass: 2.0, com: [0, 0, -0.2],
         inertia: {ixx: 0.03, iyy: 0.03, izz: 0.004, ixy: 0, ixz: 0, iyz: 0},
         inertial_frame: {xyz: [0.01, 0, 0], rpy: [0.1, 0.2, 0.3]}}
      - {name: carriage, mass: 0.5, inertia: {ixx: 0.001, iyy: 0.001, izz: 0.001, ixy: 0, ixz: 0, iyz: 0}}
      - {name: wrist, mass: 0.4, com: [0.05, 0, 0], inertia: {ixx: 0.001, iyy: 0.002, izz: 0.002, ixy: 0, ixz: 0, iyz: 0}}
      - {name: bracket, mass: 0.1, com: [0, 0.01, 0], inertia: {ixx: 1.0e-4, iyy: 1.0e-4, izz: 1.0e-4, ixy: 0, ixz: 0, iyz: 0}}
      - name: tool
      - {name: sled, mass: 3.0, inertia: {ixx: 0.05, iyy: 0.06, izz: 0.07, ixy: 0, ixz: 0, iyz: 0}}
    joints:
      - {name: free, type: floating, parent: base, child: trunk, xyz: [0, 0, 1]}
      - {name: ball, type: spherical, parent: trunk, child: shoulder, xyz: [0.2, 0.1, 0.3]}
      - {name: hooke, type: universal, parent: shoulder, child: upper, axis: [0, 0, 1], axis2: [0, 1, 0]}
      - {name: slide, type: prismatic, parent: upper, child: carriage, axis: [1, 1, 0], xyz: [0, 0, -0.4]}
      - {name: spin, type: continuous, parent: carriage, child: wrist, axis: [0, 1, 0],
         rotation: [[0, -1, 0], [1, 0, 0], [0, 0, 1]]}
      - {name: weld, type: fixed, parent: wrist, child: bracket, xyz: [0.1, 0, 0]}
      - {name: weld2, type: fixed, parent: bracket, child: tool, xyz: [0, 0, 0.05], rpy: [0, 1.5708, 0]}
      - {name: plane, type: planar, parent: trunk, child: sled, axis: [0, 0, 1], xyz: [0, 0, -0.3], rpy: [0.1, 0, 0]}
    tip: {link: tool, xyz: [0, 0, 0.02], rpy: [0.1, 0, 0]}
    """)

URDF_ALL = """<robot name="all">
  <link name="world"/>
  <link name="pelvis"><inertial><origin xyz="0 0 0.05" rpy="0.1 0 0"/><mass value="5"/>
    <inertia ixx="0.1" iyy="0.12" izz="0.08" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0.1 0 0" rpy="0 0 0.3"/><mass value="1.5"/>
    <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><mass value="0.5"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l3"><inertial><mass value="0.3"/>
    <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="cart"><inertial><mass value="2"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="ee"/>
  <joint name="float" type="floating"><parent link="world"/><child link="pelvis"/></joint>
  <joint name="a" type="continuous"><parent link="pelvis"/><child link="l1"/>
    <origin xyz="0 0 0.2"/><axis xyz="0 0.6 0.8"/></joint>
  <joint name="b" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.3 0 0" rpy="0.1 0.2 0.3"/><axis xyz="1 0 0"/><limit effort="1" velocity="1"/></joint>
  <joint name="c" type="prismatic"><parent link="l2"/><child link="l3"/>
    <axis xyz="0 0 1"/><mimic joint="b" multiplier="2" offset="0.1"/></joint>
  <joint name="d" type="fixed"><parent link="l3"/><child link="ee"/><origin xyz="0 0 0.1"/></joint>
  <joint name="e" type="planar"><parent link="pelvis"/><child link="cart"/><axis xyz="0 0 1"/></joint>
</robot>
"""

SYSTEM = Path("robots/systems/dual_arm_box.yaml").read_text().replace(
    "../arm6.yaml", str(Path("robots/arm6.yaml").resolve()))

junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(10**300, 10**400),
                 st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                 st.sampled_from(["1.0", "0", "fixed", "free", "universal", "base", "tool", "trunk", "ball"]),
                 st.lists(st.floats(-2, 2), max_size=4), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def paths(node, prefix=()):
    """All paths to values inside a nested dict/list document."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def mutate(doc, path, action, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if action == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


def check_sound(robot):
    """Invariants of a loaded model at a random configuration (no floating-point warnings)."""
    q = robot.random_configuration(np.random.default_rng(1))
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        M = A.mass_matrix(robot, q)
        assert np.all(np.isfinite(M)) and np.allclose(M, M.T, rtol=0, atol=1e-12 * np.abs(M).max())
        assert np.all(np.isfinite(A.inverse_dynamics(robot, q, np.ones(robot.nv), np.ones(robot.nv))))
        try:
            Minv = A.inverse_mass_matrix(robot, q)
        except SingularMassMatrixError as err:     # a singular configuration: said cleanly
            assert "\n" not in str(err) and "mass matrix is singular" in str(err)
            return
    assert np.all(np.isfinite(Minv)) and np.all(np.diag(M) > 0) and np.all(np.diag(Minv) > 0)


def check_loads_or_clean_error(path, load=soagen.load):
    """A one-line error naming the file, or a sound model; warnings one line naming the
    file, and the first of them the error under strict=True."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("error")
        warnings.simplefilter("always", RobotFileWarning)
        try:
            model = load(path)
        except RobotFileError as err:
            msg = str(err)
            assert "\n" not in msg and msg.startswith(str(path)), msg
            return
    for w in caught:
        assert "\n" not in str(w.message) and str(w.message).startswith(str(path))
    if load is soagen.load:
        check_sound(model)
        if caught:
            with pytest.raises(RobotFileError, match="strict"):
                soagen.load(path, strict=True)


BASE = yaml.safe_load(EVERYTHING)
ALL_PATHS = list(paths(BASE))


def test_base_documents_load_and_use_every_feature(tmp_path):
    robot = soagen.load(_write(tmp_path, EVERYTHING, "all.yaml"))
    assert {b.joint.kind for b in robot.bodies} == {"free", "spherical", "revolute", "prismatic", "planar"}
    assert robot.tip.name == "tool" and robot.nq == 7 + 4 + 2 + 1 + 1 + 3
    check_sound(robot)
    urdf = soagen.load(_write(tmp_path, URDF_ALL, "all.urdf"))
    assert {b.joint.urdf_type for b in urdf.bodies} == {"floating", "continuous", "revolute", "prismatic", "planar"}
    check_sound(urdf)


def _write(tmp_path, text, name):
    p = tmp_path / name
    p.write_text(text)
    return p


@settings(FUZZ, max_examples=150)
@given(st.sampled_from(ALL_PATHS), st.sampled_from(["replace", "delete"]), junk)
def test_mutated_yaml(tmp_path, path, action, value):
    doc = mutate(BASE, path, action, value)
    check_loads_or_clean_error(_write(tmp_path, yaml.safe_dump(doc), "fuzz.yaml"))


@settings(FUZZ, max_examples=80)
@given(st.integers(0, len(EVERYTHING)), st.text(max_size=5) | st.sampled_from(
    ['"', "\n  - name: base\n", "\nname: twice\n", " 1" + "0" * 400, "e-3", "{", "- ", ": ", "*"]))
def test_corrupted_yaml_text(tmp_path, cut, insert):
    check_loads_or_clean_error(_write(tmp_path, EVERYTHING[:cut] + insert + EVERYTHING[cut:], "fuzz.yaml"))


@settings(FUZZ, max_examples=40)
@given(st.sampled_from(range(len(BASE["links"]) + len(BASE["joints"]))), st.sampled_from(ALL_PATHS))
def test_yaml_duplicate_keys(tmp_path, index, path):
    """A mapping given a key twice (a later key copied into an earlier mapping) is refused."""
    lines = EVERYTHING.splitlines()
    line = next((i for i, x in enumerate(lines) if x.startswith("      - ")), 0) + index % 8
    key = str(path[-1]) if path and isinstance(path[-1], str) else "name"
    lines[line] = lines[line].replace("{", f"{{{key}: 1, {key}: 2, ", 1)
    check_loads_or_clean_error(_write(tmp_path, "\n".join(lines) + "\n", "dup.yaml"))


URDF_ROOT = ET.fromstring(URDF_ALL)
URDF_ATTRS = [(i, name) for i, e in enumerate(URDF_ROOT.iter()) for name in e.attrib]
ELEMENTS = ['<origin xyz="1 2 3" rpy="0 0 1"/>', '<mimic joint="nope"/>', '<mimic joint="a"/>', '<axis xyz="0 0 0"/>',
            '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>',
            '<mass value="1e308"/>', '<link name="extra"/>', '<link name="l1"/>', '<parent link="ee"/>',
            '<joint name="x" type="floating"><parent link="world"/><child link="extra"/></joint>',
            '<joint name="y" type="revolute"><parent link="ee"/><child link="pelvis"/></joint>',
            '<limit lower="1" upper="0"/>', '<visual><geometry><box size="1 1 1"/></geometry></visual>']


def _urdf_file(tmp_path, root):
    return _write(tmp_path, ET.tostring(root, encoding="unicode"), "fuzz.urdf")


@settings(FUZZ, max_examples=120)
@given(st.sampled_from(URDF_ATTRS), st.one_of(st.text(max_size=10), st.floats().map(repr),
                                              st.lists(st.floats(), max_size=4).map(lambda v: " ".join(map(repr, v)))))
def test_mutated_urdf_attribute(tmp_path, attr, value):
    root = copy.deepcopy(URDF_ROOT)
    index, name = attr
    list(root.iter())[index].set(name, value)
    check_loads_or_clean_error(_urdf_file(tmp_path, root))


@settings(FUZZ, max_examples=120)
@given(st.integers(1, len(list(URDF_ROOT.iter())) - 1), st.sampled_from(["remove", "duplicate", "insert"]),
       st.sampled_from(ELEMENTS))
def test_urdf_elements_removed_duplicated_inserted(tmp_path, index, action, element):
    root = copy.deepcopy(URDF_ROOT)
    parents = {c: p for p in root.iter() for c in p}
    target = list(root.iter())[index]
    if action == "remove":
        parents[target].remove(target)
    elif action == "duplicate":
        parents[target].append(copy.deepcopy(target))
    else:
        target.append(ET.fromstring(element))
    check_loads_or_clean_error(_urdf_file(tmp_path, root))


SYSTEM_DOC = yaml.safe_load(SYSTEM)
SYSTEM_PATHS = list(paths(SYSTEM_DOC))


@settings(FUZZ, max_examples=60)
@given(st.sampled_from(SYSTEM_PATHS), st.sampled_from(["replace", "delete"]), junk)
def test_mutated_system_file(tmp_path, path, action, value):
    doc = mutate(SYSTEM_DOC, path, action, value)
    check_loads_or_clean_error(_write(tmp_path, yaml.safe_dump(doc), "system.yaml"), load=soagen.load_system)


# the malformed inputs named in the issue, through the CLI: exit 2, one line, nothing written
CLI_CASES = {
    "duplicate key": ("r.yaml", EVERYTHING.replace("name: everything", "name: everything\nname: again")),
    "mass as a string": ("r.yaml", EVERYTHING.replace("mass: 8.0", 'mass: "8.0"')),
    "integer beyond double": ("r.yaml", EVERYTHING.replace("mass: 8.0", "mass: 1" + "0" * 400)),
    "integer beyond Python's int parsing": ("r.yaml", EVERYTHING.replace("mass: 8.0", "mass: 1" + "0" * 5000)),
    "URDF masses of 1e308": ("r.urdf", URDF_ALL.replace('value="1.5"', 'value="1e308"')),
    "mimic naming no joint, strict": ("r.urdf", URDF_ALL.replace('mimic joint="b"', 'mimic joint="nope"')),
    "stacked free joints": ("r.urdf", URDF_ALL),
    "massless moving leaf, strict": ("r.urdf", URDF_ALL.replace('<link name="ee"/>', '<link name="ee"/><link name="f"/>').replace(
        "</robot>", '<joint name="fj" type="revolute"><parent link="ee"/><child link="f"/></joint></robot>')),
    "lock naming no joint": ("r.urdf", URDF_ALL),
    "xacro macro left in a URDF": ("r.urdf", URDF_ALL.replace('<robot name="all">', '<robot name="all" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                                                             '<xacro:bad name="x"/>')),
}
EXTRA = {"mimic naming no joint, strict": ["--strict"], "stacked free joints": ["--floating-base"],
         "massless moving leaf, strict": ["--strict"],
         "lock naming no joint": ["--lock", "nope"]}


@pytest.mark.parametrize("case", sorted(CLI_CASES))
def test_cli_generate_refuses_malformed_input_cleanly(tmp_path, case):
    name, text = CLI_CASES[case]
    path = _write(tmp_path, text, name)
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, ["generate", str(path), "--out", str(out), "-q", *EXTRA.get(case, [])])
    assert r.exit_code == 2 and r.output.startswith(f"error: {path}") and r.output.count("\n") == 1, r.output
    assert not out.exists()
