"""Shared helpers of the code generation tests: generate, compile, compare."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen import algorithms as A
from soagen.codegen.compile import load_c, load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from tests.support.accuracy import rel_err

REPO = Path(__file__).resolve().parents[2]
ROBOTS = REPO / "robots"
TOL = 1e-12


def reference(robot, name, args):
    q = args["q"]
    return {
        "inverse_dynamics": lambda: A.inverse_dynamics(robot, q, args["qd"], args["qdd"]),
        "mass_matrix": lambda: A.mass_matrix(robot, q),
        "bias_forces": lambda: A.bias_forces(robot, q, args["qd"]),
        "inverse_mass_matrix": lambda: A.inverse_mass_matrix(robot, q),
        "forward_dynamics": lambda: A.forward_dynamics(robot, q, args["qd"], args["tau"]),
        "jacobian": lambda: A.jacobian(robot, q),
        "jacobian_dot_qd": lambda: A.jacobian_dot_qd(robot, q, args["qd"]),
        "op_space_inverse_inertia": lambda: A.op_space_inverse_inertia(robot, q),
    }[name]()


def random_states(robot, n, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield {"q": robot.random_configuration(rng), "qd": rng.normal(size=robot.nv) * 2,
               "qdd": rng.normal(size=robot.nv) * 2, "tau": rng.normal(size=robot.nv) * 5}


def build(robot, path, tmp, algorithms=None, numpy=False, **kw):
    """Render C and Python for ``robot``, write into tmp, compile; (manifest, C, Python)."""
    from soagen.codegen.registry import DEFAULT

    res = render(robot, path, algorithms=algorithms or DEFAULT, numpy=numpy, **kw)
    write(res, tmp)
    prefix = res.manifest["prefix"]
    lib = load_c(tmp, prefix, res.manifest)
    py = load_python(Path(tmp) / f"{prefix}.py", f"gen_{prefix}_{'np' if numpy else 'math'}")
    return res.manifest, lib, py


def compare(robot, manifest, lib, py, states=20, numpy=False, tol=TOL):
    """Worst relative error per function over random states (C and Python)."""
    worst = {}
    for args in random_states(robot, states):
        for name, fn in manifest["functions"].items():
            inputs = [args[i] for i in fn["inputs"]]
            want = reference(robot, name, args)
            got_c = lib(name, *inputs)
            got_py = np.array(getattr(py, name)(*inputs), dtype=float)
            worst[name] = max(worst.get(name, 0.0), rel_err(got_c, want), rel_err(got_py, want))
    bad = {k: v for k, v in worst.items() if not v <= tol}
    assert not bad, f"{robot.name}: relative error above {tol}: {bad}"
    return worst


def batch_states(robot, shape, rng):
    """Random inputs with leading shape ``shape``: {"q": (*shape, NQ), "qd", "qdd", "tau":
    (*shape, NV)} (configurations by Robot.random_configuration)."""
    n = int(np.prod(shape))
    q = np.array([robot.random_configuration(rng) for _ in range(n)]).reshape(*shape, robot.nq)
    return {"q": q, "qd": 2 * rng.normal(size=(*shape, robot.nv)), "qdd": 2 * rng.normal(size=(*shape, robot.nv)),
            "tau": 5 * rng.normal(size=(*shape, robot.nv))}
