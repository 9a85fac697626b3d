"""Generated closed-chain code for one system file, any grasp types: the forward dynamics,
the closure constraints and the arms' gravity torques (what a simulation needs per step;
``soagen simulate SYSTEM --backend generated`` integrates with them).

The forward dynamics is Lilly-Orin Table 1 (:func:`~soagen.closed_chain.lilly_orin.table1`)
unrolled on SymPy symbols: the same code as the generic method, run on the unrolling
backend, so every per-arm O(N) part comes from the same recursions
(:class:`~soagen.closed_chain.arm.ArmTerms`) and the small solves (the
(6 - n_k) x (6 - n_k) M_k (37) per grasp and the 6 x 6 system (45) for a_0) become
straight-line LDL^T or closed-form code:

    per arm k: qdd_open, xdd_open = alpha_f(0) (6.1), Lambda_k^-1 = J M^-1 J^T (6.10),
               M_k = (phi^c^T Lambda_k^-1 phi^c)^-1, P_k, R_k                   (35)-(42)
    [M(C) + sum A_k^T R_k] a_0 = sum A_k^T P_k - b(C)                            (45)
    f_k = P_k - R_k a_0 (47),  qdd_k = qdd_open - M^-1 J^T f_k by (6.4)            (48)

Inputs: (q, qd, tau) of all arms; ``obj``, the object's orientation (unit quaternion x, y,
z, w) and V(C) = (omega, v_C) (its position is not an input: with uniform gravity the
dynamics does not depend on it); ``corr``, one number per constraint direction (m = sum
n_c), added to the acceleration-level closure gamma of (30): zero for the plain dynamics,
-2 w c' - w^2 c for Baumgarte stabilization with the outputs of closure_constraints. Output:
one flat vector (qdd of all arms, alpha(C), f(0) of all grasps), world-aligned as in
:class:`~soagen.closed_chain.result.Result`.

closure_constraints(q, pose) (pose = p_C, quaternion) is
:func:`~soagen.closed_chain.consistent.closure_residual` unrolled: per constraint
direction a row [c, G], the closure error c and the row of G, G (qd, V(C)) = the velocity
violation = c' (m x (n + 6)), in the constraint directions the forward dynamics uses.
gravity_torques(q) is each arm's RNE at rest (3.23), the arms' own weight."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen import algorithms as alg
from soagen.closed_chain.consistent import closure_residual
from soagen.closed_chain.context import Context
from soagen.closed_chain.lilly_orin import table1
from soagen.spatial import quaternion_rotation

NAME = "closed_chain_forward_dynamics"
CONSTRAINTS = "closure_constraints"
GRAVITY = "gravity_torques"
REFERENCES = (
    "Equations: K. W. Lilly, D. E. Orin, \"Efficient Dynamic Simulation for Multiple Chain",
    "Robotic Mechanisms\", Table 1, (35)-(48); per arm, G. Rodriguez, K. Kreutz, JPL Publication",
    "88-11 (1988), Part I (3.23) and Part II (6.1), (6.4), (6.10). Numbers in the comments refer to them.",
)
OBJ_SIZE = 10
POSE_SIZE = 7


def constraint_count(system):
    """m = sum of n_c over the grasps: the length of corr, the rows of closure_constraints."""
    return sum(a.grasp.n_c for a in system.arms)


def conventions(system):
    return ("Inputs q, qd, tau: the joints of all arms, arms in file order, each base to tip.",
            "obj (10): the object frame C's orientation as a unit quaternion (x, y, z, w), then",
            "V(C) = (omega, v_C), world; pose (7): p_C, then the quaternion. The state must close",
            "the loops (soagen: System.consistent_state; soagen simulate's state ends with p_C, obj).",
            f"corr ({constraint_count(system)}): added to the closure gamma, one per constraint direction, grasp "
            "by grasp;",
            "zeros for the plain dynamics, -2 w c' - w^2 c for Baumgarte (c, c' from closure_constraints).",
            "closed_chain_forward_dynamics output (flat): qdd of all arms, then alpha(C) = (omega_dot,",
            "a_C) of the object at C (world, classical), then f_i(0) of every grasp: the force of tip i",
            "on the object at O_i, (moment, force), world-aligned. Gravity is the system file's.",
            "closure_constraints output: one row per constraint direction (rigid grasps: world",
            "angular then linear; others: the grasp's phi^c columns, world-aligned): the closure",
            "error c, then G (n + 6) with G (qd, V(C)) = c' (the velocity violation).",
            "gravity_torques output: the joint torques that hold each arm's own weight at rest.")


def closed_chain_fd(system, q, qd, tau, obj, corr, xp):
    """Lilly-Orin Table 1 on backend ``xp`` as one flat vector (see the module doc);
    ``corr`` (m, or None) is added to the closure gamma, grasp by grasp."""
    ctx = Context(system, q, qd, tau, (quaternion_rotation(obj[:4]), None), obj[4:], xp)
    if corr is not None:
        splits = np.cumsum([a.grasp.n_c for a in system.arms])[:-1]
        ctx.gamma = [g + c for g, c in zip(ctx.gamma, np.split(np.asarray(corr), splits))]
    qdd, a0, f = table1(ctx)
    return np.concatenate(qdd + [a0] + f)


def closure_constraints(system, q, pose, xp):
    """[c, G] per constraint direction (m x (n + 7)), see the module doc."""
    e, G = closure_residual(system, q, quaternion_rotation(pose[3:7]), pose[:3], holonomic=False, xp=xp)
    return np.hstack([e.reshape(-1, 1), G])


def gravity_torques(system, q, xp):
    """Each arm's RNE at rest (qd = qdd = 0), arms stacked."""
    return np.concatenate([alg.bias_forces(a.robot, qi, xp.zeros(a.n), xp=xp)
                           for a, qi in zip(system.arms, system.split(q, xp.dtype))])


