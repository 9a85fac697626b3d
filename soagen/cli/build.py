"""`soagen build ROBOT|SYSTEM`: the generated C compiled into an importable Python module."""

from __future__ import annotations

import click

from soagen.cli.options import (
    CommaList,
    cflags_option,
    fd_variant_option,
    robot_argument,
    robot_file_options,
)


@click.command()
@robot_argument
@robot_file_options
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default=".",
              show_default=True, help="Output directory for the module and its sources (created if needed).")
@click.option("--name", "prefix", metavar="PREFIX", default=None,
              help="Module name and C prefix (default: the robot's name).")
@click.option("--algorithms", "algos", metavar="LIST", type=CommaList(), default="all", show_default=True,
              help="Comma-separated functions (as for `soagen generate`).")
@fd_variant_option
@cflags_option
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def build(robot, load, out_dir, prefix, algos, fd_variant, cflags, quiet):
    """Compile the generated dynamics of ROBOT (or of a closed-chain SYSTEM file) into a
    Python extension module PREFIX: numpy in, numpy out, batched over any leading
    dimensions, on the --batch C kernels (W states per vector), the GIL released.

    Needs only the system C compiler (cc, or $CC) and the headers that come with Python and
    numpy. Writes PREFIX.c, PREFIX.h, PREFIX_module.c, PREFIX_manifest.json and the module
    (PREFIX + the interpreter's extension suffix) into OUT; use it with
    `sys.path.insert(0, OUT); import PREFIX; PREFIX.forward_dynamics(q, qd, tau)`.
    """
    import time

    from soagen import output_dir
    from soagen.cli.generate import progress_bar, robot_algorithms
    from soagen.cli.options import model_file
    from soagen.codegen.extension import build as build_module

    robot, system = model_file(robot)
    output_dir.check(out_dir)
    langs = ("c", "python_ext")
    t0 = time.perf_counter()
    if system:
        from soagen.codegen.closed_chain import render as render_system
        from soagen.loaders.closed_chain import load_system

        ctx, step = progress_bar(2, quiet)
        with ctx:
            result = render_system(load_system(robot), robot, langs=langs, prefix=prefix, batch=True, progress=step)
    else:
        from soagen.codegen.robot import render

        model = load.load(robot)
        names = robot_algorithms(model, algos)
        ctx, step = progress_bar(len(names), quiet)
        with ctx:
            result = render(model, model.source, algorithms=names, langs=langs, prefix=prefix, fd_variant=fd_variant,
                            batch=True, progress=step, load_args=load.args())
    paths = build_module(result, out_dir, cflags)
    module = paths[-1]
    click.echo(f"built {module} ({time.perf_counter() - t0:.2f} s): "
               f"{', '.join(f.name for f in result.functions)}")
    click.echo(f"use: sys.path.insert(0, {str(module.parent)!r}); import {result.manifest['prefix']}")
