"""soagen's CasADi output (`soagen generate --lang casadi`) against adam-robotics' CasADi
graph, on the UR5 and the 7-dof Panda arm (with its hand, without the fingers) of
example-robot-data, in one run.

For each function (ID, M, FD, M^-1, J, Jdot qd, J M^-1 J^T) both graphs become a
``casadi.Function`` over the same SX inputs with CasADi's CSE on (adam's default), and are
compared by

* agreement: soagen's CasADi Function against soagen's generated C (same program) and
  against adam's graph (an independent code: are we timing the same quantity?);
* operation counts of the Function after CSE (CasADi's own instruction list);
* CasADi's evaluation time: the Function mapped over 64 states (``Function.map``, one
  call, so Python's per-call overhead, ~10 us, is spread over 64), ns per state, median of
  101 rounds;
* the C that CasADi generates from each Function (``casadi.CodeGenerator``), compiled with
  soagen's timing flags and called in a C loop over 64 cycled states, ns per call, median
  of 101 rounds of 1000 calls; next to it soagen's own generated C in the same program.
  The three take turns within each round, so load from other jobs falls on all alike.

adam is a floating-base library: the fixed-base quantities are taken from its graphs with
the base transform fixed to the identity and the base velocity to zero (constants folded
by CasADi as the graph is built), the joint blocks kept, its Jacobian rows reordered to
soagen's angular-first. adam has no fixed-base FD or M^-1: an adam user takes
FD = solve(M, tau - h), M^-1 = inv(M) and J M^-1 J^T = J solve(M, J^T) with CasADi's
symbolic linear algebra, as done here; ID = M qdd + h (adam's RNEA has no qdd input).

Needs casadi, adam-robotics (with liecasadi), example-robot-data and a C compiler:
``pip install adam-robotics liecasadi`` (a dependency of this benchmark only).

    python benchmarks/casadi_vs_adam.py [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import soagen
from soagen.codegen.compile import FAST_FLAGS, compiler, load_c, load_python, run_logged
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from soagen.oracles.pinocchio import example_robot_data_dir

FUNCTIONS = ("inverse_dynamics", "mass_matrix", "forward_dynamics", "inverse_mass_matrix", "jacobian",
             "jacobian_dot_qd", "op_space_inverse_inertia")
SHORT = {"inverse_dynamics": "ID", "mass_matrix": "M", "forward_dynamics": "FD", "inverse_mass_matrix": "M^-1",
         "jacobian": "J", "jacobian_dot_qd": "Jdot qd", "op_space_inverse_inertia": "J M^-1 J^T"}
ROBOTS = {   # name: (file in example-robot-data, tip frame, elements removed from the file, adam's joint list)
    "ur5": ("ur_description/urdf/ur5_robot.urdf", "tool0", (),
            ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint",
             "wrist_3_joint"]),
    # the 7-dof arm with its hand: adam 0.5 fails on the file with the fingers (a movable
    # joint left out of its joint list breaks its CRBA), so both read the file without them
    "panda": ("panda_description/urdf/panda.urdf", "panda_hand",
              ("panda_leftfinger", "panda_rightfinger", "panda_finger_joint1", "panda_finger_joint2"),
              [f"panda_joint{k}" for k in range(1, 8)]),
}
# Short rounds, many of them: on a shared machine a round that is preempted is an outlier
# the median discards, and a round of ~1 ms mostly runs within one time slice.
STATES, MAP_N, ROUNDS, ITERS = 64, 64, 101, 1000


def op_counts(f):
    """Arithmetic instructions of an SX Function by kind: mul (incl. sq, twice), add (incl.
    sub), neg, div, sin/cos, other (sqrt, pow, ...)."""
    import casadi as ca

    kinds = {ca.OP_MUL: "mul", ca.OP_SQ: "mul", ca.OP_TWICE: "mul", ca.OP_ADD: "add", ca.OP_SUB: "add",
             ca.OP_NEG: "neg", ca.OP_DIV: "div", ca.OP_INV: "div", ca.OP_SIN: "trig", ca.OP_COS: "trig"}
    skip = {ca.OP_INPUT, ca.OP_OUTPUT, ca.OP_CONST, ca.OP_PARAMETER, ca.OP_ASSIGN}
    counts = dict.fromkeys(("mul", "add", "neg", "div", "trig", "other"), 0)
    for k in range(f.n_instructions()):
        op = f.instruction_id(k)
        if op not in skip:
            counts[kinds.get(op, "other")] += 1
    return counts


def adam_graphs(path, joints, frame, gravity, q, qd, u):
    """adam's fixed-base quantities as SX expressions of (q, qd, u) (u = qdd or tau)."""
    import casadi as ca
    from adam.casadi import KinDynComputations

    kd = KinDynComputations(str(path), joints, gravity=np.concatenate([gravity, np.zeros(3)]))
    H, v0 = ca.SX.eye(4), ca.SX.zeros(6)
    M = kd.mass_matrix(H, q)[6:, 6:]
    h = kd.bias_force(H, q, v0, qd)[6:]
    angular_first = [3, 4, 5, 0, 1, 2]
    J = kd.jacobian(frame, H, q)[angular_first, 6:]
    Jdot = kd.jacobian_dot(frame, H, q, v0, qd)[angular_first, 6:]
    return {"inverse_dynamics": ca.mtimes(M, u) + h, "mass_matrix": M, "forward_dynamics": ca.solve(M, u - h),
            "inverse_mass_matrix": ca.inv(M), "jacobian": J, "jacobian_dot_qd": ca.mtimes(Jdot, qd),
            "op_space_inverse_inertia": ca.mtimes(J, ca.solve(M, J.T))}


