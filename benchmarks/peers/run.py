"""The peers table: soagen's generated C against Pinocchio (C++), CasADi-generated C of
adam-robotics' graph and MuJoCo's C API, timed in one process, every result checked
against Pinocchio.

    python benchmarks/peers/run.py [--robots ur5,panda,solo12] [--cache DIR] [--baseline TREE]

Needs (benchmark dependencies, not soagen's): ``pip install pin example-robot-data mujoco
adam-robotics casadi cmeel-eigen`` (``liecasadi`` too for adam's import), g++ and gcc.
What it does, per robot (UR5 and the 7-dof Panda arm, its fingers welded: all four
codes; Solo12 on a free flyer: soagen against Pinocchio only, for the derivatives):

1. soagen generates C for the functions (``soagen.codegen.robot.render``, the default
   "best" variants), and the same C with the sin/cos call replaced by a copy of the
   angles (the arithmetic alone); the "floor" of a function is that arithmetic plus one
   ``soagen_sincos`` call on its angles, timed on its own. With ``--baseline TREE`` the
   soagen of another source tree (e.g. a git worktree of an older commit) generates a
   third copy, timed in the same process.
2. adam-robotics builds its CasADi graph from the URDF (base fixed at the identity,
   gravity the robot file's); CasADi generates C for the same functions (ID = M qdd + h,
   as adam has no RNEA with accelerations; FD, M^-1 and J M^-1 J^T by CasADi's symbolic
   L D L^T, ``casadi.ldl``/``ldl_solve``; Jdot qd = adam's Jdot times qd).
3. MuJoCo compiles the URDF (visual and collision geometry removed, fixed links kept as
   bodies); its pipeline stages as listed in ``mujoco_peer.c``.
4. Pinocchio: the model read by its Python URDF parser is handed to the C++ side joint by
   joint (``pinocchio_peer.cpp``, Pinocchio's own joint types kept). That file is robot
   independent and compiled once per compiler, flags, Pinocchio version and CPU, cached in
   ``CACHE/pinocchio-<hash>.o``: 5-30 minutes and 5 GB of memory on a 2-core machine.
   The rest (generated C, entries, MuJoCo part) compiles in seconds per robot.
5. ``harness.c`` reads the inputs (64 random states per convention), writes every
   entry's outputs (checked here against Pinocchio's: relative error, max |a - b| /
   max |b|), then times ROUNDS rounds of all entries in turn, each entry ~20 us per round
   (best and median of the rounds' mean ns per call, so that all see the same load).

Build products and generated code stay in CACHE (default /work/cache/peers, or
$SOAGEN_PEERS_CACHE), never in the repository. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FUNCTIONS = {  # short name -> soagen function
    "ID": "inverse_dynamics", "M": "mass_matrix", "C": "bias_forces", "Minv": "inverse_mass_matrix",
    "FD": "forward_dynamics", "J": "jacobian", "Jdqd": "jacobian_dot_qd", "Lam": "op_space_inverse_inertia",
    "dID": "inverse_dynamics_derivatives", "dFD": "forward_dynamics_derivatives",
}
ROBOTS = {
    "ur5": {"urdf": "ur_description/urdf/ur5_robot.urdf", "frame": "tool0", "floating": False,
            "functions": list(FUNCTIONS), "peers": ("casadi", "mujoco")},
    "panda": {"urdf": "panda_description/urdf/panda.urdf", "frame": "panda_hand", "floating": False,
              "weld": ("panda_finger_joint1", "panda_finger_joint2"), "functions": list(FUNCTIONS),
              "peers": ("casadi", "mujoco")},
    "solo12": {"urdf": "solo_description/robots/solo12.urdf", "frame": None, "floating": True,
               "functions": ["ID", "M", "FD", "dID", "dFD"], "peers": ()},
}
PIN_CALLS = {"ID": "pin_rnea", "M": "pin_crba", "C": "pin_nle", "Minv": "pin_minv", "FD": "pin_aba",
             "J": "pin_jacobian", "Jdqd": "pin_jdot_qd", "Lam": "pin_jminvjt", "dID": "pin_drnea_e",
             "dFD": "pin_daba_e"}
PIN_LABELS = {"ID": "rnea", "M": "crba", "C": "nonLinearEffects", "Minv": "computeMinverse", "FD": "aba",
              "J": "computeFrameJacobian", "Jdqd": "classical frame acceleration", "Lam": "J Minv J^T",
              "dID": "computeRNEADerivatives", "dFD": "computeABADerivatives"}
MJ_CALLS = {"ID": "mjp_id", "M": "mjp_mass", "C": "mjp_bias", "Minv": "mjp_minv", "FD": "mjp_fd",
            "J": "mjp_jac", "Jdqd": "mjp_jdot_qd", "Lam": "mjp_lambda_inv"}
CFLAGS = ["-O3", "-march=native", "-ffp-contract=fast"]
PIN_DEFINES = ["-DNDEBUG", "-DBOOST_MPL_LIMIT_LIST_SIZE=30", "-DBOOST_MPL_LIMIT_VECTOR_SIZE=30",
               "-DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS", "-DBOOST_FUSION_INVOKE_MAX_ARITY=12"]
NSETS = 64


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def site_prefix():
    import pinocchio

    p = Path(pinocchio.__file__).resolve()
    for parent in p.parents:
        if (parent / "cmeel.prefix").is_dir():
            return parent / "cmeel.prefix"
    raise SystemExit("cannot find cmeel.prefix (the pin wheel's headers)")


def erd_root():
    from soagen.oracles.pinocchio import example_robot_data_dir

    root = example_robot_data_dir()
    if root is None:
        raise SystemExit("example-robot-data is not installed (pip install example-robot-data)")
    return root


# -- robot files ----------------------------------------------------------------------------

def prepared_urdf(name, spec, work):
    """The URDF all codes read: the original, or with spec["weld"] joints made fixed."""
    src = erd_root() / spec["urdf"]
    if not spec.get("weld"):
        return src
    tree = ET.parse(src)
    for j in tree.getroot().iter("joint"):
        if j.get("name") in spec["weld"]:
            j.set("type", "fixed")
    out = work / f"{name}.urdf"
    tree.write(out)
    return out


def mujoco_xml(urdf, work):
    """The URDF without geometry and with MuJoCo's compiler options (fixed links kept)."""
    tree = ET.parse(urdf)
    for link in tree.getroot().iter("link"):
        for tag in ("visual", "collision"):
            for e in link.findall(tag):
                link.remove(e)
    ET.SubElement(ET.SubElement(tree.getroot(), "mujoco"), "compiler", fusestatic="false", discardvisual="true")
    out = work / "mujoco.urdf"
    tree.write(out)
    return out


