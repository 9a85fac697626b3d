"""The languages soagen prints: one :class:`Language` per backend, its printer and its
templates (``templates/<language>/``), in :data:`LANGUAGES`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from soagen.codegen.c.body import scalar_c, vector_and_sincos
from soagen.codegen.c.printers import ScheduledCPrinter
from soagen.codegen.python_printers import (
    CasadiPrinter,
    JaxPrinter,
    NumpyPrinter,
    PyPrinter,
    TorchPrinter,
)


@dataclass(frozen=True)
class Language:
    """A backend: ``printer`` prints expressions (None: the templates use no printed code,
    only each function's :func:`describe` record); each ``(template, file)`` pair renders
    one template of ``templates/`` into one file (``{prefix}`` in ``file`` is substituted);
    ``extras(function, printer, record)`` returns more entries for the function's printed record."""

    name: str
    printer: type | None
    templates: tuple
    extras: Callable | None = None


C_FILES = (("c/header.h.j2", "{prefix}.h"), ("c/source.c.j2", "{prefix}.c"))
LANGUAGES = {lang.name: lang for lang in (
    Language("c", ScheduledCPrinter, C_FILES, scalar_c),
    Language("c_batch", ScheduledCPrinter, C_FILES, vector_and_sincos),  # C + PREFIX_<function>_batch
    Language("python", PyPrinter, (("python/module.py.j2", "{prefix}.py"),)),
    Language("numpy", NumpyPrinter, (("python/module_numpy.py.j2", "{prefix}.py"),)),
    Language("python_ext", None, (("c/pymodule.c.j2", "{prefix}_module.c"),)),   # with c_batch
    Language("jax", JaxPrinter, (("jax/module.py.j2", "{prefix}_jax.py"),)),
    Language("torch", TorchPrinter, (("torch/module.py.j2", "{prefix}_torch.py"),)),
    Language("casadi", CasadiPrinter, (("casadi/module.py.j2", "{prefix}_casadi.py"),)),
)}
