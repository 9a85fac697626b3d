"""MJCF through MuJoCo's compiler: the generic algorithms on the loaded model against
MuJoCo's own mj_fullM / mj_rne on the same file (hinge, slide, ball, free joints, several
joints in one body, joint ``ref`` offsets, welded bodies, sites), and against Pinocchio
on real URDFs compiled by MuJoCo."""

import sys
import textwrap
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import RobotFileError, RobotFileWarning
from soagen.loaders.description import build
from soagen.oracles.mujoco import MuJoCoOracle, modelled_only
from soagen.oracles.pinocchio import example_robot_data_dir
from tests.support.accuracy import rel_err

mujoco = pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package (pip install soagen[mjcf])")
pytestmark = pytest.mark.oracle

TOL = 1e-10

# every joint kind, two joints in one body, ref offsets, a welded body with mass, a site
# as the tip, default classes, inertias from geoms, euler / axisangle orientations
ARM = textwrap.dedent("""\
    <mujoco model="arm">
      <option gravity="0.3 -0.2 -9.81"/>
      <default><joint damping="0.1"/><default class="big"><geom density="2000"/></default></default>
      <worldbody>
        <body name="base" pos="0 0 0.5" euler="10 20 30">
          <joint name="yaw" type="hinge" axis="0 0 1" ref="0.3"/>
          <joint name="lift" type="slide" axis="0.2 0.3 1" pos="0.05 0 0" ref="0.1"/>
          <inertial pos="0.01 0.02 0.03" mass="2" fullinertia="0.05 0.06 0.07 0.001 -0.002 0.003"/>
          <body name="upper" pos="0.2 0 0" axisangle="1 1 0 40">
            <joint name="shoulder" type="ball" pos="0 0 0.05"/>
            <geom class="big" type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
            <body name="bracket" pos="0.3 0 0" quat="0.9 0.1 0.3 0.2">
              <geom type="box" size="0.03 0.02 0.01" pos="0.01 0 0"/>
              <body name="fore" pos="0.05 0 0">
                <joint name="elbow" axis="0 1 0" pos="0.02 0 0"/>
                <joint name="wrist" axis="1 0 0" pos="0.2 0 0.01" ref="-0.4"/>
                <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.03"/>
                <site name="tool" pos="0.27 0 0.01" euler="0 90 0"/>
              </body>
            </body>
          </body>
        </body>
      </worldbody>
    </mujoco>
    """)


