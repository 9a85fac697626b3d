"""The robot model: immutable, validated data (built by :mod:`soagen.loaders`).

Numbering and frames (the one internal convention; see docs/conventions.md):

* Bodies are numbered ``i = 0 .. nb-1`` in topological order from the base outwards:
  ``parent[i] < i``, and ``parent[i] == -1`` means body ``i`` hangs from the fixed base
  (the world). Joint ``i`` connects ``parent[i]`` to body ``i``. For a serial chain of
  N bodies the papers' link number is ``k = N - i`` (tip = 1 .. base = N, Part I Sec. 2).
* Each body has a frame whose origin is the joint origin O(k) on the axis of its inbound
  joint. A body's frame, in its parent's frame, is the joint placement (fixed) followed by
  the joint motion; ``H(k)`` is constant in the body frame.
* Mass properties are stored about the centre of mass, in the body frame.
* Joint vectors are ordered like the bodies, i.e. base to tip as in the robot file.

Fixed joints never reach the model: the loader merges their child into the parent body.
Multi-dof joints (spherical, free) have ``nq != nv``; their configuration carries a unit
quaternion ``(x, y, z, w)``.

A flexible body (framework paper Section 4; docs/flexible.md) is a body with ``m``
deformation (modal) coordinates eta: its coordinates in q and v are its joint's followed
by eta and eta_dot, its extended velocity is (V(k), eta_dot) in R^(6+m) and its joint map
the block diagonal (H(k), I_m). Its data (:class:`FlexibleBody`) is the kinetic energy as
a polynomial in eta, the stiffness and damping, and the nodes where other bodies and
frames attach (``Body.attach``, ``Frame.node``). A rigid body has ``flex = None``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from soagen import reproducible
from soagen.errors import SingularMassMatrixError, SoagenError
from soagen.spatial import axis_rotation, parallel_axis, quaternion_rotation
from soagen.tolerances import SINGULAR_D

JOINT_KINDS = ("revolute", "prismatic", "spherical", "free", "planar")


@dataclass(frozen=True)
class Joint:
    """A joint's motion model: how the body frame moves in the joint frame, and H(k)."""

    kind: str                      # one of JOINT_KINDS
    axis: tuple = (0.0, 0.0, 1.0)  # unit axis in the body frame (revolute, prismatic)
    urdf_type: str = ""            # what the file said (continuous, revolute, floating...)
    stiffness: float = 0.0         # a spring (Swain-Morris C.2; revolute and prismatic joints)
    damping: float = 0.0           # and a viscous damper (every joint kind, each of its dofs):
    rest: float = 0.0              # the passive force -stiffness (q - rest) - damping qd
    armature: tuple = ()           # J_m: the rotor inertia reflected to the joint, one value per
                                   # joint dof (kg m^2, or kg on a prismatic dof); () for none
    actuated: bool = True          # False: a passive spring-damper joint (no joint force input)

    def __post_init__(self):
        J = tuple(float(x) for x in np.broadcast_to(np.asarray(self.armature, dtype=float), (self.nv,))) \
            if np.size(self.armature) else ()
        object.__setattr__(self, "armature", J if any(J) else ())

    @property
    def elastic(self) -> bool:
        """A spring or a damper: passive joint forces (docs/robot-format.md, "Passive forces")."""
        return self.stiffness != 0.0 or self.damping != 0.0

    @property
    def J_m(self) -> np.ndarray:
        """The armature J_m(k) as an nv-vector (zeros for a joint without it)."""
        return np.array(self.armature) if self.armature else np.zeros(self.nv)

    @property
    def nq(self) -> int:
        return {"revolute": 1, "prismatic": 1, "spherical": 4, "free": 7, "planar": 3}[self.kind]

    @property
    def nv(self) -> int:
        return {"revolute": 1, "prismatic": 1, "spherical": 3, "free": 6, "planar": 3}[self.kind]

    def motion(self, q, xp):
        """Rotation and offset of the body frame in the joint frame at configuration q."""
        if self.kind == "revolute":
            return axis_rotation(self.axis, q[0], xp), xp.zeros(3)
        if self.kind == "prismatic":
            return xp.eye(3), np.asarray(self.axis, dtype=float) * q[0]
        if self.kind == "spherical":
            return quaternion_rotation(q[0:4]), xp.zeros(3)
        if self.kind == "planar":
            # q = (x, y, theta): origin x e1 + y e2 in the plane normal to ``axis``, rotation
            # theta about it (framework paper: H^T is 6 x r_v, here r_v = 3)
            e1, e2 = plane_basis(self.axis)
            return axis_rotation(self.axis, q[2], xp), e1 * q[0] + e2 * q[1]
        # free: q = (x, y, z, qx, qy, qz, qw), position of the body origin in the joint frame
        return quaternion_rotation(q[3:7]), np.asarray(q[0:3])

    def H(self):
        """H(k): nv x 6 joint map; H^T(k) spans the joint's velocities in the body frame
        (2.16) revolute (h, 0), (2.31) prismatic (0, h), Appendix B (b.2) free H^T = I."""
        h = np.asarray(self.axis, dtype=float)
        z = np.zeros(3)
        if self.kind == "revolute":
            return np.concatenate([h, z])[None, :]
        if self.kind == "prismatic":
            return np.concatenate([z, h])[None, :]
        if self.kind == "spherical":
            return np.hstack([np.eye(3), np.zeros((3, 3))])
        if self.kind == "planar":                       # v = (omega, v1, v2), body frame
            e1, e2 = plane_basis(self.axis)
            return np.vstack([np.concatenate([h, z]), np.concatenate([z, e1]), np.concatenate([z, e2])])
        return np.eye(6)

    def neutral(self):
        return {"revolute": [0.0], "prismatic": [0.0], "spherical": [0, 0, 0, 1.0],
                "free": [0, 0, 0, 0, 0, 0, 1.0], "planar": [0.0, 0.0, 0.0]}[self.kind]


