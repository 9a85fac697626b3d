"""Generated code for one robot (open chain or tree): unroll the selected functions
(:mod:`soagen.codegen.functions`), describe the robot for the files' header, and hand
both to the emitter (:func:`soagen.codegen.emit.emit`). :func:`render` is what
``soagen generate ROBOT`` and ``soagen bench ROBOT`` run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from soagen.codegen.emit import (
    Emitted,
    Header,
    default_prefix,
    emit,
    file_digest,
    validate_prefix,
)
from soagen.codegen.frames import frames_for
from soagen.codegen.functions import (
    check_algorithms,
    generate_function,
    param_names,
    refuse_inverse,
)
from soagen.codegen.registry import DEFAULT, ENTRIES, FD_VARIANTS
from soagen.errors import SoagenError

CONVENTIONS = (
    "Joint order: the robot's bodies from the base outwards (as `soagen info` lists them);",
    "q, qd, qdd, tau are vectors of length NQ/NV; revolute angles in rad, prismatic in m.",
    "Matrices are row-major. Spatial vectors: angular part first. Jacobian-type outputs",
    "are world-aligned at the tip point. Gravity is the robot file's and is included in",
    "inverse_dynamics, bias_forces and forward_dynamics.",
)
REFERENCES = (
    "Equations: G. Rodriguez, K. Kreutz, \"Recursive Mass Matrix Factorization and Inversion\",",
    "JPL Publication 88-11 (1988), Part I, and Part II for (6.10); numbers in the comments",
    "refer to it.",
)


def joint_rows(robot):
    """One header row per joint: index in qd, joint name, type and axis, body; and one
    per flexible body's modal coordinates."""
    rows = []
    for b in robot.bodies:
        axis = " ".join(f"{x:g}" for x in b.joint.axis)
        rows.append(f"{b.v_index:3d}  {b.joint_name} ({b.joint.urdf_type or b.joint.kind}, "
                    f"axis {axis}) -> {b.name}")
        if b.m:
            start = b.v_index + b.joint.nv
            span = f"{start}..{start + b.m - 1}" if b.m > 1 else f"{start}"
            hz = ", ".join(f"{w / (2 * 3.141592653589793):.4g}" for w in b.flex.frequencies)
            rows.append(f"{span:>3}  modal coordinates eta of {b.name} ({', '.join(b.flex.names)}; "
                        f"clamped {hz} Hz)")
    return rows


FLEXIBLE_CONVENTION = (
    "Flexible bodies (framework paper Section 4, docs/flexible.md): q and qd hold each flexible",
    "body's modal coordinates eta and their rates right after its joint's; tau's modal entries are",
    "generalized modal forces (0 for a free link). inverse_dynamics, bias_forces and",
    "forward_dynamics include the modal stiffness and damping, -K eta - C eta_dot.",
)
FRAME_CONVENTION = ("Functions named NAME_<frame> are at that link frame of the robot file (its origin,",
                    "world-aligned), one per frame.")


def _command(source, prefix, algorithms, fd_variant, symbolic_params, numpy, batch, langs, frames=None,
             load_args=(), style="auto"):
    """The command that writes these files again: ``soagen build`` for the extension
    module's files (it always writes the C with the batch functions and the module's
    source), else ``soagen generate``."""
    build = "python_ext" in langs
    cmd = [f"soagen {'build' if build else 'generate'} {source} --name {prefix}", *load_args]
    if not build and set(langs) != {"c", "python"}:
        cmd.append(f"--lang {','.join(langs)}")
    if list(algorithms) != list(DEFAULT):
        cmd.append(f"--algorithms {','.join(algorithms)}")
    if frames:
        cmd.append(f"--frames {','.join(frames)}")
    if fd_variant != "best":
        cmd.append(f"--fd-variant {fd_variant}")
    if style != "auto":
        cmd.append(f"--style {style}")
    if symbolic_params:
        cmd.append("--symbolic-params")
    if numpy:
        cmd.append("--numpy")
    if batch and not build:
        cmd.append("--batch")
    return " ".join(cmd)


