"""Branching robots without a tip: the tip-independent functions as before, and the frame
functions (Jacobian, Jdot qd, J M^-1 J^T) for every leaf frame or for the frames named
with --frames, as NAME_<frame>; generated C and Python against the generic algorithms at
the same frame, and the Jacobians against Pinocchio's frame Jacobians."""

from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.codegen.frames import frame_suffix, frames_named, leaf_frames
from soagen.codegen.registry import AT_A_FRAME
from soagen.errors import SoagenError
from tests.support.accuracy import rel_err as rel
from tests.support.codegen import build, random_states
from tests.support.erd import erd

SOLO = "solo_description/robots/solo12.urdf"
PANDA = "panda_description/urdf/panda.urdf"
TOL = 1e-12


def _robot(rel_path, **kw):
    path = erd(rel_path)
    if path is None:
        pytest.skip("example-robot-data is not installed")
    return path, soagen.load(path, **kw)


def _reference(robot, name, frame, args):
    if name == "jacobian":
        return A.jacobian(robot, args["q"], frame=frame)
    if name == "jacobian_dot_qd":
        return A.jacobian_dot_qd(robot, args["q"], args["qd"], frame=frame)
    if name == "frame_placement":
        return A.frame_placements(robot, args["q"], [frame])[frame]
    if name == "frame_velocity":
        return A.frame_velocities(robot, args["q"], args["qd"], [frame])[frame]
    if name == "frame_acceleration":
        return A.frame_accelerations(robot, args["q"], args["qd"], args["qdd"], [frame])[frame]
    return A.op_space_inverse_inertia(robot, args["q"], frame=frame)


def _check_frame_functions(robot, manifest, lib, py, frames, states=10):
    """Every NAME_<frame> of the manifest against the generic algorithm at that frame."""
    want_names = {f"{n}_{frame_suffix(f)}" for n in AT_A_FRAME for f in frames}
    assert want_names <= set(manifest["functions"])
    worst = 0.0
    for args in random_states(robot, states, seed=4):
        for fname in want_names:
            rec = manifest["functions"][fname]
            assert rec["function"] in AT_A_FRAME and fname == f"{rec['function']}_{frame_suffix(rec['frame'])}"
            inputs = [args[i] for i in rec["inputs"]]
            want = _reference(robot, rec["function"], rec["frame"], args)
            worst = max(worst, rel(lib(fname, *inputs), want),
                        rel(np.array(getattr(py, fname)(*inputs), dtype=float), want))
    assert worst <= TOL, worst
    return worst


@pytest.mark.parametrize("rel_path,kw,want", [
    (SOLO, {"floating_base": True}, ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]),
    ("anymal_c_simple_description/urdf/anymal.urdf", {"floating_base": True},
     ["LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"]),                  # hips hang off fixed links
    ("talos_data/robots/talos_reduced.urdf", {"floating_base": True},
     ["head_2_link", "gripper_left_motor_double_link", "gripper_right_motor_double_link",
      "left_sole_link", "right_sole_link"]),
    ("romeo_description/urdf/romeo.urdf", {"floating_base": True, "lock": ["*Hand", "*Finger*", "*Thumb*"]},
     ["l_sole", "r_sole", "HeadRollLink", "l_gripper", "r_gripper"]),   # not the force-sensor frames
    ("baxter_description/urdf/baxter.urdf", {},
     ["head", "r_gripper_l_finger_tip", "r_gripper_r_finger_tip", "l_gripper_l_finger_tip", "l_gripper_r_finger_tip"]),
])
def test_leaf_frames_are_the_end_effectors(rel_path, kw, want):
    """One frame per leaf body: its sole/foot/gripper/tip link, else the body's own link
    (ANYmal C silently got RH_FOOT as its tip before)."""
    _, robot = _robot(rel_path, **kw)
    assert robot.tip is None
    assert [f.name for f in leaf_frames(robot)] == want


