"""The printers of the generated C: C99 on ``double`` (:class:`CPrinter`), the same text
with each sum associated by readiness as generated (:class:`ScheduledCPrinter`,
:mod:`soagen.codegen.c.sum_order`), and the C on vectors of W states of the ``--batch``
kernels (:class:`CVectorPrinter`)."""

from __future__ import annotations

import sympy

from soagen.codegen.c import sum_order as schedule
from soagen.codegen.graph import expr as nodes
from soagen.codegen.graph.order import ordered_factors, ordered_terms
from soagen.codegen.printing import MAX_POW, POW, Printer, denominator, float_literal
from soagen.errors import SoagenError


class CPrinter(Printer):
    """C99: ``double`` arithmetic, ``sin``/``cos``/``sqrt``/``pow`` from ``<math.h>``."""

    one = "1.0"
    functions = {"sin": "sin", "cos": "cos"}

    def _integer(self, p):
        return f"{p}.0" if abs(p) < 2**53 else float_literal(p)

    def int_table(self, name, values):
        return f"static const int {name}[{len(values)}] = {{{', '.join(map(str, values))}}};"

    def workspace(self, name, size, zero):
        return f"double {name}[{size}]{' = {0}' if zero else ''};"

    def assign(self, target, text):
        return f"{target} = {text};"

    def routine(self, name, args):
        return f"{name}({', '.join(map(str, args))});"

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
    """The C printing with latency-aware association (:mod:`soagen.codegen.c.sum_order`):
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
            num = [f for f in self.factors(e) if not denominator(f) and f is not nodes.NEG_ONE]   # -1: a sign
            den = [f for f in e.args if denominator(f)]
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


def _fusable(term):
    """A product whose last multiply can fuse into the add (no division, no function of
    the product: ``x*y``, ``2.0*x*y``, ``x*x``)."""
    if term.is_Mul:
        return not any(denominator(f) for f in term.args)
    return Printer._is_product(term)


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