def render(robot, robot_file, algorithms=DEFAULT, langs=("c", "python"), prefix=None,
           fd_variant="best", symbolic_params=False, numpy=False, batch=False, progress=None,
           frames=None, load_args=(), style="auto") -> Emitted:
    """Unroll and print; return the files as text (nothing is written here). ``langs``
    names languages of :data:`soagen.codegen.languages.LANGUAGES`; with ``numpy`` the Python
    output is the batched numpy module, with ``batch`` the C has the ``_batch`` functions.
    The frame functions are generated at the tip, or for each of ``frames`` (link names),
    or for a tree without a tip for every leaf frame (:func:`frames_for`), named
    ``jacobian_<frame>`` etc. ``load_args`` are the command-line words that shaped the
    model (:func:`soagen.cli.options.load_args`), repeated in the regenerate command.
    ``style``: ``auto``, ``unrolled`` or ``looped`` (:func:`soagen.codegen.functions.generate_function`)."""
    prefix = validate_prefix(prefix or default_prefix(robot.name))
    check_algorithms(algorithms)
    algorithms = [a for a in ENTRIES if a in set(algorithms)]        # canonical order
    if robot.is_flexible:
        rigid_only = [a for a in algorithms if not ENTRIES[a].flexible] + (["--symbolic-params"] if symbolic_params else [])
        if rigid_only:
            raise SoagenError(f"{robot.name}: {', '.join(rigid_only)} not available for flexible bodies "
                              "(docs/flexible.md, Limits)")
    if not algorithms:
        raise SoagenError("no algorithm selected (--algorithms)")
    if fd_variant != "best" and fd_variant not in FD_VARIANTS:
        raise SoagenError(f"unknown --fd-variant {fd_variant!r} (choose from best, {', '.join(FD_VARIANTS)})")
    # Multi-dof joints (spherical, free: unit quaternions in q, nq != nv) unroll like the
    # others; q has nq entries, qd/qdd/tau nv (docs/trees-and-floating-bases.md).
    at = frames_for(robot, frames)
    if at is None or len(at) < 2:          # one frame at most: no function of several frames
        algorithms_run = [a for a in algorithms if ENTRIES[a].frames != "several"]
    else:
        algorithms_run = algorithms
    if not symbolic_params:                # with the parameters as inputs, their values decide
        refuse_inverse(robot, algorithms_run)
    functions = []
    for a in algorithms_run:
        if progress:
            progress(a)
        if ENTRIES[a].frames == "several":
            functions.append(_with_params(generate_function(robot, a, fd_variant, at, symbolic_params, style),
                                          symbolic_params))
            continue
        for frame in (at if at is not None and ENTRIES[a].frames == "one" else [None]):
            functions.append(_with_params(generate_function(robot, a, fd_variant, frame, symbolic_params, style),
                                          symbolic_params))
    source = Path(robot_file).name if robot_file else robot.name
    command = _command(source, prefix, algorithms, fd_variant, symbolic_params, numpy, batch, langs, frames,
                       load_args, style)
    langs = batch_langs(tuple("numpy" if numpy and lang == "python" else lang for lang in langs), batch)
    header = Header(
        prefix=prefix, model=robot.name, kind="robot", source=source, sha256=file_digest(robot_file),
        nq=robot.nq, nv=robot.nv, joints=tuple(joint_rows(robot)),
        conventions=CONVENTIONS + (FLEXIBLE_CONVENTION if robot.is_flexible else ())
        + (FRAME_CONVENTION if at is not None else ()),
        references=REFERENCES,
        command=command,
        tip=robot.tip.name if robot.tip is not None else None,
        params=param_names(robot) if symbolic_params else (),
        manifest={"symbolic_params": symbolic_params,
                  "python_flavour": "numpy" if "numpy" in langs else "math" if "python" in langs else None})
    return emit(functions, header, langs)


def batch_langs(langs, batch):
    """``langs`` with the C replaced by the C with batch functions when ``batch``."""
    return tuple("c_batch" if batch and lang == "c" else lang for lang in langs)



def _with_params(fn, symbolic_params):
    """``fn`` taking the link parameters as its last input ``params`` when they are symbolic."""
    return replace(fn, inputs=fn.inputs + ("params",)) if symbolic_params else fn
