"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against the Riccati sweep's factors (soagen.dynamics.innovations), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

import numpy as np

from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_innovations_factorization_fact_4_1(chain):
    robot, q, _, o, _ = chain
    F = np.eye(robot.nv) + o.H @ o.Phi @ o.L
    M_op = o.H @ o.phi @ o.M @ o.phi.T @ o.H.T
    assert rel_err(F @ o.D @ F.T, M_op) < tol(robot.nb)                         # (4.11)