def plane_basis(normal):
    """(e1, e2): a right-handed orthonormal basis of the plane normal to ``normal`` (for
    normal = z: the x and y axes, Pinocchio's JointModelPlanar)."""
    n = np.asarray(normal, dtype=float)
    k = int(np.argmin(np.abs(n)))
    if np.allclose(np.abs(n), [0, 0, 1]):
        e1 = np.array([1.0, 0.0, 0.0]) * np.sign(n[2])
    else:
        e1 = np.cross(np.eye(3)[k], n)
        e1 /= reproducible.norm(e1)
    return e1, np.cross(n, e1)


@dataclass(frozen=True, eq=False)
class Nodes:
    """Points of a flexible body in its body frame, undeformed at ``r0`` (n x 3), and
    how they move with the deformation eta (m): position r0 + Phi eta + 1/2 eta^T G eta,
    small rotation Psi eta (docs/flexible.md (F.1)). Phi, Psi: n x 3 x m; G: n x 3 x m x m,
    symmetric in its last two indices (zero in the linear model of Section 4)."""

    r0: np.ndarray
    Phi: np.ndarray
    Psi: np.ndarray
    G: np.ndarray


@dataclass(frozen=True, eq=False)
class MassPoints(Nodes):
    """The mass distribution of a flexible body: points with mass ``m`` (n) and rotary
    inertia ``J`` (n x 3 x 3, body axes, about the point), moving as :class:`Nodes`. A
    beam's are the Gauss points of its elements (exact for the element's fields); a rigid
    hub is one point that does not move with eta. Kinetic energy sum_p 1/2 V_p^T M_p V_p,
    the framework paper's T = 1/2 V^f* m V^f with these points as its nodes."""

    m: np.ndarray = None
    J: np.ndarray = None


@dataclass(frozen=True, eq=False)
class FlexibleBody:
    """The deformable part of a body: ``modes`` coordinates eta and

    * the extended inertia about O(k), (6+m) square, as a polynomial in eta:
      Mhat(eta) = sum_a eta^powers[a] coeffs[a] (degree 2 in the linear model, 4 with
      foreshortening); the kinetic energy is 1/2 Vhat^T Mhat(eta) Vhat, exactly the mass
      points' (docs/flexible.md (F.3));
    * the stiffness K and damping C (m x m): generalized forces -K eta - C eta_dot;
    * ``nodes``: where children and frames attach; ``points``: the mass distribution that
      M0, M1, M2 were computed from (the dense operator form of Section 4 uses them);
    * ``frequencies``: the clamped natural frequencies of the retained modes (rad/s)."""

    kind: str                   # "beam" or "modal"
    modes: int
    names: tuple                # one name per mode (y1, z1, torsion1, ...)
    powers: np.ndarray          # monomials: exponents of eta, one row each (row 0: constant)
    coeffs: np.ndarray          # their (6+m) square coefficients
    K: np.ndarray
    C: np.ndarray
    nodes: Nodes
    points: MassPoints
    frequencies: np.ndarray
    stiffening: bool
    tip_node: int               # the node whose deflection `soagen simulate` plots
    summary: str = ""
    full: object = None         # the unreduced FE model (beams), for pinned frequencies

    @property
    def M0(self) -> np.ndarray:
        """Mhat at zero deformation."""
        return self.coeffs[0]


