"""`soagen bench`'s GPU section: states per second of the generated inverse and forward
dynamics on a GPU (the JAX and PyTorch outputs, jit-compiled), at 1e3 .. 1e7 states per
call, next to the memory-bandwidth bound for the same bytes in and out.

The bound: one call must read its inputs and write its outputs once, 8 bytes per entry,
so no code can exceed (device copy bandwidth) / (bytes per state) states per second;
the bandwidth is measured on the same device in the same run (a jit-compiled copy of a
256 MB array: 2 x 256 MB per pass). Runs only where JAX or PyTorch sees a GPU; elsewhere
:func:`visible_gpus` says which libraries looked and what they saw, and the section is
skipped with that sentence."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

import numpy as np

SIZES = (10**3, 10**4, 10**5, 10**6, 10**7)
FUNCTIONS = ("inverse_dynamics", "forward_dynamics")
COPY_BYTES = 256 * 2**20


@dataclass
class GpuDevice:
    library: str          # "jax" or "torch"
    name: str             # what the library calls it
    handle: object        # jax Device or torch.device


@dataclass
class GpuRow:
    library: str
    device: str
    function: str
    n: int
    states_per_s: float | None      # None: did not fit in the device's memory
    bound_states_per_s: float


@dataclass
class GpuResult:
    rows: list = field(default_factory=list)
    bandwidth: dict = field(default_factory=dict)     # device name -> bytes/s (copy)
    note: str = ""


def visible_gpus():
    """([GpuDevice], sentence): the GPUs that JAX and PyTorch (whichever is installed)
    see, and what each library reported."""
    found, said = [], []
    try:
        import jax
    except ImportError:
        said.append("JAX is not installed")
    else:
        try:
            gpus = jax.devices("gpu")
        except RuntimeError:
            gpus = []
        found += [GpuDevice("jax", f"{d.device_kind} ({d.platform})", d) for d in gpus]
        said.append(f"JAX {jax.__version__} sees {', '.join(sorted({d.platform for d in jax.devices()}))}")
    try:
        import torch
    except ImportError:
        said.append("PyTorch is not installed")
    else:
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        found += [GpuDevice("torch", torch.cuda.get_device_name(i), torch.device(f"cuda:{i}")) for i in range(n)]
        said.append(f"PyTorch {torch.__version__} sees {n} CUDA device{'s' if n != 1 else ''}")
    return found, "; ".join(said)


def bytes_per_state(function, header) -> int:
    """Bytes one state reads and writes (float64 inputs and outputs)."""
    return 8 * (sum(function.input_sizes(header)) + sum(int(np.prod(shape)) for _, shape in function.results))


def bound(bandwidth, nbytes) -> float:
    """The memory-bandwidth bound in states per second."""
    return bandwidth / nbytes


def run_gpu(result, work, devices, sizes=SIZES, quat_slots=(), min_time=0.2) -> GpuResult:
    """Time the ``FUNCTIONS`` of ``result`` (rendered with the jax/torch languages and
    written to ``work``) on each device at each size; a size that does not fit in the
    device's memory is recorded as None."""
    from soagen.codegen.compile import load_python

    out = GpuResult()
    modules = {}
    for dev in devices:
        if dev.library not in modules:
            modules[dev.library] = load_python(work / f"{result.header.prefix}_{dev.library}.py",
                                               f"_soagen_gpu_{dev.library}")
        backend = JAX if dev.library == "jax" else TORCH
        bw = backend.bandwidth(dev.handle)
        out.bandwidth[dev.name] = bw
        for f in (f for f in result.functions if f.name in FUNCTIONS):
            fn = backend.compile(getattr(modules[dev.library], f.name))
            for n in sizes:
                rate = None
                try:
                    args = backend.inputs(f, result.header, n, dev.handle, quat_slots)
                    backend.sync(fn(*args))
                    rate = n / _median_time(lambda: backend.sync(fn(*args)), min_time)
                except backend.oom_errors():
                    pass
                finally:
                    args = None
                out.rows.append(GpuRow(dev.library, dev.name, f.name, n, rate, bound(bw, bytes_per_state(f, result.header))))
    out.note = (f"GPU: states per second (jit-compiled, float64, n states per call, median); bound = measured copy "
                f"bandwidth / bytes in and out per state ({', '.join(f'{k}: {v / 1e9:.0f} GB/s' for k, v in out.bandwidth.items())})")
    return out


def _median_time(call, min_time):
    reps, t_end = [], time.perf_counter() + min_time
    while len(reps) < 5 or time.perf_counter() < t_end:
        t0 = time.perf_counter()
        call()
        reps.append(time.perf_counter() - t0)
        if len(reps) >= 50:
            break
    return statistics.median(reps)


def _random(function, header, n, quat_slots):
    from soagen.bench.throughput import random_inputs

    return random_inputs(function, header, n, quat_slots)


class JAX:
    @staticmethod
    def compile(fn):
        import jax

        return jax.jit(fn)

    @staticmethod
    def inputs(function, header, n, device, quat_slots):
        import jax

        return [jax.device_put(a, device) for a in _random(function, header, n, quat_slots)]

    @staticmethod
    def sync(x):
        import jax

        return jax.block_until_ready(x)

    @staticmethod
    def oom_errors():
        import jax

        return (jax.errors.JaxRuntimeError, MemoryError)

    @staticmethod
    def bandwidth(device):
        import jax

        x = jax.device_put(np.ones(COPY_BYTES // 8), device)
        copy = jax.jit(lambda a: a * 1.0)
        copy(x).block_until_ready()
        return 2 * COPY_BYTES / _median_time(lambda: copy(x).block_until_ready(), 0.2)


class TORCH:
    @staticmethod
    def compile(fn):
        import torch

        return torch.compile(fn, fullgraph=True, dynamic=False)

    @staticmethod
    def inputs(function, header, n, device, quat_slots):
        import torch

        return [torch.as_tensor(a, device=device) for a in _random(function, header, n, quat_slots)]

    @staticmethod
    def sync(x):
        import torch

        if torch.cuda.is_available():
            torch.cuda.synchronize()
        return x

    @staticmethod
    def oom_errors():
        import torch

        return (torch.cuda.OutOfMemoryError, MemoryError)

    @staticmethod
    def bandwidth(device):
        import torch

        x = torch.ones(COPY_BYTES // 8, dtype=torch.float64, device=device)
        y = torch.empty_like(x)

        def copy():
            y.copy_(x)
            TORCH.sync(y)
        copy()
        return 2 * COPY_BYTES / _median_time(copy, 0.2)
