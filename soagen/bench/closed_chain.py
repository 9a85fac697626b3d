"""`soagen bench SYSTEM`: the generated closed-chain forward dynamics (C timing loop,
median of repeats) against Pinocchio's constrained dynamics and the generic numpy
methods, in one run; operation counts against Lilly-Orin Tables 2-3.

The generated C is timed on random inputs (its cost does not depend on the values);
everything timed from Python (Pinocchio, the numpy methods, the generated Python) runs on
states that close the loops (:meth:`System.consistent_state`). Pinocchio solves the same
problem with the object as a free-flyer body and one rigid constraint model per grasp
(CONTACT_6D / CONTACT_3D); it has no model for the other grasp types."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from soagen.bench.robot import BenchResult, binding_overhead, py_time, time_c
from soagen.codegen.compile import FAST_FLAGS

NUMPY_METHODS = ("lilly_orin", "rccfd1", "dense")
PAPER = ("Lilly & Orin, Table 2 per chain (656N - 767 + p(n_c) mul, 546N - 659 + s(n_c) add, "
         "revolute/prismatic chains) summed over the chains, plus Table 3 for a_0 (86 mul, "
         "27m + 71 add); the paper's counts leave out the object's terms I_0, b_0, X and the "
         "sines and cosines.")


@dataclass
class SystemBenchResult(BenchResult):
    numpy_methods_ns: dict = field(default_factory=dict)
    paper: tuple | None = None          # Lilly-Orin (mul, add), None if not applicable


def lilly_orin_counts(system):
    """(mul, add) of Lilly-Orin Tables 2-3 for this system, or None when an arm has joints
    other than revolute/prismatic (the tables' assumption)."""
    if any(b.joint.kind not in ("revolute", "prismatic") for a in system.arms for b in a.robot.bodies):
        return None
    mul = add = Fraction(0)
    for a in system.arms:
        N, nc = a.n, a.grasp.n_c
        mul += 656 * N - 767 + Fraction(1, 6) * nc ** 3 + Fraction(13, 2) * nc ** 2 + Fraction(124, 3) * nc + 46
        add += 546 * N - 659 + Fraction(1, 6) * nc ** 3 + 6 * nc ** 2 + Fraction(221, 6) * nc - 14
    return int(mul + 86), int(add + 27 * system.l + 71)


def _states(system, count):
    from soagen.closed_chain.context import Context

    out = []
    for seed in range(count):
        q, qd, tau = system.consistent_state(seed, speed=1.0, torque=5.0)
        out.append((q, qd, tau, Context(system, q, qd, tau)))
    return out


def _pinocchio(system, states, name):
    """({name: ("constraintDynamics", ns)}, overhead ns, note)."""
    try:
        import pinocchio as pin
    except ImportError:
        return {}, None, "pinocchio not installed (pip install pin)"
    from soagen.oracles import pinocchio_closed_chain as pm

    try:
        solver = pm.Solver(system)
    except ValueError as e:
        return {}, None, f"Pinocchio not timed: {e}"
    sets = [pm.pin_state(system, q, qd, tau, c.R_C, c.p_C, c.V_C) for q, qd, tau, c in states]
    ns = py_time(solver, sets, 0.1)
    overhead, note = binding_overhead(pin, "constraintDynamics, the object a free flyer, one rigid "
                                           "constraint model per grasp")
    return {name: ("constraintDynamics", ns)}, overhead, note


def run_system_bench(system_file, with_numpy=True, with_pinocchio=True, iters=None, repeats=11,
                     flags=FAST_FLAGS, progress=None, workdir=None) -> SystemBenchResult:
    from soagen.closed_chain.forward import forward_dynamics
    from soagen.codegen.closed_chain import NAME, constraint_count, render
    from soagen.codegen.compile import load_python
    from soagen.loaders.closed_chain import load_system
    from soagen.spatial import quaternion_from_rotation

    system = load_system(system_file)
    t0, c0 = time.perf_counter(), time.process_time()
    result = render(system, system_file, progress=progress)
    gen_s, gen_cpu = time.perf_counter() - t0, time.process_time() - c0
    manifest = result.manifest
    states = _states(system, 8)
    with tempfile.TemporaryDirectory(prefix="soagen-bench-") as tmp:
        work = Path(workdir or tmp)
        c_ns = time_c(result, work, flags, iters, repeats,
                      quat_slots=[(3, 0), (1, 3)])
        py = load_python(work / f"{manifest['prefix']}.py")
    res = SystemBenchResult(system.name, system.n, gen_s, {NAME: manifest["functions"][NAME]["ops"]}, c_ns,
                            flags=tuple(flags), generation_cpu_s=gen_cpu, paper=lilly_orin_counts(system))
    m = constraint_count(system)
    args = [[list(q), list(qd), list(tau), list(quaternion_from_rotation(c.R_C)) + list(c.V_C), [0.0] * m]
            for q, qd, tau, c in states]
    res.generated_py_ns[NAME] = py_time(getattr(py, NAME), args, 0.1)
    if with_numpy:
        for m in NUMPY_METHODS:
            res.numpy_methods_ns[m] = py_time(lambda q, qd, tau, c: forward_dynamics(system, q, qd, tau, m),
                                              states, 0.1)
        res.numpy_ns[NAME] = res.numpy_methods_ns["lilly_orin"]
    if with_pinocchio:
        res.pin_ns, res.pin_overhead_ns, res.pin_note = _pinocchio(system, states, NAME)
    return res


def ops_rows(res):
    """Rows (function, mul, add, div, sin/cos, paper, paper mul, paper add)."""
    name, c = next(iter(res.counts.items()))
    paper = ("Lilly-Orin Tables 2-3", *res.paper) if res.paper else ("-", "", "")
    return [(name, c["mul"], c["add"], c["div"], c["trig"], *paper)]


def numpy_note(res):
    if not res.numpy_methods_ns:
        return ""
    return "numpy reference by method: " + ", ".join(
        f"{m} {ns / 1e6:.2f} ms" for m, ns in res.numpy_methods_ns.items()) + " (numpy ref column: lilly_orin)"


__all__ = ["run_system_bench", "lilly_orin_counts", "SystemBenchResult", "PAPER", "ops_rows", "numpy_note"]
