"""Unit tests of the unroller, the printers and the operation counter."""

import numpy as np
import pytest
import sympy

import soagen
from soagen.codegen.c.printers import CPrinter
from soagen.codegen.functions import generate_function
from soagen.codegen.graph import expr as nodes
from soagen.codegen.python_printers import NumpyPrinter, PyPrinter
from soagen.codegen.unroll import UnrollBackend, count_ops
from soagen.errors import SoagenError
from soagen.loaders.random_robots import random_chain
from tests.support.codegen import ROBOTS

x, y, z = sympy.symbols("x y z")


@pytest.mark.parametrize("expr,c_text", [
    (x**2, "x*x"), (1 / (x + y)**2, "1.0/((x + y)*(x + y))"), (sympy.Rational(1, 2) * x, "0.5*x"),
    (3 * x, "3.0*x"), (sympy.Symbol("q_3") * x, "q_3*x"),
])
def test_c_printer(expr, c_text):
    assert CPrinter().doprint(expr) == c_text


def test_inputs_print_as_array_reads():
    """An input entry knows its vector and index (nodes.input_symbol), whatever its name
    says: a temporary named like an input prints by name."""
    with nodes.arena():
        q3, qd0, t = nodes.input_symbol("q", 3), nodes.input_symbol("qd", 0), nodes.symbol("tau_1")
        assert CPrinter().doprint(nodes.mul(q3, t)) == "q[3]*tau_1"
        assert CPrinter().doprint(nodes.sin(qd0)) == "sin(qd[0])"
        q2 = nodes.input_symbol("q", 2)
        xn = nodes.symbol("x")
        assert PyPrinter().doprint(nodes.mul(nodes.cos(q2), nodes.power(xn, nodes.sympify(2)))) == "x*x*math.cos(q[2])"
        assert NumpyPrinter().doprint(nodes.add(nodes.cos(q2), nodes.power(xn, nodes.NEG_ONE))) == \
            "np.cos(q[..., 2]) + 1.0/x"


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
    with UnrollBackend() as xp:
        _folds_and_symmetry(xp)


def _folds_and_symmetry(xp):
    a = np.array([[x * y + 1, 0], [x * y + 1 + z, 1]], dtype=object)   # SymPy entries are converted
    out = xp.name(a, "P3", symmetric=True)
    assert out[0, 1] is nodes.ZERO and out[0, 0].name == "P3_0_0"
    assert out[1, 0] is out[0, 1]                        # symmetric: lower = upper
    assert [d[0].name for d in xp.defs] == ["P3_0_0"]
    assert nodes.to_sympy(xp.defs[0][1]) == x * y + 1
    v = xp.name(np.array([x, -y, 2, x + y], dtype=object), "V1")
    assert [nodes.to_sympy(e) for e in v[:3]] == [x, -y, 2] and len(xp.defs) == 2


def test_an_expression_named_twice_is_one_temporary():
    """Naming an expression that a temporary already holds gives that temporary: no new
    statement, whatever the second label."""
    with UnrollBackend() as xp:
        a = xp.name(np.array([x * y + z, x - y], dtype=object), "A1")
        b = xp.name(np.array([z + y * x, x + y], dtype=object), "B2")
        assert b[0] is a[0] and b[1] is not a[1]
        assert [d[0].name for d in xp.defs] == ["A1_0", "A1_1", "B2_1"]


def test_shared_quantities_are_computed_once():
    """The FD derivatives need the composite inertias R(k) (a.44) twice: for M, which they
    factor, and for the derivatives of inverse dynamics (D.14). They are computed once:
    as many R(k) statements as in the mass matrix alone, and no two statements of the
    program with the same expression."""
    robot = soagen.load(ROBOTS / "puma560.yaml")

    def statements(name):
        return generate_function(robot, name).program.statements

    def composite(sts):
        return [s for s in sts if s.label.startswith("Rc") and s.label[2:].isdigit()]

    fd_derivatives = statements("forward_dynamics_derivatives")
    assert len(composite(fd_derivatives)) == len(composite(statements("mass_matrix"))) > 0
    assert len({id(s.expr) for s in fd_derivatives}) == len(fd_derivatives)


