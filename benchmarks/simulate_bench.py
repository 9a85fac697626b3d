"""Steps per second of `soagen simulate`: the generated, compiled code against the numpy
reference and against Pinocchio in the same Python RK4 loop, and the largest difference
between the generated and the numpy trajectories. One process, the backends one after
another per model; the stepping loop alone is timed (not the start, not the files).

Systems (the bundled closed chains): the default configuration (projection, hold
controller) for numpy (rccfd1) and generated; then stabilization none and zero torques for
numpy, generated and Pinocchio's constraintDynamics (the object a free flyer, one rigid
constraint per grasp, as in `soagen bench SYSTEM`), where the loop needs only the forward
dynamics (the closure errors it records come from the generated closure_constraints for
every backend, ~2 us a step). Robots (URDFs of example-robot-data, fixed base): the hold
controller with numpy, generated, and Pinocchio's aba + computeGeneralizedGravity.

    python benchmarks/simulate_bench.py [--duration-numpy 0.2] [--duration 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import soagen
from soagen import load_system
from soagen.codegen import cache
from soagen.oracles.pinocchio import example_robot_data_dir
from soagen.simulation.closed_chain import GeneratedDynamics, Simulator
from soagen.simulation.robot import GeneratedRobotDynamics, RobotSimulator

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = ("dual_arm_box", "three_arm_point_contacts", "quadruped_platform")
ROBOTS = {"ur5": "ur_description/urdf/ur5_robot.urdf", "panda": "panda_description/urdf/panda.urdf"}
DT = 0.002


class PinocchioClosedChain:
    """constraintDynamics as the forward dynamics of the closed-chain Simulator."""

    method = "Pinocchio constraintDynamics"

    def __init__(self, system, constraints_from):
        from soagen.oracles import pinocchio_closed_chain as pm

        self.system, self.pm, self.solver = system, pm, pm.Solver(system)
        self.constraints = constraints_from.constraints

    def accelerations(self, q, qd, tau, p, quat, V, corr):
        from soagen.spatial import cross, quaternion_rotation

        R = quaternion_rotation(quat)
        ddq = self.solver(*self.pm.pin_state(self.system, q, qd, tau, R, p, V))
        n = self.system.n
        w, v = R.T @ V[:3], R.T @ V[3:]
        return ddq[:n], np.concatenate([R @ ddq[n + 3:n + 6], R @ (ddq[n:n + 3] + cross(w, v))])


class PinocchioRobot:
    """aba and computeGeneralizedGravity as the dynamics of the RobotSimulator (q and v
    in soagen's order, converted)."""

    method = "Pinocchio aba"

    def __init__(self, robot, path):
        import pinocchio as pin

        from soagen.oracles.pinocchio import Converter

        self.pin, self.model = pin, pin.buildModelFromUrdf(str(path))
        self.data = self.model.createData()
        self.conv, self.perm = Converter(robot, self.model), None
        self.perm = self.conv.vperm

    def _v(self, v):
        out = np.empty_like(v)
        out[self.perm] = v
        return out

    def forward_dynamics(self, q, v, tau):
        return self.pin.aba(self.model, self.data, self.conv.q_to_pin(q), self._v(v), self._v(tau))[self.perm]

    def gravity(self, q):
        return self.pin.computeGeneralizedGravity(self.model, self.data, self.conv.q_to_pin(q))[self.perm]


def _diff(a, b, fields):
    k = min(len(a.t), len(b.t))
    return max(np.abs(getattr(a, f)[:k] - getattr(b, f)[:k]).max() for f in fields)


def systems(args):
    print("| system | configuration | numpy steps/s | generated steps/s | generated / numpy | Pinocchio "
          "steps/s | generated / Pinocchio | max difference generated - numpy |")
    print("|---|---|---|---|---|---|---|---|")
    for name in SYSTEMS:
        path = REPO / "robots" / "systems" / f"{name}.yaml"
        s = load_system(path)
        gen_dyn = GeneratedDynamics(s, cache.from_folder(REPO / "generated" / "systems" / name))
        for stab, ctrl in (("projection", "pd"), ("none", "zero")):
            num = Simulator(s, "rccfd1", stab, ctrl)
            tn = num.run(args.duration_numpy, DT)
            gen = Simulator(s, "rccfd1", stab, ctrl, dynamics=gen_dyn)
            tg = gen.run(args.duration, DT)
            pin_cell = ratio = "-"
            if ctrl == "zero":
                try:
                    pin = Simulator(s, "rccfd1", stab, ctrl, dynamics=PinocchioClosedChain(s, gen_dyn))
                    pin.run(args.duration_numpy * 5, DT)
                    pin_cell, ratio = f"{pin.steps_per_second:,.0f}", f"{gen.steps_per_second / pin.steps_per_second:.0f}x"
                except (ImportError, ValueError) as err:
                    pin_cell = f"- ({err})"
            d = _diff(tg, tn, ("q", "qd", "p_C", "quat_C", "V_C"))
            print(f"| {name} | {stab}, {ctrl} | {num.steps_per_second:,.1f} | {gen.steps_per_second:,.0f} | "
                  f"{gen.steps_per_second / num.steps_per_second:.0f}x | {pin_cell} | {ratio} | {d:.1e} |")


def robots(args):
    root = example_robot_data_dir()
    if root is None:
        print("example-robot-data not installed: no robots")
        return
    print("\n| robot | numpy steps/s | generated steps/s | generated / numpy | Pinocchio aba steps/s | "
          "generated / Pinocchio | max difference generated - numpy | - Pinocchio |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rel in ROBOTS.items():
        path = root / rel
        robot = soagen.load(path)
        num = RobotSimulator(robot, "pd")
        tn = num.run(args.duration_numpy, DT)
        gen = RobotSimulator(robot, "pd", GeneratedRobotDynamics.for_robot(robot, path))
        tg = gen.run(args.duration, DT)
        pin_cell = ratio = dp = "-"
        try:
            pin = RobotSimulator(robot, "pd", PinocchioRobot(robot, path))
            tp = pin.run(args.duration, DT)
            pin_cell, ratio = f"{pin.steps_per_second:,.0f}", f"{gen.steps_per_second / pin.steps_per_second:.1f}x"
            dp = f"{_diff(tg, tp, ('q', 'v')):.1e}"
        except ImportError:
            pass
        print(f"| {name} (nv = {robot.nv}) | {num.steps_per_second:,.0f} | {gen.steps_per_second:,.0f} | "
              f"{gen.steps_per_second / num.steps_per_second:.0f}x | {pin_cell} | {ratio} | "
              f"{_diff(tg, tn, ('q', 'v')):.1e} | {dp} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration-numpy", type=float, default=0.2, help="simulated seconds on numpy")
    ap.add_argument("--duration", type=float, default=2.0, help="simulated seconds on the generated code")
    args = ap.parse_args()
    systems(args)
    robots(args)


if __name__ == "__main__":
    main()
