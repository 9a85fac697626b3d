"""`soagen generate ROBOT`: unrolled, straight-line C and Python dynamics for one robot."""

from __future__ import annotations

import click

from soagen.cli.options import (
    CommaList,
    fd_variant_option,
    robot_argument,
    robot_file_options,
    style_option,
)
from soagen.codegen.registry import algorithms_help

LANGS = {"c": ("c",), "python": ("python",), "jax": ("jax",), "torch": ("torch",), "casadi": ("casadi",),
         "all": ("c", "python", "jax", "torch", "casadi")}


LANG_LIST = CommaList(choices=tuple(LANGS), expand=LANGS)
"""--lang: 'c', 'python', 'jax', 'torch', 'casadi', 'all' or a comma-separated list of them."""


def parse_algorithms(names):
    """Algorithm names (the words of --algorithms, or one comma-separated string), where
    'all' stands for the default set (``all,inverse_dynamics_derivatives``: those and one
    more); validated later, against the robot."""
    from soagen.codegen.registry import DEFAULT

    if isinstance(names, str) or names is None:
        names = CommaList().convert(names or "all", None, None)
    return list(dict.fromkeys(n for a in names for n in (DEFAULT if a == "all" else (a,))))


def robot_algorithms(model, text):
    """The functions --algorithms asks of ``model``, validated: as named; by default (the
    option not given) those of 'all' the model allows: when its mass matrix is singular,
    what needs M^-1 is left out with a warning (named explicitly, the generator refuses
    it)."""
    import warnings

    from soagen.cli.options import given
    from soagen.codegen.functions import check_algorithms, without_inverse
    from soagen.errors import RobotFileWarning

    names = parse_algorithms(text)
    check_algorithms(names)
    if given("algos"):
        return names
    names, dropped = without_inverse(model, names)
    if dropped:
        warnings.warn(RobotFileWarning(model.source, "--algorithms", f"left out {', '.join(dropped)}: they need "
                                       "M^-1 and the mass matrix is singular (the warning on the joints says where, and the fix)"))
    return names


def progress_bar(total, quiet):
    """A rich progress bar on stderr (a no-op when quiet); returns (context, step)."""
    import contextlib

    if quiet:
        return contextlib.nullcontext(), (lambda name: None)
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    from soagen.cli.options import progress

    prog = progress(TextColumn("unrolling {task.description:<26}"), BarColumn(),
                    TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn())
    task = prog.add_task("", total=total)
    state = {"started": False}

    def step(name):
        if state["started"]:
            prog.advance(task)
        state["started"] = True
        prog.update(task, description=name)

    return prog, step


@click.command()
@robot_argument
@robot_file_options
@click.option("--lang", metavar="LIST", type=LANG_LIST, default="all", show_default=True,
              help="Which files to write, comma-separated: c (PREFIX.h + PREFIX.c), python (PREFIX.py), "
                   "jax (PREFIX_jax.py), torch (PREFIX_torch.py), casadi (PREFIX_casadi.py); all: every "
                   "one of these.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default=".",
              show_default=True, help="Output directory (created if needed).")
@click.option("--name", "prefix", metavar="PREFIX", default=None,
              help="File and C symbol prefix (default: the robot's name).")
@click.option("--algorithms", "algos", metavar="LIST", type=CommaList(), default="all", show_default=True,
              help=algorithms_help())
@fd_variant_option
@click.option("--symbolic-params", is_flag=True,
              help="Keep masses, centres of mass and inertias as inputs (params, 10 per "
                   "body) instead of baking the robot file's numbers in.")
@click.option("--numpy", "use_numpy", is_flag=True,
              help="Python output on numpy arrays with leading batch dimensions "
                   "(default: stdlib math on lists).")
@click.option("--batch", is_flag=True,
              help="Also PREFIX_<function>_batch(n, ...) in the C: n states, row-major, W at a "
                   "time on the compiler's vector types (docs/codegen.md).")
