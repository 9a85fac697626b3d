"""Output folders of the commands that write files (``--out``): checked before any work
(:func:`check`), created only when the files are written (:func:`create`), so a bad
``--out`` costs nothing, gives one line, and leaves nothing behind."""

from __future__ import annotations

import os
from pathlib import Path

from soagen.errors import SoagenError


def _writable(d: Path) -> bool:
    return os.access(d, os.W_OK | os.X_OK)


def check(path, option="--out") -> Path:
    """``path`` is a writable directory, or one that can be created (its first existing
    ancestor is a writable directory); otherwise a SoagenError. Creates nothing."""
    out = Path(path)
    if out.exists():
        if not out.is_dir() or not _writable(out):
            raise SoagenError(f"{option} {out}: not a writable directory")
        return out
    ancestor = out.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise SoagenError(f"{option} {out}: cannot create directory ({ancestor} is a file)")
    if not _writable(ancestor):
        raise SoagenError(f"{option} {out}: cannot create directory ({ancestor} is not writable)")
    return out


def create(path, option="--out") -> Path:
    """Check ``path`` as :func:`check` does, then create it (with its parents)."""
    out = check(path, option)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SoagenError(f"{option} {out}: cannot create directory ({err.strerror or err})") from None
    return out