def render(system, system_file=None, langs=("c", "python"), prefix=None, batch=False, progress=None):
    """Unroll the three functions for ``system`` and hand them to the emitter; returns the
    :class:`~soagen.codegen.emit.Emitted` files and manifest (nothing written). With
    ``batch`` the C has the ``_batch`` functions too."""
    from soagen.codegen.emit import (
        Header,
        default_prefix,
        emit,
        file_digest,
        validate_prefix,
    )
    from soagen.codegen.records import Function
    from soagen.codegen.robot import batch_langs
    from soagen.codegen.unroll import unrolled

    prefix = validate_prefix(prefix or default_prefix(system.name))
    n, m = system.n, constraint_count(system)
    def where(function):
        return lambda label: f"{system.name}: {function}: "

    if progress:
        progress("forward dynamics")
    fd = unrolled(lambda xp: closed_chain_fd(system, xp.symbols("q", n), xp.symbols("qd", n), xp.symbols("tau", n),
                                             xp.symbols("obj", OBJ_SIZE), xp.symbols("corr", m), xp), where(NAME))
    if progress:
        progress("constraints, gravity")
    cons = unrolled(lambda xp: closure_constraints(system, xp.symbols("q", n), xp.symbols("pose", POSE_SIZE), xp),
                    where(CONSTRAINTS))
    grav = unrolled(lambda xp: gravity_torques(system, xp.symbols("q", n), xp), where(GRAVITY))
    functions = [
        Function(NAME, ("q", "qd", "tau", "obj", "corr"), "out", (len(fd.outputs),),
                 f"closed-chain forward dynamics of {system.name}: qdd ({n}), alpha(C) (6), "
                 f"f(0) ({6 * system.l})",
                 "Lilly-Orin Table 1; Part II (6.1), (6.4), (6.10)", fd, sizes=(n, n, n, OBJ_SIZE, m)),
        Function(CONSTRAINTS, ("q", "pose"), "out", (m, n + 7),
                 f"closure errors c and the velocity constraints G of {system.name}, one row [c, G] per "
                 f"constraint direction",
                 "Part II (a.6)-(a.8), (2.7a); Lilly-Orin (27)-(30)", cons, sizes=(n, POSE_SIZE)),
        Function(GRAVITY, ("q",), "tau", (n,), f"gravity torques of the arms of {system.name} at rest",
                 "Part I (3.23)", grav, sizes=(n,)),
    ]
    source = Path(system_file).name if system_file else system.name
    joints = tuple(f"{o + i:3d}  {a.name}.{b.joint_name} ({b.joint.kind}, axis "
                   f"{' '.join(f'{x:g}' for x in b.joint.axis)})"
                   for a, o in zip(system.arms, system.offsets()) for i, b in enumerate(a.robot.bodies))
    header = Header(prefix=prefix, model=system.name, kind="system", source=source,
                    sha256=file_digest(system_file), nq=n, nv=n, joints=joints,
                    conventions=conventions(system), references=REFERENCES,
                    command=f"soagen generate {source} --out DIR" + (" --batch" if batch else ""),
                    manifest={"n": n, "arms": system.l, "constraints": m})
    return emit(functions, header, batch_langs(tuple(langs), batch))


def generate(system_file, out_dir, **kw):
    """Load a system file, render and write; returns (Emitted, written paths)."""
    from soagen.codegen.emit import write
    from soagen.loaders.closed_chain import load_system

    result = render(load_system(system_file), system_file, **kw)
    return result, write(result, out_dir)
