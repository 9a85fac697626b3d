"""A robot file as written (links, joints, tip), and its validation into a model.

Validation names the file and the element of every problem, on one line: a missing or
malformed field, an unknown joint type, a non-positive mass, an inertia that is not
positive definite or violates the triangle inequality, a bad axis, a link with two
parents, a cycle, a body not connected to the base, a tip naming a missing link.
Fixed joints are merged here: the child's mass properties are added to the parent body
and its descendants re-attached with the composed placement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from soagen.errors import RobotFileError
from soagen.model import Body, Frame, Joint, Robot, index_bodies

# file joint type -> model joint kind (None: merged into the parent body)
JOINT_TYPES = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic",
               "fixed": None, "spherical": "spherical", "floating": "free", "free": "free",
               "planar": "planar"}
KNOWN_TYPES = tuple(sorted([*JOINT_TYPES, "universal"]))   # universal: expanded, see expand_universal


@dataclass
class LinkSpec:
    name: str
    where: str                      # element, for error messages
    mass: float = 0.0
    com: np.ndarray = field(default_factory=lambda: np.zeros(3))
    inertia: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))  # about com, link frame
    has_inertial: bool = False


@dataclass
class JointSpec:
    name: str
    where: str
    type: str
    parent: str
    child: str
    R: np.ndarray
    r: np.ndarray
    axis: np.ndarray
    axis2: np.ndarray | None = None     # universal joints: the second axis


@dataclass
class TipSpec:
    link: str
    where: str
    R: np.ndarray
    r: np.ndarray


@dataclass
class Description:
    path: str
    name: str
    links: list
    joints: list
    gravity: np.ndarray
    tip: TipSpec | None = None


def expand_universal(d: Description) -> Description:
    """A universal (Hooke) joint R = Rot(axis, q1) Rot(axis2, q2) becomes two revolute
    joints ``NAME_1``, ``NAME_2`` through a massless cross link ``CHILD_cross``: its body-frame
    joint map depends on q2, so it is not a constant-H joint kind; these coordinates are
    Pinocchio's JointModelUniversal (tests/trees/test_universal.py)."""
    links, joints = list(d.links), []
    for j in d.joints:
        if j.type != "universal":
            joints.append(j)
            continue
        if j.axis2 is None:
            raise RobotFileError(d.path, j.where, "a universal joint needs 'axis2'")
        cross = f"{j.child}_cross"
        links.append(LinkSpec(cross, f"{j.where} (cross link)"))
        joints += [JointSpec(f"{j.name}_1", j.where, "revolute", j.parent, cross, j.R, j.r, j.axis),
                   JointSpec(f"{j.name}_2", j.where, "revolute", cross, j.child, np.eye(3), np.zeros(3), j.axis2)]
    return replace(d, links=links, joints=joints)


def check_mass_properties(path, link: LinkSpec, principal: bool = True):
    """Physical consistency of one link's inertial data (``principal=False``: only the
    mass and the symmetry, not the principal moments)."""
    if not link.has_inertial:
        return
    if not math.isfinite(link.mass) or link.mass <= 0:
        raise RobotFileError(path, link.where, f"mass must be positive, got {link.mass:g}")
    I = link.inertia
    if not (np.all(np.isfinite(I)) and np.all(np.isfinite(link.com))):
        raise RobotFileError(path, link.where, "centre of mass and inertia must be finite "
                             "(too large to represent in double precision?)")
    if not np.allclose(I, I.T, rtol=0, atol=1e-12 * max(1.0, np.abs(I).max())):
        raise RobotFileError(path, link.where, "inertia matrix is not symmetric")
    if not principal or not I.any():
        return                                   # a point mass
    lam = np.linalg.eigvalsh(I)
    scale = max(abs(lam).max(), 1e-300)
    if lam[0] <= 1e-12 * scale:
        raise RobotFileError(path, link.where, "inertia is not positive definite (nor zero, "
                             "a point mass) "
                             f"(principal moments {', '.join(f'{x:.6g}' for x in lam)})")
    if lam[0] + lam[1] < lam[2] * (1 - 1e-9):
        raise RobotFileError(path, link.where, "inertia violates the triangle inequality "
                             f"({lam[0]:.6g} + {lam[1]:.6g} < {lam[2]:.6g})")


