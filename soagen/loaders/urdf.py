"""URDF import with the standard library's XML parser and strict validation.

Supported joint types: revolute, continuous, prismatic, fixed (merged into the parent
body), floating (a 6-dof free joint), planar (3 dof in the plane normal to <axis>).
Inertial data follows the URDF specification: mass, inertia about the centre of mass in
the frame of <inertial><origin>. Gravity is URDF's implicit (0, 0, -9.81). Visual and
collision geometry, limits, transmissions and simulator extensions are ignored, and so is
<dynamics> unless the file is loaded with ``passive=True``: then its ``damping`` is the
joint's viscous damper (a passive force -d qd) and a non-zero ``friction`` (Coulomb) is
named in a warning, since it is not modelled. Armature comes from an overlay
(docs/robot-format.md). A <mimic> joint is an independent degree of freedom, as in Pinocchio's default
URDF import, but it must name a joint of the file. An element the model reads
(<inertial>, <origin>, <axis>, <parent>, ...) given twice is an error when the two
differ, not a silent choice of the first, and a warning when they are the same.

An element or attribute of a <link>, <joint> or <inertial> (or of their elements) that
URDF does not define is ignored with one warning line per link or joint naming them
(``<axiss>`` is a typo that would turn the joint about x; ``--strict`` refuses it).
Elements and attributes in an XML namespace (``<drake:rotor_inertia>``, ``<gazebo>``'s
plugins) are other tools' extensions, ignored as urdfdom ignores them; a namespace
prefix the file never declares (not well-formed XML, which urdfdom's TinyXML reads
anyway) is declared on the fly, its elements ignored with one warning for the file.
Whitespace before the XML declaration is skipped. A file with xacro macros is expanded first (:mod:`soagen.loaders.xacro`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np

from soagen.errors import RobotFileError
from soagen.loaders import fields
from soagen.loaders.description import Description, JointSpec, LinkSpec
from soagen.reproducible import congruence
from soagen.spatial import rpy_rotation

XACRO_NAMESPACES = ("{http://www.ros.org/wiki/xacro}", "{http://wiki.ros.org/xacro}")


UNDECLARED = "urn:soagen:undeclared-prefix:"
"""The namespace given to a prefix the file uses but never declares: {UNDECLARED}drake."""


def read_xml(path, text: str | None = None):
    """The root element of an XML file (``text``: its content when already read).
    Whitespace before the ``<?xml ...?>`` declaration, which XML forbids but files
    written by other tools carry (Pinocchio, the simulators and MuJoCo read them), is
    skipped, and so is a namespace prefix used but never declared (the prefix is declared
    on the root, in the :data:`UNDECLARED` namespace; :func:`undeclared_note` reports
    it); error lines stay those of the file."""
    try:
        data = text if text is not None else Path(path).read_bytes()
    except OSError as err:
        raise RobotFileError(path, "file", f"cannot read: {err}") from None
    body = data.lstrip()
    skipped = data[:len(data) - len(body)].count("\n" if isinstance(data, str) else b"\n")
    try:
        return ET.fromstring(body)
    except ET.ParseError as err:
        declared = _declare_prefixes(body) if "unbound prefix" in str(err) else None
        if declared is not None:
            try:
                return ET.fromstring(declared)
            except ET.ParseError:
                pass
        line = err.position[0] + skipped if err.position else "?"
        raise RobotFileError(path, f"line {line}", f"malformed XML: {err.msg if hasattr(err, 'msg') else err}") from None


_PROLOG = re.compile(r"\s*(<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>)", re.S)
_ROOT = re.compile(r"\s*<([A-Za-z_][\w.:-]*)")
_PREFIXED = re.compile(r"(?:</?|\s)([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*")


def _declare_prefixes(body):
    """``body`` (the XML text) with every namespace prefix it uses but its root does not
    declare declared on the root start tag (same line: error lines do not move); None
    when that cannot help (not text, no root, xacro's own prefix)."""
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError:
            return None
    pos = 0
    while (m := _PROLOG.match(body, pos)) is not None:
        pos = m.end()
    root = _ROOT.match(body, pos)
    if root is None:
        return None
    start_tag = body[root.start():body.find(">", root.end()) + 1]
    declared = set(re.findall(r"xmlns:([\w.-]+)\s*=", start_tag)) | {"xml", "xmlns"}
    used = sorted(set(_PREFIXED.findall(body)) - declared)
    if not used or "xacro" in used:
        return None
    extra = "".join(f' xmlns:{p}="{UNDECLARED}{p}"' for p in used)
    return body[:root.end()] + extra + body[root.end():]


def undeclared_note(root):
    """(where, problem) for the elements and attributes of prefixes the file never
    declared (read as urdfdom reads them: ignored), or None."""
    elements, attributes = Counter(), Counter()
    for e in root.iter():
        if isinstance(e.tag, str) and e.tag.startswith("{" + UNDECLARED):
            elements[_prefixed(e.tag)] += 1
        for k in e.attrib:
            if k.startswith("{" + UNDECLARED):
                attributes[_prefixed(k)] += 1
    if not elements and not attributes:
        return None
    prefixes = sorted({n.split(":")[0] for n in list(elements) + list(attributes)})
    listed = lambda c: ", ".join(f"{n} ({k}x)" if k > 1 else n for n, k in sorted(c.items()))   # noqa: E731
    parts = ([f"elements {listed(elements)}"] if elements else []) + \
        ([f"attributes {listed(attributes)}"] if attributes else [])
    return ("XML", f"namespace prefix{'es' if len(prefixes) > 1 else ''} {', '.join(prefixes)} never declared "
                   f"(xmlns:{prefixes[0]}=...): read as urdfdom reads the file, ignoring {' and '.join(parts)}")


def _prefixed(name):
    """'{urn:soagen:undeclared-prefix:drake}rotor_inertia' -> 'drake:rotor_inertia'."""
    uri, _, local = name[1:].partition("}")
    return f"{uri[len(UNDECLARED):]}:{local}"


def parse(path, text: str | None = None, passive: bool = False, xacro_args=None) -> Description:
    """The description of a URDF file (``text``: its XML when already read, e.g. the
    output of xacro; ``passive``: read <dynamics damping>; ``xacro_args``: {NAME: VALUE}
    if the file needs xacro)."""
    root = read_xml(path, text)
    if text is None and uses_xacro(root):
        from soagen.loaders.xacro import expand

        return parse(path, expand(path, xacro_args), passive)
    if root.tag != "robot":
        raise RobotFileError(path, f"<{root.tag}>", "the root element must be <robot>")
    notes = repeated(path, root)
    undeclared = undeclared_note(root)
    notes += [undeclared] if undeclared else []
    links = [_link(path, e) for e in root.findall("link")]
    if not links:
        raise RobotFileError(path, "<robot>", "no <link> elements")
    joints = [_joint(path, e) for e in root.findall("joint")]
    if passive:
        joints = [_dynamics(path, e, j) for e, j in zip(root.findall("joint"), joints)]
        rubbing = [j.name for j, _ in joints if _]
        joints = [j for j, _ in joints]
        if rubbing:
            notes.append((f"<joint name={rubbing[0]!r}>" + (f" and {len(rubbing) - 1} more" if len(rubbing) > 1 else ""),
                          "<dynamics friction> (Coulomb friction) is not modelled, only the viscous damping"))
    notes += unknown_notes(root)
    return Description(str(path), root.get("name") or path.stem, links, joints,
                       np.array([0.0, 0.0, -9.81]), notes=notes)


def uses_xacro(root) -> bool:
    """Whether the document contains xacro elements (<xacro:macro>, <xacro:property>...)."""
    return any(e.tag.startswith(XACRO_NAMESPACES) for e in root.iter() if isinstance(e.tag, str))


# The elements the model reads, per parent element: each at most once (or repeated with
# the same values, a warning; different values are an error, never a silent choice).
READ = {"link": ("inertial",), "inertial": ("mass", "inertia", "origin"),
        "joint": ("parent", "child", "origin", "axis", "mimic")}


def repeated(path, root):
    """The warnings (where, problem) for elements of :data:`READ` repeated with the same
    values (some exporters write an <axis> twice); a RobotFileError for a repeat with
    different values."""
    notes = []

    def visit(e, where):
        for tag in READ.get(e.tag, ()):
            found = e.findall(tag)
            if len(found) > 1:
                if len({_values(f) for f in found}) > 1:
                    raise RobotFileError(path, where, f"<{tag}> given {len(found)} times, with different values")
                notes.append((where, f"<{tag}> given {len(found)} times (with the same values)"))
            if found:
                visit(found[0], f"{where}/{tag}")

    for e in root:
        if e.tag in ("link", "joint"):
            visit(e, f"<{e.tag} name={e.get('name')!r}>")
    return notes


def _values(e):
    """An element's content, for comparing repeats: tag, attributes (numbers as numbers,
    so "1" equals "1.0"), text and children."""
    def value(text):
        try:
            return tuple(float(x) for x in text.split())
        except ValueError:
            return " ".join(text.split())
    return (e.tag, tuple(sorted((k, value(v)) for k, v in e.attrib.items())), value(e.text or ""),
            tuple(_values(c) for c in e))


def _one(path, where, e, tag, required=False):
    """The child element ``tag`` of ``e`` (repeats were checked by :func:`repeated`);
    exactly one if required."""
    found = e.find(tag)
    if required and found is None:
        raise RobotFileError(path, where, f"missing <{tag}>")
    return found


def _attr(path, where, e, name):
    value = e.get(name)
    if value is None:
        raise RobotFileError(path, where, f"missing attribute {name!r}")
    return value


def _origin(path, where, e):
    o = _one(path, where, e, "origin")
    if o is None:
        return np.eye(3), np.zeros(3)
    R = rpy_rotation(fields.text_vector(path, f"{where}/origin@rpy", o.get("rpy", "0 0 0")))
    r = fields.text_vector(path, f"{where}/origin@xyz", o.get("xyz", "0 0 0"))
    return R, r


# What URDF defines (wiki.ros.org/urdf/XML): the elements of a link, a joint and an
# inertial, and the attributes of each element (visual and collision are not looked into).
ELEMENTS = {"link": {"inertial", "visual", "collision"}, "inertial": {"origin", "mass", "inertia"},
            "joint": {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
                      "safety_controller"}}
ATTRIBUTES = {"link": {"name"}, "joint": {"name", "type"}, "inertial": set(), "origin": {"xyz", "rpy"},
              "parent": {"link"}, "child": {"link"}, "axis": {"xyz"}, "mass": {"value"},
              "inertia": set(fields.INERTIA_KEYS), "limit": {"lower", "upper", "effort", "velocity"},
              "dynamics": {"damping", "friction"}, "calibration": {"rising", "falling", "reference_position"},
              "mimic": {"joint", "multiplier", "offset"},
              "safety_controller": {"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}}


def unknown(e):
    """What URDF does not define in the link or joint ``e`` (its elements, its inertial's,
    and their attributes; namespaced extensions aside), each as the XML it would be,
    "<axiss>", "<origin xzy>", "<inertial><masss>", with the nearest name URDF has."""
    import difflib

    def hint(word, known):
        close = difflib.get_close_matches(word, sorted(known), n=1)
        return f" (did you mean {close[0]}?)" if close else ""

    out = []

    def visit(el, inside):
        for k in el.attrib:
            if not k.startswith("{") and k not in ATTRIBUTES.get(el.tag, ()):
                out.append(f"{inside}<{el.tag} {k}>{hint(k, ATTRIBUTES.get(el.tag, ()))}")
        for c in el:
            if not isinstance(c.tag, str) or c.tag.startswith("{"):
                continue
            within = inside + (f"<{el.tag}>" if el is not e else "")
            if el.tag in ELEMENTS and c.tag not in ELEMENTS[el.tag]:
                out.append(f"{within}<{c.tag}>{hint(c.tag, ELEMENTS[el.tag])}")
            elif c.tag in ATTRIBUTES and c.tag not in ("visual", "collision"):
                visit(c, within)

    visit(e, "")
    return out


def unknown_notes(root):
    """One (where, problem) per distinct set of :func:`unknown` findings, naming the links
    or joints that have it (a file's thirteen links with the same extension element give
    one line, a typo in one joint its own)."""
    groups = {}
    for e in root:
        if e.tag in ("link", "joint"):
            found = unknown(e)
            if found:
                groups.setdefault((e.tag, ", ".join(found)), []).append(e.get("name"))
    notes = []
    for (tag, found), names in groups.items():
        where = f"<{tag} name={names[0]!r}>" if len(names) == 1 else \
            f"{len(names)} {tag}s ({', '.join(map(repr, names[:3]))}{', ...' if len(names) > 3 else ''})"
        notes.append((where, f"ignored, not URDF: {found}"))
    return notes


def _link(path, e):
    name = e.get("name")
    if not name:
        raise RobotFileError(path, "<link>", "missing attribute 'name'")
    where = f"<link name={name!r}>"
    spec = LinkSpec(name, where)
    inertial = _one(path, where, e, "inertial")
    if inertial is None:
        return spec
    where_i = f"{where}/inertial"
    mass = _one(path, where_i, inertial, "mass", required=True)
    inertia = _one(path, where_i, inertial, "inertia", required=True)
    m = fields.text_number(path, f"{where_i}/mass", _attr(path, f"{where_i}/mass", mass, "value"))
    I = fields.inertia_matrix(path, f"{where_i}/inertia",
                              *(_attr(path, f"{where_i}/inertia", inertia, k) for k in fields.INERTIA_KEYS),
                              read=fields.text_number)
    R, c = _origin(path, where_i, inertial)
    if m == 0 and not I.any():
        return spec                           # an explicitly massless (virtual) link
    spec.has_inertial = True
    spec.mass, spec.com, spec.inertia = m, c, congruence(R, I)
    return spec


def _joint(path, e):
    name = e.get("name")
    if not name:
        raise RobotFileError(path, "<joint>", "missing attribute 'name'")
    where = f"<joint name={name!r}>"
    jtype = _attr(path, where, e, "type")
    links = {}
    for role in ("parent", "child"):
        el = _one(path, where, e, role)
        if el is None or not el.get("link"):
            raise RobotFileError(path, where, f"missing <{role} link=...>")
        links[role] = el.get("link")
    R, r = _origin(path, where, e)
    ax = _one(path, where, e, "axis")
    axis = fields.text_vector(path, f"{where}/axis@xyz", ax.get("xyz", "1 0 0"), bounded=False) \
        if ax is not None else np.array([1.0, 0.0, 0.0])
    mimic = _one(path, where, e, "mimic")
    if mimic is not None:
        for k in ("multiplier", "offset"):
            if k in mimic.attrib:
                fields.text_number(path, f"{where}/mimic@{k}", mimic.get(k))
        mimic = _attr(path, f"{where}/mimic", mimic, "joint")
    return JointSpec(name, where, jtype, links["parent"], links["child"], R, r, axis, mimic=mimic)


def _dynamics(path, e, j):
    """(the joint with the viscous damping of its <dynamics>, whether it also has Coulomb
    friction), for ``passive=True``."""
    from dataclasses import replace

    dyn = _one(path, j.where, e, "dynamics")
    if dyn is None or j.type == "fixed":
        return j, False
    values = {}
    for k in ("damping", "friction"):
        values[k] = fields.text_number(path, f"{j.where}/dynamics@{k}", dyn.get(k, "0"))
        if values[k] < 0:
            raise RobotFileError(path, f"{j.where}/dynamics@{k}", f"cannot be negative, got {values[k]:g}")
    return replace(j, damping=values["damping"]), bool(values["friction"])
