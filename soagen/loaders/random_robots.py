"""Random robots for tests and numeric cross-checks, built through the same validation
path as robot files (:func:`soagen.loaders.description.build`)."""

from __future__ import annotations

import numpy as np

from soagen.loaders.description import Description, JointSpec, LinkSpec, TipSpec, build


def random_rotation(rng):
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q @ np.diag(np.sign(np.diag(R)))
    return Q if np.linalg.det(Q) > 0 else -Q


def random_link(rng, name, mass_scale=1.0):
    """Mass in [0.5, 2] * mass_scale, principal moments that satisfy the triangle
    inequality, in random principal axes."""
    m = rng.uniform(0.5, 2.0) * mass_scale
    a, b = rng.uniform(0.02, 0.2, 2) * mass_scale
    c = rng.uniform(abs(a - b) + 1e-3 * mass_scale, a + b)
    Q = random_rotation(rng)
    spec = LinkSpec(name, f"link {name!r}", m, rng.uniform(-0.3, 0.3, 3), Q @ np.diag([a, b, c]) @ Q.T, True)
    return spec


def random_chain(n, rng, joint_types=("revolute", "prismatic"), mass_scale=None, parents=None,
                 kinds=None):
    """A random serial chain (or tree, with ``parents[i] in -1 .. i-1``) of n bodies.

    Joint types are drawn from ``joint_types``; axes are unit vectors in random
    directions, half of them axis-aligned; placements are random. ``mass_scale(i)`` may
    shrink distal masses to make ill-conditioned chains. ``kinds[i]``, when given, fixes
    body i's joint type (e.g. a free base and revolute arms)."""
    links = [LinkSpec("base", "link 'base'")]
    joints = []
    for i in range(n):
        scale = mass_scale(i) if mass_scale else 1.0
        links.append(random_link(rng, f"b{i}", scale))
        parent = "base" if (parents is None and i == 0) or (parents is not None and parents[i] < 0) \
            else f"b{parents[i] if parents is not None else i - 1}"
        axis = np.eye(3)[rng.integers(3)] * rng.choice([-1, 1]) if rng.random() < 0.5 \
            else rng.normal(size=3)
        joints.append(JointSpec(f"j{i}", f"joint 'j{i}'", kinds[i] if kinds is not None else str(rng.choice(joint_types)), parent,
                                f"b{i}", random_rotation(rng), rng.uniform(-0.5, 0.5, 3), axis))
    tip = TipSpec(f"b{n - 1}", "tip", random_rotation(rng), rng.uniform(-0.3, 0.3, 3)) \
        if parents is None else None
    d = Description("<random>", f"random{n}", links, joints, np.array([0.0, 0.0, -9.81]), tip)
    return build(d)
