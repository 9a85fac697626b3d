"""The batch speedup: PREFIX_<function>_batch on n states against the scalar function
looped over the same states, interleaved round by round in one process (best and median
of the rounds, ns per state), for soagen's generated C and optionally for the C of
another soagen source tree (an older commit), timed in the same rounds.

    python benchmarks/batch_speedup.py ROBOT_FILE [--tip LINK] [--baseline TREE]
                                       [--n 1000] [--rounds 151] [--cflags "..."]

ROBOT_FILE as for `soagen generate` (e.g. example-robot-data's UR5 URDF); TREE a soagen
source tree (``git archive COMMIT | tar -x -C TREE``). Each round times every function's
batch call on n states, then the scalar function over the same n states: short rounds,
so that on a shared machine many run unpreempted, and both see the same load. Needs gcc.
Build products go to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

DRIVER = """#define _POSIX_C_SOURCE 199309L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
{prototypes}
#define N {n}
#define R {rounds}
#define K {count}
static double now(void)
{{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}}
static int cmp(const void* a, const void* b)
{{
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}}
static double tb[K][R], ts[K][R];
static double X[4][N * {width}], Y[N * {out_width}];
int main(void)
{{
    unsigned long long z = 88172645463325252ULL;    /* xorshift64: inputs in [-3, 3) */
    for (int a = 0; a < 4; a++)
        for (long j = 0; j < N * {width}; j++) {{
            z ^= z << 13; z ^= z >> 7; z ^= z << 17;
            X[a][j] = 3.0 * ((double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0);
        }}
    volatile double sink = 0.0;
    double t0;
    for (int r = 0; r < R; r++) {{
{body}
    }}
    for (int k = 0; k < K; k++) {{
        qsort(tb[k], R, sizeof(double), cmp);
        qsort(ts[k], R, sizeof(double), cmp);
        printf("%d %.3f %.3f %.3f %.3f\\n", k, tb[k][0], tb[k][R / 2], ts[k][0], ts[k][R / 2]);
    }}
    return sink == 1.25;
}}
"""


def generate(robot_file, tip, prefix, out, tree=None):
    """The C of every default function (with --batch) into ``out``; with ``tree`` by the
    soagen of that source tree, in a subprocess. Returns the manifest."""
    args = ["-m", "soagen.cli.main", "generate", str(robot_file), "--lang", "c", "--batch", "--name", prefix,
            "--out", str(out), "-q"] + (["--tip", tip] if tip else [])
    env = {**os.environ, **({"PYTHONPATH": str(tree)} if tree else {})}
    subprocess.run([sys.executable, *args], check=True, env=env, cwd=tree or None, stdout=subprocess.DEVNULL)
    return json.loads((out / f"{prefix}_manifest.json").read_text())


def entries(prefix, manifest):
    """(name, prototypes, timing statements) per function of one generated file."""
    nq, nv = manifest["nq"], manifest["nv"]
    for name, fn in manifest["functions"].items():
        sizes = [nq if a == "q" else manifest.get("nparams", nv) if a == "params" else nv for a in fn["inputs"]]
        outs = [math.prod(s) for s in ([fn["shape"]] if "shape" in fn else [s for _, s in fn["outputs"]])]
        offs = [sum(outs[:j]) for j in range(len(outs))]
        ins_b = [f"X[{i}]" for i in range(len(sizes))]
        ins_s = [f"X[{i}] + s * {m}" for i, m in enumerate(sizes)]
        out_b = [f"Y + {o} * N" for o in offs]
        out_s = [f"Y + {o} * N + s * {m}" for o, m in zip(offs, outs)]
        params = ", ".join(["const double*"] * len(sizes) + ["double*"] * len(outs))
        protos = (f"void {prefix}_{name}({params});\nvoid {prefix}_{name}_batch(size_t, {params});")
        yield f"{prefix}.{name}", protos, sum(outs), max(sizes), (
            f"{prefix}_{name}_batch(N, {', '.join(ins_b + out_b)});",
            f"for (long s = 0; s < N; s++) {prefix}_{name}({', '.join(ins_s + out_s)});")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("robot_file", type=Path)
    ap.add_argument("--tip", default=None)
    ap.add_argument("--baseline", type=Path, default=None, help="a soagen source tree to time as well")
    ap.add_argument("--n", type=int, default=1000, help="states per batch call")
    ap.add_argument("--rounds", type=int, default=151)
    ap.add_argument("--cflags", default="-O3 -march=native -ffp-contract=fast")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        codes = [("soa", None)] + ([("old", args.baseline.resolve())] if args.baseline else [])
        found, objects = [], []
        for prefix, tree in codes:
            manifest = generate(args.robot_file.resolve(), args.tip, prefix, tmp, tree)
            found += list(entries(prefix, manifest))
            objects.append(tmp / f"{prefix}.o")
            subprocess.run(["gcc", *args.cflags.split(), "-c", str(tmp / f"{prefix}.c"), "-o", str(objects[-1])],
                           check=True)
        body = "\n".join(f"        t0 = now(); {b} tb[{k}][r] = (now() - t0) / N; sink += Y[0];\n"
                         f"        t0 = now(); {s} ts[{k}][r] = (now() - t0) / N; sink += Y[1];"
                         for k, (_, _, _, _, (b, s)) in enumerate(found))
        driver = DRIVER.format(prototypes="\n".join(p for _, p, _, _, _ in found), n=args.n, rounds=args.rounds,
                               count=len(found), width=max(w for *_, w, _ in found),
                               out_width=max(o for _, _, o, _, _ in found), body=body)
        (tmp / "driver.c").write_text(driver)
        subprocess.run(["gcc", "-O2", "-std=c99", "-o", str(tmp / "driver"), str(tmp / "driver.c"),
                        *map(str, objects), "-lm"], check=True)
        lines = subprocess.run([str(tmp / "driver")], capture_output=True, text=True, check=True).stdout.split("\n")
    print(f"ns per state, n = {args.n}, best (median) of {args.rounds} rounds; batch / scalar loop (speedup)")
    print(f"{'function':45s} {'batch':>16s} {'scalar loop':>18s} {'speedup':>14s}")
    for line in filter(None, lines):
        k, b, bm, s, sm = line.split()
        print(f"{found[int(k)][0]:45s} {float(b):7.2f} ({float(bm):6.2f}) {float(s):8.2f} ({float(sm):7.2f}) "
              f"{float(s) / float(b):6.2f}x ({float(sm) / float(bm):.2f}x)")


if __name__ == "__main__":
    main()
