"""Generation time and memory of `soagen generate` (every default function, C + Python)
for real robot files and the bundled robots.

    python benchmarks/codegen_robots.py [--robots ur5 panda ...] [--json out.json]

Each robot runs in a fresh interpreter: ``seconds`` is the wall time of loading nothing but
the unrolling and printing (:func:`soagen.codegen.emit.render`), ``cpu_s`` its CPU time,
``peak_mb`` the peak resident memory of the process minus its resident size just before
rendering (what generation itself needed). Robots of ``example-robot-data`` are skipped
when the package is absent. Branching robots take the tip named in :data:`ROBOTS` (the
function set the timing before the fast unroller was measured with: one frame); the
``*_leaves`` entries have no tip, so the frame functions are generated for every leaf
frame (what ``soagen generate`` does by default for a tree).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# key: (file, example-robot-data?, floating base?, tip)
ROBOTS = {
    "planar2": ("robots/planar2.yaml", False, False, None),
    "puma560": ("robots/puma560.yaml", False, False, None),
    "stanford": ("robots/stanford.yaml", False, False, None),
    "arm6": ("robots/arm6.yaml", False, False, None),
    "leg6": ("robots/leg6.yaml", False, False, None),
    "arm7": ("robots/arm7.yaml", False, False, None),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", True, False, None),
    "panda": ("panda_description/urdf/panda.urdf", True, False, "panda_hand"),
    "kinova": ("kinova_description/robots/kinova.urdf", True, False, None),
    "xarm7": ("xarm_description/urdf/xarm7.urdf", True, False, None),
    "baxter": ("baxter_description/urdf/baxter.urdf", True, False, "left_gripper"),
    "anymal": ("anymal_b_simple_description/robots/anymal.urdf", True, True, "LF_FOOT"),
    "b1_z1": ("b1_description/urdf/b1-z1.urdf", True, True, "gripperMover"),
    "talos_reduced": ("talos_data/robots/talos_reduced.urdf", True, True, "gripper_left_base_link"),
    # the same robots without a tip: the frame functions for every leaf frame
    "anymal_leaves": ("anymal_b_simple_description/robots/anymal.urdf", True, True, None),
    "talos_leaves": ("talos_data/robots/talos_reduced.urdf", True, True, None),
}


def robot_path(key):
    rel, erd, _, _ = ROBOTS[key]
    if not erd:
        return REPO / rel
    from soagen.oracles.pinocchio import example_robot_data_dir

    d = example_robot_data_dir()
    return None if d is None or not (d / rel).is_file() else d / rel


def one(key):
    import soagen
    from soagen.codegen.robot import render

    _, _, floating, tip = ROBOTS[key]
    path = robot_path(key)
    robot = soagen.load(path, tip=tip, floating_base=floating)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, c0 = time.perf_counter(), time.process_time()
    res = render(robot, path, langs=("c", "python"))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ops = {n: f["ops"] for n, f in res.manifest["functions"].items()}
    return {"robot": key, "nq": robot.nq, "nv": robot.nv, "functions": len(ops), "seconds": round(seconds, 2),
            "cpu_s": round(cpu, 2), "peak_mb": round((peak - before) / 1024, 1),
            "total_mb": round(peak / 1024, 1), "ops": ops}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--robots", nargs="+", default=list(ROBOTS), choices=list(ROBOTS))
    ap.add_argument("--json", default=None, help="also write the rows to this file")
    ap.add_argument("--one", metavar="ROBOT", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one)))
        return
    rows = []
    print(f"{'robot':16s} {'nv':>3s} {'fns':>4s} {'wall s':>8s} {'cpu s':>7s} {'peak MB':>8s}")
    for key in args.robots:
        if robot_path(key) is None:
            print(f"{key:16s} skipped (example-robot-data not installed)")
            continue
        out = subprocess.run([sys.executable, __file__, "--one", key], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{key:16s} failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}", flush=True)
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(r)
        print(f"{key:16s} {r['nv']:3d} {r.get('functions', 0):4d} {r['seconds']:8.2f} {r['cpu_s']:7.2f} "
              f"{r['peak_mb']:8.1f}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
