"""MJCF (MuJoCo's model format) through MuJoCo's own compiler, an optional dependency
(``pip install soagen[mjcf]``): defaults, includes, ``<freejoint>``, inertias computed
from geoms and every other MJCF rule are MuJoCo's; this module reads the compiled
model's body tree, joints and inertias.

Mapping (docs/robot-format.md, "MJCF"):

* the world body is the fixed base; a body without joints is welded to its parent (a
  fixed joint); a site becomes a massless link on its body (a frame, e.g. a tip);
* hinge, slide, ball and free joints become revolute, prismatic, spherical and free
  joints. A body with several joints gets one link per joint, at the joint's anchor,
  in MuJoCo's order (each joint moves the frame the previous ones moved);
* q equals MuJoCo's qpos (``ref`` offsets are built into the placements), except that
  quaternions are (x, y, z, w) here and (w, x, y, z) in MuJoCo. A free joint's qpos is
  its body's world pose, so it sits at the world origin and the body's own
  ``pos``/``quat``/``euler`` are not a placement (they are MuJoCo's qpos0); Velocities: hinge,
  slide and ball alike (ball: angular velocity in the body frame); a free joint's v is
  (omega, v) in the body frame, MuJoCo's qvel is (v in the world frame, omega in the
  body frame);
* gravity is the compiled ``opt.gravity``, zero when ``<flag gravity="disable"/>``;
* a joint's ``armature`` (MuJoCo's ``dof_armature``, defaults and classes applied by the
  compiler) is its rotor inertia J_m; its ``damping`` (``dof_damping``) and ``stiffness``
  with ``springref`` (``jnt_stiffness``, ``qpos_spring``) are its passive forces
  -d qd - k (q - q_spring), MuJoCo's ``qfrc_damper`` and ``qfrc_spring`` (not read where
  ``<flag spring="disable"/>`` or ``damper="disable"`` switches them off);
* ``connect`` and ``weld`` equality constraints become loop closures of the robot
  (:func:`equality_constraints`);
* what the model leaves out is named in one warning line per kind (:func:`unmodelled`,
  :func:`equality_constraints`): friction loss, gravity compensation, fluid forces, tendons,
  deformable (flex) bodies, actuators, contacts, the other equality constraints, and
  MuJoCo's nonlinear passive forces (joint limits, as in URDF, are not part of the model
  and not named).
"""

from __future__ import annotations

import numpy as np

from soagen.errors import RobotFileError
from soagen.loaders.description import Description, JointSpec, LinkSpec
from soagen.reproducible import CONSTANTS, congruence, matmul, norm
from soagen.spatial import quaternion_rotation

KINDS = {0: "floating", 1: "spherical", 2: "prismatic", 3: "revolute"}   # mjtJoint: FREE, BALL, SLIDE, HINGE


def compile_model(path):
    """MuJoCo's compiled model of an MJCF file (errors on one line) and MuJoCo's warnings."""
    try:
        import mujoco
    except ImportError:
        raise RobotFileError(path, "file", "MJCF files are read with MuJoCo's compiler: "
                             "pip install soagen[mjcf] (the mujoco package)") from None
    messages, previous = [], mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(messages.append)      # not MuJoCo's default: a log file in the cwd
    try:
        return mujoco.MjModel.from_xml_path(str(path)), messages
    except Exception as err:         # MuJoCo reports XML and compile errors as ValueError
        text = " ".join(str(err).split())
        raise RobotFileError(path, "MJCF", f"MuJoCo cannot compile it: {text[:300]}") from None
    finally:
        mujoco.set_mju_user_warning(previous)


