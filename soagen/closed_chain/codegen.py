"""Generated closed-chain forward dynamics for one system file, any grasp types.

The generated function is Lilly-Orin Table 1 (:func:`~soagen.closed_chain.lilly_orin.table1`)
unrolled on SymPy symbols: the same code as the generic method, run on the unrolling
backend, so every per-arm O(N) part comes from the same recursions
(:class:`~soagen.closed_chain.arm.ArmTerms`) and the small solves (the
(6 - n_k) x (6 - n_k) M_k (37) per grasp and the 6 x 6 system (45) for a_0) become
straight-line LDL^T or closed-form code:

    per arm k: qdd_open, xdd_open = alpha_f(0) (6.1), Lambda_k^-1 = J M^-1 J^T (6.10),
               M_k = (phi^c^T Lambda_k^-1 phi^c)^-1, P_k, R_k                   (35)-(42)
    [M(C) + sum A_k^T R_k] a_0 = sum A_k^T P_k - b(C)                            (45)
    f_k = P_k - R_k a_0 (47),  qdd_k = qdd_open - M^-1 J^T f_k by (6.4)            (48)

Inputs: (q, qd, tau) of all arms. If a grasp is rigid, the first one fixes the object's
pose and velocity (X(C) from its tip frame, V(C) by (2.8a)), as in the generic
:class:`~soagen.closed_chain.context.Context`. Otherwise the object is a state of its own
and a fourth input ``obj`` carries its orientation (unit quaternion x, y, z, w) and V(C)
= (omega, v_C): the tail of the ``soagen simulate`` state. Its position is not an input:
with uniform gravity the dynamics does not depend on it. Output: one flat vector (qdd of
all arms, alpha(C), f(0) of all grasps), world-aligned as in
:class:`~soagen.closed_chain.result.Result`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen.closed_chain.context import Context, first_rigid
from soagen.closed_chain.lilly_orin import table1
from soagen.spatial import quaternion_rotation

NAME = "closed_chain_forward_dynamics"
REFERENCES = (
    "Equations: K. W. Lilly, D. E. Orin, \"Efficient Dynamic Simulation for Multiple Chain",
    "Robotic Mechanisms\", Table 1, (35)-(48); per arm, G. Rodriguez, K. Kreutz, JPL Publication",
    "88-11 (1988), Part II (6.1), (6.4), (6.10). Numbers in the comments refer to them.",
)
OBJ_SIZE = 10


def takes_object_state(system):
    """True when no rigid grasp fixes the object: the generated function takes ``obj``."""
    return first_rigid(system) is None


def conventions(system):
    obj = ("The object's pose and velocity follow from the first rigid grasp; the state must",
           "close the loops (soagen: System.consistent_state).")
    if takes_object_state(system):
        obj = ("Input obj (10): the object frame C's orientation as a unit quaternion",
               "(x, y, z, w), then V(C) = (omega, v_C), world; the state must close the loops",
               "(soagen: System.consistent_state; soagen simulate's state ends with these 10).")
    return ("Inputs q, qd, tau: the joints of all arms, arms in file order, each base to tip.",
            "Output (flat): qdd of all arms, then alpha(C) = (omega_dot, a_C) of the object at C",
            "(world, classical), then f_i(0) of every grasp: the force of tip i on the object at",
            "O_i, (moment, force), world-aligned. Gravity is the system file's.") + obj


def closed_chain_fd(system, q, qd, tau, obj, xp):
    """Lilly-Orin Table 1 on backend ``xp`` as one flat vector (see the module doc);
    ``obj`` is None when a rigid grasp fixes the object."""
    pose = twist = None
    if obj is not None:
        pose, twist = (quaternion_rotation(obj[:4]), None), obj[4:]
    qdd, a0, f = table1(Context(system, q, qd, tau, pose, twist, xp))
    return np.concatenate(qdd + [a0] + f)


def render(system, system_file=None, langs=("c", "python"), prefix=None, batch=False, progress=None):
    """Unroll :func:`closed_chain_fd` for ``system`` and hand it to the emitter; returns
    the :class:`~soagen.codegen.emit.Emitted` files and manifest (nothing written). With
    ``batch`` the C has the ``_batch`` function too."""
    import sympy

    from soagen.codegen.emit import (
        Function,
        Header,
        default_prefix,
        emit,
        file_digest,
        validate_prefix,
    )
    from soagen.codegen.robot import batch_langs
    from soagen.codegen.unroll import UnrollBackend, unroll

    prefix = validate_prefix(prefix or default_prefix(system.name))
    n = system.n
    sym = lambda name, m: np.array([sympy.Symbol(f"{name}_{k}") for k in range(m)], dtype=object)
    inputs = ("q", "qd", "tau") + (("obj",) if takes_object_state(system) else ())
    xp = UnrollBackend()
    if progress:
        progress("unroll")
    obj = sym("obj", OBJ_SIZE) if "obj" in inputs else None
    out = closed_chain_fd(system, sym("q", n), sym("qd", n), sym("tau", n), obj, xp)
    if progress:
        progress("cse")
    prog = unroll(out, xp.defs)
    fn = Function(NAME, inputs, "out", (len(prog.outputs),),
                  f"closed-chain forward dynamics of {system.name}: qdd ({n}), alpha(C) (6), "
                  f"f(0) ({6 * system.l})",
                  "Lilly-Orin Table 1; Part II (6.1), (6.4), (6.10)", prog,
                  sizes=(n, n, n) + ((OBJ_SIZE,) if obj is not None else ()))
    source = Path(system_file).name if system_file else system.name
    joints = tuple(f"{o + i:3d}  {a.name}.{b.joint_name} ({b.joint.kind}, axis "
                   f"{' '.join(f'{x:g}' for x in b.joint.axis)})"
                   for a, o in zip(system.arms, system.offsets()) for i, b in enumerate(a.robot.bodies))
    header = Header(prefix=prefix, model=system.name, kind="system", source=source,
                    sha256=file_digest(system_file), nq=n, nv=n, joints=joints,
                    conventions=conventions(system), references=REFERENCES,
                    command=f"soagen generate {source} --out DIR" + (" --batch" if batch else ""),
                    manifest={"n": n, "arms": system.l})
    return emit([fn], header, batch_langs(tuple(langs), batch))


def generate(system_file, out_dir, **kw):
    """Load a system file, render and write; returns (Emitted, written paths)."""
    from soagen.closed_chain.loader import load_system
    from soagen.codegen.emit import write

    result = render(load_system(system_file), system_file, **kw)
    return result, write(result, out_dir)
