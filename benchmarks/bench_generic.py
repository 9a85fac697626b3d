"""Microseconds per call of each generic (numpy) algorithm, next to Pinocchio's C++
implementation called from Python, for the bundled robots.

    python benchmarks/bench_generic.py [--repeat 200]

The numpy reference is written for clarity and as the oracle of the generated code, not
for speed: expect it to be 2-3 orders of magnitude slower than Pinocchio. Timings are
medians of repeated calls in one process (Python call overhead included on both sides).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import soagen
from soagen import algorithms as A


def per_call_us(fn, repeat):
    fn()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("robots", nargs="*", default=["robots/puma560.yaml", "robots/stanford.yaml", "robots/arm7.yaml"])
    args = parser.parse_args()
    try:
        import pinocchio as pin

        from soagen.oracles.pinocchio import Converter, pin_model_from_robot
    except ImportError:
        pin = None
    rng = np.random.default_rng(0)
    print(f"{'robot':10s} {'algorithm':24s} {'soagen numpy [us]':>18s} {'pinocchio [us]':>15s} {'ratio':>8s}")
    for path in args.robots:
        robot = soagen.load(path)
        q = robot.random_configuration(rng)
        qd, qdd, tau = (rng.normal(size=robot.nv) for _ in range(3))
        ours = {
            "inverse_dynamics (RNE)": lambda: A.inverse_dynamics(robot, q, qd, qdd),
            "mass_matrix": lambda: A.mass_matrix(robot, q),
            "inverse_mass_matrix": lambda: A.inverse_mass_matrix(robot, q),
            **{f"forward_dynamics {m}": (lambda m=m: A.forward_dynamics(robot, q, qd, tau, method=m))
               for m in A.FD_METHODS},
            "jacobian": lambda: A.jacobian(robot, q),
            "op_space_inverse_inertia": lambda: A.op_space_inverse_inertia(robot, q),
        }
        theirs = {}
        if pin is not None:
            model = pin_model_from_robot(robot)
            data = model.createData()
            conv = Converter(robot, model)
            qp, vp, ap, tp = conv.q_to_pin(q), conv.v_to_pin(qd), conv.v_to_pin(qdd), conv.v_to_pin(tau)
            jid = model.getJointId(robot.bodies[robot.tip.body].joint_name)
            theirs = {
                "inverse_dynamics (RNE)": lambda: pin.rnea(model, data, qp, vp, ap),
                "mass_matrix": lambda: pin.crba(model, data, qp),
                "inverse_mass_matrix": lambda: pin.computeMinverse(model, data, qp),
                **{f"forward_dynamics {m}": (lambda: pin.aba(model, data, qp, vp, tp)) for m in A.FD_METHODS},
                "jacobian": lambda: pin.computeJointJacobian(model, data, qp, jid),
            }
        for name, fn in ours.items():
            t_ours = per_call_us(fn, args.repeat)
            t_pin = per_call_us(theirs[name], args.repeat) if name in theirs else float("nan")
            print(f"{robot.name:10s} {name:24s} {t_ours:18.1f} {t_pin:15.2f} {t_ours / t_pin:8.0f}")


if __name__ == "__main__":
    main()