def parse(path) -> Description:
    m, warned = compile_model(path)
    import mujoco

    def name(kind, i, default):
        return mujoco.mj_id2name(m, kind, i) or default

    body_names = [name(mujoco.mjtObj.mjOBJ_BODY, b, f"body{b}") for b in range(m.nbody)]
    links, joints = [LinkSpec(body_names[0], "<worldbody>")], []
    notes = [("MJCF", f"MuJoCo: {' '.join(w.split())}") for w in dict.fromkeys(warned)]
    frame_of = {0: body_names[0]}       # body -> the link that carries its mass and children
    anchor = {0: np.zeros(3)}           # body -> that link's origin, in the body frame
    for b in range(1, m.nbody):
        where = f"<body name={body_names[b]!r}>"
        parent = int(m.body_parentid[b])
        R = _rotation(m.body_quat[b])
        r = m.body_pos[b] - anchor[parent]      # placement in the parent's link frame
        link, pos = frame_of[parent], np.zeros(3)
        for k, j in enumerate(range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b])):
            jname = name(mujoco.mjtObj.mjOBJ_JOINT, j, f"joint{j}")
            kind = KINDS[int(m.jnt_type[j])]
            last = k == m.body_jntnum[b] - 1
            child = body_names[b] if last else f"{body_names[b]}:{jname}"
            axis = np.array(m.jnt_axis[j], dtype=float)
            new = np.zeros(3) if kind == "floating" else np.array(m.jnt_pos[j], dtype=float)
            Rj, rj = R, r + matmul(R, new - pos)
            if kind == "floating":          # qpos is the body's world pose (MuJoCo: top-level bodies
                Rj, rj = np.eye(3), np.zeros(3)     # only); its pos/quat are only MuJoCo's qpos0
            if kind in ("revolute", "prismatic"):       # q = qpos: undo MuJoCo's qpos0 (ref)
                ref = float(m.qpos0[m.jnt_qposadr[j]])
                if kind == "revolute":
                    Rj = matmul(Rj, _axis_rotation(axis, -ref))
                else:
                    rj = rj - matmul(Rj, axis) * ref
            joints.append(JointSpec(jname, f"<joint name={jname!r}>", kind, link, child, Rj, rj, axis,
                                    **joint_properties(m, j)))
            if not last:
                links.append(LinkSpec(child, f"{where} (joint {jname!r})"))
            link, pos, R, r = child, new, np.eye(3), np.zeros(3)
        if m.body_jntnum[b] == 0:
            joints.append(JointSpec(f"{body_names[b]}_weld", where, "fixed", link, body_names[b], R, r,
                                    np.array([0.0, 0.0, 1.0])))
        frame_of[b], anchor[b] = body_names[b], pos
        spec = LinkSpec(body_names[b], where)
        if m.body_mass[b] > 0 or np.any(m.body_inertia[b]):
            Ri = _rotation(m.body_iquat[b])
            spec.mass, spec.has_inertial = float(m.body_mass[b]), True
            spec.com = m.body_ipos[b] - pos
            spec.inertia = congruence(Ri, np.diag(m.body_inertia[b]))
        links.append(spec)
    names = {l.name for l in links}
    for s in range(m.nsite):
        sname = name(mujoco.mjtObj.mjOBJ_SITE, s, "")
        if not sname:
            continue
        sname = sname if sname not in names else f"site:{sname}"
        b = int(m.site_bodyid[s])
        links.append(LinkSpec(sname, f"<site name={sname!r}>"))
        joints.append(JointSpec(f"{sname}_site", f"<site name={sname!r}>", "fixed", frame_of[b], sname,
                                _rotation(m.site_quat[s]), m.site_pos[s] - anchor[b], np.array([0.0, 0.0, 1.0])))
    notes += unmodelled(m, name)
    closures, others = equality_constraints(m, body_names, anchor)
    notes += others
    model_name = name(mujoco.mjtObj.mjOBJ_MODEL, 0, "")
    model_name = path.stem if model_name in ("", "MuJoCo Model") else model_name
    return Description(str(path), model_name, links, joints, gravity(m), notes=notes, closures=closures)


EQUALITY = {0: "connect", 1: "weld", 2: "joint", 3: "tendon", 4: "flex", 5: "flexvert", 6: "flexstrain",
            7: "distance"}                           # mjtEq


def equality_constraints(m, body_names, anchor):
    """(closures, notes): the compiled model's active ``connect`` and ``weld`` equality
    constraints as loop closures (:class:`~soagen.loaders.closures.ClosureSpec`), and one
    note per kind of the others (joint, tendon, flex couplings and inactive ones: not
    modelled). MuJoCo has completed the data at compile time: a connect's eq_data is the
    anchor in body1's frame, then the same point in body2's frame at qpos0; a weld's is the
    anchor in body2's frame, the same point in body1's frame and body2's orientation in
    body1's frame (quaternion w x y z), and a torque scale. Between sites, the sites' own frames (points) are held together.
    MuJoCo imposes them softly (solref, solimp); soagen as exact constraints."""
    import mujoco

    from soagen.loaders.closures import ClosureSpec

    closures, other = [], {}
    for e in range(m.neq):
        kind = EQUALITY.get(int(m.eq_type[e]), f"type {int(m.eq_type[e])}")
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, e) or f"equality{e}"
        if kind not in ("connect", "weld") or not m.eq_active0[e]:
            key = kind if m.eq_active0[e] else f"inactive {kind}"
            other[key] = other.get(key, 0) + 1
            continue
        ids, data = (int(m.eq_obj1id[e]), int(m.eq_obj2id[e])), np.asarray(m.eq_data[e], dtype=float)
        if int(m.eq_objtype[e]) == int(mujoco.mjtObj.mjOBJ_SITE):
            bodies = [int(m.site_bodyid[s]) for s in ids]
            X1, X2 = ((_rotation(m.site_quat[s]), np.array(m.site_pos[s], dtype=float)) for s in ids)
        elif kind == "connect":
            bodies = list(ids)
            X1, X2 = (np.eye(3), data[0:3]), (np.eye(3), data[3:6])
        else:                               # weld: body2's axes at the anchor, and where body1 holds them
            bodies = list(ids)
            X1, X2 = (_rotation(data[6:10]), data[3:6]), (np.eye(3), data[0:3])
        (l1, X1), (l2, X2) = ((body_names[b], (R, r - anchor[b])) for b, (R, r) in zip(bodies, (X1, X2)))
        closures.append(ClosureSpec(name, f"<{kind} name={name!r}>", kind, l1, l2, X1, X2))
    notes = [("<equality>", f"{n} {k} equality constraint{'s' if n > 1 else ''} not modelled "
              "(soagen models connect and weld as loop closures)") for k, n in sorted(other.items())]
    return closures, notes


