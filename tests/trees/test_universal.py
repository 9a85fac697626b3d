"""Universal joints. A universal (Hooke) joint R = Rot(a1, q1) Rot(a2, q2) has a body-frame
joint map whose first column Rot(a2, q2)^T a1 depends on q2, so it is not a constant-H^T
joint kind (which the bias acceleration a(k) of velocity_sweep assumes); soagen models it,
as Jain-Rodriguez do, as two revolute joints through a massless link. These are exactly
the coordinates of Pinocchio's JointModelUniversal (q = (q1, q2), v = q_dot), so the
comparison below is direct."""

from __future__ import annotations

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders.description import Description, JointSpec, LinkSpec, build
from soagen.loaders.random_robots import random_link, random_rotation
from soagen.oracles.pinocchio import symmetrized
from tests.support.accuracy import rel_err

TOL = 1e-12
"""Against Pinocchio's universal joint on a 3-dof robot (well conditioned): round-off of two
implementations, measured <= 2e-15; the oracle tests on bigger robots allow 1e-9 for M^-1."""


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(2))
def test_two_revolute_through_a_massless_link_is_pinocchios_universal_joint(pin, seed):
    rng = np.random.default_rng(400 + seed)
    a1, a2, a3 = (v / np.linalg.norm(v) for v in rng.normal(size=(3, 3)))
    links = [LinkSpec("base", "base"), LinkSpec("cross", "cross"), random_link(rng, "A"), random_link(rng, "B")]
    P0 = (random_rotation(rng), rng.normal(size=3) * 0.3)
    P1 = (random_rotation(rng), rng.normal(size=3) * 0.3)
    robot = build(Description("<u>", "u", links, [
        JointSpec("u1", "u1", "revolute", "base", "cross", *P0, a1),
        JointSpec("u2", "u2", "revolute", "cross", "A", np.eye(3), np.zeros(3), a2),
        JointSpec("k", "k", "revolute", "A", "B", *P1, a3)], np.array([0.0, 0.0, -9.81])))
    model = pin.Model()
    ju = model.addJoint(0, pin.JointModelUniversal(a1, a2), pin.SE3(*P0), "u")
    jk = model.addJoint(ju, pin.JointModelRevoluteUnaligned(a3), pin.SE3(*P1), "k")
    for j, b in ((ju, robot.bodies[1]), (jk, robot.bodies[2])):
        model.appendBodyToJoint(j, pin.Inertia(b.mass, np.asarray(b.com), np.asarray(b.inertia)), pin.SE3.Identity())
    data = model.createData()
    q, v, a = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    assert robot.bodies[0].mass == 0                                # the massless cross
    assert rel_err(A.inverse_dynamics(robot, q, v, a), pin.rnea(model, data, q, v, a)) < TOL
    assert rel_err(A.mass_matrix(robot, q), symmetrized(pin.crba(model, data, q))) < TOL
    assert rel_err(A.forward_dynamics(robot, q, v, a), pin.aba(model, data, q, v, a)) < TOL
