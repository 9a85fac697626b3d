"""Flexible links: from a robot file's ``flexible:`` entry (a beam or modal data from an
FE tool, docs/robot-format.md) to the :class:`~soagen.model.FlexibleBody` of a body, and
:func:`beam_robot`, the same model built from physical beam parameters in Python.

A flexible link's body frame is the frame of its inbound joint; the link is clamped there
(framework paper Section 4). Its deformation is a truncated set of clamped modes eta;
its mass is a set of mass points (:class:`~soagen.model.MassPoints`): a beam's Gauss
points, an FE model's nodes, the link's own rigid mass (a hub fixed in the body frame)
and the links welded to it (rigid on their nearest node). Children and frames sit on
the nearest node (:func:`nearest_node`). The kinetic energy polynomial
(:mod:`soagen.loaders.invariants`), the modal stiffness K = diag(omega^2) and damping
C = diag(2 zeta omega) complete the body (docs/flexible.md (F.1)-(F.5)).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from soagen.errors import RobotFileError, RobotFileWarning
from soagen.loaders import fields
from soagen.loaders.beam import FAMILIES, Beam, BeamFE, frame_of
from soagen.loaders.invariants import inertia_polynomial, zero_inertia
from soagen.model import FlexibleBody, MassPoints, Nodes
from soagen.reproducible import generalized_eigh, matmul, norm
from soagen.tolerances import MODAL_MASS_MISMATCH

FLEX_KEYS = {"beam", "modal", "modes", "shapes", "damping", "stiffening"}
BEAM_KEYS = {"length", "EA", "EIy", "EIz", "GJ", "rhoA", "rhoJ", "elements", "axis"}
MODAL_KEYS = {"nodes", "mass", "inertia", "shapes", "frequencies", "damping", "modal_mass", "foreshortening"}
DEFAULT_ELEMENTS = 10


@dataclass(frozen=True, eq=False)
class FlexSpec:
    """A validated ``flexible:`` entry of one link."""

    where: str
    beam: Beam | None = None
    elements: int = DEFAULT_ELEMENTS
    axis: tuple = (1.0, 0.0, 0.0)
    modal: dict | None = None          # the arrays of a modal data file, validated
    modes: int | None = None           # None: all the model has
    shapes: tuple | None = None        # beam families to keep (None: all the data support)
    damping: tuple = (0.0,)            # modal damping ratios (one for all, or one per mode)
    stiffening: bool = True            # foreshortening (beyond the papers); False: the linear Section 4 model


# ---------------------------------------------------------------------------------------
# Parsing

def parse_spec(path, where, d) -> FlexSpec:
    """The ``flexible:`` mapping of a link (docs/robot-format.md)."""
    where = f"{where}.flexible"
    fields.keys(path, where, d, FLEX_KEYS)
    if ("beam" in d) == ("modal" in d):
        raise RobotFileError(path, where, "give exactly one of 'beam' and 'modal'")
    modes = d.get("modes", None)
    if modes == "all":
        modes = None
    elif modes is not None and (isinstance(modes, bool) or not isinstance(modes, int) or modes < 1):
        raise RobotFileError(path, f"{where}.modes", f"expected a positive integer or 'all', got {modes!r}")
    stiffening = d.get("stiffening", True)
    if not isinstance(stiffening, bool):
        raise RobotFileError(path, f"{where}.stiffening", f"expected true or false, got {stiffening!r}")
    damping = d.get("damping", 0.0)
    damping = tuple(damping) if isinstance(damping, list) else (damping,)
    damping = tuple(_nonnegative(path, f"{where}.damping", x, "a damping ratio") for x in damping)
    shapes = d.get("shapes")
    if shapes is not None:
        if not isinstance(shapes, list) or not shapes or any(s not in FAMILIES for s in shapes):
            raise RobotFileError(path, f"{where}.shapes", f"expected a list of {', '.join(FAMILIES)}, got {shapes!r}")
        shapes = tuple(s for s in FAMILIES if s in shapes)
    common = dict(where=where, modes=modes, shapes=shapes, damping=damping, stiffening=stiffening)
    if "beam" in d:
        return _beam_spec(path, f"{where}.beam", d["beam"], common)
    if shapes is not None:
        raise RobotFileError(path, f"{where}.shapes", "'shapes' selects beam families; modal data keep their modes "
                             "in file order (use 'modes')")
    return FlexSpec(modal=read_modal(path, f"{where}.modal", d["modal"]), **common)


def _beam_spec(path, where, b, common):
    fields.keys(path, where, b, BEAM_KEYS, required=("length", "rhoA"))
    length = fields.number(path, f"{where}.length", b["length"])
    if length <= 0:
        raise RobotFileError(path, f"{where}.length", f"a beam needs a positive length, got {length:g}")
    values = {k: _nonnegative(path, f"{where}.{k}", b.get(k, 0.0), "a stiffness" if k[0] in "EG" else "a density")
              for k in ("EA", "EIy", "EIz", "GJ", "rhoA", "rhoJ")}
    if values["rhoA"] <= 0:
        raise RobotFileError(path, f"{where}.rhoA", "the mass per length rhoA must be positive")
    beam = Beam(length, **values)
    if not beam.families():
        raise RobotFileError(path, where, "no stiffness given (EA, EIy, EIz, or GJ with rhoJ): the beam cannot deform")
    shapes = common["shapes"]
    if shapes is not None and not set(shapes) <= set(beam.families()):
        missing = sorted(set(shapes) - set(beam.families()))
        raise RobotFileError(path, where, f"shapes {', '.join(missing)} need their stiffness "
                             "(y: EIz, z: EIy, torsion: GJ and rhoJ, axial: EA)")
    elements = b.get("elements", DEFAULT_ELEMENTS)
    if isinstance(elements, bool) or not isinstance(elements, int) or elements < 1:
        raise RobotFileError(path, f"{where}.elements", f"expected a positive integer, got {elements!r}")
    axis = fields.vector(path, f"{where}.axis", b.get("axis", [1.0, 0.0, 0.0]), bounded=False)
    if not norm(axis) > 0:
        raise RobotFileError(path, f"{where}.axis", "must be a non-zero vector")
    return FlexSpec(beam=beam, elements=elements, axis=tuple(axis / norm(axis)), **common)


def _nonnegative(path, where, value, what):
    x = fields.number(path, where, value)
    if x < 0:
        raise RobotFileError(path, where, f"{what} cannot be negative, got {x:g}")
    return x


def read_modal(path, where, value) -> dict:
    """Modal data from an FE tool: a ``.npz`` or ``.yaml`` file (relative to the robot
    file) or an inline mapping, with ``nodes`` (n x 3, body frame), ``mass`` (n, lumped),
    optional ``inertia`` (n x 3 x 3), ``shapes`` (m x n x 6: translations, rotations per
    node, mass-normalized), ``frequencies`` (m, Hz), optional ``damping`` (m ratios),
    ``modal_mass`` (m x m, default the identity) and ``foreshortening`` (n x 3 x m x m)."""
    if isinstance(value, str):
        file = (Path(path).parent / value)
        where = f"{where} ({value})"
        try:
            if file.suffix == ".npz":
                with np.load(file, allow_pickle=False) as z:
                    raw = {k: z[k] for k in z.files}
            else:
                from soagen.loaders.yamlfile import read_yaml
                raw = read_yaml(file)
        except (OSError, ValueError) as err:
            raise RobotFileError(path, where, f"cannot read modal data: {err}") from None
    else:
        raw = value
    fields.keys(path, where, raw, MODAL_KEYS, required=("nodes", "mass", "shapes", "frequencies"))
    arr = {k: _array(path, f"{where}.{k}", v) for k, v in raw.items()}
    nodes, shapes = arr["nodes"], arr["shapes"]
    if nodes.ndim != 2 or nodes.shape[1] != 3 or len(nodes) == 0:
        raise RobotFileError(path, f"{where}.nodes", f"expected n x 3 node positions, got shape {nodes.shape}")
    n = len(nodes)
    if shapes.ndim != 3 or shapes.shape[1:] != (n, 6):
        raise RobotFileError(path, f"{where}.shapes", f"expected modes x {n} nodes x 6 (ux uy uz rx ry rz), "
                             f"got shape {shapes.shape}: the mode shapes do not match the {n} nodes")
    m = len(shapes)
    _shape(path, f"{where}.mass", arr["mass"], (n,))
    if np.any(arr["mass"] < 0):
        raise RobotFileError(path, f"{where}.mass", "a node mass cannot be negative")
    _shape(path, f"{where}.frequencies", arr["frequencies"], (m,))
    if np.any(arr["frequencies"] < 0):
        raise RobotFileError(path, f"{where}.frequencies", "a negative frequency (negative stiffness)")
    if "inertia" in arr:
        _shape(path, f"{where}.inertia", arr["inertia"], (n, 3, 3))
    if "damping" in arr:
        _shape(path, f"{where}.damping", arr["damping"], (m,))
        if np.any(arr["damping"] < 0):
            raise RobotFileError(path, f"{where}.damping", "a damping ratio cannot be negative")
    if "modal_mass" in arr:
        Mm = arr["modal_mass"]
        _shape(path, f"{where}.modal_mass", Mm, (m, m))
        if not (np.allclose(Mm, Mm.T) and np.all(np.linalg.eigvalsh((Mm + Mm.T) / 2) > 0)):
            raise RobotFileError(path, f"{where}.modal_mass", "the modal mass is not symmetric positive definite")
        if not np.allclose(Mm, np.diag(np.diag(Mm))):
            raise RobotFileError(path, f"{where}.modal_mass", "the modal mass must be diagonal (the modes of one "
                                 "eigenproblem are mass-orthogonal)")
    if "foreshortening" in arr:
        _shape(path, f"{where}.foreshortening", arr["foreshortening"], (n, 3, m, m),
               "geometric-stiffness (foreshortening) data of the wrong size")
    return arr


def _array(path, where, value):
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise RobotFileError(path, where, "expected numbers") from None
    if not np.all(np.isfinite(a)):
        raise RobotFileError(path, where, "expected finite numbers")
    return a


def _shape(path, where, a, shape, what="wrong size"):
    if a.shape != shape:
        raise RobotFileError(path, where, f"{what}: expected shape {shape}, got {a.shape}")


# ---------------------------------------------------------------------------------------
# The deformation model and the body

@dataclass
class Deformation:
    """A flexible link's deformation before its rigid parts are added: nodes, mass
    points, modal stiffness and damping, clamped frequencies (rad/s), mode names."""

    nodes: Nodes
    points: MassPoints
    K: np.ndarray
    C: np.ndarray
    omega: np.ndarray
    names: tuple
    tip_node: int
    summary: str
    full: object = None                # the BeamFE of a beam


def deformation(path, spec: FlexSpec) -> Deformation:
    return _beam_deformation(path, spec) if spec.beam is not None else _modal_deformation(path, spec)


def _truncate(path, spec, available):
    m = available if spec.modes is None else spec.modes
    if m > available:
        raise RobotFileError(path, f"{spec.where}.modes", f"{m} modes asked, the model has {available}")
    if len(spec.damping) not in (1, m):
        raise RobotFileError(path, f"{spec.where}.damping", f"expected one damping ratio or {m}, got {len(spec.damping)}")
    return m, np.broadcast_to(np.asarray(spec.damping, dtype=float), (m,))


def _beam_deformation(path, spec) -> Deformation:
    fe = BeamFE(spec.beam, spec.elements, spec.axis)
    families = spec.shapes or spec.beam.families()
    omega, X, names = fe.clamped_modes(families)
    m, zeta = _truncate(path, spec, len(omega))
    omega, X, names = omega[:m], X[:, :m], names[:m]
    nn = fe.n + 1
    zeros_G = np.zeros((3, m, m))
    G_at = (lambda x: fe.foreshortening(X, x)) if spec.stiffening else (lambda x: zeros_G)
    nodes = Nodes(r0=np.outer(fe.x, fe.R[:, 0]),
                  Phi=np.array([matmul(fe.R, X[6 * j:6 * j + 3]) for j in range(nn)]),
                  Psi=np.array([matmul(fe.R, X[6 * j + 3:6 * j + 6]) for j in range(nn)]),
                  G=np.array([G_at(x) for x in fe.x]))
    xp_, mp, J = fe.mass_points()
    fieldvals = [fe.field(X, x) for x in xp_]
    points = MassPoints(r0=np.outer(xp_, fe.R[:, 0]), Phi=np.array([f[0] for f in fieldvals]),
                        Psi=np.array([f[1] for f in fieldvals]), G=np.array([G_at(x) for x in xp_]), m=mp, J=J)
    b = spec.beam
    summary = (f"beam L={b.length:g} m, {fe.n} elements, {m} clamped modes ({', '.join(names)})"
               f"{', foreshortening' if spec.stiffening else ', linear (no foreshortening)'}")
    return Deformation(nodes, points, np.diag(omega**2), np.diag(2 * zeta * omega), omega, names, fe.n, summary, fe)


def _modal_deformation(path, spec) -> Deformation:
    """Modal data: the file's nodes are the mass points (lumped masses and inertias) and
    the nodes children attach to, after the clamp (the body origin, node 0). The modal
    mass is the lumped nodes' Phi^T m Phi + Psi^T J Psi, so that the kinetic energy stays
    that of the mass points (positive definite at every deformation); a file whose modes
    are not mass-normalized for its own nodes within MODAL_MASS_MISMATCH is a warning."""
    a = spec.modal
    m, zeta = _truncate(path, spec, len(a["frequencies"]))
    if "damping" in a and spec.damping == (0.0,):
        zeta = a["damping"][:m]
    n = len(a["nodes"])
    S = a["shapes"][:m]
    Phi = np.transpose(S[:, :, :3], (1, 2, 0))                    # n x 3 x m
    Psi = np.transpose(S[:, :, 3:], (1, 2, 0))
    J = a["inertia"] if "inertia" in a else np.zeros((n, 3, 3))
    T = lambda X: np.swapaxes(X, 1, 2)       # noqa: E731
    lumped = (a["mass"][:, None, None] * matmul(T(Phi), Phi)).sum(axis=0) + matmul(T(Psi), matmul(J, Psi)).sum(axis=0)
    declared = a["modal_mass"][:m, :m] if "modal_mass" in a else np.eye(m)
    if np.abs(lumped - declared).max() > MODAL_MASS_MISMATCH * np.abs(declared).max():
        warnings.warn(RobotFileWarning(path, spec.where, "the nodes' lumped masses give a modal mass that differs "
                                       f"from the file's by {np.abs(lumped - declared).max():.2g}: the model uses "
                                       "the lumped one (frequencies kept)"), stacklevel=2)
    omega = 2 * np.pi * a["frequencies"][:m]
    if not spec.stiffening:
        G = np.zeros((n, 3, m, m))
    elif "foreshortening" in a:
        G = a["foreshortening"][:, :, :m, :m]
        G = (G + np.swapaxes(G, 2, 3)) / 2
    else:
        G = polyline_foreshortening(a["nodes"], Phi)
    # the clamp (body origin) is node 0, then the file's nodes
    z3 = np.zeros((1, 3, m))
    nodes = Nodes(r0=np.vstack([np.zeros(3), a["nodes"]]), Phi=np.concatenate([z3, Phi]),
                  Psi=np.concatenate([z3, Psi]), G=np.concatenate([np.zeros((1, 3, m, m)), G]))
    points = MassPoints(r0=a["nodes"], Phi=Phi, Psi=Psi, G=G, m=a["mass"], J=J)
    d = np.diag(lumped)
    tip = 1 + int(np.argmax(np.linalg.norm(a["nodes"], axis=1)))
    summary = (f"modal data, {n} nodes, {m} modes"
               f"{', foreshortening' if spec.stiffening else ', linear (no foreshortening)'}")
    return Deformation(nodes, points, np.diag(omega**2 * d), np.diag(2 * zeta * omega * d), omega,
                       tuple(f"mode{j + 1}" for j in range(m)), tip, summary)


def polyline_foreshortening(r0, Phi):
    """G of nodes ordered from the clamp outwards, as a chain of inextensible segments
    (origin, node 1, node 2, ...): each segment d shortens by |Delta_perp|^2 / (2 |d|)
    along d, Delta_perp the part of its end points' relative displacement normal to d."""
    n, _, m = Phi.shape
    G = np.zeros((n, 3, m, m))
    prev_r, prev_Phi, acc = np.zeros(3), np.zeros((3, m)), np.zeros((3, m, m))
    for j in range(n):
        d = r0[j] - prev_r
        L = norm(d)
        if L > 0:
            e = d / L
            D = Phi[j] - prev_Phi
            Dp = D - np.outer(e, matmul(e, D))
            acc = acc - e[:, None, None] * (matmul(Dp.T, Dp) / L)
        G[j] = acc
        prev_r, prev_Phi = r0[j], Phi[j]
    return G


