"""A robot file as written (links, joints, tip), and its validation into a model.

Validation names the file and the element of every problem, on one line: a missing or
malformed field, an unknown joint type, a negative mass, an impossible inertia, a bad
axis, a link with two parents, a cycle, a body not connected to the base, a tip or a
<mimic> naming nothing, a singular mass matrix. Fixed joints are merged here: the
child's mass properties are added to the parent body and its descendants re-attached
with the composed placement. The policy for mass properties is in
:mod:`soagen.loaders.inertial`, the one for singular mass matrices in
:mod:`soagen.loaders.solvable`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase

import numpy as np

from soagen.errors import RobotFileError, RobotFileWarning
from soagen.loaders import fields
from soagen.loaders.inertial import body_problems, check_link_data
from soagen.loaders.solvable import check_invertible
from soagen.model import Body, Frame, Joint, Robot, index_bodies
from soagen.reproducible import CONSTANTS, congruence, dot, fsum, matmul, norm
from soagen.tolerances import ATTACH_OFFSET, AXIS_ZERO, SNAP

# file joint type -> model joint kind (None: merged into the parent body)
JOINT_TYPES = {"revolute": "revolute", "continuous": "revolute", "prismatic": "prismatic",
               "fixed": None, "spherical": "spherical", "floating": "free", "free": "free",
               "planar": "planar"}
KNOWN_TYPES = tuple(sorted([*JOINT_TYPES, "universal"]))   # universal: expanded, see expand_universal
ONE_DOF = ("revolute", "continuous", "prismatic")


@dataclass
class LinkSpec:
    name: str
    where: str                      # element, for error messages
    mass: float = 0.0
    com: np.ndarray = field(default_factory=lambda: np.zeros(3))
    inertia: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))  # about com, link frame
    has_inertial: bool = False
    flexible: object = None         # a soagen.loaders.flexible.FlexSpec: the link deforms


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
    mimic: str | None = None            # URDF <mimic joint=...>: checked, not enforced
    stiffness: float = 0.0              # passive forces: a spring (Swain-Morris C.2, (C10); MJCF
    damping: float = 0.0                # stiffness/springref) and a viscous damper (MJCF, URDF
    rest: float = 0.0                   # <dynamics damping>)
    armature: object = ()               # rotor inertia J_m: a number or one per dof (validated in build)
    actuated: bool = True               # False: a passive spring-damper joint (YAML springs)


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
    notes: list = field(default_factory=list)   # (element, problem): warnings found by the parser
    closures: list = field(default_factory=list)   # loop closures (soagen.loaders.closures.ClosureSpec)


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
        J = np.broadcast_to(np.asarray(j.armature, dtype=float), (2,)) if np.size(j.armature) else ((), ())
        joints += [replace(j, name=f"{j.name}_{n + 1}", type="revolute", child=c, R=R, r=r, axis=a,
                           axis2=None, armature=J[n])
                   for n, (c, R, r, a) in enumerate([(cross, j.R, j.r, j.axis),
                                                     (j.child, np.eye(3), np.zeros(3), j.axis2)])]
        joints[-2] = replace(joints[-2], parent=j.parent)
        joints[-1] = replace(joints[-1], parent=cross)
    return replace(d, links=links, joints=joints)


def topological_order(d: Description):
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
    """Mass, centre of mass and inertia about it of rigidly joined parts (same frame); a
    massless part adds its rotational inertia only. Sums and products in a fixed order
    (soagen.reproducible): the result is baked into generated code."""
    m = fsum(float(p[0]) for p in parts)
    c = sum(p[0] * p[1] for p in parts) / m if m > 0 else np.zeros(3)
    I = np.zeros((3, 3))
    with np.errstate(over="ignore", invalid="ignore"):     # absurd offsets: checked by the caller
        for mi, ci, Ii in parts:
            dvec = ci - c
            I += Ii + mi * (dot(dvec, dvec) * np.eye(3) - np.outer(dvec, dvec))
    return m, c, I


@dataclass
class Layout:
    """Fixed joints merged: the moving joints as bodies, and where every link sits.

    ``owner[link] = (body index or -1 for the fixed base, R, r)``: the link frame in its
    body frame. ``parts[i]``: the (mass, centre of mass, inertia) of every link welded
    into body i, in the body frame. ``joints[i] = (joint, kind, axis, parent body, R, r)``."""

    owner: dict
    parts: dict
    joints: list


def build(d: Description, tip: str | None = None, strict: bool = False) -> Robot:
    """Validate a description and build the model (fixed joints merged), in the order a
    reader checks a file: each value, the tree, the merged rigid bodies, the tip, and
    last whether the mass matrix can be inverted (a warning: what needs M^-1 is refused
    later, the rest works). Warnings (dubious but finite) are
    issued as :class:`~soagen.errors.RobotFileWarning` at the end; ``strict=True`` makes
    the first of them an error instead."""
    notes = list(d.notes)
    check_values(d)
    d = expand_universal(d)
    root, order = topological_order(d)
    check_joints(d, order, notes)
    layout = merge_fixed_joints(d, root, order)
    bodies = make_bodies(d, layout, notes)
    frames = tuple(Frame(name, b, _frozen(R), _frozen(r)) for name, (b, R, r) in layout.owner.items())
    tip = resolve_tip(d, order, layout.owner, tip)
    if any(b.flex is not None for b in bodies):
        bodies, frames, tip = attach_to_nodes(d, bodies, frames, tip, notes)
    robot = Robot(name=d.name, source=str(d.path), base=root, bodies=index_bodies(bodies),
                  frames=frames, tip=tip, gravity=_frozen(d.gravity))
    if d.closures:
        robot = with_closures(d, robot, layout.owner)
    check_invertible(robot, notes)
    report(d.path, notes, strict)
    return robot


def with_closures(d: Description, robot: Robot, owner) -> Robot:
    """The robot with the description's loop closures (:mod:`soagen.loaders.closures`)."""
    from soagen.loaders.closures import resolve

    if robot.is_flexible:
        raise RobotFileError(d.path, d.closures[0].where, "loop closures on a robot with flexible bodies "
                             "are not supported")
    return replace(robot, closures=resolve(d.path, d.closures, owner, robot))


