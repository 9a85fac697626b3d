"""Code generation cost vs chain length: time, peak memory, operations, temporaries.

    python benchmarks/codegen_growth.py [--sizes 10 25 50 100 200] [--functions ...]
                                        [--json out.json] [--plot out.png] [--timeout S]

Each (function, N) runs in a fresh interpreter, so the peak resident memory of that
process (ru_maxrss) minus its resident size just before unrolling is the memory the
unrolling itself needed. Chains: ``random_chain(N, default_rng(1))`` (nested: the first N
links of any longer chain) with revolute and prismatic joints, half of the axes not
aligned with a frame axis, random placements (a harder case than DH-style arms, whose
rotations are sparser). Forward dynamics is timed for a fixed variant (FD3) so that the
numbers are one unroll each; the 'best' default unrolls three variants. The default
functions are the O(N) ones, whose time, memory, operations and temporaries should grow
linearly; the table ends with the cost per added link between consecutive sizes (flat
= linear). The mass matrix (and M^-1) is O(N^2) by its output; add it with --functions.
``--sizes 2000`` is the long-chain check.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

SEED = 1  # the same seed for every N: chain(N) is a prefix of chain(30) (same links, same joints)
DEFAULT_FUNCTIONS = ("inverse_dynamics", "bias_forces", "forward_dynamics", "jacobian", "jacobian_dot_qd",
                     "op_space_inverse_inertia")


def one(n, function):
    import numpy as np

    try:
        from soagen.codegen.robot import render
    except ImportError:                       # soagen before the one emitter (a baseline run)
        from soagen.codegen.emit import render
    from soagen.loaders.random_robots import random_chain

    robot = random_chain(n, np.random.default_rng(SEED))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, c0 = time.perf_counter(), time.process_time()
    res = render(robot, None, algorithms=[function], langs=("c",), fd_variant="fd3")
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    fn = res.manifest["functions"][function]
    c_lines = res.files[f"{res.manifest['prefix']}.c"].count("\n")
    return {"n": n, "function": function, "seconds": round(seconds, 3), "cpu_s": round(cpu, 3),
            "peak_mb": round((peak - before) / 1024, 1), "ops": fn["ops"],
            "temporaries": fn["cse_temporaries"], "c_lines": c_lines}


def per_link(rows):
    """(function, N_a -> N_b, CPU seconds and MB per added link) between consecutive sizes."""
    out = []
    for f in dict.fromkeys(r["function"] for r in rows):
        rs = sorted((r for r in rows if r["function"] == f), key=lambda r: r["n"])
        for a, b in zip(rs, rs[1:]):
            dn = b["n"] - a["n"]
            out.append((f, a["n"], b["n"], (b["cpu_s"] - a["cpu_s"]) / dn, (b["peak_mb"] - a["peak_mb"]) / dn))
    return out


def plot(rows, path, baseline=(), log=False):
    """Time and memory vs N, one line per function; ``baseline`` rows (an earlier run,
    e.g. before a change) dashed in the same colour; ``log``: log-log axes, where linear
    growth is a line of slope 1."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(10, 4))
    for k, f in enumerate(dict.fromkeys(r["function"] for r in rows)):
        for data, style, tag in ((rows, "o-", ""), (baseline, "s--", " (baseline)")):
            rs = sorted((r for r in data if r["function"] == f), key=lambda r: r["n"])
            if rs:
                n = [r["n"] for r in rs]
                ax_t.plot(n, [r["cpu_s"] for r in rs], style, color=f"C{k}", label=f + tag)
                ax_m.plot(n, [r["peak_mb"] for r in rs], style, color=f"C{k}", label=f + tag)
    ax_t.set(xlabel="links N", ylabel="CPU seconds", title="generation time")
    ax_m.set(xlabel="links N", ylabel="MB", title="peak memory of the unrolling")
    ax_t.legend(fontsize=7)
    for ax in (ax_t, ax_m):
        ax.grid(alpha=0.3)
        if log:
            ax.set_xscale("log")
            ax.set_yscale("log")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 25, 50, 100, 200])
    ap.add_argument("--functions", nargs="+", default=list(DEFAULT_FUNCTIONS))
    ap.add_argument("--json", default=None, help="also write the rows to this file")
    ap.add_argument("--plot", default=None, help="also plot time and memory vs N into this image")
    ap.add_argument("--baseline", default=None, help="rows of an earlier run (--json), drawn dashed in the plot")
    ap.add_argument("--replot", nargs="+", default=None, help="only plot the rows of these --json files")
    ap.add_argument("--log", action="store_true", help="log-log axes in the plot")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per point (then skipped)")
    ap.add_argument("--one", nargs=2, metavar=("N", "FUNCTION"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.one[1])))
        return
    baseline = json.load(open(args.baseline)) if args.baseline else ()
    if args.replot:
        plot([r for f in args.replot for r in json.load(open(f))], args.plot, baseline, args.log)
        return
    rows = []
    print(f"{'function':26s} {'N':>4s} {'wall s':>8s} {'cpu s':>7s} {'peak MB':>8s} {'mul':>8s} {'add':>8s} "
          f"{'temps':>7s} {'mul/N':>6s}")
    for f in args.functions:
        for n in args.sizes:
            try:
                out = subprocess.run([sys.executable, __file__, "--one", str(n), f],
                                     capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"{f:26s} {n:4d}  > {args.timeout:g} s, skipped", flush=True)
                continue
            if out.returncode != 0:
                sys.exit(f"N = {n}, {f} failed:\n{out.stderr}")
            r = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append(r)
            print(f"{f:26s} {n:4d} {r['seconds']:8.2f} {r['cpu_s']:7.2f} {r['peak_mb']:8.1f} {r['ops']['mul']:8d} "
                  f"{r['ops']['add']:8d} {r['temporaries']:7d} {r['ops']['mul'] / n:6.1f}", flush=True)
    print("\nper added link (flat = linear):")
    for f, a, b, cpu, mb in per_link(rows):
        print(f"{f:26s} {a:4d} -> {b:4d}  {1000 * cpu:7.1f} ms/link  {mb:6.2f} MB/link")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    if args.plot:
        plot(rows, args.plot, baseline, args.log)


if __name__ == "__main__":
    main()
