"""Output folders of the commands that write files (``--out``): checked before any work
(:func:`check`), created only when the files are written (:func:`create`), so a bad
``--out`` costs nothing, gives one line, and leaves nothing behind."""

from __future__ import annotations

import os
from pathlib import Path

from soagen.errors import SoagenError


def _writable(d: Path) -> str | None:
    """None if a new entry can be made in the directory ``d``, else why not. Probed by
    making and removing a temporary directory: permission bits do not tell (root may write
    anywhere by them, yet /proc and /sys take no new files; a read-only mount)."""
    import tempfile

    if not os.access(d, os.W_OK | os.X_OK):
        return "not writable"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".soagen-probe-", dir=d))
    except OSError as err:
        return f"no new files can be made there: {err.strerror or err}"
    return None


def check(path, option="--out") -> Path:
    """``path`` is a writable directory, or one that can be created (its first existing
    ancestor is a directory that takes new entries); otherwise a SoagenError. Leaves
    nothing behind."""
    out = Path(path)
    if out.exists():
        if not out.is_dir():
            raise SoagenError(f"{option} {out}: not a directory")
        why = _writable(out)
        if why:
            raise SoagenError(f"{option} {out}: not a writable directory ({why})")
        return out
    ancestor = out.absolute().parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise SoagenError(f"{option} {out}: cannot create directory ({ancestor} is a file)")
    why = _writable(ancestor)
    if why:
        raise SoagenError(f"{option} {out}: cannot create directory ({ancestor}: {why})")
    return out


def create(path, option="--out") -> Path:
    """Check ``path`` as :func:`check` does, then create it (with its parents)."""
    out = check(path, option)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SoagenError(f"{option} {out}: cannot create directory ({err.strerror or err})") from None
    return out
