"""The peers table: soagen's generated C against Pinocchio (its C++ library and its own
code generator), CasADi-generated C of adam-robotics' graph and MuJoCo's C API, timed in
one process per robot in three call patterns, every result checked against Pinocchio.

    python benchmarks/peers/run.py [--robots ur5,panda,solo12,anymal,g1,talos] [--json FILE]

Needs (benchmark dependencies, not soagen's): ``pip install pin example-robot-data mujoco
adam-robotics casadi liecasadi cmeel-eigen cmeel-cppad cmeel-cppadcodegen``, g++ and gcc.
Per robot:

1. soagen generates C for the functions (``soagen.codegen.robot.render``, the default
   "best" variants) in a subprocess timed by ``/usr/bin/time`` (seconds, peak memory);
   gcc compiles it with the flags below, timed the same way. For the arms also the same C
   with the sin/cos call replaced by a copy of the angles (the arithmetic alone): the
   "floor" of a function is that arithmetic plus one ``soagen_sincos`` call on its angles,
   timed on its own. With ``--baseline TREE`` the soagen of another source tree (e.g. a
   git worktree of an older commit) generates a third copy, timed in the same process.
2. Pinocchio, C++: ``pinocchio_peer.cpp``, the algorithms compiled from the ``pin``
   wheel's headers with the same flags; the model read by Pinocchio's Python URDF parser
   and handed over joint by joint (``pin_model.hpp``). Robot independent, compiled once
   and cached (``CACHE/pinocchio-<hash>.o``: 5-30 minutes, 5 GB on a 2-core machine).
3. Pinocchio's code generator ("pinocchio-cg"): ``pinocchio_cg.cpp`` tapes rnea, crba,
   computeMinverse, aba, computeRNEADerivatives and computeABADerivatives with
   CppADCodeGen (the ``CodeGen*`` classes of ``pinocchio/codegen/cppadcg-algo.hpp``, no
   patches) and saves their C; that host program is built once (one translation unit per
   class, ``--cg-host-flags``, cached as ``CACHE/pinocchio_cg-<hash>``), the C per robot
   is cached in ``CACHE/cg/``, and the raw generated function (``cg_*_forward_zero``) is
   compiled with the flags of every other code and timed.
4. For the arms, adam-robotics' CasADi graph through CasADi's C code generator (base fixed
   at the identity; ID = M qdd + h, FD, M^-1 and J M^-1 J^T by CasADi's symbolic L D L^T)
   and MuJoCo's C API (``mujoco_peer.c``).
5. ``harness.c`` reads the inputs (64 random states per convention), writes every
   entry's outputs (checked here against Pinocchio's C++: relative error, max |a - b| /
   max |b|), then times ROUNDS rounds of three call patterns: a hot loop, one call of each
   function of a library in turn, and one call after touching 8 MB of other memory and
   code (harness.c says how).

Build products and generated code stay in CACHE (default ~/.cache/soagen-peers, or
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
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))        # the soagen of this source tree, whatever is installed
FUNCTIONS = {  # short name -> soagen function
    "ID": "inverse_dynamics", "M": "mass_matrix", "C": "bias_forces", "Minv": "inverse_mass_matrix",
    "FD": "forward_dynamics", "J": "jacobian", "Jdqd": "jacobian_dot_qd", "Lam": "op_space_inverse_inertia",
    "dID": "inverse_dynamics_derivatives", "dFD": "forward_dynamics_derivatives",
}
LEGGED = ["ID", "M", "FD", "Minv", "dID", "dFD"]
ROBOTS = {
    "ur5": {"urdf": "ur_description/urdf/ur5_robot.urdf", "frame": "tool0", "floating": False,
            "functions": list(FUNCTIONS), "peers": ("pinocchio-cg", "casadi", "mujoco"), "floor": True},
    "panda": {"urdf": "panda_description/urdf/panda.urdf", "frame": "panda_hand", "floating": False,
              "weld": ("panda_finger_joint1", "panda_finger_joint2"), "functions": list(FUNCTIONS),
              "peers": ("pinocchio-cg", "casadi", "mujoco"), "floor": True},
    "solo12": {"urdf": "solo_description/robots/solo12.urdf", "frame": None, "floating": True,
               "functions": LEGGED, "peers": ("pinocchio-cg",), "floor": True},
    "anymal": {"urdf": "anymal_b_simple_description/robots/anymal.urdf", "frame": None, "floating": True,
               "functions": LEGGED, "peers": ("pinocchio-cg",), "floor": False},
    "g1": {"urdf": "g1_description/urdf/g1_29dof_rev_1_0.urdf", "frame": None, "floating": True,
           "functions": LEGGED, "peers": ("pinocchio-cg",), "floor": False},
    "talos": {"urdf": "talos_data/robots/talos_full_v2.urdf", "frame": None, "floating": True,
              "functions": LEGGED, "peers": ("pinocchio-cg",), "floor": False},
}
PIN_CALLS = {"ID": "pin_rnea", "M": "pin_crba", "C": "pin_nle", "Minv": "pin_minv", "FD": "pin_aba",
             "J": "pin_jacobian", "Jdqd": "pin_jdot_qd", "Lam": "pin_jminvjt", "dID": "pin_drnea_e",
             "dFD": "pin_daba_e"}
PIN_LABELS = {"ID": "rnea", "M": "crba", "C": "nonLinearEffects", "Minv": "computeMinverse", "FD": "aba",
              "J": "computeFrameJacobian", "Jdqd": "classical frame acceleration", "Lam": "J Minv J^T",
              "dID": "computeRNEADerivatives", "dFD": "computeABADerivatives"}
CG_NAMES = {"ID": "rnea", "M": "crba", "Minv": "minv", "FD": "aba", "dID": "drnea", "dFD": "daba"}
MJ_CALLS = {"ID": "mjp_id", "M": "mjp_mass", "C": "mjp_bias", "Minv": "mjp_minv", "FD": "mjp_fd",
            "J": "mjp_jac", "Jdqd": "mjp_jdot_qd", "Lam": "mjp_lambda_inv"}
CFLAGS = ["-O3", "-march=native", "-ffp-contract=fast"]
PIN_DEFINES = ["-DNDEBUG", "-DBOOST_MPL_LIMIT_LIST_SIZE=30", "-DBOOST_MPL_LIMIT_VECTOR_SIZE=30",
               "-DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS", "-DBOOST_FUSION_INVOKE_MAX_ARITY=12"]
LIBRARIES = ("soagen", "baseline", "pinocchio", "pinocchio-cg", "casadi", "mujoco")
PATTERNS = {"hot": "hot loop", "turn": "one call of each function in turn",
            "cold": "one call after 8 MB of other memory and code"}
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


def digest(*parts):
    return hashlib.sha256("\n".join(map(str, parts)).encode()).hexdigest()[:16]


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


# -- building, timed ---------------------------------------------------------------------------

def run(cmd, what, **kw):
    cmd = [str(c) for c in cmd]
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        raise SystemExit(f"{what} failed:\n{' '.join(cmd)}\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r


def timed(cmd, what, **kw):
    """Run cmd under /usr/bin/time -v: (completed process, {wall_s, cpu_s, peak_mb})."""
    gnu_time = Path("/usr/bin/time")
    if not gnu_time.exists():
        t0 = time.time()
        return run(cmd, what, **kw), {"wall_s": time.time() - t0, "cpu_s": None, "peak_mb": None}
    r = run([str(gnu_time), "-v", *map(str, cmd)], what, **kw)

    def field(label):
        m = re.search(rf"{re.escape(label)}: (\S+)", r.stderr)
        return m.group(1) if m else None

    h_m_s = [float(x) for x in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(x * 60 ** k for k, x in enumerate(reversed(h_m_s)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return r, {"wall_s": wall, "cpu_s": cpu, "peak_mb": int(field("Maximum resident set size (kbytes)")) / 1024}


def code_bytes(obj, symbols):
    """{symbol: bytes of machine code} from nm -S of an object file (all its functions
    when symbols is None)."""
    sizes = {}
    for line in run(["nm", "-S", str(obj)], "nm").stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "Tt":
            sizes[parts[3]] = int(parts[1], 16)
    return sizes if symbols is None else {s: sizes.get(s) for s in symbols}


def cpu_identity():
    """What -march=native compiles for: the CPU's model and feature flags (not the host
    name, which changes with every container of the same machine)."""
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else platform.processor()
    keep = [line for line in info.splitlines() if line.split(":")[0].strip() in ("model name", "flags")]
    return "\n".join(sorted(set(keep))) or platform.machine()


def compiler_version(cc):
    return run([cc, "--version"], f"{cc} --version").stdout.splitlines()[0]


# -- soagen ---------------------------------------------------------------------------------

def soagen_code(robot, urdf, names, prefix, work, tree=REPO, tip=None, style=None):
    """Generate the C (prefix.c/.h) into work by the soagen of source tree ``tree``, in a
    subprocess (timed); ``style`` as ``soagen generate --style`` (None: the tree's default).
    Returns the manifest and the timing."""
    extra = f", style={style!r}" if style else ""
    code = ("import soagen; from soagen.codegen.robot import render; from soagen.codegen.emit import write; "
            f"r = soagen.load({str(urdf)!r}, floating_base={robot.nq != robot.nv}, tip={tip!r}); "
            f"write(render(r, {str(urdf)!r}, algorithms={names!r}, langs=('c',), prefix={prefix!r}{extra}), "
            f"{str(work)!r})")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    _, t = timed([sys.executable, "-c", code], "soagen generate", env=env, cwd=tree)
    return json.loads((work / f"{prefix}_manifest.json").read_text()), t


def renamed(text, prefix, new_prefix):
    """Generated C or header text under another prefix (functions and include guard)."""
    text = re.sub(rf"\b{prefix}_", f"{new_prefix}_", text)
    text = re.sub(rf"\b{prefix.upper()}_H\b", f"{new_prefix.upper()}_H", text)
    return text.replace(f'"{prefix}.h"', f'"{new_prefix}.h"')


def without_trig(c_file, out_file, prefix, new_prefix):
    """The generated C with each soagen_sincos call replaced by copying the angles (the
    arithmetic alone; the values differ, the operations do not), under another prefix."""
    text, n = re.subn(r"soagen_sincos\(soagen_x, soagen_s, soagen_c, (\d+)\);",
                      r"for (int i_ = 0; i_ < \1; i_++) soagen_s[i_] = soagen_c[i_] = soagen_x[i_];",
                      c_file.read_text())
    out_file.write_text(renamed(text, prefix, new_prefix))
    out_file.with_suffix(".h").write_text(renamed(c_file.with_suffix(".h").read_text(), prefix, new_prefix))
    return n


def angles_of(c_file, prefix):
    """{function: its soagen_sincos angle list as printed} from the generated C."""
    text = c_file.read_text()
    out = {}
    for m in re.finditer(rf"void {prefix}_(\w+)\(.*?\n\{{(.*?)\n\}}", text, re.S):
        a = re.search(r"const double soagen_x\[\d+\] = \{ (.*?) \};", m.group(2))
        out[m.group(1)] = a.group(1) if a else ""
    return out


def sincos_code(angles, shorts, names, tag="sincos"):
    """C of one soagen_sincos call on each function's angles (the trig part of the floor):
    the source, and (function, entry name, output count) per function."""
    from soagen.codegen.emit import environment

    prelude = environment().get_template("c/_vector.c.j2").render()
    src, entries = ["#include <math.h>", prelude, ""], []
    for short, fname in zip(shorts, names):
        a = angles.get(fname, "")
        k = a.count(",") + 1 if a else 0
        src.append(f"void {tag}_{short}(const double* q, const double* qd, const double* x, double* out)\n{{\n"
                   f"    (void)qd; (void)x;\n" + (f"    const double soagen_x[{k}] = {{ {a} }};\n"
                                                   f"    soagen_sincos(soagen_x, out, out + {k}, {k});\n" if k else "")
                   + "}")
        entries.append((short, f"{tag}_{short}", 2 * max(k, 1)))
    return "\n".join(src) + "\n", entries


def soagen_wrapper(lib, short, prefix, name, record, nout_sizes):
    """A wrapper calling PREFIX_name with the harness signature (extra outputs after the first)."""
    ins = ", ".join(["q", "qd", "x"][:len(record["inputs"])])
    outs, off = [], 0
    for size in nout_sizes:
        outs.append(f"out + {off}" if off else "out")
        off += size
    w = "w_" + re.sub(r"\W", "_", lib) + f"_{short}"
    return w, (f"static void {w}(const double* q, const double* qd, const double* x, double* out)\n"
               f"{{ (void)q; (void)qd; (void)x; {prefix}_{name}({ins}, {', '.join(outs)}); }}")


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


# -- Pinocchio: the model file, the C++ library, the code generator ----------------------------

PIN_TYPES = {"JointModelRX": 0, "JointModelRY": 1, "JointModelRZ": 2, "JointModelPX": 3, "JointModelPY": 4,
             "JointModelPZ": 5, "JointModelRevoluteUnaligned": 6, "JointModelPrismaticUnaligned": 7,
             "JointModelFreeFlyer": 8}


def pin_model(urdf, floating):
    import pinocchio as pin

    return pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer()) if floating else \
        pin.buildModelFromUrdf(str(urdf))


def model_file(model, frame, path):
    """The Pinocchio model as the text records of pin_model.hpp."""
    def num(x):
        return " ".join(repr(float(v)) for v in np.ravel(x))

    lines = [f"gravity {num(model.gravity.linear)}"]
    for j in range(1, model.njoints):
        jm = model.joints[j]
        kind = jm.shortname()
        if kind not in PIN_TYPES:
            raise SystemExit(f"joint {model.names[j]}: Pinocchio joint type {kind} not handled here")
        # the generic JointModel has no axis; its concrete type (extract) has
        axis = np.asarray(jm.extract().axis, float) if "Unaligned" in kind else np.zeros(3)
        X, inertia = model.jointPlacements[j], model.inertias[j]
        Ic = inertia.inertia
        lines.append(f"joint {PIN_TYPES[kind]} {model.parents[j]} {num(axis)} {num(X.rotation)} "
                     f"{num(X.translation)} {inertia.mass!r} {num(inertia.lever)} "
                     f"{num([Ic[0, 0], Ic[0, 1], Ic[1, 1], Ic[0, 2], Ic[1, 2], Ic[2, 2]])} {model.names[j]}")
    if frame is not None:
        fr = model.frames[model.getFrameId(frame)]
        lines.append(f"frame {fr.parentJoint} {num(fr.placement.rotation)} {num(fr.placement.translation)}")
    path.write_text("\n".join(lines) + "\n")
    return path


def pin_includes(prefix):
    return [f"-I{HERE}", f"-I{prefix / 'include'}", f"-I{prefix / 'include' / 'eigen3'}"]


def pinocchio_object(cache, prefix, source="pinocchio_peer.cpp", stem="pinocchio", note="5-30 min, 5 GB"):
    """``source`` (default pinocchio_peer.cpp) compiled once per source, flags, compiler,
    Pinocchio version and CPU, cached as CACHE/<stem>-<hash>.o."""
    import pinocchio

    cxx = shutil.which("g++") or shutil.which("c++")
    key = digest((HERE / source).read_text(), (HERE / "pin_model.hpp").read_text(),
                 " ".join(CFLAGS + PIN_DEFINES), compiler_version(cxx), pinocchio.__version__, prefix, cpu_identity())
    obj = cache / f"{stem}-{key}.o"
    if obj.exists():
        return obj
    log(f"compiling Pinocchio's algorithms once ({source} -> {obj}; {note}) ...")
    tmp = obj.with_suffix(".tmp.o")
    _, t = timed([cxx, *CFLAGS, "-std=c++17", *PIN_DEFINES, *pin_includes(prefix), "-c", HERE / source,
                  "-o", tmp], f"compiling {source}")
    tmp.rename(obj)
    log(f"  done: {t['wall_s']:.0f} s, {t['peak_mb']:.0f} MB")
    return obj


def cg_host(cache, prefix, flags):
    """The program that tapes Pinocchio's algorithms and saves their C (pinocchio_cg.cpp),
    built once per source, flags, compiler and package versions: one translation unit per
    CodeGen class, compiled one after the other (minutes and GBs each)."""
    from importlib import metadata

    import pinocchio

    cxx = shutil.which("g++") or shutil.which("c++")
    key = digest((HERE / "pinocchio_cg.cpp").read_text(), (HERE / "pin_model.hpp").read_text(), flags,
                 " ".join(PIN_DEFINES), compiler_version(cxx), pinocchio.__version__,
                 metadata.version("cmeel-cppadcodegen"), metadata.version("cmeel-cppad"), prefix)
    exe = cache / f"pinocchio_cg-{key}"
    if exe.exists():
        return exe
    build = cache / f"pinocchio_cg-{key}.build"
    build.mkdir(exist_ok=True)
    log(f"building Pinocchio's code generator once ({exe}; 7 translation units, minutes and GBs each) ...")
    objects, times = [], {}
    for unit in range(7):
        obj = build / f"unit{unit}.o"
        if not obj.exists():
            _, t = timed([cxx, *flags.split(), "-std=c++17", *PIN_DEFINES, f"-DPEERS_CG_UNIT={unit}",
                          *pin_includes(prefix), "-c", HERE / "pinocchio_cg.cpp", "-o", obj.with_suffix(".tmp.o")],
                         f"compiling pinocchio_cg.cpp unit {unit}")
            obj.with_suffix(".tmp.o").rename(obj)
            times[unit] = t
            log(f"  unit {unit}: {t['wall_s']:.0f} s, {t['peak_mb']:.0f} MB")
        objects.append(obj)
    run([cxx, "-o", exe, *objects, "-ldl"], "linking pinocchio_cg")
    (build / "times.json").write_text(json.dumps(times, indent=1))
    return exe


def cg_code(name, model_path, host, cache, cg_names):
    """The C of Pinocchio's code generator for one robot, cached: its folder and
    {name: (tape_s, emit_s)} as measured when it was generated."""
    key = digest(model_path.read_text(), host.name, *cg_names)
    out = cache / "cg" / f"{name}-{key}"
    record = out / "generation.json"
    if record.exists():
        return out, json.loads(record.read_text())
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    log(f"{name}: taping Pinocchio's algorithms ({', '.join(cg_names)}) ...")
    r, t = timed([host, model_path, out, *cg_names], "pinocchio_cg")
    gen = {line.split()[0]: [float(x) for x in line.split()[1:3]] for line in r.stdout.splitlines()}
    gen["_process"] = t
    record.write_text(json.dumps(gen, indent=1))
    return out, gen


def cg_objects(cg_dir, cg_names, cc):
    """The forward-zero function of each taped algorithm compiled with CFLAGS (CppADCodeGen
    splits a large one into parts, cg_NAME_forward_zero__1.c, ..., called by the first;
    each file its own compile), cached with the measured compile time and memory:
    {name: (objects, timing: seconds summed over the files, peak of the largest)}."""
    out = {}
    for n in cg_names:
        sources = sorted((cg_dir / n).glob(f"cg_{n}_forward_zero*.c"))
        key = digest(*(src.read_text() for src in sources), " ".join(CFLAGS), compiler_version(cc), cpu_identity())
        objects = [src.with_name(f"{src.stem}-{key}.o") for src in sources]
        record = cg_dir / n / f"compile-{key}.json"
        if not record.exists():
            log(f"  compiling Pinocchio-CG's {n} ({sum(src.stat().st_size for src in sources) / 1e6:.1f} MB of C in "
                f"{len(sources)} files) ...")
            times = []
            for src, obj in zip(sources, objects):
                times.append(timed([cc, *CFLAGS, "-std=gnu11", "-c", src, "-o", obj], f"compiling {src}")[1])
            record.write_text(json.dumps({"wall_s": sum(t["wall_s"] for t in times),
                                          "cpu_s": sum(t["cpu_s"] for t in times),
                                          "peak_mb": max(t["peak_mb"] for t in times), "files": len(sources)}))
        out[n] = (objects, json.loads(record.read_text()))
    return out


# CppADCodeGen's argument of atomic functions (none here), passed by value: three pointers,
# as its struct LangCAtomicFun (cppad/cg/lang/c/lang_c_atomic_fun.hpp).
CG_ATOMIC = "struct LangCAtomicFun { void* libModel; void* forward; void* reverse; };"
CG_WRAPPER = """static void {w}(const double* q, const double* qd, const double* x, double* out)
{{ (void)qd; (void)x; const double* in[1] = {{q}}; double* res[1] = {{out}}; struct LangCAtomicFun a = {{0}};
   cg_{n}_forward_zero(in, res, a); }}"""


# -- inputs and conventions ------------------------------------------------------------------

def inputs(robot, model, rng):
    """Input sets: convention 0 soagen's, 1 Pinocchio's (and MuJoCo's, for the arms), 2
    Pinocchio-CG's (q, qd, x of convention 1 in one vector)."""
    from soagen.oracles.pinocchio import Converter

    conv = Converter(robot, model)
    soa = [(robot.random_configuration(rng), rng.uniform(-3, 3, robot.nv), rng.uniform(-3, 3, robot.nv))
           for _ in range(NSETS)]
    pin_sets = [(conv.q_to_pin(q), conv.v_to_pin(v), conv.v_to_pin(x)) for q, v, x in soa]
    cg_sets = [(np.concatenate(s), s[1], s[2]) for s in pin_sets]
    return conv, [soa, pin_sets, cg_sets]


def write_inputs(path, conventions):
    with open(path, "wb") as f:
        f.write(np.int32(len(conventions)).tobytes())
        for sets in conventions:
            f.write(np.array([len(sets[0][0]), len(sets[0][1])], np.int32).tobytes())
            for a in range(3):
                f.write(np.ascontiguousarray([s[a] for s in sets], dtype=np.float64).tobytes())


# -- the harness ---------------------------------------------------------------------------------

ENTRY_WRAPPERS = """
static void pin_drnea_e(const double* q, const double* v, const double* a, double* out)
{{ pin_drnea(q, v, a, out, out + {nn}); }}
static void pin_daba_e(const double* q, const double* v, const double* t, double* out)
{{ pin_daba(q, v, t, out, out + {nn}, out + 2 * {nn}); }}
"""


def entries_c(plan, setup, decls):
    """The per-robot entries.c: wrappers with the harness signature, the table, setup.
    plan: (library, function, call, convention, outputs, wrapper C, turn) per entry."""
    body = ['#include "harness.h"', "", *decls, ""]
    table = []
    for lib, short, call, conv, nout, wrapper, turn in plan:
        if wrapper:
            body.append(wrapper)
        table.append(f'    {{"{lib}", "{short}", {call}, {conv}, {nout}, {int(turn)}}},')
    body += ["const struct peer_entry PEER_ENTRIES[] = {", *table, "};",
             f"const int PEER_NENTRIES = {len(table)};", "", "int peers_setup(const char* dir)", "{",
             "    (void)dir;", setup, "    return 0;", "}", ""]
    return "\n".join(body)


def build_harness(work, sources, objects, cflags_of, includes, link_extra=()):
    """Compile the harness and the sources (cflags_of(stem) gives extra flags), link with
    objects; the executable."""
    cc = shutil.which("gcc") or shutil.which("cc")
    objs = []
    for src in sources:
        obj = work / (src.stem + ".o")
        run([cc, *CFLAGS, *cflags_of(src.stem), "-std=gnu11", *includes, "-c", src, "-o", obj],
            f"compiling {src.name}")
        objs.append(obj)
    exe = work / "harness"
    run([shutil.which("g++"), "-o", exe, *objs, *objects, "-lm", *link_extra], "linking the harness")
    return exe


def parse_times(stdout):
    """{(pattern, library, function): (best, median)} from the harness's output."""
    times = {}
    for line in stdout.splitlines():
        if line.startswith("#"):
            continue
        pattern, lib, short, best, med = line.split()
        times[(pattern, lib, short)] = (float(best), float(med))
    return times


# -- the run -----------------------------------------------------------------------------------

def bench_robot(name, args, cache):
    import soagen
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
    floor = spec["floor"] and not args.no_floor
    cc = shutil.which("gcc") or shutil.which("cc")
    build = {}
    log(f"{name}: generating soagen C ({', '.join(shorts)}) ...")
    man, build["soagen generation"] = soagen_code(robot, urdf, names, "soa", work, tip=spec["frame"],
                                                  style=args.style)
    libs = [("soagen", "soa", man)]
    if floor:
        without_trig(work / "soa.c", work / "soant.c", "soa", "soant")
        libs.append(("soagen-arith", "soant", man))
    if args.baseline:
        log(f"{name}: generating the baseline's C with {args.baseline} ...")
        libs.append(("baseline", "old", soagen_code(robot, urdf, names, "old", work, tree=args.baseline,
                                                    tip=spec["frame"])[0]))
    model = pin_model(urdf, spec["floating"])
    rng = np.random.default_rng(args.seed)
    conv, conventions = inputs(robot, model, rng)
    write_inputs(work / "inputs.bin", conventions)
    nv, nn = robot.nv, robot.nv * robot.nv
    sizes = {"ID": nv, "M": nn, "C": nv, "Minv": nn, "FD": nv, "J": 6 * nv, "Jdqd": 6, "Lam": 36,
             "dID": 2 * nn, "dFD": 3 * nn}

    plan, decls = [], [f'#include "{p}.h"' for _, p, _ in libs]
    for lib, prefix, m in libs:
        for short, fname in zip(shorts, names):
            if fname not in m["functions"]:
                continue
            rec = m["functions"][fname]
            w, code = soagen_wrapper(lib, short, prefix, fname, rec, output_sizes(rec))
            plan.append((lib, short, w, 0, sum(output_sizes(rec)), code, lib != "soagen-arith"))
    if floor:
        src, sc = sincos_code(angles_of(work / "soa.c", "soa"), shorts, names)
        (work / "sincos.c").write_text(src)
        for short, fn, nout in sc:
            decls.append(f"void {fn}(const double*, const double*, const double*, double*);")
            plan.append(("sincos", short, fn, 0, nout, "", False))

    decls += ["int pin_load(const char*);",
              *(f"void {PIN_CALLS[s]}(const double*, const double*, const double*, double*);"
                for s in shorts if not PIN_CALLS[s].endswith("_e")),
              "void pin_drnea(const double*, const double*, const double*, double*, double*);",
              "void pin_daba(const double*, const double*, const double*, double*, double*, double*);",
              ENTRY_WRAPPERS.format(nn=nn)]
    for short in shorts:
        plan.append(("pinocchio", short, PIN_CALLS[short], 1, sizes[short], "", True))
    pin_file = model_file(model, spec["frame"], work / "model.txt")
    setup = f'    if (pin_load("{pin_file}") != {nv}) return 1;'

    prefix = site_prefix()
    sources = [HERE / "harness.c", work / "entries.c"] + ([work / "sincos.c"] if floor else []) + \
        [work / f"{p}.c" for _, p, _ in libs]
    objects = [pinocchio_object(cache, prefix)]
    cg_built = {}
    if "pinocchio-cg" in spec["peers"] and "pinocchio-cg" in args.peers:
        cg_names = [CG_NAMES[s] for s in shorts if s in CG_NAMES]
        host = cg_host(cache, prefix, args.cg_host_flags)
        cg_dir, cg_gen = cg_code(name, pin_file, host, cache, cg_names)
        cg_built = cg_objects(cg_dir, cg_names, cc)
        decls.append(CG_ATOMIC)
        cg_sizes = {"ID": nv, "M": nv * (nv + 1) // 2, "Minv": nv * (nv + 1) // 2, "FD": nv, "dID": 3 * nn,
                    "dFD": 3 * nn}
        for short in shorts:
            if short in CG_NAMES:
                n = CG_NAMES[short]
                decls.append(f"void cg_{n}_forward_zero(double const* const*, double* const*, struct LangCAtomicFun);")
                plan.append(("pinocchio-cg", short, f"w_cg_{short}", 2, cg_sizes[short],
                             CG_WRAPPER.format(w=f"w_cg_{short}", n=n), True))
        objects += [obj for objs, _ in cg_built.values() for obj in objs]
        build["pinocchio-cg generation"] = {
            "tape_s": sum(v[0] for k, v in cg_gen.items() if not k.startswith("_")),
            "emit_s": sum(v[1] for k, v in cg_gen.items() if not k.startswith("_")),
            **{k: cg_gen["_process"][k] for k in ("wall_s", "cpu_s", "peak_mb")},
            "per_function": {k: v for k, v in cg_gen.items() if not k.startswith("_")}}
        build["pinocchio-cg compile"] = {n: t for n, (_, t) in cg_built.items()}
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
                         f"  {fname}(arg, res, iw_{short}, ww_{short}, 0); }}", True))
        sources.append(work / "casadi_code.c")
    includes, link_extra = [f"-I{HERE}", f"-I{work}"], []
    if "mujoco" in spec["peers"] and "mujoco" in args.peers:
        import mujoco

        root = Path(mujoco.__file__).resolve().parent
        mj_lib = next(root.glob("libmujoco.so*"))
        includes.append(f"-I{root / 'include'}")
        link_extra = [mj_lib, f"-Wl,-rpath,{mj_lib.parent}"]
        xml = mujoco_xml(urdf, work)
        decls.append("int mjp_load(const char*, const char*);")
        for short in shorts:
            if short in MJ_CALLS:
                decls.append(f"void {MJ_CALLS[short]}(const double*, const double*, const double*, double*);")
                plan.append(("mujoco", short, MJ_CALLS[short], 1, sizes[short], "", True))
        setup += f'\n    if (mjp_load("{xml}", "{spec["frame"]}") != {nv}) return 1;'
        sources.append(HERE / "mujoco_peer.c")
    order = list(dict.fromkeys(lib for lib, *_ in plan))
    plan.sort(key=lambda e: order.index(e[0]))      # a library's entries together (harness.c's turn)
    (work / "entries.c").write_text(entries_c(plan, setup, decls))

    log(f"{name}: compiling soagen's C ...")
    soa_obj = work / "soa.o"
    _, build["soagen compile"] = timed([cc, *CFLAGS, *args.soagen_flags.split(), "-std=gnu11", f"-I{work}", "-c",
                                        work / "soa.c", "-o", soa_obj], "compiling soa.c")
    sources.remove(work / "soa.c")
    objects.append(soa_obj)
    soagen_files = {"sincos", *(p for _, p, _ in libs)}
    exe = build_harness(work, sources, objects, lambda stem: args.soagen_flags.split() if stem in soagen_files else [],
                        includes, link_extra)
    code = {"soagen": code_bytes(soa_obj, [f"soa_{FUNCTIONS[s]}" for s in shorts])}
    code["soagen"] = {s: code["soagen"][f"soa_{FUNCTIONS[s]}"] for s in shorts}
    if cg_built:
        code["pinocchio-cg"] = {}
        for s in shorts:
            if s in CG_NAMES:
                objs = cg_built[CG_NAMES[s]][0]
                code["pinocchio-cg"][s] = sum(v or 0 for obj in objs for k, v in code_bytes(obj, None).items()
                                              if k.startswith(f"cg_{CG_NAMES[s]}_forward_zero"))
    log(f"{name}: timing ({args.rounds} rounds; {args.patterns}) ...")
    r = run([exe, work, args.rounds, args.target_ns, args.patterns], "the harness")
    times = parse_times(r.stdout)
    errors = check(plan, work, conv, shorts, robot)
    return {"robot": name, "nv": nv, "times": times, "errors": errors, "build": build, "code_bytes": code,
            "counts": {s: man["functions"][FUNCTIONS[s]]["ops"] for s in shorts},
            "variants": {s: man["functions"][FUNCTIONS[s]].get("variant") for s in shorts},
            "styles": {s: man["functions"][FUNCTIONS[s]].get("style") for s in shorts},
            "functions": shorts, "libraries": [lib for lib, *_ in plan], "floor": floor}


