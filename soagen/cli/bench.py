"""`soagen bench ROBOT`: generated C vs Pinocchio vs the numpy reference, in one run."""

from __future__ import annotations

import click

from soagen.cli.options import (
    fd_variant_option,
    floating_base_option,
    robot_argument,
    tip_option,
)


def _fmt(ns):
    if ns is None:
        return "-"
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


@click.command()
@robot_argument
@tip_option
@floating_base_option
@click.option("--algorithms", "algos", metavar="LIST", default="all", show_default=True,
              help="Comma-separated functions to time (as for `soagen generate`).")
@fd_variant_option
@click.option("--repeats", type=click.IntRange(1, 1001), default=11, show_default=True,
              help="Timing repeats of the C loop (the median is reported).")
@click.option("--iterations", type=click.IntRange(1), default=None,
              help="Calls per repeat in the C loop (default: about 20 ms of work).")
@click.option("--cflags", default="-O3 -march=native", show_default=True,
              help="Compiler flags for the generated C.")
@click.option("--no-numpy", is_flag=True, help="Skip timing the generic numpy reference.")
@click.option("--no-pinocchio", is_flag=True, help="Skip Pinocchio even if installed.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def bench(robot, tip, floating_base, algos, fd_variant, repeats, iterations, cflags, no_numpy, no_pinocchio, quiet):
    """Time the generated code for ROBOT and compare with Pinocchio and numpy.

    Generates C for ROBOT, compiles it (default -O3 -march=native) together with a C
    timing loop, and prints the median time per call of each function next to the
    generated Python, the generic numpy reference and Pinocchio (if `pin` is installed
    and ROBOT is a URDF), then the operation counts next to the papers' counts
    (Lilly-Orin Table 2, Featherstone's RNEA/CRBA/ABA).

    For a closed-chain system file: the generated closed-chain forward dynamics against
    Pinocchio's constraintDynamics and the numpy methods (lilly_orin, rccfd1, dense), and
    its operation count against Lilly-Orin Tables 2-3.
    """
    from soagen.cli.generate import parse_algorithms, progress_bar
    from soagen.closed_chain.loader import is_system_file
    from soagen.codegen import bench as B
    from soagen.loaders.bundled import resolve

    flags = tuple(cflags.split())
    robot = str(resolve(robot))                 # a bundled robot's name, or the file
    if is_system_file(robot):
        from soagen.cli.options import refuse_robot_options
        from soagen.closed_chain import bench as CB

        refuse_robot_options(robot, {"--tip": tip, "--floating-base": floating_base,
                                     "--algorithms": algos != "all", "--fd-variant": fd_variant != "best"})
        ctx, step = progress_bar(2, quiet)
        with ctx:
            res = CB.run_system_bench(robot, with_numpy=not no_numpy, with_pinocchio=not no_pinocchio,
                                      iters=iterations, repeats=repeats, flags=flags, progress=step)
        _report(res, CB.ops_rows(res), CB.PAPER, [CB.numpy_note(res)], "n")
        return
    names = parse_algorithms(algos)
    ctx, step = progress_bar(len(names), quiet)
    with ctx:
        res = B.run_bench(robot, tip=tip, algorithms=names, fd_variant=fd_variant,
                          with_numpy=not no_numpy, with_pinocchio=not no_pinocchio,
                          iters=iterations, repeats=repeats, flags=flags,
                          progress=step, floating_base=floating_base)
    rows = []
    refs = {}
    for n, label, pm, pa, _, _ in B.paper_rows(res.nv, res.counts):
        refs.setdefault(n, []).append((label, pm, pa))
    for n, c in res.counts.items():
        for k, (label, pm, pa) in enumerate(refs.get(n) or [("", "", "")]):
            rows.append((n, c["mul"], c["add"], c["div"], c["trig"], label, pm, pa) if k == 0 else
                        ("", "", "", "", "", label, pm, pa))
    _report(res, rows, B.PAPER_SOURCES, [], "nv")


def _report(res, ops_rows, paper_sources, notes, size_name):
    """Print the timing table, the notes and the operation-count table."""
    from rich.console import Console
    from rich.table import Table

    con = Console(width=140)
    t = Table(title=f"{res.robot} ({size_name} = {res.nv}): ns per call, median "
                    f"[C: {' '.join(res.flags)}]")
    for col in ("function", "generated C", "Pinocchio", "Pin. fn", "Pin./C", "generated Py", "numpy ref", "numpy/C"):
        t.add_column(col, justify="left" if col in ("function", "Pin. fn") else "right")
    for n, c in res.c_ns.items():
        label, pin = res.pin_ns.get(n, ("-", None))
        npy = res.numpy_ns.get(n)
        t.add_row(n + (f" [{res.fd_variant}]" if n == "forward_dynamics" and res.fd_variant else ""),
                  _fmt(c), _fmt(pin), label, f"{pin / c:.1f}x" if pin else "-",
                  _fmt(res.generated_py_ns.get(n)), _fmt(npy), f"{npy / c:.0f}x" if npy else "-")
    con.print(t)
    for note in [res.pin_note, *notes]:
        if note:
            con.print(note)
    ops = Table(title="operation counts (generated) vs the papers")
    for col in ("function", "mul", "add", "div", "sin/cos", "paper", "paper mul", "paper add"):
        ops.add_column(col, justify="left" if col in ("function", "paper") else "right")
    for row in ops_rows:
        ops.add_row(*[str(x) for x in row])
    con.print(ops)
    con.print(f"paper counts: {paper_sources}")
    n = len(res.counts)
    con.print(f"code generation ({n} function{'s' if n != 1 else ''}): {res.generation_s:.2f} s wall, "
              f"{res.generation_cpu_s:.2f} s CPU")