def _topological_order(d: Description):
    """Root link and the joints in depth-first order from it; checks the tree shape."""
    names = [l.name for l in d.links]
    seen = set()
    for l in d.links:
        if l.name in seen:
            raise RobotFileError(d.path, l.where, f"duplicate link name {l.name!r}")
        seen.add(l.name)
    jseen, parent_of = set(), {}
    for j in d.joints:
        if j.name in jseen:
            raise RobotFileError(d.path, j.where, f"duplicate joint name {j.name!r}")
        jseen.add(j.name)
        for role, link in (("parent", j.parent), ("child", j.child)):
            if link not in seen:
                raise RobotFileError(d.path, j.where, f"{role} link {link!r} is not defined")
        if j.parent == j.child:
            raise RobotFileError(d.path, j.where, f"joint connects link {j.child!r} to itself")
        if j.child in parent_of:
            raise RobotFileError(d.path, j.where, f"link {j.child!r} already has parent joint "
                                 f"{parent_of[j.child].name!r} (a loop or a second parent)")
        parent_of[j.child] = j
    roots = [n for n in names if n not in parent_of]
    if not roots:
        raise RobotFileError(d.path, "joints", "every link has a parent: the joints form a cycle")
    if len(roots) > 1:
        raise RobotFileError(d.path, "links", f"links {', '.join(map(repr, roots[1:]))} are not "
                             f"connected to the base {roots[0]!r}")
    children = {n: [] for n in names}
    for j in d.joints:
        children[j.parent].append(j)
    order, stack = [], list(reversed(children[roots[0]]))
    while stack:
        j = stack.pop()
        order.append(j)
        stack.extend(reversed(children[j.child]))
    if len(order) != len(d.joints):
        cyc = sorted(set(parent_of) - {j.child for j in order})
        raise RobotFileError(d.path, "joints", f"links {', '.join(map(repr, cyc))} form a cycle "
                             "not connected to the base")
    return roots[0], order


def _combine(parts):
    """Mass, centre of mass and inertia about it of rigidly joined parts (same frame)."""
    m = sum(p[0] for p in parts)
    if m == 0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    c = sum(p[0] * p[1] for p in parts) / m
    I = np.zeros((3, 3))
    with np.errstate(over="ignore", invalid="ignore"):     # absurd offsets: checked by the caller
        for mi, ci, Ii in parts:
            dvec = ci - c
            I += Ii + mi * (dvec @ dvec * np.eye(3) - np.outer(dvec, dvec))
    return m, c, I


def build(d: Description, tip: str | None = None) -> Robot:
    """Validate a description and build the model (fixed joints merged).

    A link whose principal moments are unphysical is accepted only when it is welded
    (fixed joints) into a rigid body whose merged inertia is physical, or into the fixed
    base, where its mass plays no role: real files carry such placeholder links (ANYmal's
    ``base``: mass 1e-6, inertia all entries 1e-6, welded to ``base_inertia``)."""
    deferred = {}
    for link in d.links:
        check_mass_properties(d.path, link, principal=False)
        try:
            check_mass_properties(d.path, link)
        except RobotFileError as err:
            deferred[link.name] = err
    if d.gravity.shape != (3,) or not np.all(np.isfinite(d.gravity)):
        raise RobotFileError(d.path, "gravity", "must be three finite numbers")
    d = expand_universal(d)
    root, order = _topological_order(d)
    links = {l.name: l for l in d.links}

    # owner[link] = (body index or -1 for the base, R, r): pose of the link frame in its body
    owner = {root: (-1, np.eye(3), np.zeros(3))}
    specs, parts = [], {}
    for j in order:
        if j.type not in JOINT_TYPES:
            raise RobotFileError(d.path, j.where, f"unknown joint type {j.type!r} "
                                 f"(known: {', '.join(KNOWN_TYPES)})")
        pb, pR, pr = owner[j.parent]
        R, r = pR @ j.R, pr + pR @ j.r
        kind = JOINT_TYPES[j.type]
        child = links[j.child]
        if kind is None:                     # fixed: merge into the parent body
            owner[j.child] = (pb, R, r)
            if pb >= 0:
                parts[pb].append((child.mass, r + R @ child.com, R @ child.inertia @ R.T))
            continue
        if kind in ("revolute", "prismatic", "planar"):     # planar: the plane normal
            axis = unit_axis(d.path, j)
        else:
            axis = (0.0, 0.0, 1.0)
        i = len(specs)
        owner[j.child] = (i, np.eye(3), np.zeros(3))
        parts[i] = [(child.mass, child.com, child.inertia)]
        specs.append((j, kind, axis, pb, R, r))

    for name, err in deferred.items():                 # see the docstring
        b = owner.get(name, (-1,))[0]
        if b < 0 or len(parts[b]) == 1:
            if b >= 0 or name not in owner:
                raise err
            continue
        m, c, I = _combine(parts[b])
        try:
            check_mass_properties(d.path, LinkSpec(name, "", m, c, I, True))
        except RobotFileError:
            raise err from None

    bodies = []
    for i, (j, kind, axis, pb, R, r) in enumerate(specs):
        m, c, I = _combine(parts[i])
        if len(parts[i]) > 1:
            check_mass_properties(d.path, LinkSpec(j.child, f"link {j.child!r} with the links fixed to it",
                                                   m, c, I, m > 0), principal=False)
        bodies.append(Body(name=j.child, parent=pb, joint_name=j.name,
                           joint=Joint(kind, axis, j.type), placement_R=_frozen(R),
                           placement_r=_frozen(r), mass=float(m), com=_frozen(c),
                           inertia=_frozen(I)))
    if not bodies:
        raise RobotFileError(d.path, "joints", "the robot has no moving joint")
    frames = tuple(Frame(name, b, _frozen(R), _frozen(r)) for name, (b, R, r) in owner.items())

    if tip is not None:
        tip_spec = TipSpec(tip, "tip", np.eye(3), np.zeros(3))
    elif d.tip is not None:
        tip_spec = d.tip
    else:
        last = _last_link(order)
        tip_spec = TipSpec(last, "tip", np.eye(3), np.zeros(3)) if last else None
    tip_frame = None
    if tip_spec is not None:
        if tip_spec.link not in owner:
            raise RobotFileError(d.path, tip_spec.where, f"tip link {tip_spec.link!r} is not defined")
        b, R, r = owner[tip_spec.link]
        tip_frame = Frame(tip_spec.link, b, _frozen(R @ tip_spec.R), _frozen(r + R @ tip_spec.r))
    return Robot(name=d.name, source=str(d.path), base=root, bodies=index_bodies(bodies),
                 frames=frames, tip=tip_frame, gravity=_frozen(d.gravity))


