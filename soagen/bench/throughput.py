"""Timings from Python for `soagen bench` (:func:`py_time`), and the per-state timings of
the batched outputs: the compiled Python module
(``soagen build``) at several batch sizes, and the JAX and PyTorch modules, jit-compiled,
on the CPU (or the GPU when the library has one), on one batch of states.

Inputs are random like the C harness's (uniform in [-3, 3], the unit quaternions of
spherical and free joints normalized): the cost of the generated code does not depend on
the values."""

from __future__ import annotations

import statistics
import time

import numpy as np

BATCH_SIZES = (1, 10, 1000, 100000)     # states per call for the batched C and the module
NB = 1000                               # the per-state columns of the main table


def py_time(fn, inputs, min_time=0.2):
    """Median over 5 repeats of the mean time per call (ns) of fn(*inputs[k])."""
    n = len(inputs)
    calls = 1
    while True:
        t0 = time.perf_counter()
        for i in range(calls):
            fn(*inputs[i % n])
        dt = time.perf_counter() - t0
        if dt > min_time / 5 or calls > 1_000_000:
            break
        calls *= 4
    reps = []
    for _ in range(5):
        t0 = time.perf_counter()
        for i in range(calls):
            fn(*inputs[i % n])
        reps.append((time.perf_counter() - t0) / calls * 1e9)
    return statistics.median(reps)


def random_inputs(function, header, n, quat_slots=(), seed=0):
    """One array (n, size) per input of ``function`` (an emit Function)."""
    rng = np.random.default_rng(seed)
    out = []
    for a, size in enumerate(function.input_sizes(header)):
        x = rng.uniform(-3.0, 3.0, size=(n, size))
        for slot_input, offset in quat_slots:
            if slot_input == a:
                x[:, offset:offset + 4] /= np.linalg.norm(x[:, offset:offset + 4], axis=1, keepdims=True)
        out.append(x)
    return out


def time_module(module, lib, result, quat_slots=(), sizes=BATCH_SIZES, interleave_from=1000):
    """{function: {n: median ns per state}} of the built module (a fresh output per call),
    and for n >= ``interleave_from`` {function: {n: ns per state}} of the same batch
    function of the C library ``lib`` (a :class:`~soagen.codegen.compile.CLibrary` of the
    same source) called through ctypes, alternating call by call with the module, so that
    both see the same load of a shared machine (the ctypes call, ~1 us, is then below
    1 ns per state)."""
    module_ns, c_ns = {}, {}
    for f in result.functions:
        call = getattr(module, f.name)
        module_ns[f.name], c_ns[f.name] = {}, {}
        for n in sizes:
            args = random_inputs(f, result.header, n, quat_slots)
            if n < interleave_from:
                module_ns[f.name][n] = py_time(call, [args], 0.05) / n
                continue
            c_call = lib.batch_call(f.name, *args)
            pairs = _alternate(lambda: call(*args), c_call, 0.4)
            module_ns[f.name][n], c_ns[f.name][n] = (statistics.median(p) / n for p in pairs)
    return module_ns, c_ns


def _alternate(f, g, min_time):
    """Per-call times (ns) of f and g called alternately until ``min_time`` seconds (at
    least 5 pairs): two lists."""
    tf, tg = [], []
    start = time.perf_counter()
    while len(tf) < 5 or time.perf_counter() - start < min_time:
        t0 = time.perf_counter_ns()
        f()
        t1 = time.perf_counter_ns()
        g()
        tf.append(t1 - t0)
        tg.append(time.perf_counter_ns() - t1)
    return tf, tg


def time_jax(path, result, quat_slots=(), n=NB):
    """({function: ns per state}, note) of the JAX module: jax.jit, inputs on the default
    device, n states per call; or ({}, why not)."""
    try:
        import jax
    except ImportError:
        return {}, "JAX not installed (pip install jax)"
    from soagen.codegen.compile import load_python

    mod = load_python(path, "_soagen_bench_jax")
    out, compile_s = {}, 0.0
    for f in result.functions:
        fn = jax.jit(getattr(mod, f.name))
        args = [jax.device_put(a) for a in random_inputs(f, result.header, n, quat_slots)]
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        compile_s += time.perf_counter() - t0
        out[f.name] = py_time(lambda *a: jax.block_until_ready(fn(*a)), [args], 0.2) / n
    device = jax.devices()[0]
    return out, (f"JAX {jax.__version__}: jax.jit on {device.platform} ({device.device_kind}), {n} states "
                 f"per call, float64; compiling took {compile_s:.1f} s")


def time_torch(path, result, quat_slots=(), n=NB):
    """({function: ns per state}, note) of the PyTorch module: torch.compile (fullgraph),
    on the GPU when there is one, n states per call; or ({}, why not)."""
    try:
        import torch
    except ImportError:
        return {}, "PyTorch not installed"
    from soagen.codegen.compile import load_python

    mod = load_python(path, "_soagen_bench_torch")
    device = "cuda" if torch.cuda.is_available() else "cpu"
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    out, compile_s = {}, 0.0
    for f in result.functions:
        fn = torch.compile(getattr(mod, f.name), fullgraph=True, dynamic=False)
        args = [torch.as_tensor(a, device=device) for a in random_inputs(f, result.header, n, quat_slots)]
        with torch.no_grad():
            t0 = time.perf_counter()
            fn(*args)
            sync()
            compile_s += time.perf_counter() - t0

            def call(*a):
                fn(*a)
                sync()
            out[f.name] = py_time(call, [args], 0.2) / n
    return out, (f"PyTorch {torch.__version__}: torch.compile on {device}, {n} states per call, float64; "
                 f"compiling took {compile_s:.1f} s")
