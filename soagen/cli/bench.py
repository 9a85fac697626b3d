"""`soagen bench ROBOT`: generated C vs Pinocchio vs the numpy reference, in one run."""

from __future__ import annotations

import click

from soagen.cli.options import (
    CommaList,
    cflags_option,
    fd_variant_option,
    robot_argument,
    robot_file_options,
)


def _fmt(ns):
    if ns is None:
        return "-"
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


@click.command()
@robot_argument
@robot_file_options
@click.option("--algorithms", "algos", metavar="LIST", type=CommaList(), default="all", show_default=True,
              help="Comma-separated functions to time (as for `soagen generate`).")
@fd_variant_option
@click.option("--repeats", type=click.IntRange(1, 1001), default=11, show_default=True,
              help="Timing repeats of the C loop (the median is reported).")
@click.option("--iterations", type=click.IntRange(1), default=None,
              help="Calls per repeat in the C loop (default: about 20 ms of work).")
@cflags_option
@click.option("--no-numpy", is_flag=True, help="Skip timing the generic numpy reference.")
@click.option("--no-pinocchio", is_flag=True, help="Skip Pinocchio even if installed.")
@click.option("--no-jax", is_flag=True, help="Skip the JAX output even if jax is installed.")
@click.option("--no-torch", is_flag=True, help="Skip the PyTorch output even if torch is installed "
                                                 "(torch.compile takes a while per function).")
@click.option("--no-gpu", is_flag=True, help="Skip the GPU section (run when JAX or PyTorch sees a GPU).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def bench(robot, load, algos, fd_variant, repeats, iterations, cflags, no_numpy, no_pinocchio,
          no_jax, no_torch, no_gpu, quiet):
    """Time the generated code for ROBOT and compare with Pinocchio and numpy.

    Generates C for ROBOT (with the --batch functions), compiles it (default -O3
    -march=native) together with a C timing loop, and prints, in ns per state, the scalar
    C, the batched C and the Python module of `soagen build` (1000 states per call), the
    JAX and PyTorch outputs (jit-compiled, when installed), Pinocchio (through its Python
    bindings, with their measured overhead), the generated Python and the generic numpy
    reference; then the Python module against the batched C for 1 to 100,000 states per
    call, and the operation counts next to the papers' counts (Lilly-Orin Table 2,
    Featherstone's RNEA/CRBA/ABA). When JAX or PyTorch sees a GPU, a GPU section: states
    per second of inverse and forward dynamics at 1e3 .. 1e7 states per call against the
    memory-bandwidth bound; otherwise it says that no GPU is visible.

    For a closed-chain system file: the generated closed-chain forward dynamics against
    Pinocchio's constraintDynamics and the numpy methods (lilly_orin, rccfd1, dense), and
    its operation count against Lilly-Orin Tables 2-3.
    """
    from soagen.bench import robot as B
    from soagen.cli.generate import parse_algorithms, progress_bar
    from soagen.cli.options import model_file

    robot, system = model_file(robot)           # a bundled robot's or system's name, or the file
    if system:
        from soagen.bench import closed_chain as CB

        ctx, step = progress_bar(2, quiet)
        with ctx:
            res = CB.run_system_bench(robot, with_numpy=not no_numpy, with_pinocchio=not no_pinocchio,
                                      iters=iterations, repeats=repeats, flags=cflags, progress=step)
        _report(res, CB.ops_rows(res), CB.PAPER, [CB.numpy_note(res)], "n")
        return
    names = parse_algorithms(algos)
    ctx, step = progress_bar(len(names), quiet)
    with ctx:
        res = B.run_bench(robot, load=load, algorithms=names, fd_variant=fd_variant,
                          with_numpy=not no_numpy, with_pinocchio=not no_pinocchio,
                          iters=iterations, repeats=repeats, flags=cflags, with_jax=not no_jax,
                          with_torch=not no_torch, progress=step,
                          with_gpu=not no_gpu)
    rows = []
    refs = {}
    for n, label, pm, pa, _, _ in ([] if res.flexible else B.paper_rows(res.nv, res.counts)):
        refs.setdefault(n, []).append((label, pm, pa))
    for n, c in res.counts.items():
        for k, (label, pm, pa) in enumerate(refs.get(n) or [("", "", "")]):
            rows.append((n, c["mul"], c["add"], c["div"], c["trig"], label, pm, pa) if k == 0 else
                        ("", "", "", "", "", label, pm, pa))
    _report(res, rows, B.PAPER_SOURCES, [], "nv")


def _label(res, n):
    return n + (f" [{res.fd_variant}]" if n == "forward_dynamics" and res.fd_variant else "")


def _ratio(a, b, spec):
    return f"{a / b:{spec}}x" if a else "-"


