"""Compiled generated code kept between runs (``soagen simulate --backend generated``):
unrolling a model takes seconds to a minute, so the C and its shared library are kept in
a cache folder named by a hash of everything they depend on: the input files' bytes, the
options, and soagen's own sources and templates (a changed soagen never reuses old code).

The folder is ``$SOAGEN_CACHE`` or ``~/.cache/soagen``; an entry is written in a scratch
folder next to it and renamed into place when complete, so an interrupted build leaves no
half entry."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from soagen.codegen.compile import CLibrary, compile_shared
from soagen.codegen.emit import template_dir, write

FLAGS = ("-O2",)


def cache_root() -> Path:
    return Path(os.environ.get("SOAGEN_CACHE") or Path.home() / ".cache" / "soagen")


def _soagen_digest() -> str:
    """SHA-256 of soagen's Python sources and templates (what the generated code depends on)."""
    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parents[1]
    for root in (pkg, template_dir()):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".j2") and path.is_file():
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def key(files, options) -> str:
    """The cache key of code generated from ``files`` (paths) with ``options`` (JSON-able)."""
    h = hashlib.sha256(_soagen_digest().encode())
    for f in files:
        h.update(Path(f).read_bytes())
    h.update(json.dumps(options, sort_keys=True, default=str).encode())
    return h.hexdigest()[:24]


def compiled(name, files, options, render, flags=FLAGS, announce=None) -> CLibrary:
    """The compiled library of the code ``render()`` emits (an Emitted with C), from the
    cache when there, else generated (``announce()`` called first), compiled and stored."""
    root = cache_root()
    entry = root / f"{name}-{key(files, {**options, 'flags': list(flags)})}"
    if not entry.is_dir():              # complete when there: renamed into place
        if announce:
            announce()
        result = render()
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=root))
        try:
            write(result, tmp)
            compile_shared(tmp / f"{result.manifest['prefix']}.c", tmp, flags)
            try:
                tmp.rename(entry)
            except OSError:             # another process stored the same entry meanwhile
                shutil.rmtree(tmp, ignore_errors=True)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    (manifest_path,) = entry.glob("*_manifest.json")
    manifest = json.loads(manifest_path.read_text())
    return CLibrary(entry / f"lib{manifest['prefix']}.so", manifest)


def from_folder(folder, flags=FLAGS, build_dir=None, source=None) -> CLibrary:
    """Generated C in ``folder`` (from ``soagen generate --out folder``) compiled into
    ``build_dir`` (a scratch folder when None); with ``source`` (the model file), refused
    before compiling unless the manifest names that file's SHA-256."""
    from soagen.codegen.emit import file_digest
    from soagen.errors import SoagenError

    folder = Path(folder)
    manifests = sorted(folder.glob("*_manifest.json"))
    if len(manifests) != 1:
        raise SoagenError(f"--code {folder}: expected one PREFIX_manifest.json of `soagen generate`, "
                          f"found {len(manifests)}")
    manifest = json.loads(manifests[0].read_text())
    if source is not None and manifest.get("input_sha256") != file_digest(source):
        raise SoagenError(f"--code {folder}: generated from another version of {source} "
                          "(input_sha256 differs); regenerate it")
    build = Path(build_dir or tempfile.mkdtemp(prefix="soagen-code-"))
    return CLibrary(compile_shared(folder / f"{manifest['prefix']}.c", build, flags), manifest)
