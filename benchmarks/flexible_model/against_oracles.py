"""soagen's flexible links against the independent references of soagen.oracles (Exudyn
ANCF cable elements, converged meshes, and a floating-frame model written from the
equations), on its cases (soagen.oracles.beams: a flexible
pendulum and a two-link flexible arm of aluminium strips falling under gravity,
rho A g L^3 / EI = 0.5): the criteria of docs/flexible.md (elastic tip deflection within 5% of its peak,
hub angles within 1e-3 rad, tip within 0.05% of the reach, every 0.01 s over 1 s).

    python benchmarks/flexible_model/against_oracles.py [--quick]

Needs soagen.oracles.beams and .exudyn (and pip exudyn); exits with a message without them.
"""

import sys
import time

import numpy as np

try:
    from soagen.oracles import beams
    from soagen.oracles import exudyn as exu
except ImportError as err:                     # noqa: F841
    sys.exit(f"the oracles are not available here: {err}")

from soagen.simulation.flexible import simulate_arm, simulate_spin_up

QUICK = "--quick" in sys.argv


def as_trajectory(t, out, label):
    return beams.Trajectory(t, out.hub_angle, out.joint_angle, out.root, out.tip, out.deflection, label)


def main():
    for name, arm in (("flexible pendulum", beams.flexible_pendulum()), ("two-link arm", beams.two_link_arm())):
        if QUICK:
            from dataclasses import replace
            arm = replace(arm, duration=0.2)
        t0 = time.perf_counter()
        ref = exu.simulate(arm)
        print(f"\n{name}: Exudyn {ref.label} ({time.perf_counter() - t0:.0f} s); peak deflection "
              f"{', '.join(f'{1000 * x:.2f}' for x in np.abs(ref.deflection).max(axis=0))} mm")
        print(f"{'soagen model':32s} {'deflection err / peak':>22s} {'hub angle (rad)':>18s} {'tip / reach':>16s}")
        for label, kw in [(f"foreshortening, {m} modes", dict(modes=m)) for m in (2, 4, 6)] + \
                         [("linear (Section 4), 6 modes", dict(modes=6, stiffening=False))]:
            t, out = simulate_arm(arm, **kw)
            e = beams.compare(as_trajectory(t, out, label), ref, arm.reach)
            f = lambda x, s: ", ".join(s.format(v) for v in x)        # noqa: E731
            print(f"{label:32s} {f(e.deflection, '{:.2%}'):>22s} {f(e.hub_angle, '{:.1e}'):>18s} "
                  f"{f(e.tip_rel, '{:.3%}'):>16s}")
    spin_up()


def spin_up():
    """Kane-Ryan-Banerjee's spin-up: the tip deflection in the hub frame against Exudyn's."""
    spec = beams.SpinUp()
    t0 = time.perf_counter()
    ref = exu.spin_up(spec, elements=8, step=2e-3)
    d = ref.deflection[:, 0]
    k = int(np.argmax(np.abs(d)))
    print(f"\nspin-up: {ref.label} ({time.perf_counter() - t0:.0f} s): peak {d[k]:.4f} m at {ref.t[k]:.2f} s, "
          f"{d[-1]:+.5f} m at {ref.t[-1]:g} s")
    print(f"{'soagen model':32s} {'peak (m)':>10s} {'at (s)':>7s} {'at 20 s (m)':>12s} {'max diff / peak':>16s}")
    for label, kw in [(f"foreshortening, {m} modes", dict(modes=m)) for m in (1, 2, 4, 6)] + \
                     [("linear (Section 4), 4 modes", dict(modes=4, stiffening=False))]:
        t, out = simulate_spin_up(spec, **kw)
        g = out.deflection[:, 0]
        j = int(np.argmax(np.abs(g)))
        print(f"{label:32s} {g[j]:10.4f} {t[j]:7.2f} {g[-1]:+12.5f} {np.abs(g - d).max() / abs(d[k]):16.2%}")


if __name__ == "__main__":
    main()
