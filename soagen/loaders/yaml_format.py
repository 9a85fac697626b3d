"""The soagen YAML robot format (schema: docs/robot-format.md).

Strict: unknown and duplicate keys are errors (a typo must not silently drop a
parameter, a repeated key must not silently replace one), and values must have the
right YAML type (a mass written as the string "1.0" is refused)."""

from __future__ import annotations

from soagen.errors import RobotFileError
from soagen.loaders import fields
from soagen.loaders.description import Description, JointSpec, LinkSpec, TipSpec
from soagen.loaders.yamlfile import read_yaml
from soagen.reproducible import congruence, matmul

TOP_KEYS = {"name", "description", "source", "gravity", "links", "joints", "tip", "loops"}
OVERLAY_KEYS = {"name", "description", "overlay", "flexible", "springs", "armature", "loops"}
LINK_KEYS = {"name", "mass", "com", "inertia", "inertial_frame", "flexible"}
SPRING_KEYS = {"stiffness", "damping", "rest", "actuated"}
JOINT_KEYS = {"name", "type", "parent", "child", "xyz", "rpy", "rotation", "axis", "axis2", "armature"} | SPRING_KEYS
TIP_KEYS = {"link", "xyz", "rpy", "rotation"}
INERTIA_KEYS = fields.INERTIA_KEYS


def parse(path, parse_base=None) -> Description:
    """The description of a YAML robot file; an overlay's base file is read with
    ``parse_base`` (:func:`soagen.loaders.parse`, any format)."""
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise RobotFileError(path, "file", "expected a mapping with 'links' and 'joints'")
    if "overlay" in doc:
        return parse_overlay(path, doc, parse_base)
    fields.keys(path, "file", doc, TOP_KEYS, required=("links", "joints"))
    links = [_link(path, i, x) for i, x in enumerate(_list(path, "links", doc["links"]))]
    joints = [_joint(path, i, x) for i, x in enumerate(_list(path, "joints", doc["joints"]))]
    gravity = fields.vector(path, "gravity", doc.get("gravity", [0, 0, -9.81]))
    tip = _tip(path, doc["tip"]) if "tip" in doc else None
    name = doc.get("name", path.stem)
    if not isinstance(name, str):
        raise RobotFileError(path, "name", "must be a string")
    return Description(str(path), name, links, joints, gravity, tip, closures=_loops(path, doc))


def _loops(path, doc):
    """The loop closures of the ``loops`` key (:mod:`soagen.loaders.closures`)."""
    if "loops" not in doc:
        return []
    from soagen.loaders.closures import parse_yaml

    return parse_yaml(path, doc["loops"])


def _list(path, where, value):
    if not isinstance(value, list) or not value:
        raise RobotFileError(path, where, "expected a non-empty list")
    return value


def _name(path, where, d):
    name = d["name"]
    if not isinstance(name, str) or not name:
        raise RobotFileError(path, where, "name must be a non-empty string")
    return name


def _link(path, i, d):
    where = f"links[{i}]"
    fields.keys(path, where, d, LINK_KEYS, required=("name",))
    name = _name(path, where, d)
    where = f"link {name!r}"
    spec = LinkSpec(name, where)
    if "mass" in d or "inertia" in d or "com" in d:
        for k in ("mass", "inertia"):
            if k not in d:
                raise RobotFileError(path, where, f"missing {k!r} (mass and inertia go together)")
        spec.has_inertial = True
        spec.mass = fields.number(path, f"{where}.mass", d["mass"])
        spec.com = fields.vector(path, f"{where}.com", d.get("com", [0, 0, 0]))
        I = d["inertia"]
        fields.keys(path, f"{where}.inertia", I, set(INERTIA_KEYS), required=INERTIA_KEYS)
        spec.inertia = fields.inertia_matrix(path, f"{where}.inertia", *(I[k] for k in INERTIA_KEYS))
        if "inertial_frame" in d:     # com and inertia given in this frame (URDF <inertial><origin>)
            fields.keys(path, f"{where}.inertial_frame", d["inertial_frame"], {"xyz", "rpy", "rotation"})
            R, r = fields.origin(path, f"{where}.inertial_frame", d["inertial_frame"])
            spec.com, spec.inertia = r + matmul(R, spec.com), congruence(R, spec.inertia)
    elif "inertial_frame" in d:
        raise RobotFileError(path, where, "'inertial_frame' without 'mass' and 'inertia'")
    if "flexible" in d:
        from soagen.loaders.flexible import parse_spec

        spec.flexible = parse_spec(path, where, d["flexible"])
    return spec


