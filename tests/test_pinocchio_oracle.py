"""Third kind of evidence: Pinocchio, an implementation nobody here
wrote, on real URDFs of example-robot-data and on our bundled and random robots.
RNEA, CRBA, ABA (against each of FD1-FD4), computeMinverse, the tip frame Jacobian,
the classical tip acceleration (Jdot qdot) and J M^-1 J^T, to 1e-9 relative."""

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.loaders.random_robots import random_chain
from soagen.oracles.pinocchio import (
    Converter,
    angular_first,
    example_robot_data_dir,
    pin_model_from_robot,
    symmetrized,
)
from tests.support.accuracy import rel_err
from tests.support.oracles import joint_space_errors

pin = pytest.importorskip("pinocchio", reason="the oracle needs the optional 'pin' package (pip install soagen[test])")
pytestmark = pytest.mark.oracle

TOL = 1e-9
URDFS = {  # file under example-robot-data/robots, tip link
    "ur5": ("ur_description/urdf/ur5_robot.urdf", None),
    "panda": ("panda_description/urdf/panda.urdf", "panda_hand"),
    "kinova": ("kinova_description/robots/kinova.urdf", None),
    "z1": ("z1_description/urdf/z1.urdf", None),
}


def with_tip_frame(model, robot):
    """Add soagen's tip frame to a Pinocchio model (for robots built joint by joint)."""
    jid = model.getJointId(robot.bodies[robot.tip.body].joint_name)
    fid = model.addFrame(pin.Frame("soagen_tip", jid, pin.SE3(np.asarray(robot.tip.R), np.asarray(robot.tip.r)),
                                   pin.FrameType.OP_FRAME))
    return model, fid


def compare(robot, model, fid, rng, states=3):
    data = model.createData()
    conv = Converter(robot, model)
    worst = 0.0
    for _ in range(states):
        q = robot.random_configuration(rng)
        qd, qdd, tau = (rng.normal(size=robot.nv) for _ in range(3))
        qp, vp = conv.q_to_pin(q), conv.v_to_pin(qd)
        errs = joint_space_errors(robot, model, data, conv, q, qd, qdd, tau)
        pin.forwardKinematics(model, data, qp, vp, np.zeros(model.nv))
        pin.updateFramePlacements(model, data)
        J = angular_first(pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED))[:, conv.vperm]
        errs["jacobian"] = rel_err(A.jacobian(robot, q), J)
        acc = pin.getFrameClassicalAcceleration(model, data, fid, pin.LOCAL_WORLD_ALIGNED)
        errs["jdot_qd"] = rel_err(A.jacobian_dot_qd(robot, q, qd), np.concatenate([acc.angular, acc.linear]))
        Minv = conv.matrix_from_pin(symmetrized(pin.computeMinverse(model, data, qp)))
        errs["J Minv J^T"] = rel_err(A.op_space_inverse_inertia(robot, q), J @ Minv @ J.T)
        bad = {k: v for k, v in errs.items() if not v < TOL}
        assert not bad, bad
        worst = max(worst, *errs.values())
    return worst


@pytest.mark.parametrize("name", sorted(URDFS))
def test_example_robot_data_urdf(name):
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    rel, tip = URDFS[name]
    robot = soagen.load(root / rel, tip=tip)
    model = pin.buildModelFromUrdf(str(root / rel))
    compare(robot, model, model.getFrameId(robot.tip.name), np.random.default_rng(7))


@pytest.mark.parametrize("name", ["planar2", "puma560", "stanford", "arm7"])
def test_bundled_robot(name):
    robot = soagen.load(f"robots/{name}.yaml")
    model, fid = with_tip_frame(pin_model_from_robot(robot), robot)
    compare(robot, model, fid, np.random.default_rng(11))


def test_arm7_file_matches_the_panda_urdf_it_transcribes():
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    full = pin.buildModelFromUrdf(str(root / URDFS["panda"][0]))
    fingers = [full.getJointId("panda_finger_joint1"), full.getJointId("panda_finger_joint2")]
    model = pin.buildReducedModel(full, fingers, pin.neutral(full))
    robot = soagen.load("robots/arm7.yaml")
    compare(robot, model, model.getFrameId("panda_hand_tcp"), np.random.default_rng(3))


@pytest.mark.parametrize("seed", range(4))
def test_random_chains_with_prismatic_joints(seed):
    """Prismatic joints on tilted axes exercise the Coriolis term 2 w x v_r that (2.32)
    prints without its factor 2."""
    rng = np.random.default_rng(100 + seed)
    robot = random_chain(int(rng.integers(2, 12)), rng, joint_types=("prismatic", "revolute"))
    model, fid = with_tip_frame(pin_model_from_robot(robot), robot)
    compare(robot, model, fid, rng)