# -- soagen ---------------------------------------------------------------------------------

def soagen_code(robot, urdf, names, prefix, work, tree=None, tip=None):
    """Generate the C (prefix.c/.h) into work; with ``tree`` by the soagen of that source
    tree, in a subprocess. Returns the manifest."""
    if tree is None:
        from soagen.codegen.emit import write
        from soagen.codegen.robot import render

        write(render(robot, urdf, algorithms=names, langs=("c",), prefix=prefix), work)
    else:
        code = ("import sys, soagen; from soagen.codegen.robot import render; from soagen.codegen.emit import write; "
                f"r = soagen.load({str(urdf)!r}, floating_base={robot.nq != robot.nv}, tip={tip!r}); "
                f"write(render(r, {str(urdf)!r}, algorithms={names!r}, langs=('c',), prefix={prefix!r}), {str(work)!r})")
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tree)
    return json.loads((work / f"{prefix}_manifest.json").read_text())


def without_trig(c_file, out_file, prefix, new_prefix):
    """The generated C with each soagen_sincos call replaced by copying the angles (the
    arithmetic alone; the values differ, the operations do not), under another prefix."""
    text = c_file.read_text()
    text, n = re.subn(r"soagen_sincos\(soagen_x, soagen_s, soagen_c, (\d+)\);",
                      r"for (int i_ = 0; i_ < \1; i_++) soagen_s[i_] = soagen_c[i_] = soagen_x[i_];", text)
    def rename(t):
        t = re.sub(rf"\b{prefix}_", f"{new_prefix}_", t)
        return re.sub(rf"\b{prefix.upper()}_H\b", f"{new_prefix.upper()}_H", t)
    out_file.write_text(rename(text).replace(f'"{prefix}.h"', f'"{new_prefix}.h"'))
    out_file.with_suffix(".h").write_text(rename(c_file.with_suffix(".h").read_text()))
    return n