def rigid_point(mass, com, inertia, nodes=None, n=-1):
    """A rigid part as one mass point: fixed in the body frame (``n`` < 0) or rigid on
    node n (moving with the node's translation and small rotation, to first order)."""
    m = nodes.Phi.shape[2] if nodes is not None else 0
    if n < 0:
        return (mass, inertia, com, np.zeros((3, m)), np.zeros((3, m)), np.zeros((3, m, m)))
    from soagen.spatial import skew

    off = com - nodes.r0[n]
    return (mass, inertia, com, nodes.Phi[n] - matmul(skew(off), nodes.Psi[n]), nodes.Psi[n], nodes.G[n])


def flexible_body(path, spec: FlexSpec, rigid_parts, dfm: Deformation | None = None) -> FlexibleBody:
    """The body: the deformation of ``spec`` plus ``rigid_parts`` [(mass, com, inertia,
    node or -1)], the link's own rigid mass (a hub, node -1) and welded links."""
    dfm = dfm or deformation(path, spec)
    points = _with_rigid_parts(dfm, rigid_parts)
    m = len(dfm.omega)
    powers, coeffs = inertia_polynomial(points, m)
    full = None
    if dfm.full is not None:                     # every mode of the same families: the FE model's own
        every = _beam_deformation(path, replace(spec, modes=None, stiffening=False, damping=(0.0,)))
        full = FullOrder(zero_inertia(_with_rigid_parts(every, rigid_parts)), every.K)
    return FlexibleBody(kind="beam" if spec.beam is not None else "modal", modes=m, names=dfm.names,
                        powers=powers, coeffs=coeffs, K=dfm.K, C=dfm.C, nodes=dfm.nodes, points=points,
                        frequencies=dfm.omega, stiffening=spec.stiffening, tip_node=dfm.tip_node,
                        summary=dfm.summary, full=full)


