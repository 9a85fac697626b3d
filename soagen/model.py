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
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

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
        e1 /= np.linalg.norm(e1)
    return e1, np.cross(n, e1)


@dataclass(frozen=True)
class Body:
    """A rigid body with its inbound joint."""

    name: str
    parent: int                 # -1: attached to the fixed base
    joint_name: str
    joint: Joint
    placement_R: np.ndarray     # joint frame in the parent body frame (rotation)
    placement_r: np.ndarray     # ... and origin
    mass: object
    com: np.ndarray             # centre of mass in the body frame
    inertia: np.ndarray         # inertia about the centre of mass, body frame
    q_index: int = 0
    v_index: int = 0


@dataclass(frozen=True)
class Frame:
    """A frame fixed on a body (a link frame of the file, or the tool/tip frame)."""

    name: str
    body: int                   # -1: the fixed base
    R: np.ndarray
    r: np.ndarray


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
    nq: int = field(init=False)
    nv: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "nq", sum(b.joint.nq for b in self.bodies))
        object.__setattr__(self, "nv", sum(b.joint.nv for b in self.bodies))

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
    def total_mass(self) -> float:
        return float(sum(b.mass for b in self.bodies))

    def children(self, i: int) -> list:
        return [j for j, b in enumerate(self.bodies) if b.parent == i]

    def q_slice(self, i: int) -> slice:
        b = self.bodies[i]
        return slice(b.q_index, b.q_index + b.joint.nq)

    def v_slice(self, i: int) -> slice:
        b = self.bodies[i]
        return slice(b.v_index, b.v_index + b.joint.nv)

    def frame(self, name: str) -> Frame:
        for f in self.frames:
            if f.name == name:
                return f
        raise KeyError(name)

    def neutral_configuration(self) -> np.ndarray:
        return np.concatenate([b.joint.neutral() for b in self.bodies]) if self.bodies else np.zeros(0)

    def random_configuration(self, rng) -> np.ndarray:
        """A random q: angles and offsets in [-pi, pi], random unit quaternions."""
        parts = []
        for b in self.bodies:
            x = rng.uniform(-np.pi, np.pi, b.joint.nq)
            if b.joint.kind in ("spherical", "free"):
                quat = rng.normal(size=4)
                x[-4:] = quat / np.linalg.norm(quat)
            parts.append(x)
        return np.concatenate(parts) if parts else np.zeros(0)


def index_bodies(bodies) -> tuple:
    """Assign q and v offsets in body order."""
    out, iq, iv = [], 0, 0
    for b in bodies:
        out.append(replace(b, q_index=iq, v_index=iv))
        iq += b.joint.nq
        iv += b.joint.nv
    return tuple(out)


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
    """Refuse a singular D(k) = H(k) P(k) H^T(k) (Part I (4.6)) before it is inverted, so
    that no algorithm returns inf or NaN. Numbers only: a symbolic D (object array)
    passes, and so do arrays of other libraries (autodiff tracers). Each joint
    coordinate is scaled by the articulated inertia it moves against (trace of the
    angular or linear block of P(k)), so the test is unit-free (tolerances.SINGULAR_D):
    D_n = W^-1/2 D W^-1/2 must have its smallest eigenvalue above SINGULAR_D."""
    if not (isinstance(D, np.ndarray) and D.dtype.kind == "f"):
        return
    p = P.diagonal().tolist()
    ang, lin = p[0] + p[1] + p[2], p[3] + p[4] + p[5]
    if D.shape == (1, 1):                         # plain floats: this runs once per body per call
        h = H[0].tolist()
        w = [(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) * ang + (h[3] * h[3] + h[4] * h[4] + h[5] * h[5]) * lin]
        if float(D[0, 0]) > SINGULAR_D * w[0]:    # also False for NaN
            return
    else:
        H2 = H * H
        w = H2[:, :3].sum(axis=1) * ang + H2[:, 3:].sum(axis=1) * lin
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