def angles_of(c_file, prefix):
    """{function: its soagen_sincos angle list as printed} from the generated C."""
    text = c_file.read_text()
    out = {}
    for m in re.finditer(rf"void {prefix}_(\w+)\(.*?\n\{{(.*?)\n\}}", text, re.S):
        a = re.search(r"const double soagen_x\[\d+\] = \{ (.*?) \};", m.group(2))
        out[m.group(1)] = a.group(1) if a else ""
    return out


# -- CasADi (adam-robotics) ------------------------------------------------------------------

def casadi_code(robot, urdf, frame, names, work):
    """adam's graph through CasADi's C code generator: cas_<short>() per function, and
    {short: (function name, sz_arg, sz_res, sz_iw, sz_w)}."""
    import casadi as cs
    from adam.casadi import KinDynComputations

    joints = [b.joint_name for b in robot.bodies]
    g = np.concatenate([np.asarray(robot.gravity, float), np.zeros(3)])
    with contextlib.redirect_stderr(io.StringIO()):        # urdf_parser_py's notes on unknown tags
        kd = KinDynComputations(str(urdf), joints, gravity=g)
    n = len(joints)
    q, qd, x = cs.SX.sym("q", n), cs.SX.sym("qd", n), cs.SX.sym("x", n)
    H, vb = np.eye(4), np.zeros(6)
    M = kd.mass_matrix(H, q)[6:, 6:]
    h = kd.bias_force(H, q, vb, qd)[6:]
    Jfull = kd.jacobian(frame, H, q)
    J = cs.vertcat(Jfull[3:6, 6:], Jfull[0:3, 6:])                     # angular rows first
    Jd = kd.jacobian_dot(frame, H, q, vb, qd)
    Jdq = Jd[:, 6:] @ qd
    Jdqd = cs.vertcat(Jdq[3:6], Jdq[0:3])
    D, LT, p = cs.ldl(M)
    exprs = {"ID": [M @ x + h], "M": [M], "C": [h], "Minv": [cs.ldl_solve(cs.SX.eye(n), D, LT, p)],
             "FD": [cs.ldl_solve(x - h, D, LT, p)], "J": [J], "Jdqd": [Jdqd],
             "Lam": [J @ cs.ldl_solve(J.T, D, LT, p)]}
    cg = cs.CodeGenerator("casadi_code.c", {"with_header": True, "casadi_real": "double"})
    info = {}
    for short in names:
        if short not in exprs:
            continue
        f = cs.Function(f"cas_{short}", [q, qd, x], [cs.densify(e.T) for e in exprs[short]])  # row-major
        cg.add(f)
        info[short] = (f.name(), f.sz_arg(), f.sz_res(), f.sz_iw(), f.sz_w())
    cg.generate(str(work) + "/")
    return info


# -- Pinocchio model as C literals ------------------------------------------------------------

PIN_TYPES = {"JointModelRX": 0, "JointModelRY": 1, "JointModelRZ": 2, "JointModelPX": 3, "JointModelPY": 4,
             "JointModelPZ": 5, "JointModelRevoluteUnaligned": 6, "JointModelPrismaticUnaligned": 7,
             "JointModelFreeFlyer": 8}


def pin_model(urdf, floating):
    import pinocchio as pin

    return pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer()) if floating else \
        pin.buildModelFromUrdf(str(urdf))


def pin_setup_code(model, frame):
    """C statements that build the same Pinocchio model joint by joint."""
    def arr(x):
        return "(const double[]){" + ", ".join(repr(float(v)) for v in np.ravel(x)) + "}"

    lines = [f"    pin_begin({arr(model.gravity.linear)});"]
    for j in range(1, model.njoints):
        jm = model.joints[j]
        kind = jm.shortname()
        if kind not in PIN_TYPES:
            raise SystemExit(f"joint {model.names[j]}: Pinocchio joint type {kind} not handled here")
        axis = np.asarray(getattr(jm, "axis", np.zeros(3)), float) if "Unaligned" in kind else np.zeros(3)
        X = model.jointPlacements[j]
        I = model.inertias[j]
        Ic = I.inertia
        inertia = [I.mass, *I.lever, Ic[0, 0], Ic[0, 1], Ic[1, 1], Ic[0, 2], Ic[1, 2], Ic[2, 2]]
        lines.append(f"    if (pin_add_joint({PIN_TYPES[kind]}, {arr(axis)}, {model.parents[j]}, "
                     f"{arr(np.concatenate([X.rotation.ravel(), X.translation]))}, {arr(inertia)}, "
                     f"\"{model.names[j]}\") != {j}) return 1;")
    if frame is not None:
        fid = model.getFrameId(frame)
        fr = model.frames[fid]
        X = fr.placement
        lines.append(f"    pin_add_frame({fr.parentJoint}, {arr(np.concatenate([X.rotation.ravel(), X.translation]))});")
    lines.append("    pin_finish();")
    return "\n".join(lines)