@dataclass(frozen=True, eq=False)
class FullOrder:
    """A beam link with every mode of its families (the FE model's dofs, in modal
    coordinates), linearized at zero deformation: Mhat(0) and K."""

    M0: np.ndarray
    K: np.ndarray


def _with_rigid_parts(dfm, rigid_parts):
    """The deformation's mass points plus the rigid parts as points (rigid_point)."""
    p = dfm.points
    cols = [list(p.m), list(p.J), list(p.r0), list(p.Phi), list(p.Psi), list(p.G)]
    for mass, com, inertia, n in rigid_parts:
        if mass > 0 or np.any(inertia):
            for col, x in zip(cols, rigid_point(mass, com, inertia, dfm.nodes, n)):
                col.append(np.asarray(x, dtype=float))
    return MassPoints(r0=np.array(cols[2]), Phi=np.array(cols[3]), Psi=np.array(cols[4]), G=np.array(cols[5]),
                      m=np.array(cols[0], dtype=float), J=np.array(cols[1]))


def rigid_equivalent(flex: FlexibleBody):
    """(mass, com, inertia about the com) of the body at zero deformation (the 6 x 6
    block of Mhat(0))."""
    M = flex.M0
    mass = M[3, 3]
    com = np.array([M[2, 4], M[0, 5], M[1, 3]]) / mass if mass > 0 else np.zeros(3)
    from soagen.spatial import parallel_axis

    return mass, com, M[:3, :3] + parallel_axis(mass, com)


