"""`soagen info ROBOT`: what the loader made of a robot file (or a closed-chain system file),
as tables or as JSON for scripts (the same facts: :func:`robot_facts`, :func:`system_facts`)."""

from __future__ import annotations

import re

import click

from soagen.cli.options import robot_argument, robot_file_options

TWO_PI = 2 * 3.141592653589793


@click.command()
@robot_argument
@robot_file_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table: for reading; json: the same facts for scripts on stdout (model, bodies and joints, "
                   "flexible links' frequencies, the file's warnings, hints), warnings also on stderr.")
def info(robot, load, fmt):
    """Print the model of ROBOT (a .yaml, .urdf, .urdf.xacro or MJCF .xml file, or the
    name of a bundled robot): bodies, joints, dofs, mass.

    Fixed joints (and joints locked with --lock) are shown merged into their parent
    body, as the algorithms see them. Bodies are listed base to tip; the `k` column is
    the papers' link number (tip = 1 .. base = N) for a serial chain. Warnings about the
    file (dubious but finite data) go to stderr (and, with --format json, into the JSON).
    For a closed-chain system file: its arms, their joints in q, grasps and constraint
    counts, and the held object.
    """
    import json
    import warnings

    from soagen.cli.options import model_file
    from soagen.errors import RobotFileWarning

    path, system = model_file(robot)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RobotFileWarning)
        facts = system_facts(path) if system else robot_facts(load.load(path))
    notes = [w for w in caught if issubclass(w.category, RobotFileWarning)]
    for w in notes:                                   # to stderr, as every command prints them
        warnings.warn(w.message)
    if fmt == "json":
        facts["warnings"] = [{"file": w.message.path, "element": w.message.element, "problem": w.message.problem}
                             for w in notes]
        click.echo(json.dumps(facts, indent=2))
    elif system:
        _system_tables(facts)
    else:
        _robot_tables(facts)


def _numbers(x):
    return [float(v) for v in x]


def robot_facts(model) -> dict:
    """Everything `soagen info` shows of a robot, as plain data (the JSON of --format json)."""
    import numpy as np

    bodies = []
    for i, b in enumerate(model.bodies):
        bodies.append({
            "index": i, "k": model.nb - i if model.is_chain else None, "body": b.name, "joint": b.joint_name,
            "type": b.joint.kind, "file_type": b.joint.urdf_type or b.joint.kind,
            "axis": _numbers(b.joint.axis) if b.joint.kind in ("revolute", "prismatic") else None,
            "parent": model.bodies[b.parent].name if b.parent >= 0 else model.base,
            "mass": float(b.mass), "com": _numbers(b.com), "inertia": [_numbers(r) for r in b.inertia],
            "q": [b.q_index, b.nq], "v": [b.v_index, b.nv], "modes": b.m,
            "spring": {"stiffness": b.joint.stiffness, "damping": b.joint.damping, "rest": b.joint.rest}
            if b.joint.elastic else None})
    tip = None if model.tip is None else {"name": model.tip.name, "body": model.bodies[model.tip.body].name,
                                          "offset": _numbers(model.tip.r)}
    feet = floating_feet(model)
    return {"kind": "robot", "name": model.name, "source": str(model.source),
            "topology": "serial chain" if model.is_chain else "tree", "nb": model.nb, "nq": model.nq,
            "nv": model.nv, "total_mass": float(model.total_mass),
            "gravity": _numbers(np.asarray(model.gravity)), "base": model.base, "tip": tip, "bodies": bodies,
            "flexible": _flexible_facts(model) if model.is_flexible else [],
            "hint": None if not feet else (
                f"{len(feet)} limbs hang from the base '{model.base}' and end in feet "
                f"({', '.join(f.name for f in feet)}): a floating robot? This model bolts '{model.base}' to the "
                "world; --floating-base adds the free joint.")}


def _flexible_facts(model):
    """Each flexible link: its model, its modal coordinates in q, the clamped natural
    frequencies of the retained modes and the first elastic frequencies with its joint
    free (pinned, passive): with those modes, and with every FE dof of a beam (the value
    the truncation approximates; docs/flexible.md "Which modes"), in Hz."""
    from soagen.loaders.flexible import pinned_frequencies

    hz = lambda w: None if w is None else [float(x) / TWO_PI for x in w]    # noqa: E731
    out = []
    for b in model.bodies:
        if b.m:
            modal, full = pinned_frequencies(b)
            out.append({"body": b.name, "model": b.flex.summary, "modes": list(b.flex.names),
                        "eta_q": [b.q_index + b.joint.nq, b.m], "clamped_hz": hz(b.flex.frequencies),
                        "pinned_modes_hz": hz(modal), "pinned_all_fe_dofs_hz": hz(full)})
    return out


