"""Unrolling: run the generic recursions on symbols for one concrete robot.

The recursions of :mod:`soagen.dynamics` call ``xp.name(array, label, symmetric=...,
note=...)`` on every fresh per-body quantity (``V3``, ``P2``, ``f0`` ...): the front end
that names a quantity says there whether it is symmetric and what it is (the note, with
its equation, becomes the generated code's comment). :class:`UnrollBackend` answers that
call by replacing each non-trivial entry with a fresh temporary symbol (``V3_4``) and
recording its defining expression in order. Every recorded expression is therefore short (bounded per
body), and the program grows linearly in N for the O(N) algorithms; nothing is ever
expanded. Structure is exploited on the spot:

* zeros and ones of H, phi and the link rotations fold as exact integers (model constants
  within ``SNAP`` of 0 or +-1, e.g. cos(pi/2) from a URDF rpy, are snapped);
* sin/cos of each joint variable is computed once (``s_q3``, ``c_q3``);
* the quantities named ``symmetric`` (M, P, D, ...) on their upper triangle only;
* entries that are a number, a symbol or a negated symbol are never named.

:func:`unroll` then drops dead temporaries, runs one common-subexpression pass over the
short expressions and orders the result into a straight-line :class:`Program`;
:func:`unrolled` is the one entry point of every front end (backend, arena, stack, errors).

The arithmetic runs on :mod:`soagen.codegen.graph.expr` nodes (SymPy 1.14's canonical forms,
built without SymPy's evaluation machinery) and the common-subexpression pass is
:mod:`soagen.codegen.graph.cse` (SymPy's algorithm on those nodes): the program is the one
SymPy 1.14 would give, an order of magnitude faster, whatever SymPy is installed. A quantity that is not finite (a division
by an exact zero, e.g. D(k) = 0 for a joint that moves no inertia) raises
:class:`NonFiniteQuantity`, which the code generator turns into a one-line error.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import count, permutations

import numpy as np
import sympy

from soagen.backend import SympyBackend, quantity_label
from soagen.codegen.graph import expr as nodes
from soagen.codegen.graph.cse import cse
from soagen.errors import SoagenError
from soagen.tolerances import SNAP

TRIG = "sin/cos of the joint angles, each computed once"
LDL = "LDL^T factors inverting a multi-dof D(k) block"
SHARED = "shared by the outputs"


class NonFiniteQuantity(SoagenError):
    """A named quantity (``label``, e.g. ``Dinv3``, described by ``note``) or an output is
    not finite: a division by an exact zero, e.g. D(k) = H P H^T = 0 for a joint that moves
    no mass. ``where`` is the front end's prefix naming the model and the joint or part."""

    def __init__(self, label, where="", note=None, body=None):
        self.label, self.where, self.note, self.body = label, where, note, body
        what = f"{label} ({note})" if note else label
        super().__init__(f"{where}{what} is not finite (a division by zero: a joint that "
                         f"moves no mass or inertia about its axis?)")


