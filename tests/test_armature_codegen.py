"""Generated code with armature and passive joint forces: the generator runs the same generic
code on its symbols, so J_m (baked in as constants, as the link parameters are) and the
springs and dampers reach the generated functions without a line of their own. Checked:
generated C and Python against the generic implementation, every function, within 1e-12."""

from dataclasses import replace

import numpy as np
import pytest

from soagen.loaders.random_robots import random_chain
from soagen.model import with_armature
from tests.support.codegen import build, compare
from tests.support.derivatives import check, generated

pytestmark = pytest.mark.cc          # compiles the generated C


def armed_damped_chain(n=3, seed=5):
    """A random chain with armature on every joint, a damper on every joint and a spring on
    the first."""
    rng = np.random.default_rng(seed)
    robot = random_chain(n, rng)
    bodies = tuple(replace(b, joint=replace(b.joint, damping=float(rng.uniform(0.1, 1.0)),
                                            stiffness=3.0 if i == 0 else 0.0, rest=0.2 if i == 0 else 0.0))
                   for i, b in enumerate(robot.bodies))
    return with_armature(replace(robot, bodies=bodies),
                         {b.joint_name: float(rng.uniform(0.05, 0.5)) for b in robot.bodies})


def test_generated_functions_with_armature_and_passive_forces(tmp_path):
    robot = armed_damped_chain()
    assert robot.has_armature and all(b.joint.damping for b in robot.bodies)
    worst = compare(robot, *build(robot, None, tmp_path), states=10)
    assert len(worst) == 8


def test_generated_derivatives_with_armature_and_passive_forces(tmp_path):
    robot = armed_damped_chain(seed=6)
    check(robot, *generated(robot, None, tmp_path, names=("inverse_dynamics_derivatives",
                                                             "forward_dynamics_derivatives", "regressor")))


def test_generated_passive_forces(tmp_path):
    """The registry's passive_forces (generated when named) against A.passive_forces, C and
    Python, and MuJoCo's sign: with it, forward dynamics solves M qdd + C = tau + tau_passive."""
    from pathlib import Path

    from soagen import algorithms as A
    from soagen.codegen.compile import load_c, load_python
    from soagen.codegen.emit import write
    from soagen.codegen.robot import render
    from tests.support.accuracy import rel_err
    from tests.support.derivatives import random_state

    robot = armed_damped_chain(seed=7)
    res = render(robot, None, algorithms=["passive_forces", "mass_matrix", "bias_forces"])
    write(res, tmp_path)
    prefix = res.manifest["prefix"]
    lib = load_c(tmp_path, prefix, res.manifest)
    py = load_python(Path(tmp_path) / f"{prefix}.py", f"gen_{prefix}_passive")
    rng = np.random.default_rng(0)
    for _ in range(5):
        q, qd, _, tau = random_state(robot, rng)
        want = A.passive_forces(robot, q, qd)
        assert np.abs(want).max() > 0.05
        assert rel_err(lib("passive_forces", q, qd), want) < 1e-12
        assert rel_err(np.array(py.passive_forces(list(q), list(qd)), dtype=float), want) < 1e-12
        M, C = lib("mass_matrix", q), lib("bias_forces", q, qd)       # C = C_rigid - tau_passive
        assert rel_err(np.linalg.solve(M, tau - C), A.forward_dynamics(robot, q, qd, tau)) < 1e-12
