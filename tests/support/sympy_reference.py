"""The code generator's previous implementation, on SymPy itself: the reference the
fast unroller (soagen.codegen.graph.expr / cse / printers) must reproduce byte for byte.

``UnrollBackend`` runs the recursions on SymPy expressions (SymPy's own evaluation),
``unroll`` calls ``sympy.cse(order="none")``, the printers subclass SymPy's
``C99CodePrinter`` / ``PythonCodePrinter``. :func:`patched` swaps them into the code
generator, so ``render`` produces the reference files. Test code only (slow: SymPy's
automatic evaluation is what the fast implementation avoids).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import sympy
from sympy.printing.c import C99CodePrinter
from sympy.printing.pycode import PythonCodePrinter

from soagen.backend import SympyBackend
from soagen.codegen.unroll import LDL, SHARED, TRIG

SNAP = 1e-14
_CSE = re.compile(r"^t\d+$")

class InputSymbol(sympy.Symbol):
    """Entry ``k`` of input vector ``array``, a SymPy symbol named ``array_k`` that knows it
    is one (the emitter asks ``symbol.array``, as of soagen's input symbols)."""

    def __new__(cls, array, k):
        obj = super().__new__(cls, f"{array}_{k}")
        obj.array, obj.index, obj.role = array, k, "input"
        return obj

    @classmethod
    def class_key(cls):
        """A plain Symbol's, so that it sorts (and so prints) as the symbol it stands for."""
        return sympy.Symbol.class_key()


class UnrollBackend(SympyBackend):
    """A SymPy backend whose :meth:`name` introduces recorded temporaries."""

    def __init__(self):
        self.defs: list[tuple[sympy.Symbol, sympy.Expr, str]] = []   # (temp, expr, label)
        self._used: set = set()
        self._named: dict = {}

    def symbols(self, name, n):
        return np.array([InputSymbol(name, k) for k in range(n)], dtype=object)

    def constant(self, a):
        a = np.asarray(a)
        if a.dtype.kind == "f":
            a = np.where(np.abs(a) < SNAP, 0.0, a)
            a = np.where(np.abs(np.abs(a) - 1.0) < SNAP, np.sign(a), a)
        return super().constant(a)

    def _trig_call(self, fn, x, prefix):
        base = str(x) if isinstance(x, sympy.Symbol) else "angle"
        return self._new(fn(x), f"{prefix}_{base}", ("", TRIG))

    def sin(self, x):
        return self._trig_call(sympy.sin, sympy.sympify(x), "s")

    def cos(self, x):
        return self._trig_call(sympy.cos, sympy.sympify(x), "c")

    def inv(self, A):
        """D^-1 of a symmetric positive definite joint block. Blocks up to 3 x 3 use
        SymPy's closed form; larger ones (the 6 x 6 D of a free joint) an LDL^T
        factorization with every entry named, O(n^3) short expressions instead of a
        closed-form inverse that grows factorially."""
        n = A.shape[0]
        if n <= 3:
            return super().inv(A)
        name = lambda e, tag: e if _trivial(sympy.sympify(e)) else self._new(e, tag, ("", LDL))
        L = [[sympy.S.Zero] * n for _ in range(n)]
        d = [None] * n
        for j in range(n):                                   # A = L diag(d) L^T
            d[j] = name(A[j, j] - sum((L[j][k] ** 2 * d[k] for k in range(j)), sympy.S.Zero), f"ldl_d{j}")
            for i in range(j + 1, n):
                L[i][j] = name((A[i, j] - sum((L[i][k] * L[j][k] * d[k] for k in range(j)), sympy.S.Zero))
                               / d[j], f"ldl_L{i}{j}")
        dinv = [name(1 / d[j], f"ldl_di{j}") for j in range(n)]
        Li = [[sympy.S.One if i == j else sympy.S.Zero for j in range(n)] for i in range(n)]
        for i in range(n):                                   # L^-1, unit lower triangular
            for j in range(i):
                Li[i][j] = name(-sum((L[i][k] * Li[k][j] for k in range(j, i)), sympy.S.Zero), f"ldl_Li{i}{j}")
        out = np.empty((n, n), dtype=object)
        for i in range(n):                                   # A^-1 = L^-T diag(d)^-1 L^-1
            for j in range(i, n):
                out[i, j] = out[j, i] = sum((Li[k][i] * dinv[k] * Li[k][j] for k in range(j, n)), sympy.S.Zero)
        return out

    def _new(self, expr, name, label):
        if expr in self._named:                      # an expression already named: its temporary
            return self._named[expr]
        base, k = name, 1
        while name in self._used:
            k += 1
            name = f"{base}_{k}"
        self._used.add(name)
        sym = self._named[expr] = sympy.Symbol(name)
        self.defs.append((sym, expr, label))
        return sym

    def name(self, x, label, body=None, symmetric=False, note=None):
        label = label if body is None else f"{label}{body}"
        x = np.asarray(x, dtype=object)
        out = np.empty(x.shape, dtype=object)
        for idx, e in np.ndenumerate(x):
            if symmetric and idx[0] > idx[1]:
                out[idx] = out[idx[1], idx[0]]
                continue
            e = sympy.sympify(e)
            if _trivial(e):
                out[idx] = e
            else:
                out[idx] = self._new(e, f"{label}_{'_'.join(str(i) for i in idx)}", (label, note))
        return out


def _trivial(e) -> bool:
    if e.is_Number or e.is_Symbol:
        return True
    return e.is_Mul and len(e.args) == 2 and e.args[0] == -1 and e.args[1].is_Symbol


@dataclass
class Statement:
    target: sympy.Symbol
    expr: sympy.Expr
    label: str            # the quantity it belongs to (e.g. "V3"), "" for the backend's own
    note: str | None


@dataclass
class Program:
    """A straight-line program: ``statements`` in order, then ``outputs`` (flat, row-major)."""

    statements: list
    outputs: list
    counts: dict = field(default_factory=dict)
    lanes: list = field(default_factory=list)     # the reference records no column steps

    @property
    def temporaries(self) -> int:
        return len(self.statements)

    def release(self):
        pass


def unroll(outputs, defs) -> Program:
    """Dead-code elimination, one CSE pass, dependency order. ``outputs`` is an array of
    expressions in the temporaries; ``defs`` the backend's recorded definitions."""
    out = np.asarray(outputs, dtype=object)
    flat = [sympy.sympify(e) for e in out.reshape(-1)]
    index = {sym: k for k, (sym, _, _) in enumerate(defs)}
    live = set()
    stack = [s for e in flat for s in e.free_symbols if s in index]
    while stack:
        s = stack.pop()
        if s in live:
            continue
        live.add(s)
        stack.extend(t for t in defs[index[s]][1].free_symbols if t in index and t not in live)
    kept = [d for d in defs if d[0] in live]
    exprs = [e for _, e, _ in kept] + flat
    reps, reduced = sympy.cse(exprs, symbols=sympy.numbered_symbols("t"),
                              order="none")
    # A named quantity whose whole expression became a CSE temporary (V1_0 = t0) takes
    # the temporary's place and name, so the code reads V1_0 = ..., not an alias.
    alias, rep_label = {}, {}
    for (sym, _, label), e in zip(kept, reduced[:len(kept)]):
        if e.is_Symbol and _CSE.match(e.name) and e not in alias and any(e == s for s, _ in reps):
            alias[e] = sym
            rep_label[sym] = label
    if alias:
        reps = [(alias.get(s, s), v.xreplace(alias)) for s, v in reps]
        reduced = [e.xreplace(alias) for e in reduced]
    rep_def = dict(reps)
    emitted, statements = set(), []

    def need(expr, label):
        for s in sorted(expr.free_symbols, key=lambda x: x.name):
            if s in rep_def and s not in emitted:
                need(rep_def[s], label)
                emitted.add(s)
                statements.append(Statement(s, rep_def[s], *rep_label.get(s, label)))

    for (sym, _, label), e in zip(kept, reduced[:len(kept)]):
        if sym in rep_def:                      # defined above, in place of its temporary
            need(sym, label)
            continue
        need(e, label)
        statements.append(Statement(sym, e, *label))
    outs = reduced[len(kept):]
    for e in outs:
        need(e, ("", SHARED))
    # number the remaining CSE temporaries t0, t1, ... in the order they are defined
    cse_syms = {s for s, _ in reps}
    renum = {st.target: sympy.Symbol(f"t{k}") for k, st in enumerate(
        [st for st in statements if st.target in cse_syms and _CSE.match(st.target.name)])}
    if renum:
        for st in statements:
            st.target = renum.get(st.target, st.target)
            st.expr = st.expr.xreplace(renum)
        outs = [e.xreplace(renum) for e in outs]
    prog = Program(statements, outs)
    prog.counts = count_program(prog)
    return prog


# ---------------------------------------------------------------------------------------
# Operation counts (exact, machine independent): one add per binary +/-, one mul per
# binary product (a coefficient -1 is a sign, not a multiplication), x**-1 one div,
# x**k (k = 2..) k-1 muls, sin/cos one trig each, sqrt one sqrt.

def count_ops(expr, c=None):
    c = c if c is not None else {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    if expr.is_Atom:
        return c
    if expr.is_Add:
        c["add"] += len(expr.args) - 1
    elif expr.is_Mul:
        num = [a for a in expr.args if not (a.is_Pow and a.exp.is_negative)]
        den = [a for a in expr.args if a.is_Pow and a.exp.is_negative]
        factors = [a for a in num if a != -1]
        if factors and factors[0].is_Number and den and all(f.is_Number for f in factors):
            factors = []
        c["mul"] += max(len(factors) - 1, 0)
        if den:
            c["div"] += 1
            c["mul"] += len(den) - 1
            for d in den:
                k = -d.exp
                if k.is_Integer and k > 1:
                    c["mul"] += int(k) - 1
                count_ops(d.base, c)
                if not k.is_Integer:
                    count_ops(sympy.Pow(d.base, k), c)
            for a in num:
                count_ops(a, c)
            return c
    elif expr.is_Pow:
        k = expr.exp
        if k.is_Integer and k > 0:
            c["mul"] += int(k) - 1
        elif k.is_Integer and k < 0:
            c["div"] += 1
            c["mul"] += int(-k) - 1
        elif k == sympy.S.Half:
            c["sqrt"] += 1
        elif k == -sympy.S.Half:
            c["sqrt"] += 1
            c["div"] += 1
        else:
            c["mul"] += 1
    elif isinstance(expr, (sympy.sin, sympy.cos)):
        c["trig"] += 1
    for a in expr.args:
        count_ops(a, c)
    return c


def count_program(prog: Program) -> dict:
    c = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    for st in prog.statements:
        count_ops(st.expr, c)
    for e in prog.outputs:
        count_ops(e, c)
    return c


_INPUT = re.compile(r"^(q|qd|qdd|tau|params|obj)_(\d+)$")
MAX_POW = 8


def _float(x) -> str:
    return repr(float(x))


class _Common:
    index_format = "{name}[{k}]"

    def start_function(self):
        """The emitter's per-function hook (nothing to track here)."""

    def statement(self, target, expr):
        return self.doprint(expr)

    def _print_Symbol(self, expr):
        m = _INPUT.match(expr.name)
        if m:
            return self.index_format.format(name=m.group(1), k=m.group(2))
        return expr.name

    def _print_Float(self, expr):
        return _float(expr)

    def _print_Rational(self, expr):
        return _float(expr.p / expr.q)

    def _pow_product(self, expr):
        base, k = expr.base, expr.exp
        if not (k.is_Integer and 2 <= abs(int(k)) <= MAX_POW):
            return None
        b = self._print(base) if base.is_Atom else f"({self._print(base)})"
        prod = "*".join([b] * abs(int(k)))
        return prod if k > 0 else f"1.0/({prod})"


class CPrinter(_Common, C99CodePrinter):
    """C99: ``double`` arithmetic, ``sin``/``cos``/``sqrt`` from ``<math.h>``."""

    def _print_Mul(self, expr):
        c, rest = expr.as_coeff_Mul()
        if c.is_Rational and not c.is_Integer:     # (1/2)*x -> 0.5*x, not (0.5)*x
            return super()._print_Mul(sympy.Mul(sympy.Float(float(c)), rest))
        return super()._print_Mul(expr)

    def _print_Integer(self, expr):
        return f"{int(expr)}.0" if abs(int(expr)) < 2**53 else _float(expr)

    def _print_Pow(self, expr):
        s = self._pow_product(expr)
        return s if s is not None else super()._print_Pow(expr)


class PyPrinter(_Common, PythonCodePrinter):
    """Python with the stdlib ``math`` module."""

    def __init__(self, settings=None):
        super().__init__(dict(settings or {}, standard="python3", fully_qualified_modules=True))

    def _print_Pow(self, expr, rational=False):
        s = self._pow_product(expr)
        if s is not None:
            return s
        if expr.exp == -1:
            b = expr.base
            return f"1.0/{self._print(b)}" if b.is_Atom else f"1.0/({self._print(b)})"
        return super()._print_Pow(expr, rational)


class NumpyPrinter(PyPrinter):
    """Python on numpy arrays with a leading batch shape: inputs are read as ``q[..., k]``
    and sin/cos/sqrt are numpy's."""

    index_format = "{name}[..., {k}]"

    def _print_sin(self, expr):
        return f"np.sin({self._print(expr.args[0])})"

    def _print_cos(self, expr):
        return f"np.cos({self._print(expr.args[0])})"

    def _print_Pow(self, expr, rational=False):
        if expr.exp == sympy.S.Half:
            return f"np.sqrt({self._print(expr.base)})"
        return super()._print_Pow(expr, rational)


def unrolled(build, where=None, backend=None) -> Program:
    """soagen.codegen.unroll.unrolled on SymPy: build on this backend, then unroll (the
    looped style's backend is the current generator's alone: the reference unrolls)."""
    xp = UnrollBackend()
    return unroll(build(xp), xp.defs)


def use_reference(monkeypatch):
    """Make the code generator use this reference unroller and these printers (until
    ``monkeypatch`` is undone). The C is printed in SymPy's order: the latency-aware
    association of the scheduled printer is compared with the plain port by
    :func:`unscheduled`, and tested on its own in test_codegen_sum_order.py."""
    import dataclasses

    from soagen.codegen import emit, functions

    monkeypatch.setattr(functions, "unrolled", unrolled)
    by_class = {"CPrinter": CPrinter, "ScheduledCPrinter": CPrinter, "PyPrinter": PyPrinter,
                "NumpyPrinter": NumpyPrinter}
    monkeypatch.setattr(emit, "LANGUAGES", {
        name: dataclasses.replace(lang, printer=lang.printer and by_class.get(lang.printer.__name__, lang.printer))
        for name, lang in emit.LANGUAGES.items()})


def unscheduled(monkeypatch):
    """Make the current code generator print its C in SymPy's order (the plain
    ``CPrinter`` port instead of ``ScheduledCPrinter``), to compare with the reference."""
    import dataclasses

    from soagen.codegen import emit
    from soagen.codegen.c import printers

    monkeypatch.setattr(emit, "LANGUAGES", {
        name: dataclasses.replace(lang, printer=printers.CPrinter) if lang.printer is printers.ScheduledCPrinter
        else lang for name, lang in emit.LANGUAGES.items()})
