"""Controller functions against Pinocchio: soagen's generated C of the functions a
whole-body controller calls besides the dynamics (frame placement, velocity and classical
acceleration, centre of mass and its Jacobian, the centroidal momentum matrix and its bias,
passive joint forces, M and FD with rotor inertias (armature), forward dynamics of a robot
with a loop closure) against Pinocchio's C++ in one process, with run.py's harness, call
patterns and Pinocchio build; every result checked against Pinocchio.

    python benchmarks/peers/controller.py [--robots ur5,panda,solo12,anymal,g1,fourbar] [--json FILE]
        [--functions T,V,A,com,Jcom,AG,AGdqd,M,FD,passive,loopFD] [--rounds 101] [--patterns hot,turn,cold]

Pinocchio's side is ``pinocchio_controller.cpp`` (its algorithms compiled from the ``pin``
wheel's headers with the harness's flags, once, cached as CACHE/pinocchio_controller-<hash>.o
like run.py's pinocchio_peer.cpp); the model is handed over by run.py's model file, plus
an extra file for the armature and the loop closures. Per robot a fixed set of rotor
inertias (armature) and, for the passive forces, a damper on every joint and a spring on
every revolute one are added to soagen's robot: M and FD are timed with the armature in
Pinocchio's ``model.armature``; Pinocchio's algorithms have no passive joint forces, so its
FD gets tau + tau_passive as input and ``passive_forces`` has no Pinocchio counterpart
(checked against soagen's numpy reference). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run as peers  # noqa: E402  (run.py of this folder: the harness, the Pinocchio build, the model file)

REPO = peers.REPO
# short name -> (soagen function, Pinocchio entries {label: C function}, what Pinocchio runs)
FUNCTIONS = {
    "T": ("frame_placement", {"pinocchio": "pinc_frame_placement"}, "forwardKinematics(q) + updateFramePlacement"),
    "V": ("frame_velocity", {"pinocchio": "pinc_frame_velocity"},
          "forwardKinematics(q, v) + getFrameVelocity (LOCAL_WORLD_ALIGNED)"),
    "A": ("frame_acceleration", {"pinocchio": "pinc_frame_acceleration"},
          "forwardKinematics(q, v, a) + getFrameClassicalAcceleration (LOCAL_WORLD_ALIGNED)"),
    "com": ("center_of_mass", {"pinocchio": "pinc_com"}, "centerOfMass(q, computeSubtreeComs=false)"),
    "Jcom": ("com_jacobian", {"pinocchio": "pinc_jcom"}, "jacobianCenterOfMass(q, computeSubtreeComs=false)"),
    "AG": ("centroidal_momentum_matrix", {"pinocchio": "pinc_ag"}, "computeCentroidalMap"),
    "AGdqd": ("centroidal_bias", {"pinocchio": "pinc_dhg", "pinocchio-dAg": "pinc_dag_v"},
              "computeCentroidalMomentumTimeVariation(q, v, 0); pinocchio-dAg: "
              "computeCentroidalMapTimeVariation, then dAg v"),
    "M": ("mass_matrix", {"pinocchio": "pinc_crba"}, "crba with model.armature"),
    "FD": ("forward_dynamics", {"pinocchio": "pinc_aba"}, "aba with model.armature (tau + tau_passive)"),
    "passive": ("passive_forces", {}, "none (Pinocchio's dynamics have no passive joint forces)"),
    "loopFD": ("loop_forward_dynamics", {"pinocchio": "pinc_constraint_dynamics"},
               "constraintDynamics, a CONTACT_3D RigidConstraintModel per connect (proximal)"),
}
TREE = ["T", "V", "A", "com", "Jcom", "AG", "AGdqd", "M", "FD", "passive"]
ROBOTS = {  # run.py's robots (URDF, frame, welds) and the four-bar of the loop tests
    "ur5": {**peers.ROBOTS["ur5"], "functions": TREE},
    "panda": {**peers.ROBOTS["panda"], "functions": TREE},
    "solo12": {**peers.ROBOTS["solo12"], "frame": "FL_FOOT", "functions": TREE},
    "anymal": {**peers.ROBOTS["anymal"], "frame": "LF_FOOT", "functions": TREE},
    "g1": {**peers.ROBOTS["g1"], "frame": "left_ankle_roll_link", "functions": TREE},
    "talos": {**peers.ROBOTS["talos"], "frame": "leg_left_6_link", "functions": TREE},
    "fourbar": {"file": REPO / "tests" / "loops" / "data" / "fourbar.yaml", "q0": [1.0, -0.5, 1.4],
                "frame": None, "floating": False, "functions": ["loopFD"]},
}
PROXIMAL = (1e-12, 1e-8, 10)   # constraintDynamics: accuracy, mu (> 0: the planar loop's point
#                                closure is redundant, rank 2 of 3), at most 10 iterations


def with_rotors_and_dampers(robot):
    """The benchmark's robot: armature J_m = 0.05, 0.10, 0.15, ... (cycling) on every
    joint but a free one, a damper (0.2) on every 1-dof joint and a spring (2.0 about
    0.1) on every revolute one (docs/robot-format.md, Passive forces)."""
    from soagen.model import with_armature

    bodies = tuple(replace(b, joint=replace(b.joint, damping=0.2, stiffness=2.0, rest=0.1))
                   if b.joint.kind == "revolute" else
                   replace(b, joint=replace(b.joint, damping=0.2)) if b.joint.kind == "prismatic" else b
                   for b in robot.bodies)
    robot = replace(robot, bodies=bodies)
    moving = [b.joint_name for b in robot.bodies if b.joint.kind in ("revolute", "prismatic")]
    return with_armature(robot, {n: 0.05 * (1 + k % 3) for k, n in enumerate(moving)})


def load(name, spec, work):
    """(soagen robot, its file, Pinocchio model, Converter, extra-file text)."""
    import soagen
    from soagen.oracles.pinocchio import Converter, pin_model_from_robot

    if "file" in spec:                               # the loop robot: Pinocchio's model from soagen's
        path = Path(spec["file"])
        robot = soagen.load(path)
        model = pin_model_from_robot(robot)
        conv = Converter(robot, model)
        num = lambda x: " ".join(repr(float(v)) for v in np.ravel(x))  # noqa: E731
        extra = [f"connect {c.frame1.body + 1} {num(c.frame1.R)} {num(c.frame1.r)} "
                 f"{c.frame2.body + 1} {num(c.frame2.R)} {num(c.frame2.r)}" for c in robot.closures
                 if c.kind == "connect"]
        extra.append(f"proximal {PROXIMAL[0]!r} {PROXIMAL[1]!r} {PROXIMAL[2]}")
        return robot, path, model, conv, "\n".join(extra) + "\n"
    path = peers.prepared_urdf(name, spec, work)
    robot = with_rotors_and_dampers(soagen.load(path, floating_base=spec["floating"], tip=spec["frame"]))
    model = peers.pin_model(path, spec["floating"])
    conv = Converter(robot, model)
    extra = "armature " + " ".join(repr(float(x)) for x in conv.v_to_pin(robot.armature)) + "\n"
    return robot, path, model, conv, extra


def states(name, spec, robot, conv, rng):
    """64 input sets per convention: 0 soagen's (q, qd, x), 1 Pinocchio's, 2 Pinocchio's
    with x + tau_passive (its FD: Pinocchio has no passive forces). Revolute angles and
    rates uniform in [-3, 3] as in run.py; the loop robot's q on its closures and qd
    consistent with them (soagen's projection)."""
    from soagen import algorithms as A

    soa = []
    for _ in range(peers.NSETS):
        if "q0" in spec:
            q, qd = A.consistent_loop_state(robot, np.array(spec["q0"]) + rng.uniform(-0.2, 0.2, robot.nq),
                                            rng.uniform(-3, 3, robot.nv))
            assert np.abs(A.closure_errors(robot, q)).max() < 1e-12
        else:
            q, qd = robot.random_configuration(rng), rng.uniform(-3, 3, robot.nv)
        soa.append((q, qd, rng.uniform(-3, 3, robot.nv)))
    pin_sets = [(conv.q_to_pin(q), conv.v_to_pin(v), conv.v_to_pin(x)) for q, v, x in soa]
    fd_sets = [(conv.q_to_pin(q), conv.v_to_pin(v), conv.v_to_pin(x + A.passive_forces(robot, q, v)))
               for q, v, x in soa]
    return [soa, pin_sets, fd_sets]


def generate(robot, path, names, work):
    """soagen's C of ``names`` (this source tree's soagen, in process): the manifest and seconds."""
    from soagen.codegen.emit import write
    from soagen.codegen.robot import render

    t0 = time.perf_counter()
    emitted = render(robot, str(path), algorithms=names, langs=("c",), prefix="soa")
    write(emitted, work)
    return emitted.manifest, time.perf_counter() - t0


def from_pin(short, y, conv, nv):
    """A Pinocchio output in soagen's conventions (angular rows first, soagen's v order)."""
    from soagen.oracles.pinocchio import angular_first, symmetrized

    if short in ("V", "A", "AGdqd"):
        return angular_first(y.reshape(6, 1)).ravel()
    if short == "Jcom":
        return y.reshape(3, nv)[:, conv.vperm].ravel()
    if short == "AG":
        return angular_first(y.reshape(6, nv))[:, conv.vperm].ravel()
    if short == "M":
        return conv.matrix_from_pin(symmetrized(y.reshape(nv, nv))).ravel()
    if short in ("FD", "loopFD"):
        return conv.v_from_pin(y)
    return y                                           # T (4 x 4), com


def reference(short, robot, q, qd, x):
    """soagen's numpy reference, for what has no Pinocchio counterpart."""
    from soagen import algorithms as A

    assert short == "passive"
    return A.passive_forces(robot, q, qd)


def check(plan, work, conv, robot, sets):
    """{(library, function): max relative error against Pinocchio (max |a - b| / max |b|
    over the 64 sets; the first Pinocchio entry of the function), or against soagen's numpy
    reference where Pinocchio has none}."""
    nv = robot.nv
    outs = {(lib, short): np.fromfile(work / f"out_{k}.bin").reshape(peers.NSETS, nout)
            for k, (lib, short, _, _, nout, _, _) in enumerate(plan)}
    errors = {}
    for (lib, short), y in outs.items():
        if lib == "pinocchio":
            continue
        ref = outs.get(("pinocchio", short))
        worst = 0.0
        for k in range(peers.NSETS):
            got = from_pin(short, y[k], conv, nv) if lib.startswith("pinocchio") else y[k]
            want = reference(short, robot, *sets[k]) if ref is None else from_pin(short, ref[k], conv, nv)
            e = float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300))
            worst = e if not np.isfinite(e) else max(worst, e)       # a NaN or inf stays
            if not np.isfinite(worst):
                break
        errors[(lib, short)] = (worst, "numpy" if ref is None else "pinocchio")
    return errors