def _joint(path, i, d):
    where = f"joints[{i}]"
    fields.keys(path, where, d, JOINT_KEYS, required=("name", "type", "parent", "child"))
    name = _name(path, where, d)
    where = f"joint {name!r}"
    for k in ("type", "parent", "child"):
        if not isinstance(d[k], str):
            raise RobotFileError(path, f"{where}.{k}", f"expected a string, got {d[k]!r}")
    R, r = fields.origin(path, where, d)
    needs_axis = d["type"] in ("revolute", "continuous", "prismatic", "universal")
    if needs_axis and "axis" not in d:
        raise RobotFileError(path, where, f"missing required key 'axis' for a {d['type']} joint")
    axis = fields.vector(path, f"{where}.axis", d.get("axis", [0, 0, 1]), bounded=False)
    axis2 = fields.vector(path, f"{where}.axis2", d["axis2"], bounded=False) if "axis2" in d else None
    extra = {"armature": _armature(path, f"{where}.armature", d["armature"])} if "armature" in d else {}
    return JointSpec(name, where, d["type"], d["parent"], d["child"], R, r, axis, axis2,
                     **_spring(path, where, d), **extra)


def _spring(path, where, d):
    """A joint's passive forces: stiffness and damping (>= 0), rest position, and whether
    the joint is actuated (by default not when it has a spring or a damper: a
    spring-damper joint, Swain-Morris C.2)."""
    out = {}
    for k in ("stiffness", "damping"):
        if k in d:
            out[k] = fields.number(path, f"{where}.{k}", d[k])
            if out[k] < 0:
                raise RobotFileError(path, f"{where}.{k}", f"cannot be negative, got {out[k]:g}")
    if "rest" in d:
        out["rest"] = fields.number(path, f"{where}.rest", d["rest"])
    if "actuated" in d and not isinstance(d["actuated"], bool):
        raise RobotFileError(path, f"{where}.actuated", f"expected true or false, got {d['actuated']!r}")
    out["actuated"] = d.get("actuated", not (out.get("stiffness") or out.get("damping")))
    return out


def _armature(path, where, value):
    """J_m: a number >= 0 or a list of them (one per dof; checked against the joint in build)."""
    if isinstance(value, list):
        return [fields.number(path, f"{where}[{n}]", x) for n, x in enumerate(value)]
    return fields.number(path, where, value)


def parse_overlay(path, doc, parse_base) -> Description:
    """An overlay: another robot file (``overlay:``, relative to this one; URDF, YAML,
    xacro or MJCF) with some links made flexible (``flexible: {LINK: {...}}``) and some
    joints made spring-damper joints (``springs: {JOINT: {stiffness, damping, rest, actuated}}``),
    rotor inertias (``armature: {JOINT: J_m}``) and loop closures added (``loops:``,
    :mod:`soagen.loaders.closures`)."""
    from dataclasses import replace
    from pathlib import Path

    from soagen.loaders.flexible import parse_spec

    fields.keys(path, "file", doc, OVERLAY_KEYS, required=("overlay",))
    if not isinstance(doc["overlay"], str):
        raise RobotFileError(path, "overlay", "expected the robot file to overlay, as a path")
    base = Path(path).parent / doc["overlay"]
    if not base.is_file():
        raise RobotFileError(path, "overlay", f"no such robot file {doc['overlay']!r}")
    d = parse_base(base)
    links = {link.name: link for link in d.links}
    flexible = doc.get("flexible", {})
    fields.keys(path, "flexible", flexible, set(links))
    for name, spec in flexible.items():
        links[name].flexible = parse_spec(path, f"flexible.{name}", spec)
    springs = doc.get("springs", {})
    joints = {j.name: j for j in d.joints}
    fields.keys(path, "springs", springs, set(joints))
    for name, sd in springs.items():
        fields.keys(path, f"springs.{name}", sd, SPRING_KEYS)
        sp = _spring(path, f"springs.{name}", sd)
        joints[name].stiffness, joints[name].damping, joints[name].rest = (
            sp.get(k, 0.0) for k in ("stiffness", "damping", "rest"))
        joints[name].actuated = sp["actuated"]
    armature = doc.get("armature", {})
    moving = {n for n, j in joints.items() if j.type != "fixed"}
    fields.keys(path, "armature", armature, moving)
    for name, value in armature.items():
        joints[name].armature = _armature(path, f"armature.{name}", value)
    name = doc.get("name", f"{d.name}_flexible")
    if not isinstance(name, str):
        raise RobotFileError(path, "name", "must be a string")
    return replace(d, name=name, path=str(path),     # the model's source is the overlay the user loaded
                   closures=list(d.closures) + _loops(path, doc))


def _tip(path, d):
    fields.keys(path, "tip", d, TIP_KEYS, required=("link",))
    if not isinstance(d["link"], str):
        raise RobotFileError(path, "tip.link", "expected a link name")
    R, r = fields.origin(path, "tip", d)
    return TipSpec(d["link"], "tip", R, r)
