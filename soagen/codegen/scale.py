"""The compiled module of ``soagen build`` at scale: over chunked Dask arrays, out of
core and on a cluster.

The module already takes any leading batch shape and releases the GIL while a batch runs,
so one chunk of states is one call, and threads (Dask's default scheduler) or worker
processes (``dask.distributed``) evaluate chunks in parallel. Three pieces:

* :class:`CompiledFunction`: one function of a built module, named by the module's file,
  picklable (it holds only the file's path, the function's name and the shapes, and loads
  the module in whichever process calls it: a Dask worker on the same file system); the input sizes
  and output shapes come from the manifest beside the module.
* :func:`evaluate`: that function over Dask arrays whose leading axes are chunked (the
  last axis, the state vector, whole): a lazy array of shape (..., *output shape),
  one module call per chunk.
* :func:`lstsq`: least squares ``min |A x - b|`` over row-chunked arrays, accumulated
  chunk by chunk as normal equations: each chunk is reduced to [A | b]^T [A | b]
  ((p+1) x (p+1)), the sums are added, and x comes from a Cholesky factor of the sum with
  A's columns scaled to unit norm. Nothing larger than a chunk is in memory at once. The
  normal equations square the condition number, which identification can afford: the base
  regressor at varied states is well conditioned (UR5, random states: 15), and a
  dependent column is refused (``tolerances.NORMAL_EQUATIONS_RANK``). A QR per chunk
  (TSQR) keeps the conditioning but cost 7x the Gram matrix per state here.
  For identification: A the (base) regressor, b the measured joint forces.

Here in ``codegen/`` because it knows the files ``soagen build`` writes (the module and its
manifest, :mod:`soagen.codegen.extension`) and nothing of robots; docs/scale.md shows it on
10^8 states. Needs ``dask[array]`` (the ``dask`` extra)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from soagen.codegen.records import output_shapes
from soagen.errors import SoagenError
from soagen.tolerances import NORMAL_EQUATIONS_RANK

_MODULES = {}          # path -> module, per process


class CompiledFunction:
    """The function ``name`` of the module built at ``path`` (the ``.so`` that ``soagen
    build`` wrote; its ``PREFIX_manifest.json`` is beside it)."""

    def __init__(self, path, name):
        self.path, self.name = str(Path(path).resolve()), name
        prefix = Path(self.path).name.split(".")[0]
        manifest = Path(self.path).parent / f"{prefix}_manifest.json"
        if not manifest.is_file():
            raise SoagenError(f"{self.path}: no {manifest.name} beside the module (written by soagen build)")
        functions = json.loads(manifest.read_text())["functions"]
        if name not in functions:
            raise SoagenError(f"{self.path}: no function {name!r} (it has {', '.join(functions)})")
        record = functions[name]
        self.inputs = tuple(record["inputs"])
        self.shapes = tuple(tuple(s) for s in output_shapes(record))

    def __call__(self, *arrays, **kw):
        """The module's function on numpy arrays (the module loaded on first use in this process)."""
        module = _MODULES.get(self.path)
        if module is None:
            from soagen.codegen.extension import load_extension

            module = _MODULES[self.path] = load_extension(self.path)
        return getattr(module, self.name)(*arrays, **kw)

    def __repr__(self):
        return f"CompiledFunction({self.path!r}, {self.name!r})"


def evaluate(function: CompiledFunction, *arrays, output=0):
    """``function`` over Dask arrays of states with the same leading shape (its chunks as
    they are; the last axis, the state vector, whole): a lazy Dask array of shape leading +
    the output's shape, one module call per chunk. ``output`` picks one output of a
    function that has several."""
    import dask.array as da

    if len(arrays) != len(function.inputs):
        raise SoagenError(f"{function.name} takes {len(function.inputs)} inputs "
                          f"({', '.join(function.inputs)}), got {len(arrays)}")
    arrays = [da.asarray(a) for a in arrays]
    lead = tuple(f"n{k}" for k in range(arrays[0].ndim - 1))
    if any(a.shape[:-1] != arrays[0].shape[:-1] for a in arrays):
        raise SoagenError(f"{function.name}: the inputs' leading shapes differ "
                          f"({', '.join(str(a.shape) for a in arrays)})")
    shape = function.shapes[output]
    out = tuple(f"o{k}" for k in range(len(shape)))
    args = [x for k, a in enumerate(arrays) for x in (a.rechunk({a.ndim - 1: -1}), lead + (f"i{k}",))]
    several = len(function.shapes) > 1

    def block(*chunks):
        result = function(*chunks)
        return result[output] if several else result

    return da.blockwise(block, lead + out, *args, new_axes=dict(zip(out, shape)), concatenate=True, dtype=np.float64,
                        meta=np.empty((0,) * (len(lead) + len(shape))))


def _gram(A, b):
    """One chunk's [A | b]^T [A | b] ((p+1) x (p+1)), from A (m, ..., p) and b (m, ...)."""
    A, b = A.reshape(-1, A.shape[-1]), b.reshape(-1)
    Atb = A.T @ b
    return np.block([[A.T @ A, Atb[:, None]], [Atb[None, :], np.array([[b @ b]])]])


def lstsq(A, b):
    """x minimising |A x - b| over Dask arrays: ``A`` of shape (n, ..., p) and ``b`` of
    shape (n, ...), chunked along the first axis (e.g. the base regressor (n, nv, p) and the
    joint forces (n, nv)). Returns x and the residual norm |A x - b| (from the normal
    equations: accurate to about sqrt(eps) |b|). A column of A that depends on the others
    (``tolerances.NORMAL_EQUATIONS_RANK``) is an error. Computed on Dask's current
    scheduler (threads, or a dask.distributed Client's cluster)."""
    import dask
    import dask.array as da

    A, b = da.asarray(A), da.asarray(b)
    if A.shape[:-1] != b.shape or A.ndim < 2:
        raise SoagenError(f"lstsq: A {A.shape} and b {b.shape} do not match (A is (n, ..., p), b is (n, ...))")
    A = A.rechunk({k: -1 for k in range(1, A.ndim)})
    b = b.rechunk(A.chunks[:-1])
    grams = [dask.delayed(_gram)(a, y) for a, y in zip(A.to_delayed().ravel(), b.to_delayed().ravel())]
    G = dask.delayed(sum)(grams).compute()       # one (p+1) x (p+1) per chunk, added
    return solve_normal_equations(G)


def solve_normal_equations(G):
    """x and |A x - b| from G = [A | b]^T [A | b]: A's columns scaled to unit norm, then
    Cholesky, whose diagonal is each column's residual against the columns before it
    relative to its own norm (a dependent column is an error)."""
    p = G.shape[0] - 1
    d = np.sqrt(np.diag(G)[:p])
    if not np.all(d > 0):
        raise SoagenError(f"lstsq: column {int(np.argmin(d))} of A is zero")
    Gs = G[:p, :p] / np.outer(d, d)
    try:
        L = np.linalg.cholesky(Gs)
    except np.linalg.LinAlgError:
        L = None
    if L is None or np.diag(L).min() < NORMAL_EQUATIONS_RANK:
        k = 0 if L is None else int(np.diag(L).argmin())
        raise SoagenError(f"lstsq: {'a column' if L is None else f'column {k}'} of A depends on the ones before "
                          "it (use the base regressor, or more varied states)")
    z = np.linalg.solve(L, G[:p, p] / d)          # L^-1 D^-1 A^T b
    x = np.linalg.solve(L.T, z) / d
    return x, float(np.sqrt(max(G[p, p] - z @ z, 0.0)))