def nearest_node(nodes: Nodes, point):
    """The node nearest to ``point`` (body frame) and its distance."""
    d = np.linalg.norm(nodes.r0 - np.asarray(point), axis=1)
    n = int(np.argmin(d))
    return n, float(d[n])


# ---------------------------------------------------------------------------------------
# Frequencies of one flexible link (`soagen info`, docs/flexible.md "Which modes")

def pinned_frequencies(body, count=3):
    """(modal, full): the first elastic natural frequencies (rad/s) of the link on its
    joint left free (passive, unsprung), the joint its only other coordinate, linearized
    at rest: with the retained clamped modes (what the model simulates) and, for a beam,
    with every mode of the same families (the FE model's converged value that the
    truncation approximates). None where not defined (a joint other than revolute or
    prismatic)."""
    if body.joint.kind not in ("revolute", "prismatic"):
        return None, None
    h = body.joint.H()[0]
    full = body.flex.full
    return _pinned(body.flex.M0, body.flex.K, h, count), (_pinned(full.M0, full.K, h, count) if full else None)


def _pinned(M0, K, h, count):
    """Frequencies of (joint, eta) with M = [[h M0 h, h M0_eta], [., M0_eta_eta]] and
    stiffness diag(0, K): one zero (the joint's rigid motion) dropped."""
    m = len(K)
    mb = np.concatenate([[matmul(matmul(h, M0[:6, :6]), h)], matmul(h, M0[:6, 6:])])
    M = np.zeros((1 + m, 1 + m))
    M[0], M[:, 0] = mb, mb
    M[1:, 1:] = M0[6:, 6:]
    Kp = np.zeros_like(M)
    Kp[1:, 1:] = K
    return _elastic(Kp, M, count)