@dataclass(frozen=True)
class Body:
    """A rigid or flexible body with its inbound joint."""

    name: str
    parent: int                 # -1: attached to the fixed base
    joint_name: str
    joint: Joint
    placement_R: np.ndarray     # joint frame in the parent body frame (rotation)
    placement_r: np.ndarray     # ... and origin (undeformed, for a flexible parent)
    mass: object
    com: np.ndarray             # centre of mass in the body frame (undeformed)
    inertia: np.ndarray         # inertia about the centre of mass, body frame
    q_index: int = 0
    v_index: int = 0
    flex: FlexibleBody | None = None
    attach: int = -1            # node of a flexible parent the joint frame sits on

    @property
    def m(self) -> int:
        """Number of deformation coordinates (0 for a rigid body)."""
        return self.flex.modes if self.flex is not None else 0

    @property
    def nq(self) -> int:
        return self.joint.nq + self.m

    @property
    def nv(self) -> int:
        return self.joint.nv + self.m


@dataclass(frozen=True)
class Frame:
    """A frame fixed on a body (a link frame of the file, or the tool/tip frame)."""

    name: str
    body: int                   # -1: the fixed base
    R: np.ndarray
    r: np.ndarray               # in the body frame (undeformed, on a flexible body)
    node: int = -1              # node of a flexible body the frame sits on


CLOSURE_KINDS = {"connect": 3, "weld": 6}
"""Loop closures and their number of constraints: ``connect`` holds two points together
(a ball joint cut open, MJCF's ``<connect>``), ``weld`` two frames (MJCF's ``<weld>``)."""


@dataclass(frozen=True)
class Closure:
    """A loop-closure constraint inside the robot (framework paper Section 2.3: "by cutting
    an appropriate number of joints, each subsystem may be regarded as a tree topology
    system with additional kinematical constraints at the internal loop closure points"):
    the model is the spanning tree, and the cut joint holds ``frame1`` (on one body) to
    ``frame2`` (on another body, or on the fixed base): their origins coincide
    (``connect``, 3 constraints) or the whole frames (``weld``, 6)."""

    name: str
    kind: str                   # one of CLOSURE_KINDS
    frame1: Frame
    frame2: Frame
    where: str = ""             # the element of the robot file, for messages

    @property
    def rows(self) -> int:
        return CLOSURE_KINDS[self.kind]