def bench_robot(name, args, cache):
    from soagen.codegen.records import output_sizes

    spec = ROBOTS[name]
    work = cache / f"controller-{name}"
    if work.exists():
        import shutil

        shutil.rmtree(work)
    work.mkdir(parents=True)
    robot, path, model, conv, extra = load(name, spec, work)
    shorts = [s for s in spec["functions"] if s in args.functions]
    names = [FUNCTIONS[s][0] for s in shorts]
    peers.log(f"{name}: generating soagen C ({', '.join(shorts)}) ...")
    man, gen_s = generate(robot, path, names, work)
    rng = np.random.default_rng(args.seed)
    sets = states(name, spec, robot, conv, rng)
    peers.write_inputs(work / "inputs.bin", sets)

    plan, decls = [], ['#include "soa.h"', "int pinc_load(const char*, const char*);"]
    for short, fname in zip(shorts, names):
        rec = man["functions"][fname]
        w, code = peers.soagen_wrapper("soagen", short, "soa", fname, rec, output_sizes(rec))
        plan.append(("soagen", short, w, 0, sum(output_sizes(rec)), code, True))
    for short in shorts:
        rec = man["functions"][FUNCTIONS[short][0]]
        for lib, fn in FUNCTIONS[short][1].items():
            decls.append(f"void {fn}(const double*, const double*, const double*, double*);")
            plan.append((lib, short, fn, 2 if short == "FD" else 1, sum(output_sizes(rec)), "", True))
    order = list(dict.fromkeys(lib for lib, *_ in plan))
    plan.sort(key=lambda e: order.index(e[0]))      # a library's entries together (harness.c's turn)
    pin_file = peers.model_file(model, spec["frame"], work / "model.txt")
    (work / "extra.txt").write_text(extra)
    setup = f'    if (pinc_load("{pin_file}", "{work / "extra.txt"}") != {robot.nv}) return 1;'
    (work / "entries.c").write_text(peers.entries_c(plan, setup, decls))

    obj = peers.pinocchio_object(cache, peers.site_prefix(), "pinocchio_controller.cpp", "pinocchio_controller",
                                 "minutes and GBs")
    peers.log(f"{name}: compiling soagen's C and the harness ...")
    t0 = time.perf_counter()
    exe = peers.build_harness(work, [HERE / "harness.c", work / "entries.c", work / "soa.c"], [obj], lambda s: [],
                              [f"-I{HERE}", f"-I{work}"])
    build_s = time.perf_counter() - t0
    peers.log(f"{name}: timing ({args.rounds} rounds; {args.patterns}) ...")
    r = peers.run([exe, work, args.rounds, args.target_ns, args.patterns], "the harness")
    times = peers.parse_times(r.stdout)
    errors = check(plan, work, conv, robot, sets[0])
    return {"robot": name, "nv": robot.nv, "frame": spec["frame"], "times": times, "errors": errors,
            "functions": shorts, "libraries": order, "generation_s": gen_s, "build_s": build_s,
            "ops": {s: man["functions"][FUNCTIONS[s][0]]["ops"] for s in shorts},
            "styles": {s: man["functions"][FUNCTIONS[s][0]].get("style") for s in shorts},
            "variants": {s: man["functions"][FUNCTIONS[s][0]].get("variant") for s in shorts}}


