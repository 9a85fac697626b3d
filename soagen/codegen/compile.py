"""Compile generated C with the system compiler and call it through ctypes (tests and
``soagen bench``), and import a generated Python module from its file."""

from __future__ import annotations

import ctypes
import importlib.util
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from soagen.codegen.records import output_shapes
from soagen.errors import SoagenError

# Flags for timing and for the Python module: this machine's vector units, and fused
# multiply-adds as in GCC's GNU modes (-std=c99, which soagen compiles with, turns them off).
FAST_FLAGS = ("-O3", "-march=native", "-ffp-contract=fast")


def compiler() -> str:
    """The C compiler: $CC (a name on PATH or a path), else cc, gcc or clang."""
    if os.environ.get("CC"):
        cc = shutil.which(os.environ["CC"])
        if not cc:
            raise SoagenError(f"CC={os.environ['CC']}: no such compiler")
        return cc
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        raise SoagenError("no C compiler found (set CC or install cc/gcc/clang)")
    return cc


def run_logged(cmd, what) -> subprocess.CompletedProcess:
    """Run a compiler (or a program it built); its completed process. On failure the whole output goes to a log
    file that outlives any build folder, and the error is one line: what failed, the first
    line that says why, where the log is."""
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode == 0:
        return run
    text = f"$ {' '.join(cmd)}\n{run.stdout}{run.stderr}"
    with tempfile.NamedTemporaryFile("w", prefix="soagen-", suffix=".log", delete=False) as log:
        log.write(text)
    lines = [ln.strip() for ln in (run.stderr + run.stdout).splitlines() if ln.strip()]
    why = next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "no output")
    raise SoagenError(f"{what} failed (exit {run.returncode}): {why} (full log: {log.name})")


def compile_shared(c_file, out_dir, flags=("-O2",)) -> Path:
    """``cc <flags> -shared -fPIC`` the generated source into a shared library."""
    c_file, out_dir = Path(c_file), Path(out_dir)
    lib = out_dir / f"lib{c_file.stem}.so"
    cmd = [compiler(), *flags, "-std=c99", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
           "-o", str(lib), str(c_file), "-lm"]
    run_logged(cmd, f"compiling {c_file.name} with {cmd[0]}")
    return lib


class CLibrary:
    """The functions of a generated, compiled C file as numpy-in, numpy-out callables."""

    def __init__(self, lib_path, manifest):
        self.lib = ctypes.CDLL(str(lib_path))
        self.manifest = manifest
        self.prefix = manifest["prefix"]
        dbl = ctypes.POINTER(ctypes.c_double)
        for name, fn in manifest["functions"].items():
            f = getattr(self.lib, f"{self.prefix}_{name}")
            f.argtypes = [dbl] * (len(fn["inputs"]) + len(output_shapes(fn)))
            f.restype = None

    def __call__(self, name, *args):
        """The output, or the tuple of outputs of a function that has several."""
        fn = self.manifest["functions"][name]
        f = getattr(self.lib, f"{self.prefix}_{name}")
        arrays = [np.ascontiguousarray(a, dtype=float) for a in args]
        outs = [np.zeros(shape) for shape in output_shapes(fn)]
        ptr = ctypes.POINTER(ctypes.c_double)
        f(*[a.ctypes.data_as(ptr) for a in arrays + outs])
        return outs[0] if len(outs) == 1 else tuple(outs)

    def batch(self, name, *args):
        """``PREFIX_<name>_batch`` on n states (generated with ``--batch``): each argument
        (n, size) row-major; returns (n, *shape), or a tuple of them for several outputs."""
        fn = self.manifest["functions"][name]
        arrays = [np.ascontiguousarray(a, dtype=float) for a in args]
        outs = [np.zeros((arrays[0].shape[0], *shape)) for shape in output_shapes(fn)]
        self.batch_call(name, *arrays, outs=outs)()
        return outs[0] if len(outs) == 1 else tuple(outs)

    def batch_call(self, name, *arrays, outs=None):
        """A no-argument callable running ``PREFIX_<name>_batch`` on the C-contiguous
        float64 (n, size) ``arrays`` into ``outs`` (one array per output, allocated if
        None), pointers bound once."""
        fn = self.manifest["functions"][name]
        n = arrays[0].shape[0]
        outs = [np.zeros((n, *shape)) for shape in output_shapes(fn)] if outs is None else outs
        f = self.lib[f"{self.prefix}_{name}_batch"]
        f.argtypes = [ctypes.c_size_t] + [ctypes.c_void_p] * (len(arrays) + len(outs))
        f.restype = None
        buffers = (*arrays, *outs)             # kept alive by the closure
        pointers = [a.ctypes.data for a in buffers]
        return lambda: f(n, *pointers) if buffers else None

    def bound(self, name, *arrays):
        """A no-argument callable running ``PREFIX_<name>`` on the given C-contiguous
        float64 buffers (the inputs, then the outputs), their addresses bound once: a
        loop's inner call fills the buffers and calls it (a few us less per call than
        converting arguments)."""
        fn = self.manifest["functions"][name]
        count = len(fn["inputs"]) + len(output_shapes(fn))
        if len(arrays) != count or not all(a.dtype == np.float64 and a.flags.c_contiguous for a in arrays):
            raise ValueError(f"{name}: needs {count} C-contiguous float64 buffers")
        f = self.lib[f"{self.prefix}_{name}"]          # a function object of its own
        f.argtypes = [ctypes.c_void_p] * len(arrays)
        f.restype = None
        pointers = [a.ctypes.data for a in arrays]
        return lambda: f(*pointers) if arrays else None     # the closure keeps the buffers alive

    def batch_width(self) -> int:
        """States per vector of the compiled ``_batch`` functions (1: the scalar loop)."""
        return getattr(self.lib, f"{self.prefix}_batch_width")()

    def __getattr__(self, name):
        if name in self.manifest["functions"]:
            return lambda *args: self(name, *args)
        raise AttributeError(name)


def load_c(out_dir, prefix, manifest, build_dir=None, flags=("-O2",)) -> CLibrary:
    lib = compile_shared(Path(out_dir) / f"{prefix}.c", build_dir or out_dir, flags)
    return CLibrary(lib, manifest)


def load_python(path, module_name=None):
    """Import a generated ``.py`` file as a module (not added to sys.modules)."""
    path = Path(path)
    spec = importlib.util.spec_from_file_location(module_name or f"_soagen_gen_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


__all__ = ["run_logged", "compile_shared", "CLibrary", "load_c", "load_python", "compiler"]
