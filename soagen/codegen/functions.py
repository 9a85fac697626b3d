"""The generated functions: for each, its inputs and output, the equations it implements,
and how to obtain it by running the public generic API (:mod:`soagen.algorithms`) on
symbols with an :class:`~soagen.codegen.unroll.UnrollBackend`. No recursion is written
here; every function is the generic one, unrolled."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from soagen import algorithms
from soagen.codegen.emit import Function
from soagen.codegen.unroll import unrolled
from soagen.dynamics.base_parameters import base_parameters
from soagen.dynamics.ldl import ltdl_multiplications
from soagen.errors import SoagenError
from soagen.model import PARAMETERS, with_parameters


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    inputs: tuple          # input argument names, each a vector (q: nq, others: nv)
    output: str            # output argument name
    shape: str             # "nv", "nv x nv", "6 x nv", "6", "6 x 6", "nv x 10 nb", "nv x b", "6 nc x 6 nc"
    summary: str
    equations: str
    more_outputs: tuple = ()   # further (name, shape) outputs, after ``output``

    def dims(self, robot, shape=None, nframes=1) -> tuple:
        """The concrete shape of ``shape`` (default: the first output's) for ``robot``
        (and ``nframes`` frames)."""
        nv, key = robot.nv, shape or self.shape
        if key == "nv x b":
            return (nv, len(base_parameters(robot).names))
        return {"nv": (nv,), "nv x nv": (nv, nv), "6 x nv": (6, nv), "6": (6,), "6 x 6": (6, 6),
                "nv x 10 nb": (nv, 10 * robot.nb), "6 nc x 6 nc": (6 * nframes, 6 * nframes)}[key]

    def unrolled(self, robot, program, equations=None, variant=None, manifest=None, nframes=1) -> Function:
        return Function(self.name, self.inputs, self.output, self.dims(robot, nframes=nframes), self.summary,
                        equations or self.equations, program, variant, manifest or {},
                        tuple((n, self.dims(robot, sh)) for n, sh in self.more_outputs))


DYNAMICS = (
    FunctionSpec("inverse_dynamics", ("q", "qd", "qdd"), "tau", "nv",
                 "joint forces tau = M(q) qdd + C(q, qd) by recursive Newton-Euler",
                 "Part I (2.24)-(2.30), (3.17)"),
    FunctionSpec("mass_matrix", ("q",), "M", "nv x nv",
                 "mass matrix M(q) by composite rigid bodies",
                 "Part I (3.20), Corollary A.1, (a.44)"),
    FunctionSpec("bias_forces", ("q", "qd"), "C", "nv",
                 "Coriolis, centrifugal and gravity forces C(q, qd) (RNE with qdd = 0)",
                 "Part I (3.23)"),
    FunctionSpec("inverse_mass_matrix", ("q",), "Minv", "nv x nv",
                 "M^-1(q) = (I - H Psi L)^T D^-1 (I - H Psi L)",
                 "Part I (4.4)-(4.6), (4.16), (4.19)-(4.22)"),
    FunctionSpec("forward_dynamics", ("q", "qd", "tau"), "qdd", "nv",
                 "joint accelerations qdd = M^-1 (tau - C)",
                 "Part I Sections 4-5 (FD1-FD4)"),
    FunctionSpec("jacobian", ("q",), "J", "6 x nv",
                 "tip Jacobian J(q), world-aligned at the tip point, angular rows first",
                 "Part I (3.13)"),
    FunctionSpec("jacobian_dot_qd", ("q", "qd"), "Jdqd", "6",
                 "Jdot(q, qd) qd: tip acceleration at qdd = 0 without gravity, world-aligned",
                 "Part I Sec. 3 below (3.17)"),
    FunctionSpec("op_space_inverse_inertia", ("q",), "Lambda_inv", "6 x 6",
                 "operational-space inverse inertia J M^-1 J^T at the tip, world-aligned",
                 "Part II (6.10)"),
    FunctionSpec("op_space_inverse_inertia_frames", ("q",), "Lambda_inv", "6 nc x 6 nc",
                 "operational-space inverse inertia J M^-1 J^T of the frames {frames} at once (6 x 6 "
                 "block (a, b) = J_a M^-1 J_b^T, frames in this order), world-aligned",
                 "framework paper (3.10), (A.5); Part II (6.10)"),
)
DERIVATIVES_AND_IDENTIFICATION = (    # docs/derivatives.md; generated when named
    FunctionSpec("inverse_dynamics_derivatives", ("q", "qd", "qdd"), "dtau_dq", "nv x nv",
                 "dtau/dq and dtau/dqd of inverse dynamics (tangent space; gravity included)",
                 "docs/derivatives.md (D.11)-(D.14); Part I Corollary A.1", (("dtau_dqd", "nv x nv"),)),
    FunctionSpec("forward_dynamics_derivatives", ("q", "qd", "tau"), "dqdd_dq", "nv x nv",
                 "dqdd/dq, dqdd/dqd and dqdd/dtau = M^-1 of forward dynamics (tangent space)",
                 "docs/derivatives.md (D.19); Part I (4.16), (3.22)-(3.23)",
                 (("dqdd_dqd", "nv x nv"), ("Minv", "nv x nv"))),
    FunctionSpec("coriolis_matrix", ("q", "qd"), "C", "nv x nv",
                 "Coriolis matrix C(q, qd): C qd = velocity-dependent bias, Mdot - 2C skew",
                 "docs/derivatives.md (D.15)-(D.16)"),
    FunctionSpec("regressor", ("q", "qd", "qdd"), "Y", "nv x 10 nb",
                 "joint torque regressor Y: tau = Y pi, pi per body (m, m c, I_xx, I_xy, I_yy, "
                 "I_xz, I_yz, I_zz about the body origin)",
                 "docs/derivatives.md (D.17)-(D.18); Part I (3.18)"),
    FunctionSpec("base_regressor", ("q", "qd", "qdd"), "Yb", "nv x b",
                 "base regressor Y_b: tau = Y_b pi_b with the base parameters pi_b = K pi "
                 "(manifest: names and regrouping)",
                 "docs/derivatives.md, Base parameters"),
)
SPECS = {s.name: s for s in DYNAMICS + DERIVATIVES_AND_IDENTIFICATION}
ALGORITHMS = tuple(s.name for s in DYNAMICS)
"""What ``--algorithms all`` (the default) generates; the others are generated when named."""
DERIVATIVES = tuple(s.name for s in DERIVATIVES_AND_IDENTIFICATION)
FD_VARIANTS = algorithms.FD_METHODS
DENSE = "M = L^T D L of the composite-inertia mass matrix (3.20), (a.44)"
VARIANTS = {   # function -> {variant: equations}: under "best", all are unrolled, the cheapest kept
    "forward_dynamics": {"fd1": "Part I (4.17)-(4.22) (FD1)", "fd3": "Part I (5.8)-(5.10) (FD3)",
                         "fd4": "Part I (5.13)-(5.17) (FD4)",
                         "ldl": f"Part I (3.22)-(3.23): qdd = M^-1 (tau - C); {DENSE}"},
    "inverse_mass_matrix": {"innovations": "Part I (4.4)-(4.6), (4.16), (4.19)-(4.22)",
                            "ldl": f"Part I: M^-1 = L^-1 D^-1 L^-T; {DENSE}"},
    "op_space_inverse_inertia": {"omega": "Part II (6.10)",
                                 "ldl": f"Part I (3.13): J M^-1 J^T = Y^T D^-1 Y, Y = L^-T J^T; {DENSE}"},
    "op_space_inverse_inertia_frames": {
        "omega": "one articulated sweep and the Upsilon recursion, framework paper (3.10), (A.5); Part II (6.10)",
        "ldl": f"Part I (3.13): J M^-1 J^T = Y^T D^-1 Y, Y = L^-T J^T, the frames' J stacked; {DENSE}"},
    "forward_dynamics_derivatives": {"innovations": "docs/derivatives.md (D.19); Part I (4.16), (3.22)-(3.23)",
                                     "ldl": f"docs/derivatives.md (D.19); Part I {DENSE}"},
}
"""FD2's qdd program is FD1's (its extra link accelerations are dead code), so it is no
candidate; it is generated when named (``--fd-variant fd2``)."""
FD_EQUATIONS = {**VARIANTS["forward_dynamics"], "fd2": "Part I (5.5)-(5.7) (FD2)"}
TIP_FUNCTIONS = ("jacobian", "jacobian_dot_qd", "op_space_inverse_inertia")
FRAMES_FUNCTIONS = ("op_space_inverse_inertia_frames",)
"""Functions of several frames at once: generated for two or more frames (a tree
without a tip, or --frames), skipped otherwise."""
FRAME_SUMMARIES = {
    "jacobian": "Jacobian J(q) of frame {frame}, world-aligned at its origin, angular rows first",
    "jacobian_dot_qd": "Jdot(q, qd) qd of frame {frame}: its acceleration at qdd = 0 without gravity, "
                       "world-aligned",
    "op_space_inverse_inertia": "operational-space inverse inertia J M^-1 J^T at frame {frame}, world-aligned",
}


def input_symbols(robot, xp):
    """Input vectors as numpy object arrays of the backend's symbols ``q_0 ..`` (printed as
    q[0] ..)."""
    return {"q": xp.symbols("q", robot.nq), "qd": xp.symbols("qd", robot.nv),
            "qdd": xp.symbols("qdd", robot.nv), "tau": xp.symbols("tau", robot.nv)}


def _run(robot, name, xp, x, variant, frame=None, base=None):
    if name == "inverse_dynamics":
        return algorithms.inverse_dynamics(robot, x["q"], x["qd"], x["qdd"], xp=xp)
    if name == "mass_matrix":
        return algorithms.mass_matrix(robot, x["q"], xp=xp)
    if name == "bias_forces":
        return algorithms.bias_forces(robot, x["q"], x["qd"], xp=xp)
    if name == "inverse_mass_matrix":
        return algorithms.inverse_mass_matrix(robot, x["q"], xp=xp, method=variant)
    if name == "forward_dynamics":
        return algorithms.forward_dynamics(robot, x["q"], x["qd"], x["tau"], method=variant, xp=xp)
    if name == "jacobian":
        return algorithms.jacobian(robot, x["q"], xp=xp, frame=frame)
    if name == "jacobian_dot_qd":
        return algorithms.jacobian_dot_qd(robot, x["q"], x["qd"], xp=xp, frame=frame)
    if name == "op_space_inverse_inertia":
        return algorithms.op_space_inverse_inertia(robot, x["q"], xp=xp, frame=frame, method=variant)
    if name == "op_space_inverse_inertia_frames":
        return algorithms.inverse_inertia_at_frames(robot, x["q"], frame, xp=xp, method=variant)
    if name == "inverse_dynamics_derivatives":
        return _flat(algorithms.inverse_dynamics_derivatives(robot, x["q"], x["qd"], x["qdd"], xp=xp))
    if name == "forward_dynamics_derivatives":
        return _flat(algorithms.forward_dynamics_derivatives(robot, x["q"], x["qd"], x["tau"], xp=xp,
                                                             method=variant))
    if name == "coriolis_matrix":
        return algorithms.coriolis_matrix(robot, x["q"], x["qd"], xp=xp)
    if name == "regressor":
        return algorithms.regressor(robot, x["q"], x["qd"], x["qdd"], xp=xp)
    if name == "base_regressor":
        return algorithms.base_regressor(robot, x["q"], x["qd"], x["qdd"], xp=xp, base_params=base)
    raise SoagenError(f"unknown algorithm {name!r}")


def _flat(outputs):
    """Several outputs, one after the other (row-major), as Function.more_outputs expects."""
    return np.concatenate([np.asarray(o).reshape(-1) for o in outputs])


def _unrolled(robot, name, variant, frame=None, symbolic_params=False, base=None):
    """Unroll one function; with ``symbolic_params`` the robot's dynamic parameters are the
    input ``params`` (10 per body, :data:`soagen.model.PARAMETERS`), symbols in the
    backend's arena like the other inputs."""
    def build(xp):
        model = with_parameters(robot, xp.symbols("params", 10 * robot.nb)) if symbolic_params else robot
        return _run(model, name, xp, input_symbols(robot, xp), variant, frame, base)
    return unrolled(build, where=lambda label: f"{robot.name}: {name}: {_joint_of(robot, label)}")


