"""xacro files (ROS's XML macro language for URDF): expanded by the ``xacro`` package,
an optional dependency (``pip install soagen[xacro]``), then read as URDF.

Without the package the file is refused with a one-line error saying how to expand it.
ROS-only substitutions (``$(find pkg)``, ``package://`` includes) need a ROS workspace
and fail with xacro's own message, on one line.
"""

from __future__ import annotations

import contextlib
import io

from soagen.errors import RobotFileError


class XacroArgs(dict):
    """{NAME: VALUE} of a xacro file's arguments; ``used`` turns True when xacro expands
    a file with them (:func:`expand`), so that :func:`soagen.loaders.load` refuses
    arguments given for a file that is not xacro instead of ignoring them."""

    used = False


def expand(path, args=None) -> str:
    """The URDF text that ``xacro FILE NAME:=VALUE ...`` prints, ``args`` = {NAME: VALUE}."""
    try:
        import xacro
    except ImportError:
        raise RobotFileError(path, "file", "a xacro file: expand it first (xacro FILE > robot.urdf), "
                             "or install the xacro package (pip install soagen[xacro])") from None
    with contextlib.redirect_stderr(io.StringIO()):          # xacro prints its own warnings
        try:
            doc = xacro.process_file(str(path), mappings=dict(args or {}))
        except Exception as err:   # xacro evaluates ${...} as Python: any exception is the file's
            text = " ".join(str(err).split()) or type(err).__name__
            raise RobotFileError(path, "xacro", f"expansion failed: {text[:300]}") from None
    if isinstance(args, XacroArgs):
        args.used = True
    return doc.toxml()