def ops_text(ops):
    extra = " ".join(f"{k} {ops[k]}" for k in ("div", "sqrt", "trig") if ops.get(k))
    return f"{ops['mul']}/{ops['add']}" + (f" ({extra})" if extra else "")


def table(res, pattern):
    """One row per (function, Pinocchio entry): ns per call of soagen and Pinocchio (best of
    the rounds; cold: the median), the ratio, soagen's operation counts, the check."""
    stat = 1 if pattern == "cold" else 0
    t = {(lib, s): v[stat] for (p, lib, s), v in res["times"].items() if p == pattern}
    rows = []
    for s in res["functions"]:
        pins = list(FUNCTIONS[s][1]) or [None]
        for lib in pins:
            soa, pin = t.get(("soagen", s)), t.get((lib, s)) if lib else None
            err, against = res["errors"][("soagen", s)]
            rows.append([FUNCTIONS[s][0] + ("" if lib in (None, "pinocchio") else f" [{lib}]"), res["robot"],
                         f"{soa:.1f}" if soa is not None else "-", f"{pin:.1f}" if pin is not None else "-",
                         f"{soa / pin:.2f}" if soa and pin and soa > 0 else "-", ops_text(res["ops"][s]),
                         f"{err:.0e} ({against})"])
    head = ["function", "robot", "soagen ns", "Pinocchio ns", "soagen/Pinocchio", "soagen mul/add",
            "max rel. err"]
    return peers.format_table(head, rows)


