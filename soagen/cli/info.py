"""`soagen info ROBOT`: what the loader made of a robot file (or a closed-chain system file)."""

from __future__ import annotations

import re

import click

from soagen.cli.options import (
    floating_base_option,
    robot_argument,
    robot_file_options,
    tip_option,
)


@click.command()
@robot_argument
@tip_option
@floating_base_option
@robot_file_options
def info(robot, tip, floating_base):
    """Print the model of ROBOT (a .yaml, .urdf, .urdf.xacro or MJCF .xml file, or the
    name of a bundled robot): bodies, joints, dofs, mass.

    Fixed joints (and joints locked with --lock) are shown merged into their parent
    body, as the algorithms see them. Bodies are listed base to tip; the `k` column is
    the papers' link number (tip = 1 .. base = N) for a serial chain. Warnings about the
    file (dubious but finite data) go to stderr. For a closed-chain system file: its
    arms, their joints in q, grasps and constraint counts, and the held object.
    """
    import numpy as np

    from soagen.cli import tables
    from soagen.cli.options import load_robot, model_file

    robot, system = model_file(robot)
    if system:
        return _system_info(robot)
    model = load_robot(robot, tip=tip, floating_base=floating_base)
    console = tables.console()
    rows = []
    for i, b in enumerate(model.bodies):
        parent = model.bodies[b.parent].name if b.parent >= 0 else model.base
        axis = " ".join(f"{x:g}" for x in b.joint.axis) if b.joint.kind in ("revolute", "prismatic") else "-"
        k = str(model.nb - i) if model.is_chain else "-"
        kind = b.joint.urdf_type if b.joint.urdf_type and b.joint.urdf_type != b.joint.kind \
            else b.joint.kind
        rows.append([i, k, b.name, b.joint_name, kind, axis, parent, f"{b.mass:.4g}",
                     _span(b.q_index, b.nq), _span(b.v_index, b.nv)])
    table = tables.table(f"{model.name}  ({model.source})",
                         [("#", "number"), ("k", "number"), ("body", "name"), ("joint", "name"),
                          ("type", "name"), ("axis", "name"), ("parent", "name"), ("mass (kg)", "number"),
                          ("q", "name"), ("v", "name")], rows)
    tables.show(console, table)
    if model.is_flexible:
        _flexible_info(console, model)
    tip_text = "none (branching tree)" if model.tip is None else \
        f"{model.tip.name} on body {model.bodies[model.tip.body].name}, offset " \
        f"[{' '.join(f'{x:.4g}' for x in model.tip.r)}]"
    console.print(f"topology: {'serial chain' if model.is_chain else 'tree'}, bodies {model.nb}, "
                  f"nq {model.nq}, nv {model.nv}, total moving mass {model.total_mass:.4g} kg")
    console.print(f"gravity: [{' '.join(f'{x:g}' for x in np.asarray(model.gravity))}] m/s^2; tip: {tip_text}")
    feet = floating_feet(model)
    if feet:
        console.print(f"hint: {len(feet)} limbs hang from the base '{model.base}' and end in feet "
                      f"({', '.join(f.name for f in feet)}): a floating robot? This model bolts "
                      f"'{model.base}' to the world; --floating-base adds the free joint.")


FOOT = re.compile(r"sole|foot|feet|toe|ankle", re.IGNORECASE)


def floating_feet(model):
    """The feet of a robot that looks floating but was loaded on a fixed base: the
    foot-like leaf frames (sole, foot, toe, ankle) of two or more limbs that hang from the
    base (a quadruped's trunk, a humanoid's pelvis); empty otherwise."""
    from soagen.codegen.frames import leaf_frames

    if any(b.joint.kind == "free" for b in model.bodies):
        return []

    def limb(i):                       # the body of the limb's first joint, on the base
        while model.bodies[i].parent >= 0:
            i = model.bodies[i].parent
        return i

    feet = [f for f in leaf_frames(model) if FOOT.search(f.name) or FOOT.search(model.bodies[f.body].name)]
    return feet if len({limb(f.body) for f in feet}) >= 2 else []


def _flexible_info(console, model):
    """Each flexible link: its model, its modal coordinates in q, the clamped natural
    frequencies of the retained modes and the first elastic frequencies with its joint
    free (pinned, passive): with those modes, and with every FE dof of a beam (the value
    the truncation approximates; docs/flexible.md "Which modes")."""
    from soagen.cli import tables
    from soagen.loaders.flexible import pinned_frequencies

    hz = lambda w: "-" if w is None else ", ".join(f"{x / (2 * 3.141592653589793):.4g}" for x in w)   # noqa: E731
    rows = []
    for b in model.bodies:
        if b.m:
            modal, full = pinned_frequencies(b)
            rows.append([b.name, b.flex.summary, _span(b.q_index + b.joint.nq, b.m), hz(b.flex.frequencies),
                         hz(modal), hz(full)])
    table = tables.table("flexible links (frequencies in Hz)",
                         [("body", "name"), ("model", "text"), ("eta in q", "name"), ("clamped", "text"),
                          ("pinned (modes)", "text"), ("pinned (all FE dofs)", "text")], rows)
    tables.show(console, table)
    console.print("pinned: the link with its joint free (no motor, no spring): one clamped mode per link puts the "
                  "first pinned frequency about 33% high (docs/flexible.md, \"Which modes\")")


def _system_info(path):
    import numpy as np

    from soagen import load_system
    from soagen.cli import tables

    s = load_system(path)
    console = tables.console()
    rows = []
    for a, o in zip(s.arms, s.offsets()):
        g = a.grasp
        holonomic = "" if g.holonomic.shape[1] == g.n_c else f" ({g.holonomic.shape[1]} in position)"
        rows.append([a.name, a.robot.name, a.n, _span(o, a.n), ",".join(f"{x:.3g}" for x in a.base_r),
                     f"{g.kind} at {g.frame}", f"{g.n_c}{holonomic}"])
    table = tables.table(f"{s.name}  ({s.source})",
                         [("arm", "name"), ("robot", "name"), ("joints", "number"), ("q", "name"),
                          ("base at", "name"), ("grasp", "text"), ("n_c", "name")], rows)
    tables.show(console, table)
    kind = "Type 0: arms holding an object" if s.kind == 0 else "Type 1: legs carrying a body"
    m = sum(a.grasp.n_c for a in s.arms)
    console.print(f"{kind} (Lilly-Orin); l = {s.l} arms, n = {s.n} arm joints, {m} grasp "
                  f"constraints (n_c: constrained directions per grasp); mobility n + 6 - {m} = {s.n + 6 - m}")
    o = s.obj
    console.print(f"object {o.name!r}: mass {o.mass:.4g} kg, centre of mass "
                  f"[{' '.join(f'{x:.4g}' for x in o.com)}] in frame C; "
                  f"gravity [{' '.join(f'{x:g}' for x in np.asarray(s.gravity))}] m/s^2")


def _span(start, n):
    return str(start) if n == 1 else f"{start}..{start + n - 1}"
