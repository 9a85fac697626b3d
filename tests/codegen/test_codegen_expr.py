"""The fast unroller against SymPy: same expressions, same common subexpressions, same
printed text, same generated files.

soagen.codegen.expr ports SymPy's automatic evaluation, soagen.codegen.cse SymPy's cse
and soagen.codegen.printers SymPy's code printers; these tests run random programs of
arithmetic through both and compare structure (class, argument order, float bits), and
generate whole robots with the previous, SymPy-based implementation (sympy_reference)
and the current one, byte for byte."""

import numpy as np
import pytest
import sympy
import sympy_reference as ref
from codegen_util import ROBOTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import soagen
from soagen.codegen import expr as E
from soagen.codegen.cse import cse
from soagen.codegen.printers import CPrinter, NumpyPrinter, PyPrinter
from soagen.codegen.robot import render
from soagen.loaders.random_robots import random_chain

NAMES = ("x", "y", "z", "q_0", "V1_2")
CONSTS = (0, 1, 2, -1, 3, 0.5, 1.0, -1.0, 2.0, 0.1, 0.3, -0.7, 1e-3, 0.0, np.float64(0.25),
          sympy.Rational(1, 3), sympy.Rational(-3, 2))
OPS = ("add", "radd", "sub", "rsub", "mul", "rmul", "div", "rdiv", "neg", "pow", "sin", "cos")


def struct(e):
    """Structure of a SymPy expression: classes, argument order, exact numbers."""
    if e.is_Symbol:
        return ("Symbol", e.name)
    if e.is_Float:
        return ("Float", e._mpf_)
    if e.is_Number:
        return (type(e).__name__, str(e))
    return (type(e).__name__, tuple(struct(a) for a in e.args))


def _apply(op, a, b, k):
    if op == "add":
        return a + b
    if op == "radd":
        return b + a
    if op == "sub":
        return a - b
    if op == "rsub":
        return b - a
    if op == "mul":
        return a * b
    if op == "rmul":
        return b * a
    if op == "div":
        return a / b
    if op == "rdiv":
        return b / a
    if op == "neg":
        return -a
    if op == "pow":
        return a ** k
    raise ValueError(op)


step = st.tuples(st.sampled_from(OPS), st.integers(0, 10**6), st.integers(0, 10**6),
                 st.integers(0, len(CONSTS) - 1), st.booleans(), st.sampled_from((-2, -1, 2, 3)))


def run_program(steps):
    """The same random program on SymPy and on nodes: list of (sympy, node) pairs."""
    syms = [sympy.Symbol(n) for n in NAMES]
    pool = [(s, E.symbol(s.name)) for s in syms]
    for op, i, j, c, use_const, k in steps:
        a = pool[i % len(pool)]
        if op in ("sin", "cos"):
            s = syms[i % len(syms)]
            pool.append((getattr(sympy, op)(s), getattr(E, op)(E.symbol(s.name))))
            continue
        if use_const:
            raw = CONSTS[c]
            b = (sympy.sympify(float(raw)) if isinstance(raw, np.floating) else sympy.sympify(raw), raw)
        else:
            b = pool[j % len(pool)]
        # is_zero, not == 0: SymPy's Float(0.0) != Integer(0), and Float division by it raises
        if (op in ("div", "rdiv") and (b if op == "div" else a)[0].is_zero) or (op == "pow" and a[0].is_zero and k < 0):
            continue
        want, got = _apply(op, a[0], b[0], k), _apply(op, a[1], b[1], k)
        want = sympy.sympify(want)
        if want.has(sympy.zoo, sympy.nan, sympy.oo):
            continue
        pool.append((want, E.sympify(got)))
        if sympy.count_ops(want) > 60:
            pool.pop()
    return pool


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=5, max_size=40))
def test_arithmetic_matches_sympy(steps):
    with E.arena():
        for want, got in run_program(steps):
            assert struct(E.to_sympy(got)) == struct(want), (want, E.to_sympy(got))


def _has_product_denominator(e):
    """A product with a single denominator x**k, k >= 2: printed y/(x*x) here, y/x*x by
    SymPy's printer given the product form (see soagen.codegen.printers)."""
    for m in sympy.preorder_traversal(e):
        if m.is_Mul:
            den = [a for a in m.args if a.is_Pow and a.exp.is_Rational and a.exp.is_negative]
            if len(den) == 1 and den[0].exp.is_Integer and den[0].exp <= -2:
                return True
    return False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=5, max_size=40))
def test_printers_match_sympy(steps):
    with E.arena():
        for want, got in run_program(steps):
            if _has_product_denominator(want):
                continue
            for mine, theirs in ((CPrinter, ref.CPrinter), (PyPrinter, ref.PyPrinter),
                                 (NumpyPrinter, ref.NumpyPrinter)):
                assert mine().doprint(got) == theirs().doprint(want), want


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=10, max_size=50))
def test_cse_matches_sympy(steps):
    with E.arena():
        pool = run_program(steps)[len(NAMES):]
        want_reps, want = sympy.cse([p[0] for p in pool], symbols=sympy.numbered_symbols("t"), order="none")
        got_reps, got = cse([p[1] for p in pool], (E.symbol(s.name) for s in sympy.numbered_symbols("t")))
        assert [(s.name, struct(v)) for s, v in want_reps] == \
               [(s.name, struct(E.to_sympy(v))) for s, v in got_reps]
        assert [struct(e) for e in want] == [struct(E.to_sympy(e)) for e in got]


subsets = st.lists(st.tuples(st.lists(st.integers(0, 7), min_size=2, max_size=7, unique=True),
                              st.sampled_from((1, -1, 2, 0.5))), min_size=3, max_size=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subsets, st.booleans())