@pytest.mark.cc
def test_quadruped_without_tip_all_feet(tmp_path):
    """Solo12 on a free base, no --tip: one Jacobian, Jdot qd and J M^-1 J^T per foot, plus
    the tip-independent functions (here inverse dynamics), each right at random states."""
    path, robot = _robot(SOLO, floating_base=True)
    manifest, lib, py = build(robot, path, tmp_path, algorithms=["inverse_dynamics", *AT_A_FRAME])
    feet = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
    assert sorted(manifest["functions"]) == sorted(["inverse_dynamics"] + [f"{n}_{f}" for n in AT_A_FRAME for f in feet])
    _check_frame_functions(robot, manifest, lib, py, feet)
    args = next(random_states(robot, 1))
    assert rel(lib("inverse_dynamics", args["q"], args["qd"], args["qdd"]),
               A.inverse_dynamics(robot, args["q"], args["qd"], args["qdd"])) <= TOL
    header = (tmp_path / f"{manifest['prefix']}.h").read_text()
    assert "void solo_jacobian_FL_FOOT(const double* q, double* J);" in header


@pytest.mark.cc
def test_all_feet_at_once(tmp_path):
    """op_space_inverse_inertia_frames: J M^-1 J^T of Solo12's four feet at once (24 x 24,
    the cheaper of one articulated sweep and the dense route, by operation count), against
    the generic one-sweep algorithm and against the per-foot functions on its diagonal."""
    path, robot = _robot(SOLO, floating_base=True)
    manifest, lib, py = build(robot, path, tmp_path, algorithms=["op_space_inverse_inertia",
                                                                 "op_space_inverse_inertia_frames"])
    rec = manifest["functions"]["op_space_inverse_inertia_frames"]
    feet = ["FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"]
    assert rec["frames"] == feet and rec["shape"] == [24, 24] and set(rec["candidates"]) == {"omega", "ldl"}
    assert "FL_FOOT, FR_FOOT, HL_FOOT, HR_FOOT" in (tmp_path / "solo.h").read_text()
    for args in random_states(robot, 5, seed=2):
        want = A.inverse_inertia_at_frames(robot, args["q"], feet)
        got = lib("op_space_inverse_inertia_frames", args["q"])
        assert rel(got, want) <= TOL and rel(np.array(py.op_space_inverse_inertia_frames(args["q"])), want) <= TOL
        for k, f in enumerate(feet):
            assert rel(got[6 * k:6 * k + 6, 6 * k:6 * k + 6], lib(f"op_space_inverse_inertia_{f}", args["q"])) <= TOL


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.cc
def test_all_feet_at_once_against_pinocchio(tmp_path):
    """The 24 x 24 J M^-1 J^T of Solo12's feet against Pinocchio's frame Jacobians and
    computeMinverse (every block, the couplings between feet included)."""
    pin = pytest.importorskip("pinocchio", reason="Pinocchio is the oracle")
    from soagen.oracles.pinocchio import (
        Converter,
        angular_first,
        pin_model,
        symmetrized,
    )

    path, robot = _robot(SOLO, floating_base=True)
    manifest, lib, _ = build(robot, path, tmp_path, algorithms=["op_space_inverse_inertia_frames"])
    feet = manifest["functions"]["op_space_inverse_inertia_frames"]["frames"]
    model = pin_model(path, floating=True)
    data, conv = model.createData(), Converter(robot, model)
    for args in random_states(robot, 3, seed=5):
        qp = conv.q_to_pin(args["q"])
        Minv = symmetrized(pin.computeMinverse(model, data, qp))
        J = np.concatenate([angular_first(pin.computeFrameJacobian(model, data, qp, model.getFrameId(f),
                                                                   pin.LOCAL_WORLD_ALIGNED)) for f in feet])
        assert rel(lib("op_space_inverse_inertia_frames", args["q"]), J @ Minv @ J.T) <= 1e-9   # the oracle bound


