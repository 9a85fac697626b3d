"""What the templates and the manifest know of a generated function.

:class:`Function` is one unrolled function as a front end hands it to the emitter;
:func:`describe` and :func:`print_function` make the record a template loops over (the
printed statements and outputs), :func:`manifest_record` its manifest entry, and
:func:`output_shapes` / :func:`output_sizes` / :func:`output_offsets` read the outputs'
layout back from such an entry (the compiled-code loaders and benchmarks do)."""

from __future__ import annotations

from dataclasses import dataclass, field

from soagen.codegen.unroll import Call, Program, loop_counts


@dataclass(frozen=True)
class Function:
    """One unrolled function: ``name(inputs..., output)``; ``output`` is ``shape``
    (row-major, flat in ``program.outputs``). ``variant`` names the derivation chosen
    among equivalent ones (shown in the code), ``manifest`` holds further entries for
    this function's manifest record."""

    name: str
    inputs: tuple          # input vector names (q: NQ entries, the others NV, or as documented)
    output: str
    shape: tuple           # concrete output shape, e.g. (6,) or (7, 7)
    summary: str
    equations: str
    program: Program
    variant: str | None = None
    manifest: dict = field(default_factory=dict)
    more_outputs: tuple = ()   # further (name, shape) outputs; their entries follow in program.outputs
    sizes: tuple = ()      # length of each input; () = q: NQ, params: NPARAMS, others: NV

    @property
    def counts(self) -> dict:
        return self.program.counts

    @property
    def results(self) -> tuple:
        """Every output as (name, shape), in the order of the signature and of
        ``program.outputs``."""
        return ((self.output, self.shape),) + tuple(self.more_outputs)

    def input_sizes(self, header) -> tuple:
        """The length of each input vector (``sizes``, or the default rule)."""
        if self.sizes:
            return tuple(self.sizes)
        default = {"q": header.nq, "params": len(header.params)}
        return tuple(default.get(a, header.nv) for a in self.inputs)


def comment(st) -> str:
    """A statement's comment: what its quantity is (the note given where it was named),
    after the quantity's label when the label is indexed (``V3: spatial velocity ...``)."""
    note = st.note or st.label
    return f"{st.label}: {note}" if st.label and not st.label.isalpha() else note


def describe(fn: Function) -> dict:
    """The record of one function as the templates see it, without printed code: the
    Function's fields, ``results`` (name, shape, ``shape_text`` of each output),
    ``counts_text``, ``shape_text``."""
    prog = fn.program
    results = [{"name": name, "shape": list(shape), "shape_text": " x ".join(str(s) for s in shape)}
               for name, shape in fn.results]
    c, loops = prog.counts, loop_counts(prog)
    looped = f"; loops {loops['mul']} mul, {loops['add']} add, {loops['div']} div" if any(loops.values()) else ""
    return {
        "name": fn.name, "summary": fn.summary, "equations": fn.equations, "variant": fn.variant,
        "inputs": list(fn.inputs), "output": fn.output, "shape": list(fn.shape),
        "shape_text": results[0]["shape_text"],
        "counts_text": f"{c['mul']} mul, {c['add']} add, {c['div']} div, {c['trig']} sin/cos, "
                       f"{c['sqrt']} sqrt; {prog.temporaries} temporaries{looped}",
        "results": results, "loops": sorted({st.routine for st in prog.statements if isinstance(st, Call)}),
    }


def print_function(fn: Function, printer) -> dict:
    """:func:`describe` with the code printed by ``printer``: ``statements`` (comment,
    target, expr; a comment where a new quantity starts), and per result ``outputs`` (flat
    index, row-major index, expr)."""
    prog, rec = fn.program, describe(fn)
    body, last = [], None
    printer.start_function()
    for st in prog.statements:
        if isinstance(st, Call):                # a loop of the looped style: its lines
            body.append({"kind": "call", "comment": st.note, "target": st.workspace, "lines": printer.call(st)})
            last = (st.label, st.note)
            continue
        body.append({"comment": comment(st) if (st.label, st.note) != last else None,
                     "target": st.target.name, "expr": printer.statement(st.target.name, st.expr)})
        last = (st.label, st.note)
    rec["results"] = results(fn, [printer.doprint(e) for e in prog.outputs])
    rec["statements"] = body
    return rec


def results(fn: Function, printed) -> list:
    """The ``results`` records of :func:`describe` with their ``outputs`` (flat index,
    row-major index, expr), from the printed outputs of ``fn`` (flat, in order)."""
    out, start = describe(fn)["results"], 0
    for res, (_, shape) in zip(out, fn.results):
        n = size(shape)
        res["outputs"] = [{"flat": k, "index": list((k,) if len(shape) == 1 else divmod(k, shape[1])),
                           "expr": text} for k, text in enumerate(printed[start:start + n])]
        start += n
    return out


def size(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def output_shapes(record) -> list:
    """The shape of every output of a manifest record (see :func:`manifest_record`)."""
    return [record["shape"]] + [shape for _, shape in record.get("more_outputs", [])]


def output_sizes(record) -> list:
    """Entries of each output of a manifest record."""
    return [size(shape) for shape in output_shapes(record)]


def output_offsets(record) -> list:
    """Where each output starts when all are laid out one after the other."""
    sizes = output_sizes(record)
    return [sum(sizes[:k]) for k in range(len(sizes))]


def manifest_record(fn: Function) -> dict:
    more = {"more_outputs": [[n, list(sh)] for n, sh in fn.more_outputs]} if fn.more_outputs else {}
    return {"inputs": list(fn.inputs), "output": fn.output, "shape": list(fn.shape), **more,
            "equations": fn.equations, "ops": fn.counts,
            "cse_temporaries": fn.program.temporaries, **fn.manifest}
