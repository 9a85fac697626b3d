"""The same recursion code runs on SymPy symbols: the
expressions it produces, evaluated at a numeric state, equal the float run."""

import numpy as np
import pytest
import sympy

import soagen
from soagen import algorithms as A
from soagen.backend import SYMPY
from soagen.model import symbolic_parameters
from tests.support.accuracy import rel_err


@pytest.mark.parametrize("name", ["planar2", "stanford"])
def test_symbolic_run_equals_numeric_run(name):
    robot = soagen.load(f"robots/{name}.yaml")
    n = robot.nv
    q, qd, qdd = (np.array(sympy.symbols(f"{s}0:{n}", real=True), dtype=object) for s in ("q", "qd", "qdd"))
    rng = np.random.default_rng(1)
    x = {s: v for vec in (q, qd, qdd) for s, v in zip(vec, rng.normal(size=n))}
    ev = lambda e: np.array([[float(sympy.sympify(v).subs(x)) for v in row] for row in np.atleast_2d(e)])
    tau = A.inverse_dynamics(robot, q, qd, qdd, xp=SYMPY)
    num = [x[s] for s in q], [x[s] for s in qd], [x[s] for s in qdd]
    assert rel_err(ev(tau), A.inverse_dynamics(robot, *num)[None, :]) < 1e-12
    assert rel_err(ev(A.mass_matrix(robot, q, xp=SYMPY)), A.mass_matrix(robot, num[0])) < 1e-12


def test_symbolic_parameters_planar2_mass_matrix_closed_form():
    """M(q) of the planar 2-link arm with symbolic link parameters, simplified, against
    the textbook closed form M22 = I2zz + m2 c2^2 ..., M12 = M22 + m2 l1 c2x cos q2 (c2y = 0)."""
    robot = symbolic_parameters(soagen.load("robots/planar2.yaml"))
    q = np.array(sympy.symbols("q0:2", real=True), dtype=object)
    M = sympy.Matrix(A.mass_matrix(robot, q, xp=SYMPY))
    m2 = sympy.Symbol("m2", positive=True)
    cx, cy = sympy.symbols("c2_x c2_y", real=True)
    I2 = sympy.Symbol("I2_zz", real=True)
    assert sympy.simplify(M[1, 1] - (I2 + m2 * (cx**2 + cy**2))) == 0
    l1 = 1  # the elbow sits 1 m along x of link 1
    M01 = I2 + m2 * (cx**2 + cy**2) + m2 * l1 * (cx * sympy.cos(q[1]) - cy * sympy.sin(q[1]))
    assert sympy.simplify(M[0, 1] - M01) == 0
