"""Several columns at once in the scalar C.

The recursions compute some quantities column by column, the same operations on every
column (``xp.columns``, :meth:`soagen.codegen.unroll.UnrollBackend.columns`): the walks
that carry force columns towards the base (the derivatives of inverse dynamics (D.14),
the Coriolis matrix, the regressor) and the substitution steps of the L^T D L solves with
several right-hand sides (the derivatives of forward dynamics (D.19), M^-1). Unrolled one
column at a time, they are long runs of the same scalar arithmetic on different data.

The scalar C prints them :data:`~soagen.codegen.unroll.LANES` columns at a time
(:func:`~soagen.codegen.unroll.lane_chunks`): each row of a chunk of columns is computed
once for its four lanes::

    SOAGEN_LANES(dF2_5_0v0, c_q_3*SOAGEN_L(dF3_5_0v0) - s_q_3*SOAGEN_L(dF3_5_1v0));

a vector of four doubles where the compiler has vector extensions (one AVX register, two
SSE2 or NEON registers), otherwise an array and a four-iteration loop, plain C99 (the
macros are in ``templates/c/_vector.c.j2``). A block that no such step made (the walk's
first column block, the right-hand sides) is packed from its entries
(``SOAGEN_PACK(v) = {a, b, c, d};``); a lane beyond the last column is 0. The scalar
statements of those columns are dropped and their readers read the lane (``v[2]``); four
consecutive outputs that are a row's lanes in order are stored at once (``SOAGEN_STORE``).
The operation counts (the scalar program's) and every other language are unchanged. A row
that only repeats a row of its input (a rotation about z keeps the z components) is that
row; a row that is zero in every lane is the number 0.

Lanes are exact: each lane evaluates the expression of its column with the operations of
the scalar code, on the values it would have had. A lane whose packed entry reads a
quantity the scalar program dropped as unused (the walk's last step needs only the joint's
components) is one no output needs, and is 0. A step whose lanes would be needed to make
its own inputs (the common-subexpression pass can let one of its temporaries stand for a
subexpression of its first block) is printed from its scalar statements."""

from __future__ import annotations

import heapq
from math import prod

from soagen.codegen.graph import expr as nodes
from soagen.codegen.printing import is_input
from soagen.codegen.records import comment
from soagen.codegen.unroll import LANES

PACK, LOOP, SCALAR = "pack", "lanes", "scalar"


def lane_body(fn, printer) -> dict:
    """The scalar C's statements of ``fn`` with its :class:`~soagen.codegen.unroll.LaneStep`
    quantities on arrays of lanes: ``statements`` (``kind`` scalar, pack or lanes;
    comment, target, expr; a scalar one's comment by :func:`~soagen.codegen.records.comment`), the
    ``outputs`` printed again (flat), the vector ``stores`` of whole rows of outputs and the
    entries they ``stored``, and for :func:`soagen.codegen.c.body.early_stores` the
    ``order`` printed (target, the targets it reads) and the ``owner`` of each lane
    (temporary -> (vector, its text)). Empty when no step is printed as lanes."""
    prog = fn.program
    if not prog.lanes:
        return {}
    scalar = set()
    with nodes.use(prog.arena):
        while True:
            lanes = _Lanes(fn, printer, scalar)
            live = lanes.live()
            items = lanes.order(live)
            if len(items) == len(live):
                loops = any(it[0] == LOOP and lanes.vectors[it[1]][0] == LOOP for it in items)
                return lanes.record(items) if loops else {}
            stuck = lanes.cyclic(live - set(items)) - scalar
            if not stuck:                       # (not seen) the scalar printing is always valid
                return {}
            scalar |= stuck


