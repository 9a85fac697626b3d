"""A robot whose mass matrix is singular (Romeo: 24 finger and thumb joints move only
massless links) loads with a warning naming the joints and the --lock fix; inverse
dynamics, the mass matrix, Jacobians and the regressor work and agree with Pinocchio,
which loads the file as it is; only what needs M^-1 (forward dynamics, M^-1, the
operational-space inertia, the forward-dynamics derivatives) is refused, with the hint."""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.errors import (
    RobotFileError,
    RobotFileWarning,
    SingularMassMatrixError,
    SoagenError,
)
from soagen.oracles.pinocchio import example_robot_data_dir
from tests.support.accuracy import rel_err
from tests.support.robot_files import FINGERS, write

# Pinocchio and soagen on the same file: O(1)-scaled dynamics, different summation
# orders; the regressor's entries reach ~1e2 (a 55-dof tree), so relative 1e-11.
TOL = 1e-11
LOCK_ALL = ("LHand,LFinger12,LFinger13,LFinger21,LFinger22,LFinger23,LFinger31,LFinger32,LFinger33,LThumb1,"
            "LThumb2,LThumb3,RHand,RFinger12,RFinger13,RFinger21,RFinger22,RFinger23,RFinger31,RFinger32,"
            "RFinger33,RThumb1,RThumb2,RThumb3")


def load_romeo():
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    path = root / "romeo_description/urdf/romeo.urdf"
    with pytest.warns(RobotFileWarning) as rec:
        robot = soagen.load(path)
    return path, robot, [str(w.message) for w in rec]


def test_a_hand_of_massless_fingers_loads_with_a_warning_and_the_fix(tmp_path):
    path = write(tmp_path, FINGERS, "hand.urdf")
    with pytest.warns(RobotFileWarning) as rec:
        robot = soagen.load(path)
    assert [str(w.message) for w in rec] == [
        f"{path}: joints: 3 joints move only massless links (nothing beyond has mass or inertia), so the mass "
        "matrix is singular; lock them at their neutral position: --lock finger1,finger2,thumb_joint "
        "(inverse dynamics, the mass matrix, Jacobians and the regressor work; what needs M^-1 (forward "
        "dynamics, M^-1, the operational-space inertia) is refused)"]
    with pytest.raises(RobotFileError, match="refused: strict"):
        soagen.load(path, strict=True)
    q, v, a = np.array([0.2, 0.4, -0.3, 0.1]), np.ones(4), np.ones(4)
    M = A.mass_matrix(robot, q)
    assert np.linalg.matrix_rank(M) == 1 and M[0, 0] > 0 and not M[1:, :].any()
    assert rel_err(A.inverse_dynamics(robot, q, v, a), M @ a + A.bias_forces(robot, q, v)) < 1e-14
    for call in (lambda: A.forward_dynamics(robot, q, v, a), lambda: A.inverse_mass_matrix(robot, q),
                 lambda: A.op_space_inverse_inertia(robot, q, frame=robot.frame("f2")),
                 lambda: A.forward_dynamics_derivatives(robot, q, v, a)):
        with pytest.raises(SingularMassMatrixError, match=r"singular here .*\(to make it a fixed joint: --lock "):
            call()


