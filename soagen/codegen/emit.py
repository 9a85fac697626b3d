"""From unrolled programs to files: print every expression (here, in Python), then fill
the Jinja templates of ``templates/<language>/`` (which only loop and substitute), and
write the manifest. :func:`generate` is what ``soagen generate`` runs."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from soagen.codegen.functions import (
    ALGORITHMS,
    FD_VARIANTS,
    check_algorithms,
    generate_function,
    param_symbols,
)
from soagen.codegen.printers import PRINTERS
from soagen.errors import SoagenError

STEMS = {  # label stem -> what the temporaries are, with the equation
    "trig": "sin/cos of the joint angles, each computed once",
    "R": "rotation of body frame k in its parent's frame, phi(k+1,k) (3.1)",
    "l": "l(k+1,k): origin O(k) in the parent's frame (3.1)",
    "M": "spatial inertia M(k) about O(k) (2.15)",
    "V": "spatial velocity V(k) (2.25)",
    "a": "bias acceleration a(k), with -g at the base (2.19), (3.21)",
    "alpha": "spatial acceleration alpha(k) (2.26)",
    "f": "spatial force f(k) (2.29)",
    "Rc": "composite rigid-body inertia R(k) (a.44)",
    "F": "mass matrix column walk, body k, column l: phi(k, l) R(l) H^T(l) (Cor. A.1)",
    "ldl": "LDL^T factors inverting a multi-dof D(k) block",
    "P": "articulated inertia P(k) (4.5)",
    "D": "D(k) = H P H^T (4.6)",
    "Dinv": "D^-1(k)",
    "G": "Kalman gain G(k) = P H^T D^-1 (5.12)",
    "z": "z(k) (4.20)",
    "nu": "nu(k) = D^-1 eps(k) (4.19)",
    "qdd": "joint acceleration qdd(k) (4.22)",
    "lam": "lambda(k) (4.21)",
    "zeta": "zeta(k) = phi^T a (4.22b)",
    "Lam": "Lambda(k) (6.10b)",
    "Ups": "Upsilon(k) = Lambda(k) of Part II (6.10b), framework (A.5)",
    "out": "shared by the outputs",
    # closed chains (soagen generate SYSTEM): Lilly-Orin's symbols and equations
    "RC": "X(C): orientation of the object frame C in the world",
    "Rg": "orientation of a grasp frame in the world",
    "MC": "I_0 = M(C), the object's spatial inertia about C (Part II (2.4))",
    "bC": "b_0 - g_0 = b(C) with the object's weight (Part II (2.4), Lilly-Orin (43))",
    "gam": "-alpha^c_k = -phi^c^T W dV: the grasp's closure bias (Lilly-Orin (30))",
    "Lamc": "M_k^-1 = phi^c^T Lambda_k^-1 phi^c (Lilly-Orin (35)-(37))",
    "Pk": "P_k = phi^c M_k S_k (Lilly-Orin (41)-(42))",
    "Rk": "R_k = phi^c M_k phi^c^T X_0^k (Lilly-Orin (41)-(42))",
    "K": "I_0 + sum X^T R_k (Lilly-Orin (45))",
    "rhs": "sum X^T P_k - b_0 + g_0 (Lilly-Orin (45))",
    "alphaC": "a_0 = alpha(C), the object's acceleration (Lilly-Orin (45))",
    "fk": "f_k = P_k - R_k a_0, the grasp force (Lilly-Orin (47))",
}
HEADER_CONVENTIONS = (
    "Joint order: the robot's bodies from the base outwards (as `soagen info` lists them);",
    "q, qd, qdd, tau are vectors of length NQ/NV; revolute angles in rad, prismatic in m.",
    "Matrices are row-major. Spatial vectors: angular part first. Jacobian-type outputs",
    "are world-aligned at the tip point. Gravity is the robot file's and is included in",
    "inverse_dynamics, bias_forces and forward_dynamics.",
)


def template_dir() -> Path:
    """The templates: inside the installed package (wheel), else the repository's."""
    pkg = resources.files("soagen") / "templates"
    if pkg.is_dir():
        return Path(str(pkg))
    repo = Path(__file__).resolve().parents[2] / "templates"
    if repo.is_dir():
        return repo
    raise SoagenError("soagen templates not found (neither in the package nor the repository)")


