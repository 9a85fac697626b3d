"""Unrolling one generated function of :mod:`soagen.codegen.registry` for one robot: its
input symbols, its parameters baked in or as inputs, the derivations it has (each unrolled,
the cheapest kept), and the frame it is at. No recursion is written here; every function
is the generic one, unrolled."""

from __future__ import annotations

from dataclasses import replace

from soagen.codegen.cost import code_bytes, estimate_ns
from soagen.codegen.frames import frame_suffix
from soagen.codegen.loops import LOOP_CODE_BYTES, LoopedBackend
from soagen.codegen.records import Function
from soagen.codegen.registry import ENTRIES, dims
from soagen.codegen.unroll import loop_counts, unrolled
from soagen.dynamics.ldl import ltdl_multiplications
from soagen.errors import SoagenError
from soagen.model import PARAMETERS, with_parameters

STYLES = ("auto", "unrolled", "looped")


def input_symbols(robot, xp):
    """Input vectors as numpy object arrays of the backend's symbols ``q_0 ..`` (printed as
    q[0] ..)."""
    return {"q": xp.symbols("q", robot.nq), "qd": xp.symbols("qd", robot.nv),
            "qdd": xp.symbols("qdd", robot.nv), "tau": xp.symbols("tau", robot.nv)}


def _unrolled(robot, entry, variant, frame, symbolic_params, context, backend=None):
    """Unroll one derivation of ``entry``; with ``symbolic_params`` the robot's dynamic
    parameters are the input ``params`` (10 per body, :data:`soagen.model.PARAMETERS`),
    symbols in the backend's arena like the other inputs."""
    def build(xp):
        model = with_parameters(robot, xp.symbols("params", 10 * robot.nb)) if symbolic_params else robot
        return entry.build(model, input_symbols(robot, xp), xp, variant, frame, context)
    return unrolled(build, where=lambda body: f"{robot.name}: {entry.name}: {joint_of(robot, body)}",
                    backend=backend)


def joint_of(robot, body):
    """Where a per-body quantity of the recursions sits: its body's joint and link."""
    if body is None or not 0 <= body < robot.nb:
        return ""
    b = robot.bodies[body]
    return f"joint {b.joint_name!r} (body {b.name!r}): "


def _total(counts):
    return counts["mul"] + counts["add"] + counts["div"]


def param_names(robot):
    """What each entry of the ``params`` input is (:data:`soagen.model.PARAMETERS`)."""
    return tuple(f"params[{len(PARAMETERS) * i + k}] = {n} of {b.name}"
                 for i, b in enumerate(robot.bodies) for k, n in enumerate(PARAMETERS))


def generate_function(robot, name, fd_variant="best", frame=None, symbolic_params=False, style="auto") -> Function:
    """Unroll the function ``name`` of the registry for ``robot``; with ``symbolic_params``
    its dynamic parameters are an input (``params``). A function with several derivations
    is unrolled in each and the one with the fewest multiplications + additions + divisions
    kept (forward dynamics: only ``fd_variant`` unless it is ``best``); its manifest entry
    records the ``variant`` and every candidate's counts (``candidates``). A frame function
    (``frames="one"``) is at the tip, or with ``frame`` (a :class:`~soagen.model.Frame`)
    at that frame, named ``NAME_<frame>``; a function of several frames takes their list
    as ``frame``. ``style``: see :func:`_function`."""
    if style not in STYLES:
        raise SoagenError(f"unknown --style {style!r} (choose from {', '.join(STYLES)})")
    entry = ENTRIES[name]
    if entry.frames == "several":
        if not frame or len(frame) < 2:
            raise SoagenError(f"{name} needs two or more frames (a tree without a tip, or --frames)")
        fn = _function(robot, entry, fd_variant, list(frame), symbolic_params, style)
        names = ", ".join(f.name for f in frame)
        return replace(fn, shape=(6 * len(frame), 6 * len(frame)), summary=entry.summary.format(frames=names),
                       manifest={"frames": [f.name for f in frame], **fn.manifest})
    if frame is not None and entry.frames != "one":
        raise SoagenError(f"{name} does not take a frame")
    fn = _function(robot, entry, fd_variant, frame, symbolic_params, style)
    if frame is None:
        return fn
    return replace(fn, name=f"{name}_{frame_suffix(frame.name)}",
                   summary=entry.frame_summary.format(frame=frame.name),
                   manifest={"function": name, "frame": frame.name, **fn.manifest})