# -- inputs and conventions ------------------------------------------------------------------

def inputs(robot, model, rng):
    """Input sets: convention 0 soagen's, 1 Pinocchio's (and MuJoCo's, for the arms)."""
    from soagen.oracles.pinocchio import Converter

    conv = Converter(robot, model)
    soa = [(robot.random_configuration(rng), rng.uniform(-3, 3, robot.nv), rng.uniform(-3, 3, robot.nv))
           for _ in range(NSETS)]
    pin_sets = [(conv.q_to_pin(q), conv.v_to_pin(v), conv.v_to_pin(x)) for q, v, x in soa]
    return conv, [soa, pin_sets]


def write_inputs(path, conventions):
    with open(path, "wb") as f:
        f.write(np.int32(len(conventions)).tobytes())
        for sets in conventions:
            f.write(np.array([len(sets[0][0]), len(sets[0][1])], np.int32).tobytes())
            for a in range(3):
                f.write(np.ascontiguousarray([s[a] for s in sets], dtype=np.float64).tobytes())


# -- building ----------------------------------------------------------------------------------

def run(cmd, what, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        raise SystemExit(f"{what} failed:\n{' '.join(map(str, cmd))}\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r


def cpu_identity():
    """What -march=native compiles for: the CPU's model and feature flags (not the host
    name, which changes with every container of the same machine)."""
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else platform.processor()
    keep = [line for line in info.splitlines() if line.split(":")[0].strip() in ("model name", "flags")]
    return "\n".join(sorted(set(keep))) or platform.machine()


def pinocchio_object(cache, prefix):
    """pinocchio_peer.cpp compiled once per source, flags, compiler, Pinocchio version and CPU."""
    import pinocchio

    src = HERE / "pinocchio_peer.cpp"
    cxx = shutil.which("g++") or shutil.which("c++")
    version = run([cxx, "--version"], "g++ --version").stdout.splitlines()[0]
    key = hashlib.sha256("\n".join([src.read_text(), " ".join(CFLAGS + PIN_DEFINES), version,
                                    pinocchio.__version__, str(prefix), cpu_identity()]).encode()).hexdigest()[:16]
    obj = cache / f"pinocchio-{key}.o"
    if obj.exists():
        return obj
    log(f"compiling Pinocchio's algorithms once ({src.name} -> {obj}; 5-30 min, 5 GB) ...")
    t0 = time.time()
    tmp = obj.with_suffix(".tmp.o")
    run([cxx, *CFLAGS, "-std=c++17", *PIN_DEFINES, f"-I{prefix / 'include'}", f"-I{prefix / 'include' / 'eigen3'}",
         "-c", str(src), "-o", str(tmp)], "compiling pinocchio_peer.cpp")
    tmp.rename(obj)
    log(f"  done in {time.time() - t0:.0f} s")
    return obj


def mujoco_paths():
    import mujoco

    root = Path(mujoco.__file__).resolve().parent
    lib = next(root.glob("libmujoco.so*"))
    return root / "include", lib


ENTRY_WRAPPERS = """
static void pin_drnea_e(const double* q, const double* v, const double* a, double* out)
{{ pin_drnea(q, v, a, out, out + {nn}); }}
static void pin_daba_e(const double* q, const double* v, const double* t, double* out)
{{ pin_daba(q, v, t, out, out + {nn}, out + 2 * {nn}); }}
"""


def entries_c(plan, setup, decls):
    """The per-robot entries.c: wrappers with the harness signature, the table, setup."""
    body = ['#include "harness.h"', "", *decls, ""]
    table = []
    for lib, short, call, conv, nout, wrapper in plan:
        if wrapper:
            body.append(wrapper)
        table.append(f'    {{"{lib}", "{short}", {call}, {conv}, {nout}}},')
    body += ["const struct peer_entry PEER_ENTRIES[] = {", *table, "};",
             f"const int PEER_NENTRIES = {len(table)};", "", "int peers_setup(const char* dir)", "{",
             "    (void)dir;", setup, "    return 0;", "}", ""]
    return "\n".join(body)


def soagen_wrapper(lib, short, prefix, name, record, nout_sizes):
    """A wrapper calling PREFIX_name with the harness signature (extra outputs after the first)."""
    ins = ", ".join(["q", "qd", "x"][:len(record["inputs"])])
    outs, off = [], 0
    for size in nout_sizes:
        outs.append(f"out + {off}" if off else "out")
        off += size
    w = "w_" + lib.replace("-", "_") + f"_{short}"
    return w, (f"static void {w}(const double* q, const double* qd, const double* x, double* out)\n"
               f"{{ (void)q; (void)qd; (void)x; {prefix}_{name}({ins}, {', '.join(outs)}); }}")


# -- the run -----------------------------------------------------------------------------------

def bench_robot(name, args, cache):
    import soagen
    from soagen.codegen.emit import environment
    from soagen.codegen.records import output_sizes

    spec = ROBOTS[name]
    work = cache / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    urdf = prepared_urdf(name, spec, work)
    robot = soagen.load(urdf, floating_base=spec["floating"], tip=spec["frame"])
    shorts = [s for s in spec["functions"] if s in args.functions]
    names = [FUNCTIONS[s] for s in shorts]
    log(f"{name}: generating soagen C ({', '.join(shorts)}) ...")
    t0 = time.time()
    man = soagen_code(robot, urdf, names, "soa", work)
    gen_s = time.time() - t0
    without_trig(work / "soa.c", work / "soant.c", "soa", "soant")
    libs = [("soagen", "soa", man), ("soagen-arith", "soant", man)]
    if args.baseline:
        log(f"{name}: generating the baseline's C with {args.baseline} ...")
        libs.append(("baseline", "old", soagen_code(robot, urdf, names, "old", work, tree=args.baseline,
                                                            tip=spec["frame"])))
    angles = angles_of(work / "soa.c", "soa")
    model = pin_model(urdf, spec["floating"])
    rng = np.random.default_rng(args.seed)
    conv, conventions = inputs(robot, model, rng)
    write_inputs(work / "inputs.bin", conventions)
    nv, nn = robot.nv, robot.nv * robot.nv

    plan, decls = [], [f'#include "{p}.h"' for _, p, _ in libs]
    for lib, prefix, m in libs:
        for short, fname in zip(shorts, names):
            if fname not in m["functions"]:
                continue
            rec = m["functions"][fname]
            w, code = soagen_wrapper(lib, short, prefix, fname, rec, output_sizes(rec))
            plan.append((lib, short, w, 0, sum(output_sizes(rec)), code))
    # one soagen_sincos call on each function's angles: the trig part of the floor
    prelude = environment().get_template("c/_vector.c.j2").render()
    sc = [prelude, "#include <math.h>", ""]
    for short, fname in zip(shorts, names):
        a = angles.get(fname, "")
        k = a.count(",") + 1 if a else 0
        sc.append(f"void sincos_{short}(const double* q, const double* qd, const double* x, double* out)\n{{\n"
                  f"    (void)qd; (void)x;\n" + (f"    const double soagen_x[{k}] = {{ {a} }};\n"
                                                  f"    soagen_sincos(soagen_x, out, out + {k}, {k});\n" if k else "") + "}")
        decls.append(f"void sincos_{short}(const double*, const double*, const double*, double*);")
        plan.append(("sincos", short, f"sincos_{short}", 0, 2 * max(k, 1), ""))
    (work / "sincos.c").write_text("\n".join(sc) + "\n")

    decls += ["void pin_begin(const double*);",
              "int pin_add_joint(int, const double*, int, const double*, const double*, const char*);",
              "void pin_add_frame(int, const double*);", "int pin_finish(void);"]
    for short in shorts:
        call = PIN_CALLS[short]
        if not call.endswith("_e"):
            decls.append(f"void {call}(const double*, const double*, const double*, double*);")
    decls += ["void pin_drnea(const double*, const double*, const double*, double*, double*);",
              "void pin_daba(const double*, const double*, const double*, double*, double*, double*);",
              ENTRY_WRAPPERS.format(nn=nn)]
    sizes = {"ID": nv, "M": nn, "C": nv, "Minv": nn, "FD": nv, "J": 6 * nv, "Jdqd": 6, "Lam": 36,
             "dID": 2 * nn, "dFD": 3 * nn}
    for short in shorts:
        plan.append(("pinocchio", short, PIN_CALLS[short], 1, sizes[short], ""))
    setup = pin_setup_code(model, spec["frame"])

    sources = [HERE / "harness.c", work / "entries.c", work / "sincos.c"] + [work / f"{p}.c" for _, p, _ in libs]
    objects = []
    if "casadi" in spec["peers"] and "casadi" in args.peers:
        log(f"{name}: CasADi code from adam's graph ...")
        info = casadi_code(robot, urdf, spec["frame"], shorts, work)
        decls.append('#include "casadi_code.h"')
        for short, (fname, na, nr, niw, nw) in info.items():
            w = f"w_casadi_{short}"
            plan.append(("casadi", short, w, 0, sizes[short],
                         f"static casadi_int iw_{short}[{max(niw, 1)}]; static double ww_{short}[{max(nw, 1)}];\n"
                         f"static void {w}(const double* q, const double* qd, const double* x, double* out)\n"
                         f"{{ const double* arg[{max(na, 3)}] = {{q, qd, x}}; double* res[{max(nr, 1)}] = {{out}};\n"
                         f"  {fname}(arg, res, iw_{short}, ww_{short}, 0); }}"))
        sources.append(work / "casadi_code.c")
    mj_inc = None
    if "mujoco" in spec["peers"] and "mujoco" in args.peers:
        mj_inc, mj_lib = mujoco_paths()
        xml = mujoco_xml(urdf, work)
        decls.append("int mjp_load(const char*, const char*);")
        for short in shorts:
            if short in MJ_CALLS:
                decls.append(f"void {MJ_CALLS[short]}(const double*, const double*, const double*, double*);")
                plan.append(("mujoco", short, MJ_CALLS[short], 1, sizes[short], ""))
        setup += f'\n    if (mjp_load("{xml}", "{spec["frame"]}") != {nv}) return 1;'
        sources.append(HERE / "mujoco_peer.c")
    (work / "entries.c").write_text(entries_c(plan, setup, decls))

    log(f"{name}: compiling ...")
    soagen_files = {"sincos", *(p for _, p, _ in libs)}
    prefix = site_prefix()
    cc = shutil.which("gcc") or shutil.which("cc")
    for src in sources:
        obj = work / (src.stem + ".o")
        inc = [f"-I{HERE}", f"-I{work}"] + ([f"-I{mj_inc}"] if mj_inc else [])
        extra = args.soagen_flags.split() if src.stem in soagen_files else []
        run([cc, *CFLAGS, *extra, "-std=gnu11", *inc, "-c", str(src), "-o", str(obj)], f"compiling {src.name}")
        objects.append(obj)
    objects.append(pinocchio_object(cache, prefix))
    exe = work / "harness"
    link = [shutil.which("g++"), "-o", str(exe), *map(str, objects), "-lm"]
    if mj_inc:
        link += [str(mj_lib), f"-Wl,-rpath,{mj_lib.parent}"]
    run(link, "linking the harness")
    log(f"{name}: timing ({args.rounds} rounds) ...")
    r = run([str(exe), str(work), str(args.rounds), str(args.target_ns)], "the harness")
    times = {}
    for line in r.stdout.splitlines():
        lib, short, best, med = line.split()
        times[(lib, short)] = (float(best), float(med))
    errors = check(plan, work, conv, shorts, robot)
    return {"robot": name, "nv": nv, "generation_s": gen_s, "times": times, "errors": errors,
            "counts": {s: man["functions"][FUNCTIONS[s]]["ops"] for s in shorts},
            "variants": {s: man["functions"][FUNCTIONS[s]].get("variant") for s in shorts},
            "functions": shorts, "libraries": [lib for lib, _, _ in libs]}


def check(plan, work, conv, shorts, robot):
    """Max relative error of every entry's outputs against Pinocchio's, in soagen's conventions."""
    from soagen.oracles.pinocchio import angular_first, symmetrized

    nv = robot.nv
    outs = {}
    for k, (lib, short, _, _, nout, _) in enumerate(plan):
        outs[(lib, short)] = np.fromfile(work / f"out_{k}.bin").reshape(NSETS, nout)

    def from_pin(short, y):
        if short in ("ID", "C", "FD"):
            return conv.v_from_pin(y)
        if short in ("M", "Minv"):
            return conv.matrix_from_pin(symmetrized(y.reshape(nv, nv))).ravel()
        if short == "J":
            return angular_first(y.reshape(6, nv))[:, conv.vperm].ravel()
        if short == "Jdqd":
            return angular_first(y.reshape(6, 1)).ravel()
        if short == "Lam":
            P = np.r_[3:6, 0:3]
            return y.reshape(6, 6)[np.ix_(P, P)].ravel()
        mats = y.reshape(-1, nv, nv)
        if short == "dFD":
            mats = [mats[0], mats[1], symmetrized(mats[2])]
        return np.concatenate([conv.matrix_from_pin(m).ravel() for m in mats])

    errors = {}
    for (lib, short), y in outs.items():
        if lib in ("pinocchio", "sincos", "soagen-arith"):
            continue
        ref = outs[("pinocchio", short)]
        worst = 0.0
        for k in range(NSETS):
            want = from_pin(short, ref[k])
            got = y[k] if lib != "mujoco" or short not in ("M", "Minv") else y[k]
            worst = max(worst, float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300)))
        errors[(lib, short)] = worst
    return errors