def check(plan, work, conv, shorts, robot):
    """Max relative error of every entry's outputs against Pinocchio's, in soagen's conventions."""
    from soagen.oracles.pinocchio import angular_first, symmetrized

    nv = robot.nv
    outs = {}
    for k, (lib, short, _, _, nout, _, _) in enumerate(plan):
        outs[(lib, short)] = np.fromfile(work / f"out_{k}.bin").reshape(NSETS, nout)

    def from_cg(short, y):           # Pinocchio-CG's outputs in Pinocchio's layout
        if short in ("M", "Minv"):
            full = np.zeros((nv, nv))
            full[np.triu_indices(nv)] = y                  # row by row, j >= i
            return full.ravel()
        return y[:2 * nv * nv] if short == "dID" else y    # dtau/da (= M) dropped

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
            got = from_pin(short, from_cg(short, y[k])) if lib == "pinocchio-cg" else y[k]
            e = float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-300))
            worst = max(worst, e) if np.isfinite(worst) and np.isfinite(e) else float("nan")  # a NaN stays
        errors[(lib, short)] = worst
    return errors


def format_table(head, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    return "\n".join("  ".join(str(x).rjust(w) for x, w in zip(r, widths)) for r in [head] + rows)


def ratio(t, a, b):
    return f"{t[a][0] / t[b][0]:.2f}" if a in t and b in t else "-"


def tables(res):
    """Per call pattern: ns per call (best of the rounds, cold: median), ratios, and for the
    hot loop the floor and the check."""
    t, e = res["times"], res["errors"]
    libs = [lib for lib in LIBRARIES if lib in res["libraries"]]
    out = []
    for pattern, what in PATTERNS.items():
        if not any(k[0] == pattern for k in t):
            continue
        stat = 1 if pattern == "cold" else 0
        tp = {(lib, s): (v[stat],) for (p, lib, s), v in t.items() if p == pattern}
        head = ["function", *libs]
        floor = pattern == "hot" and res["floor"]
        if floor:
            head += ["arith", "sincos", "floor", "soagen/floor"]
        ratios = [b for b in ("pinocchio", "pinocchio-cg", "casadi") if b in libs]
        head += [f"soagen/{b}" for b in ratios]
        if pattern == "hot":
            head.append("max rel. err vs Pinocchio")
        rows = []
        for s in res["functions"]:
            row = [s] + [f"{tp[(lib, s)][0]:.1f}" if (lib, s) in tp else "-" for lib in libs]
            if floor:
                fl = tp[("soagen-arith", s)][0] + tp[("sincos", s)][0]
                row += [f"{tp[('soagen-arith', s)][0]:.1f}", f"{tp[('sincos', s)][0]:.1f}", f"{fl:.1f}",
                        f"{tp[('soagen', s)][0] / fl:.2f}"]
            row += [ratio(tp, ("soagen", s), (b, s)) for b in ratios]
            if pattern == "hot":
                row.append(" ".join(f"{lib} {e[(lib, s)]:.0e}" for lib in libs if (lib, s) in e))
            rows.append(row)
        label = "median" if pattern == "cold" else "best"
        out.append(f"{what} (ns per call, {label} of the rounds):\n" + format_table(head, rows))
    return "\n\n".join(out)


def build_table(res):
    """Generation and compile time, compiler memory, machine code bytes per function."""
    b, code = res["build"], res["code_bytes"]
    lines = []
    g, c = b["soagen generation"], b["soagen compile"]
    lines.append(f"soagen: generation {g['wall_s']:.1f} s wall / {g['cpu_s']:.1f} s CPU, {g['peak_mb']:.0f} MB; "
                 f"gcc {' '.join(CFLAGS)}: {c['wall_s']:.1f} s wall / {c['cpu_s']:.1f} s CPU, {c['peak_mb']:.0f} MB")
    if "pinocchio-cg generation" in b:
        g = b["pinocchio-cg generation"]
        comp = b["pinocchio-cg compile"].values()
        lines.append(f"pinocchio-cg: taping {g['tape_s']:.1f} s + emitting C {g['emit_s']:.1f} s "
                     f"({g['peak_mb']:.0f} MB); gcc: {sum(t['wall_s'] for t in comp):.1f} s wall / "
                     f"{sum(t['cpu_s'] for t in comp):.1f} s CPU, at most {max(t['peak_mb'] for t in comp):.0f} MB "
                     "(one file at a time)")
    head = ["machine code, bytes"] + res["functions"]
    rows = [[lib] + [str(v.get(s) or "-") for s in res["functions"]] for lib, v in code.items()]
    rows.append(["soagen style"] + [str(res.get("styles", {}).get(s) or "-") for s in res["functions"]])
    return "\n".join(lines) + "\n" + format_table(head, rows)


def summarize(paths):
    """Markdown tables for docs/codegen.md from the --json files of one or more runs
    (several runs: each cell lists the runs' values in turn): ns per call, ratios, build."""
    runs = [{r["robot"]: r for r in json.loads(Path(p).read_text())} for p in paths]
    robots = list(runs[0])
    stat = {"hot": 0, "turn": 0, "cold": 1}

    def t(run, robot, pattern, lib, f):
        v = run[robot]["times"].get(f"{pattern}/{lib}/{f}")
        return v[stat[pattern]] if v else None

    def cell(values, fmt):
        return " / ".join("-" if v is None else fmt(v) for v in values)

    def ns(v):
        return f"{v:.0f}" if v >= 100 else f"{v:.1f}"

    out = ["ns per call (hot / turn / cold" + (f"; {len(runs)} runs: each value once per run" if len(runs) > 1
                                                else "") + ")", "",
           "| robot (nv) | function | soagen | Pinocchio | Pinocchio-CG |", "|---|---|---|---|---|"]
    for robot in robots:
        for f in (f for f in LEGGED if f in runs[0][robot]["functions"]):
            row = [f"{robot} ({runs[0][robot]['nv']})", f]
            for lib in ("soagen", "pinocchio", "pinocchio-cg"):
                row.append(" ; ".join(cell([t(r, robot, p, lib, f) for p in PATTERNS], ns) for r in runs))
            out.append("| " + " | ".join(row) + " |")
    out += ["", "soagen / Pinocchio and soagen / Pinocchio-CG (hot / turn / cold)", "",
            "| robot (nv) | function | soagen / Pinocchio | soagen / Pinocchio-CG |", "|---|---|---|---|"]
    for robot in robots:
        for f in (f for f in LEGGED if f in runs[0][robot]["functions"]):
            row = [f"{robot} ({runs[0][robot]['nv']})", f]
            for lib in ("pinocchio", "pinocchio-cg"):
                row.append(" ; ".join(cell([(lambda a, b: a / b if a and b else None)(t(r, robot, p, "soagen", f),
                                                                                     t(r, robot, p, lib, f))
                                            for p in PATTERNS], lambda v: f"{v:.2f}") for r in runs))
            out.append("| " + " | ".join(row) + " |")
    out += ["", "Build (first run): generation, gcc with the harness's flags (wall s / CPU s, peak MB), machine "
            "code KB of ID / M / FD / M^-1 / dID / dFD", "",
            "| robot | soagen generation | soagen gcc | soagen code KB | Pinocchio-CG taping + C | Pinocchio-CG gcc "
            "| Pinocchio-CG code KB |", "|---|---|---|---|---|---|---|"]
    for robot in robots:
        r = runs[0][robot]
        b, code = r["build"], r["code_bytes"]
        fs = [f for f in LEGGED if f in r["functions"]]

        def kb(lib):
            return " / ".join(f"{code[lib][f] / 1024:.0f}" for f in fs) if lib in code else "-"

        g, c = b["soagen generation"], b["soagen compile"]
        row = [robot, f"{g['wall_s']:.1f} s, {g['peak_mb']:.0f} MB", f"{c['wall_s']:.0f} / {c['cpu_s']:.0f} s, "
               f"{c['peak_mb']:.0f} MB", kb("soagen")]
        if "pinocchio-cg generation" in b:
            cg, comp = b["pinocchio-cg generation"], b["pinocchio-cg compile"].values()
            row += [f"{cg['tape_s'] + cg['emit_s']:.1f} s, {cg['peak_mb']:.0f} MB",
                    f"{sum(x['wall_s'] for x in comp):.0f} / {sum(x['cpu_s'] for x in comp):.0f} s, "
                    f"{max(x['peak_mb'] for x in comp):.0f} MB", kb("pinocchio-cg")]
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def machine():
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    isa = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "SSE"
    family = re.search(r"cpu family\s*:\s*(\d+)", flags)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cc = shutil.which("gcc") or "cc"
    return (f"{cpu}{f' (family {family.group(1)})' if family else ''}, {os.cpu_count()} cores, {isa}; "
            f"{compiler_version(cc)}, {' '.join(CFLAGS)}; load average {load:.1f} at the start")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--robots", default=",".join(ROBOTS))
    ap.add_argument("--functions", default=",".join(FUNCTIONS))
    ap.add_argument("--peers", default="pinocchio-cg,casadi,mujoco")
    ap.add_argument("--patterns", default="hot,turn,cold", help="call patterns (harness.c)")
    ap.add_argument("--cache", type=Path,
                    default=Path(os.environ.get("SOAGEN_PEERS_CACHE", Path.home() / ".cache" / "soagen-peers")))
    ap.add_argument("--baseline", type=Path, default=None, help="a soagen source tree to time as well (older commit)")
    ap.add_argument("--rounds", type=int, default=201)
    ap.add_argument("--target-ns", type=float, default=2e4, help="time per entry per round (short rounds: "
                    "on a loaded machine many run without preemption)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--style", default=None, help="soagen generate --style for soagen's C (auto, unrolled, "
                    "looped; default: the tree's own default)")
    ap.add_argument("--soagen-flags", default="", help="extra C flags for soagen's code (e.g. -DSOAGEN_WIDTH=8)")
    ap.add_argument("--cg-host-flags", default="-O2", help="flags of the program that tapes Pinocchio (not of "
                    "the C it emits, which gets the harness's flags)")
    ap.add_argument("--no-floor", action="store_true", help="skip the arithmetic-only copy and the sin/cos floor")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--summarize", type=Path, nargs="+", default=None, metavar="JSON",
                    help="print docs/codegen.md's tables from the --json files of earlier runs, and stop")
    args = ap.parse_args(argv)
    if args.summarize:
        print(summarize(args.summarize))
        return
    args.functions = args.functions.split(",")
    args.peers = args.peers.split(",")
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d')}", flush=True)
    results = []
    for name in args.robots.split(","):
        res = bench_robot(name, args, args.cache)
        results.append(res)
        print(f"\n== {name} (nv = {res['nv']}), {args.rounds} rounds ==")
        print(tables(res))
        print(build_table(res), flush=True)
        if args.json:
            args.json.write_text(json.dumps(
                [{**r, "times": {"/".join(k): v for k, v in r["times"].items()},
                  "errors": {"/".join(k): v for k, v in r["errors"].items()}} for r in results], indent=1))


if __name__ == "__main__":
    main()
