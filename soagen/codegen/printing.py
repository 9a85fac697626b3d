"""What every printer of generated code shares: SymPy's printing of expressions, ported.

They print :mod:`soagen.codegen.graph.expr` nodes exactly as SymPy's ``C99CodePrinter`` /
``PythonCodePrinter`` print the same expressions (term order of ``as_ordered_terms``,
factor order, precedence and parentheses, the sign pulled out of a product, denominators
gathered), with these overrides of SymPy's output, each for a reason:

* symbols: inputs ``q_3`` print as array reads (``q[3]`` in C and plain Python,
  ``q[..., 3]`` for the batched numpy module); temporaries print by name;
* small integer powers as products (``x*x`` instead of ``pow(x, 2)``, ``1.0/(x*x)``),
  which is both faster and what the operation counts assume; as a lone denominator such
  a product is parenthesized (``y/(x*x)``; SymPy's printers, given the product form,
  would print ``y/x*x``);
* rationals as double literals (``0.5*x``, not ``(1.0/2.0)*x``); C integers as doubles
  (``2.0``) so no integer division can ever occur;
* floats by ``repr``, the shortest text that round-trips the double, so the printed
  constants are the model's doubles bit for bit.

SymPy expressions are accepted too (converted first). Porting the printing keeps
``soagen generate`` fast; the tests check the output against SymPy's printers.

The languages' printers subclass :class:`Printer`: the Python family in
:mod:`soagen.codegen.python_printers`, the C in :mod:`soagen.codegen.c.printers`.
"""

from __future__ import annotations

import sympy

from soagen.codegen.graph import expr as nodes
from soagen.codegen.graph.order import ordered_factors, ordered_terms
from soagen.errors import SoagenError

MAX_POW = 8
PATH_TABLES = ("depth", "off", "path")   # the static tables of the looped style's loops (Call.paths)
ADD, MUL, POW, FUNC, ATOM = 40, 50, 60, 70, 1000


def is_input(symbol) -> bool:
    """Whether a symbol (a node, or a SymPy symbol that says so) is an input entry
    (``q_3``, printed ``q[3]``), not a temporary."""
    return getattr(symbol, "role", None) == "input"


def float_literal(x) -> str:
    return repr(float(x))


def precedence(e):
    """sympy.printing.precedence.precedence for the node kinds."""
    if e.is_Number:
        if e.value < 0:
            return ADD
        return MUL if e.clsname in ("Rational", "Half") else ATOM
    if e.is_Add:
        return ADD
    if e.is_Mul:
        return ADD if e.could_extract_minus_sign() else MUL
    if e.is_Pow:
        return POW
    if e.is_Function:
        return FUNC
    return ATOM