def _elastic(K, M, count):
    w2, _ = generalized_eigh(K, M)
    w = np.sqrt(np.clip(w2, 0, None))
    return w[w > 1e-6 * max(w.max(), 1.0)][:count]


# ---------------------------------------------------------------------------------------
# Python API: a robot from physical beam parameters

def beam_robot(beams, *, elements=DEFAULT_ELEMENTS, modes=4, shapes=None, stiffening=True, damping=0.0,
               joint_axis=(0.0, 0.0, 1.0), gravity=(0.0, -9.81, 0.0), hub_inertia=0.0, hub_mass=0.0,
               tip_mass=0.0, name="flexible_beams"):
    """A serial chain of flexible beams on revolute joints, from physical parameters (SI).

    ``beams``: a :class:`~soagen.loaders.beam.Beam` (length, EA, EIy, EIz, GJ, rhoA, rhoJ)
    or a list of them. Beam k lies along the x axis of its body frame, from its joint
    (at the previous beam's tip; the first at the world origin), clamped there; every
    joint turns about ``joint_axis`` (default z: the beams move in the x-y plane and
    deflect along y; gravity default -y). ``hub_inertia`` (kg m^2 about the joint axis)
    and ``hub_mass`` (kg, at the joint) are a rigid hub on each link's joint (a number or
    one per beam); ``tip_mass`` (kg, a point) sits on the last beam's tip. ``modes``:
    clamped modes per beam (an int or one per beam, or None for all), of the families
    ``shapes`` (default: those whose stiffness is given; e.g. ("y",) for in-plane
    bending only); ``stiffening`` adds the foreshortening (False: the linear model of
    Section 4); ``damping``: modal damping ratio. q = (theta_1, eta_1, theta_2, eta_2, ...).
    This is what docs/flexible.md's benchmarks and the Exudyn comparison build."""
    from soagen.model import Body, Frame, Joint, Robot, index_bodies

    beams = [_beam(b) for b in (beams if isinstance(beams, (list, tuple)) else [beams])]
    per = lambda x: list(x) if isinstance(x, (list, tuple)) else [x] * len(beams)   # noqa: E731
    modes_l, hubI, hubm = per(modes), per(hub_inertia), per(hub_mass)
    axis = np.asarray(joint_axis, dtype=float) / norm(np.asarray(joint_axis, dtype=float))
    bodies = []
    for k, b in enumerate(beams):
        spec = FlexSpec(where=f"beam {k + 1}", beam=b, elements=elements, modes=modes_l[k],
                        shapes=tuple(s for s in FAMILIES if s in shapes) if shapes else None,
                        damping=(float(damping),), stiffening=stiffening)
        parts = [(hubm[k], np.zeros(3), hubI[k] * np.outer(axis, axis), -1)]
        dfm = deformation(name, spec)
        if k == len(beams) - 1 and tip_mass:
            parts.append((tip_mass, np.array([b.length, 0.0, 0.0]), np.zeros((3, 3)), dfm.tip_node))
        flex = flexible_body(name, spec, parts, dfm)
        mass, com, inertia = rigid_equivalent(flex)
        placement = np.zeros(3) if k == 0 else np.array([beams[k - 1].length, 0.0, 0.0])
        bodies.append(Body(name=f"beam{k + 1}", parent=k - 1, joint_name=f"joint{k + 1}",
                           joint=Joint("revolute", tuple(axis), "revolute"), placement_R=_ro(np.eye(3)),
                           placement_r=_ro(placement), mass=float(mass), com=_ro(com), inertia=_ro(inertia),
                           flex=flex, attach=-1 if k == 0 else bodies[k - 1].flex.tip_node))
    last = bodies[-1]
    tip = Frame("tip", len(bodies) - 1, _ro(np.eye(3)), _ro([beams[-1].length, 0.0, 0.0]), last.flex.tip_node)
    return Robot(name=name, source=name, base="world", bodies=index_bodies(bodies), frames=(tip,), tip=tip,
                 gravity=_ro(gravity))


