"""The lane width of soagen's vector code, measured: the same generated C compiled for
several targets and widths (``-march=M -DSOAGEN_WIDTH=W``, or the template's own choice),
all linked into one harness and timed round by round in one process: the scalar
functions (their one ``soagen_sincos`` call runs on W lanes), that ``soagen_sincos`` call
alone on each function's angles, and the batch kernels (``--batch``: W states at a time,
ns per state on N states per call).

    python benchmarks/peers/lane_width.py [--robots ur5,panda,solo12]
        [--configs native:4,native:8,x86-64-v3:4,x86-64-v3:8,x86-64-v4:4,x86-64-v4:8,native:auto]

A config is MARCH:W, W a number (-DSOAGEN_WIDTH=W) or ``auto`` (the template's choice for
that target). Every config's scalar outputs are checked against the first config's, and
its batch outputs against its scalar outputs. Needs gcc and the robots of run.py
(example-robot-data). Build products go to CACHE/lanes (run.py's cache). Not part of the
test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run as peers  # noqa: E402  (the peers harness's helpers)

FUNCTIONS = ["ID", "M", "C", "FD", "Minv"]

TILE = """#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#define NB {n}
/* argument a of the 64 input sets, repeated to NB states */
static double* tile(int a)
{{
    const int d = peers_dim(0, a);
    double* t = malloc(sizeof(double) * NB * (size_t)d);
    for (int j = 0; j < NB; j++)
        memcpy(t + (size_t)j * d, peers_input(0, a) + (j % PEERS_NSETS) * d, sizeof(double) * d);
    return t;
}}"""

BATCH_WRAPPER = """static double* B{k}_{s}[4];
static void b{k}_{s}(const double* q, const double* qd, const double* x, double* out)
{{
    (void)qd; (void)x;
    {prefix}_{name}_batch(NB, {ins}, {outs});
    const long j = (long)((q - peers_input(0, 0)) / peers_dim(0, 0));   /* the set asked for */
    for (int i = 0; i < {nout}; i++)
        out[i] = B{k}_{s}[3][j * {nout} + i];
}}"""


def main(argv=None):
    import soagen
    from soagen.codegen.emit import write
    from soagen.codegen.records import output_sizes
    from soagen.codegen.robot import render

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--robots", default="ur5,panda,solo12")
    ap.add_argument("--configs", default="native:4,native:8,x86-64-v3:4,x86-64-v3:8,x86-64-v4:4,x86-64-v4:8")
    ap.add_argument("--n", type=int, default=1024, help="states per batch call (a multiple of 64)")
    ap.add_argument("--rounds", type=int, default=151)
    ap.add_argument("--target-ns", type=float, default=2e4)
    ap.add_argument("--cache", type=Path,
                    default=Path(os.environ.get("SOAGEN_PEERS_CACHE", Path.home() / ".cache" / "soagen-peers")))
    args = ap.parse_args(argv)
    configs = [tuple(c.split(":")) for c in args.configs.split(",")]
    print(f"machine: {peers.machine()}; {time.strftime('%Y-%m-%d')}")
    print(f"configs: {', '.join(f'-march={m} ' + ('(template)' if w == 'auto' else f'-DSOAGEN_WIDTH={w}') for m, w in configs)}",
          flush=True)
    for name in args.robots.split(","):
        spec = peers.ROBOTS[name]
        work = args.cache / "lanes" / name
        work.mkdir(parents=True, exist_ok=True)
        urdf = peers.prepared_urdf(name, spec, work)
        robot = soagen.load(urdf, floating_base=spec["floating"], tip=spec["frame"])
        shorts = [s for s in FUNCTIONS if s in spec["functions"] or s == "C"]
        names = [peers.FUNCTIONS[s] for s in shorts]
        peers.log(f"{name}: generating ...")
        write(render(robot, urdf, algorithms=names, langs=("c",), prefix="soa", batch=True), work)
        man = json.loads((work / "soa_manifest.json").read_text())
        rng = np.random.default_rng(0)
        soa = [(robot.random_configuration(rng), rng.uniform(-3, 3, robot.nv), rng.uniform(-3, 3, robot.nv))
               for _ in range(peers.NSETS)]
        peers.write_inputs(work / "inputs.bin", [soa])
        angles = peers.angles_of(work / "soa.c", "soa")
        plan, setup, sources, flags = [], [], [], {}
        decls = [TILE.format(n=args.n)]
        for k, (march, width) in enumerate(configs):
            prefix = f"c{k}"
            lib = f"{march}:{width}"
            (work / f"{prefix}.c").write_text(peers.renamed((work / "soa.c").read_text(), "soa", prefix))
            (work / f"{prefix}.h").write_text(peers.renamed((work / "soa.h").read_text(), "soa", prefix))
            src, sc = peers.sincos_code(angles, shorts, names, tag=f"sc{k}")
            (work / f"sc{k}.c").write_text(src)
            f = [f"-march={march}", "-Wno-psabi"] + ([] if width == "auto" else [f"-DSOAGEN_WIDTH={width}"])
            flags[prefix] = flags[f"sc{k}"] = f
            sources += [work / f"{prefix}.c", work / f"sc{k}.c"]
            decls.append(f'#include "{prefix}.h"')
            for (short, fname), (_, sc_fn, sc_out) in zip(zip(shorts, names), sc):
                rec = man["functions"][fname]
                sizes = output_sizes(rec)
                assert len(sizes) == 1 and set(rec["inputs"]) <= {"q", "qd", "qdd", "tau"}, fname
                w, code = peers.soagen_wrapper(prefix, short, prefix, fname, rec, sizes)
                plan.append((lib, short, w, 0, sizes[0], code, False))
                decls.append(f"void {sc_fn}(const double*, const double*, const double*, double*);")
                plan.append((lib, f"{short}.sincos", sc_fn, 0, sc_out, "", False))
                ins = ", ".join(f"B{k}_{short}[{i}]" for i in range(len(rec["inputs"])))
                plan.append((lib, f"{short}.batch", f"b{k}_{short}", 0, sizes[0],
                             BATCH_WRAPPER.format(k=k, s=short, prefix=prefix, name=fname, ins=ins,
                                                  outs=f"B{k}_{short}[3]", nout=sizes[0]), False))
                setup += [f"    B{k}_{short}[{i}] = tile({i});" for i in range(len(rec["inputs"]))]
                setup.append(f"    B{k}_{short}[3] = malloc(sizeof(double) * NB * {sizes[0]});")
        (work / "entries.c").write_text(peers.entries_c(plan, "\n".join(setup), decls))
        peers.log(f"{name}: compiling {len(configs)} configs ...")
        exe = peers.build_harness(work, [peers.HERE / "harness.c", work / "entries.c", *sources], [],
                                  lambda stem: flags.get(stem, []), [f"-I{peers.HERE}", f"-I{work}"])
        peers.log(f"{name}: timing ...")
        r = peers.run([exe, work, args.rounds, args.target_ns, "hot"], "the harness")
        times = {(lib, fn): v for (_, lib, fn), v in peers.parse_times(r.stdout).items()}
        outs = {}
        for k, (lib, fn, _, _, nout, _, _) in enumerate(plan):
            outs[(lib, fn)] = np.fromfile(work / f"out_{k}.bin").reshape(peers.NSETS, nout)
        ref_lib = plan[0][0]
        worst_cfg = worst_batch = 0.0
        for lib, fn in outs:
            if fn in shorts:
                ref = outs[(ref_lib, fn)]
                worst_cfg = max(worst_cfg, float(np.max(np.abs(outs[(lib, fn)] - ref)) / np.max(np.abs(ref))))
                b = outs[(lib, fn + ".batch")]
                worst_batch = max(worst_batch, float(np.max(np.abs(b - outs[(lib, fn)])) /
                                                     np.max(np.abs(outs[(lib, fn)]))))
        libs = [f"{m}:{w}" for m, w in configs]
        print(f"\n== {name} (nv = {robot.nv}): ns per call (batch: per state, {args.n} states per call), "
              f"best of {args.rounds} rounds ==")
        head = ["function"] + libs
        rows = []
        for s in shorts:
            rows.append([s] + [f"{times[(lib, s)][0]:.1f}" for lib in libs])
            rows.append([f"{s} sincos"] + [f"{times[(lib, s + '.sincos')][0]:.1f}" for lib in libs])
            rows.append([f"{s} batch"] + [f"{times[(lib, s + '.batch')][0] / args.n:.2f}" for lib in libs])
        print(peers.format_table(head, rows))
        print(f"configs against {ref_lib}: max rel. difference {worst_cfg:.1e}; batch against scalar "
              f"{worst_batch:.1e}", flush=True)


if __name__ == "__main__":
    main()