@dataclass(frozen=True)
class Robot:
    """An immutable, validated multibody model (tree with a fixed base; free joints allowed)."""

    name: str
    source: str
    base: str
    bodies: tuple
    frames: tuple
    tip: Frame | None
    gravity: np.ndarray
    closures: tuple = ()        # loop closures (:class:`Closure`): the tree is their spanning tree
    nq: int = field(init=False)
    nv: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "nq", sum(b.nq for b in self.bodies))
        object.__setattr__(self, "nv", sum(b.nv for b in self.bodies))

    @property
    def nb(self) -> int:
        return len(self.bodies)

    @property
    def parent(self) -> tuple:
        return tuple(b.parent for b in self.bodies)

    @property
    def is_chain(self) -> bool:
        return all(b.parent == i - 1 for i, b in enumerate(self.bodies))

    @property
    def has_armature(self) -> bool:
        """Whether some joint has rotor inertia J_m (it enters D(k) and the mass matrix)."""
        return any(b.joint.armature for b in self.bodies)

    @property
    def armature(self) -> np.ndarray:
        """J_m of every joint coordinate (nv; zero on modal coordinates): the diagonal that
        the rotor inertias add to the mass matrix, Pinocchio's ``model.armature``."""
        return np.concatenate([np.concatenate([b.joint.J_m, np.zeros(b.m)]) for b in self.bodies]) \
            if self.bodies else np.zeros(0)

    @property
    def is_flexible(self) -> bool:
        return any(b.flex is not None for b in self.bodies)

    @property
    def total_mass(self) -> float:
        return float(sum(b.mass for b in self.bodies))

    def children(self, i: int) -> list:
        return [j for j, b in enumerate(self.bodies) if b.parent == i]

    def q_slice(self, i: int) -> slice:
        """Body i's coordinates in q: its joint's, then its modal coordinates eta."""
        b = self.bodies[i]
        return slice(b.q_index, b.q_index + b.nq)

    def v_slice(self, i: int) -> slice:
        """Body i's coordinates in v: its joint velocities, then eta_dot."""
        b = self.bodies[i]
        return slice(b.v_index, b.v_index + b.nv)

    def joint_q_slice(self, i: int) -> slice:
        """Body i's joint coordinates in q (without its modal coordinates)."""
        b = self.bodies[i]
        return slice(b.q_index, b.q_index + b.joint.nq)

    def joint_v_slice(self, i: int) -> slice:
        b = self.bodies[i]
        return slice(b.v_index, b.v_index + b.joint.nv)

    def modal_q_slice(self, i: int) -> slice:
        """Body i's modal coordinates eta in q (empty for a rigid body)."""
        b = self.bodies[i]
        return slice(b.q_index + b.joint.nq, b.q_index + b.nq)

    def modal_v_slice(self, i: int) -> slice:
        b = self.bodies[i]
        return slice(b.v_index + b.joint.nv, b.v_index + b.nv)

    def joint_q(self, i: int, q):
        """The joint coordinates of body i in q (without eta)."""
        return q[self.joint_q_slice(i)]

    def eta(self, i: int, q):
        """The modal coordinates eta of body i in q (empty for a rigid body)."""
        return q[self.modal_q_slice(i)]

    def frame(self, name: str) -> Frame:
        for f in self.frames:
            if f.name == name:
                return f
        raise KeyError(name)

    def neutral_configuration(self) -> np.ndarray:
        return np.concatenate([b.joint.neutral() + [0.0] * b.m for b in self.bodies]) if self.bodies \
            else np.zeros(0)

    def random_configuration(self, rng) -> np.ndarray:
        """A random q: angles and offsets in [-pi, pi], random unit quaternions."""
        parts = []
        for b in self.bodies:
            x = rng.uniform(-np.pi, np.pi, b.joint.nq)
            if b.joint.kind in ("spherical", "free"):
                quat = rng.normal(size=4)
                x[-4:] = quat / np.linalg.norm(quat)
            parts.append(x)
            if b.m:                          # modal coordinates: small deformations
                parts.append(flexible_configuration(b.flex, rng))
        return np.concatenate(parts) if parts else np.zeros(0)


def armature_block(body):
    """J_m(k) as the body's nv x nv diagonal (zero on modal coordinates), the term rotor
    inertia adds to D(k) = H P H^T + J_m (4.6) and to the mass matrix's diagonal block;
    None for a joint without armature, so that the papers' recursions run unchanged."""
    if not body.joint.armature:
        return None
    return np.diag(np.concatenate([body.joint.J_m, np.zeros(body.m)]))


def with_armature(robot: Robot, armature: dict) -> Robot:
    """A copy of ``robot`` with the rotor inertias ``armature``: {joint name: J_m}, J_m a
    number (every dof of the joint) or one value per dof, finite and >= 0; joints not
    named keep theirs. An unknown joint name or a bad value is a SoagenError naming it."""
    names = {b.joint_name: i for i, b in enumerate(robot.bodies)}
    bodies = list(robot.bodies)
    for name, value in armature.items():
        if name not in names:
            raise SoagenError(f"{robot.source}: armature: no moving joint {name!r}")
        i = names[name]
        joint = bodies[i].joint
        bodies[i] = replace(bodies[i], joint=replace(joint, armature=armature_values(
            f"{robot.source}: armature of joint {name!r}", value, joint.nv)))
    return replace(robot, bodies=tuple(bodies))