def table(res):
    """The per-robot table: ns per call (best of the rounds), ratios, check."""
    t, e = res["times"], res["errors"]
    libs = [lib for lib in ("soagen", "baseline", "pinocchio", "casadi", "mujoco") if any((lib, s) in t for s in res["functions"])]
    head = ["function", *libs, "arith", "sincos", "floor", "soagen/floor", *(["soagen/casadi"] if "casadi" in libs else []),
            "soagen/pinocchio", "max rel. err vs Pinocchio"]
    rows = []
    for s in res["functions"]:
        floor = t[("soagen-arith", s)][0] + t[("sincos", s)][0]
        row = [s] + [f"{t[(lib, s)][0]:.1f}" if (lib, s) in t else "-" for lib in libs]
        row += [f"{t[('soagen-arith', s)][0]:.1f}", f"{t[('sincos', s)][0]:.1f}", f"{floor:.1f}",
                f"{t[('soagen', s)][0] / floor:.2f}"]
        if "casadi" in libs:
            row.append(f"{t[('soagen', s)][0] / t[('casadi', s)][0]:.2f}" if ("casadi", s) in t else "-")
        row.append(f"{t[('soagen', s)][0] / t[('pinocchio', s)][0]:.2f}")
        row.append(" ".join(f"{lib} {e[(lib, s)]:.0e}" for lib in libs if (lib, s) in e))
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(r, widths)) for r in [head] + rows]
    return "\n".join(lines)


