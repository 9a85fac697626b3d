"""Generated C against Pinocchio on real robot files: every function soagen generate
writes by default for a floating-base humanoid (TALOS reduced, 38 dof; Romeo with its
hands locked, 37 dof) and a quadruped (Solo12, the fast case of the default run), at
random states: RNEA, CRBA, computeMinverse, ABA, and at each default frame the frame
Jacobian, the classical frame acceleration at qdd = 0 (Jdot qd) and J M^-1 J^T from
Pinocchio's own J and M^-1. Pinocchio shares no code with soagen (the oracle)."""

import warnings

import numpy as np
import pytest

import soagen
from soagen.codegen.compile import load_c
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from soagen.errors import RobotFileWarning
from tests.support.accuracy import rel_err
from tests.support.codegen import random_states
from tests.support.erd import erd

pin = pytest.importorskip("pinocchio", reason="Pinocchio is the oracle")
pytestmark = [pytest.mark.oracle, pytest.mark.cc]          # every test here compiles the generated C

from soagen.oracles.pinocchio import Converter, angular_first, symmetrized  # noqa: E402


def _load(rel_path, lock=()):
    path = erd(rel_path)
    if path is None:
        pytest.skip("example-robot-data is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobotFileWarning)
        robot = soagen.load(path, floating_base=True, lock=list(lock))
    model = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    if lock:
        from fnmatch import fnmatchcase

        locked = [model.getJointId(n) for n in model.names[1:] if any(fnmatchcase(n, p) for p in lock)]
        model = pin.buildReducedModel(model, locked, pin.neutral(model))
    return path, robot, model


class Oracle:
    """Pinocchio's value of each generated function (soagen's conventions)."""

    def __init__(self, robot, model):
        self.model, self.data, self.c = model, model.createData(), Converter(robot, model)

    def __call__(self, name, rec, args):
        """``name``: the manifest's key; a frame function's record names the function."""
        m, d, c = self.model, self.data, self.c
        qp = c.q_to_pin(args["q"])
        name = rec.get("function", name)
        if name == "inverse_dynamics":
            return c.v_from_pin(pin.rnea(m, d, qp, c.v_to_pin(args["qd"]), c.v_to_pin(args["qdd"])))
        if name == "bias_forces":
            return c.v_from_pin(pin.rnea(m, d, qp, c.v_to_pin(args["qd"]), np.zeros(m.nv)))
        if name == "mass_matrix":
            return c.matrix_from_pin(symmetrized(pin.crba(m, d, qp)))
        if name == "inverse_mass_matrix":
            return c.matrix_from_pin(symmetrized(pin.computeMinverse(m, d, qp)))
        if name == "forward_dynamics":
            return c.v_from_pin(pin.aba(m, d, qp, c.v_to_pin(args["qd"]), c.v_to_pin(args["tau"])))
        if name == "op_space_inverse_inertia_frames":          # all frames at once
            J = np.concatenate([self.jacobian(f, qp) for f in rec["frames"]])
            return J @ c.matrix_from_pin(symmetrized(pin.computeMinverse(m, d, qp))) @ J.T
        fid = m.getFrameId(rec["frame"])
        J = self.jacobian(rec["frame"], qp)
        if name == "jacobian":
            return J
        if name == "jacobian_dot_qd":
            pin.forwardKinematics(m, d, qp, c.v_to_pin(args["qd"]), np.zeros(m.nv))
            pin.updateFramePlacements(m, d)
            a = pin.getFrameClassicalAcceleration(m, d, fid, pin.LOCAL_WORLD_ALIGNED)
            return np.concatenate([a.angular, a.linear])
        Minv = c.matrix_from_pin(symmetrized(pin.computeMinverse(m, d, qp)))
        return J @ Minv @ J.T

    def jacobian(self, frame, qp):
        """The frame Jacobian, LOCAL_WORLD_ALIGNED, in soagen's row and column order."""
        fid = self.model.getFrameId(frame)
        J = pin.computeFrameJacobian(self.model, self.data, qp, fid, pin.LOCAL_WORLD_ALIGNED)
        return angular_first(J)[:, self.c.vperm]


def check(rel_path, tmp_path, lock=(), algorithms=None, states=3, flags=("-O1",)):
    """Generate (default functions and frames), compile, compare; the worst relative error
    per function."""
    path, robot, model = _load(rel_path, lock)
    kw = {"algorithms": algorithms} if algorithms else {}
    res = render(robot, path, langs=("c",), **kw)
    write(res, tmp_path)
    lib = load_c(tmp_path, res.manifest["prefix"], res.manifest, flags=flags)
    oracle, worst = Oracle(robot, model), {}
    for args in random_states(robot, states, seed=17):
        for name, rec in res.manifest["functions"].items():
            got = lib(name, *[args[i] for i in rec["inputs"]])
            worst[name] = max(worst.get(name, 0.0), rel_err(got, oracle(name, rec, args)))
    bad = {k: v for k, v in worst.items() if not v <= 1e-9}
    assert not bad, bad
    return res.manifest, worst


def test_solo12_floating_against_pinocchio(tmp_path):
    """The fast representative: a floating quadruped without a tip, so also the frame
    functions at its four feet."""
    manifest, worst = check("solo_description/robots/solo12.urdf", tmp_path,
                            algorithms=["inverse_dynamics", "mass_matrix", "forward_dynamics", "jacobian",
                                        "jacobian_dot_qd"])
    assert len(worst) == 3 + 2 * 4 and "jacobian_dot_qd_HR_FOOT" in worst


@pytest.mark.slow
def test_talos_reduced_floating_all_functions_against_pinocchio(tmp_path):
    manifest, worst = check("talos_data/robots/talos_reduced.urdf", tmp_path)
    assert manifest["nv"] == 38 and len(worst) == 5 + 3 * 5 + 1     # + J M^-1 J^T of the 5 frames at once


@pytest.mark.slow
def test_romeo_floating_hands_locked_against_pinocchio(tmp_path):
    """Romeo's 24 finger joints move only massless links (M is singular): locked, as
    Pinocchio's buildReducedModel does, the rest generates and agrees."""
    manifest, worst = check("romeo_description/urdf/romeo.urdf", tmp_path, lock=("*Hand", "*Finger*", "*Thumb*"))
    assert manifest["nv"] == 37 and "jacobian_l_sole" in worst
