"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against J M^-1 J^T by the Upsilon sweep (soagen.dynamics.omega), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

import numpy as np

from soagen import algorithms as A
from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_op_space_inverse_inertia_6_7_6_10(chain):
    robot, q, _, o, _ = chain
    Lam_op = o.B.T @ o.psi.T @ o.H.T @ o.Dinv @ o.H @ o.psi @ o.B           # (6.7)
    Lam = A.op_space_inverse_inertia(robot, q)
    assert rel_err(Lam, Lam_op) < tol(robot.nb)
    J = A.jacobian(robot, q)
    assert rel_err(Lam, J @ np.linalg.solve(A.mass_matrix(robot, q), J.T)) < 1e-13 * np.linalg.cond(A.mass_matrix(robot, q))
