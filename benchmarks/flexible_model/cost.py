"""What flexible links cost (docs/flexible.md, "Cost"), measured in
one run on a shared 2-core machine (noisy: compare ratios within the run):

* forward dynamics of the two-link flexible arm with 4 modes per link (steel strips,
  in-plane bending), with and without foreshortening: the generated C (a C timing loop,
  `soagen bench`'s harness), the generic numpy recursion, and a dense solve of the
  Section 4 mass matrix (operators.flexible: M^f built and factored, the bias from RNE);
  operation counts of the generated functions;
* O(N) growth: chains of N flexible links (2 modes each, foreshortening), N up to 50:
  generation time, forward-dynamics operation count and ns per call of the generated C.

    python benchmarks/flexible_model/cost.py [--max-n 50]
"""

import sys
import tempfile
import time

import numpy as np

from soagen import algorithms as A
from soagen.bench.robot import time_c
from soagen.bench.throughput import py_time
from soagen.codegen.robot import render
from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot
from soagen.operators.flexible import flexible_chain_operators

STRIP = Beam(length=1.0, EIz=9.45, rhoA=0.471)
FUNCTIONS = ["inverse_dynamics", "mass_matrix", "forward_dynamics"]


def generated(robot, names):
    t0 = time.perf_counter()
    res = render(robot, None, algorithms=names, langs=("c",), prefix="flex")
    gen = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as work:
        ns = time_c(res, work, repeats=7)
    return res, gen, ns


def two_link():
    print("two-link flexible arm, 4 modes per link (nv = 10): ns per call (median of 7 C loops; numpy: "
          "mean over 64 states)")
    print(f"{'model':22s} {'function':18s} {'mul':>6s} {'add':>6s} {'div':>4s} {'C ns':>8s} {'numpy us':>9s} "
          f"{'dense us':>9s}")
    rng = np.random.default_rng(0)
    for stiff in (False, True):
        robot = beam_robot([STRIP, STRIP], modes=4, shapes=("y",), stiffening=stiff)
        res, gen, ns = generated(robot, FUNCTIONS)
        sets = [(robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv))
                for _ in range(64)]
        numpy = {"inverse_dynamics": lambda q, v, x: A.inverse_dynamics(robot, q, v, x),
                 "mass_matrix": lambda q, v, x: A.mass_matrix(robot, q),
                 "forward_dynamics": lambda q, v, x: A.forward_dynamics(robot, q, v, x)}
        dense = lambda q, v, x: np.linalg.solve(flexible_chain_operators(robot, q).Mf,   # noqa: E731
                                                x - A.bias_forces(robot, q, v))
        for f in res.functions:
            c = f.counts
            d = py_time(dense, sets, 0.2) / 1e3 if f.name == "forward_dynamics" else float("nan")
            print(f"{'stiffened' if stiff else 'linear (Section 4)':22s} {f.name:18s} {c['mul']:6d} {c['add']:6d} "
                  f"{c['div']:4d} {ns[f.name]:8.0f} {py_time(numpy[f.name], sets, 0.2) / 1e3:9.1f} {d:9.1f}")
        print(f"{'':22s} (generation {gen:.1f} s)")


def growth(max_n):
    print("\nO(N) growth: N flexible links, 2 modes each, foreshortening")
    print(f"{'N':>4s} {'nv':>5s} {'generation s':>13s} {'FD mul':>8s} {'FD add':>8s} {'mul per link':>13s} "
          f"{'C ns':>9s} {'ns per link':>12s}")
    for n in [k for k in (1, 2, 5, 10, 20, 50) if k <= max_n]:
        robot = beam_robot([STRIP] * n, modes=2, shapes=("y",), elements=4)
        res, gen, ns = generated(robot, ["forward_dynamics"])
        c = res.functions[0].counts
        print(f"{n:4d} {robot.nv:5d} {gen:13.1f} {c['mul']:8d} {c['add']:8d} {c['mul'] / n:13.0f} "
              f"{ns['forward_dynamics']:9.0f} {ns['forward_dynamics'] / n:12.0f}")


if __name__ == "__main__":
    two_link()
    growth(int(sys.argv[sys.argv.index("--max-n") + 1]) if "--max-n" in sys.argv else 50)
