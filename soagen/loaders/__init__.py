"""Robot files to validated models: YAML (our format, docs/robot-format.md) and URDF.

Both parsers produce a :class:`~soagen.loaders.description.Description` (links and
joints as written in the file); :func:`~soagen.loaders.description.build` validates it
and turns it into an immutable :class:`~soagen.model.Robot`.
"""

from __future__ import annotations

from pathlib import Path

from soagen.errors import RobotFileError
from soagen.model import Robot


def load(path, tip: str | None = None, floating_base: bool = False) -> Robot:
    """Load a robot file (``.yaml``/``.yml`` or ``.urdf``) into a validated model.

    ``tip`` names the link whose frame is the tool/tip frame O(0) when the file gives none
    (URDF); by default a serial chain's last link. ``floating_base=True`` puts a free
    (6-dof) joint between the world and the file's root link (Part I Appendix B: the
    mobile base), as Pinocchio's ``JointModelFreeFlyer`` root does."""
    from soagen.loaders.description import build, with_floating_base

    path = Path(path)
    if not path.is_file():
        raise RobotFileError(path, "file", "no such file")
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        from soagen.loaders.yaml_format import parse
    elif suffix == ".urdf":
        from soagen.loaders.urdf import parse
    else:
        raise RobotFileError(path, "file", f"unknown robot file type {suffix!r} (expected .yaml, .yml or .urdf)")
    d = parse(path)
    return build(with_floating_base(d) if floating_base else d, tip=tip)
