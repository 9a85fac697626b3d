"""The C function body beyond its printed statements: the sin and cos of the joint
angles gathered into one vector call, the columns computed four at a time
(:mod:`soagen.codegen.c.lanes`), the statements in the order that keeps fewer values live
(:mod:`soagen.codegen.c.statement_order`) and each output stored as soon as it is final;
and, for ``--batch``, the function printed on vectors of W states. These are the C
languages' ``extras`` hooks (:mod:`soagen.codegen.languages`)."""

from __future__ import annotations

from soagen.codegen.c.lanes import lane_body
from soagen.codegen.c.printers import CVectorPrinter
from soagen.codegen.c.statement_order import fewest_live
from soagen.codegen.graph import expr as E
from soagen.codegen.printing import is_input
from soagen.codegen.records import Function, print_function, results, size
from soagen.codegen.unroll import Call


def vector_body(fn: Function, printer) -> dict:
    """The batch kernels' extra: the function printed on vectors of W states
    (:class:`~soagen.codegen.printers.CVectorPrinter`) as ``vector``, with its
    ``sincos``: per angle (an argument reading inputs only) its printed ``arg`` and the
    targets ``s`` and ``c`` of its sin and cos statements (a placeholder name for one that
    the function does not use), which the template computes with one
    ``soagen_vsincos_deferred`` call per angle (the lanes beyond the polynomial's range
    tested once for all of them) and skips (``targets``); None when there is none. The
    statements and stores are in the order of :func:`pressure_order`, as in the scalar C."""
    if any(isinstance(st, Call) for st in fn.program.statements):
        return {"vector": None}         # a function with loops runs state by state (_batch.c.j2)
    vp = CVectorPrinter()
    rec = print_function(fn, vp)
    angles = {}
    for st in fn.program.statements:
        which, arg = _input_trig(st.expr)
        if which:
            angles.setdefault(vp.doprint(arg), {})[which[0]] = st.target.name
    rec["sincos"] = {"comment": "sin and cos of each joint angle in one pass (soagen_vsincos_deferred)",
                     "angles": [{"arg": a, "s": t.get("s", f"soagen_unused_s{k}"), "c": t.get("c", f"soagen_unused_c{k}")}
                                for k, (a, t) in enumerate(angles.items())],
                     "targets": {n for t in angles.values() for n in t.values()}} if angles else None
    rec.update(pressure_order(fn, rec["statements"], program_order(fn), _printed(rec),
                              rec["sincos"]["targets"] if angles else ()))
    return {"vector": rec}


SINCOS = "sin/cos of the joint angles: all at once, W per vector (soagen_sincos)"


def gathered_sincos(fn: Function, printer) -> dict:
    """The scalar C's extra: the sin and cos of the input angles, computed all at once.
    ``sincos`` lists the angles of the statements ``s_q3 = sin(q[3])``, ``c_q3 =
    cos(q[3])`` whose argument reads only inputs (printed, each angle once, in order of
    first use), for each such statement its ``target``, ``which`` (``s`` or ``c``) and
    ``index`` into the angles, and the set of those ``targets``: the template gathers the
    angles into one array, calls the vector sin/cos of ``templates/c/_vector.c.j2`` once
    (``soagen_sincos``, W angles per vector), reads the targets back and skips their
    statements. None when the function has no such statement."""
    angles, values = {}, []
    for st in (st for st in fn.program.statements if not isinstance(st, Call)):
        which, arg = _input_trig(st.expr)
        if which:
            k = angles.setdefault(printer.doprint(arg), len(angles))
            values.append({"target": st.target.name, "which": which[0], "index": k})
    if not angles:
        return {"sincos": None}
    return {"sincos": {"comment": SINCOS, "angles": list(angles), "values": values,
                       "targets": {v["target"] for v in values}}}


def _input_trig(e):
    """("sin" or "cos", argument) when ``e`` is the sin or cos of an expression of inputs
    only (a node, or a SymPy expression), else (None, None)."""
    if not e.is_Function:
        return None, None
    name = e.name if isinstance(e, E.Expr) else type(e).__name__
    if name in ("sin", "cos") and all(map(is_input, e.free_symbols)):
        return name, e.args[0]
    return None, None


def reads(expr) -> list:
    """The values an expression reads, by name: temporaries, and a loop's workspace (by
    the workspace's name) for its entries."""
    return [sym.array if getattr(sym, "role", None) == "workspace" else sym.name for sym in expr.free_symbols]


def program_order(fn: Function) -> list:
    """(target, the targets it reads) of each statement of ``fn``'s program, in order; a
    loop (:class:`~soagen.codegen.unroll.Call`) is one statement, its workspace its target."""
    return [(st.workspace, sorted({r for _, e in st.args for r in reads(e)} | set(st.reads)))
            if isinstance(st, Call) else (st.target.name, reads(st.expr)) for st in fn.program.statements]