def _beam(b):
    """A :class:`Beam` from any object with its fields (another code's beam data)."""
    return b if isinstance(b, Beam) else Beam(**{k: float(getattr(b, k, 0.0)) for k in
                                                ("length", "EA", "EIy", "EIz", "GJ", "rhoA", "rhoJ")})


def _ro(a):
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a


__all__ = ["Beam", "beam_robot", "frame_of"]


def rigid_robot(robot):
    """The same robot with every flexible body rigid (its mass properties at zero
    deformation, children and frames where the undeformed nodes are): the model a flexible
    robot must reproduce when its links are very stiff, and whose mass matrix is the
    joint block of the flexible one at eta = 0."""
    from soagen.model import index_bodies

    bodies = index_bodies([replace(b, flex=None, attach=-1) for b in robot.bodies])
    frames = tuple(replace(f, node=-1) for f in robot.frames)
    tip = replace(robot.tip, node=-1) if robot.tip is not None else None
    return replace(robot, name=f"{robot.name}_rigid", bodies=bodies, frames=frames, tip=tip)


def lumped_beam_robot(beams, *, segments=10, joint_axis=(0.0, 0.0, 1.0), gravity=(0.0, -9.81, 0.0),
                      hub_inertia=0.0, damping=0.0, name="lumped_beams"):
    """The same chain as :func:`beam_robot` lumped (Swain-Morris Appendix C.2): each beam
    is ``segments`` rigid segments of length l = L/segments (mass rho A l, inertia
    rho A l^3/12 about the centre, rho J l about the axis) joined by virtual elastic joints,
    revolute about ``joint_axis`` with stiffness EI/l (the bending of one segment length
    around each joint; EIz for the default axis z); the clamp at the hub is an elastic joint
    of stiffness 2 EI/l (half a segment). Only the bending in the plane normal to the joint
    axis is represented. The hub (``hub_inertia`` about the axis, on each beam's first,
    actuated joint) must be positive for the clamp joint to be distinct from the hinge;
    with hub_inertia = 0 the hinge is the clamp (a pinned beam). ``damping``: viscous
    damping d = damping * k of each elastic joint (s)."""
    from soagen.model import Body, Frame, Joint, Robot, index_bodies

    beams = [_beam(b) for b in (beams if isinstance(beams, (list, tuple)) else [beams])]
    axis = np.asarray(joint_axis, dtype=float) / norm(np.asarray(joint_axis, dtype=float))
    EI = lambda b: b.EIz if np.allclose(axis, [0, 0, 1]) else b.EIy if np.allclose(axis, [0, 1, 0]) else None   # noqa: E731
    bodies = []
    z3 = np.zeros(3)

    def add(nm, joint, placement, mass, com, inertia):
        bodies.append(Body(name=nm, parent=len(bodies) - 1, joint_name=f"{nm}_joint", joint=joint,
                           placement_R=_ro(np.eye(3)), placement_r=_ro(placement), mass=float(mass), com=_ro(com),
                           inertia=_ro(inertia)))

    hubI = list(hub_inertia) if isinstance(hub_inertia, (list, tuple)) else [hub_inertia] * len(beams)
    for k, b in enumerate(beams):
        if EI(b) is None:
            raise ValueError("lumped_beam_robot: the joint axis must be y or z (bending with EIy or EIz)")
        l = b.length / segments
        start = np.zeros(3) if k == 0 else np.array([beams[k - 1].length / segments, 0.0, 0.0])
        seg = (b.rhoA * l, np.array([l / 2, 0.0, 0.0]),
               np.diag([b.rhoJ * l, b.rhoA * (l * l * l) / 12, b.rhoA * (l * l * l) / 12]))
        hinge = Joint("revolute", tuple(axis), "revolute")
        if hubI[k] > 0:
            add(f"hub{k + 1}", hinge, start, 0.0, z3, hubI[k] * np.outer(axis, axis))
            start, clamp = z3, 2 * EI(b) / l
        else:
            clamp = None
        for j in range(segments):
            kj = clamp if j == 0 else EI(b) / l
            joint = hinge if kj is None else Joint("revolute", tuple(axis), "revolute", stiffness=kj,
                                                   damping=damping * kj, actuated=False)
            add(f"beam{k + 1}_s{j + 1}", joint, start if j == 0 else np.array([l, 0.0, 0.0]), *seg)
    tip = Frame("tip", len(bodies) - 1, _ro(np.eye(3)), _ro([beams[-1].length / segments, 0.0, 0.0]))
    return Robot(name=name, source=name, base="world", bodies=index_bodies(bodies), frames=(tip,), tip=tip,
                 gravity=_ro(gravity))
