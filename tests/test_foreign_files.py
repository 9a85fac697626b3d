"""Robot files written by other packages, read as those packages read them: a URDF with
whitespace before its XML declaration, an element repeated with the same values, MJCF's
disabled gravity, and MJCF free joints on bodies with a pose of their own. Each against
Pinocchio (URDF) or MuJoCo's mj_fullM and qfrc_bias (MJCF)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.backend import NUMPY
from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses
from soagen.errors import RobotFileError, RobotFileWarning
from tests.support.accuracy import rel_err
from tests.support.robot_files import URDF, load_quietly, write

# Two independent codes on the same file: agreement to rounding (the dynamics of these
# small models are O(1) quantities; 1e-12 leaves room for the different summation orders).
TOL = 1e-12




def against_pinocchio(robot, path, states=3):
    """RNEA and CRBA of soagen's model against Pinocchio's model of the same URDF."""
    pin = pytest.importorskip("pinocchio", reason="needs the optional 'pin' package (Pinocchio)")
    from soagen.oracles.pinocchio import Converter, symmetrized

    model = pin.buildModelFromUrdf(str(path))
    data, conv = model.createData(), Converter(robot, model)
    rng = np.random.default_rng(3)
    for _ in range(states):
        q = robot.random_configuration(rng)
        v, a = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
        qp, vp = conv.q_to_pin(q), conv.v_to_pin(v)
        assert rel_err(A.inverse_dynamics(robot, q, v, a),
                       conv.v_from_pin(pin.rnea(model, data, qp, vp, conv.v_to_pin(a)))) < TOL
        assert rel_err(A.mass_matrix(robot, q), conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))) < TOL


# ---- (a) whitespace before <?xml ...?> ------------------------------------------------

DECLARED = '<?xml version="1.0" encoding="utf-8"?>\n' + URDF


@pytest.mark.parametrize("lead", ["\n", "\n\n  \t\n", "   "])
def test_urdf_with_whitespace_before_the_declaration_loads(tmp_path, lead):
    """XML forbids anything before the declaration; files from other tools carry a newline
    there, and Pinocchio and the simulators read them. So does soagen, to the same model."""
    path = write(tmp_path, lead + DECLARED, "lead.urdf")
    robot = load_quietly(path)
    clean = load_quietly(write(tmp_path, DECLARED, "clean.urdf"))
    assert [b.joint_name for b in robot.bodies] == ["a", "b"]
    q = np.array([0.3, -0.7])
    assert rel_err(A.mass_matrix(robot, q), A.mass_matrix(clean, q)) == 0.0
    against_pinocchio(robot, path)


def test_urdf_saved_as_xml_with_leading_whitespace_is_still_urdf(tmp_path):
    robot = load_quietly(write(tmp_path, "\n" + DECLARED, "r.xml"))
    assert [b.joint_name for b in robot.bodies] == ["a", "b"]


def test_malformed_xml_after_leading_lines_names_the_files_line(tmp_path):
    """The error line is the file's, not the line within the stripped text."""
    broken = "\n\n\n" + DECLARED.replace('<link name="ee"/>', '<link name="ee">')
    line = broken.splitlines().index("</robot>") + 1
    with pytest.raises(RobotFileError, match=rf": line {line}: malformed XML"):
        soagen.load(write(tmp_path, broken, "broken.urdf"))


# ---- (b) an element repeated with the same values -------------------------------------

@pytest.mark.parametrize("old,new,element", [
    ('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><axis xyz="1.0 0 0.0"/>', "<joint name='b'>: <axis>"),
    ('<mass value="0.5"/>', '<mass value="0.5"/><mass value="0.50"/>', "<link name='l2'>/inertial: <mass>"),
    ('<origin xyz="0 0 0.1"/>', '<origin xyz="0 0 0.1"/><origin xyz="0 0 0.1"/>', "<joint name='c'>: <origin>"),
])
def test_an_identical_repeat_is_a_warning_and_changes_nothing(tmp_path, old, new, element):
    path = write(tmp_path, URDF.replace(old, new, 1), "rep.urdf")
    with pytest.warns(RobotFileWarning, match="given 2 times \\(with the same values\\)") as rec:
        robot = soagen.load(path)
    assert len(rec) == 1 and element in str(rec[0].message), str(rec[0].message)
    clean = load_quietly(write(tmp_path, URDF, "clean.urdf"))
    q = np.array([0.3, -0.7])
    assert rel_err(A.mass_matrix(robot, q), A.mass_matrix(clean, q)) == 0.0
    with pytest.raises(RobotFileError, match="given 2 times .*refused: strict"):
        soagen.load(path, strict=True)
    against_pinocchio(robot, path)


