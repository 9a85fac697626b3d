"""Code generation cost vs chain length: time, peak memory, operations, temporaries.

    python benchmarks/codegen_growth.py [--sizes 6 10 14 18 22 26 30] [--functions ...]
                                        [--json out.json]

Each (function, N) runs in a fresh interpreter, so the peak resident memory of that
process (ru_maxrss) minus its resident size just before unrolling is the memory the
unrolling itself needed. Chains: ``random_chain(N, default_rng(1))`` (nested: the first N links of the 30-link chain) with revolute and
prismatic joints, half of the axes not aligned with a frame axis, random placements (a
harder case than DH-style arms, whose rotations are sparser). Forward dynamics is timed
for a fixed variant (FD3) so that the numbers are one unroll each; the 'best' default
unrolls three variants. For the O(N) functions time, memory, operations and temporaries
should grow about linearly; the inverse mass matrix and J M^-1 J^T outputs themselves are
O(N^2) / O(N) with larger constants.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

SEED = 1  # the same seed for every N: chain(N) is a prefix of chain(30) (same links, same joints)
DEFAULT_FUNCTIONS = ("inverse_dynamics", "forward_dynamics", "bias_forces", "mass_matrix")


def one(n, function):
    import numpy as np

    from soagen.codegen.robot import render
    from soagen.random_robots import random_chain

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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 10, 14, 18, 22, 26, 30])
    ap.add_argument("--functions", nargs="+", default=list(DEFAULT_FUNCTIONS))
    ap.add_argument("--json", default=None, help="also write the rows to this file")
    ap.add_argument("--one", nargs=2, metavar=("N", "FUNCTION"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.one[1])))
        return
    rows = []
    print(f"{'function':22s} {'N':>3s} {'wall s':>8s} {'cpu s':>7s} {'peak MB':>8s} {'mul':>7s} {'add':>7s} "
          f"{'temps':>6s} {'mul/N':>6s} {'cpu/N':>6s}")
    for f in args.functions:
        for n in args.sizes:
            out = subprocess.run([sys.executable, __file__, "--one", str(n), f],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit(f"N = {n}, {f} failed:\n{out.stderr}")
            r = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append(r)
            print(f"{f:22s} {n:3d} {r['seconds']:8.2f} {r['cpu_s']:7.2f} {r['peak_mb']:8.1f} {r['ops']['mul']:7d} "
                  f"{r['ops']['add']:7d} {r['temporaries']:6d} {r['ops']['mul'] / n:6.1f} "
                  f"{r['cpu_s'] / n:6.3f}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
