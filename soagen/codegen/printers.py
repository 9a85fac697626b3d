"""Expression printers for the generated C and Python.

They print :mod:`soagen.codegen.expr` nodes exactly as SymPy's ``C99CodePrinter`` /
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

Further printers: :class:`ScheduledCPrinter`, the C as generated (the same text with each
sum associated by readiness, :mod:`soagen.codegen.schedule`); :class:`NumpyPrinter`
(batched numpy, ``q[..., k]``) and its JAX and PyTorch variants, which only name their
array module; :class:`CVectorPrinter`, the C on vectors of W states of the ``--batch``
kernels; :class:`CasadiPrinter`, Python on CasADi SX symbols.
"""

from __future__ import annotations

import re

import sympy

from soagen.codegen import expr as nodes
from soagen.codegen import schedule
from soagen.codegen.order import ordered_factors, ordered_terms
from soagen.errors import SoagenError

_INPUT = re.compile(r"^(q|qd|qdd|tau|params|obj|corr|pose)_(\d+)$")
MAX_POW = 8
ADD, MUL, POW, FUNC, ATOM = 40, 50, 60, 70, 1000


def is_input(symbol) -> bool:
    """Whether a symbol is an input entry (``q_3``, printed ``q[3]``), not a temporary."""
    return bool(_INPUT.match(symbol.name))


def _float(x) -> str:
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


class _Printer:
    index_format = "{name}[{k}]"
    one = "1"                          # how SymPy's printer prints the integer 1
    rename: dict = {}                  # symbol name -> its text (the scalar C's lanes, soagen.codegen.lanes)

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

    def same_value(self, names, target):
        """The temporaries ``names`` hold the value of ``target`` (lanes of a vector)."""

    def factors(self, e):
        """The order in which a product's factors are printed (and multiplied)."""
        return ordered_factors(e)

    def _print(self, e):
        if e.is_Symbol:
            if e.name in self.rename:
                return self.rename[e.name]
            m = _INPUT.match(e.name)
            return self.index_format.format(name=m.group(1), k=m.group(2)) if m else e.name
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
            return _float(e.value)
        if e.clsname in ("Rational", "Half"):
            return _float(e.value.numerator / e.value.denominator)
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
            if _denominator(item):
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


class CPrinter(_Printer):
    """C99: ``double`` arithmetic, ``sin``/``cos``/``sqrt``/``pow`` from ``<math.h>``."""

    one = "1.0"
    functions = {"sin": "sin", "cos": "cos"}

    def _integer(self, p):
        return f"{p}.0" if abs(p) < 2**53 else _float(p)

    def _mul(self, e):
        c, rest = e.as_coeff_Mul()
        if c.is_Rational and not c.is_Integer:         # (1/2)*x -> 0.5*x, not (0.5)*x
            e = nodes.mul(nodes.sympify(float(c.value)), rest)
        return super()._mul(e)

    def _pow(self, e):                                       # C89CodePrinter._print_Pow
        s = self._pow_product(e)
        if s is not None:
            return s
        base, k = e.args
        if k.is_Number and k.value == -1:
            return "1.0/" + self.parenthesize(base, POW)
        if k.is_Number and k.value == 0.5:
            return f"sqrt({self._print(base)})"
        if k.is_Number and k.clsname != "Float" and k.value == sympy.Rational(1, 3):
            return f"cbrt({self._print(base)})"
        return f"pow({self._print(base)}, {self._print(k)})"


class ScheduledCPrinter(CPrinter):
    """The C printing with latency-aware association (:mod:`soagen.codegen.schedule`):
    each sum is printed as the tree that makes its value ready earliest, each product
    multiplies its factors in order of readiness. It tracks when each temporary of the
    current function is ready, so statements are printed in order, through
    :meth:`statement`, after :meth:`start_function`."""

    def __init__(self):
        self.start_function()

    def start_function(self):
        self.ready, self._memo = {}, {}

    def statement(self, target, expr):
        if isinstance(expr, sympy.Basic):
            with nodes.arena():
                return self.statement(target, nodes.from_sympy(expr))
        text = self.doprint(expr)
        with nodes.use(expr.arena):
            self.ready[target] = self.ready_of(expr)
        return text

    def same_value(self, names, target):
        for name in names:
            self.ready[name] = self.ready[target]

    def ready_of(self, e) -> float:
        """When ``e``'s value is ready, as printed (cycles of the model)."""
        if e.is_Symbol:
            return self.ready.get(e.name, 0.0)
        if e.is_Number:
            return 0.0
        r = self._memo.get(e)
        if r is None:
            r = self._memo[e] = self._ready(e)
        return r

    def _ready(self, e):
        if e.is_Add:
            return self._sum(e)[0]
        if e.is_Mul:
            num = [f for f in self.factors(e) if not _denominator(f) and f is not nodes.NEG_ONE]   # -1: a sign
            den = [f for f in e.args if _denominator(f)]
            r = self._operands(num) + schedule.MUL if len(num) > 1 else self.ready_of(num[0]) if num else 0.0
            if den:
                r = max([r] + [self.ready_of(f.args[0]) + schedule.MUL * (abs(f.args[1].value) - 1)
                               for f in den]) + schedule.DIV
            return r
        if e.is_Pow:
            base, k = e.args
            if k.is_Integer:
                r = self.ready_of(base) + schedule.MUL * (abs(k.value) - 1)
                return r + (schedule.DIV if k.value < 0 else 0)
            return self.ready_of(base) + (schedule.SQRT if k is nodes.HALF else schedule.TRIG)
        return self.ready_of(e.args[0]) + schedule.TRIG          # sin, cos

    def _operands(self, factors):
        """When the operands of a product's last multiply are ready (factors in order; a
        small power prints as repeated factors, ``x*x``, and multiplies as such)."""
        factors = [g for f in factors for g in ([f.args[0]] * int(f.args[1].value) if self._is_product(f) else [f])]
        acc = self.ready_of(factors[0])
        for f in factors[1:-1]:
            acc = max(acc, self.ready_of(f)) + schedule.MUL
        return max(acc, self.ready_of(factors[-1]))

    def factors(self, e):
        """The coefficient first, then the factors in order of readiness (stable)."""
        return sorted(ordered_factors(e), key=lambda f: (not f.is_Number, self.ready_of(f)))

    def _add(self, e):
        _, text, sign = self._sum(e)
        return text if sign > 0 else f"-({text})"

    def _sum(self, e):
        """(ready, text, sign) of a sum, associated by :func:`schedule.associate`."""
        key = ("sum", e)
        done = self._memo.get(key)
        if done is not None:
            return done
        terms = []
        for k, term in enumerate(ordered_terms(e)):
            c, rest = term.as_coeff_Mul()
            sign = 1
            if c.is_Number and c.value < 0:
                sign, term = -1, nodes.keep_coeff(-c, rest)
            text = self._print(term)
            if _fusable(term):
                terms.append(schedule.Term.product(self._operands(self.factors(term) if term.is_Mul else [term]),
                                                   k, text, sign))
            else:
                terms.append(schedule.Term(self.ready_of(term), k, text, sign))
        done = self._memo[key] = schedule.associate(terms)
        return done


