"""Robot files to validated models: YAML (our format, docs/robot-format.md), URDF
(also as xacro), and MJCF (MuJoCo's format, read through MuJoCo's own compiler).

Each parser produces a :class:`~soagen.loaders.description.Description` (links and
joints as written in the file); :func:`~soagen.loaders.description.build` validates it
and turns it into an immutable :class:`~soagen.model.Robot`. A robot bundled with soagen
(``soagen.loaders.bundled.names()``) can be named without a path: ``load("puma560")``.
"""

from __future__ import annotations

from pathlib import Path

from soagen.errors import RobotFileError
from soagen.model import Robot

SUFFIXES = (".yaml", ".yml", ".urdf", ".xacro", ".xml")


def load(path, tip: str | None = None, floating_base: bool = False, strict: bool = False,
         lock=()) -> Robot:
    """Load a robot file into a validated model.

    ``path``: a ``.yaml``/``.yml``, ``.urdf``, ``.xacro`` (``.urdf.xacro``) or MJCF
    ``.xml`` file, or the name of a bundled robot. ``tip`` names the link whose frame is
    the tool/tip frame O(0) when the file gives none; by default a serial chain's last
    link. ``floating_base=True`` puts a free (6-dof) joint between the world and the
    file's root link (Part I Appendix B: the mobile base), as Pinocchio's
    ``JointModelFreeFlyer`` root does. ``lock``: joints to make fixed, each ``NAME`` or
    ``NAME=VALUE`` (NAME may be a pattern such as ``'*Finger*'``; default value: the
    neutral position), merged like the file's fixed joints. Dubious but finite data (an
    inertia violating the triangle inequality) gives a
    :class:`~soagen.errors.RobotFileWarning`; ``strict=True`` refuses it instead."""
    from soagen.loaders.bundled import resolve
    from soagen.loaders.description import build, lock_joints, with_floating_base

    path = resolve(path)
    d = parse(path)
    if isinstance(lock, str):
        lock = [lock]
    if lock:
        d = lock_joints(d, lock)
    if floating_base:
        d = with_floating_base(d)
    return build(d, tip=tip, strict=strict)


def parse(path: Path):
    """The description of a robot file, by its suffix."""
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        from soagen.loaders.yaml_format import parse
    elif suffix == ".urdf":
        from soagen.loaders.urdf import parse
    elif suffix == ".xacro":
        from soagen.loaders import urdf
        from soagen.loaders.xacro import expand

        return urdf.parse(path, expand(path))
    elif suffix == ".xml":                  # MJCF (<mujoco>), or a URDF saved as .xml (<robot>)
        from soagen.loaders.urdf import parse
        if _root_tag(path) == "mujoco":
            from soagen.loaders.mjcf import parse
    else:
        raise RobotFileError(path, "file", f"unknown robot file type {suffix!r} "
                             f"(expected {', '.join(SUFFIXES)})")
    return parse(path)


def _root_tag(path):
    """The root element's tag of an XML file, read up to its start (None if that is not
    well-formed XML); whitespace before the XML declaration is skipped, as the parsers do."""
    import io
    import xml.etree.ElementTree as ET

    try:
        for _, element in ET.iterparse(io.BytesIO(Path(path).read_bytes().lstrip()), events=("start",)):
            return element.tag
    except (ET.ParseError, OSError):
        return None
