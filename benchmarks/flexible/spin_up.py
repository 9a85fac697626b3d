"""Kane, Ryan and Banerjee's spin-up beam (J. Guidance 10(2), 1987; soagen.oracles.beams.
SpinUp): a 10 m beam clamped to a hub spun from rest to omega_s = 6 rad/s in T = 15 s.
The linear floating-frame model (the framework paper's Section 4: no geometric stiffening)
softens with the spin (its first frequency squared drops by omega^2) and diverges once
omega passes the first clamped-free frequency, 3.8 rad/s; with the foreshortening term it
stays bounded. Exudyn's ANCF cable elements (geometrically exact) are the independent
check of the stiffened model.

Prints the tip deflection in the hub frame (peak, time of the peak, value at 20 s) and the
largest difference from the finest Exudyn run over the 0.05 s samples; with ``--plot``
writes the figure. A few minutes on a shared two-core machine.

    python benchmarks/flexible/spin_up.py [--plot docs/img/spin_up.png]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from soagen.oracles import beams, ffr
from soagen.oracles import exudyn as exu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", help="write the tip-deflection figure (PNG) here")
    args = parser.parse_args()
    spec = beams.SpinUp()
    variants = [(exu.spin_up, dict(elements=16, step=5e-4)), (exu.spin_up, dict(elements=8, step=2e-3)),
                (ffr.spin_up, dict(model="linear", modes=4))]
    variants += [(ffr.spin_up, dict(model="stiffened", modes=m)) for m in (1, 2, 4, 6)]
    runs = []
    for fn, kw in variants:
        t0 = time.perf_counter()
        runs.append((fn(spec, **kw), time.perf_counter() - t0))
    ref = runs[0][0]
    peak_ref = np.abs(ref.deflection[:, 0]).max()
    print(f"reference: {ref.label}; first clamped-free frequency 3.80 rad/s\n")
    print("| model | peak deflection, m | at t, s | at 20 s, m | max difference, % of peak | time, s |")
    print("|---|---|---|---|---|---|")
    for traj, sec in runs:
        d = traj.deflection[:, 0]
        i = np.argmax(np.abs(d))
        if len(traj.t) < len(ref.t):
            print(f"| {traj.label} | diverged: {d[-1]:.3g} m at {traj.t[-1]:.2f} s | | | | {sec:.0f} |")
            continue
        diff = 100 * np.abs(d - ref.deflection[:, 0]).max() / peak_ref
        print(f"| {traj.label} | {d[i]:.4f} | {traj.t[i]:.2f} | {d[-1]:+.5f} | {diff:.2g} | {sec:.0f} |")
    if args.plot:
        plot(spec, ref, [r for r, _ in runs], args.plot)


def plot(spec, ref, runs, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    linear = next(r for r in runs if "linear" in r.label)
    stiff = next(r for r in runs if "stiffened, 4" in r.label)
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.plot(ref.t, ref.deflection[:, 0], "k-", lw=2.5, label=ref.label)
    ax.plot(stiff.t, stiff.deflection[:, 0], "C1--", lw=1.5, label=stiff.label)
    ax.plot(linear.t, linear.deflection[:, 0], "C3-", lw=1.5,
            label=f"{linear.label} (diverges, {linear.deflection[-1, 0]:.1f} m at {linear.t[-1]:.1f} s)")
    omega = spec.profile(ref.t)[1]
    t_crit = ref.t[np.argmax(omega > 3.80)]
    ax.axvline(t_crit, color="0.6", lw=0.8, ls=":")
    ax.text(t_crit + 0.2, 0.25, "spin rate passes the first\nclamped-free frequency", fontsize=8, color="0.4")
    ax.set_ylim(-1.0, 0.5)
    ax.set_xlim(0, spec.duration)
    ax.set_xlabel("t, s")
    ax.set_ylabel("tip deflection in the hub frame, m")
    ax.set_title("Spin-up beam (Kane, Ryan and Banerjee 1987): omega_s = 6 rad/s, T = 15 s", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