@click.option("--frames", "frames", metavar="LINK,...", type=CommaList(), default=None,
              help="Generate the frame functions (jacobian, jacobian_dot_qd, "
                   "op_space_inverse_inertia) for these links of the robot file, named "
                   "jacobian_<link> etc. Default: at the tip; for a branching robot without a "
                   "tip, one frame per leaf body (each foot, hand, head: its sole/foot/"
                   "gripper/tool/tip link if it has one, else the body's link).")
@style_option
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def generate(robot, load, lang, out_dir, prefix, algos, fd_variant, symbolic_params, use_numpy,
             batch, frames, style, quiet):
    """Generate straight-line dynamics code for ROBOT, or the closed-chain forward
    dynamics of a system file (arms or legs coupled through one object, any grasp types,
    docs/closed-chains.md).

    ROBOT is a robot file: YAML (.yaml, docs/robot-format.md), URDF (.urdf), xacro
    (.urdf.xacro, .xacro) or MJCF (.xml); or the name of a bundled robot (puma560, arm7,
    ...); or a closed-chain system file (.yaml with arms and an object), or the name of
    a bundled one (dual_arm_box, ...).

    The recursions of the generic implementation are run on symbols for this
    robot, with every intermediate quantity named as it is produced (so the code grows
    linearly with the number of joints), and printed as C99 (PREFIX.h, PREFIX.c: needs
    only <math.h>, no allocation) and/or Python (PREFIX.py), plus PREFIX_manifest.json
    with the operation counts. Joint order and conventions are those of the generic API.
    """
    import time

    from soagen import output_dir
    from soagen.cli.options import model_file
    from soagen.codegen.emit import write
    from soagen.codegen.frames import frames_for
    from soagen.codegen.robot import render

    robot, system = model_file(robot)
    if system:
        return generate_system(robot, lang, out_dir, prefix, quiet, batch)
    model = load.load(robot)
    names = robot_algorithms(model, algos)
    frame_names = list(frames) if frames else None
    frames_for(model, frame_names)                     # unknown links: one line, before any work
    output_dir.check(out_dir)
    t0 = time.perf_counter()
    ctx, step = progress_bar(len(names), quiet)
    with ctx:
        result = render(model, model.source, algorithms=names, langs=lang, prefix=prefix,
                        fd_variant=fd_variant, symbolic_params=symbolic_params,
                        numpy=use_numpy, batch=batch, progress=step, frames=frame_names,
                        load_args=load.args(), style=style)
    paths = write(result, out_dir)
    seconds = time.perf_counter() - t0
    width = max([26] + [len(f.name) for f in result.functions])
    for f in result.functions:
        c = f.counts
        extra = f"  [{f.variant}{', looped' if f.manifest.get('style') == 'looped' else ''}]" if f.variant else ""
        click.echo(f"{f.name:{width}s} {c['mul']:6d} mul {c['add']:6d} add {c['div']:3d} div "
                   f"{c['trig']:3d} sin/cos{extra}")
    click.echo(f"wrote {', '.join(str(p) for p in paths)} ({seconds:.2f} s)")


def generate_system(path, langs, out_dir, prefix, quiet, batch):
    """`soagen generate SYSTEM`: one function, closed_chain_forward_dynamics(q, qd, tau[, obj])."""
    import time

    from soagen import output_dir
    from soagen.codegen.closed_chain import generate as generate_closed_chain

    output_dir.check(out_dir)
    t0 = time.perf_counter()
    ctx, step = progress_bar(2, quiet)
    with ctx:
        result, paths = generate_closed_chain(path, out_dir, langs=langs, prefix=prefix, batch=batch,
                                              progress=step)
    for f in result.functions:
        c = f.counts
        click.echo(f"{f.name}({', '.join(f.inputs)}): {c['mul']} mul {c['add']} add {c['div']} div "
                   f"{c['trig']} sin/cos")
    click.echo(f"wrote {', '.join(str(p) for p in paths)} ({time.perf_counter() - t0:.2f} s)")
