"""From unrolled programs to files: the one emitter of robots and closed-chain systems.

:func:`emit` takes

* the unrolled functions, each a :class:`Function` (name, inputs, output name and its
  concrete shape, summary, equations, the straight-line :class:`~soagen.codegen.unroll.Program`
  with its operation counts);
* a :class:`Header` that describes the model for the generated files' fixed header and
  the manifest (prefix, model name and kind, source file and hash, NQ/NV, joint rows,
  conventions, references, the regenerate command, symbolic parameters);
* the names of the languages, each a :class:`Language` in :data:`LANGUAGES`: a printer
  class (:mod:`soagen.codegen.printers`) and a list of (template, output file) pairs.

It prints every expression in Python (the templates of ``templates/<language>/`` only loop
and substitute) and returns the files and the manifest as an :class:`Emitted`; nothing is
written until :func:`write`. The robot front end is :mod:`soagen.codegen.robot`, the
closed-chain one :mod:`soagen.codegen.closed_chain`.

Adding a backend is adding a printer, its templates and one :data:`LANGUAGES` entry. A
template receives the header's fields, ``functions`` (one record per function, see
:func:`print_function` and :func:`describe`) and ``language`` (the :class:`Language`). A language that needs more per function than the
printed statements (a batch variant, another printer's text) computes it in its
``extras`` hook, whose entries are added to each printed record."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable

from soagen import output_dir
from soagen.codegen import expr as E
from soagen.codegen.expr import deep, gc_paused
from soagen.codegen.lanes import lane_body
from soagen.codegen.pressure import fewest_live
from soagen.codegen.printers import (
    CasadiPrinter,
    CVectorPrinter,
    JaxPrinter,
    NumpyPrinter,
    PyPrinter,
    ScheduledCPrinter,
    TorchPrinter,
    is_input,
)
from soagen.codegen.unroll import Program
from soagen.errors import SoagenError


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


@dataclass(frozen=True)
class Header:
    """What the generated files' fixed header and the manifest say about the model."""

    prefix: str            # file and C symbol prefix (a C identifier)
    model: str             # robot or system name
    kind: str              # "robot" or "system": the input file's kind
    source: str            # input file name (or the model name when there is none)
    sha256: str            # of the input file's bytes
    nq: int
    nv: int
    joints: tuple          # one row per joint: "index  name (type, axis) -> body"
    conventions: tuple     # lines: what the inputs and outputs mean
    references: tuple      # lines: the papers whose equation numbers the comments cite
    command: str           # how to regenerate these files
    tip: str | None = None
    params: tuple = ()     # symbolic link parameters params[k], in order; () = baked in
    manifest: dict = field(default_factory=dict)   # further manifest entries of this kind


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


def vector_body(fn: Function, printer) -> dict:
    """The batch kernels' extra: the function printed on vectors of W states
    (:class:`~soagen.codegen.printers.CVectorPrinter`) as ``vector``, with its
    ``sincos``: per angle (an argument reading inputs only) its printed ``arg`` and the
    targets ``s`` and ``c`` of its sin and cos statements (a placeholder name for one that
    the function does not use), which the template computes with one
    ``soagen_vsincos_deferred`` call per angle (the lanes beyond the polynomial's range
    tested once for all of them) and skips (``targets``); None when there is none. The
    statements and stores are in the order of :func:`pressure_order`, as in the scalar C."""
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
    for st in fn.program.statements:
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


def program_order(fn: Function) -> list:
    """(target, the targets it reads) of each statement of ``fn``'s program, in order."""
    return [(st.target.name, [s.name for s in st.expr.free_symbols]) for st in fn.program.statements]


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
    time (:func:`soagen.codegen.lanes.lane_body`, which prints the statements and outputs
    again in its order), and all in the order of :func:`pressure_order`."""
    sincos = gathered_sincos(fn, printer)
    first = sincos["sincos"]["targets"] if sincos["sincos"] else set()
    lanes = lane_body(fn, printer, comment)
    if not lanes:
        return {**sincos, **pressure_order(fn, rec["statements"], program_order(fn), _printed(rec), first)}
    printed = lanes.pop("outputs")
    out = pressure_order(fn, lanes.pop("statements"), lanes.pop("order"), printed, first,
                         lanes.pop("owner"), lanes["stores"], lanes["stored"])
    return {**sincos, **out, "results": results(fn, printed)}


def pressure_order(fn: Function, statements, order, printed, first=(), owner=None, stores=None, stored=None) -> dict:
    """The printed ``statements`` (with ``order``: target, the targets it reads, for each)
    in the order of :func:`soagen.codegen.pressure.fewest_live`, those whose targets are
    in ``first`` (computed before the others) ahead; each output that is an expression
    (``printed``: every output's text, flat) stored right after the statement before it
    in that order, each that is a temporary by :func:`early_stores`. ``owner``, ``stores``
    and ``stored``: lanes of vectors, and the vector stores already made (as in
    :func:`early_stores`). Returns ``statements``, ``stores`` and ``stored``."""
    owner, stores = owner or {}, stores if stores is not None else {}
    stored = {name: set(ks) for name, ks in (stored or {}).items()}
    n, order, writes = len(order), list(order), {}
    for j, ((name, k), e) in enumerate(zip(_flat_outputs(fn), fn.program.outputs)):
        reads = [owner[s.name][0] if s.name in owner else s.name for s in e.free_symbols]
        if not e.is_Symbol and reads and k not in stored.get(name, ()):
            writes[len(order)] = (name, k, f"{name}[{k}] = {printed[j]}")
            order.append((None, reads))
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
    return [(name, k) for name, shape in fn.results for k in range(_size(shape))]


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

@dataclass
class Emitted:
    files: dict            # file name -> text, the manifest included
    functions: list        # the Function records, in order
    manifest: dict
    header: Header | None = None


def template_dir() -> Path:
    """The templates: inside the installed package (wheel), else the repository's."""
    pkg = resources.files("soagen") / "templates"
    if pkg.is_dir():
        return Path(str(pkg))
    repo = Path(__file__).resolve().parents[2] / "templates"
    if repo.is_dir():
        return repo
    raise SoagenError("soagen templates not found (neither in the package nor the repository)")


def environment():
    """The Jinja environment of ``templates/`` (strict: an undefined name is an error)."""
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(template_dir())),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True,
                              autoescape=False)