def summarize(path):
    """docs/codegen.md's table from a --json file: per function and robot the ns per call
    of soagen and Pinocchio (hot / turn / cold), the ratios, soagen's counts, the check."""
    out = ["| function | robot (nv) | soagen ns | Pinocchio ns | soagen / Pinocchio | soagen mul/add | "
           "max rel. err |", "|---|---|---|---|---|---|---|"]
    results = json.loads(Path(path).read_text())
    stat = {"hot": 0, "turn": 0, "cold": 1}

    def ns(v):
        return "-" if v is None else "< 1" if v < 1 else f"{v:.0f}" if v >= 100 else f"{v:.1f}"

    for s in FUNCTIONS:
        for res in results:
            if s not in res["functions"]:
                continue
            t = res["times"]
            soa = [t.get(f"{p}/soagen/{s}", [None, None])[stat[p]] for p in stat]
            for lib in list(FUNCTIONS[s][1]) or [None]:
                pin = [t.get(f"{p}/{lib}/{s}", [None, None])[stat[p]] for p in stat] if lib else [None] * 3
                ratio = " / ".join(f"{a / b:.2f}" if a and b and a > 0 else "-" for a, b in zip(soa, pin))
                err, against = res["errors"][f"soagen/{s}"]
                label = FUNCTIONS[s][0] + ("" if lib in (None, "pinocchio") else " (dA_G v)")
                out.append(f"| {label} | {res['robot']} ({res['nv']}) | {' / '.join(map(ns, soa))} | "
                           f"{' / '.join(map(ns, pin)) if lib else '-'} | {ratio if lib else '-'} | "
                           f"{ops_text(res['ops'][s])} | {err:.0e} ({against}) |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--robots", default="ur5,panda,solo12,anymal,g1,fourbar")
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--patterns", default="hot,turn,cold", help="call patterns (harness.c)")
    ap.add_argument("--cache", type=Path,
                    default=Path(os.environ.get("SOAGEN_PEERS_CACHE", Path.home() / ".cache" / "soagen-peers")))
    ap.add_argument("--rounds", type=int, default=101)
    ap.add_argument("--target-ns", type=float, default=2e4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--summarize", type=Path, default=None, metavar="JSON",
                    help="print docs/codegen.md's table from the --json file of an earlier run, and stop")
    args = ap.parse_args(argv)
    if args.summarize:
        print(summarize(args.summarize))
        return None
    args.functions = args.functions.split(",")
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"machine: {peers.machine()}; {time.strftime('%Y-%m-%d')}", flush=True)
    print("Pinocchio: " + "; ".join(f"{FUNCTIONS[s][0]}: {FUNCTIONS[s][2]}" for s in FUNCTIONS), flush=True)
    results = []
    for name in args.robots.split(","):
        res = bench_robot(name, args, args.cache)
        results.append(res)
        print(f"\n== {name} (nv = {res['nv']}, frame {res['frame']}), {args.rounds} rounds; soagen generation "
              f"{res['generation_s']:.1f} s, gcc {res['build_s']:.1f} s ==")
        for pattern, what in peers.PATTERNS.items():
            if any(k[0] == pattern for k in res["times"]):
                print(f"{what} (ns per call, {'median' if pattern == 'cold' else 'best'} of the rounds):")
                print(table(res, pattern), flush=True)
        if args.json:
            args.json.write_text(json.dumps(
                [{**r, "times": {"/".join(k): v for k, v in r["times"].items()},
                  "errors": {"/".join(k): v for k, v in r["errors"].items()}} for r in results], indent=1))
    return results


if __name__ == "__main__":
    main()
