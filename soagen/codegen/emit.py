"""From unrolled programs to files: the one emitter of robots and closed-chain systems.

:func:`emit` takes

* the unrolled functions, each a :class:`Function` (name, inputs, output name and its
  concrete shape, summary, equations, the straight-line :class:`~soagen.codegen.unroll.Program`
  with its operation counts);
* a :class:`Header` that describes the model for the generated files' fixed header and
  the manifest (prefix, model name and kind, source file and hash, NQ/NV, joint rows,
  conventions, references, the regenerate command, symbolic parameters);
* the names of the languages, each a :class:`~soagen.codegen.languages.Language` in
  :data:`~soagen.codegen.languages.LANGUAGES`: a printer class and a list of (template,
  output file) pairs.

It prints every expression in Python (the templates of ``templates/<language>/`` only loop
and substitute) and returns the files and the manifest as an :class:`Emitted`; nothing is
written until :func:`write`. The robot front end is :mod:`soagen.codegen.robot`, the
closed-chain one :mod:`soagen.codegen.closed_chain`.

Adding a backend is adding a printer, its templates and one
:data:`~soagen.codegen.languages.LANGUAGES` entry. A template receives the header's
fields, ``functions`` (one record per function, :mod:`soagen.codegen.records`) and
``language``. A language that needs more per function than the printed statements (a
batch variant, the C's statement order) computes it in its ``extras`` hook, whose
entries are added to each printed record."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from soagen import output_dir
from soagen.codegen.graph.expr import deep, gc_paused
from soagen.codegen.languages import LANGUAGES
from soagen.codegen.records import describe, manifest_record, print_function
from soagen.errors import SoagenError


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


def emit(functions, header: Header, langs) -> Emitted:
    """Print ``functions`` in each language of ``langs`` (names in :data:`LANGUAGES`);
    return the files (the manifest ``PREFIX_manifest.json`` among them) as text. Printing
    walks every node once more, so it runs like unrolling: on a deep stack with the cyclic
    garbage collector paused (:func:`~soagen.codegen.graph.expr.deep`, ``gc_paused``)."""
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
