"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against the Jacobian and Jdot qd (soagen.dynamics.jacobian), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

import numpy as np

from soagen import algorithms as A
from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_jacobian_3_13_and_jdot_qd(chain):
    robot, q, qd, o, _ = chain
    assert rel_err(A.jacobian(robot, q), o.B.T @ o.phi.T @ o.H.T @ o.Pi) < tol(robot.nb)
    w1 = o.V[:3]
    l10 = np.linalg.solve(o.B[:3, :3], o.B[:3, 3:])                          # recover l(1,0) from phi(1,0)
    a0 = np.concatenate([np.zeros(3), np.cross(w1, np.cross(w1, np.array([l10[2, 1], l10[0, 2], l10[1, 0]])))])
    assert rel_err(A.jacobian_dot_qd(robot, q, qd), o.B.T @ o.phi.T @ o.a + a0) < tol(robot.nb)