def check_values(d: Description):
    """Each link's inertial data as written (finite, mass >= 0, symmetric) and gravity."""
    for link in d.links:
        check_link_data(d.path, link)
    if d.gravity.shape != (3,) or not np.all(np.isfinite(d.gravity)):
        raise RobotFileError(d.path, "gravity", "must be three finite numbers")


def check_joints(d: Description, order, notes):
    """Known joint types. A <mimic> naming no other joint is a warning: soagen keeps
    mimic joints independent, so the dynamics do not depend on it (example-robot-data's
    alex_psyonic_hands names 'index_q1' for 'Left_index_q1')."""
    names = {j.name for j in d.joints}
    for j in order:
        if j.type not in JOINT_TYPES:
            raise RobotFileError(d.path, j.where, f"unknown joint type {j.type!r} "
                                 f"(known: {', '.join(KNOWN_TYPES)})")
        if j.mimic is not None and (j.mimic not in names or j.mimic == j.name):
            notes.append((f"{j.where}/mimic", f"mimics joint {j.mimic!r}, which is "
                          f"{'this joint' if j.mimic == j.name else 'not defined'} (the joint stays independent)"))


def merge_fixed_joints(d: Description, root, order) -> Layout:
    """Walk the tree from the root: a moving joint starts a body, a fixed joint welds its
    child link (mass properties and frame) into the parent's body."""
    links = {l.name: l for l in d.links}
    layout = Layout({root: (-1, np.eye(3), np.zeros(3))}, {}, [])
    for j in order:
        pb, pR, pr = layout.owner[j.parent]
        R, r = matmul(pR, j.R), pr + matmul(pR, j.r)
        kind = JOINT_TYPES[j.type]
        child = links[j.child]
        if child.flexible is not None and kind is None:
            raise RobotFileError(d.path, child.where, f"a flexible link is clamped at its inbound joint, which "
                                 f"must move: joint {j.name!r} is fixed")
        if kind is None:                     # fixed: merge into the parent body
            layout.owner[j.child] = (pb, R, r)
            if pb >= 0:
                layout.parts[pb].append((child, r + matmul(R, child.com), congruence(R, child.inertia)))
            continue
        axis = unit_axis(d.path, j) if kind in ("revolute", "prismatic", "planar") else (0.0, 0.0, 1.0)
        i = len(layout.joints)                # planar: the axis is the plane normal
        layout.owner[j.child] = (i, np.eye(3), np.zeros(3))
        layout.parts[i] = [(child, child.com, child.inertia)]
        layout.joints.append((j, kind, axis, pb, R, r))
    if not layout.joints:
        raise RobotFileError(d.path, "joints", "the robot has no moving joint (a single rigid body: "
                             "give it a floating base, --floating-base)")
    return layout


