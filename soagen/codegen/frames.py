"""The frames of a robot the frame functions are generated at (Jacobian, Jdot qd,
J M^-1 J^T): the tip, the frames a user names (``--frames``), or by default every leaf
frame of a branching robot; and their names as identifier suffixes."""

from __future__ import annotations

import re

from soagen.errors import SoagenError


def frame_suffix(name):
    """A frame name as the end of a C/Python identifier (other characters become _)."""
    return re.sub(r"\W", "_", name, flags=re.ASCII)


END_EFFECTOR = re.compile(r"sole|foot|feet|toe|gripper|hand|tool|tcp|tip|effector|flange|(^|[\W_])ee([\W_]|$)",
                          re.IGNORECASE)


def leaf_frames(robot):
    """The default frames of a branching robot: one per leaf body (a body no other body
    hangs from: a foot, a hand, a finger, a head): the last link welded to it whose name
    says end effector (sole, foot, gripper, hand, tool, tcp, tip, flange, ee ...), else
    the body's own link. ANYmal: LF_FOOT ...; TALOS: left_sole_link, the gripper links,
    head_2_link; Romeo: l_sole, l_gripper ...; the Panda: its two fingers."""
    has_child = {b.parent for b in robot.bodies}
    pick = {}
    for f in robot.frames:                   # the file's links, parents before children
        if f.body < 0 or f.body in has_child:
            continue
        if f.name == robot.bodies[f.body].name:
            pick.setdefault(f.body, f)
        elif END_EFFECTOR.search(f.name):
            pick[f.body] = f
    return [pick[i] for i in sorted(pick)]


def frames_named(robot, names):
    """The frames ``names`` (link names of the robot file), checked: one line naming an
    unknown frame and two identifiers that would collide."""
    known = {f.name: f for f in robot.frames}
    out, seen = [], {}
    for n in names:
        if n not in known:
            hint = ", ".join(f.name for f in leaf_frames(robot))
            raise SoagenError(f"{robot.name}: --frames: no link named {n!r} (the leaf frames are: {hint})")
        s = frame_suffix(n)
        if s in seen and seen[s] != n:
            raise SoagenError(f"{robot.name}: --frames: {seen[s]!r} and {n!r} both become the identifier suffix {s!r}")
        if s not in seen:
            seen[s] = n
            out.append(known[n])
    return out


def frames_for(robot, frames=None):
    """The frames the frame functions (Jacobian, Jdot qd, J M^-1 J^T) are generated for:
    those named (``frames``: link names), else None for a robot with a tip frame (one
    function each, at the tip), else every leaf frame of the tree
    (:func:`leaf_frames`)."""
    if frames:
        return frames_named(robot, frames)
    return None if robot.tip is not None else leaf_frames(robot)
