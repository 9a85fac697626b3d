"""Energy conservation of the undamped flexible pendulum (docs/flexible.md,
"Energy"): the bundled steel strip without a hub, pinned on a passive
joint, 4 modes, released horizontal, RK4 on the generated C. The linear model over 10 s
and the stiffened one over 10 s at dt = 5e-5 s (RK4's own energy error ~ (omega dt)^5,
highest pinned frequency 125 Hz), and the stiffened one over 1 s at dt = 1e-5 s.

    python benchmarks/flexible_model/energy.py
"""

import time

import numpy as np

from soagen import algorithms as A
from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot
from soagen.simulation.flexible import Dynamics, integrate

STRIP = Beam(length=1.0, EIz=9.45, rhoA=0.471)


def drift(stiffening, duration, dt):
    robot = beam_robot(STRIP, modes=4, shapes=("y",), stiffening=stiffening)
    q0, v0 = np.zeros(robot.nq), np.zeros(robot.nv)
    t0 = time.perf_counter()
    t, Q, V = integrate(Dynamics(robot), q0, v0, duration, dt, sample=duration / 20)
    E = np.array([sum(A.energy(robot, q, v)) for q, v in zip(Q, V)])
    scale = max(abs(E[0]), max(abs(x) for q, v in zip(Q, V) for x in A.energy(robot, q, v)))
    return np.abs(E - E[0]).max() / scale, time.perf_counter() - t0


def main():
    print(f"{'model':30s} {'time':>6s} {'dt':>8s} {'max |E - E0| / E':>18s} {'run':>7s}")
    for label, stiff, T, dt in (("linear (Section 4)", False, 10.0, 5e-5), ("stiffened", True, 10.0, 5e-5),
                                ("stiffened", True, 1.0, 1e-5)):
        d, secs = drift(stiff, T, dt)
        print(f"{label:30s} {T:5g}s {dt:8.0e} {d:18.2e} {secs:6.1f}s")


if __name__ == "__main__":
    main()