def _env():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(template_dir())),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True,
                              autoescape=False)


def _stem(label):
    return re.match(r"[A-Za-z]*", label).group(0)    # "Rc3" -> "Rc", "F3_1" -> "F"


def _comment(label):
    stem = _stem(label)
    what = STEMS.get(stem, stem)
    k = label[len(stem):]
    return f"{label}: {what}" if k else what


def _dims(robot, spec):
    nv = robot.nv
    return {"nv": (nv,), "nv x nv": (nv, nv), "6 x nv": (6, nv), "6": (6,), "6 x 6": (6, 6)}[spec.shape]


def _render_function(robot, gen, lang, symbolic_params):
    printer = PRINTERS[lang]()
    prog = gen.program
    body, last = [], None
    for st in prog.statements:
        comment = _comment(st.label) if st.label != last else None
        last = st.label
        body.append({"comment": comment, "target": st.target.name, "expr": printer.doprint(st.expr)})
    shape = _dims(robot, gen.spec)
    outs = []
    for k, e in enumerate(prog.outputs):
        idx = (k,) if len(shape) == 1 else divmod(k, shape[1])
        outs.append({"flat": k, "index": list(idx), "expr": printer.doprint(e)})
    inputs = list(gen.spec.inputs) + (["params"] if symbolic_params else [])
    c = prog.counts
    return {
        "name": gen.spec.name, "summary": gen.spec.summary, "equations": gen.equations,
        "variant": gen.variant, "inputs": inputs, "output": gen.spec.output,
        "shape": list(shape), "shape_text": " x ".join(str(s) for s in shape),
        "counts": c, "temporaries": prog.temporaries,
        "counts_text": f"{c['mul']} mul, {c['add']} add, {c['div']} div, {c['trig']} sin/cos, "
                       f"{c['sqrt']} sqrt; {prog.temporaries} temporaries",
        "statements": body, "outputs": outs,
    }


@dataclass
class Result:
    files: dict            # file name -> text
    functions: list        # Generated, in order
    manifest: dict


def _joint_rows(robot):
    rows = []
    for i, b in enumerate(robot.bodies):
        axis = " ".join(f"{x:g}" for x in b.joint.axis)
        rows.append(f"{b.v_index:3d}  {b.joint_name} ({b.joint.urdf_type or b.joint.kind}, "
                    f"axis {axis}) -> {b.name}")
    return rows


def validate_prefix(prefix):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prefix or ""):
        raise SoagenError(f"--name {prefix!r}: must be a C identifier (letters, digits, _)")
    return prefix


def default_prefix(robot):
    p = re.sub(r"[^A-Za-z0-9_]", "_", robot.name)
    return p if re.match(r"[A-Za-z_]", p) else f"robot_{p}"


