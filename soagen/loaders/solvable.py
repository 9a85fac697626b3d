"""Does the assembled model have an invertible mass matrix?

By Fact 4.1 of Part I, M = (I + H Phi L) D (I + H Phi L)^T (4.11) with a unit
block-triangular factor, so det M = prod_k det D(k): M is singular exactly where some
D(k) = H(k) P(k) H^T(k) (4.6) is. Two causes are told apart, each
with the joint names and the fix, ``lock`` (``--lock``: the joint becomes a fixed joint at
its neutral position, or a value given):

* joints that move only massless links (nothing beyond them has mass or inertia, e.g.
  Romeo's 24 finger joints): singular at every configuration;
* any other D(k) that is singular at a generic configuration: a point mass on the joint
  axis, a thin rod spun about its own axis, two free joints stacked on a massless link.

Such a model still has well-defined inverse dynamics, mass matrix, Jacobians and
regressor (Pinocchio loads Romeo as it is): the loader warns (:func:`check_invertible`),
and only what needs M^-1 is refused, by the code generator before it unrolls anything
(:func:`singular_mass_matrix`) and by the algorithms where they would invert a singular
D(k) (:func:`soagen.model.check_articulated_inertia`), which also catches the special
configurations where a model is singular (a point mass at the end of a stretched arm of
massless links).
"""

from __future__ import annotations

import numpy as np

from soagen.errors import SingularMassMatrixError


def massless_joints(robot) -> list[str]:
    """Joints (in body order) beyond which no body has mass or inertia, and that have no
    rotor inertia of their own on every dof (with it, D(k) = H P H^T + J_m is invertible)."""
    massive = [b.mass > 0 or bool(np.any(b.inertia)) for b in robot.bodies]
    for i in reversed(range(robot.nb)):
        p = robot.bodies[i].parent
        if p >= 0 and massive[i]:
            massive[p] = True
    return [b.joint_name for b, m in zip(robot.bodies, massive) if not m and not np.all(b.joint.J_m > 0)]


def singular_mass_matrix(robot) -> tuple[str, str] | None:
    """(element, problem) naming the joints and the fix when the mass matrix is singular
    at a generic configuration (a fixed-seed random one, so the outcome is
    reproducible); None when it is invertible there."""
    from soagen.backend import NUMPY
    from soagen.dynamics.innovations import riccati
    from soagen.dynamics.sweeps import prepare

    names = massless_joints(robot)
    if names:
        what = f"joint {names[0]!r} moves" if len(names) == 1 else f"{len(names)} joints move"
        return "joints", (f"{what} only massless links (nothing beyond has mass or inertia), so the mass "
                          f"matrix is singular; lock them at their neutral position: --lock {','.join(names)}")
    q = robot.random_configuration(np.random.default_rng(0))
    try:
        riccati(prepare(robot, q, np.zeros(robot.nv), NUMPY, gravity=False))
    except SingularMassMatrixError as err:
        return f"joint {err.joint!r}", ("nothing beyond it has inertia along its motion (a point mass on its "
                                        "axis, a thin rod about its own axis, a free joint on a massless "
                                        "link?), so the mass matrix is singular; give the link inertia about "
                                        f"the axis, or lock the joint: --lock {err.joint}")
    return None


# what the warning adds: the model loads, and what it can and cannot do
USABLE = ("inverse dynamics, the mass matrix, Jacobians and the regressor work; what needs M^-1 "
          "(forward dynamics, M^-1, the operational-space inertia) is refused")


def check_invertible(robot, notes):
    """Add a warning to ``notes`` (naming the joints and the fix) when the mass matrix is
    singular at a generic configuration: the model loads, what needs M^-1 is refused."""
    found = singular_mass_matrix(robot)
    if found:
        element, problem = found
        notes.append((element, f"{problem} ({USABLE})"))