def test_a_conflicting_repeat_is_an_error(tmp_path):
    path = write(tmp_path, URDF.replace('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><axis xyz="0 1 0"/>'), "c.urdf")
    with pytest.raises(RobotFileError, match="<joint name='b'>: <axis> given 2 times, with different values"):
        soagen.load(path)


# ---- MJCF: disabled gravity and free joints, against MuJoCo -----------------------------

mujoco = pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")


def full_mass_matrix(m, d):
    """MuJoCo's dense mass matrix (armature included)."""
    M = np.zeros((m.nv, m.nv))
    try:
        mujoco.mj_fullM(m, d, M)              # MuJoCo 4
    except TypeError:
        mujoco.mj_fullM(m, M, d.qM)           # MuJoCo 3
    return M


def mujoco_terms(robot, m, q, v):
    """MuJoCo's mass matrix and bias forces (qfrc_bias: Coriolis, centrifugal, gravity)
    in soagen's coordinates, with the oracle of tests/test_mjcf.py: qvel = T v, qacc =
    T a + Tdot v, soagen's generalized forces are T^T MuJoCo's, so the bias is
    T^T (qfrc_bias + M_mj Tdot v). M_mj includes the armature, as soagen's M does."""
    from soagen.oracles.mujoco import MuJoCoOracle

    oracle = MuJoCoOracle(robot, m)
    T, Tdv = oracle.set_state(q, v)
    M_mj = full_mass_matrix(m, oracle.d)
    return T.T @ M_mj @ T, T.T @ (oracle.d.qfrc_bias + M_mj @ Tdv)


def qpos_to_q(robot, qpos):
    """MuJoCo's qpos in soagen's order (quaternions (w, x, y, z) -> (x, y, z, w))."""
    q, i = [], 0
    for b in robot.bodies:
        x = qpos[i:i + b.joint.nq]
        if b.joint.kind == "free":
            x = [*x[:3], *x[4:7], x[3]]
        elif b.joint.kind == "spherical":
            x = [*x[1:4], x[0]]
        q.extend(x)
        i += b.joint.nq
    return np.array(q)


FREE = textwrap.dedent("""\
    <mujoco model="free">
      <option gravity="0.5 -0.3 -9.81">{flag}</option>
      <default><geom contype="0" conaffinity="0"/></default>
      <worldbody>
        <body name="torso" pos="0.2 -0.1 1" euler="90 0 0">
          <freejoint name="root"/>
          <geom type="box" size="0.2 0.1 0.05" mass="3"/>
          <site name="top" pos="0 0 0.3"/>
          <body name="arm" pos="0.2 0 0" quat="0.9 0.1 0.3 0.2">
            <joint name="shoulder" type="hinge" axis="0 1 0"/>
            <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
            <site name="hand" pos="0.3 0 0"/>
          </body>
        </body>
        <body name="ball" pos="0 1 0.5" axisangle="1 1 0 30">
          <freejoint/>
          <geom type="sphere" size="0.1" mass="1" pos="0.02 0 0"/>
        </body>
      </worldbody>
    </mujoco>
    """)


@pytest.fixture
def free_model(tmp_path):
    path = write(tmp_path, FREE.format(flag=""), "free.xml")
    return load_quietly(path), mujoco.MjModel.from_xml_path(str(path))


