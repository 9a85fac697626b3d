"""Mass properties: what a robot file may give a link, and what a rigid body may have.

The policy (docs/robot-format.md, "Mass properties"):

* as written, a link's mass must be finite and not negative and its inertia finite and
  symmetric, or the file is refused;
* the physical checks apply to the rigid bodies the dynamics sees (a link with the links
  welded to it by fixed joints), relative to the body's own inertia scale
  (:func:`inertia_scale`, tolerance :data:`~soagen.tolerances.INERTIA_NOISE`): a clearly
  negative principal moment is an error (negative kinetic energy); an inertia that
  violates the triangle inequality, or rotational inertia without mass, is a warning
  (no rigid body has it, yet the dynamics stay finite) and is kept as given, as
  Pinocchio keeps it;
* whether the bodies together give an invertible mass matrix is decided afterwards, on
  the assembled model (:mod:`soagen.loaders.solvable`).
"""

from __future__ import annotations

import math

import numpy as np

from soagen.errors import RobotFileError
from soagen.tolerances import INERTIA_NOISE


def check_link_data(path, link):
    """A link's inertial data as written: finite, mass >= 0, symmetric inertia."""
    if not link.has_inertial:
        return
    if not math.isfinite(link.mass) or link.mass < 0:
        raise RobotFileError(path, link.where, f"mass must be zero or positive, got {link.mass:g}")
    I = link.inertia
    if not (np.all(np.isfinite(I)) and np.all(np.isfinite(link.com))):
        raise RobotFileError(path, link.where, "centre of mass and inertia must be finite "
                             "(too large to represent in double precision?)")
    if not np.allclose(I, I.T, rtol=0, atol=INERTIA_NOISE * np.abs(I).max()):
        raise RobotFileError(path, link.where, "inertia matrix is not symmetric")


def inertia_scale(m, c, I) -> float:
    """Half the trace of the rotational inertia about the link frame origin,
    tr(I_c)/2 + m |c|^2: the size of the link's inertia, also for a near-point mass."""
    return float(np.trace(I) / 2 + m * (c @ c))


def body_problems(m, c, I):
    """(error, warnings) of a rigid body's mass properties: ``error`` is None or why the
    body is impossible; ``warnings`` lists what is dubious but finite."""
    s = inertia_scale(m, c, I)
    if not math.isfinite(s):
        return "centre of mass and inertia must be finite (too large to represent in double precision?)", []
    if s == 0:
        return None, []                                   # massless, or a point mass at the origin
    lam = np.linalg.eigvalsh(I)
    moments = ", ".join(f"{x:.6g}" for x in lam)
    if lam[0] < -INERTIA_NOISE * s:
        return f"inertia is not positive semi-definite (principal moments {moments})", []
    notes = []
    if lam[0] + lam[1] < lam[2] - INERTIA_NOISE * s:
        notes.append(f"inertia violates the triangle inequality ({lam[0]:.6g} + {lam[1]:.6g} < "
                     f"{lam[2]:.6g}): no rigid body has it; kept as given")
    if m == 0 and lam[2] > INERTIA_NOISE * s:
        notes.append(f"mass 0 with a non-zero rotational inertia (principal moments {moments}): "
                     "no rigid body has it; kept as given")
    return None, notes


def check_mass_properties(path, link):
    """A single rigid body that must be physical (the held object of a system file):
    positive mass, and every problem of :func:`body_problems` an error."""
    if not link.mass > 0:
        raise RobotFileError(path, link.where, f"mass must be positive, got {link.mass:g}")
    check_link_data(path, link)
    error, notes = body_problems(link.mass, link.com, link.inertia)
    if error or notes:
        raise RobotFileError(path, link.where, error or notes[0])