def _module_table(con, res):
    """The Python module against the batched C over batch sizes, and its per-call overhead."""
    import statistics

    from soagen.cli.tables import table

    sizes = sorted(next(iter(res.module_ns.values())))
    overheads, big, rows = [], max(sizes), []
    for name, m in res.module_ns.items():
        c = {**res.batch_ns[name], **res.module_c_ns[name]}
        overheads.append(m[1] - c[1])
        rows.append([name, *[f"{_fmt(m[n])} / {_fmt(c[n])}" for n in sizes], f"{_fmt(m[1] - c[1])} ns"])
    con.print(table("Python module / batched C, ns per state, n states per call",
                    [("function", "name"), *[(f"n = {n:,}", "number") for n in sizes], ("overhead", "number")],
                    rows))
    ratio = statistics.median(res.module_ns[n][big] / res.module_c_ns[n][big] for n in res.module_ns)
    pin = f"; Pinocchio's binding overhead {res.pin_overhead_ns:.0f} ns" if res.pin_overhead_ns else ""
    con.print(f"batched C: the C harness for n < {min(next(iter(res.module_c_ns.values())))}, else called through "
              f"ctypes alternately with the module (same machine load). Module call overhead (n = 1, module - "
              f"batched C): median {statistics.median(overheads):.0f} ns{pin}; at n = {big:,} the module takes "
              f"{ratio:.2f}x the batched C per state (median over functions)")


def _gpu_table(con, res):
    """The GPU section: states per second against the memory-bandwidth bound, or why not."""
    from soagen.cli.tables import table

    if res.gpu is None:
        if res.gpu_note:
            con.print(res.gpu_note)
        return
    rows = []
    for r in res.gpu.rows:
        rate = f"{r.states_per_s:.3g}" if r.states_per_s else "out of memory"
        share = f"{r.states_per_s / r.bound_states_per_s:.0%}" if r.states_per_s else "-"
        rows.append([r.library, r.device, r.function, f"{r.n:.0e}", rate, f"{r.bound_states_per_s:.3g}", share])
    con.print(table("GPU: states per second (n states per call)",
                    [("library", "name"), ("device", "text"), ("function", "name"), ("n", "number"),
                     ("states/s", "number"), ("bandwidth bound", "number"), ("of bound", "number")], rows))
    con.print(res.gpu_note)


def _timing_tables(con, res, size_name):
    """The generated code's timings, then the peers' (Pinocchio, the generated Python, the
    numpy reference): two tables, so that each fits 100 columns with whole names."""
    from soagen.bench.throughput import NB
    from soagen.cli.tables import table

    per_state = bool(res.batch_ns)
    pin = {n: res.pin_ns.get(n, ("-", None)) for n in res.c_ns}
    ours = [("function", "name", lambda n, c: _label(res, n)), ("C", "number", lambda n, c: _fmt(c))]
    if per_state:
        ours += [(f"C loop {NB}", "number", lambda n, c: _fmt(res.scalar_loop_ns[n])),
                 (f"C batch W={res.batch_width}", "number", lambda n, c: _fmt(res.batch_ns[n][NB])),
                 ("batch x", "number", lambda n, c: f"{res.scalar_loop_ns[n] / res.batch_ns[n][NB]:.1f}x"),
                 ("Py module", "number", lambda n, c: _fmt(res.module_ns[n][NB]))]
    for title, values in (("JAX", res.jax_ns), ("PyTorch", res.torch_ns)):
        if values:
            ours.append((title, "number", lambda n, c, v=values: _fmt(v.get(n))))
    peers = [("function", "name", lambda n, c: _label(res, n)),
             ("Pinocchio", "number", lambda n, c: _fmt(pin[n][1])),
             ("Pin./C", "number", lambda n, c: _ratio(pin[n][1], c, ".1f")),
             ("generated Py", "number", lambda n, c: _fmt(res.generated_py_ns.get(n))),
             ("numpy ref", "number", lambda n, c: _fmt(res.numpy_ns.get(n))),
             ("numpy/C", "number", lambda n, c: _ratio(res.numpy_ns.get(n), c, ".0f"))]
    unit = "state" if per_state else "call"
    for title, cols in ((f"{res.robot} ({size_name} = {res.nv}): generated code, ns per {unit}, median", ours),
                        (f"{res.robot}: the peers, ns per call, median; Pin./C, numpy/C: against C", peers)):
        con.print(table(title, [(h, kind) for h, kind, _ in cols],
                        [[value(n, c) for _, _, value in cols] for n, c in res.c_ns.items()]))
    con.print(f"C compiled with {' '.join(res.flags)}; Pinocchio's functions: "
              + (", ".join(f"{n} = {fn}" for n, (fn, ns) in pin.items() if ns) or "none timed"))


def _report(res, ops_rows, paper_sources, notes, size_name):
    """Print the timing tables, the notes and the operation-count table."""
    from soagen.bench.throughput import NB
    from soagen.cli.tables import console, table

    con = console()
    _timing_tables(con, res, size_name)
    if res.batch_ns:
        con.print(f"C: one state per call (64 states cycled); C loop: the scalar function over the {NB} "
                  f"states of one batch call; C batch and Py module: {NB} states per call (the Python module "
                  f"built by soagen build, a fresh output array per call), W states per vector; batch x = C loop / "
                  f"C batch, the same states; Pinocchio, generated Py, numpy ref: one state per call.")
        _module_table(con, res)
    for note in [res.pin_note, *res.array_notes, *notes]:
        if note:
            con.print(note)
    _gpu_table(con, res)
    con.print(table("operation counts (generated) vs the papers",
                    [("function", "name"), ("mul", "number"), ("add", "number"), ("div", "number"),
                     ("sin/cos", "number"), ("paper", "text"), ("paper mul", "number"), ("paper add", "number")],
                    ops_rows))
    con.print(f"paper counts: {paper_sources}")
    n = len(res.counts)
    con.print(f"code generation ({n} function{'s' if n != 1 else ''}): {res.generation_s:.2f} s wall, "
              f"{res.generation_cpu_s:.2f} s CPU")
