"""Generated code for trees with a floating base and multi-dof joints (quaternion states),
against the generic implementation it is unrolled from."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from soagen import algorithms as A
from soagen.codegen.compile import load_c, load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from soagen.codegen.unroll import LDL, count_ops
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err

ALGOS = ["inverse_dynamics", "mass_matrix", "inverse_mass_matrix", "forward_dynamics"]


def check(robot, mod, rng, n=3):
    for _ in range(n):
        q, v, a = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
        assert rel_err(mod.inverse_dynamics(q, v, a), A.inverse_dynamics(robot, q, v, a)) < 1e-12
        assert rel_err(mod.mass_matrix(q), A.mass_matrix(robot, q)) < 1e-12
        assert rel_err(mod.inverse_mass_matrix(q), A.inverse_mass_matrix(robot, q)) < 1e-12
        assert rel_err(mod.forward_dynamics(q, v, a), A.forward_dynamics(robot, q, v, a)) < 1e-12


class Lists:
    """The generated stdlib-Python module takes lists."""

    def __init__(self, mod):
        self.mod = mod

    def __getattr__(self, name):
        return lambda *x: getattr(self.mod, name)(*(list(a) for a in x))


@pytest.fixture(scope="module")
def floating_tree(tmp_path_factory):
    rng = np.random.default_rng(5)
    robot = random_chain(4, rng, parents=[-1, 0, 1, 0], kinds=["free", "revolute", "spherical", "prismatic"])
    res = render(robot, None, algorithms=ALGOS, langs=("python", "c"), fd_variant="fd1")
    out = tmp_path_factory.mktemp("floating_tree")
    write(res, out)
    return robot, res, out, rng


def test_generated_python_matches_generic(floating_tree):
    robot, res, out, rng = floating_tree
    assert res.manifest["nq"] == robot.nv + 2                  # 7 + 1 + 4 + 1 vs 6 + 1 + 3 + 1
    py = load_python(out / f"{res.manifest['prefix']}.py")
    check(robot, Lists(py), rng)


@pytest.mark.cc
def test_generated_c_matches_generic(floating_tree):
    robot, res, out, rng = floating_tree
    check(robot, load_c(out, res.manifest["prefix"], res.manifest), rng)


def test_free_joint_inverse_is_factored():
    """The 6 x 6 D of the free joint is inverted by a named LDL^T, not a closed form: its
    statements cost at most the dense count of the factors, n(n-1) multiplications for d,
    sum_j 2j(n-1-j) for L and sum_(i>j) (i-j) for L^-1, 105 for n = 6 (a closed-form
    inverse has 5! products in every cofactor)."""
    rng = np.random.default_rng(6)
    robot = random_chain(2, rng, parents=[-1, 0], kinds=["free", "revolute"])
    res = render(robot, None, algorithms=["forward_dynamics"], langs=("python",), fd_variant="fd1")
    assert "ldl_d5" in res.files[f"{res.manifest['prefix']}.py"]
    n = 6
    bound = n * (n - 1) + sum(2 * j * (n - 1 - j) for j in range(n)) + sum(i - j for i in range(n) for j in range(i))
    c = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    for st in res.functions[0].program.statements:
        if st.note == LDL:
            count_ops(st.expr, c)
    assert 0 < c["mul"] <= bound == 105, c


def test_cli_generate_floating_base(tmp_path):
    from soagen.cli.main import cli

    urdf = tmp_path / "two.urdf"
    urdf.write_text("""<robot name="two">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.2" izz="0.25" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit effort="1" velocity="1" lower="-1" upper="1"/></joint>
</robot>""")
    r = CliRunner().invoke(cli, ["generate", str(urdf), "--floating-base", "--lang", "python",
                                 "--algorithms", "inverse_dynamics", "--out", str(tmp_path / "gen"), "-q"])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "gen" / "two.py").read_text()
    assert "NQ = 8" in text and "NV = 7" in text


@pytest.mark.slow
@pytest.mark.cc
@pytest.mark.oracle
def test_generated_c_quadruped_matches_generic():
    import soagen
    from tests.support.erd import erd_path

    path = erd_path("solo_description/robots/solo12.urdf")
    robot = soagen.load(path, floating_base=True)
    res = render(robot, path, algorithms=ALGOS, langs=("c",), fd_variant="fd3")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        write(res, d)
        check(robot, load_c(Path(d), res.manifest["prefix"], res.manifest), np.random.default_rng(1))


def test_generated_planar_joint(tmp_path):
    """A planar joint with a tilted normal unrolls like the others (nq = nv = 3, q_dot != v)."""
    rng = np.random.default_rng(8)
    robot = random_chain(2, rng, kinds=["planar", "revolute"])
    res = render(robot, None, algorithms=["inverse_dynamics", "forward_dynamics"], langs=("python",),
                 fd_variant="fd1")
    write(res, tmp_path)
    py = Lists(load_python(tmp_path / f"{res.manifest['prefix']}.py"))
    q, v, a = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    assert rel_err(py.inverse_dynamics(q, v, a), A.inverse_dynamics(robot, q, v, a)) < 1e-12
    assert rel_err(py.forward_dynamics(q, v, a), A.forward_dynamics(robot, q, v, a)) < 1e-12