class UnrollBackend(SympyBackend):
    """Numpy object arrays of expression nodes; :meth:`name` introduces recorded
    temporaries. The backend owns its arena (:class:`soagen.codegen.graph.expr.Arena`): nodes
    are built in it while the backend is entered (``with UnrollBackend() as xp:``), and
    freed with the program unrolled from it. Nothing outside the backend decides what it
    records, so two backends, interleaved or on two threads, give the same programs."""

    dtype = object

    def __init__(self):
        self.defs: list[tuple] = []              # (temp, expr, label, note, body)
        self.lanes: list[LaneStep] = []          # the quantities named by :meth:`columns`
        self._lane_out: dict = {}                # id(result of columns) -> (result, {chunk: vector names})
        self._used: set = set()
        self._named: dict = {}                   # expression -> the temporary that holds it
        self.arena = nodes.Arena()
        self._entered = []

    def __enter__(self):
        cm = nodes.use(self.arena)
        cm.__enter__()
        self._entered.append(cm)
        return self

    def __exit__(self, *exc):
        return self._entered.pop().__exit__(*exc)

    def scalar(self, x):
        return nodes.sympify(x)

    def symbols(self, name, n):
        """An input vector: the symbols ``name_0 .. name_{n-1}`` (printed ``name[k]``)."""
        return np.array([nodes.input_symbol(name, k) for k in range(n)], dtype=object)

    def constant(self, a):
        """Model constants as in :class:`~soagen.backend.SympyBackend`, with floats within
        SNAP of 0 or +-1 snapped first."""
        a = np.asarray(a)
        if a.dtype.kind == "f":
            if not np.isfinite(a).all():
                raise NonFiniteQuantity("a model constant")
            a = np.where(np.abs(a) < SNAP, 0.0, a)
            a = np.where(np.abs(np.abs(a) - 1.0) < SNAP, np.sign(a), a)
        return super().constant(a)

    def _trig_call(self, fn, x, prefix):
        """sin or cos of ``x`` as a temporary (``s_q_3``; ``s_angle`` when ``x`` is not a
        symbol), each argument's once: :meth:`_new` gives a repeated one its temporary."""
        x = nodes.sympify(x)
        return self._new(fn(x), f"{prefix}_{x.name if x.is_Symbol else 'angle'}", "", TRIG, None)

    def sin(self, x):
        return self._trig_call(nodes.sin, x, "s")

    def cos(self, x):
        return self._trig_call(nodes.cos, x, "c")

    def sqrt(self, x):
        return nodes.power(nodes.sympify(x), nodes.HALF)

    def inv(self, A):
        """D^-1 of a symmetric positive definite joint block. Blocks up to 3 x 3 by the
        closed form adj(A) / det(A) (:func:`adjugate_inverse`); larger ones (the 6 x 6 D of
        a free joint) an LDL^T factorization with every entry named, O(n^3) short
        expressions instead of a closed-form inverse that grows factorially. A singular
        block gives non-finite entries, refused by :meth:`name`."""
        n = A.shape[0]
        if n == 1:
            return np.array([[1 / nodes.sympify(A[0, 0])]], dtype=object)
        if n <= 3:
            return adjugate_inverse(A)

        def name(e, tag):
            return e if _trivial(e) or not e.is_finite else self._new(e, tag, "", LDL, None)

        L = [[nodes.ZERO] * n for _ in range(n)]
        d = [None] * n
        for j in range(n):                                   # A = L diag(d) L^T
            d[j] = name(A[j, j] - sum((L[j][k] ** 2 * d[k] for k in range(j)), nodes.ZERO), f"ldl_d{j}")
            for i in range(j + 1, n):
                L[i][j] = name((A[i, j] - sum((L[i][k] * L[j][k] * d[k] for k in range(j)), nodes.ZERO))
                               / d[j], f"ldl_L{i}{j}")
        dinv = [name(1 / d[j], f"ldl_di{j}") for j in range(n)]
        Li = [[nodes.ONE if i == j else nodes.ZERO for j in range(n)] for i in range(n)]
        for i in range(n):                                   # L^-1, unit lower triangular
            for j in range(i):
                Li[i][j] = name(-sum((L[i][k] * Li[k][j] for k in range(j, i)), nodes.ZERO), f"ldl_Li{i}{j}")
        out = np.empty((n, n), dtype=object)
        for i in range(n):                                   # A^-1 = L^-T diag(d)^-1 L^-1
            for j in range(i, n):
                out[i, j] = out[j, i] = sum((Li[k][i] * dinv[k] * Li[k][j] for k in range(j, n)), nodes.ZERO)
        return out

    def is_zero(self, x):
        return x.is_Number and x.value == 0

    def _unique(self, base):
        """``base``, or ``base_2``, ``base_3`` ... if taken; now taken."""
        name, k = base, 1
        while name in self._used:
            k += 1
            name = f"{base}_{k}"
        self._used.add(name)
        return name

    def _new(self, expr, name, label, note, body):
        """The temporary that holds ``expr``: a fresh one, or the one already holding the
        same (interned) expression. So a quantity that two recursions of one function compute
        alike is computed once (value numbering): the composite inertias of the mass matrix
        and of the derivatives, the columns phi(k, l) R(l) H^T(l) of the mass matrix's walk
        and of (D.14), entries of the composite momenta that equal those of the composite
        inertia rates (D.3)."""
        if not expr.is_finite:
            raise NonFiniteQuantity(label or name, note=note, body=body)
        if expr in self._named:
            return self._named[expr]
        sym = self._named[expr] = nodes.symbol(self._unique(name))
        self.defs.append((sym, expr, label, note, body))
        return sym

    def name(self, x, label, body=None, symmetric=False, note=None):
        """Each non-trivial entry of ``x`` as a fresh temporary ``label_i_j``, recorded
        with its expression and the ``body`` it belongs to (a per-body quantity is
        labelled by its kind and body, ``P`` and 3 -> ``P3``: :func:`quantity_label`).
        ``symmetric``: ``x`` is a symmetric matrix, named on its upper
        triangle only (the lower entries are the same temporaries). ``note`` says what the
        quantity is, with its equation (the generated code's comment)."""
        self.arena.maybe_sweep()
        label = quantity_label(label, body)
        x = np.asarray(x, dtype=object)
        if symmetric and not (x.ndim == 2 and x.shape[0] == x.shape[1]):
            raise ValueError(f"{label}: symmetric=True needs a square matrix, not shape {x.shape}")
        out = np.empty(x.shape, dtype=object)
        for idx, e in np.ndenumerate(x):
            if symmetric and idx[0] > idx[1]:
                out[idx] = out[idx[1], idx[0]]
                continue
            e = nodes.sympify(e)
            if _trivial(e):
                if not e.is_finite:
                    raise NonFiniteQuantity(label, note=note, body=body)
                out[idx] = e
            else:
                out[idx] = self._new(e, f"{label}_{'_'.join(str(i) for i in idx)}", label, note, body)
        return out

    def columns(self, f, blocks, label, note=None, name_inputs=False, body=None):
        """``f(*blocks)`` named as by :meth:`name`, and, when it has at least
        :data:`MIN_LANES` columns, recorded as a :class:`LaneStep`: ``f`` applied once per
        chunk of :data:`LANES` columns to vectors (placeholder symbols), so that the scalar
        C can compute the chunk's columns together (:mod:`soagen.codegen.c.lanes`). A block
        that an earlier such step returned is read as that step's vectors; any other block
        is packed from its entries (named first with ``name_inputs``)."""
        blocks = [np.asarray(b, dtype=object) for b in blocks]
        kind, label = label, quantity_label(label, body)
        if name_inputs and blocks[0].shape[-1] >= MIN_LANES:
            blocks = [b if id(b) in self._lane_out else self.name(b, f"{label}_in{k}", note=note)
                      for k, b in enumerate(blocks)]
        start = len(self.defs)
        out = self.name(f(*blocks), kind, body=body, note=note)
        m = out.shape[-1]
        chunks = lane_chunks(m)
        if not chunks:
            return out
        fresh = {d[0] for d in self.defs[start:]}
        step, names = LaneStep(label, note), {}
        for c, cols in enumerate(chunks):
            args = []
            for b, block in enumerate(blocks):
                source = self._lane_out.get(id(block))
                if source is not None:
                    vec = source[1][c]
                else:
                    vec = self._vector_names(f"{label}_in{b}", block.shape[:-1], c)
                    for idx in np.ndindex(block.shape[:-1]):
                        step.packs.append((vec[idx], [block[idx + (j,)] for j in cols]))
                args.append(_placeholders(vec))
            vec = self._vector_names(label, out.shape[:-1], c)
            g = np.asarray(f(*args), dtype=object)
            for idx in np.ndindex(out.shape[:-1]):
                step.rows.append((vec[idx], nodes.sympify(g[idx]), [out[idx + (j,)] for j in cols]))
                for lane, j in enumerate(cols):
                    if out[idx + (j,)] in fresh:
                        step.lanes[out[idx + (j,)].name] = (vec[idx], lane)
            names[c] = vec
        self._lane_out[id(out)] = (out, names)
        self.lanes.append(step)
        return out

    def _vector_names(self, label, shape, c):
        """Unique names of the vectors of one chunk: ``label_<row>v<chunk>``."""
        vec = np.empty(shape, dtype=object)
        for idx in np.ndindex(shape):
            vec[idx] = self._unique("_".join([label, *map(str, idx)]) + f"v{c}")
        return vec