def with_floating_base(d: Description, world: str = "world", joint: str = "root_joint") -> Description:
    """The same description with a free joint from a massless ``world`` link to the root
    link (Part I Appendix B): q = (position, quaternion (x, y, z, w)), v = (omega, v) in
    the root body frame (see docs/trees-and-floating-bases.md)."""
    from dataclasses import replace as _replace

    root, _ = _topological_order(d)
    names = {l.name for l in d.links}
    while world in names:
        world = "_" + world
    jnames = {j.name for j in d.joints}
    while joint in jnames:
        joint = "_" + joint
    free = JointSpec(joint, f"<floating base joint {joint!r}>", "floating", world, root,
                     np.eye(3), np.zeros(3), np.array([0.0, 0.0, 1.0]))
    return _replace(d, links=[LinkSpec(world, f"<world link {world!r}>")] + list(d.links),
                    joints=[free] + list(d.joints))


def unit_axis(path, j):
    """The joint axis as a unit vector; scaled before normalizing so that huge entries do
    not overflow the norm, and round-off below 1e-15 set to exact zeros."""
    scale = np.abs(j.axis).max() if np.all(np.isfinite(j.axis)) else np.nan
    if not scale > 0 or np.linalg.norm(j.axis / scale) * scale < 1e-9:
        raise RobotFileError(path, j.where, "axis must be a non-zero vector")
    u = j.axis / scale
    u = u / np.linalg.norm(u)
    return tuple(float(x) for x in np.where(np.abs(u) < 1e-15, 0.0, u))


def _last_link(order):
    """A serial chain's deepest link (None if the moving joints branch): the default tip."""
    moving = [j for j in order if JOINT_TYPES.get(j.type) is not None]
    parents = [j.parent for j in moving]
    if not moving or len(set(parents)) != len(parents):
        return None
    depth = {order[0].parent: 0}
    for j in order:
        depth[j.child] = depth[j.parent] + 1
    best = max(depth.values())
    return [j.child for j in order if depth[j.child] == best][-1]


def _frozen(a):
    """A read-only float array with round-off of exact values removed (cos(pi/2) -> 0,
    1 - 1e-17 -> 1), so that symbolic unrolling sees the structural zeros and ones."""
    a = np.array(a, dtype=float)
    for exact in (0.0, 1.0, -1.0):
        a[np.abs(a - exact) < 1e-15] = exact
    a.flags.writeable = False
    return a
