"""Latency-aware association of the generated C (soagen.codegen.c.sum_order and
ScheduledCPrinter): the printed sums are the same sums (same value, same operations), and
their dependency chains are shorter than in SymPy's printing order.

The chain lengths here are measured on the printed C text by an evaluator written for the
test (Python's ast on the C expressions): it applies the same latency model, but knows
nothing of how the printer chose its tree."""

import ast
import dataclasses
import re

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import soagen
from soagen.codegen import emit
from soagen.codegen.c import sum_order as schedule
from soagen.codegen.c.printers import CPrinter, ScheduledCPrinter
from soagen.codegen.robot import render
from tests.support.codegen import ROBOTS


def _ready(node, ready):
    """(ready time, pending product's operand time or None) of a C expression."""
    if isinstance(node, ast.Name):
        return ready.get(node.id, 0.0), None
    if isinstance(node, (ast.Constant, ast.Subscript)):
        return 0.0, None
    if isinstance(node, ast.UnaryOp):
        return _ready(node.operand, ready)
    if isinstance(node, ast.Call):
        return max(_ready(a, ready)[0] for a in node.args) + schedule.TRIG, None
    a, pa = _ready(node.left, ready)
    b, pb = _ready(node.right, ready)
    if isinstance(node.op, ast.Mult):
        return max(a, b) + schedule.MUL, max(a, b)
    if isinstance(node.op, ast.Div):
        return max(a, b) + schedule.DIV, None
    if pa is not None:                  # -ffp-contract=fast: GCC fuses the left product
        return max(pa, b) + schedule.FMA, None      # into the add (checked on gcc 12),
    if pb is not None:                  # else the right one
        return max(pb, a) + schedule.FMA, None
    return max(a, b) + schedule.ADD, None


def chain(c_text, function):
    """The longest dependency chain (cycles of the model) of a generated C function; the
    sin/cos read back from soagen_sincos count as ready after schedule.TRIG."""
    body = re.search(r"^void \w+_%s\(.*?^}" % function, c_text, re.S | re.M).group(0)
    ready, outputs = {}, []
    for line in body.splitlines():
        m = re.match(r"\s*(?:const double )?(\w+)(\[\d+\])? = (.*);$", line)
        if not m or "{" in m.group(3):
            continue
        name, index, expr = m.groups()
        t = schedule.TRIG if "soagen_" in expr else _ready(ast.parse(expr, mode="eval").body, ready)[0]
        (outputs.append(t) if index else ready.__setitem__(name, t))
    return max(outputs)


def _value(text, env):
    return eval(text.replace("sin(", "np.sin(").replace("cos(", "np.cos(").replace("sqrt(", "np.sqrt("),
                {"np": np}, env)


def test_late_terms_are_added_last_and_in_parallel():
    """Two early products and three on a sin/cos (ready at 40): the early ones are summed
    first; of the late ones one is fused into that sum while the other two are joined by a
    multiply and a fused multiply-add, in parallel: ready at 50 instead of 52 in SymPy's
    order (a*b, then one fused multiply-add per term)."""
    a, b, c, d, e, f, g, q = sympy.symbols("a b c d e f g q_0")
    s = sympy.Symbol("s")
    expr = a * b + c * d + s * e + s * f + s * g
    p = ScheduledCPrinter()
    p.statement("s", sympy.sin(q))
    text = p.statement("x", expr)
    assert text == "((a*b + c*d) + e*s) + (f*s + g*s)"
    plain = CPrinter().doprint(expr)
    ready = {"s": schedule.TRIG}
    assert _ready(ast.parse(text, mode="eval").body, ready)[0] == 50
    assert _ready(ast.parse(plain, mode="eval").body, ready)[0] == 52
    assert p.ready["x"] == 50


def test_signs_fold_into_the_sum():
    """Signs become subtractions or go to a product's first factor (-x*y - z: one fused
    multiply-add); of two products the one to fuse is printed first, as GCC fuses the
    left one (here y*s: x*y is ready long before s, so it is multiplied first and the late
    product fused); no negation is left over."""
    x, y, z, w = sympy.symbols("x y z w")
    p = ScheduledCPrinter()
    assert p.statement("u", -x * y - 2 * z) == "-x*y - 2.0*z"
    assert p.statement("v", w - x * y) == "w - x*y"
    assert p.statement("r", -x - y) == "-x - y"
    p.statement("s", sympy.sin(sympy.Symbol("q_0")))
    assert p.statement("t", sympy.Symbol("s") * y - x * y) == "y*s - x*y"
    assert p.ready["t"] == schedule.TRIG + schedule.FMA