DOF_COUNT = {0: 6, 1: 3, 2: 1, 3: 1}          # dofs per mjtJoint


def joint_properties(m, j):
    """The armature, damping, stiffness and spring rest position of MuJoCo joint j
    (JointSpec fields). MuJoCo gives every dof of a joint the joint's damping and
    armature; a spring on a ball or free joint is not modelled (:func:`unmodelled`)."""
    import mujoco

    dofs = slice(m.jnt_dofadr[j], m.jnt_dofadr[j] + DOF_COUNT[int(m.jnt_type[j])])
    out = {"armature": tuple(float(x) for x in m.dof_armature[dofs])}
    if not m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_DAMPER:
        out["damping"] = float(m.dof_damping[dofs][0])
    if int(m.jnt_type[j]) in (2, 3) and not m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_SPRING:
        out["stiffness"] = float(m.jnt_stiffness[j])
        out["rest"] = float(m.qpos_spring[m.jnt_qposadr[j]])
    return out


def unmodelled(m, name):
    """One (element, problem) per kind of MuJoCo force or constraint that soagen's model
    leaves out, naming the first element of that kind and how many more there are."""
    import mujoco

    obj = mujoco.mjtObj
    on = lambda bit: not m.opt.disableflags & bit          # noqa: E731
    D = mujoco.mjtDisableBit

    def line(kind, ids, element, problem):
        ids = [int(i) for i in ids]
        if not ids:
            return []
        first = name(kind, ids[0], "")
        more = f" and {len(ids) - 1} more" if len(ids) > 1 else ""
        return [(f"<{element} name={first!r}>{more}" if first else f"<{element} #{ids[0]}>{more}", problem)]

    joints_of = lambda mask: [j for j in range(m.njnt) if mask(j)]        # noqa: E731
    dofs = lambda j: slice(m.jnt_dofadr[j], m.jnt_dofadr[j] + DOF_COUNT[int(m.jnt_type[j])])  # noqa: E731
    out = []
    if on(D.mjDSBL_CONSTRAINT) and on(D.mjDSBL_FRICTIONLOSS):
        out += line(obj.mjOBJ_JOINT, joints_of(lambda j: np.any(m.dof_frictionloss[dofs(j)])), "joint",
                    "friction loss (dry friction, a constraint in MuJoCo) is not modelled")
    if on(D.mjDSBL_SPRING):
        out += line(obj.mjOBJ_JOINT, joints_of(lambda j: m.jnt_type[j] in (0, 1) and m.jnt_stiffness[j]), "joint",
                    "a spring (stiffness) on a ball or free joint is not modelled")
        yielding = getattr(m, "jnt_springyield", None)          # MuJoCo 4
        if yielding is not None:
            out += line(obj.mjOBJ_JOINT, joints_of(lambda j: np.any(yielding[j])), "joint",
                        "springyield (MuJoCo's nonlinear spring) is not modelled")
    poly = getattr(m, "dof_dampingpoly", None)                  # MuJoCo 4
    if on(D.mjDSBL_DAMPER) and poly is not None:
        out += line(obj.mjOBJ_JOINT, joints_of(lambda j: np.any(poly[dofs(j)])), "joint",
                    "dampingpoly (MuJoCo's nonlinear damping) is not modelled, only the linear damping")
    out += line(obj.mjOBJ_BODY, np.flatnonzero(m.body_gravcomp), "body",
                "gravity compensation (gravcomp) is not modelled")
    if m.opt.density > 0 or m.opt.viscosity > 0:
        out += [("<option>", "fluid forces (density, viscosity) are not modelled")]
    out += line(obj.mjOBJ_TENDON, range(m.ntendon), "tendon",
                "tendons (their springs, dampers, armature, limits and the actuators on them) are not modelled")
    out += line(obj.mjOBJ_FLEX, range(m.nflex), "flex", "deformable bodies (flex) are not modelled")
    out += line(obj.mjOBJ_ACTUATOR, range(m.nu), "actuator",
                "actuators are not modelled: the joint forces tau are the input")
    if on(D.mjDSBL_CONSTRAINT) and on(D.mjDSBL_CONTACT):
        out += line(obj.mjOBJ_GEOM, np.flatnonzero((m.geom_contype != 0) | (m.geom_conaffinity != 0)), "geom",
                    "contacts are not modelled")
    return out


def gravity(m):
    """The compiled model's gravity: ``<option gravity>``, or zero where ``<option><flag
    gravity="disable"/>`` switches it off (MuJoCo keeps the vector and sets a flag)."""
    import mujoco

    if m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY:
        return np.zeros(3)
    return np.array(m.opt.gravity, dtype=float)


def _rotation(wxyz):
    """A MuJoCo quaternion (w, x, y, z) as a rotation matrix."""
    w, x, y, z = (float(v) for v in wxyz)
    return quaternion_rotation(np.array([x, y, z, w]))


def _axis_rotation(axis, angle):
    from soagen.spatial import axis_rotation

    return axis_rotation(axis / norm(axis), angle, CONSTANTS)
