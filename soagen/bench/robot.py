"""`soagen bench`: time the generated C (a C loop, median of repeats), the generic numpy
reference and Pinocchio (when installed) on the same robot, in one run; and set the
operation counts next to the papers' counts.

Pinocchio is timed from Python (its bindings), so each of its numbers includes the cost
of one Python -> C++ call with numpy conversion. That overhead is measured in the same
run, as the time of ``pin.rnea`` on a one-joint model, and reported next to it."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from soagen.bench.throughput import py_time
from soagen.codegen.compile import FAST_FLAGS

# The papers' counts for revolute chains, n = number of joints (mul, add).
PAPER_COUNTS = {
    "inverse_dynamics": [("Featherstone RNEA", lambda n: (93 * n - 69, 81 * n - 66))],
    "mass_matrix": [("Featherstone CRBA", lambda n: (10 * n * n + 22 * n - 32, 6 * n * n + 37 * n - 43))],
    "forward_dynamics": [("Lilly-Orin Table 2 (open chain q'')", lambda n: (250 * n - 182, 220 * n - 167)),
                         ("Featherstone ABA", lambda n: (224 * n - 48, 205 * n - 72))],
}
PAPER_SOURCES = (
    "Lilly & Orin, Table 2 (open chain, q''); Featherstone & Orin, 'Robot dynamics: "
    "equations and algorithms' (ICRA 2000), optimized counts for revolute joints "
    "(RNEA 93n-69 / 81n-66, CRBA 10n^2+22n-32 / 6n^2+37n-43, ABA 224n-48 / 205n-72).")

PIN_FUNCTIONS = {  # generated function -> (label, callable(pin, model, data, frame, q, v, x))
    "inverse_dynamics": ("rnea", lambda pin, m, d, f, q, v, x: pin.rnea(m, d, q, v, x)),
    "mass_matrix": ("crba", lambda pin, m, d, f, q, v, x: pin.crba(m, d, q)),
    "bias_forces": ("nonLinearEffects", lambda pin, m, d, f, q, v, x: pin.nonLinearEffects(m, d, q, v)),
    "inverse_mass_matrix": ("computeMinverse", lambda pin, m, d, f, q, v, x: pin.computeMinverse(m, d, q)),
    "forward_dynamics": ("aba", lambda pin, m, d, f, q, v, x: pin.aba(m, d, q, v, x)),
    "jacobian": ("computeJointJacobian", lambda pin, m, d, f, q, v, x: pin.computeJointJacobian(m, d, q, f)),
    "inverse_dynamics_derivatives": ("computeRNEADerivatives",
                                     lambda pin, m, d, f, q, v, x: pin.computeRNEADerivatives(m, d, q, v, x)),
    "forward_dynamics_derivatives": ("computeABADerivatives",
                                     lambda pin, m, d, f, q, v, x: pin.computeABADerivatives(m, d, q, v, x)),
    "coriolis_matrix": ("computeCoriolisMatrix", lambda pin, m, d, f, q, v, x: pin.computeCoriolisMatrix(m, d, q, v)),
    "regressor": ("computeJointTorqueRegressor",
                  lambda pin, m, d, f, q, v, x: pin.computeJointTorqueRegressor(m, d, q, v, x)),
}


@dataclass
class BenchResult:
    robot: str
    nv: int
    generation_s: float
    counts: dict
    c_ns: dict
    generated_py_ns: dict = field(default_factory=dict)
    numpy_ns: dict = field(default_factory=dict)
    pin_ns: dict = field(default_factory=dict)
    pin_overhead_ns: float | None = None
    pin_note: str = ""
    fd_variant: str | None = None
    flags: tuple = ()
    generation_cpu_s: float = 0.0
    batch_width: int | None = None
    batch_ns: dict = field(default_factory=dict)     # function -> {n: ns per state}, PREFIX_f_batch
    scalar_loop_ns: dict = field(default_factory=dict)   # function -> ns per state, the scalar
                                                         # function looped over the batch's states
    module_ns: dict = field(default_factory=dict)    # function -> {n: ns per state}, soagen build
    module_c_ns: dict = field(default_factory=dict)  # function -> {n: ns per state}, the batch C through
                                                     # ctypes, alternating with the module
    jax_ns: dict = field(default_factory=dict)       # function -> ns per state (NB states per call)
    torch_ns: dict = field(default_factory=dict)
    array_notes: list = field(default_factory=list)
    flexible: bool = False                           # the papers' counts are for rigid chains: not compared
    gpu: object = None                               # soagen.bench.gpu.GpuResult, when a GPU is visible
    gpu_note: str = ""


def time_c(result, work, flags=FAST_FLAGS, iters=None, repeats=11, quat_slots=(),
           input_size=0, batch_sizes=(), scalar_loop_n=None, cold=False):
    """Build the generated C with a timing harness and run it: {function: median ns per
    call}, and with ``batch_sizes`` (the C generated with ``--batch``) also
    {"function@n": median ns per state of PREFIX_function_batch on n states}, and with
    ``scalar_loop_n`` {"function@scalarN": ns per state of the scalar function looped over
    the same N states} (the batch speedup on the same data), and with ``cold``
    {"function@cold": median ns of one call after 8 MB of other memory was written}.
    ``quat_slots``: (input number, offset) of unit quaternions (spherical/free joints in q,
    a closed-chain object's orientation), normalized in the random inputs;
    ``input_size``: the longest input if longer than nq and nv."""
    from soagen.codegen.compile import compiler, run_logged
    from soagen.codegen.emit import environment, write
    from soagen.codegen.records import output_offsets, output_sizes

    work = Path(work)
    write(result, work)
    prefix = result.manifest["prefix"]
    records = result.manifest["functions"]
    fns = []
    for f in result.functions:
        sizes = output_sizes(records[f.name])
        fns.append({"name": f.name, "inputs": f.inputs, "size": sum(sizes), "offsets": output_offsets(records[f.name]),
                    "out_sizes": sizes, "sizes": f.input_sizes(result.header)})
    nq, nv = result.manifest["nq"], result.manifest["nv"]
    src = environment().get_template("c/bench_main.c.j2").render(
        prefix=prefix, nv=nv, nq=nq, nin=max(nq, nv, input_size), functions=fns,
        ninputs=max(len(f["inputs"]) for f in fns), max_out=max(f["size"] for f in fns),
        quat_slots=quat_slots, batch_sizes=list(batch_sizes), scalar_loop_n=scalar_loop_n, cold=cold)
    (work / "bench_main.c").write_text(src)
    exe = work / "bench"
    cmd = [compiler(), *flags, "-std=c99", "-o", str(exe), str(work / "bench_main.c"),
           str(work / f"{prefix}.c"), "-lm"]
    run_logged(cmd, f"compiling the benchmark with {cmd[0]}")
    if iters is None:
        iters = max(2000, int(2e7 / max(sum(sum(result.manifest['functions'][f['name']]['ops'].values())
                                             for f in fns), 1)))
    run = run_logged([str(exe), str(iters), str(repeats)], "the benchmark")
    out = {}
    for line in run.stdout.splitlines():
        name, ns = line.split()
        out[name] = float(ns)
    return out


def _reference_calls(robot):
    from functools import cache

    from soagen import algorithms as A

    base = cache(lambda: A.base_parameters(robot))

    return {
        "inverse_dynamics": lambda q, qd, x: A.inverse_dynamics(robot, q, qd, x),
        "mass_matrix": lambda q, qd, x: A.mass_matrix(robot, q),
        "bias_forces": lambda q, qd, x: A.bias_forces(robot, q, qd),
        "inverse_mass_matrix": lambda q, qd, x: A.inverse_mass_matrix(robot, q),
        "forward_dynamics": lambda q, qd, x: A.forward_dynamics(robot, q, qd, x),
        "jacobian": lambda q, qd, x: A.jacobian(robot, q),
        "jacobian_dot_qd": lambda q, qd, x: A.jacobian_dot_qd(robot, q, qd),
        "op_space_inverse_inertia": lambda q, qd, x: A.op_space_inverse_inertia(robot, q),
        "inverse_dynamics_derivatives": lambda q, qd, x: A.inverse_dynamics_derivatives(robot, q, qd, x),
        "forward_dynamics_derivatives": lambda q, qd, x: A.forward_dynamics_derivatives(robot, q, qd, x),
        "coriolis_matrix": lambda q, qd, x: A.coriolis_matrix(robot, q, qd),
        "regressor": lambda q, qd, x: A.regressor(robot, q, qd, x),
        "base_regressor": lambda q, qd, x: A.base_regressor(robot, q, qd, x, base_params=base()),
    }


def quaternion_slots(robot):
    """(0, offset in q) of the unit quaternions (spherical and free joints)."""
    return [(0, b.q_index + (3 if b.joint.kind == "free" else 0))
            for b in robot.bodies if b.joint.kind in ("spherical", "free")]


def _pinocchio(robot_file, robot, names, rng, nsets=64, floating_base=False, as_file=True):
    """Pinocchio timings from Python, or ({}, None, reason); ``as_file``: the model is
    the URDF's as written (no locked joints), so Pinocchio may read the file."""
    try:
        import pinocchio as pin
    except ImportError:
        return {}, None, "pinocchio not installed (pip install pin)"
    from soagen.oracles.pinocchio import Converter, pin_model_from_robot

    if as_file and Path(robot_file).suffix.lower() == ".urdf":
        model, how = (pin.buildModelFromUrdf(str(robot_file), pin.JointModelFreeFlyer()),
                      "from the URDF with a free-flyer root") if floating_base else \
            (pin.buildModelFromUrdf(str(robot_file)), "from the URDF")
    else:
        model, how = pin_model_from_robot(robot), "joint by joint from the model (unaligned joint types)"
    data = model.createData()
    tip_body = robot.tip.body if robot.tip is not None else robot.nb - 1
    frame = model.getJointId(robot.bodies[tip_body].joint_name)
    try:
        conv = Converter(robot, model)
        sets = [(conv.q_to_pin(robot.random_configuration(rng)), rng.normal(size=model.nv),
                 rng.normal(size=model.nv)) for _ in range(nsets)]
    except (AssertionError, KeyError):       # joints not matched by name: neutral q
        sets = [(pin.neutral(model), rng.normal(size=model.nv), rng.normal(size=model.nv))
                for _ in range(nsets)]
    out = {}
    for n in names:
        if n in PIN_FUNCTIONS:
            label, call = PIN_FUNCTIONS[n]
            out[n] = (label, py_time(lambda q, v, x: call(pin, model, data, frame, q, v, x), sets))
    overhead, note = binding_overhead(pin, f"model built {how}")
    return out, overhead, note


def binding_overhead(pin, how):
    """(ns, note): one Pinocchio binding call with numpy conversions, timed as pin.rnea on
    a one-joint model, and the sentence that reports it."""
    m1 = pin.Model()
    j = m1.addJoint(0, pin.JointModelRZ(), pin.SE3.Identity(), "j")
    m1.appendBodyToJoint(j, pin.Inertia.Random(), pin.SE3.Identity())
    d1 = m1.createData()
    one = [(np.zeros(1), np.zeros(1), np.zeros(1))]
    overhead = py_time(lambda q, v, x: pin.rnea(m1, d1, q, v, x), one)
    return overhead, (f"Pinocchio {pin.__version__} ({how}) timed through its Python bindings; each call "
                      f"includes ~{overhead:.0f} ns of binding overhead (pin.rnea on a one-joint model)")


def run_bench(robot_file, tip=None, algorithms=None, fd_variant="best", with_numpy=True,
              with_pinocchio=True, iters=None, repeats=11, flags=FAST_FLAGS,
              progress=None, workdir=None, floating_base=False, with_jax=True, with_torch=True,
              with_gpu=True, load=None) -> BenchResult:
    """Everything in one run: the scalar and batched C (C loops), the compiled Python module
    over batch sizes, the JAX and PyTorch outputs (when installed and asked for), the
    generated stdlib Python, the numpy reference and Pinocchio; and with ``with_gpu`` the
    GPU section (:mod:`soagen.bench.gpu`) when JAX or PyTorch sees a GPU. ``load``: the
    command line's :class:`~soagen.cli.options.LoadOptions` (their tip and floating base
    then replace ``tip`` and ``floating_base``)."""
    import soagen
    from soagen.bench import throughput as T
    from soagen.codegen.compile import load_c, load_python
    from soagen.codegen.extension import compile_extension, load_extension
    from soagen.codegen.registry import AT_A_FRAME, DEFAULT, OF_SEVERAL_FRAMES
    from soagen.codegen.robot import render

    robot = load.load(robot_file) if load is not None else soagen.load(robot_file, tip=tip,
                                                                         floating_base=floating_base)
    floating_base = load.floating_base if load is not None else floating_base
    names = [n for n in algorithms or DEFAULT if n not in OF_SEVERAL_FRAMES]
    if robot.tip is None:
        names = [n for n in names if n not in AT_A_FRAME]
    arrays = tuple(lang for lang, wanted in (("jax", with_jax), ("torch", with_torch))
                   if wanted and _importable(lang))
    t0, c0 = time.perf_counter(), time.process_time()
    result = render(robot, robot_file, algorithms=names, langs=("c", "python", "python_ext") + arrays,
                    fd_variant=fd_variant, batch=True, progress=progress)
    gen_s, gen_cpu = time.perf_counter() - t0, time.process_time() - c0
    counts = {f.name: f.counts for f in result.functions}
    fd = next((f.variant for f in result.functions if f.name == "forward_dynamics"), None)
    quats = quaternion_slots(robot)
    res = BenchResult(robot.name, robot.nv, gen_s, counts, {}, fd_variant=fd, flags=tuple(flags),
                      generation_cpu_s=gen_cpu, flexible=robot.is_flexible)
    prefix = result.manifest["prefix"]
    with tempfile.TemporaryDirectory(prefix="soagen-bench-") as tmp:
        work = Path(workdir or tmp)
        times = time_c(result, work, flags, iters, repeats, quats, batch_sizes=T.BATCH_SIZES, scalar_loop_n=T.NB)
        for key, ns in times.items():
            name, _, n = key.partition("@")
            if n.startswith("scalar"):
                res.scalar_loop_ns[name] = ns
            elif n:
                res.batch_ns.setdefault(name, {})[int(n)] = ns
            else:
                res.c_ns[name] = ns
        py = load_python(work / f"{prefix}.py")
        module = load_extension(compile_extension(work, prefix, flags))
        res.batch_width = module.BATCH_WIDTH
        lib = load_c(work, prefix, result.manifest, flags=flags)
        res.module_ns, res.module_c_ns = T.time_module(module, lib, result, quats)
        for lang, timer, target in (("jax", T.time_jax, res.jax_ns), ("torch", T.time_torch, res.torch_ns)):
            if lang in arrays:
                ns, note = timer(work / f"{prefix}_{lang}.py", result, quats)
                target.update(ns)
                res.array_notes.append(note)
    rng = np.random.default_rng(0)
    sets = [(robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv))
            for _ in range(64)]
    for n in names:
        ins = result.manifest["functions"][n]["inputs"]
        fn = getattr(py, n)
        res.generated_py_ns[n] = py_time(fn, [s[:len(ins)] for s in sets], 0.1)
    if with_numpy:
        ref = _reference_calls(robot)
        for n in names:
            res.numpy_ns[n] = py_time(ref[n], sets, 0.1)
    if with_pinocchio and robot.is_flexible:
        res.pin_note = "Pinocchio has no flexible bodies: not timed"
    elif with_pinocchio:
        res.pin_ns, res.pin_overhead_ns, res.pin_note = _pinocchio(
            robot_file, robot, names, rng, floating_base=floating_base, as_file=not (load and load.lock))
    if with_gpu:
        res.gpu, res.gpu_note = gpu_section(robot, robot_file, quats)
    return res


def gpu_section(robot, robot_file, quats, devices=None, sizes=None):
    """(GpuResult or None, note): inverse and forward dynamics on every GPU that JAX or
    PyTorch sees (``devices``: these instead, e.g. a CPU device in a test), or None and the
    sentence that says that no GPU is visible."""
    from soagen.bench import gpu
    from soagen.codegen.emit import write
    from soagen.codegen.robot import render

    if devices is None:
        devices, said = gpu.visible_gpus()
        if not devices:
            return None, f"GPU: no GPU is visible ({said}); the GPU section is skipped."
    langs = tuple(sorted({d.library for d in devices}))
    result = render(robot, robot_file, algorithms=list(gpu.FUNCTIONS), langs=langs)
    with tempfile.TemporaryDirectory(prefix="soagen-gpu-") as tmp:
        write(result, tmp)
        out = gpu.run_gpu(result, Path(tmp), devices, sizes or gpu.SIZES, quats)
    return out, out.note


def _importable(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None


def paper_rows(nv, counts):
    rows = []
    for n, refs in PAPER_COUNTS.items():
        if n not in counts:
            continue
        for label, f in refs:
            mul, add = f(nv)
            rows.append((n, label, mul, add, counts[n]["mul"], counts[n]["add"]))
    return rows
