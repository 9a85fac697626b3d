"""The flexible pendulum and the two-link flexible arm (soagen.oracles.beams) in the two
independent references: Exudyn's ANCF cable elements and the floating-frame model
written here, the latter as a rigid rod, as the linear Section 4 model and with the
foreshortening (geometric stiffening) term, for several mode counts.

Prints, per case, the Exudyn mesh/step convergence against its finest run and every
floating-frame variant against that run: the largest error over the 0.01 s samples of
1 s of the elastic tip deflection in the hub frame (% of its peak), of the hub angle
(rad) and of the tip position (% of the arm's reach), per link. Minutes per case on a
shared two-core machine (the floating-frame model is pure numpy).

    python benchmarks/flexible/arms.py [--case pendulum|two_link] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from soagen.oracles import beams, ffr
from soagen.oracles import exudyn as exu

CASES = {"pendulum": beams.flexible_pendulum, "two_link": beams.two_link_arm}
# (elements per link, step): the reference first
EXUDYN = [(32, 3.125e-5), (8, 2.5e-4), (16, 1.25e-4), (16, 6.25e-5), (32, 6.25e-5)]
EXUDYN_QUICK = [(16, 1.25e-4), (8, 2.5e-4)]
MODES = {"pendulum": (1, 2, 3, 4, 6, 8), "two_link": (1, 2, 3, 4, 6)}


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def row(label, traj, ref, arm, seconds):
    if len(traj.t) < len(ref.t):
        return f"| {label} | diverged at t = {traj.t[-1]:.2f} s | | | {seconds:.0f} |"
    e = beams.compare(traj, ref, arm.reach)
    cells = [" / ".join(f"{v:.{p}}" for v in vals) for vals, p in
             ((100 * e.deflection, "2g"), (e.hub_angle, "2e"), (100 * e.tip_rel, "2g"))]
    return f"| {label} | " + " | ".join(cells) + f" | {seconds:.0f} |"


def run(case, quick):
    arm = CASES[case]()
    steps = EXUDYN_QUICK if quick else EXUDYN
    loads = " / ".join(f"{link.beam.load:.2f}" for link in arm.links)
    print(f"\n## {case}: {len(arm.links)} link(s), rho A g L^3 / EI = {loads}\n")
    (ref, t_ref) = timed(exu.simulate, arm, *steps[0])
    peaks = " / ".join(f"{v * 1000:.2f} mm" for v in np.abs(ref.deflection).max(axis=0))
    print(f"reference: {ref.label} ({t_ref:.0f} s); peak deflection per link {peaks}\n")
    print("| model | deflection error, % of peak | hub angle error, rad | tip error, % of reach | time, s |")
    print("|---|---|---|---|---|")
    for elements, step in steps[1:]:
        traj, sec = timed(exu.simulate, arm, elements, step)
        print(row(traj.label, traj, ref, arm, sec), flush=True)
    variants = [("rigid", 0)] + [("linear", m) for m in (2, 6)]
    variants += [("stiffened", m) for m in MODES[case][: 3 if quick else None]]
    for model, m in variants:
        traj, sec = timed(ffr.simulate, arm, model, m)
        print(row(traj.label, traj, ref, arm, sec), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append")
    parser.add_argument("--quick", action="store_true", help="coarse reference, fewer variants")
    args = parser.parse_args()
    for case in args.case or list(CASES):
        run(case, args.quick)


if __name__ == "__main__":
    main()
