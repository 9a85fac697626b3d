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
         lock=(), armature: dict | None = None, passive: bool | None = None, xacro_args=None) -> Robot:
    """Load a robot file into a validated model.

    ``path``: a ``.yaml``/``.yml``, ``.urdf``, ``.xacro`` (``.urdf.xacro``) or MJCF
    ``.xml`` file, or the name of a bundled robot. ``tip`` names the link whose frame is
    the tool/tip frame O(0) when the file gives none; by default a serial chain's last
    link. ``floating_base=True`` puts a free (6-dof) joint between the world and the
    file's root link (Part I Appendix B: the mobile base), as Pinocchio's
    ``JointModelFreeFlyer`` root does. ``lock``: joints to make fixed, each ``NAME`` or
    ``NAME=VALUE`` (NAME may be a pattern such as ``'*Finger*'``; default value: the
    neutral position), merged like the file's fixed joints. ``xacro_args``: {NAME: VALUE}
    for a xacro file's ``<xacro:arg>`` (``xacro FILE NAME:=VALUE``). Dubious but finite
    data (an inertia violating the triangle inequality, an unknown URDF element) gives a
    :class:`~soagen.errors.RobotFileWarning`; ``strict=True`` refuses it instead.

    ``armature``: rotor inertias {joint name: J_m} (a number, or one per dof of the joint),
    replacing the file's: they enter D(k) = H P H^T + J_m and the mass matrix's diagonal.
    ``passive``: whether the file's passive joint forces (damping, springs) enter the
    model; by default yes for MJCF and YAML files, and no for URDF, whose ``<dynamics
    damping>`` is a simulator hint that Pinocchio's dynamics ignore (docs/robot-format.md,
    "Passive forces and armature")."""
    from soagen.loaders.bundled import resolve
    from soagen.loaders.description import (
        build,
        lock_joints,
        with_armature,
        with_floating_base,
        without_passive,
    )
    from soagen.loaders.xacro import XacroArgs

    path = resolve(path)
    args = XacroArgs(xacro_args or {})
    d = parse(path, passive=passive, xacro_args=args)
    if args and not args.used:
        raise RobotFileError(path, "file", f"xacro arguments ({', '.join(args)}) for a file that xacro does not "
                             "expand")
    if passive is False:
        d = without_passive(d)
    if isinstance(lock, str):
        lock = [lock]
    if lock:
        d = lock_joints(d, lock)
    if floating_base:
        d = with_floating_base(d)
    if armature:
        d = with_armature(d, armature)
    return build(d, tip=tip, strict=strict)


def parse(path: Path, passive: bool | None = None, xacro_args=None):
    """The description of a robot file, by its suffix (an overlay YAML reads its base
    file with this function too, with the same ``passive`` and ``xacro_args``);
    ``passive=True`` reads a URDF's ``<dynamics damping>``."""
    from functools import partial

    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        from soagen.loaders import yaml_format

        return yaml_format.parse(path, parse_base=partial(parse, passive=passive, xacro_args=xacro_args))
    if suffix == ".xacro":
        from soagen.loaders import urdf
        from soagen.loaders.xacro import expand

        return urdf.parse(path, expand(path, xacro_args), passive=bool(passive))
    if suffix == ".urdf" or (suffix == ".xml" and _root_tag(path) != "mujoco"):   # a URDF saved as .xml
        from soagen.loaders import urdf

        return urdf.parse(path, passive=bool(passive), xacro_args=xacro_args)
    if suffix == ".xml":                    # MJCF (<mujoco>)
        from soagen.loaders import mjcf

        return mjcf.parse(path)
    raise RobotFileError(path, "file", f"unknown robot file type {suffix!r} "
                         f"(expected {', '.join(SUFFIXES)})")


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
