"""Unit tests of the unroller, the printers and the operation counter."""

import numpy as np
import pytest
import sympy
from codegen_util import ROBOTS

import soagen
from soagen.codegen.functions import generate_function
from soagen.codegen.printers import CPrinter, NumpyPrinter, PyPrinter
from soagen.codegen.unroll import UnrollBackend, count_ops
from soagen.random_robots import random_chain

x, y, z = sympy.symbols("x y z")


@pytest.mark.parametrize("expr,c_text", [
    (x**2, "x*x"), (1 / (x + y)**2, "1.0/((x + y)*(x + y))"), (sympy.Rational(1, 2) * x, "0.5*x"),
    (3 * x, "3.0*x"), (sympy.Symbol("q_3") * x, "q[3]*x"), (sympy.sin(sympy.Symbol("qd_0")), "sin(qd[0])"),
])
def test_c_printer(expr, c_text):
    assert CPrinter().doprint(expr) == c_text


def test_python_printers():
    q = sympy.Symbol("q_2")
    assert PyPrinter().doprint(sympy.cos(q) * x**2) == "x*x*math.cos(q[2])"
    assert NumpyPrinter().doprint(sympy.cos(q) + 1 / x) == "np.cos(q[..., 2]) + 1.0/x"


def test_float_printed_bit_exact():
    v = 0.1 + 0.2
    assert float(CPrinter().doprint(sympy.Float(v))) == v


@pytest.mark.parametrize("expr,counts", [
    (x * y + z, {"mul": 1, "add": 1}), (-x * y, {"mul": 1}), (x - y, {"add": 1}),
    (x / y, {"div": 1}), (2 / x, {"div": 1}), (x**3, {"mul": 2}), (x * y / (z + 1), {"mul": 1, "div": 1, "add": 1}),
    (sympy.sin(x) * sympy.cos(x), {"mul": 1, "trig": 2}), (sympy.sqrt(x + y), {"sqrt": 1, "add": 1}),
])
def test_count_ops(expr, counts):
    want = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0, **counts}
    assert count_ops(expr) == want


def test_name_folds_and_symmetry():
    xp = UnrollBackend()
    a = np.array([[x * y + 1, 0], [x * y + 1 + z, 1]], dtype=object)
    out = xp.name(a, "P3")
    assert out[0, 1] == 0 and out[0, 0].name == "P3_0_0"
    assert out[1, 0] is out[0, 1]                        # symmetric: lower = upper
    assert [d[0].name for d in xp.defs] == ["P3_0_0"]
    v = xp.name(np.array([x, -y, 2, x + y], dtype=object), "V1")
    assert list(v[:3]) == [x, -y, 2] and len(xp.defs) == 2


def test_sin_cos_once_and_snapped_constants():
    xp = UnrollBackend()
    q = sympy.Symbol("q_0")
    assert xp.sin(q) is xp.sin(q) and len(xp.defs) == 1
    c = xp.constant(np.array([6.123233995736766e-17, -0.9999999999999999, 0.5]))
    assert list(c) == [0, -1, sympy.Float(0.5)]


def test_generated_code_computes_each_sin_once():
    text = (ROBOTS.parent / "generated" / "puma560" / "puma560.c").read_text()
    fn = text.split("void puma560_inverse_dynamics(")[1].split("\n}\n")[0]
    assert "sin(q[1])" in fn
    for k in range(6):
        assert fn.count(f"sin(q[{k}])") <= 1 and fn.count(f"cos(q[{k}])") <= 1


def test_growth_is_linear_for_rne():
    """Nested random chains (the first N links of the same chain): the operations the
    unrolled RNE spends per added link stay about constant (linear growth; the first
    links are cheaper, as gravity and zero base velocity fold), never geometric."""
    ops = {}
    for n in (3, 6, 12):
        g = generate_function(random_chain(n, np.random.default_rng(1)), "inverse_dynamics")
        ops[n] = g.program.counts["mul"] + g.program.counts["add"]
    per_link_early, per_link_late = (ops[6] - ops[3]) / 3, (ops[12] - ops[6]) / 6
    assert per_link_late < 1.5 * per_link_early, ops


def test_puma_counts_below_papers():
    """Unrolled RNE beats Featherstone's optimized 93n-69 / 81n-66 for the PUMA 560."""
    g = generate_function(soagen.load(ROBOTS / "puma560.yaml"), "inverse_dynamics")
    assert g.program.counts["mul"] < 93 * 6 - 69 and g.program.counts["add"] < 81 * 6 - 66