def make_bodies(d: Description, layout: Layout, notes) -> list:
    """One Body per moving joint with the combined mass properties of its welded links,
    checked as the rigid body the dynamics sees (:func:`soagen.loaders.inertial.body_problems`)."""
    bodies = []
    for i, (j, kind, axis, pb, R, r) in enumerate(layout.joints):
        parts = layout.parts[i]
        m, c, I = _combine([(p.mass, com, inertia) for p, com, inertia in parts])
        massive = [p for p, _, _ in parts if p.has_inertial]
        where = massive[0].where if len(massive) == 1 else f"link {j.child!r} with the links fixed to it"
        error, warnings = body_problems(m, c, I)
        if error:
            raise RobotFileError(d.path, where, error)
        notes += [(where, w) for w in warnings]
        own = parts[0][0]
        flex = None
        if own.flexible is not None:
            flex, (m, c, I) = _flexible(d, own, parts)
        bodies.append(Body(name=j.child, parent=pb, joint_name=j.name,
                           joint=_joint(d, j, kind, axis), placement_R=_frozen(R),
                           placement_r=_frozen(r), mass=float(m), com=_frozen(c),
                           inertia=_frozen(I), flex=flex))
    return bodies


def _joint(d, j, kind, axis):
    """The joint model, with its passive forces (spring, damper) and rotor inertia."""
    from soagen.model import armature_problem

    if j.stiffness and kind not in ("revolute", "prismatic"):
        raise RobotFileError(d.path, j.where, f"a spring (stiffness) is for revolute and prismatic joints, "
                             f"not {j.type}")
    nv = Joint(kind).nv
    if np.size(j.armature):
        problem = armature_problem(j.armature, nv)
        if problem:
            raise RobotFileError(d.path, j.where, f"armature: {problem}")
    return Joint(kind, axis, j.type, stiffness=float(j.stiffness), damping=float(j.damping), rest=float(j.rest),
                 armature=j.armature, actuated=j.actuated)


def _flexible(d, own, parts):
    """The FlexibleBody of a body whose link is flexible: its own mass is a rigid hub at
    the clamp, the links welded to it sit rigidly on their nearest node; and the body's
    mass properties at zero deformation."""
    from soagen.loaders.flexible import (
        deformation,
        flexible_body,
        nearest_node,
        rigid_equivalent,
    )

    dfm = deformation(d.path, own.flexible)
    rigid = [(p.mass, com, inertia, -1 if p is own else nearest_node(dfm.nodes, com)[0])
             for p, com, inertia in parts]
    flex = flexible_body(d.path, own.flexible, rigid, dfm)
    return flex, rigid_equivalent(flex)


def attach_to_nodes(d, bodies, frames, tip, notes):
    """Bodies hanging from a flexible body, and frames on one, sit on its nearest node
    (framework paper (4.2): Q_k(1) on the same element as O_{k-1}). A node farther than
    ATTACH_OFFSET of the link's size is a warning: the offset is then rigid."""
    from soagen.loaders.flexible import nearest_node

    def node(body, point, what):
        flex = bodies[body].flex
        n, dist = nearest_node(flex.nodes, point)
        size = float(np.abs(flex.nodes.r0).max()) or 1.0
        if dist > ATTACH_OFFSET * size:
            notes.append((f"link {bodies[body].name!r}", f"{what} is {dist:.3g} m from the nearest node of the "
                          "flexible link: rigidly attached to it"))
        return n

    bodies = [replace(b, attach=node(b.parent, b.placement_r, f"joint {b.joint_name!r}"))
              if b.parent >= 0 and bodies[b.parent].flex is not None else b for b in bodies]
    on_flex = lambda f: f.body >= 0 and bodies[f.body].flex is not None     # noqa: E731
    frames = tuple(replace(f, node=node(f.body, f.r, f"frame {f.name!r}")) if on_flex(f) else f for f in frames)
    if tip is not None and on_flex(tip):
        tip = replace(tip, node=node(tip.body, tip.r, f"tip frame {tip.name!r}"))
    return bodies, frames, tip


def resolve_tip(d: Description, order, owner, tip):
    """The tip frame O(0): the link named by ``tip``, else the file's tip, else a serial
    chain's deepest link; None for a branching tree."""
    if tip is not None:
        spec = TipSpec(tip, "tip", np.eye(3), np.zeros(3))
    elif d.tip is not None:
        spec = d.tip
    else:
        last = _last_link(order, owner)
        if last is None:
            return None
        spec = TipSpec(last, "tip", np.eye(3), np.zeros(3))
    if not isinstance(spec.link, str) or spec.link not in owner:
        raise RobotFileError(d.path, spec.where, f"tip link {spec.link!r} is not defined")
    b, R, r = owner[spec.link]
    return Frame(spec.link, b, _frozen(matmul(R, spec.R)), _frozen(r + matmul(R, spec.r)))


def report(path, notes, strict):
    """Issue the collected warnings, or (strict) refuse the file with the first."""
    if strict and notes:
        where, problem = notes[0]
        raise RobotFileError(path, where, f"{problem} (refused: strict)")
    for where, problem in notes:
        warnings.warn(RobotFileWarning(path, where, problem), stacklevel=4)