def validate_prefix(prefix):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prefix or ""):
        raise SoagenError(f"--name {prefix!r}: must be a C identifier (letters, digits, _)")
    return prefix


def default_prefix(name):
    """A C identifier made from a model name."""
    p = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return p if re.match(r"[A-Za-z_]", p) else f"robot_{p}"


def file_digest(path) -> str:
    """SHA-256 of the input file (of nothing when there is no file)."""
    return hashlib.sha256(Path(path).read_bytes() if path else b"").hexdigest()


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
    c = prog.counts
    return {
        "name": fn.name, "summary": fn.summary, "equations": fn.equations, "variant": fn.variant,
        "inputs": list(fn.inputs), "output": fn.output, "shape": list(fn.shape),
        "shape_text": results[0]["shape_text"],
        "counts_text": f"{c['mul']} mul, {c['add']} add, {c['div']} div, {c['trig']} sin/cos, "
                       f"{c['sqrt']} sqrt; {prog.temporaries} temporaries",
        "results": results,
    }


def print_function(fn: Function, printer) -> dict:
    """:func:`describe` with the code printed by ``printer``: ``statements`` (comment,
    target, expr; a comment where a new quantity starts), and per result ``outputs`` (flat
    index, row-major index, expr)."""
    prog, rec = fn.program, describe(fn)
    body, last = [], None
    printer.start_function()
    for st in prog.statements:
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
        size = _size(shape)
        res["outputs"] = [{"flat": k, "index": list((k,) if len(shape) == 1 else divmod(k, shape[1])),
                           "expr": text} for k, text in enumerate(printed[start:start + size])]
        start += size
    return out


def _size(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def output_shapes(record) -> list:
    """The shape of every output of a manifest record (see :func:`manifest_record`)."""
    return [record["shape"]] + [shape for _, shape in record.get("more_outputs", [])]


def output_sizes(record) -> list:
    """Entries of each output of a manifest record."""
    return [_size(shape) for shape in output_shapes(record)]


def output_offsets(record) -> list:
    """Where each output starts when all are laid out one after the other."""
    sizes = output_sizes(record)
    return [sum(sizes[:k]) for k in range(len(sizes))]


def manifest_record(fn: Function) -> dict:
    more = {"more_outputs": [[n, list(sh)] for n, sh in fn.more_outputs]} if fn.more_outputs else {}
    return {"inputs": list(fn.inputs), "output": fn.output, "shape": list(fn.shape), **more,
            "equations": fn.equations, "ops": fn.counts,
            "cse_temporaries": fn.program.temporaries, **fn.manifest}


def emit(functions, header: Header, langs) -> Emitted:
    """Print ``functions`` in each language of ``langs`` (names in :data:`LANGUAGES`);
    return the files (the manifest ``PREFIX_manifest.json`` among them) as text. Printing
    walks every node once more, so it runs like unrolling: on a deep stack with the cyclic
    garbage collector paused (:func:`~soagen.codegen.expr.deep`, ``gc_paused``)."""
    with gc_paused():
        return deep(_emit, functions, header, langs)


def _emit(functions, header, langs):
    from soagen import __version__

    unknown = [name for name in langs if name not in LANGUAGES]
    if unknown:
        raise SoagenError(f"unknown language {unknown[0]!r} (choose from {', '.join(LANGUAGES)})")
    env, files = environment(), {}
    common = {**asdict(header), "symbolic_params": bool(header.params), "nparams": len(header.params)}
    for lang in (LANGUAGES[name] for name in langs):
        printer = lang.printer() if lang.printer else None
        records = []
        for fn in functions:
            rec = print_function(fn, printer) if printer else describe(fn)
            rec["sizes"] = list(fn.input_sizes(header))
            if lang.extras:
                rec.update(lang.extras(fn, printer, rec))
            records.append(rec)
        for template, pattern in lang.templates:
            name = pattern.format(prefix=header.prefix)
            if name in files:
                raise SoagenError(f"languages {', '.join(langs)}: more than one writes {name}")
            files[name] = env.get_template(template).render(**common, functions=records, language=lang,
                                                            template=template)
    manifest = {
        "generator": "soagen", "soagen_version": __version__,
        header.kind: header.model, "input_file": header.source, "input_sha256": header.sha256,
        "prefix": header.prefix, "nq": header.nq, "nv": header.nv, **header.manifest,
        "files": sorted(files), "functions": {fn.name: manifest_record(fn) for fn in functions},
    }
    files[f"{header.prefix}_manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return Emitted(files, list(functions), manifest, header)


def write(result: Emitted, out_dir) -> list:
    """Write the emitted files into ``out_dir`` (created if needed); a clear error and
    nothing written when the directory cannot be created or written."""
    out = output_dir.create(out_dir)
    for name in result.files:
        if (out / name).is_dir():
            raise SoagenError(f"--out {out}: {name} exists and is a directory")
    paths = []
    for name, text in result.files.items():
        p = out / name
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        paths.append(p)
    return paths
