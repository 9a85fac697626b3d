"""The one parameter convention (docs/conventions.md "Inertial parameters"): Pinocchio's
dynamic parameters pi = (m, m c, I about the body origin), with the conversions to and
from (m, c, I_c) in soagen.model, checked against Pinocchio's own and against the
dynamics they must reproduce."""

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import SoagenError
from soagen.model import (
    PARAMETERS,
    dynamic_parameters,
    mass_properties,
    with_parameters,
)
from tests.support.accuracy import rel_err
from tests.support.derivatives import ALL_JOINTS, random_state, random_tree

TOL = 1e-12      # two double-precision routes to the same numbers: round-off only (~1e-15)


def random_bodies(n, seed=0):
    """(m, c, I_c) with a random positive definite inertia about the centre of mass."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        R = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        a, b = rng.uniform(0.01, 1.0, size=2)
        moments = np.array([a, b, rng.uniform(abs(a - b) + 1e-3, a + b)])     # triangle inequality
        yield rng.uniform(0.1, 10.0), rng.normal(size=3) * 0.3, R @ np.diag(moments) @ R.T


def test_conversions_invert_each_other_in_pinocchios_order():
    for m, c, I_c in random_bodies(20):
        pi = dynamic_parameters(m, c, I_c)
        assert pi.shape == (10,) and len(PARAMETERS) == 10
        assert pi[0] == m and rel_err(pi[1:4], m * c) < TOL
        I_O = I_c + m * (c @ c * np.eye(3) - np.outer(c, c))          # Steiner, written out
        assert rel_err(pi[4:], I_O[[0, 0, 1, 0, 1, 2], [0, 1, 1, 2, 2, 2]]) < TOL
        m2, c2, I2 = mass_properties(pi)
        assert m2 == m and rel_err(c2, c) < TOL and rel_err(I2, I_c) < TOL


def test_robot_with_its_own_parameters_has_the_same_dynamics():
    """with_parameters(robot, inertial_parameters(robot)) is the same robot; a perturbed
    pi is not (the check can fail)."""
    robot = random_tree(31, n=5, joint_types=ALL_JOINTS)[0]
    pi = A.inertial_parameters(robot)
    same, heavier = with_parameters(robot, pi), with_parameters(robot, pi * np.repeat([1, 1, 1.5, 1, 1], 10))
    q, qd, qdd, _ = random_state(robot, np.random.default_rng(4))
    want = A.inverse_dynamics(robot, q, qd, qdd)
    assert rel_err(A.inverse_dynamics(same, q, qd, qdd), want) < TOL
    assert rel_err(A.inverse_dynamics(heavier, q, qd, qdd), want) > 1e-3
    with pytest.raises(SoagenError, match="10 per body"):
        with_parameters(robot, pi[:-1])


def test_regressor_takes_the_same_vector():
    robot = soagen.load("robots/puma560.yaml")
    pi = A.inertial_parameters(robot)
    q, qd, qdd, _ = random_state(robot, np.random.default_rng(5))
    assert rel_err(A.regressor(robot, q, qd, qdd) @ pi, A.inverse_dynamics(robot, q, qd, qdd)) < TOL


@pytest.mark.oracle
def test_against_pinocchios_dynamic_parameters():
    """pin.Inertia(m, c, I_c).toDynamicParameters() and Inertia.FromDynamicParameters."""
    pin = pytest.importorskip("pinocchio", reason="the oracle needs the optional 'pin' package")
    for m, c, I_c in random_bodies(20, seed=1):
        pi = dynamic_parameters(m, c, I_c)
        assert rel_err(pi, pin.Inertia(m, c, I_c).toDynamicParameters()) < TOL
        back = pin.Inertia.FromDynamicParameters(pi)
        m2, c2, I2 = mass_properties(pi)
        assert rel_err([m2], [back.mass]) < TOL and rel_err(c2, back.lever) < TOL and rel_err(I2, back.inertia) < TOL