class _Lanes:
    """The vectors of one function's steps, except the steps ``scalar`` (numbers into
    ``prog.lanes``), whose rows are packed from their scalar statements."""

    def __init__(self, fn, printer, scalar=()):
        self.fn, self.prog, self.printer = fn, fn.program, printer
        self.index = {st.target.name: k for k, st in enumerate(self.prog.statements)}
        self.lane = {}                    # scalar temporary -> (vector, lane)
        for n, step in enumerate(self.prog.lanes):
            if n not in scalar:
                self.lane.update(step.lanes)
        self.alias, self.zero = {}, set()
        self.vectors = {}                 # vector -> (kind, definition, step number)
        for n, step in enumerate(self.prog.lanes):
            for name, lanes in step.packs:
                self._pack(name, lanes, n)
            for name, g, entries in step.rows:
                if n in scalar:
                    self._pack(name, entries, n)
                else:
                    self._row(name, g, entries, n)
        self.of = {}                      # vector -> its scalar temporaries
        for name, (vec, _) in self.lane.items():
            self.of.setdefault(self.resolve(vec), []).append(name)

    # -- the vectors ------------------------------------------------------------------
    def resolve(self, name):
        while name in self.alias:
            name = self.alias[name]
        return name

    def _known(self, s) -> bool:
        return is_input(s) or s.name in self.index or s.name in self.lane

    def _pack(self, name, lanes, n):
        lanes = [nodes.sympify(e) for e in lanes]
        lanes = [e if all(map(self._known, e.free_symbols)) else nodes.ZERO for e in lanes]
        lanes += [nodes.ZERO] * (LANES - len(lanes))
        if all(e is nodes.ZERO for e in lanes):
            self.zero.add(name)
        else:
            self.vectors[name] = (PACK, lanes, n)

    def _row(self, name, g, entries, n):
        rule = {}
        for s in g.free_symbols:
            r = self.resolve(s.name)
            if r in self.zero:
                rule[s] = nodes.ZERO
            elif r != s.name:
                rule[s] = nodes.symbol(r)
        g = nodes.Replacer(rule)(g) if rule else g
        if not all(s.name in self.vectors or self._known(s) for s in g.free_symbols):
            # a factor the scalar program dropped (it reads no lane that needs it): this
            # row is its lanes' scalar statements, packed
            for e in entries:
                if e.is_Symbol:
                    self.lane.pop(e.name, None)
            self._pack(name, entries, n)
        elif g is nodes.ZERO:
            self.zero.add(name)
        elif g.is_Symbol and g.name in self.vectors:
            self.alias[name] = g.name
        else:
            self.vectors[name] = (LOOP, g, n)

    # -- what is needed, in which order ---------------------------------------------------
    def reads(self, item):
        """The statements and vectors an item reads (by name)."""
        kind, name = item
        if kind == SCALAR:
            exprs = [self.prog.statements[self.index[name]].expr]
        else:
            k, d, _ = self.vectors[name]
            exprs = d if k == PACK else [d]
        out = []
        for e in exprs:
            for s in sorted(e.free_symbols, key=lambda s: s.name):
                out.extend(self._item(s.name))
        return out

    def _item(self, name):
        if name in self.lane:
            v = self.resolve(self.lane[name][0])
            return [] if v in self.zero else [(LOOP, v)]
        r = self.resolve(name)
        if r in self.vectors:
            return [(LOOP, r)]
        if name in self.index:
            return [(SCALAR, name)]
        return []

    def live(self):
        """The items the outputs need, through the scalar statements and the vectors."""
        seen, todo = set(), []
        for e in self.prog.outputs:
            for s in e.free_symbols:
                todo.extend(self._item(s.name))
        while todo:
            it = todo.pop()
            if it in seen:
                continue
            seen.add(it)
            todo.extend(self.reads(it))
        return seen

    def order(self, live):
        """A dependency order that keeps the scalar program's: each vector where the first
        scalar statement its step replaces stood (Kahn's algorithm, by that position)."""
        first = {}
        for name, (vec, _) in self.lane.items():
            if name in self.index:
                n = self.vectors.get(self.resolve(vec), (None, None, None))[2]
                first[n] = min(first.get(n, len(self.index)), self.index[name])

        def key(it):
            kind, name = it
            if kind == SCALAR:
                return (self.index[name], 1, 0)
            n = self.vectors[name][2]
            return (first.get(n, 0), 0, n)

        deps = {it: set(self.reads(it)) & live for it in live}
        users = {}
        for it, ds in deps.items():
            for d in ds:
                users.setdefault(d, []).append(it)
        pending = {it: len(ds) for it, ds in deps.items()}
        heap = [(key(it), it) for it, k in pending.items() if k == 0]
        heapq.heapify(heap)
        out = []
        while heap:
            _, it = heapq.heappop(heap)
            out.append(it)
            for u in users.get(it, ()):
                pending[u] -= 1
                if pending[u] == 0:
                    heapq.heappush(heap, (key(u), u))
        return out

    def cyclic(self, stuck):
        """The steps of the vectors among ``stuck`` that need themselves: a scalar
        statement the step's vectors are made from reads one of its lanes (the common-
        subexpression pass let a lane's temporary stand for a subexpression that the step's
        own inputs share). Those steps stay scalar."""
        edges = {it: [d for d in self.reads(it) if d in stuck] for it in stuck}
        steps = set()
        for it in stuck:
            if it[0] == SCALAR:
                continue
            seen, todo = set(), list(edges[it])
            while todo and it not in seen:
                d = todo.pop()
                if d not in seen:
                    seen.add(d)
                    todo.extend(edges[d])
            if it in seen:
                steps.add(self.vectors[it[1]][2])
        return steps

    # -- printing ---------------------------------------------------------------------------
    def record(self, items) -> dict:
        p = self.printer
        p.start_function()
        p.rename = {name: f"SOAGEN_L({name})" for name in self.vectors}
        for name, (vec, lane) in self.lane.items():
            v = self.resolve(vec)
            p.rename[name] = "0.0" if v in self.zero else f"{v}[{lane}]"
        statements, last = [], None
        for kind, name in items:
            if kind == SCALAR:
                st, k = self.prog.statements[self.index[name]], SCALAR
                what = (st.label, st.note)
                text, note = p.statement(name, st.expr), comment(st)
            else:
                k, d, n = self.vectors[name]
                step = self.prog.lanes[n]
                what = (step.label, step.note)
                note = f"{step.label}: {step.note or step.label}, up to {LANES} columns at a time"
                if k == PACK:
                    text = ", ".join(p.doprint(e) for e in d)
                else:
                    text = p.statement(name, d)
                    p.same_value(self.of.get(name, ()), name)
            statements.append({"kind": k, "target": name, "expr": text,
                               "comment": note if what != last else None})
            last = what
        outputs = [p.doprint(e) for e in self.prog.outputs]
        owner = {name: (self.resolve(vec), p.rename[name]) for name, (vec, _) in self.lane.items()
                 if self.resolve(vec) in self.vectors}
        p.rename = {}
        stores, stored = self.row_stores()
        return {"statements": statements, "outputs": outputs, "stores": stores, "stored": stored,
                "order": [(it[1], [d[1] for d in self.reads(it)]) for it in items],
                "owner": owner}

    def row_stores(self):
        """One vector store for each four consecutive output entries that are the lanes
        of a row, in order and with one sign: (stores after each vector, stored entries)."""
        stores, stored, start = {}, {}, 0
        for name, shape in self.fn.results:
            for k, vec, sign in self._whole_rows(self.prog.outputs[start:start + prod(shape)]):
                stores.setdefault(vec, []).append(f"SOAGEN_STORE({name} + {k}, {sign}SOAGEN_L({vec}))")
                stored.setdefault(name, set()).update(range(k, k + LANES))
            start += prod(shape)
        return stores, stored

    def _whole_rows(self, outputs):
        """(k, vector, sign): the output entries k .. k + 3 are the four lanes of a vector
        of loops, in order, each with the same sign: one store of the vector."""
        k = 0
        while k + LANES <= len(outputs):
            lanes = [self._signed_lane(e) for e in outputs[k:k + LANES]]
            if all(lanes) and len({(v, sign) for v, _, sign in lanes}) == 1 \
                    and [j for _, j, _ in lanes] == list(range(LANES)) and self.vectors[lanes[0][0]][0] == LOOP:
                yield k, lanes[0][0], lanes[0][2]
                k += LANES
            else:
                k += 1

    def _signed_lane(self, e):
        """(vector, lane, sign) when ``e`` is a lane or its negative, else None."""
        sign = ""
        if e.is_Mul and len(e.args) == 2 and e.args[0] is nodes.NEG_ONE:
            sign, e = "-", e.args[1]
        if not (e.is_Symbol and e.name in self.lane):
            return None
        vec, j = self.lane[e.name]
        vec = self.resolve(vec)
        return (vec, j, sign) if vec in self.vectors else None

