"""Cost of closed-chain forward dynamics vs the number of arms l and links per arm N.

RCCFD1 (6.11) and Lilly-Orin (Table 1) are O(n) + O(l^3); the dense solve of (2.11) is
O(n^3) (plus the O(N^2) mass matrices). Random revolute chains (soagen.loaders.random_robots)
rigidly hold one object; the state is random (the cost does not depend on closure). Times
are the best of ``--repeat`` runs of the generic numpy implementations, so the per-body
Python overhead is part of the O(n) terms; the dense column also reports the LAPACK solve
of the (m + n + 6) augmented system alone.

    python benchmarks/closed_chain_scaling.py [--quick] [--plot docs/img/closed_chain_scaling.png]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from soagen.closed_chain import forward_dynamics
from soagen.loaders.random_systems import random_system

METHODS = ("rccfd1", "lilly_orin", "dense")


def make_system(l, N, seed=0):
    return random_system(l, N, np.random.default_rng(seed))


def best_time(fn, repeat):
    fn()                                       # warm-up (imports, caches)
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def measure(l, N, repeat):
    s = make_system(l, N)
    rng = np.random.default_rng(1)
    q, qd, tau = rng.uniform(-1, 1, s.n), rng.uniform(-1, 1, s.n), rng.uniform(-1, 1, s.n)
    row = {"l": l, "N": N, "n": s.n}
    for m in METHODS:
        row[m] = best_time(lambda: forward_dynamics(s, q, qd, tau, method=m), repeat)
    k = s.n + 6 * l + 6
    K = rng.normal(size=(k, k))
    K = K + K.T + k * np.eye(k)
    b = rng.normal(size=k)
    row["dense_solve_only"] = best_time(lambda: np.linalg.solve(K, b), repeat)
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sweep (a smoke test)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--plot", default=None, help="write a PNG of the timings")
    ap.add_argument("--json", default=None, help="write the rows as JSON")
    args = ap.parse_args(argv)
    if args.quick:
        l_sweep, N_sweep, N_fixed, l_fixed = (2, 4), (6, 12), 6, 2
    else:
        l_sweep, N_sweep, N_fixed, l_fixed = (2, 4, 8, 16), (6, 12, 24, 48), 12, 4
    rows_l = [measure(l, N_fixed, args.repeat) for l in l_sweep]
    rows_N = [measure(l_fixed, N, args.repeat) for N in N_sweep]
    print(f"{'l':>3} {'N':>3} {'n':>4} " + " ".join(f"{m:>12}" for m in METHODS) + f" {'LAPACK only':>12}  [ms]")
    for r in rows_l + rows_N:
        print(f"{r['l']:3d} {r['N']:3d} {r['n']:4d} " + " ".join(f"{1e3 * r[m]:12.2f}" for m in METHODS)
              + f" {1e3 * r['dense_solve_only']:12.3f}")
    for name, rows, key in (("l", rows_l, "l"), ("N", rows_N, "N")):
        x = np.log([r[key] for r in rows])
        slopes = {m: float(np.polyfit(x, np.log([r[m] for r in rows]), 1)[0]) for m in METHODS + ("dense_solve_only",)}
        print(f"log-log slope vs {name}: " + ", ".join(f"{m} {v:.2f}" for m, v in slopes.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"vs_l": rows_l, "vs_N": rows_N}, f, indent=1)
    if args.plot:
        plot(rows_l, rows_N, N_fixed, l_fixed, args.plot)


def plot(rows_l, rows_N, N_fixed, l_fixed, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, rows, key, title in ((axes[0], rows_l, "l", f"N = {N_fixed} links per arm"),
                                 (axes[1], rows_N, "N", f"l = {l_fixed} arms")):
        x = [r[key] for r in rows]
        for m, style in zip(METHODS + ("dense_solve_only",), ("o-", "s-", "^-", "v--")):
            ax.loglog(x, [1e3 * r[m] for r in rows], style, label=m.replace("_", " "))
        ax.set_xlabel("number of arms l" if key == "l" else "links per arm N")
        ax.set_ylabel("time per call [ms]")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("closed-chain forward dynamics (numpy reference): RCCFD O(n)+O(l^3) vs dense O(n^3)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
