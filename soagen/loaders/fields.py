"""Typed field readers shared by the YAML and URDF parsers: every malformed value becomes
a one-line :class:`~soagen.errors.RobotFileError` naming the element."""

from __future__ import annotations

import math

import numpy as np

from soagen.errors import RobotFileError
from soagen.spatial import rpy_rotation


def number(path, where, value, positive=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(str(value).strip())
        except (TypeError, ValueError):
            raise RobotFileError(path, where, f"expected a number, got {value!r}") from None
    value = float(value)
    if not math.isfinite(value):
        raise RobotFileError(path, where, f"expected a finite number, got {value!r}")
    if positive and value <= 0:
        raise RobotFileError(path, where, f"must be positive, got {value:g}")
    return value


def vector(path, where, value, n=3):
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise RobotFileError(path, where, f"expected {n} numbers, got {value!r}")
    return np.array([number(path, where, x) for x in value])


def rotation(path, where, value):
    """A 3x3 rotation matrix given as nested lists; must be orthonormal, det +1."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RobotFileError(path, where, "rotation must be 3 rows of 3 numbers")
    R = np.array([vector(path, where, row) for row in value])
    if not np.allclose(R @ R.T, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
        raise RobotFileError(path, where, "rotation is not orthonormal with determinant +1")
    return R


def rpy(path, where, value):
    return rpy_rotation(vector(path, where, value))


def inertia_matrix(path, where, ixx, iyy, izz, ixy, ixz, iyz):
    vals = [number(path, f"{where}.{k}", v) for k, v in
            zip(("ixx", "iyy", "izz", "ixy", "ixz", "iyz"), (ixx, iyy, izz, ixy, ixz, iyz))]
    xx, yy, zz, xy, xz, yz = vals
    return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def keys(path, where, d, allowed, required=()):
    """A mapping with only ``allowed`` keys and all ``required`` ones (strict formats:
    a typo must not silently drop a parameter)."""
    if not isinstance(d, dict):
        raise RobotFileError(path, where, f"expected a mapping, got {d!r}")
    for k in d:
        if k not in allowed:
            raise RobotFileError(path, where, f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})")
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
