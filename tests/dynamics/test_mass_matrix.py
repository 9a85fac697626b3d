"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against the composite-body mass matrix (soagen.dynamics.mass_matrix), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

from soagen import algorithms as A
from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_mass_matrix_3_20(chain):
    robot, q, _, o, _ = chain
    M_op = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T) @ o.Pi          # (3.20)
    assert rel_err(A.mass_matrix(robot, q), M_op) < tol(robot.nb)