def _placeholders(names):
    """Symbols named ``names`` (an object array), a scalar for a 0-d array."""
    out = np.empty(names.shape, dtype=object)
    for idx in np.ndindex(names.shape):
        out[idx] = nodes.symbol(names[idx])
    return out[()] if out.ndim == 0 else out


def adjugate_inverse(A):
    """The inverse of a small square block as adj(A) / det(A), the cofactors and the
    determinant expanded (Leibniz), one reciprocal of det(A) shared by every entry. For a
    symmetric block of distinct symbols (a named D(k)) this is, term for term, what SymPy
    1.14's ``Matrix.inv`` gives; an exactly singular block gives non-finite entries."""
    n = A.shape[0]
    a = [[nodes.sympify(v) for v in row] for row in A]
    every = tuple(range(n))
    dinv = nodes.power(_leibniz(a, every, every, 1), nodes.NEG_ONE)
    out = np.empty((n, n), dtype=object)
    for i in range(n):
        for j in range(n):                  # adj(A)[i, j] = (-1)^(i+j) minor(j, i)
            rows, cols = every[:j] + every[j + 1:], every[:i] + every[i + 1:]
            out[i, j] = nodes.mul(_leibniz(a, rows, cols, (-1) ** (i + j)), dinv)
    return out


def _leibniz(a, rows, cols, sign):
    """``sign`` times the determinant of ``a[rows][cols]``, expanded: the sum over the
    permutations p of sgn(p) a[r0][p0] a[r1][p1] ..., like terms collected."""
    terms = []
    for p in permutations(range(len(cols))):
        inversions = sum(1 for x in range(len(p)) for y in range(x + 1, len(p)) if p[x] > p[y])
        terms.append(nodes.mul(nodes.sympify(sign * (-1) ** inversions), *[a[r][cols[k]] for r, k in zip(rows, p)]))
    return nodes.add(*terms)


