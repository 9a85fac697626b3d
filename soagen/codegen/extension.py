"""`soagen build`: the generated C with its batch functions compiled into a CPython
extension module (``templates/c/pymodule.c.j2``): numpy in, numpy out, batched over any
leading dimensions, the GIL released while it runs. Only the system C compiler and the
headers of Python and numpy (which ship with them) are needed."""

from __future__ import annotations

import shutil
import sysconfig
import tempfile
from pathlib import Path

from soagen.codegen.compile import FAST_FLAGS, compiler, load_python, run_logged


def module_path(out_dir, prefix) -> Path:
    """Where the built module of ``prefix`` lives in ``out_dir`` (PREFIX + the
    interpreter's extension suffix, e.g. ur5.cpython-311-x86_64-linux-gnu.so)."""
    return Path(out_dir) / f"{prefix}{sysconfig.get_config_var('EXT_SUFFIX')}"


def compile_extension(out_dir, prefix, flags=FAST_FLAGS) -> Path:
    """Compile ``PREFIX.c`` and ``PREFIX_module.c`` (written in ``out_dir`` by the
    ``c_batch`` and ``python_ext`` languages) into the module; its path."""
    import numpy as np

    out_dir = Path(out_dir)
    target = module_path(out_dir, prefix)
    cmd = [compiler(), *flags, "-std=c99", "-Wall", "-shared", "-fPIC",
           f"-I{sysconfig.get_paths()['include']}", f"-I{np.get_include()}", f"-I{out_dir}",
           "-o", str(target), str(out_dir / f"{prefix}.c"), str(out_dir / f"{prefix}_module.c"), "-lm"]
    run_logged(cmd, f"compiling the Python module {prefix} with {cmd[0]}")
    return target


def load_extension(path):
    """Import a built module from its file (not added to sys.modules)."""
    return load_python(path, Path(path).name.split(".")[0])


def build(result, out_dir, flags=FAST_FLAGS) -> list:
    """Compile an emitted result (languages ``c_batch`` and ``python_ext``) into its module
    in a scratch folder, then copy the sources, the manifest and the module into
    ``out_dir``: nothing is written there when the compiler fails. The written paths."""
    from soagen import output_dir
    from soagen.codegen.emit import write

    prefix = result.manifest["prefix"]
    with tempfile.TemporaryDirectory(prefix="soagen-build-") as tmp:
        write(result, tmp)
        module = compile_extension(tmp, prefix, flags)
        out = output_dir.create(out_dir)
        paths = []
        for src in [*(Path(tmp) / name for name in result.files), module]:
            paths.append(Path(shutil.copy2(src, out / src.name)))
    return paths
