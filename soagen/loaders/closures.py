"""Loop closures inside a robot (framework paper Section 2.3): the robot file's tree is the
spanning tree, and each closure names the two sides of a cut joint (docs/robot-format.md,
"Loops"). Read from the YAML key ``loops`` (of a robot file or of an overlay on any robot
file, e.g. a URDF) and from MJCF's ``<equality>`` (:func:`soagen.loaders.mjcf.equality_constraints`);
resolved into :class:`~soagen.model.Closure` once the bodies are known.

YAML form, one entry per closure::

    loops:
      - name: knee                  # optional (default loop<i>)
        type: connect               # connect (3 constraints: a point) or weld (6: a frame)
        frame1: {link: coupler, xyz: [0.3, 0, 0]}           # a frame on a link (xyz, rpy/rotation)
        frame2: {link: rocker}      # xyz, rpy omitted: where frame1 is at the neutral configuration

A frame whose placement is omitted is put where the other frame is at the neutral
configuration (MuJoCo computes its second anchor at qpos0 the same way), so the closure
holds there."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.errors import RobotFileError
from soagen.loaders import fields
from soagen.model import CLOSURE_KINDS, Closure, Frame

LOOP_KEYS = {"name", "type", "frame1", "frame2"}
FRAME_KEYS = {"link", "xyz", "rpy", "rotation"}


@dataclass
class ClosureSpec:
    """A closure as written: two frames, each a link and a placement in the link's frame
    (None: put where the other frame is at the neutral configuration)."""

    name: str
    where: str
    kind: str
    link1: str
    link2: str
    X1: tuple | None          # (R, r) in link1's frame
    X2: tuple | None


def parse_yaml(path, value) -> list:
    """The ``loops`` list of a YAML robot file or overlay."""
    if not isinstance(value, list):
        raise RobotFileError(path, "loops", "expected a list of loop closures")
    out = []
    for i, d in enumerate(value):
        where = f"loops[{i}]"
        fields.keys(path, where, d, LOOP_KEYS, required=("type", "frame1", "frame2"))
        name = d.get("name", f"loop{i}")
        if not isinstance(name, str) or not name:
            raise RobotFileError(path, f"{where}.name", "must be a non-empty string")
        where = f"loop {name!r}"
        kind = d["type"]
        if kind not in CLOSURE_KINDS:
            raise RobotFileError(path, f"{where}.type", f"unknown loop closure type {kind!r} "
                                 f"(known: {', '.join(CLOSURE_KINDS)})")
        (l1, X1), (l2, X2) = (_frame(path, f"{where}.frame{k}", d[f"frame{k}"]) for k in (1, 2))
        if X1 is None and X2 is None:
            raise RobotFileError(path, where, "place at least one of frame1 and frame2 (xyz, rpy or rotation)")
        out.append(ClosureSpec(name, where, kind, l1, l2, X1, X2))
    names = [c.name for c in out]
    for c in out:
        if names.count(c.name) > 1:
            raise RobotFileError(path, c.where, f"duplicate loop name {c.name!r}")
    return out


def _frame(path, where, d):
    fields.keys(path, where, d, FRAME_KEYS, required=("link",))
    if not isinstance(d["link"], str):
        raise RobotFileError(path, f"{where}.link", f"expected a link name, got {d['link']!r}")
    placed = any(k in d for k in ("xyz", "rpy", "rotation"))
    return d["link"], (fields.origin(path, where, d) if placed else None)


def resolve(path, specs, owner, robot) -> tuple:
    """The :class:`Closure` of each spec, its frames on the model's bodies (``owner``: link
    -> (body, R, r) of the merged layout); an unplaced frame at the neutral configuration."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses

    poses = None
    out = []
    for c in specs:
        for link in (c.link1, c.link2):
            if link not in owner:
                raise RobotFileError(path, c.where, f"link {link!r} is not defined")
        f1, f2 = (_on_body(f"{c.name}.{k}", owner[link], X) for k, link, X in
                  (("frame1", c.link1, c.X1), ("frame2", c.link2, c.X2)))
        if owner[c.link1][0] == owner[c.link2][0]:
            raise RobotFileError(path, c.where, f"links {c.link1!r} and {c.link2!r} are parts of one rigid body: "
                                 "a loop closure needs two bodies that move relative to each other")
        if f1 is None or f2 is None:
            if poses is None:
                poses = world_poses(robot, link_transforms(robot, robot.neutral_configuration(), NUMPY))
            placed, body = (f1, owner[c.link2]) if f2 is None else (f2, owner[c.link1])
            R, o = frame_pose(robot, poses, placed)
            Rb, ob = (np.eye(3), np.zeros(3)) if body[0] < 0 else poses[body[0]]
            X = (Rb.T @ R, Rb.T @ (o - ob))                       # in the other body's frame
            other = Frame(f"{c.name}.{'frame2' if f2 is None else 'frame1'}", body[0], *map(_frozen, X))
            f1, f2 = (f1, other) if f2 is None else (other, f2)
        out.append(Closure(c.name, c.kind, f1, f2, c.where))
    return tuple(out)


def _on_body(name, own, X):
    """A frame placed X in a link's frame, as a frame on the link's body (None if unplaced)."""
    if X is None:
        return None
    b, R, r = own
    return Frame(name, b, _frozen(R @ X[0]), _frozen(r + R @ X[1]))


def _frozen(a):
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a