def _function(robot, entry, fd_variant, frame, symbolic_params, style="auto") -> Function:
    """``entry`` unrolled in each of its variants (forward dynamics: in ``fd_variant`` alone
    unless ``best``), the one with the fewest operations kept. The dense route (``ldl``,
    O(n^3) on a chain) is unrolled last, and not at all when its factorization alone,
    counted on the pattern of M, exceeds the cheapest O(N) variant (a long chain: its
    unrolling would cost more than all the rest); the manifest says so (``skipped``).

    ``style``: ``unrolled``, ``looped`` (the factorization and solves of ``ldl`` as loops,
    :mod:`soagen.codegen.loops`; only for functions that have that variant, the others stay
    unrolled) or ``auto``: the looped form where the cost model (:mod:`soagen.codegen.cost`)
    finds it faster than the cheapest unrolled one. The manifest records the ``style``
    and the ``code_bytes_estimate``."""
    context = entry.context(robot) if entry.context else None
    manifest = entry.manifest(context) if entry.manifest else {}
    named = fd_variant if entry.name == "forward_dynamics" and fd_variant != "best" else None
    can_loop = entry.looped and named in (None, "ldl") and not symbolic_params and robot.nv > 1
    progs, skipped = {}, {}
    if style != "looped" or not can_loop:
        variants = entry.unrolled_variants(named) if entry.variants else (None,)
        progs = {v: _unrolled(robot, entry, v, frame, symbolic_params, context) for v in variants if v != "ldl"}
        if "ldl" in variants:
            dense = 2 * ltdl_multiplications(robot)       # the factorization's mul + add alone
            fewest = min((_total(p.counts) for p in progs.values()), default=None)
            if fewest is not None and dense > fewest:
                skipped["ldl"] = f"not unrolled: its L^T D L alone takes about {dense} operations on the " \
                                 f"pattern of M, the cheapest variant {fewest} in all"
            else:
                progs["ldl"] = _unrolled(robot, entry, "ldl", frame, symbolic_params, context)
    variants = tuple(v for v in progs)
    best = min(variants, key=lambda v: (_total(progs[v].counts), variants.index(v))) if variants else None
    looped = None
    if can_loop and style in ("auto", "looped"):
        looped = _unrolled(robot, entry, "ldl", frame, symbolic_params, context, backend=LoopedBackend)
        if style == "auto" and estimate_ns(looped.counts, loop_counts(looped), LOOP_CODE_BYTES) \
                >= estimate_ns(progs[best].counts):
            looped.release()
            looped = None
    if looped is not None:
        for p in progs.values():
            p.release()
        progs, variant, prog = {"ldl": looped}, "ldl", looped
        manifest = {"variant": "ldl", **manifest, "style": "looped", "loop_ops": loop_counts(looped)}
    else:
        variant, prog = best, progs[best]
        if best is not None:
            manifest = {"variant": best, **manifest}
        if len(variants) > 1 or skipped:
            manifest["candidates"] = {v: dict(progs[v].counts) for v in variants}
        if skipped:
            manifest["skipped"] = skipped
        for v, p in progs.items():
            if v != best:
                p.release()
        manifest["style"] = "unrolled"
    manifest["code_bytes_estimate"] = code_bytes(prog.counts) + (LOOP_CODE_BYTES if looped is not None else 0)
    (out, shape), *more = entry.outputs
    nframes = len(frame) if isinstance(frame, list) else 1
    equations = entry.variant_equations(variant) + ("; the L^T D L and its solves as loops along the parent "
                                                    "array (looped style)" if looped is not None else "")
    return Function(entry.name, entry.inputs, out, dims(robot, shape, nframes), entry.summary,
                    equations, prog, variant, manifest, tuple((n, dims(robot, sh)) for n, sh in more))


def check_algorithms(names):
    """Validate a list of algorithm names (SoagenError on a bad one)."""
    for n in names:
        if n not in ENTRIES:
            raise SoagenError(f"unknown algorithm {n!r} (choose from {', '.join(ENTRIES)})")


def without_inverse(robot, names):
    """(kept, left out): ``names`` without the functions that need M^-1 when the robot's
    mass matrix is singular at a generic configuration, and those."""
    from soagen.loaders.solvable import singular_mass_matrix

    dropped = [n for n in names if ENTRIES[n].needs_minv]
    if not dropped or singular_mass_matrix(robot) is None:
        return list(names), []
    return [n for n in names if not ENTRIES[n].needs_minv], dropped


def refuse_inverse(robot, names):
    """Refuse, before anything is unrolled, the functions of ``names`` that need M^-1 when
    the robot's mass matrix is singular: one line naming them, the joints and the fix."""
    from soagen.loaders.solvable import singular_mass_matrix

    wanted = [n for n in names if ENTRIES[n].needs_minv]
    found = singular_mass_matrix(robot) if wanted else None
    if found:
        element, problem = found
        raise SoagenError(f"{robot.source}: {element}: {', '.join(wanted)} need{'s' if len(wanted) == 1 else ''} "
                          f"M^-1, but {problem}")