INPUTS = {"inverse_dynamics": "q qd u", "mass_matrix": "q", "forward_dynamics": "q qd u",
          "inverse_mass_matrix": "q", "jacobian": "q", "jacobian_dot_qd": "q qd",
          "op_space_inverse_inertia": "q"}


def dense(x):
    return np.asarray(x.full())


def vm_times(functions, args):
    """ns per state of each of ``functions`` mapped over the states (columns of ``args``),
    median of ROUNDS, the functions taking turns within each round (so load from other
    jobs falls on all of them alike)."""
    import casadi as ca

    maps = [f.map(args[0].shape[1]) for f in functions]
    dm = [ca.DM(a) for a in args]
    times = [[] for _ in maps]
    for _ in range(ROUNDS + 1):                      # the first round warms up
        for F, ts in zip(maps, times):
            t = time.perf_counter()
            F(*dm)
            ts.append((time.perf_counter() - t) / args[0].shape[1] * 1e9)
    return [statistics.median(ts[1:]) for ts in times]


def c_driver(prefix, nq, nv, states):
    """A C program timing, per function, CasADi's C of soagen's graph (s_NAME), of adam's
    (a_NAME) and soagen's own C, taking turns within each round."""
    lines = ["#include <stdio.h>", "#include <stdlib.h>", "#include <time.h>", '#include "cas.h"',
             f'#include "{prefix}.h"', f"#define NS {STATES}", f"#define ITERS {ITERS}", f"#define ROUNDS {ROUNDS}"]
    for name, width in (("q", nq), ("qd", nv), ("u", nv)):
        rows = ",\n".join("{" + ", ".join(repr(float(x)) for x in s) + "}" for s in states[name])
        lines.append(f"static const double {name}[NS][{width}] = {{\n{rows}}};")
    lines += ["static double out[4096];", "static volatile double sink;",
              "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);"
              " return t.tv_sec * 1e9 + t.tv_nsec; }",
              "static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b;"
              " return (x > y) - (x < y); }",
              "static double median(double* t) { qsort(t, ROUNDS, sizeof(double), cmp); return t[ROUNDS / 2]; }",
              "int main(void) {"]
    for fname in FUNCTIONS:
        names = INPUTS[fname].split()
        set_args = " ".join(f"arg[{j}] = {a}[k];" for j, a in enumerate(names))
        lines += ["  {", "    double ts[ROUNDS], ta[ROUNDS], tc[ROUNDS];",
                  "    const double* arg[16]; double* res[4] = {out}; casadi_int na, nr, niw, nw, niw2, nw2;",
                  f"    s_{fname}_work(&na, &nr, &niw, &nw); a_{fname}_work(&na, &nr, &niw2, &nw2);",
                  "    casadi_int iw[niw + niw2 + 1]; double w[nw + nw2 + 1];",
                  "    for (int r = 0; r < ROUNDS; r++) {", "      double t0 = now();",
                  f"      for (int i = 0; i < ITERS; i++) {{ int k = i % NS; {set_args} s_{fname}(arg, res, iw, w, 0);"
                  " sink += out[0]; }",
                  "      ts[r] = (now() - t0) / ITERS; t0 = now();",
                  f"      for (int i = 0; i < ITERS; i++) {{ int k = i % NS; {set_args} a_{fname}(arg, res, iw, w, 0);"
                  " sink += out[0]; }",
                  "      ta[r] = (now() - t0) / ITERS; t0 = now();",
                  f"      for (int i = 0; i < ITERS; i++) {{ int k = i % NS; "
                  f"{prefix}_{fname}({', '.join(f'{a}[k]' for a in names)}, out); sink += out[0]; }}",
                  "      tc[r] = (now() - t0) / ITERS;", "    }",
                  f'    printf("s_{fname} %.1f\\na_{fname} %.1f\\nsoagen_c_{fname} %.1f\\n", median(ts), median(ta),'
                  " median(tc));", "  }"]
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def without(path, names, tmp):
    """The URDF at ``path``, or a copy in ``tmp`` without its top-level elements named ``names``."""
    import xml.etree.ElementTree as ET

    if not names:
        return path
    tree = ET.parse(path)
    for el in list(tree.getroot()):
        if el.get("name") in names:
            tree.getroot().remove(el)
    out = tmp / path.name
    tree.write(out)
    return out


