"""Typed field readers shared by the robot-file parsers: every malformed value becomes a
one-line :class:`~soagen.errors.RobotFileError` naming the element.

YAML values must have the right YAML type (a mass written as the string "1.0" is an
error, not a number); XML attributes are text and are read with the ``text_`` readers.
Every number must be finite and, except joint axes (directions, scaled before use),
within :data:`~soagen.tolerances.MAX_MAGNITUDE`.
"""

from __future__ import annotations

import math

import numpy as np

from soagen.errors import RobotFileError
from soagen.spatial import rpy_rotation
from soagen.tolerances import MAX_MAGNITUDE, ROTATION_ORTHONORMAL

INERTIA_KEYS = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")


def number(path, where, value, positive=False, bounded=True):
    """A YAML number (int or float, not a string or a boolean)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        quoted = " (a string: remove the quotes)" if isinstance(value, str) and _is_number(value) else ""
        raise RobotFileError(path, where, f"expected a number, got {_show(value)}{quoted}")
    return _checked(path, where, value, positive, bounded)


def text_number(path, where, text, positive=False, bounded=True):
    """A number written as text (an XML attribute)."""
    try:
        value = float(text.strip())
    except (AttributeError, ValueError):
        raise RobotFileError(path, where, f"expected a number, got {_show(text)}") from None
    return _checked(path, where, value, positive, bounded)


def _checked(path, where, value, positive, bounded):
    try:
        value = float(value)
    except OverflowError:
        raise RobotFileError(path, where, f"number too large for double precision (about 10^"
                             f"{int(abs(value).bit_length() * math.log10(2))})") from None
    if not math.isfinite(value):
        raise RobotFileError(path, where, f"expected a finite number, got {value!r}")
    if bounded and abs(value) > MAX_MAGNITUDE:
        raise RobotFileError(path, where, f"{value:g} is larger than soagen accepts ({MAX_MAGNITUDE:g} "
                             "in magnitude): the dynamics multiply such numbers and would overflow")
    if positive and value <= 0:
        raise RobotFileError(path, where, f"must be positive, got {value:g}")
    return value


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _show(value, limit=40):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def vector(path, where, value, n=3, bounded=True):
    """A YAML list of n numbers."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise RobotFileError(path, where, f"expected {n} numbers, got {_show(value)}")
    return np.array([number(path, where, x, bounded=bounded) for x in value])


def text_vector(path, where, text, n=3, bounded=True):
    """n numbers written as text separated by spaces (an XML attribute)."""
    parts = text.split()
    if len(parts) != n:
        raise RobotFileError(path, where, f"expected {n} numbers, got {_show(text)}")
    return np.array([text_number(path, where, x, bounded=bounded) for x in parts])


def rotation(path, where, value):
    """A 3x3 rotation matrix given as nested lists; must be orthonormal, det +1."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RobotFileError(path, where, "rotation must be 3 rows of 3 numbers")
    R = np.array([vector(path, where, row) for row in value])
    if not np.allclose(R @ R.T, np.eye(3), atol=ROTATION_ORTHONORMAL) or np.linalg.det(R) < 0:
        raise RobotFileError(path, where, "rotation is not orthonormal with determinant +1")
    return R


def rpy(path, where, value):
    return rpy_rotation(vector(path, where, value))


def inertia_matrix(path, where, ixx, iyy, izz, ixy, ixz, iyz, read=number):
    """The symmetric inertia matrix from its six entries (``read``: :func:`number` for
    YAML values, :func:`text_number` for XML attributes)."""
    xx, yy, zz, xy, xz, yz = (read(path, f"{where}.{k}", v) for k, v in
                              zip(INERTIA_KEYS, (ixx, iyy, izz, ixy, ixz, iyz)))
    return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def keys(path, where, d, allowed, required=()):
    """A mapping with only ``allowed`` keys and all ``required`` ones (strict formats:
    a typo must not silently drop a parameter)."""
    if not isinstance(d, dict):
        raise RobotFileError(path, where, f"expected a mapping, got {_show(d)}")
    for k in d:
        if k not in allowed:
            raise RobotFileError(path, where, f"unknown key {_show(k)} (allowed: {', '.join(sorted(allowed))})")
    for k in required:
        if k not in d:
            raise RobotFileError(path, where, f"missing required key {k!r}")


def origin(path, where, d):
    """(R, r) from the ``xyz`` and ``rpy`` or ``rotation`` entries of a mapping."""
    if "rpy" in d and "rotation" in d:
        raise RobotFileError(path, where, "give either 'rpy' or 'rotation', not both")
    r = vector(path, f"{where}.xyz", d.get("xyz", [0, 0, 0]))
    if "rotation" in d:
        return rotation(path, f"{where}.rotation", d["rotation"]), r
    return rpy(path, f"{where}.rpy", d.get("rpy", [0, 0, 0])), r