def test_the_generator_refuses_only_what_needs_the_inverse(tmp_path):
    from soagen.codegen.robot import render

    path = write(tmp_path, FINGERS, "hand.urdf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobotFileWarning)
        robot = soagen.load(path)
    for name in ("forward_dynamics", "inverse_mass_matrix", "op_space_inverse_inertia",
                 "forward_dynamics_derivatives"):
        with pytest.raises(SoagenError) as err:
            render(robot, path, algorithms=["mass_matrix", name], langs=("python",))
        assert str(err.value) == (f"{path}: joints: {name} needs M^-1, but 3 joints move only massless links "
                                  "(nothing beyond has mass or inertia), so the mass matrix is singular; lock "
                                  "them at their neutral position: --lock finger1,finger2,thumb_joint")
    res = render(robot, path, algorithms=["inverse_dynamics", "mass_matrix", "jacobian", "regressor"],
                 langs=("python",), prefix="hand")
    assert set(res.manifest["functions"]) >= {"inverse_dynamics", "mass_matrix", "regressor"}


def test_generate_leaves_out_by_default_and_refuses_when_named(tmp_path):
    path = write(tmp_path, FINGERS, "hand.urdf")
    r = CliRunner().invoke(cli, ["generate", str(path), "--lang", "python", "--out", str(tmp_path / "o"), "-q",
                                 "--name", "hand"])
    assert r.exit_code == 0, r.output
    assert "--algorithms: left out inverse_mass_matrix, forward_dynamics, op_space_inverse_inertia" in r.stderr
    text = (tmp_path / "o" / "hand.py").read_text()
    assert "def mass_matrix(" in text and "def forward_dynamics(" not in text
    r = CliRunner().invoke(cli, ["generate", str(path), "--algorithms", "all", "--out", str(tmp_path / "p"), "-q"])
    assert r.exit_code == 2 and "op_space_inverse_inertia_frames need M^-1, but 3 joints" in r.output
    # the error only: the load warning said the same (it used to come first, the same sentence twice)
    assert len(r.output.strip().splitlines()) == 1 and not (tmp_path / "p").exists(), r.output
    r = CliRunner().invoke(cli, ["generate", str(path), "--lock", "finger*,thumb*", "--out", str(tmp_path / "q"),
                                 "--lang", "python", "-q", "--name", "hand"])
    assert r.exit_code == 0 and "def forward_dynamics(" in (tmp_path / "q" / "hand.py").read_text()


# ---- Romeo against Pinocchio --------------------------------------------------------------

pin = pytest.importorskip("pinocchio", reason="Pinocchio is the oracle (optional 'pin' package)")


@pytest.fixture(scope="module")
def romeo():
    path, robot, warned = load_romeo()
    model = pin.buildModelFromUrdf(str(path))
    return path, robot, model, warned


def test_romeo_loads_with_one_warning_naming_the_24_joints(romeo):
    path, robot, model, warned = romeo
    assert robot.nv == model.nv == 55
    assert len(warned) == 1 and "24 joints move only massless links" in warned[0]
    assert f"--lock {LOCK_ALL} (inverse dynamics" in warned[0]
    r = CliRunner().invoke(cli, ["info", str(path)])
    assert r.exit_code == 0 and "nv 55," in r.output and r.stderr.startswith(f"warning: {path}: joints: 24 joints")


def test_romeo_inverse_dynamics_mass_matrix_jacobian_regressor_against_pinocchio(romeo):
    from soagen.oracles.pinocchio import Converter, angular_first, symmetrized

    path, robot, model, _ = romeo
    data, conv = model.createData(), Converter(robot, model)
    fid = model.getFrameId("l_sole")
    rng = np.random.default_rng(21)
    body_of_joint = {b.joint_name: i for i, b in enumerate(robot.bodies)}
    cols = np.concatenate([np.arange(10) + 10 * body_of_joint[model.names[j]] for j in range(1, model.njoints)])
    for _ in range(2):
        q = robot.random_configuration(rng)
        v, a = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
        qp, vp, ap = conv.q_to_pin(q), conv.v_to_pin(v), conv.v_to_pin(a)
        assert rel_err(A.inverse_dynamics(robot, q, v, a), conv.v_from_pin(pin.rnea(model, data, qp, vp, ap))) < TOL
        M = A.mass_matrix(robot, q)
        assert rel_err(M, conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))) < TOL
        assert np.linalg.matrix_rank(M) < robot.nv                      # singular indeed
        J = angular_first(pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED))[:, conv.vperm]
        assert rel_err(A.jacobian(robot, q, frame=robot.frame("l_sole")), J) < TOL
        Y_pin = pin.computeJointTorqueRegressor(model, data, qp, vp, ap)     # rows: Pinocchio's v order
        Y = A.regressor(robot, q, v, a)
        assert rel_err(Y[:, cols], np.asarray(Y_pin)[conv.vperm, :]) < TOL


def test_romeo_refuses_what_needs_the_inverse_with_the_lock_hint(romeo):
    path, robot, _, _ = romeo
    q = robot.neutral_configuration()
    with pytest.raises(SingularMassMatrixError, match=r"joint '\w+': the mass matrix is singular here.*--lock \w+"):
        A.forward_dynamics(robot, q, np.zeros(robot.nv), np.zeros(robot.nv))
    from soagen.codegen.robot import render

    with pytest.raises(SoagenError, match=rf"forward_dynamics needs M\^-1, but 24 joints .*--lock {LOCK_ALL}$"):
        render(robot, path, algorithms=["forward_dynamics"], langs=("python",))


def test_romeo_generated_code_against_pinocchio(romeo, tmp_path):
    """The generated Python (inverse dynamics, mass matrix, the Jacobian at the left sole)
    of the unlocked Romeo, executed, against Pinocchio."""
    from soagen.codegen.emit import write as write_files
    from soagen.codegen.robot import render
    from soagen.oracles.pinocchio import Converter, angular_first, symmetrized

    path, robot, model, _ = romeo
    res = render(robot, path, algorithms=["inverse_dynamics", "mass_matrix", "jacobian"], langs=("python",),
                 prefix="romeo", frames=["l_sole"])
    write_files(res, tmp_path)
    spec = importlib.util.spec_from_file_location("romeo_gen", tmp_path / "romeo.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    data, conv = model.createData(), Converter(robot, model)
    rng = np.random.default_rng(5)
    q = robot.random_configuration(rng)
    v, a = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    qp = conv.q_to_pin(q)
    tau = np.asarray(gen.inverse_dynamics(list(q), list(v), list(a)))
    assert rel_err(tau, conv.v_from_pin(pin.rnea(model, data, qp, conv.v_to_pin(v), conv.v_to_pin(a)))) < TOL
    M = np.asarray(gen.mass_matrix(list(q))).reshape(robot.nv, robot.nv)
    assert rel_err(M, conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))) < TOL
    J = np.asarray(gen.jacobian_l_sole(list(q))).reshape(6, robot.nv)
    fid = model.getFrameId("l_sole")
    assert rel_err(J, angular_first(pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED))
                   [:, conv.vperm]) < TOL
