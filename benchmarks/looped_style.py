"""The looped style against the unrolled one, per robot and function: operation counts,
machine code bytes, ns per call in a hot loop and for one call after 8 MB of other memory,
and what the cost model of soagen.codegen.cost estimates for each.

    python benchmarks/looped_style.py [--functions a,b] [ROBOT ...]   # example-robot-data names below

Writes nothing into the repository; prints one line per robot, function and style."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import soagen
from soagen.bench.robot import quaternion_slots, time_c
from soagen.codegen.compile import FAST_FLAGS
from soagen.codegen.cost import estimate_ns
from soagen.codegen.loops import LOOP_CODE_BYTES
from soagen.codegen.robot import render
from soagen.oracles.pinocchio import example_robot_data_dir

ROBOTS = {"ur5": ("ur_description/urdf/ur5_robot.urdf", False),
          "panda": ("panda_description/urdf/panda.urdf", False),
          "solo12": ("solo_description/robots/solo12.urdf", True),
          "anymal": ("anymal_b_simple_description/robots/anymal.urdf", True),
          "talos": ("talos_data/robots/talos_full_v2.urdf", True)}
FUNCTIONS = ("inverse_mass_matrix", "forward_dynamics", "forward_dynamics_derivatives")


def function_bytes(obj, prefix):
    """Machine code bytes of each PREFIX_* function of an object file (nm -S)."""
    out = subprocess.run(["nm", "-S", "--defined-only", str(obj)], capture_output=True, text=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3].startswith(prefix + "_"):
            sizes[parts[3][len(prefix) + 1:]] = int(parts[1], 16)
    return sizes


def run(name, functions=FUNCTIONS):
    path, fb = ROBOTS[name]
    robot = soagen.load(str(example_robot_data_dir() / path), floating_base=fb)
    for style in ("unrolled", "looped"):
        res = render(robot, None, algorithms=functions, langs=("c",), prefix="p", style=style)
        with tempfile.TemporaryDirectory() as tmp:
            ns = time_c(res, tmp, quat_slots=quaternion_slots(robot), cold=True, iters=16, repeats=1001)
            obj = Path(tmp) / "p.o"
            subprocess.run(["cc", *FAST_FLAGS, "-std=c99", "-c", "-o", str(obj), str(Path(tmp) / "p.c")], check=True)
            size = function_bytes(obj, "p")
        for f in res.functions:
            loops = f.manifest.get("loop_ops")
            ops = sum(f.counts[k] for k in ("mul", "add", "div"))
            lops = sum(loops[k] for k in ("mul", "add", "div")) if loops else 0
            print(f"{name:7s} nv={robot.nv:2d} {f.name:29s} {f.manifest['style']:8s} ops {ops:6d} + loops {lops:6d}  "
                  f"code {size.get(f.name, 0) / 1024:7.1f} KB (est {f.manifest['code_bytes_estimate'] / 1024:7.1f})  "
                  f"hot {ns[f.name]:9.1f} ns  cold {ns[f.name + '@cold']:9.1f} ns  "
                  f"model {estimate_ns(f.counts, loops, LOOP_CODE_BYTES if loops else 0):9.1f} ns", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    functions = FUNCTIONS
    if args[:1] == ["--functions"]:
        functions, args = tuple(args[1].split(",")), args[2:]
    for robot in args or ROBOTS:
        run(robot, functions)