def bench_robot(name, tmp):
    import casadi as ca

    rel, tip, drop, joints = ROBOTS[name]
    path = without(example_robot_data_dir() / rel, drop, tmp)
    robot = soagen.load(path, tip=tip)
    res = render(robot, path, algorithms=FUNCTIONS, langs=("casadi", "c"), prefix=name)
    write(res, tmp)
    mod = load_python(tmp / f"{name}_casadi.py", f"{name}_casadi")
    lib = load_c(tmp, name, res.manifest, build_dir=tmp)
    nq, nv = robot.nq, robot.nv
    q, qd, u = ca.SX.sym("q", nq), ca.SX.sym("qd", nv), ca.SX.sym("u", nv)
    sym = {"q": q, "qd": qd, "u": u}
    t0 = time.perf_counter()
    adam = adam_graphs(path, joints, tip, robot.gravity, q, qd, u)
    adam_build = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    states = {"q": np.array([robot.random_configuration(rng) for _ in range(MAP_N)]),
              "qd": rng.normal(size=(MAP_N, nv)), "u": rng.normal(size=(MAP_N, nv))}
    rows, cg = {}, ca.CodeGenerator("cas.c", {"with_header": True})
    for fname in FUNCTIONS:
        ins = [sym[a] for a in INPUTS[fname].split()]
        fs = ca.Function(f"s_{fname}", ins, [getattr(mod, fname)(*ins)], {"cse": True})
        fa = ca.Function(f"a_{fname}", ins, [adam[fname]], {"cse": True})
        worst_c = worst_adam = 0.0
        for k in range(20):
            args = [states[a][k] for a in INPUTS[fname].split()]
            got, other = dense(fs(*args)), dense(fa(*args))
            want = lib(fname, *args)
            got, other = got.reshape(want.shape), other.reshape(want.shape)
            worst_c = max(worst_c, np.abs(got - want).max() / np.abs(want).max())
            worst_adam = max(worst_adam, np.abs(other - want).max() / np.abs(want).max())
        vm_soagen, vm_adam = vm_times([fs, fa], [states[a].T for a in INPUTS[fname].split()])
        rows[fname] = {"ops_soagen": op_counts(fs), "ops_adam": op_counts(fa), "rel_err_c": worst_c,
                       "rel_err_adam": worst_adam, "vm_soagen": vm_soagen, "vm_adam": vm_adam}
        cg.add(fs)
        cg.add(fa)
    cg.generate(str(tmp) + "/")
    (tmp / "driver.c").write_text(c_driver(name, nq, nv, {k: v[:STATES] for k, v in states.items()}))
    exe = tmp / "driver"
    t0 = time.perf_counter()
    run_logged([compiler(), *FAST_FLAGS, "-o", str(exe), str(tmp / "driver.c"), str(tmp / "cas.c"),
                str(tmp / f"{name}.c"), "-lm"], "compiling the timing driver")
    compile_s = time.perf_counter() - t0
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    ns = {k: float(v) for k, v in (ln.split() for ln in out.splitlines())}
    for fname in FUNCTIONS:
        rows[fname].update(c_soagen=ns[f"s_{fname}"], c_adam=ns[f"a_{fname}"], soagen_c=ns[f"soagen_c_{fname}"])
    return {"nv": nv, "adam_graph_build_s": adam_build, "compile_s": compile_s, "functions": rows}


def ops_text(c):
    return f"{c['mul']} / {c['add']} / {c['neg'] + c['div'] + c['trig'] + c['other']}"


def table(results):
    print("| robot | function | ops soagen | ops adam | CasADi VM soagen / adam [ns] | CasADi's C soagen / adam [ns]"
          " | soagen's C [ns] | rel. err. vs soagen C: soagen graph / adam |")
    print("|---|---|---|---|---|---|---|---|")
    for robot, r in results["robots"].items():
        for fname, x in r["functions"].items():
            print(f"| {robot} | {SHORT[fname]} | {ops_text(x['ops_soagen'])} | {ops_text(x['ops_adam'])} | "
                  f"{x['vm_soagen']:.0f} / {x['vm_adam']:.0f} | {x['c_soagen']:.0f} / {x['c_adam']:.0f} | "
                  f"{x['soagen_c']:.0f} | {x['rel_err_c']:.1e} / {x['rel_err_adam']:.1e} |")


def main():
    import casadi

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--robots", default="ur5,panda")
    opts = ap.parse_args()
    from importlib.metadata import version

    results = {"machine": f"{platform.processor() or platform.machine()}, {platform.platform()}",
               "casadi": casadi.__version__, "adam": version("adam-robotics"), "flags": " ".join(FAST_FLAGS),
               "robots": {}}
    for name in opts.robots.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            results["robots"][name] = bench_robot(name, Path(tmp))
    table(results)
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