def test_cse_common_arguments_match_sympy(terms, products):
    """Sums (products) over overlapping subsets of a few symbols: the common-argument
    matching of opt_cse, whose candidates differ in size."""
    syms = sympy.symbols("a b c d e f g h")
    with E.arena():
        nodes = [E.symbol(s.name) for s in syms]
        want_in, got_in = [], []
        for idx, c in terms:
            op = (lambda xs: sympy.Mul(*xs)) if products else (lambda xs: sympy.Add(*xs))
            nop = E.mul if products else E.add
            want_in.append(c * op([syms[i] for i in idx]))
            got_in.append(E.sympify(c) * nop(*[nodes[i] for i in idx]))
        assert [struct(E.to_sympy(g)) for g in got_in] == [struct(w) for w in want_in]
        want_reps, want = sympy.cse(want_in, symbols=sympy.numbered_symbols("t"), order="none")
        got_reps, got = cse(got_in, (E.symbol(s.name) for s in sympy.numbered_symbols("t")))
        assert [(s.name, struct(v)) for s, v in want_reps] == \
               [(s.name, struct(E.to_sympy(v))) for s, v in got_reps]
        assert [struct(e) for e in want] == [struct(E.to_sympy(e)) for e in got]


def test_denominator_product_parenthesized():
    x, y = sympy.symbols("x y")
    assert CPrinter().doprint(y / x**2) == "y/(x*x)"
    assert PyPrinter().doprint(2 * y / x**3) == "2*y/(x*x*x)"
    assert CPrinter().doprint(y / (x**2 * sympy.Symbol("z"))) == "y/(x*x*z)"


def _files(robot, monkeypatch, reference, **kw):
    if reference:
        ref.use_reference(monkeypatch)
    try:
        return render(robot, None, **kw).files
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("case", ["chain", "tree_free_base"])
def test_generated_files_identical_to_sympy_implementation(case, monkeypatch):
    """A random chain (unaligned revolute and prismatic axes) and a random tree on a
    free joint (quaternion input, 6 x 6 LDL^T), generated with the SymPy-based
    implementation and the current one: the same files, byte for byte."""
    if case == "chain":
        robot = random_chain(4, np.random.default_rng(3))
        kw = {"algorithms": ["inverse_dynamics", "forward_dynamics", "jacobian_dot_qd"]}
    else:
        robot = random_chain(4, np.random.default_rng(5), parents=[-1, 0, 0, 1],
                             kinds=["free", "revolute", "prismatic", "revolute"])
        kw = {"algorithms": ["bias_forces", "mass_matrix"], "numpy": True}
    want = _files(robot, monkeypatch, True, **kw)
    got = _files(robot, monkeypatch, False, **kw)
    assert want.keys() == got.keys()
    for name in want:
        assert got[name] == want[name], name


@pytest.mark.slow
@pytest.mark.parametrize("name", ["stanford", "leg6"])
def test_bundled_symbolic_params_identical_to_sympy_implementation(name, monkeypatch):
    robot = soagen.load(ROBOTS / f"{name}.yaml")
    kw = {"symbolic_params": True, "algorithms": ["inverse_dynamics", "mass_matrix"]}
    assert _files(robot, monkeypatch, True, **kw) == _files(robot, monkeypatch, False, **kw)


HASH_PROGRAM = """
import hashlib, numpy as np
from soagen.codegen.robot import render
from soagen.loaders.random_robots import random_chain
robot = random_chain(5, np.random.default_rng(8), parents=[-1, 0, 1, 1, 3],
                     kinds=["free", "revolute", "prismatic", "revolute", "spherical"])
files = render(robot, None, numpy=False).files
print(hashlib.sha256("".join(k + v for k, v in sorted(files.items())).encode()).hexdigest())
"""


def test_deterministic_across_hash_seeds_on_a_tree():
    """Every function of a random tree on a free joint (quaternions, LDL^T, frames of its
    leaves, CSE over sets and dicts of nodes hashed by address): the same bytes whatever
    PYTHONHASHSEED is, and in separate processes (different addresses)."""
    import os
    import subprocess
    import sys

    root = str(ROBOTS.parent)
    outs = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=root)
        run = subprocess.run([sys.executable, "-c", HASH_PROGRAM], capture_output=True, text=True, env=env,
                             check=True, cwd=root)
        outs.add(run.stdout.strip())
    assert len(outs) == 1 and len(next(iter(outs))) == 64


def test_sum_sign_rule_matches_sympy():
    """Add.could_extract_minus_sign decided from the first printed term (soagen.codegen.
    order) against SymPy's own rule (sort keys of e and -e) on random sums with integer,
    rational and float coefficients, powers, reciprocals and functions."""
    import random

    from soagen.codegen.order import could_extract_minus_sign

    rng = random.Random(1)
    a, b, c, x, y, q = sympy.symbols("a b c x y q_0")
    factors = [1, a, b * c, x**2, 1 / y, sympy.sin(q), x * y**-2, 1 / (a + b)]
    coeffs = [1, -1, 2, -2, 0.5, -0.5, sympy.Rational(1, 3), -3.25, 1.0, -1.0]
    checked = 0
    with E.arena():
        for _ in range(1500):
            e = sympy.Add(*[rng.choice(coeffs) * rng.choice(factors) for _ in range(rng.randint(2, 5))])
            if e.is_Add:
                checked += 1
                assert could_extract_minus_sign(E.from_sympy(e)) == e.could_extract_minus_sign(), e
    assert checked > 1000