def test_sin_cos_once_and_snapped_constants():
    with UnrollBackend() as xp:
        _sin_cos_once_and_snapped_constants(xp)


def _sin_cos_once_and_snapped_constants(xp):
    q = sympy.Symbol("q_0")
    assert xp.sin(q) is xp.sin(q) and len(xp.defs) == 1
    c = xp.constant(np.array([6.123233995736766e-17, -0.9999999999999999, 0.5]))
    assert [nodes.to_sympy(e) for e in c] == [0, -1, sympy.Float(0.5)]
    assert c[0] is nodes.ZERO and c[1] is nodes.NEG_ONE and c[2].clsname == "Float"


def test_generated_code_computes_each_sin_once():
    """Each angle's sin and cos once: the C gathers the angles for one vector call, the
    Python calls math.sin / math.cos once per angle."""
    text = (ROBOTS.parent / "generated" / "puma560" / "puma560.c").read_text()
    fn = text.split("void puma560_inverse_dynamics(")[1].split("\n}\n")[0]
    gather = fn.split("const double soagen_x[", 1)[1].split(";", 1)[0]
    assert fn.count("soagen_sincos(") == 1 and "q[1]" in gather
    for k in range(6):
        assert gather.count(f"q[{k}]") <= 1 and fn.count(f"sin(q[{k}])") == 0
    py = (ROBOTS.parent / "generated" / "puma560" / "puma560.py").read_text()
    fn = py.split("def inverse_dynamics(")[1].split("\ndef ")[0]
    assert "math.sin(q[1])" in fn
    for k in range(6):
        assert fn.count(f"math.sin(q[{k}])") <= 1 and fn.count(f"math.cos(q[{k}])") <= 1


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


SPINNING_POINT_MASS = """
name: spin
links:
  - name: base
  - name: arm
    mass: 1.0
    com: [0.5, 0, 0]
    inertia: {ixx: 1.0e-3, iyy: 1.0e-2, izz: 1.0e-2, ixy: 0, ixz: 0, iyz: 0}
  - name: finger
    mass: 0.1
    com: [0, 0, 0.05]
    inertia: {ixx: 0, iyy: 0, izz: 0, ixy: 0, ixz: 0, iyz: 0}
joints:
  - {name: shoulder, type: revolute, parent: base, child: arm, axis: [0, 1, 0]}
  - {name: spin, type: revolute, parent: arm, child: finger, xyz: [1.0, 0, 0], axis: [0, 0, 1]}
"""


def _unchecked(monkeypatch):
    """The loader warns about a singular mass matrix and the generator refuses what needs
    M^-1 before unrolling; without that check the model reaches the unroller, which must
    refuse it on its own (the guard for models built in code, and against any gap in the
    check)."""
    monkeypatch.setattr("soagen.loaders.solvable.singular_mass_matrix", lambda robot: None)


def test_non_finite_quantity_is_one_clear_error(tmp_path, monkeypatch):
    """A leaf whose joint moves no inertia (a point mass on its own axis: D = 0, the
    case of massless finger links) gives 1/0 in D^-1: one line naming the robot, the
    function, the joint and the quantity, instead of a printer traceback; the functions
    that never divide by D still generate."""
    _unchecked(monkeypatch)
    path = tmp_path / "spin.yaml"
    path.write_text(SPINNING_POINT_MASS)
    robot = soagen.load(path)
    with pytest.raises(SoagenError) as err:
        generate_function(robot, "forward_dynamics")
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("spin: forward_dynamics: joint 'spin' (body 'finger'): Dinv1")
    assert "not finite" in msg
    assert generate_function(robot, "inverse_dynamics").program.counts["mul"] > 0