def _robot_tables(f):
    from soagen.cli import tables

    console = tables.console()
    rows = [[b["index"], "-" if b["k"] is None else b["k"], b["body"], b["joint"],
             b["file_type"] if b["file_type"] != b["type"] else b["type"],
             "-" if b["axis"] is None else " ".join(f"{x:g}" for x in b["axis"]), b["parent"], f"{b['mass']:.4g}",
             _span(*b["q"]), _span(*b["v"])] for b in f["bodies"]]
    table = tables.table(f["name"], [("#", "number"), ("k", "number"), ("body", "name"), ("joint", "name"),
                                     ("type", "name"), ("axis", "name"), ("parent", "name"),
                                     ("mass (kg)", "number"), ("q", "name"), ("v", "name")], rows)
    console.print(f"file: {f['source']}", soft_wrap=True)
    tables.show(console, table)
    if f["flexible"]:
        hz = lambda w: "-" if w is None else ", ".join(f"{x:.4g}" for x in w)   # noqa: E731
        rows = [[x["body"], x["model"], _span(*x["eta_q"]), hz(x["clamped_hz"]), hz(x["pinned_modes_hz"]),
                 hz(x["pinned_all_fe_dofs_hz"])] for x in f["flexible"]]
        tables.show(console, tables.table("flexible links (frequencies in Hz)",
                                          [("body", "name"), ("model", "text"), ("eta in q", "name"),
                                           ("clamped", "text"), ("pinned (modes)", "text"),
                                           ("pinned (all FE dofs)", "text")], rows))
        console.print("pinned: the link with its joint free (no motor, no spring): one clamped mode per link puts "
                      "the first pinned frequency about 33% high (docs/flexible.md, \"Which modes\")")
    tip = f["tip"]
    tip_text = "none (branching tree)" if tip is None else \
        f"{tip['name']} on body {tip['body']}, offset [{' '.join(f'{x:.4g}' for x in tip['offset'])}]"
    console.print(f"topology: {f['topology']}, bodies {f['nb']}, nq {f['nq']}, nv {f['nv']}, "
                  f"total moving mass {f['total_mass']:.4g} kg")
    console.print(f"gravity: [{' '.join(f'{x:g}' for x in f['gravity'])}] m/s^2; tip: {tip_text}")
    if f["hint"]:
        console.print(f"hint: {f['hint']}")


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


def system_facts(path) -> dict:
    """Everything `soagen info` shows of a closed-chain system file, as plain data."""
    import numpy as np

    from soagen import load_system

    s = load_system(path)
    arms = [{"arm": a.name, "robot": a.robot.name, "joints": a.n, "q": [int(o), a.n], "base_at": _numbers(a.base_r),
             "grasp": a.grasp.kind, "frame": a.grasp.frame, "n_c": a.grasp.n_c,
             "holonomic": int(a.grasp.holonomic.shape[1])} for a, o in zip(s.arms, s.offsets())]
    m = sum(a.grasp.n_c for a in s.arms)
    o = s.obj
    return {"kind": "system", "name": s.name, "source": str(s.source), "type": s.kind, "l": s.l, "n": s.n,
            "constraints": m, "mobility": s.n + 6 - m, "arms": arms,
            "object": {"name": o.name, "mass": float(o.mass), "com": _numbers(o.com)},
            "gravity": _numbers(np.asarray(s.gravity))}


def _system_tables(f):
    from soagen.cli import tables

    console = tables.console()
    rows = []
    for a in f["arms"]:
        holonomic = "" if a["holonomic"] == a["n_c"] else f" ({a['holonomic']} in position)"
        rows.append([a["arm"], a["robot"], a["joints"], _span(*a["q"]), ",".join(f"{x:.3g}" for x in a["base_at"]),
                     f"{a['grasp']} at {a['frame']}", f"{a['n_c']}{holonomic}"])
    table = tables.table(f["name"], [("arm", "name"), ("robot", "name"), ("joints", "number"), ("q", "name"),
                                     ("base at", "name"), ("grasp", "text"), ("n_c", "name")], rows)
    console.print(f"file: {f['source']}", soft_wrap=True)
    tables.show(console, table)
    kind = "Type 0: arms holding an object" if f["type"] == 0 else "Type 1: legs carrying a body"
    console.print(f"{kind} (Lilly-Orin); l = {f['l']} arms, n = {f['n']} arm joints, {f['constraints']} grasp "
                  f"constraints (n_c: constrained directions per grasp); mobility n + 6 - {f['constraints']} = "
                  f"{f['mobility']}")
    o = f["object"]
    console.print(f"object {o['name']!r}: mass {o['mass']:.4g} kg, centre of mass "
                  f"[{' '.join(f'{x:.4g}' for x in o['com'])}] in frame C; "
                  f"gravity [{' '.join(f'{x:g}' for x in f['gravity'])}] m/s^2")


def _span(start, n):
    return str(start) if n == 1 else f"{start}..{start + n - 1}"
