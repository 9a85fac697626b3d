"""The papers' operator expressions evaluated literally on dense world-frame matrices
(soagen.operators.chain) against Newton-Euler (soagen.dynamics.rne), on random chains with mixed revolute/prismatic
joints, tilted axes and random placements (the fixture ``chain``, tests/dynamics/conftest.py)."""

from soagen import algorithms as A
from tests.support.accuracy import dense_tol as tol
from tests.support.accuracy import rel_err


def test_bias_forces_3_20_with_gravity_3_21(chain):
    robot, q, qd, o, _ = chain
    C_op = o.Pi.T @ (o.H @ o.phi @ (o.M @ o.phi.T @ (o.a + o.E @ o.g) + o.b))
    assert rel_err(A.bias_forces(robot, q, qd), C_op) < tol(robot.nb)


def test_inverse_dynamics_with_tip_force_3_20(chain):
    robot, q, qd, o, rng = chain
    qdd, f0 = rng.normal(size=robot.nv), rng.normal(size=6)
    M = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T) @ o.Pi
    C = o.Pi.T @ (o.H @ o.phi @ (o.M @ o.phi.T @ (o.a + o.E @ o.g) + o.b))
    JT = o.Pi.T @ (o.H @ o.phi @ o.B)                                        # J^T = H phi B
    assert rel_err(A.inverse_dynamics(robot, q, qd, qdd, f_tip=f0), M @ qdd + C + JT @ f0) < tol(robot.nb)