def machine():
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    isa = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "SSE"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{cpu}, {os.cpu_count()} cores, {isa}; load average {load:.1f} at the start"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--robots", default="ur5,panda,solo12")
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--peers", default="casadi,mujoco")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("SOAGEN_PEERS_CACHE", "/work/cache/peers")))
    ap.add_argument("--baseline", type=Path, default=None, help="a soagen source tree to time as well (older commit)")
    ap.add_argument("--rounds", type=int, default=201)
    ap.add_argument("--target-ns", type=float, default=2e4, help="time per entry per round (short rounds: "
                    "on a loaded machine many run without preemption)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--soagen-flags", default="", help="extra C flags for soagen's code (e.g. -DSOAGEN_USE_LIBMVEC)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    args.functions = args.functions.split(",")
    args.peers = args.peers.split(",")
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"machine: {machine()}")
    results = []
    for name in args.robots.split(","):
        res = bench_robot(name, args, args.cache)
        results.append(res)
        print(f"\n{name} (nv = {res['nv']}): ns per call, best of {args.rounds} rounds; floor = soagen's "
              "arithmetic without trig + one soagen_sincos of its angles")
        print(table(res))
    if args.json:
        args.json.write_text(json.dumps([{**r, "times": {f"{a}/{b}": v for (a, b), v in r["times"].items()},
                                          "errors": {f"{a}/{b}": v for (a, b), v in r["errors"].items()}}
                                         for r in results], indent=1))


if __name__ == "__main__":
    main()
