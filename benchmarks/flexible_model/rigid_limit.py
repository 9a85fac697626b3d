"""Very stiff links reproduce the rigid trajectory (docs/flexible.md): the
two-link flexible arm of steel strips with EI x 1e8 (frequencies x 1e4), released from
rest at 0.4 and 0.3 rad under gravity, against the rigid arm with the same total link
inertias (rigid_robot), 1 s, RK4 on the generated C.

    python benchmarks/flexible_model/rigid_limit.py
"""

import numpy as np

from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot, rigid_robot
from soagen.simulation.flexible import Dynamics, integrate


def main():
    print(f"{'EI factor':>10s} {'freq factor':>12s} {'dt':>8s} {'max |q_flex - q_rigid| (rad)':>30s}")
    for factor, dt in ((1e4, 2e-5), (1e8, 2e-7)):
        b = Beam(length=1.0, EIz=9.45 * factor, rhoA=0.471)
        robot = beam_robot([b, b], modes=2, shapes=("y",))
        rigid = rigid_robot(robot)
        joints = [0, 3]
        q0 = np.zeros(robot.nq)
        q0[joints] = [0.4, 0.3]
        _, Q, _ = integrate(Dynamics(robot), q0, np.zeros(robot.nv), 1.0, dt, 0.01)
        _, Qr, _ = integrate(Dynamics(rigid), q0[joints], np.zeros(2), 1.0, 1e-4, 0.01)
        print(f"{factor:10.0e} {np.sqrt(factor):12.0e} {dt:8.0e} {np.abs(Q[:, joints] - Qr).max():30.2e}")


if __name__ == "__main__":
    main()
