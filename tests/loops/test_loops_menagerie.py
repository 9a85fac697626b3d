"""A MuJoCo Menagerie robot with loops: Agility Cassie (agility_cassie/cassie.xml: a free
base, ball-jointed achilles rods, four ``connect`` constraints closing the knee and foot
linkages). Its closures as soagen reads them are MuJoCo's (efc_pos), the closed system's
accelerations satisfy them (A alpha~ below 1e-10) and agree with Pinocchio's
constraintDynamics, both on a Pinocchio model built from soagen's tree and on Pinocchio's
own reading of the MJCF file with the constraints its reader found (CONTACT_3D).

Needs the ``mujoco-menagerie`` package with the model in its cache (``mujoco-menagerie
prefetch agility_cassie``, or MENAGERIE_ROOT naming a Menagerie checkout): the test never
downloads. Measured: residual 1.4e-12 (m/s^2, against accelerations of 1e5 at random torques
on the light rods), Pinocchio 3.1e-13 relative (soagen's tree) and 2.1e-13 (Pinocchio's MJCF)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.oracles.pinocchio import Converter, pin_model_from_robot
from tests.support.loops import (
    closed_state,
    pin_closures,
    pin_constraint_dynamics,
    pin_mjcf_closures,
    q_from_qpos,
    qpos_from_q,
)

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def cassie():
    mujoco = pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    mm = pytest.importorskip("mujoco_menagerie", reason="the optional 'mujoco-menagerie' package is not installed")
    entry = mm.get("agility_cassie")
    cache = mm.Cache()
    if not (os.environ.get("MENAGERIE_ROOT") or cache.is_cached(entry)):
        pytest.skip("agility_cassie is not in the mujoco-menagerie cache (mujoco-menagerie prefetch agility_cassie; "
                    "the tests do not download)")
    path = entry.xml("cassie", cache)
    with pytest.warns(Warning):                 # actuators, contacts, ...: named in warnings
        robot = soagen.load(path)
    return path, robot, mujoco.MjModel.from_xml_path(str(path)), mujoco


def test_cassie_closures_are_mujocos(cassie):
    path, robot, m, mujoco = cassie
    assert [c.kind for c in robot.closures] == ["connect"] * 4 and m.neq == 4
    d = mujoco.MjData(m)
    rng = np.random.default_rng(0)
    q0 = q_from_qpos(robot, m.qpos0)
    assert np.abs(A.closure_errors(robot, q0)).max() < 1e-14
    from soagen.quaternion import integrate

    q = integrate(robot, q0, 0.2 * rng.normal(size=robot.nv))
    d.qpos[:] = qpos_from_q(robot, q)
    mujoco.mj_forward(m, d)
    eq = d.efc_type[:d.nefc] == mujoco.mjtConstraint.mjCNSTR_EQUALITY
    assert np.abs(A.closure_errors(robot, q) - d.efc_pos[:d.nefc][eq]).max() < 1e-14


@pytest.mark.parametrize("seed", range(2))
def test_cassie_loop_dynamics_against_pinocchio(cassie, seed):
    pin = pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
    path, robot, m, _ = cassie
    q, qd, tau = closed_state(robot, q_from_qpos(robot, m.qpos0), seed, spread=0.1)
    qdd = A.loop_forward_dynamics(robot, q, qd, tau)
    assert np.abs(A.closure_acceleration(robot, q, qd, qdd)).max() < 1e-10
    model = pin_model_from_robot(robot)
    tree = pin_constraint_dynamics(pin, model, pin_closures(pin, robot, model), Converter(robot, model), q, qd, tau)
    out = pin.buildModelsAndConstraintsFromMJCF(str(path))
    own, parsed = out[0], next(x for x in out if isinstance(x, dict))
    own.gravity = pin.Motion(np.array(robot.gravity), np.zeros(3))     # its reader leaves <option gravity> out
    own.names[1] = robot.bodies[0].joint_name                          # the unnamed free joint
    mjcf = pin_constraint_dynamics(pin, own, pin_mjcf_closures(pin, own, parsed), Converter(robot, own), q, qd, tau)
    scale = np.abs(qdd).max()
    errs = {"tree": np.abs(tree - qdd).max() / scale, "mjcf": np.abs(mjcf - qdd).max() / scale}
    assert max(errs.values()) < 1e-8, errs