def render(robot, robot_file, algorithms=ALGORITHMS, langs=("c", "python"), prefix=None,
           fd_variant="best", symbolic_params=False, numpy=False, progress=None) -> Result:
    """Unroll and print; return the files as text (nothing is written here)."""
    from soagen import __version__

    prefix = validate_prefix(prefix or default_prefix(robot))
    check_algorithms(robot, algorithms)
    algorithms = [a for a in ALGORITHMS if a in set(algorithms)]   # canonical order
    if not algorithms:
        raise SoagenError("no algorithm selected (--algorithms)")
    if fd_variant != "best" and fd_variant not in FD_VARIANTS:
        raise SoagenError(f"unknown --fd-variant {fd_variant!r} (choose from best, {', '.join(FD_VARIANTS)})")
    # Multi-dof joints (spherical, free: unit quaternions in q, nq != nv) unroll like the
    # others; q has nq entries, qd/qdd/tau nv (docs/trees-and-floating-bases.md).
    model, params = (param_symbols(robot) if symbolic_params else (robot, []))
    gens = []
    for a in algorithms:
        if progress:
            progress(a)
        gens.append(generate_function(model, a, fd_variant))
    raw = Path(robot_file).read_bytes() if robot_file else b""
    source = Path(robot_file).name if robot_file else robot.name
    common = {
        "prefix": prefix, "robot": robot.name, "source": source, "nq": robot.nq, "nv": robot.nv,
        "joints": _joint_rows(robot), "conventions": HEADER_CONVENTIONS,
        "symbolic_params": symbolic_params, "nparams": len(params),
        "param_names": [f"params[{10 * i + k}] = {n} of {b.name}"
                        for i, b in enumerate(robot.bodies) for k, n in enumerate(
                            ("m", "c_x", "c_y", "c_z", "I_xx", "I_yy", "I_zz", "I_xy", "I_xz", "I_yz"))],
        "tip": robot.tip.name if robot.tip is not None else None,
    }
    cmd = [f"soagen generate {source} --name {prefix}"]
    if list(algorithms) != list(ALGORITHMS):
        cmd.append(f"--algorithms {','.join(algorithms)}")
    if fd_variant != "best":
        cmd.append(f"--fd-variant {fd_variant}")
    if symbolic_params:
        cmd.append("--symbolic-params")
    if numpy:
        cmd.append("--numpy")
    common["command"] = " ".join(cmd)
    files = {}
    env = _env()
    if symbolic_params:
        subs = {p: f"params_{k}" for k, p in enumerate(params)}
        for g in gens:
            _rename_params(g.program, subs)
    if "c" in langs:
        fns = [_render_function(robot, g, "c", symbolic_params) for g in gens]
        for tpl, fname in (("c/header.h.j2", f"{prefix}.h"), ("c/source.c.j2", f"{prefix}.c")):
            files[fname] = env.get_template(tpl).render(**common, functions=fns, template=tpl)
    if "python" in langs:
        lang = "numpy" if numpy else "python"
        fns = [_render_function(robot, g, lang, symbolic_params) for g in gens]
        tpl = "python/module_numpy.py.j2" if numpy else "python/module.py.j2"
        files[f"{prefix}.py"] = env.get_template(tpl).render(**common, functions=fns, template=tpl)
    manifest = {
        "generator": "soagen", "soagen_version": __version__,
        "sympy_version": _sympy_version(), "robot": robot.name, "input_file": source,
        "input_sha256": hashlib.sha256(raw).hexdigest(), "prefix": prefix,
        "nq": robot.nq, "nv": robot.nv, "symbolic_params": symbolic_params,
        "python_flavour": ("numpy" if numpy else "math") if "python" in langs else None,
        "files": sorted(files),
        "functions": {g.spec.name: {
            "inputs": list(g.spec.inputs) + (["params"] if symbolic_params else []),
            "output": g.spec.output, "shape": list(_dims(robot, g.spec)),
            "equations": g.equations, "ops": g.program.counts,
            "cse_temporaries": g.program.temporaries,
            **({"fd_variant": g.variant} if g.variant else {}),
            **({"fd_candidates": g.candidates} if g.candidates else {}),
        } for g in gens},
    }
    files[f"{prefix}_manifest.json"] = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    return Result(files, gens, manifest)


def _rename_params(prog, subs):
    """Link-parameter symbols (m1, c1_x, ...) -> params_k, printed as params[k]."""
    import sympy

    s = {p: sympy.Symbol(n, real=True) for p, n in subs.items()}
    for st in prog.statements:
        st.expr = st.expr.xreplace(s)
    prog.outputs = [e.xreplace(s) for e in prog.outputs]


def _sympy_version():
    import sympy

    return sympy.__version__


def write(result: Result, out_dir) -> list:
    """Write the rendered files into ``out_dir`` (created if needed); a clear error and
    nothing written when the directory cannot be created or written."""
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SoagenError(f"--out {out}: cannot create directory ({err.strerror or err})") from None
    if not out.is_dir() or not os.access(out, os.W_OK | os.X_OK):
        raise SoagenError(f"--out {out}: not a writable directory")
    for name in result.files:
        if (out / name).is_dir():
            raise SoagenError(f"--out {out}: {name} exists and is a directory")
    paths = []
    for name, text in result.files.items():
        p = out / name
        with open(p, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        paths.append(p)
    return paths


def generate(robot_file, out_dir, tip=None, **kw):
    """Load, render and write; returns (Result, written paths)."""
    from soagen import load

    robot = load(robot_file, tip=tip)
    result = render(robot, robot_file, **kw)
    return result, write(result, out_dir)