def test_non_finite_refused_by_cli_nothing_written(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from soagen.cli.main import cli

    _unchecked(monkeypatch)
    path = tmp_path / "spin.yaml"
    path.write_text(SPINNING_POINT_MASS)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["generate", str(path), "--out", str(out), "-q"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "inverse_mass_matrix: joint 'spin' (body 'finger'): Dinv1 (D^-1(k)) is not finite" in res.output
    assert not out.exists()


def test_printer_refuses_non_finite():
    with pytest.raises(SoagenError, match="not finite"):
        CPrinter().doprint(sympy.zoo * x)


def test_overflow_and_division_by_zero_are_not_finite():
    """A float that overflows or a division by an exact zero gives a value that absorbs
    every operation, and naming it is refused (never inf/NaN in generated code)."""
    with UnrollBackend() as xp:
        _overflow_and_division_by_zero(xp)


def _overflow_and_division_by_zero(xp):
    q = nodes.symbol("q_0")
    big = nodes.sympify(1e308)
    for e in (big * q * big, (big * q) * (big * q), nodes.add(big * q, big * q, nodes.ONE), q / nodes.ZERO, 1 / (q - q)):
        assert e is nodes.NONFINITE and (e * q + 2) is nodes.NONFINITE and -e is nodes.NONFINITE
        with pytest.raises(SoagenError, match="V3_0 .* is not finite|V3 .*is not finite"):
            xp.name(np.array([e, q], dtype=object), "V3")


def _printed(prog):
    p = CPrinter()
    return [(st.target.name, p.doprint(st.expr)) for st in prog.statements] + [p.doprint(e) for e in prog.outputs]


def test_backends_own_their_arenas_interleaved_and_threaded():
    """Each UnrollBackend builds in its own arena: a second backend built (and used)
    before the first is unrolled, or two functions generated at once on two threads,
    give the same program, byte for byte, as one generated alone (a process-wide node
    table once changed PUMA's mass matrix from 205 to 236 multiplications here)."""
    from concurrent.futures import ThreadPoolExecutor

    from soagen import algorithms
    from soagen.codegen.functions import input_symbols
    from soagen.codegen.unroll import unroll

    robot = soagen.load("puma560")
    alone = {n: _printed(generate_function(robot, n).program) for n in ("mass_matrix", "inverse_dynamics")}
    xp1, xp2 = UnrollBackend(), UnrollBackend()
    with xp1:
        M = algorithms.mass_matrix(robot, input_symbols(robot, xp1)["q"], xp=xp1)
    with xp2:
        x = input_symbols(robot, xp2)
        tau = algorithms.inverse_dynamics(robot, x["q"], x["qd"], x["qdd"], xp=xp2)
    with xp1:
        assert _printed(unroll(M, xp1)) == alone["mass_matrix"]
    with xp2:
        assert _printed(unroll(tau, xp2)) == alone["inverse_dynamics"]
    names = ["mass_matrix", "inverse_dynamics"] * 3
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        programs = list(pool.map(lambda n: _printed(generate_function(robot, n).program), names))
    assert programs == [alone[n] for n in names]


def test_nodes_outside_any_arena_are_refused():
    """No table nobody owns: building a node outside an arena is an error, not a
    silent entry in a process-wide table."""
    import threading

    errors = []
    t = threading.Thread(target=lambda: errors.append(pytest.raises(RuntimeError, nodes.symbol, "x")))
    t.start()
    t.join()
    assert errors and "inside an arena" in str(errors[0].value)


def test_symmetric_naming_is_declared_not_guessed():
    """Whether a quantity is named on its upper triangle is said where it is named, not
    read off its entries: declared symmetric, the lower triangle is the upper's (whatever
    its own entries); named in full, each entry is its own expression. A non-square
    matrix declared symmetric is refused."""
    a = np.array([[x + 1, x + y], [x - y, y + 2]], dtype=object)
    with UnrollBackend() as xp:
        sym = xp.name(a, "P0", symmetric=True)
        full = xp.name(a, "P0", note="the same, named in full")
        assert sym[1, 0] is sym[0, 1] and full[1, 0] is not full[0, 1]
        assert nodes.to_sympy(xp.defs[-1][1]) == x - y
        with pytest.raises(ValueError, match="square"):
            xp.name(np.array([[x, y]], dtype=object), "P1", symmetric=True)
