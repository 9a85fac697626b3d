"""The printers of the generated Python: the stdlib ``math`` module, numpy arrays with a
leading batch shape, and their JAX, PyTorch and CasADi variants, which only name their
array module (:class:`NumpyPrinter` reads the inputs as ``q[..., k]``)."""

from __future__ import annotations

from soagen.codegen.graph import expr as nodes
from soagen.codegen.printing import POW, Printer


class PyPrinter(Printer):
    """Python with the stdlib ``math`` module."""

    functions = {"sin": "math.sin", "cos": "math.cos"}
    sqrt = "math.sqrt"

    def int_table(self, name, values):
        return f"{name} = ({', '.join(map(str, values))},)"

    def workspace(self, name, size, zero):
        return f"{name} = [0.0] * {size}"

    def assign(self, target, text):
        return f"{target} = {text}"

    def routine(self, name, args):
        return f"_{name}({', '.join(map(str, args))})"

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


class CasadiPrinter(PyPrinter):
    """Python on CasADi SX symbols (``--lang casadi``): the plain Python printing with
    ``ca.sin``/``ca.cos``/``ca.sqrt``; the inputs ``q[k]`` are entries of SX vectors, so
    each statement adds nodes to CasADi's expression graph, one per operation."""

    functions = {"sin": "ca.sin", "cos": "ca.cos"}
    sqrt = "ca.sqrt"
