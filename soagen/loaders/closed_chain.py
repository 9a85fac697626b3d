"""The YAML system file (schema: docs/closed-chains.md) -> a validated :class:`System`.

Strict like the robot format: unknown keys are errors, every problem is one line
``path: element: problem`` (:class:`~soagen.errors.RobotFileError`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import yaml

from soagen.closed_chain import grasps
from soagen.closed_chain.system import GRASP_KINDS, Arm, Grasp, HeldObject, System
from soagen.errors import RobotFileError
from soagen.loaders import fields
from soagen.loaders.description import LinkSpec
from soagen.loaders.inertial import check_mass_properties
from soagen.loaders.yamlfile import read_yaml
from soagen.reproducible import matmul
from soagen.tolerances import GRASP_SPACE

TOP_KEYS = {"name", "description", "source", "type", "gravity", "object", "arms"}
OBJECT_KEYS = {"name", "mass", "com", "inertia", "pose", "frames"}
POSE_KEYS = {"xyz", "rpy", "rotation"}
ARM_KEYS = {"name", "robot", "tip", "base", "q0", "grasp"}
GRASP_KEYS = {"frame", "type", "axis", "normal", "motion", "constraint"}
INERTIA_KEYS = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")


def load_system(path) -> System:
    """Load and validate a closed-chain system file (arms, held object, grasps), given by
    its path or, for a bundled one, its name (``load_system("dual_arm_box")``)."""
    from soagen.loaders.bundled import resolve

    path = resolve(path)
    doc = read_yaml(path)          # one-line errors; duplicate keys refused
    if isinstance(doc, dict) and "links" in doc and "arms" not in doc:
        raise RobotFileError(path, "file", "this is a robot file; a system file names 'arms' and "
                             "an 'object' (docs/closed-chains.md)")
    fields.keys(path, "file", doc, TOP_KEYS, ("object", "arms"))
    name = doc.get("name", path.stem)
    if not isinstance(name, str):
        raise RobotFileError(path, "name", "must be a string")
    kind = doc.get("type", 0)
    if kind not in (0, 1):
        raise RobotFileError(path, "type", f"must be 0 (arms holding an object) or 1 (legs carrying a body), got {kind!r}")
    gravity = fields.vector(path, "gravity", doc.get("gravity", [0, 0, -9.81]))
    obj = _object(path, doc["object"])
    if not isinstance(doc["arms"], list) or not doc["arms"]:
        raise RobotFileError(path, "arms", "expected a non-empty list")
    arms = [_arm(path, i, a, obj, gravity) for i, a in enumerate(doc["arms"])]
    names = [a.name for a in arms]
    for n in names:
        if names.count(n) > 1:
            raise RobotFileError(path, f"arm {n!r}", "arm names must be unique")
    return System(name, str(path), kind, gravity, obj, tuple(arms))


def _pose(path, where, d):
    d = {} if d is None else d
    fields.keys(path, where, d, POSE_KEYS)
    return fields.origin(path, where, d)


def _object(path, d):
    fields.keys(path, "object", d, OBJECT_KEYS, ("mass", "inertia", "frames"))
    name = d.get("name", "object")
    mass = fields.number(path, "object.mass", d["mass"])
    com = fields.vector(path, "object.com", d.get("com", [0, 0, 0]))
    fields.keys(path, "object.inertia", d["inertia"], set(INERTIA_KEYS), INERTIA_KEYS)
    inertia = fields.inertia_matrix(path, "object.inertia", *(d["inertia"][k] for k in INERTIA_KEYS))
    check_mass_properties(path, LinkSpec(name, "object", mass, com, inertia, True))
    R0, p0 = _pose(path, "object.pose", d.get("pose"))
    if not isinstance(d["frames"], dict) or not d["frames"]:
        raise RobotFileError(path, "object.frames", "expected a mapping of grasp frame names to poses")
    frames = {str(k): _pose(path, f"object.frames.{k}", v) for k, v in d["frames"].items()}
    return HeldObject(str(name), mass, com, inertia, R0, p0, frames)


def _arm(path, i, d, obj, gravity):
    where = f"arms[{i}]"
    fields.keys(path, where, d, ARM_KEYS, ("robot", "grasp"))
    name = d.get("name", f"arm{i + 1}")
    if not isinstance(name, str) or not name:
        raise RobotFileError(path, f"{where}.name", "must be a non-empty string")
    where = f"arm {name!r}"
    if not isinstance(d["robot"], str):
        raise RobotFileError(path, f"{where}.robot", "expected the path of a robot file")
    robot_path = (path.parent / d["robot"]).resolve()
    if not robot_path.is_file():
        raise RobotFileError(path, f"{where}.robot", f"no such robot file {d['robot']!r}")
    from soagen.loaders import load
    robot = load(robot_path, tip=d.get("tip"))
    if not robot.is_chain:
        raise RobotFileError(path, f"{where}.robot", "must be a serial chain (one branch from base to tip)")
    if robot.is_flexible or any(b.joint.elastic for b in robot.bodies):
        raise RobotFileError(path, f"{where}.robot", "flexible links and spring-damper joints are not supported "
                             "in closed chains (docs/flexible.md, Limits)")
    bad = [b.joint_name for b in robot.bodies if b.joint.kind not in ("revolute", "prismatic")]
    if bad:
        raise RobotFileError(path, f"{where}.robot", f"joint {bad[0]!r}: only revolute and prismatic joints are supported in arms")
    base_R, base_r = _pose(path, f"{where}.base", d.get("base"))
    # the arm's own gravity, in its base frame, comes from the system (3.21)
    robot = replace(robot, gravity=matmul(base_R.T, gravity))
    q0 = d.get("q0", [0.0] * robot.nv)
    if not isinstance(q0, list) or len(q0) != robot.nv:
        raise RobotFileError(path, f"{where}.q0", f"expected {robot.nv} joint values, got {q0!r}")
    q0 = np.array([fields.number(path, f"{where}.q0", x) for x in q0])
    grasp = _grasp(path, f"{where}.grasp", d["grasp"], obj)
    return Arm(name, robot, base_R, base_r, q0, grasp)


def _grasp(path, where, d, obj):
    fields.keys(path, where, d, GRASP_KEYS, ("frame", "type"))
    frame, kind = d["frame"], d["type"]
    for k, value in (("frame", frame), ("type", kind)):
        if not isinstance(value, str):
            raise RobotFileError(path, f"{where}.{k}", f"expected a name, got {value!r}")
    if kind not in GRASP_KINDS:
        raise RobotFileError(path, f"{where}.type", f"unknown grasp type {kind!r} (known: {', '.join(GRASP_KINDS)})")
    if frame not in obj.frames:
        raise RobotFileError(path, f"{where}.frame", f"no frame {frame!r} on the object (defined: {', '.join(obj.frames)})")
    need = {"revolute": "axis", "soft_finger": "normal"}.get(kind)
    if need and need not in d:
        raise RobotFileError(path, where, f"missing {need!r} for a {kind} grasp")
    extra = {"axis", "normal", "motion", "constraint"} & set(d) - {need} - ({"motion", "constraint"} if kind == "general" else set())
    if extra:
        raise RobotFileError(path, where, f"{sorted(extra)[0]!r} does not apply to a {kind} grasp")
    vec = fields.vector(path, f"{where}.{need}", d[need]) if need else None
    if vec is not None and np.linalg.norm(vec) < GRASP_SPACE:
        raise RobotFileError(path, f"{where}.{need}", "must be a non-zero vector")
    try:
        kw = {}
        if kind == "general":
            if "motion" not in d and "constraint" not in d:
                raise ValueError("give 'motion' (phi) and/or 'constraint' (phi^c) as lists of 6-vectors")
            kw = {k: _columns(path, f"{where}.{k}", d[k]) for k in ("motion", "constraint") if k in d}
        phi, phic, hol = grasps.spaces(kind, axis=vec, normal=vec, **kw)
    except ValueError as err:
        raise RobotFileError(path, where, str(err)) from None
    R, r = obj.frames[frame]
    return Grasp(kind, frame, R, r, phi, phic, hol)


def _columns(path, where, value):
    if not isinstance(value, list):
        raise RobotFileError(path, where, "expected a list of 6-vectors (columns, angular first)")
    cols = [fields.vector(path, where, v, n=6) for v in value]
    return np.array(cols).T if cols else np.zeros((6, 0))


def is_system_file(path) -> bool:
    """True for a YAML file with the top-level ``arms`` of a system file (so that
    ``soagen generate`` accepts robot and system files alike)."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return False
    try:
        doc = yaml.safe_load(path.read_text())
    except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "arms" in doc
