"""Generated closed-chain forward dynamics for one system file (rigid grasps).

The generated function is Lilly-Orin Table 1 specialized to rigid grasps (phi^c = I),
with every per-arm O(N) part unrolled from the same recursions as the generic code
(:class:`~soagen.closed_chain.arm.ArmTerms` on the unrolling backend) and the small
solves (Lambda_k^-1 per arm and the 6 x 6 system (45) for a_0) as straight-line LDL^T
code:

    per arm k: qdd_open, xdd_open = alpha_f(0) (6.1), Lambda_k^-1 = J M^-1 J^T (6.10),
               M_k = Lambda_k, P_k = M_k (xdd_open - a_k(C)), R_k = M_k A_k      (37)-(42)
    [M(C) + sum A_k^T R_k] a_0 = sum A_k^T P_k - b(C)                           (45)
    f_k = P_k - R_k a_0 (47),  qdd_k = qdd_open - M^-1 J^T f_k by (6.4)           (48)

The object's pose and velocity are those of arm 1's grasp (X(C) from its tip frame,
V(C) = phi^T(O_1, C) V_1(0), (2.8a) for one rigid grasp), so the inputs are only
(q, qd, tau) of all arms. Output: one flat vector (qdd of all arms, alpha(C), f(0) of
all grasps), world-aligned as in :class:`~soagen.closed_chain.forward.Result`.

:func:`rigid_fd` runs on numpy (checked against the generic ``lilly_orin``) and on the
unrolling backend (:func:`render`), whose program is printed with the code generator's
printers into its C and Python templates."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from soagen.closed_chain.arm import ArmTerms
from soagen.errors import SoagenError
from soagen.spatial import cross, skew, spatial_inertia

CONVENTIONS = (
    "Inputs q, qd, tau: the joints of all arms, arms in file order, each base to tip.",
    "Output (flat): qdd of all arms, then alpha(C) = (omega_dot, a_C) of the object at C",
    "(world, classical), then f_i(0) of every grasp: the force of tip i on the object at",
    "O_i, (moment, force), world-aligned. Gravity is the system file's.",
    "The object's pose and velocity follow from arm 1's rigid grasp; the state must close",
    "the loops (soagen: System.consistent_state).",
)


def _phi_CO_T(l):
    """A_k = phi^T(C, O_k) (2.5)-(2.6)."""
    Z, I = np.zeros((3, 3)), np.eye(3)
    return np.block([[I, Z], [skew(l).T, I]])


def rigid_fd(system, q, qd, tau, xp):
    """Lilly-Orin Table 1 for rigid grasps on backend ``xp``; see the module doc."""
    if any(a.grasp.kind != "rigid" for a in system.arms):
        raise SoagenError(f"{system.name}: code generation handles rigid grasps only "
                          "(use the generic soagen.closed_chain.forward_dynamics for others)")
    offs = system.offsets()
    arms = [ArmTerms(a, q[o:o + a.n], qd[o:o + a.n], tau[o:o + a.n], xp) for a, o in zip(system.arms, offs)]
    obj, g1, t1 = system.obj, system.arms[0].grasp, arms[0]
    R_C = xp.name(t1.R_tip @ g1.R.T, "RC")                             # X(C) from grasp 1
    V1 = t1.V_tip()
    w = V1[:3]
    V_C = np.concatenate([w, V1[3:] - cross(w, R_C @ g1.r)])           # (2.8a), one grasp
    p = R_C @ obj.com
    M_C = xp.name(spatial_inertia(obj.mass, p, R_C @ obj.inertia @ R_C.T), "MC")   # (2.4)
    I_C = M_C[:3, :3]
    b_C = np.concatenate([cross(w, I_C @ w), obj.mass * cross(w, cross(w, p))]) \
        - M_C @ np.concatenate([np.zeros(3), system.gravity])         # b(C) with the weight
    K, rhs, terms = M_C, -b_C, []
    for k, (a, t) in enumerate(zip(system.arms, arms)):
        q_open, x_open = t.free()                                      # Step 1
        Mk = xp.inv(xp.name(t.Lambda(), f"Lam{k}"))                     # M_k = Lambda_k (37)
        l = R_C @ a.grasp.r                                             # l(C, O_k)
        A = _phi_CO_T(l)
        a_k = np.concatenate([np.zeros(3), cross(w, cross(w, l))])     # zeta_0^k = a_k(C)
        P = xp.name(Mk @ (x_open - a_k), f"Pk{k}")                      # (41)
        R = xp.name(Mk @ A, f"Rk{k}")                                   # (42)
        K = K + A.T @ R
        rhs = rhs + A.T @ P
        terms.append((t, q_open, P, R))
    a0 = xp.name(xp.inv(xp.name(K, "K")) @ xp.name(rhs, "rhs"), "a0")  # (45)
    qdd, f = [], []
    for t, q_open, P, R in terms:
        fk = xp.name(P - R @ a0, "fk")                                  # (47)
        qdd.append(q_open + t.delta(fk)[0])                             # (48) by (6.4)
        f.append(fk)
    return np.concatenate(qdd + [a0] + f), V_C


def render(system, system_file=None, langs=("c", "python"), prefix=None, progress=None):
    """Unroll :func:`rigid_fd` for ``system`` and print it into the code generator's
    templates; returns ``{file name: text}`` (nothing written)."""
    import sympy

    from soagen import __version__
    from soagen.codegen.emit import _env, _render_function, default_prefix, validate_prefix
    from soagen.codegen.functions import FunctionSpec, Generated
    from soagen.codegen.unroll import UnrollBackend, unroll

    prefix = validate_prefix(prefix or default_prefix(SimpleNamespace(name=system.name)))
    n = system.n
    sym = lambda name: np.array([sympy.Symbol(f"{name}_{k}") for k in range(n)], dtype=object)
    xp = UnrollBackend()
    if progress:
        progress("unroll")
    out, _ = rigid_fd(system, sym("q"), sym("qd"), sym("tau"), xp)
    if progress:
        progress("cse")
    prog = unroll(out, xp.defs)
    spec = FunctionSpec("closed_chain_forward_dynamics", ("q", "qd", "tau"), "out", "nv",
                        f"closed-chain forward dynamics of {system.name}: qdd ({n}), alpha(C) (6), "
                        f"f(0) ({6 * system.l})",
                        "Lilly-Orin Table 1 with rigid grasps; Part II (6.1), (6.4), (6.10)")
    gen = Generated(spec, prog, spec.equations)
    shape_holder = SimpleNamespace(nv=len(prog.outputs))
    source = Path(system_file).name if system_file else system.name
    joints = [f"{o + i:3d}  {a.name}.{b.joint_name} ({b.joint.kind}, axis "
              f"{' '.join(f'{x:g}' for x in b.joint.axis)})"
              for a, o in zip(system.arms, system.offsets()) for i, b in enumerate(a.robot.bodies)]
    common = {"prefix": prefix, "robot": system.name, "source": source, "nq": n, "nv": n,
              "joints": joints, "conventions": CONVENTIONS, "symbolic_params": False, "nparams": 0,
              "param_names": [], "tip": None,
              "command": f"soagen generate {source} --out DIR"}
    env, files = _env(), {}
    if "c" in langs:
        fns = [_render_function(shape_holder, gen, "c", False)]
        for tpl, fname in (("c/header.h.j2", f"{prefix}.h"), ("c/source.c.j2", f"{prefix}.c")):
            files[fname] = env.get_template(tpl).render(**common, functions=fns, template=tpl)
    if "python" in langs:
        fns = [_render_function(shape_holder, gen, "python", False)]
        tpl = "python/module.py.j2"
        files[f"{prefix}.py"] = env.get_template(tpl).render(**common, functions=fns, template=tpl)
    raw = Path(system_file).read_bytes() if system_file else b""
    manifest = {"generator": "soagen", "soagen_version": __version__, "sympy_version": sympy.__version__,
                "system": system.name, "input_file": source, "input_sha256": hashlib.sha256(raw).hexdigest(),
                "prefix": prefix, "n": n, "arms": system.l, "files": sorted(files),
                "functions": {spec.name: {"inputs": list(spec.inputs), "output": "out",
                                          "shape": [len(prog.outputs)], "equations": spec.equations,
                                          "ops": prog.counts, "cse_temporaries": prog.temporaries}}}
    files[f"{prefix}_manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return files


def generate(system_file, out_dir, **kw):
    """Load a system file, render and write; returns the written paths."""
    from soagen.closed_chain.loader import load_system
    from soagen.codegen.emit import Result, write

    system = load_system(system_file)
    files = render(system, system_file, **kw)
    return write(Result(files, [], {}), out_dir)
