"""URDF import with the standard library's XML parser and strict validation.

Supported joint types: revolute, continuous, prismatic, fixed (merged into the parent
body), floating (a 6-dof free joint), planar (3 dof in the plane normal to <axis>).
Inertial data follows the URDF specification: mass,
inertia about the centre of mass in the frame of <inertial><origin>. Gravity is URDF's
implicit (0, 0, -9.81). Visual and collision geometry is ignored, and so is <mimic>: a mimic joint is an
independent degree of freedom here, as in Pinocchio's default URDF import.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from soagen.errors import RobotFileError
from soagen.loaders import fields
from soagen.loaders.description import Description, JointSpec, LinkSpec

UNSUPPORTED = {}          # every URDF joint type is supported (planar: normal = <axis>)


def parse(path) -> Description:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as err:
        line = err.position[0] if err.position else "?"
        raise RobotFileError(path, f"line {line}", f"malformed XML: {err.msg if hasattr(err, 'msg') else err}") from None
    except OSError as err:
        raise RobotFileError(path, "file", f"cannot read: {err}") from None
    if root.tag != "robot":
        raise RobotFileError(path, f"<{root.tag}>", "the root element must be <robot>")
    links = [_link(path, e) for e in root.findall("link")]
    if not links:
        raise RobotFileError(path, "<robot>", "no <link> elements")
    joints = [_joint(path, e) for e in root.findall("joint")]
    return Description(str(path), root.get("name") or path.stem, links, joints,
                       np.array([0.0, 0.0, -9.81]))


def _attr(path, where, e, name):
    value = e.get(name)
    if value is None:
        raise RobotFileError(path, where, f"missing attribute {name!r}")
    return value


def _origin(path, where, e):
    o = e.find("origin")
    if o is None:
        return np.eye(3), np.zeros(3)
    R = fields.rpy(path, f"{where}/origin@rpy", o.get("rpy", "0 0 0"))
    r = fields.vector(path, f"{where}/origin@xyz", o.get("xyz", "0 0 0"))
    return R, r


def _link(path, e):
    name = e.get("name")
    if not name:
        raise RobotFileError(path, "<link>", "missing attribute 'name'")
    where = f"<link name={name!r}>"
    spec = LinkSpec(name, where)
    inertial = e.find("inertial")
    if inertial is None:
        return spec
    mass = inertial.find("mass")
    inertia = inertial.find("inertia")
    if mass is None or inertia is None:
        raise RobotFileError(path, f"{where}/inertial", "needs both <mass> and <inertia>")
    m = fields.number(path, f"{where}/inertial/mass", _attr(path, f"{where}/inertial/mass", mass, "value"))
    I = fields.inertia_matrix(path, f"{where}/inertial/inertia",
                              *(_attr(path, f"{where}/inertial/inertia", inertia, k)
                                for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")))
    R, c = _origin(path, f"{where}/inertial", inertial)
    if m == 0 and not I.any():
        return spec                           # an explicitly massless (virtual) link
    spec.has_inertial = True
    spec.mass, spec.com, spec.inertia = m, c, R @ I @ R.T
    return spec


def _joint(path, e):
    name = e.get("name")
    if not name:
        raise RobotFileError(path, "<joint>", "missing attribute 'name'")
    where = f"<joint name={name!r}>"
    jtype = _attr(path, where, e, "type")
    if jtype in UNSUPPORTED:
        raise RobotFileError(path, where, UNSUPPORTED[jtype])
    links = {}
    for role in ("parent", "child"):
        el = e.find(role)
        if el is None or not el.get("link"):
            raise RobotFileError(path, where, f"missing <{role} link=...>")
        links[role] = el.get("link")
    R, r = _origin(path, where, e)
    ax = e.find("axis")
    axis = fields.vector(path, f"{where}/axis@xyz", ax.get("xyz", "1 0 0")) if ax is not None \
        else np.array([1.0, 0.0, 0.0])
    return JointSpec(name, where, jtype, links["parent"], links["child"], R, r, axis)