def test_free_joint_q_is_the_bodys_world_pose_as_in_mujoco(free_model):
    """At MuJoCo's qpos0 every body and site sits where the file puts it (the free joint's
    q is its body's world pose, not a motion on top of the body's pos/euler)."""
    robot, m = free_model
    d = mujoco.MjData(m)
    rng = np.random.default_rng(4)
    qpos0 = np.array(m.qpos0)
    for qpos in (qpos0, qpos0 + np.r_[rng.normal(size=7), rng.normal(size=1), rng.normal(size=7)]):
        for adr in (3, 11):                                     # the two free joints' quaternions
            qpos[adr:adr + 4] /= np.linalg.norm(qpos[adr:adr + 4])
        d.qpos[:] = qpos
        mujoco.mj_kinematics(m, d)
        q = qpos_to_q(robot, qpos)
        poses = world_poses(robot, link_transforms(robot, q, NUMPY))
        for site in ("top", "hand"):
            R, o = frame_pose(robot, poses, robot.frame(site))
            sid = m.site(site).id
            assert rel_err(o, d.site_xpos[sid]) < TOL, site
            assert rel_err(R, d.site_xmat[sid].reshape(3, 3)) < TOL, site
    assert d.site_xpos[m.site("top").id][1] != pytest.approx(0.0)    # euler 90: the site is off the z axis


def test_free_bodies_mass_matrix_and_bias_against_mujoco(free_model):
    robot, m = free_model
    rng = np.random.default_rng(8)
    for _ in range(3):
        q = robot.random_configuration(rng)
        v = rng.normal(size=robot.nv)
        M, bias = mujoco_terms(robot, m, q, v)
        assert rel_err(A.mass_matrix(robot, q), M) < TOL
        assert rel_err(A.bias_forces(robot, q, v), bias) < TOL


def test_disabled_gravity_is_read_from_the_compiled_options(tmp_path):
    """<flag gravity="disable"/> keeps opt.gravity and sets a flag: soagen's gravity is
    zero, and its bias forces are MuJoCo's qfrc_bias (velocity terms only)."""
    path = write(tmp_path, FREE.format(flag='<flag gravity="disable"/>'), "nograv.xml")
    robot, m = load_quietly(path), mujoco.MjModel.from_xml_path(str(path))
    assert np.asarray(m.opt.gravity).any() and not np.asarray(robot.gravity).any()
    rng = np.random.default_rng(9)
    q = robot.random_configuration(rng)
    M, bias = mujoco_terms(robot, m, q, np.zeros(robot.nv))
    assert rel_err(A.bias_forces(robot, q, np.zeros(robot.nv)), bias) == 0.0 and not bias.any()
    v = rng.normal(size=robot.nv)
    M, bias = mujoco_terms(robot, m, q, v)
    assert rel_err(A.bias_forces(robot, q, v), bias) < TOL and rel_err(A.mass_matrix(robot, q), M) < TOL
    enabled = load_quietly(write(tmp_path, FREE.format(flag=""), "grav.xml"))
    assert tuple(enabled.gravity) == (0.5, -0.3, -9.81)


def test_armature_is_read_into_the_mass_matrix_as_mujoco_does(tmp_path):
    """Armature (rotor inertia) is read, per dof of each joint (a hinge and a free joint
    here), with no warning: MuJoCo's mass matrix is soagen's, and the rigid part is the
    mass matrix without it plus diag(armature)."""
    text = FREE.format(flag="").replace('axis="0 1 0"/>', 'axis="0 1 0" armature="0.25"/>')
    path = write(tmp_path, text.replace('<freejoint name="root"/>', '<joint name="root" type="free" armature="0.125"/>'),
                 "arm.xml")
    robot = load_quietly(path)
    rigid = load_quietly(write(tmp_path, FREE.format(flag=""), "rigid.xml"))
    from soagen.oracles.mujoco import MuJoCoOracle

    oracle = MuJoCoOracle(robot, mujoco.MjModel.from_xml_path(str(path)))
    q = robot.random_configuration(np.random.default_rng(1))
    T, _ = oracle.set_state(q, np.zeros(robot.nv))
    names = [b.joint_name for b in robot.bodies]
    armature = np.zeros(robot.nv)
    armature[robot.v_slice(names.index("root"))] = 0.125
    armature[robot.v_slice(names.index("shoulder"))] = 0.25
    assert np.array_equal(robot.armature, armature)
    assert rel_err(A.mass_matrix(robot, q), T.T @ full_mass_matrix(oracle.m, oracle.d) @ T) < TOL
    assert rel_err(A.mass_matrix(robot, q), A.mass_matrix(rigid, q) + np.diag(armature)) < TOL