def test_frames_function_needs_two_frames(tmp_path):
    """A robot with one frame (a tip) skips it under the default 'all'; asked for directly
    with one frame it is refused in one line."""
    path, robot = _robot(PANDA, tip="panda_hand")
    from soagen.codegen.functions import generate_function
    from soagen.codegen.robot import render

    res = render(robot, path, algorithms=["jacobian", "op_space_inverse_inertia_frames"], langs=("python",))
    assert [f.name for f in res.functions] == ["jacobian"]
    with pytest.raises(SoagenError, match="needs two or more frames"):
        generate_function(robot, "op_space_inverse_inertia_frames", frame=[robot.tip])


@pytest.mark.cc
def test_panda_with_fingers_named_frames(tmp_path):
    """The Panda with its two prismatic fingers (a tree): by default the finger frames,
    with --frames the hand and link 7."""
    path, robot = _robot(PANDA)
    assert [f.name for f in leaf_frames(robot)] == ["panda_leftfinger", "panda_rightfinger"]
    frames = ["panda_hand", "panda_link7"]
    manifest, lib, py = build(robot, path, tmp_path, algorithms=list(AT_A_FRAME), frames=frames)
    assert len(manifest["functions"]) == 2 * len(AT_A_FRAME)
    _check_frame_functions(robot, manifest, lib, py, frames)


@pytest.mark.oracle
@pytest.mark.cc
def test_frame_jacobians_against_pinocchio(tmp_path):
    """The generated frame Jacobians of the Panda's hand and fingers against Pinocchio's
    computeFrameJacobian(LOCAL_WORLD_ALIGNED) of the same URDF (an implementation that
    shares nothing with soagen's)."""
    pin = pytest.importorskip("pinocchio", reason="Pinocchio is the oracle")
    from soagen.oracles.pinocchio import Converter, angular_first, pin_model

    path, robot = _robot(PANDA)
    frames = ["panda_hand", "panda_leftfinger", "panda_rightfinger"]
    manifest, lib, _ = build(robot, path, tmp_path, algorithms=["jacobian"], frames=frames)
    model = pin_model(path, floating=False)
    data, conv = model.createData(), Converter(robot, model)
    for args in random_states(robot, 5, seed=9):
        qp = conv.q_to_pin(args["q"])
        for f in frames:
            J_pin = pin.computeFrameJacobian(model, data, qp, model.getFrameId(f), pin.LOCAL_WORLD_ALIGNED)
            want = angular_first(J_pin)[:, conv.vperm]
            assert rel(lib(f"jacobian_{f}", args["q"]), want) <= 1e-12, f


def test_cli_frames_option_and_errors(tmp_path):
    path, _ = _robot(PANDA)
    out = tmp_path / "p"
    res = CliRunner().invoke(cli, ["generate", str(path), "--algorithms", "jacobian", "--frames",
                                   "panda_hand", "--out", str(out), "-q", "--lang", "c"])
    assert res.exit_code == 0, res.output
    text = (out / "panda.c").read_text()
    assert "void panda_jacobian_panda_hand(const double* q, double* J)" in text
    assert "--frames panda_hand" in text                     # the regenerate command
    res = CliRunner().invoke(cli, ["generate", str(path), "--frames", "nope", "--out", str(tmp_path / "x")])
    errors = [line for line in res.output.splitlines() if not line.startswith("warning: ")]   # the file's <dynamics D>
    assert res.exit_code == 2 and len(errors) == 1, res.output
    assert "no link named 'nope'" in errors[0] and "panda_leftfinger" in errors[0]
    assert not (tmp_path / "x").exists()


def test_frame_suffix_collision_is_refused():
    frames = (SimpleNamespace(name="a-b", body=0), SimpleNamespace(name="a_b", body=0))
    robot = SimpleNamespace(name="r", frames=frames, bodies=(SimpleNamespace(parent=-1),))
    assert frame_suffix("wrist.3-link") == "wrist_3_link"
    with pytest.raises(SoagenError, match="'a-b' and 'a_b' both become"):
        frames_named(robot, ["a-b", "a_b"])