def _joint_of(robot, label):
    """Where a per-body quantity of the recursions sits: its label ends in the body index
    (``Dinv3``: body 3), as :mod:`soagen.dynamics` names them."""
    k = re.fullmatch(r"[A-Za-z]+(\d+)", label)
    body = robot.bodies[int(k.group(1))] if k and int(k.group(1)) < robot.nb else None
    return f"joint {body.joint_name!r} (body {body.name!r}): " if body is not None else ""


def _total(counts):
    return counts["mul"] + counts["add"] + counts["div"]


def param_names(robot):
    """What each entry of the ``params`` input is (:data:`soagen.model.PARAMETERS`)."""
    return tuple(f"params[{len(PARAMETERS) * i + k}] = {n} of {b.name}"
                 for i, b in enumerate(robot.bodies) for k, n in enumerate(PARAMETERS))


def generate_function(robot, name, fd_variant="best", frame=None, symbolic_params=False) -> Function:
    """Unroll one function for ``robot``; with ``symbolic_params`` its dynamic parameters
    are an input (``params``). A function with several derivations (:data:`VARIANTS`) is
    unrolled in each and the one with the fewest multiplications + additions + divisions
    kept (forward dynamics: only ``fd_variant`` unless it is ``best``); its manifest entry
    records the ``variant`` and every candidate's counts (``candidates``). A frame
    function (:data:`TIP_FUNCTIONS`) is at the tip, or with ``frame`` (a
    :class:`~soagen.model.Frame`) at that frame, named ``NAME_<frame>``; a function of
    several frames (:data:`FRAMES_FUNCTIONS`) takes their list as ``frame``."""
    spec = SPECS[name]
    if name in FRAMES_FUNCTIONS:
        if not frame or len(frame) < 2:
            raise SoagenError(f"{name} needs two or more frames (a tree without a tip, or --frames)")
        fn = _cheapest(robot, spec, fd_variant, list(frame), symbolic_params)
        names = ", ".join(f.name for f in frame)
        return replace(fn, shape=(6 * len(frame), 6 * len(frame)), summary=spec.summary.format(frames=names),
                       manifest={"frames": [f.name for f in frame], **fn.manifest})
    if frame is not None and name not in TIP_FUNCTIONS:
        raise SoagenError(f"{name} does not take a frame")
    if name == "base_regressor":
        bp = base_parameters(robot)
        return spec.unrolled(robot, _unrolled(robot, name, None, None, symbolic_params, bp), manifest={
            "base_parameters": list(bp.names), "base_columns": list(bp.columns),
            "regrouping": list(bp.expressions)})
    fn = _cheapest(robot, spec, fd_variant, frame, symbolic_params) if name in VARIANTS else \
        spec.unrolled(robot, _unrolled(robot, name, None, frame, symbolic_params))
    if frame is None:
        return fn
    return replace(fn, name=f"{name}_{frame_suffix(frame.name)}",
                   summary=FRAME_SUMMARIES[name].format(frame=frame.name),
                   manifest={"function": name, "frame": frame.name, **fn.manifest})