def lock_joints(d: Description, lock) -> Description:
    """The description with the joints named in ``lock`` made fixed: each entry is
    ``NAME`` or ``NAME=VALUE``, NAME a joint name or a shell-style pattern (``'*Finger*'``)
    matching at least one joint. A revolute or prismatic joint is fixed at VALUE (rad or
    m, default 0), any other joint at its neutral position (the identity)."""
    values = {}
    for entry in lock:
        name, has_value, text = str(entry).partition("=")
        name = name.strip()
        matches = [j for j in d.joints if fnmatchcase(j.name, name)]
        if not matches:
            raise RobotFileError(d.path, "lock", f"no joint matches {name!r}")
        value = fields.text_number(d.path, f"lock {name}", text) if has_value else 0.0
        for j in matches:
            if value and j.type not in ONE_DOF:
                raise RobotFileError(d.path, j.where, f"lock: a {j.type} joint is locked at its "
                                     "neutral position only (no value)")
            values[j.name] = value
    return replace(d, joints=[_locked(d.path, j, values[j.name]) if j.name in values and j.type != "fixed"
                              else j for j in d.joints])


def _locked(path, j: JointSpec, value) -> JointSpec:
    R, r = j.R, j.r
    if j.type in ONE_DOF and value:
        from soagen.spatial import axis_rotation

        axis = np.asarray(unit_axis(path, j))
        if j.type == "prismatic":
            r = r + matmul(R, axis * value)
        else:
            R = matmul(R, axis_rotation(axis, value, CONSTANTS))
    return replace(j, type="fixed", R=R, r=r)


def with_armature(d: Description, armature: dict) -> Description:
    """The description with the rotor inertias ``armature`` ({joint name: J_m, a number or
    one per dof}; ``soagen.load(path, armature=...)``) on its moving joints."""
    if not isinstance(armature, dict):
        raise RobotFileError(d.path, "armature", f"expected a mapping from joint names to values, got {armature!r}")
    joints = {j.name: j for j in d.joints}
    for name in armature:
        if name not in joints or joints[name].type == "fixed":
            raise RobotFileError(d.path, "armature", f"no moving joint {name!r}")
    return replace(d, joints=[replace(j, armature=armature[j.name]) if j.name in armature else j for j in d.joints])


def without_passive(d: Description) -> Description:
    """The description without passive joint forces (``soagen.load(path, passive=False)``)."""
    return replace(d, joints=[replace(j, stiffness=0.0, damping=0.0, rest=0.0) for j in d.joints])


def with_floating_base(d: Description, world: str = "world", joint: str = "root_joint") -> Description:
    """The same description with a free joint from a massless ``world`` link to the root
    link (Part I Appendix B): q = (position, quaternion (x, y, z, w)), v = (omega, v) in
    the root body frame (see docs/trees-and-floating-bases.md). Refused when the file's
    root already carries a floating joint: the two would be stacked on a massless link."""
    root, order = topological_order(d)
    welded = {root}
    for j in order:
        if j.parent in welded and j.type == "fixed":
            welded.add(j.child)
        elif j.parent in welded and JOINT_TYPES.get(j.type) == "free":
            raise RobotFileError(d.path, j.where, f"already a floating joint between {j.parent!r} and "
                                 f"{j.child!r}: a floating base would stack a second one (drop --floating-base)")
    names = {l.name for l in d.links}
    while world in names:
        world = "_" + world
    jnames = {j.name for j in d.joints}
    while joint in jnames:
        joint = "_" + joint
    free = JointSpec(joint, f"<floating base joint {joint!r}>", "floating", world, root,
                     np.eye(3), np.zeros(3), np.array([0.0, 0.0, 1.0]))
    return replace(d, links=[LinkSpec(world, f"<world link {world!r}>")] + list(d.links),
                   joints=[free] + list(d.joints))


def unit_axis(path, j):
    """The joint axis as a unit vector; scaled before normalizing so that huge entries do
    not overflow the norm, and round-off below SNAP set to exact zeros."""
    scale = np.abs(j.axis).max() if np.all(np.isfinite(j.axis)) else np.nan
    u = j.axis / scale if scale > 0 else j.axis
    if not scale > 0 or scale < AXIS_ZERO / norm(u):       # |axis| = scale |u|
        raise RobotFileError(path, j.where, "axis must be a non-zero vector")
    u = u / norm(u)
    return tuple(float(x) for x in np.where(np.abs(u) < SNAP, 0.0, u))


def _last_link(order, owner):
    """A serial chain's deepest link (None if the moving joints branch): the default tip.
    Branching is decided on the bodies (``owner``: link -> body), not the links: ANYmal C's
    four hips hang off four fixed links of one base body."""
    moving = [j for j in order if JOINT_TYPES.get(j.type) is not None]
    parents = [owner[j.parent][0] for j in moving]
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
        a[np.abs(a - exact) < SNAP] = exact
    a.flags.writeable = False
    return a