def _trivial(e) -> bool:
    if e.is_Number or e.is_Symbol or e.is_Atom:
        return True
    return e.is_Mul and len(e.args) == 2 and e.args[0] is nodes.NEG_ONE and e.args[1].is_Symbol


@dataclass
class Statement:
    target: nodes.Sym
    expr: nodes.Expr
    label: str            # the quantity it belongs to (e.g. "V3"); "" for the backend's own
    note: str | None      # what that quantity is, with its equation (the code's comment)
    body: int | None = None   # the body of a per-body quantity (3 for V3)


LANES = 4
"""Columns computed together by the scalar C (:mod:`soagen.codegen.c.lanes`): four doubles,
one AVX register (two SSE2 or NEON registers)."""
MIN_LANES = 3
"""A chunk of fewer columns stays scalar (the last chunk of 6 columns: 4 + 2)."""


def lane_chunks(m):
    """The ranges of columns (of m) computed together: consecutive chunks of
    :data:`LANES`, the last one shorter; a last chunk of fewer than :data:`MIN_LANES`
    columns is left out (its columns stay scalar). Spreading the columns evenly instead
    (6 as 3 + 3) measured no faster: the scalar columns skip the zeros of a triangular
    right-hand side (the identity of M^-1), which lanes compute."""
    return [range(a, min(m, a + LANES)) for a in range(0, m, LANES) if min(m, a + LANES) - a >= MIN_LANES]