def _cheapest(robot, spec, fd_variant, frame, symbolic_params):
    """The function unrolled in each of its :data:`VARIANTS` (forward dynamics: in
    ``fd_variant`` alone unless ``best``), the one with the fewest operations kept. The
    dense route (``ldl``, O(n^3) on a chain) is unrolled last, and not at all when its
    factorization alone, counted on the pattern of M, exceeds the cheapest O(N) variant
    (a long chain: its unrolling would cost more than all the rest); the manifest says
    so (``skipped``)."""
    equations = VARIANTS[spec.name]
    variants = tuple(equations) if spec.name != "forward_dynamics" or fd_variant == "best" else (fd_variant,)
    progs = {v: _unrolled(robot, spec.name, v, frame, symbolic_params) for v in variants if v != "ldl"}
    skipped = {}
    if "ldl" in variants:
        dense = 2 * ltdl_multiplications(robot)       # the factorization's mul + add alone
        fewest = min((_total(p.counts) for p in progs.values()), default=None)
        if fewest is not None and dense > fewest:
            skipped["ldl"] = f"not unrolled: its L^T D L alone takes about {dense} operations on the " \
                             f"pattern of M, the cheapest variant {fewest} in all"
        else:
            progs["ldl"] = _unrolled(robot, spec.name, "ldl", frame, symbolic_params)
    variants = tuple(v for v in variants if v in progs)
    best = min(variants, key=lambda v: (_total(progs[v].counts), variants.index(v)))
    manifest = {"variant": best}
    if len(variants) > 1 or skipped:
        manifest["candidates"] = {v: dict(progs[v].counts) for v in variants}
    if skipped:
        manifest["skipped"] = skipped
    for v, p in progs.items():
        if v != best:
            p.release()
    return spec.unrolled(robot, progs[best], FD_EQUATIONS[best] if spec.name == "forward_dynamics"
                         else equations[best], best, manifest)