def _denominator(f):
    """A factor printed below the fraction bar: a power with a negative exponent."""
    return f.is_Pow and f.args[1].is_Rational and f.args[1].value < 0


def _fusable(term):
    """A product whose last multiply can fuse into the add (no division, no function of
    the product: ``x*y``, ``2.0*x*y``, ``x*x``)."""
    if term.is_Mul:
        return not any(_denominator(f) for f in term.args)
    return _Printer._is_product(term)


class PyPrinter(_Printer):
    """Python with the stdlib ``math`` module."""

    functions = {"sin": "math.sin", "cos": "math.cos"}
    sqrt = "math.sqrt"

    def _pow(self, e):                                       # PythonCodePrinter._hprint_Pow
        s = self._pow_product(e)
        if s is not None:
            return s
        base, k = e.args
        if k is nodes.NEG_ONE:
            return f"1.0/{self._print(base)}" if base.is_Atom else f"1.0/({self._print(base)})"
        if k is nodes.HALF:
            return f"{self.sqrt}({self._print(base)})"
        if k.is_Rational and k.value == -0.5:
            return f"1/{self.sqrt}({self._print(base)})"
        return f"{self.parenthesize(base, POW)}**{self.parenthesize(k, POW)}"


class NumpyPrinter(PyPrinter):
    """Python on numpy arrays with a leading batch shape: inputs are read as ``q[..., k]``
    and sin/cos/sqrt are those of the array module ``xp`` (numpy's)."""

    index_format = "{name}[..., {k}]"
    xp = "np"

    @property
    def functions(self):
        return {"sin": f"{self.xp}.sin", "cos": f"{self.xp}.cos"}

    @property
    def sqrt(self):
        return f"{self.xp}.sqrt"


class JaxPrinter(NumpyPrinter):
    """The numpy printing on ``jax.numpy`` (``jnp.sin`` ...)."""

    xp = "jnp"


class TorchPrinter(NumpyPrinter):
    """The numpy printing on PyTorch tensors (``torch.sin`` ...)."""

    xp = "torch"


class CVectorPrinter(ScheduledCPrinter):
    """C on vectors of W states (``soagen_vd``, the batch kernels of ``--batch``): the
    inputs ``q[k]`` are vectors there, so the text is the scalar one except for sin, cos
    and sqrt (the vector functions of ``templates/c/_vector.c.j2``) and bare numbers
    (splat to a vector). Any other power has no vector form and is refused."""

    functions = {"sin": "soagen_vsin", "cos": "soagen_vcos"}

    def doprint(self, expr) -> str:
        text = super().doprint(expr)
        return f"SOAGEN_SPLAT({text})" if expr.is_Number else text

    def _pow(self, e):
        base, k = e.args
        if k is nodes.HALF:
            return f"soagen_vsqrt({self._print(base)})"
        if not (k.is_Integer and abs(k.value) <= MAX_POW):
            raise SoagenError(f"no vector form for {nodes.to_sympy(e)} in the batch code")
        return super()._pow(e)


class CasadiPrinter(PyPrinter):
    """Python on CasADi SX symbols (``--lang casadi``): the plain Python printing with
    ``ca.sin``/``ca.cos``/``ca.sqrt``; the inputs ``q[k]`` are entries of SX vectors, so
    each statement adds nodes to CasADi's expression graph, one per operation."""

    functions = {"sin": "ca.sin", "cos": "ca.cos"}
    sqrt = "ca.sqrt"
