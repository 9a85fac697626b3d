"""Expression printers: SymPy's own, with only the overrides generated code needs.

Each override, and why:

* ``_print_Symbol``: input symbols ``q_3`` print as array reads (``q[3]`` in C and plain
  Python, ``q[..., 3]`` for the batched numpy module); temporaries print by name.
* ``_print_Pow``: small integer powers as products (``x*x`` instead of ``pow(x, 2)``,
  ``1.0/(x*x)``), which is both faster and what the operation counts assume.
* ``_print_Rational`` / ``_print_Integer`` / ``_print_Mul`` (C): rationals as double
  literals (``0.5*x``, not ``(1.0/2.0)*x``); integers as doubles so no integer division
  can ever occur.
* ``_print_Float``: the shortest repr that round-trips the double exactly (``repr``),
  so the printed constants are the model's doubles, bit for bit.

Further printers: :class:`NumpyPrinter` (batched numpy, ``q[..., k]``) and its JAX and
PyTorch variants, which only name their array module; :class:`CVectorPrinter`, the C on
vectors of W states of the ``--batch`` kernels.
"""

from __future__ import annotations

import re

import sympy
from sympy.printing.c import C99CodePrinter
from sympy.printing.pycode import PythonCodePrinter

from soagen.errors import SoagenError

_INPUT = re.compile(r"^(q|qd|qdd|tau|params|obj|corr|pose)_(\d+)$")
MAX_POW = 8


def _float(x) -> str:
    return repr(float(x))


class _Common:
    index_format = "{name}[{k}]"

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
    and sin/cos/sqrt are those of the array module ``xp`` (numpy's)."""

    index_format = "{name}[..., {k}]"
    xp = "np"

    def _print_sin(self, expr):
        return f"{self.xp}.sin({self._print(expr.args[0])})"

    def _print_cos(self, expr):
        return f"{self.xp}.cos({self._print(expr.args[0])})"

    def _print_Pow(self, expr, rational=False):
        if expr.exp == sympy.S.Half:
            return f"{self.xp}.sqrt({self._print(expr.base)})"
        return super()._print_Pow(expr, rational)


class JaxPrinter(NumpyPrinter):
    """The numpy printing on ``jax.numpy`` (``jnp.sin`` ...)."""

    xp = "jnp"


class TorchPrinter(NumpyPrinter):
    """The numpy printing on PyTorch tensors (``torch.sin`` ...)."""

    xp = "torch"


class CVectorPrinter(CPrinter):
    """C on vectors of W states (``soagen_vd``, the batch kernels of ``--batch``): the
    inputs ``q[k]`` are vectors there, so the text is the scalar one except for sin, cos
    and sqrt (the vector functions of ``templates/c/_vector.c.j2``) and bare numbers
    (splat to a vector). Any other function has no vector form and is refused."""

    def doprint(self, expr, assign_to=None):
        text = super().doprint(expr, assign_to)
        return f"SOAGEN_SPLAT({text})" if sympy.sympify(expr).is_Number else text

    def _print_sin(self, expr):
        return f"soagen_vsin({self._print(expr.args[0])})"

    def _print_cos(self, expr):
        return f"soagen_vcos({self._print(expr.args[0])})"

    def _print_Pow(self, expr):
        if expr.exp == sympy.S.Half:
            return f"soagen_vsqrt({self._print(expr.base)})"
        if not (expr.exp.is_Integer and abs(int(expr.exp)) <= MAX_POW):
            raise SoagenError(f"no vector form for {expr} in the batch code")
        return super()._print_Pow(expr)

    def _print_Function(self, expr):
        raise SoagenError(f"no vector form for {expr.func.__name__} in the batch code")


PRINTERS = {"c": CPrinter, "python": PyPrinter, "numpy": NumpyPrinter, "jax": JaxPrinter,
            "torch": TorchPrinter}