def early_stores(fn: Function, order, owner=None, stored=None) -> dict:
    """For the C (:func:`pressure_order`): each output entry that is a temporary is stored right after
    the statement that last needs it (the one defining it, or its last use), not at the
    end: a value that is only output no longer stays live through the rest of the
    function (fewer spills; UR5 inverse dynamics 10% faster). ``stores`` maps a
    statement's target to the stores that follow it (``tau[1] = f1_1``), ``stored`` maps
    each output to the flat indices so stored. ``order``: (target, the targets it reads)
    per statement as printed; ``owner``: a temporary
    held by another target (a lane of a vector) -> (that target, its text), stored right
    after that target (measured: the Panda's ID derivatives 4% slower when the lanes wait
    for the vector's last use); ``stored``: entries already stored, left alone."""
    owner = owner or {}
    last = {}
    for target, reads in order:
        last[target] = target
        for r in reads:
            if r in last:
                last[r] = target
    stored = {name: set(ks) for name, ks in (stored or {}).items()}
    stores = {}
    for (name, k), e in zip(_flat_outputs(fn), fn.program.outputs):
        if e.is_Symbol and k not in stored.get(name, ()):
            at, text = owner[e.name] if e.name in owner else (last.get(e.name), e.name)
            if at in last:
                stores.setdefault(at, []).append(f"{name}[{k}] = {text}")
                stored.setdefault(name, set()).add(k)
    return {"stores": stores, "stored": stored}


def scalar_c(fn: Function, printer, rec) -> dict:
    """The scalar C's extras: :func:`gathered_sincos`, the columns computed several at a
    time (:func:`soagen.codegen.c.lanes.lane_body`, which prints the statements and outputs
    again in its order), and all in the order of :func:`pressure_order`."""
    sincos = gathered_sincos(fn, printer)
    first = sincos["sincos"]["targets"] if sincos["sincos"] else set()
    lanes = lane_body(fn, printer)
    if not lanes:
        return {**sincos, **pressure_order(fn, rec["statements"], program_order(fn), _printed(rec), first)}
    printed = lanes.pop("outputs")
    out = pressure_order(fn, lanes.pop("statements"), lanes.pop("order"), printed, first,
                         lanes.pop("owner"), lanes["stores"], lanes["stored"])
    return {**sincos, **out, "results": results(fn, printed)}


def pressure_order(fn: Function, statements, order, printed, first=(), owner=None, stores=None, stored=None) -> dict:
    """The printed ``statements`` (with ``order``: target, the targets it reads, for each)
    in the order of :func:`soagen.codegen.c.statement_order.fewest_live`, those whose targets are
    in ``first`` (computed before the others) ahead; each output that is an expression
    (``printed``: every output's text, flat) stored right after the statement before it
    in that order, each that is a temporary by :func:`early_stores`. ``owner``, ``stores``
    and ``stored``: lanes of vectors, and the vector stores already made (as in
    :func:`early_stores`). Returns ``statements``, ``stores`` and ``stored``."""
    owner, stores = owner or {}, stores if stores is not None else {}
    stored = {name: set(ks) for name, ks in (stored or {}).items()}
    n, order, writes = len(order), list(order), {}
    for j, ((name, k), e) in enumerate(zip(_flat_outputs(fn), fn.program.outputs)):
        reads_ = [owner[r][0] if r in owner else r for r in reads(e)]
        if not e.is_Symbol and reads_ and k not in stored.get(name, ()):
            writes[len(order)] = (name, k, f"{name}[{k}] = {printed[j]}")
            order.append((None, reads_))
    rest = [i for i, (target, _) in enumerate(order) if target not in first]
    perm = [i for i in range(n) if order[i][0] in first] + [rest[i] for i in fewest_live([order[i] for i in rest])]
    last = None
    for i in perm:
        if i < n:
            last = order[i][0]
        elif last is not None:                      # stored right after the statement before it
            name, k, text = writes[i]
            stores.setdefault(last, []).append(text)
            stored.setdefault(name, set()).add(k)
    perm = [i for i in perm if i < n]
    late = early_stores(fn, [order[i] for i in perm], owner, stored)
    for target, more in late["stores"].items():
        stores.setdefault(target, []).extend(more)
    return {"statements": _commented(statements, perm), "stores": stores, "stored": late["stored"]}


def _printed(rec) -> list:
    """The printed outputs of a :func:`print_function` record, flat."""
    return [o["expr"] for r in rec["results"] for o in r["outputs"]]


def _flat_outputs(fn: Function):
    """(result name, flat index) of each output entry, in order."""
    return [(name, k) for name, shape in fn.results for k in range(size(shape))]


def _commented(statements, perm) -> list:
    """``statements`` in the order ``perm``, with a comment where a new quantity starts,
    as in their own order: each statement's quantity is the last comment at or before it."""
    note, notes = None, []
    for st in statements:
        note = st["comment"] or note
        notes.append(note)
    out, last = [], None
    for i in perm:
        out.append({**statements[i], "comment": notes[i] if notes[i] != last else None})
        last = notes[i]
    return out


def vector_and_sincos(fn: Function, printer, rec) -> dict:
    """The batch C's extras: :func:`vector_body` and the scalar C's (:func:`scalar_c`)."""
    return {**vector_body(fn, printer), **scalar_c(fn, printer, rec)}