def armature_values(where, value, nv) -> tuple:
    """J_m of a joint with nv dofs from a number or nv numbers (finite, >= 0); a bad value
    is a SoagenError that starts with ``where``."""
    problem = armature_problem(value, nv)
    if problem:
        raise SoagenError(f"{where}: {problem}")
    return tuple(float(x) for x in np.broadcast_to(np.asarray(value, dtype=float), (nv,)))


def armature_problem(value, nv) -> str | None:
    """What is wrong with ``value`` as the armature of a joint with nv dofs, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, list, tuple, np.ndarray, np.floating)):
        return f"expected a number or {nv} numbers, got {value!r}"
    try:
        J = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return f"expected a number or {nv} numbers, got {value!r}"
    if J.ndim > 1 or (J.ndim == 1 and J.shape != (nv,)):
        return f"expected a number or {nv} numbers (one per dof), got {J.size}"
    if not np.all(np.isfinite(J)) or np.any(J < 0):
        return f"the armature must be finite and >= 0, got {value!r}"
    return None


def index_bodies(bodies) -> tuple:
    """Assign q and v offsets in body order."""
    out, iq, iv = [], 0, 0
    for b in bodies:
        out.append(replace(b, q_index=iq, v_index=iv))
        iq += b.nq
        iv += b.nv
    return tuple(out)


def flexible_configuration(flex: FlexibleBody, rng, size=0.1):
    """Random modal coordinates whose largest node displacement is about ``size`` times
    the body's extent (the modes are mass-normalized, so eta itself has no length scale)."""
    eta = rng.normal(size=flex.modes)
    extent = max(float(np.abs(flex.nodes.r0).max()), 1e-3)
    disp = float(np.abs(np.einsum("nkm,m->nk", flex.nodes.Phi, eta)).max())
    return eta * (size * extent / disp) if disp > 0 else eta


PARAMETERS = ("m", "mx", "my", "mz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")
"""The 10 dynamic parameters pi of a body, Pinocchio's (``Inertia.toDynamicParameters``):
the mass m, its first moment m c (mx = m c_x ...) and the inertia I about the body origin
O(k), all in the body frame. The one convention of soagen's parameter vectors: the
regressor's tau = Y pi and the ``params`` input of ``soagen generate --symbolic-params``."""


def pack(m, mc, I):
    """(m, m c, I about O) -> the 10 parameters in the order of :data:`PARAMETERS`."""
    return np.array([m, *mc, I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]])


def unpack(p):
    """The 10 parameters -> (m, m c, I about O as a 3 x 3 matrix)."""
    I = np.array([[p[4], p[5], p[7]], [p[5], p[6], p[8]], [p[7], p[8], p[9]]])
    return p[0], np.asarray(p[1:4]), I


def dynamic_parameters(mass, com, inertia):
    """pi (:data:`PARAMETERS`) of a body from its mass, centre of mass c and inertia I_c
    about c (what :class:`Body` stores): (m, m c, I_c - m c~ c~) (2.15); Pinocchio's
    ``Inertia(mass, com, inertia).toDynamicParameters()``."""
    c = np.asarray(com)
    return pack(mass, mass * c, np.asarray(inertia) - parallel_axis(mass, c))


def mass_properties(pi):
    """(mass, centre of mass, inertia about it) from the 10 dynamic parameters pi, the
    inverse of :func:`dynamic_parameters` (m != 0): c = (m c) / m, I_c = I + m c~ c~;
    Pinocchio's ``Inertia.FromDynamicParameters``. On the code generator's symbols the
    dynamics' M(k) (2.15) then gives back pi's own symbols (h / m * m = h, and the same
    parallel-axis term added and subtracted), so generated code is linear in pi."""
    m, h, I = unpack(pi)
    c = h / m
    return m, c, I + parallel_axis(m, c)


def with_parameters(robot: Robot, pi) -> Robot:
    """A copy of ``robot`` whose bodies have the dynamic parameters ``pi`` (10 per body,
    body after body, as :func:`soagen.algorithms.inertial_parameters` returns them):
    numbers, or the code generator's symbols (``--symbolic-params``)."""
    pi = np.asarray(pi)
    if pi.shape != (10 * robot.nb,):
        raise SoagenError(f"{robot.name}: {10 * robot.nb} dynamic parameters needed (10 per body), got shape {pi.shape}")
    bodies = []
    for i, b in enumerate(robot.bodies):
        m, c, I_c = mass_properties(pi[10 * i:10 * i + 10])
        bodies.append(replace(b, mass=m, com=c, inertia=I_c))
    return replace(robot, bodies=tuple(bodies))