@dataclass
class LaneStep:
    """A quantity named by :meth:`UnrollBackend.columns`, per chunk of :data:`LANES`
    columns: ``rows`` (vector name, the expression of one column over vector symbols, the
    entries of its lanes); ``packs`` (vector name, per-lane expressions), the vectors made
    from entries of blocks that no earlier step returned; ``lanes``, where each of its
    temporaries sits (temporary name -> (vector name, lane)). The expressions are the
    unrolled ones, before the common-subexpression pass."""

    label: str
    note: str | None
    rows: list = field(default_factory=list)
    packs: list = field(default_factory=list)
    lanes: dict = field(default_factory=dict)


@dataclass
class Call:
    """One loop of the generated code (a statement of the program; the looped style,
    :mod:`soagen.codegen.loops`): ``routine`` (``ltdl``, ``ltdl_solve``,
    ``ltdl_congruence``, ``ltdl_inverse``) fills the workspace ``workspace`` of ``size``
    entries (read as ``workspace[k]``, :func:`~soagen.codegen.graph.expr.workspace_symbol`)
    from ``args``: (entry, expression) pairs written into ``workspace`` (or, for the
    congruence, into its ``scratch``) first, every other entry 0. ``factor`` names the
    workspace of the factorization a solve uses; ``lam`` is the parent array, ``n`` and
    ``m`` the sizes; ``paths`` the (depth, off, path) tables of the factorization's layout
    (:func:`soagen.dynamics.ldl.path_layout`); ``ops`` its operation counts (the loops' own, exact)."""

    routine: str
    workspace: str
    size: int
    args: list
    lam: tuple
    n: int
    m: int = 0
    factor: str | None = None
    scratch: str | None = None
    label: str = ""
    note: str | None = None
    ops: dict = field(default_factory=dict)
    body: int | None = None
    paths: tuple = ()

    @property
    def reads(self) -> list:
        """The workspaces of other calls it reads (the factor)."""
        return [self.factor] if self.factor else []


@dataclass
class Program:
    """A straight-line program: ``statements`` in order, then ``outputs`` (flat, row-major).
    Its expressions live in ``arena`` (kept alive with the program)."""

    statements: list
    outputs: list
    counts: dict = field(default_factory=dict)
    arena: object = None
    lanes: list = field(default_factory=list)    # LaneStep records, for the scalar C

    @property
    def temporaries(self) -> int:
        return len(self.statements)

    def release(self):
        """Free this program's nodes now (a discarded candidate), instead of when the
        cyclic garbage collector gets to its arena."""
        self.arena.release()
        self.statements, self.outputs, self.lanes = [], [], []


def unrolled(build, where=None, backend=None) -> Program:
    """The one way every front end (robot, closed chain, ...) unrolls a function:
    ``build(xp)`` runs generic code on a fresh :class:`UnrollBackend` and returns the
    outputs, which :func:`unroll` turns into a program. It runs on a thread with a deep
    stack (:func:`~soagen.codegen.graph.expr.deep`), with the cyclic garbage collector paused
    (:func:`~soagen.codegen.graph.expr.gc_paused`), in the backend's own arena. A quantity that is
    not finite raises :class:`NonFiniteQuantity` whose message starts with
    ``where(body)`` (the front end names the model, the function and the joint of the
    quantity's body, None when it is not a per-body one). ``backend``: the class of the
    backend (default :class:`UnrollBackend`; the looped style's
    :class:`~soagen.codegen.loops.LoopedBackend`)."""
    def run():
        with (backend or UnrollBackend)() as xp, nodes.gc_paused():
            try:
                return unroll(build(xp), xp)
            except NonFiniteQuantity as err:
                if where is None:
                    raise
                raise NonFiniteQuantity(err.label, where(err.body), err.note, err.body) from None

    return nodes.deep(run)


