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


def random_flexible_chain(n, rng, modes=(1, 4), flexible=0.5, stiffening=True, joint_types=("revolute", "prismatic"),
                          points=5):
    """A random serial chain of n bodies, each flexible with probability ``flexible``:
    modal data (:func:`soagen.loaders.flexible.read_modal`) with ``points`` random mass
    points (lumped masses and rotary inertias) that are also its nodes, plus nodes at the
    next joint and the tip, random mode shapes (translations and rotations) made
    mass-normalized for those points, random frequencies, and with ``stiffening`` random
    foreshortening data; between ``modes[0]`` and ``modes[1]`` modes each."""
    from soagen.loaders.flexible import FlexSpec

    links = [LinkSpec("base", "link 'base'")]
    joints = []
    placements = [(random_rotation(rng), rng.uniform(-0.5, 0.5, 3)) for _ in range(n)]
    tip_r = rng.uniform(-0.3, 0.3, 3)
    for i in range(n):
        link = random_link(rng, f"b{i}")
        if rng.random() < flexible:
            after = placements[i + 1][1] if i + 1 < n else tip_r
            link.flexible = FlexSpec(where=f"link 'b{i}'.flexible", modal=_random_modal(rng, int(rng.integers(
                modes[0], modes[1] + 1)), points, after, stiffening), stiffening=stiffening)
        links.append(link)
        parent = "base" if i == 0 else f"b{i - 1}"
        axis = np.eye(3)[rng.integers(3)] * rng.choice([-1, 1]) if rng.random() < 0.5 else rng.normal(size=3)
        joints.append(JointSpec(f"j{i}", f"joint 'j{i}'", str(rng.choice(joint_types)), parent, f"b{i}",
                                *placements[i], axis))
    tip = TipSpec(f"b{n - 1}", "tip", random_rotation(rng), tip_r)
    return build(Description("<random>", f"random_flexible{n}", links, joints, np.array([0.0, 0.0, -9.81]), tip))


def _random_modal(rng, m, points, attach, stiffening):
    """Random modal data whose nodes are ``points`` random points and ``attach``."""
    nodes = np.vstack([rng.uniform(-0.5, 0.5, (points, 3)), attach])
    n = len(nodes)
    mass = np.append(rng.uniform(0.1, 0.5, points), 0.0)
    inertia = np.array([np.diag(rng.uniform(1e-3, 1e-2, 3)) for _ in range(n)])
    S = rng.normal(size=(m, n, 6)) * np.array([0.3, 0.3, 0.3, 1.0, 1.0, 1.0])
    W = np.einsum("n,kl->nkl", mass, np.eye(3))
    Mm = np.einsum("ank,nkl,bnl->ab", S[:, :, :3], W, S[:, :, :3]) + np.einsum("ank,nkl,bnl->ab", S[:, :, 3:],
                                                                                 inertia, S[:, :, 3:])
    Li = np.linalg.inv(np.linalg.cholesky(Mm))
    S = np.einsum("ab,bnk->ank", Li, S)                       # mass-normalized for these points
    data = {"nodes": nodes, "mass": mass, "inertia": inertia, "shapes": S,
            "frequencies": np.sort(rng.uniform(0.5, 5.0, m))}
    if stiffening:
        G = rng.normal(size=(n, 3, m, m)) * 0.2
        data["foreshortening"] = (G + np.swapaxes(G, 2, 3)) / 2
    return data