class Printer:
    index_format = "{name}[{k}]"
    one = "1"                          # how SymPy's printer prints the integer 1
    rename: dict = {}                  # symbol name -> its text (the scalar C's lanes, soagen.codegen.c.lanes)

    def doprint(self, expr) -> str:
        if isinstance(expr, sympy.Basic):
            with nodes.arena():
                return self._print(nodes.from_sympy(expr))
        with nodes.use(expr.arena):
            return self._print(expr)

    def start_function(self):
        """A new function's statements follow (a printer that tracks them starts over)."""

    def statement(self, target: str, expr) -> str:
        """The right-hand side of ``target = expr`` (statements come in order)."""
        return self.doprint(expr)

    def call(self, st) -> list:
        """The lines of a loop of the looped style (:class:`~soagen.codegen.unroll.Call`):
        its workspaces, its arguments written into them, the routine of the templates."""
        lines = []
        if st.routine == "ltdl":                      # the paths, by depth
            lines += [self.int_table(f"{st.workspace}_{t}", v) for t, v in zip(PATH_TABLES, st.paths)]
        into = st.scratch or st.workspace
        if st.scratch:
            lines.append(self.workspace(st.workspace, st.size, zero=False))
        lines.append(self.workspace(into, st.n * st.m if st.scratch else st.size,      # the arguments' other
                                    zero=st.routine != "ltdl_inverse"))               # entries are 0
        lines += [self.assign(f"{into}[{k}]", self.doprint(e)) for k, e in st.args]
        paths = [f"{st.factor or st.workspace}_{t}" for t in PATH_TABLES]
        args = {"ltdl": [st.workspace, *paths, st.n], "ltdl_solve": [st.factor, *paths, st.n, st.workspace, st.m],
                "ltdl_congruence": [st.factor, *paths, st.n, st.scratch, st.m, st.workspace],
                "ltdl_inverse": [st.factor, *paths, st.n, st.workspace]}[st.routine]
        lines.append(self.routine(f"soagen_{st.routine}", args))
        return lines

    def same_value(self, names, target):
        """The temporaries ``names`` hold the value of ``target`` (lanes of a vector)."""

    def factors(self, e):
        """The order in which a product's factors are printed (and multiplied)."""
        return ordered_factors(e)

    def _print(self, e):
        if e.is_Symbol:
            if e.name in self.rename:
                return self.rename[e.name]
            if e.role == "input":
                return self.index_format.format(name=e.array, k=e.index)
            return e.name if e.role is None else f"{e.array}[{e.index}]"
        if e.is_Number:
            return self._number(e)
        if e.is_Add:
            return self._add(e)
        if e.is_Mul:
            return self._mul(e)
        if e.is_Pow:
            return self._pow(e)
        if e.is_Function:
            return self._function(e)
        raise SoagenError("a value that is not finite (zoo/nan) reached the code printer")

    def parenthesize(self, item, level):
        s = self._print(item)
        return f"({s})" if precedence(item) <= level else s

    def _number(self, e):
        if e.clsname == "Float":
            return float_literal(e.value)
        if e.clsname in ("Rational", "Half"):
            return float_literal(e.value.numerator / e.value.denominator)
        return self._integer(e.value)

    def _integer(self, p):
        return str(p)

    def _add(self, e):                                       # StrPrinter._print_Add
        out = []
        for term in ordered_terms(e):
            t = self._print(term)
            if t.startswith("-") and not term.is_Add:
                sign, t = "-", t[1:]
            else:
                sign = "+"
            out += [sign, f"({t})" if precedence(term) < ADD or term.is_Add else t]
        sign = out.pop(0)
        return ("" if sign == "+" else sign) + " ".join(out)

    def _mul(self, e):                                       # CodePrinter._print_Mul
        prec = precedence(e)
        c, rest = e.as_coeff_Mul()
        if c.is_Number and c.value < 0:
            e = nodes.keep_coeff(-c, rest)
            sign = "-"
        else:
            sign = ""
        a, b = [], []
        for item in self.factors(e):
            if denominator(item):
                k = -item.args[1]
                b.append(item.args[0] if k is nodes.ONE else nodes.unevaluated(nodes.Pow, (item.args[0], k)))
            else:
                a.append(item)
        if len(a) == 1 and sign == "-":
            a_str = [self.parenthesize(a[0], 0.5 * (POW + MUL))]
        else:
            a_str = [self.parenthesize(x, prec) for x in a] or [self.one]
        b_str = [self.parenthesize(x, prec) for x in b]
        if not b:
            return sign + "*".join(a_str)
        if len(b) == 1:
            d = b_str[0]
            if self._is_product(b[0]):
                d = f"({d})"
            return sign + "*".join(a_str) + "/" + d
        return sign + "*".join(a_str) + "/(%s)" % "*".join(b_str)

    @staticmethod
    def _is_product(e):
        return e.is_Pow and e.args[1].is_Integer and 2 <= e.args[1].value <= MAX_POW

    def _pow_product(self, e):
        base, k = e.args
        if not (k.is_Integer and 2 <= abs(k.value) <= MAX_POW):
            return None
        b = self._print(base) if base.is_Atom else f"({self._print(base)})"
        prod = "*".join([b] * abs(k.value))
        return prod if k.value > 0 else f"1.0/({prod})"

    def _function(self, e):
        return f"{self.functions[e.name]}({self._print(e.args[0])})"


def denominator(f):
    """A factor printed below the fraction bar: a power with a negative exponent."""
    return f.is_Pow and f.args[1].is_Rational and f.args[1].value < 0
