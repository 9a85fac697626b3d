"""Trees with a floating base: generated C vs Pinocchio vs the generic numpy reference,
measured in one run per robot (`soagen bench --floating-base` as a script).

Robots: the Solo-12 quadruped (12 joints + free-flyer base, nv = 18) and the TALOS
humanoid (reduced model, nv = 38) from example-robot-data. Usage:

    python benchmarks/tree_bench.py [solo12|anymal|talos ...] [--algorithms a,b]

Prints ns per call (median) and the ratios; Pinocchio is timed through its Python
bindings, so its numbers include a binding overhead that is measured and printed.
"""

from __future__ import annotations

import argparse
import time

from soagen.bench.robot import run_bench
from soagen.oracles.pinocchio import example_robot_data_dir

ROBOTS = {"solo12": "solo_description/robots/solo12.urdf",
          "anymal": "anymal_b_simple_description/robots/anymal.urdf",
          "talos": "talos_data/robots/talos_reduced.urdf"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("robots", nargs="*", default=["solo12", "talos"])
    ap.add_argument("--algorithms", default="forward_dynamics,inverse_dynamics,mass_matrix")
    ap.add_argument("--fd-variant", default="fd3")
    args = ap.parse_args()
    root = example_robot_data_dir()
    if root is None:
        raise SystemExit("example-robot-data is not installed")
    for name in args.robots:
        t0 = time.perf_counter()
        res = run_bench(root / ROBOTS[name], algorithms=args.algorithms.split(","),
                        fd_variant=args.fd_variant, floating_base=True)
        print(f"\n## {name} (floating base, nv = {res.nv}); generation {res.generation_s:.1f} s, "
              f"total {time.perf_counter() - t0:.1f} s")
        print("| function | ops (mul/add/div) | generated C ns | Pinocchio ns | Pin./C | numpy ns |")
        print("|---|---|---|---|---|---|")
        for n, c in res.c_ns.items():
            label, pin = res.pin_ns.get(n, ("-", None))
            k = res.counts[n]
            print(f"| {n} [{label}] | {k['mul']}/{k['add']}/{k['div']} | {c:.0f} | "
                  f"{pin:.0f} | {pin / c:.2f}x | {res.numpy_ns.get(n, float('nan')):.0f} |")
        print(res.pin_note)


if __name__ == "__main__":
    main()