def unroll(outputs, xp) -> Program:
    """Dead-code elimination, one CSE pass, dependency order. ``outputs`` is an array of
    expressions in the temporaries of the entered backend ``xp``, whose recorded
    definitions are consumed (the list is emptied, so that the expressions it held can be
    freed). The program keeps the backend's arena; the nodes it does not use are freed."""
    xp._named.clear()                   # (it holds the expressions that ``defs`` gives up)
    prog = _unroll(np.asarray(outputs, dtype=object), xp.defs, xp.arena)
    prog.lanes, xp.lanes, xp._lane_out = xp.lanes, [], {}
    prog.arena.sweep()
    return prog


def _unroll(out, defs, arena):
    flat = [nodes.sympify(e) for e in out.reshape(-1)]
    for k, e in enumerate(flat):
        if not e.is_finite:
            raise NonFiniteQuantity(f"output {k}")
    index = {d[0]: k for k, d in enumerate(defs) if not isinstance(d, Call)}
    calls = {d.workspace: d for d in defs if isinstance(d, Call)}
    live, seen, stack = set(), set(), list(flat)       # one walk over the DAG: linear
    while stack:
        e = stack.pop()
        if e.is_Symbol:
            if e in index and e not in live:
                live.add(e)
                stack.append(defs[index[e]][1])
            elif e.role == "workspace" and e.array in calls and e.array not in live:
                todo = [e.array]                        # a loop's results: the loop, and the loops it reads
                while todo:
                    w = todo.pop()
                    if w not in live:
                        live.add(w)
                        stack.extend(a for _, a in calls[w].args)
                        todo.extend(calls[w].reads)
        elif e.args and e not in seen:
            seen.add(e)
            stack.extend(e.args)
    del seen
    kept = [d for d in defs if (d.workspace if isinstance(d, Call) else d[0]) in live]
    exprs = [a for d in kept for a in ([e for _, e in d.args] if isinstance(d, Call) else [d[1]])] + flat
    del defs[:]                         # consumed: the expressions are now in ``exprs``
    reps, reduced = cse(exprs, (nodes.symbol(f"t{k}") for k in count()))
    parts, pos = [], 0                  # each kept definition with its reduced expressions
    for d in kept:
        k = len(d.args) if isinstance(d, Call) else 1
        parts.append((d, reduced[pos:pos + k]))
        pos += k
    # A named quantity whose whole expression became a CSE temporary (V1_0 = t0) takes
    # the temporary's place and name, so the code reads V1_0 = ..., not an alias.
    rep_syms = {s for s, _ in reps}
    alias, rep_label = {}, {}
    for d, (e, *_) in ((d, r) for d, r in parts if not isinstance(d, Call)):
        sym, _, label, note, body = d
        if e.is_Symbol and e not in alias and e in rep_syms:
            alias[e] = sym
            rep_label[sym] = (label, note, body)
    if alias:
        rename = nodes.Replacer(alias)             # may merge equal subexpressions: evaluate
        reps = [(alias.get(s, s), rename(v)) for s, v in reps]
        reduced = [rename(e) for e in reduced]
        parts = [(d, [rename(e) for e in r]) for d, r in parts]
    rep_def = dict(reps)
    emitted, statements = set(), []

    def need(expr, label, note, body):
        """Emit the CSE temporaries ``expr`` uses (depth first, by name), before it."""
        todo = [(expr, iter(sorted(expr.free_symbols, key=_name)), None)]
        while todo:
            e, it, target = todo[-1]
            for s in it:
                if s in rep_def and s not in emitted:
                    v = rep_def[s]
                    todo.append((v, iter(sorted(v.free_symbols, key=_name)), s))
                    break
            else:
                todo.pop()
                if target is not None:
                    emitted.add(target)
                    statements.append(Statement(target, e, *rep_label.get(target, (label, note, body))))

    for d, r in parts:
        if isinstance(d, Call):                 # a loop: its arguments first
            for e in r:
                need(e, d.label, d.note, d.body)
            statements.append(replace(d, args=[(k, e) for (k, _), e in zip(d.args, r)]))
            continue
        (sym, _, label, note, body), e = d, r[0]
        if sym in rep_def:                      # defined above, in place of its temporary
            need(sym, label, note, body)
            continue
        need(e, label, note, body)
        statements.append(Statement(sym, e, label, note, body))
    outs = reduced[len(exprs) - len(flat):]
    for e in outs:
        need(e, "", SHARED, None)
    # number the remaining CSE temporaries t0, t1, ... in the order they are defined
    renum = {st.target: nodes.symbol(f"t{k}") for k, st in enumerate(
        [st for st in statements if not isinstance(st, Call) and st.target in rep_syms])}
    if renum:
        rename = nodes.Replacer(renum, renaming=True)
        for st in statements:
            if isinstance(st, Call):
                st.args = [(k, rename(e)) for k, e in st.args]
                continue
            st.target = renum.get(st.target, st.target)
            st.expr = rename(st.expr)
        outs = [rename(e) for e in outs]
    prog = Program(statements, outs, arena=arena)
    prog.counts = count_program(prog)
    return prog