def symbolic_parameters(robot: Robot) -> Robot:
    """A copy of ``robot`` whose mass properties are SymPy symbols, per body ``i`` (1-based
    in names): ``m{i}``, ``c{i}_x..z`` (centre of mass), ``I{i}_xx..`` (inertia about it):
    the closed forms of ``soagen derive`` in the textbook's terms (lengths to the centre of
    mass). Generated code takes the dynamic parameters instead (:func:`with_parameters`)."""
    import sympy

    if robot.is_flexible:
        raise SoagenError(f"{robot.name}: symbolic link parameters are not available for flexible bodies")
    bodies = []
    for i, b in enumerate(robot.bodies, start=1):
        m = sympy.Symbol(f"m{i}", positive=True)
        c = np.array(sympy.symbols(f"c{i}_x c{i}_y c{i}_z", real=True), dtype=object)
        xx, yy, zz, xy, xz, yz = sympy.symbols(
            f"I{i}_xx I{i}_yy I{i}_zz I{i}_xy I{i}_xz I{i}_yz", real=True)
        inertia = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]], dtype=object)
        bodies.append(replace(b, mass=m, com=c, inertia=inertia))
    return replace(robot, bodies=tuple(bodies))


def check_articulated_inertia(robot: Robot, i: int, P, H, D):
    """Refuse a singular D(k) = H(k) P(k) H^T(k) (+ J_m(k)) (Part I (4.6)) before it is inverted, so
    that no algorithm returns inf or NaN. Numbers only: a symbolic D (object array)
    passes, and so do arrays of other libraries (autodiff tracers). Each joint
    coordinate is scaled by the articulated inertia it moves against (trace of the
    angular or linear block of P(k); a modal coordinate of a flexible body by its diagonal
    entry of P(k); plus the joint's armature J_m, which D(k) = H P H^T + J_m includes), so
    the test is unit-free (tolerances.SINGULAR_D): D_n = W^-1/2 D W^-1/2 must have its
    smallest eigenvalue above SINGULAR_D."""
    if not (isinstance(D, np.ndarray) and D.dtype.kind == "f"):
        return
    p = P.diagonal().tolist()
    ang, lin = p[0] + p[1] + p[2], p[3] + p[4] + p[5]
    joint = robot.bodies[i].joint
    if D.shape == (1, 1):                         # plain floats: this runs once per body per call
        h = H[0].tolist()
        w = [(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) * ang + (h[3] * h[3] + h[4] * h[4] + h[5] * h[5]) * lin
             + (joint.armature[0] if joint.armature else 0.0)]
        if float(D[0, 0]) > SINGULAR_D * w[0]:    # also False for NaN
            return
    else:
        H2 = H * H
        w = H2[:, :3].sum(axis=1) * ang + H2[:, 3:6].sum(axis=1) * lin
        if H.shape[1] > 6:                        # modal rows: their own modal mass P(k)_jj
            w = w + H2[:, 6:] @ P.diagonal()[6:]
        if joint.armature:
            w = w + np.concatenate([joint.J_m, np.zeros(len(w) - joint.nv)])
        if np.all(w > 0):
            s = 1 / np.sqrt(w)
            try:                                  # lambda_min(D_n) > SINGULAR_D
                np.linalg.cholesky(D * np.outer(s, s) - SINGULAR_D * np.eye(len(w)))
                return
            except np.linalg.LinAlgError:
                pass
    _refuse(robot, i, P, D, np.asarray(w))


def _refuse(robot, i, P, D, w):
    name = robot.bodies[i].joint_name
    if not (np.all(np.isfinite(D)) and np.all(np.isfinite(P))):
        raise SoagenError(f"{robot.source}: joint {name!r}: D(k) = H P H^T is not finite (is the state finite?)")
    if not np.all(w > 0):
        raise SingularMassMatrixError(robot.source, name, "no mass or inertia beyond it")
    lam = np.linalg.eigvalsh(D / np.sqrt(np.outer(w, w)))[0]
    raise SingularMassMatrixError(robot.source, name, f"D(k) = H P H^T has relative eigenvalue {lam:.3g}")