def write(tmp_path, text, name="robot.xml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def compare_with_mujoco(robot, path, states=3, seed=0):
    """M (armature included), inverse dynamics (mj_inverse, with the joints' passive forces)
    and forward dynamics against MuJoCo, with what soagen does not model (gravity
    compensation, constraints, ...) switched off in MuJoCo's model."""
    oracle = MuJoCoOracle(robot, modelled_only(mujoco.MjModel.from_xml_path(str(path))))
    assert oracle.m.nq == robot.nq and oracle.m.nv == robot.nv
    rng = np.random.default_rng(seed)
    for _ in range(states):
        q = robot.random_configuration(rng)
        v, a, tau = (rng.normal(size=robot.nv) for _ in range(3))
        assert rel_err(A.mass_matrix(robot, q), oracle.mass_matrix(q)) < TOL
        assert rel_err(A.inverse_dynamics(robot, q, v, a), oracle.inverse_dynamics(q, v, a)) < TOL
        qdd = A.forward_dynamics(robot, q, v, tau)
        assert rel_err(oracle.inverse_dynamics(q, v, qdd), tau) < 1e-8


def test_every_joint_kind_refs_welds_and_sites_against_mujoco(tmp_path):
    path = write(tmp_path, ARM)
    robot = soagen.load(path, tip="tool")
    assert [(b.joint_name, b.joint.kind) for b in robot.bodies] == [
        ("yaw", "revolute"), ("lift", "prismatic"), ("shoulder", "spherical"),
        ("elbow", "revolute"), ("wrist", "revolute")]
    assert [b.name for b in robot.bodies] == ["base:yaw", "base", "upper", "fore:elbow", "fore"]
    assert rel_err(robot.gravity, [0.3, -0.2, -9.81]) < 1e-15     # read, not computed
    compare_with_mujoco(robot, path)


def test_tip_site_pose_matches_mujoco(tmp_path):
    """q is MuJoCo's qpos (ref offsets built in): the site's world pose agrees."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses

    path = write(tmp_path, ARM)
    robot = soagen.load(path, tip="tool")
    oracle = MuJoCoOracle(robot, mujoco.MjModel.from_xml_path(str(path)))
    q = robot.random_configuration(np.random.default_rng(5))
    oracle.set_state(q, np.zeros(robot.nv))
    R, o = frame_pose(robot, world_poses(robot, link_transforms(robot, q, NUMPY)), robot.tip)
    site = oracle.m.site("tool").id
    assert rel_err(o, oracle.d.site_xpos[site]) < TOL
    assert rel_err(R, oracle.d.site_xmat[site].reshape(3, 3)) < TOL


def test_mujoco_testdata_model_free_bodies_and_warnings():
    """MuJoCo's own test model: free joints, balls, two hinges in one body, armature read,
    plus what the model leaves out (gravcomp), named in a warning; its weld equality becomes
    a loop closure (tests/loops)."""
    path = next(p for p in sys.modules["mujoco"].__path__) + "/testdata/model.xml"
    with pytest.warns(RobotFileWarning) as rec:
        robot = soagen.load(path)
    text = [str(w.message) for w in rec]
    assert not any("armature is not modelled" in t for t in text) and robot.has_armature
    assert any("gravity compensation" in t for t in text)
    assert [c.kind for c in robot.closures] == ["weld"]
    m = mujoco.MjModel.from_xml_path(path)
    kinds = {"free": mujoco.mjtJoint.mjJNT_FREE, "spherical": mujoco.mjtJoint.mjJNT_BALL}
    for kind, mj in kinds.items():
        assert sum(b.joint.kind == kind for b in robot.bodies) == sum(m.jnt_type == mj) > 0
    compare_with_mujoco(robot, path, states=2)


def test_mjcf_errors_are_one_line(tmp_path, monkeypatch):
    bad = write(tmp_path, ARM.replace('mass="2"', 'mass="-2"'))
    with pytest.raises(RobotFileError) as err:
        soagen.load(bad)
    assert str(err.value).startswith(f"{bad}: MJCF: MuJoCo cannot compile it:") and "\n" not in str(err.value)
    broken = write(tmp_path, ARM[:300], "broken.xml")
    with pytest.raises(RobotFileError, match="MuJoCo cannot compile it") as err:
        soagen.load(broken)
    assert "\n" not in str(err.value)
    monkeypatch.setitem(sys.modules, "mujoco", None)           # as without the package
    with pytest.raises(RobotFileError, match=r"pip install soagen\[mjcf\]"):
        soagen.load(write(tmp_path, ARM, "again.xml"))


def test_urdf_saved_as_xml_is_read_as_urdf(tmp_path):
    from tests.support.robot_files import URDF

    robot = soagen.load(write(tmp_path, URDF, "r.xml"))
    assert [b.joint_name for b in robot.bodies] == ["a", "b"]


@pytest.mark.parametrize("rel", ["ur_description/urdf/ur5_robot.urdf", "z1_description/urdf/z1.urdf"])
def test_urdf_compiled_by_mujoco_against_pinocchio(tmp_path, rel):
    """A real robot read through MuJoCo's compiler (its URDF import, fixed links kept as
    welded bodies) gives Pinocchio's dynamics on the URDF; MuJoCo imports <dynamics
    damping> (Z1 has it), which is Pinocchio's ``model.damping`` and soagen's passive force."""
    pin = pytest.importorskip("pinocchio", reason="needs the optional 'pin' package")
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    from soagen.loaders.mjcf import parse
    from soagen.oracles.pinocchio import Converter, symmetrized

    tree = ET.parse(root / rel)
    for link in tree.getroot().iter("link"):
        for tag in ("visual", "collision"):
            for e in link.findall(tag):
                link.remove(e)
    ET.SubElement(ET.SubElement(tree.getroot(), "mujoco"), "compiler", fusestatic="false", discardvisual="true")
    path = tmp_path / "robot.urdf"
    tree.write(path)
    robot = build(parse(path))
    model = pin.buildModelFromUrdf(str(root / rel))
    data, conv = model.createData(), Converter(robot, model)
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = robot.random_configuration(rng)
        v, a = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
        qp = conv.q_to_pin(q)
        assert rel_err(A.mass_matrix(robot, q), conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))) < 1e-9
        tau = conv.v_from_pin(pin.rnea(model, data, qp, conv.v_to_pin(v), conv.v_to_pin(a)))
        passive = A.passive_forces(robot, q, v)
        assert rel_err(passive, -conv.v_from_pin(model.damping) * v) < 1e-15
        assert rel_err(A.inverse_dynamics(robot, q, v, a) + passive, tau) < 1e-9


ARM_ROOT = ET.fromstring(ARM)
ARM_ATTRS = [(i, name) for i, e in enumerate(ARM_ROOT.iter()) for name in e.attrib]


@pytest.mark.parametrize("seed", range(3))
def test_mutated_mjcf_is_one_line_or_loads(tmp_path, seed, monkeypatch):
    """Attribute values replaced by junk: MuJoCo's compile error on one line, or a model
    (with no numpy warning on the way); MuJoCo's own warnings become RobotFileWarnings,
    not a MUJOCO_LOG.TXT in the working directory."""
    import copy

    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(seed)
    junk = ["", "x", "nan", "-1", "0", "1e308", "0 0 0", "1 2", "hinge", "free", "base", "1 0 0 0"]
    for _ in range(15):
        root = copy.deepcopy(ARM_ROOT)
        index, name = ARM_ATTRS[rng.integers(len(ARM_ATTRS))]
        list(root.iter())[index].set(name, str(rng.choice(junk)))
        path = write(tmp_path, ET.tostring(root, encoding="unicode"))
        with warnings.catch_warnings(), np.errstate(all="raise"):
            warnings.simplefilter("error")
            warnings.simplefilter("ignore", RobotFileWarning)
            try:
                soagen.load(path)
            except RobotFileError as err:
                assert "\n" not in str(err) and str(err).startswith(str(path))
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists()


def test_mujoco_warnings_are_robot_file_warnings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, ARM.replace('<geom type="box" size="0.03 0.02 0.01" pos="0.01 0 0"/>',
                                       '<geom type="box" size="0.03 0.02 0.01" pos="0.01 0 0" rgba="nan 0 0 1"/>'))
    with pytest.warns(RobotFileWarning, match="MJCF: MuJoCo: XML contains a 'NaN'"):
        soagen.load(path, tip="tool")
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists()