TERMS = st.lists(st.tuples(st.integers(-3, 3).filter(bool), st.lists(st.sampled_from("abcdsu"), min_size=1,
                                                                       max_size=3)), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(TERMS, st.integers(0, 2**32 - 1))
def test_same_sum_same_operations(terms, seed):
    """Random sums of products over early inputs and late temporaries (s = sin, u = a
    product of s): the printed C evaluates to SymPy's value, with the same operations as
    SymPy's printing order, and a chain no longer (measured here, and as the printer itself
    estimated it)."""
    sym = {n: sympy.Symbol(n) for n in "abcdsu"}
    expr = sympy.Add(*[k * sympy.Mul(*[sym[n] for n in f]) for k, f in terms])
    p = ScheduledCPrinter()
    ready = {"s": _ready(ast.parse(p.statement("s", sympy.sin(sympy.Symbol("q_0"))), mode="eval").body, {})[0]}
    ready["u"] = _ready(ast.parse(p.statement("u", sym["s"] * sym["a"] * sym["b"]), mode="eval").body, ready)[0]
    text = p.statement("x", expr)
    plain = CPrinter().doprint(expr)
    rng = np.random.default_rng(seed)
    env = {n: rng.uniform(-2, 2) for n in "abcdsu"}
    want = float(expr.subs(env))
    assert abs(_value(text, env) - want) <= 1e-12 * max(1.0, abs(want))

    def ops(t):
        tree = ast.parse(t, mode="eval")
        return sorted(type(n.op).__name__.replace("Sub", "Add") for n in ast.walk(tree) if isinstance(n, ast.BinOp))
    assert ops(text) == ops(plain)
    assert _ready(ast.parse(text, mode="eval").body, ready)[0] <= _ready(ast.parse(plain, mode="eval").body, ready)[0]
    assert p.ready["x"] == _ready(ast.parse(text, mode="eval").body, ready)[0]       # the printer's own model


@pytest.mark.parametrize("robot", ["puma560", "arm7"])
def test_generated_chains_are_shorter(robot, monkeypatch):
    """The bundled arms' inverse dynamics, mass matrix and forward dynamics: shorter
    dependency chains than the same functions printed in SymPy's order, with the same
    operation counts."""
    path = ROBOTS / f"{robot}.yaml"
    names = ["inverse_dynamics", "mass_matrix", "forward_dynamics"]
    res = render(soagen.load(path), path, algorithms=names, langs=("c",))
    monkeypatch.setitem(emit.LANGUAGES, "c", dataclasses.replace(emit.LANGUAGES["c"], printer=CPrinter))
    plain = emit.emit(res.functions, res.header, ("c",)).files[f"{robot}.c"]
    text = res.files[f"{robot}.c"]
    for name in names:
        assert chain(text, name) < chain(plain, name), name
    count = re.compile(r"Operations: .*?;")
    assert count.findall(text) == count.findall(plain)


def test_outputs_are_stored_where_their_value_is_last_needed():
    """The scalar C stores an output entry that is a temporary right after the statement
    that last needs it (its definition, or its last use), not at the end: PUMA's joint
    forces each follow their force f(k), and the Jacobian's sin/cos entries follow the
    last statement that reads them; every entry is stored once, and the generated
    functions still match the generic implementation (the numeric tests)."""
    path = ROBOTS / "puma560.yaml"
    text = render(soagen.load(path), path, algorithms=["inverse_dynamics", "jacobian"], langs=("c",)).files["puma560.c"]
    for name, out, n in (("inverse_dynamics", "tau", 6), ("jacobian", "J", 36)):
        body = re.search(r"^void puma560_%s\(.*?^}" % name, text, re.S | re.M).group(0).splitlines()
        stores = {int(m.group(1)): (i, m.group(2)) for i, line in enumerate(body)
                  for m in [re.match(r"\s*%s\[(\d+)\] = (.*);$" % out, line)] if m}
        assert sorted(stores) == list(range(n))
        for k, (i, value) in stores.items():
            if not re.fullmatch(r"\w+", value) or value[0].isdigit():
                continue                                   # a number or an expression: at the end
            needs = [j for j, line in enumerate(body)       # its definition and its uses
                     if re.search(r"\b%s\b" % value, line) and not re.match(r"\s*%s\[" % out, line)]
            last = max(needs)
            assert last < i and all(re.match(r"\s*%s\[" % out, body[j]) for j in range(last + 1, i)), (name, k)
    assert "each stored as soon as computed" in text