def check_algorithms(names):
    """Validate a list of algorithm names (SoagenError on a bad one)."""
    for n in names:
        if n not in SPECS:
            raise SoagenError(f"unknown algorithm {n!r} (choose from {', '.join(SPECS)})")


NEEDS_MINV = ("inverse_mass_matrix", "forward_dynamics", "op_space_inverse_inertia", "op_space_inverse_inertia_frames",
              "forward_dynamics_derivatives")
"""The functions that invert the mass matrix (D(k)^-1 of Part I (4.16), or the pivots of
M = L^T D L)."""


def without_inverse(robot, names):
    """(kept, left out): ``names`` without the functions that need M^-1 when the robot's
    mass matrix is singular at a generic configuration, and those."""
    from soagen.loaders.solvable import singular_mass_matrix

    dropped = [n for n in names if n in NEEDS_MINV]
    if not dropped or singular_mass_matrix(robot) is None:
        return list(names), []
    return [n for n in names if n not in NEEDS_MINV], dropped


def refuse_inverse(robot, names):
    """Refuse, before anything is unrolled, the functions of ``names`` that need M^-1 when
    the robot's mass matrix is singular: one line naming them, the joints and the fix."""
    from soagen.loaders.solvable import singular_mass_matrix

    wanted = [n for n in names if n in NEEDS_MINV]
    found = singular_mass_matrix(robot) if wanted else None
    if found:
        element, problem = found
        raise SoagenError(f"{robot.source}: {element}: {', '.join(wanted)} need{'s' if len(wanted) == 1 else ''} "
                          f"M^-1, but {problem}")


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
