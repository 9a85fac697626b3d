"""Elastic deflection of a flexible pendulum and a two-link flexible arm falling under
gravity (docs/flexible.md, "Deflection"): soagen's flexible links with foreshortening
(1, 2, 3, 4, 6 modes per link), the linear model of Section 4 (4 and 6 modes) and a rigid
arm, against a geometrically exact reference that shares no flexible-body code with them:
the same beams as chains of 80 rigid segments on virtual elastic joints (Swain-Morris
C.2, lumped_beam_robot; large rotations exact, O(1/n^2) discretization error).

Steel strips 1 m x 20 mm x 3 mm (EI = 9.45 N m^2, rho A = 0.471 kg/m, rho A g L^3 / EI =
0.49), released from rest, horizontal and undeformed, passive joints without hubs;
1 s, sampled every 0.01 s. Reported per link: the largest error of the elastic tip
deflection in the hub frame relative to the reference's peak, of the hub angle (rad),
and of the tip position relative to the arm's reach.

    python benchmarks/flexible_model/deflection.py [--quick]
"""

import sys
import time

import numpy as np

from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot, lumped_beam_robot, rigid_robot
from soagen.simulation.flexible import Dynamics, integrate, planar_outputs
from soagen.simulation.robot import stable_step

STRIP = Beam(length=1.0, EA=1.26e7, EIy=420.0, EIz=9.45, GJ=14.6, rhoA=0.471, rhoJ=1.6e-5)
QUICK = "--quick" in sys.argv
T, SAMPLE = (0.3 if QUICK else 1.0), 0.01


def run(robot, dt=None, fraction=10):
    """RK4 at ``dt``, or at the stable step of the stiffest mode / ``fraction`` (rounded to
    divide the sampling interval), from rest, horizontal and undeformed."""
    q0 = np.zeros(robot.nq)
    if dt is None:
        dt = SAMPLE / np.ceil(SAMPLE / (stable_step(robot, q0) / fraction))
    t, Q, _ = integrate(Dynamics(robot), q0, np.zeros(robot.nv), T, dt, SAMPLE)
    return planar_outputs(robot, Q)


def link_outputs(out, bodies):
    """The outputs of the bodies that are the links' hubs (the lumped model: first segments)."""
    return (out.hub_angle[:, bodies], out.root[:, bodies], out.deflection[:, bodies])


def lumped_tips(robot, out, n, links):
    """Tip of each lumped link: the end of its last segment; deflection in its hub frame."""
    hub = out.hub_angle[:, [k * n for k in range(links)]]
    root = out.root[:, [k * n for k in range(links)]]
    tip = out.tip[:, [k * n + n - 1 for k in range(links)]]
    d = tip - root
    return hub, tip, -np.sin(hub) * d[..., 0] + np.cos(hub) * d[..., 1]


def errors(hub, tip, defl, ref, reach):
    rh, rt, rd = ref
    return (np.abs(defl - rd).max(axis=0) / np.abs(rd).max(axis=0), np.abs(hub - rh).max(axis=0),
            np.linalg.norm(tip - rt, axis=-1).max(axis=0) / reach)


def case(links):
    beams = [STRIP] * links
    n = 20 if QUICK else 80
    lumped = lumped_beam_robot(beams, segments=n)
    t0 = time.perf_counter()
    out = run(lumped, fraction=4)        # its stiffest modes are the segments' own, with no energy
    ref = lumped_tips(lumped, out, n, links)
    print(f"\n{links} link(s): reference = {n} rigid segments per link ({time.perf_counter() - t0:.1f} s); "
          f"peak deflection {', '.join(f'{1000 * x:.2f}' for x in np.abs(ref[2]).max(axis=0))} mm")
    print(f"{'model':34s} {'deflection err / peak':>24s} {'hub angle err (rad)':>22s} {'tip err / reach':>18s}")
    rows = [(f"stiffened, {m} mode{'s' * (m > 1)}/link", dict(modes=m, stiffening=True)) for m in (1, 2, 3, 4, 6)]
    rows += [(f"linear (Section 4), {m} modes/link", dict(modes=m, stiffening=False)) for m in (4, 6)]
    for label, kw in rows + [("rigid links", None)]:
        robot = beam_robot(beams, shapes=("y",), **(kw or dict(modes=1)))
        if kw is None:
            robot = rigid_robot(robot)
        o = run(robot, None if kw is not None else 5e-5)
        tip = o.tip if kw is not None else o.tip
        e = errors(o.hub_angle, tip, o.deflection, ref, links * STRIP.length)
        fmt = lambda x, f: ", ".join(f.format(v) for v in x)        # noqa: E731
        print(f"{label:34s} {fmt(e[0], '{:.2%}'):>24s} {fmt(e[1], '{:.1e}'):>22s} {fmt(e[2], '{:.3%}'):>18s}")


if __name__ == "__main__":
    case(1)
    case(2)