def _name(s):
    return s.name


# ---------------------------------------------------------------------------------------
# Operation counts (exact, machine independent): one add per binary +/-, one mul per
# binary product (a coefficient -1 is a sign, not a multiplication), x**-1 one div,
# x**k (k = 2..) k-1 muls, sin/cos one trig each, sqrt one sqrt.

def count_ops(expr, c=None):
    """Operation counts of an expression (a node, or a SymPy expression)."""
    c = c if c is not None else {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    if isinstance(expr, sympy.Basic):
        with nodes.arena():
            return count_ops(nodes.from_sympy(expr), c)
    stack = [expr]
    while stack:
        e = stack.pop()
        if e.is_Atom:
            continue
        if e.is_Add:
            c["add"] += len(e.args) - 1
        elif e.is_Mul:
            num = [a for a in e.args if not (a.is_Pow and _negative(a.args[1]))]
            den = [a for a in e.args if a.is_Pow and _negative(a.args[1])]
            factors = [a for a in num if a is not nodes.NEG_ONE]
            if factors and factors[0].is_Number and den and all(f.is_Number for f in factors):
                factors = []
            c["mul"] += max(len(factors) - 1, 0)
            if den:
                c["div"] += 1
                c["mul"] += len(den) - 1
                for d in den:
                    k = d.args[1]
                    if k.is_Integer and -k.value > 1:
                        c["mul"] += -k.value - 1
                    stack.append(d.args[0])
                    if not k.is_Integer:
                        stack.append(nodes.power(d.args[0], -k))
                stack.extend(num)
                continue
        elif e.is_Pow:
            k = e.args[1]
            if k.is_Integer and k.value > 0:
                c["mul"] += k.value - 1
            elif k.is_Integer and k.value < 0:
                c["div"] += 1
                c["mul"] += -k.value - 1
            elif k is nodes.HALF:
                c["sqrt"] += 1
            elif k.is_Number and k.value == -0.5 and k.is_Rational:
                c["sqrt"] += 1
                c["div"] += 1
            else:
                c["mul"] += 1
        elif e.is_Function:
            c["trig"] += 1
        stack.extend(e.args)
    return c


def _negative(k):
    return k.is_Number and k.value < 0


def count_program(prog: Program) -> dict:
    """The operation counts of the program's straight-line code (a loop's arguments
    included, its own work not: :func:`loop_counts`)."""
    c = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    for st in prog.statements:
        if isinstance(st, Call):
            for _, e in st.args:
                count_ops(e, c)
            continue
        count_ops(st.expr, c)
    for e in prog.outputs:
        count_ops(e, c)
    return c


def loop_counts(prog: Program) -> dict:
    """The operation counts of the program's loops (:class:`Call`), exact; zeros for a
    program without any."""
    c = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    for st in prog.statements:
        if isinstance(st, Call):
            for key, v in st.ops.items():
                c[key] += v
    return c
