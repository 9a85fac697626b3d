"""The looped style (soagen.codegen.loops): the factorization M = L^T D L along the parent
array and its solves as loops, the rest unrolled. Generated C and Python against the
generic implementation, the loops' operation counts against what they execute, the
manifest, and the choice of --style auto."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.codegen.compile import load_c, load_python
from soagen.codegen.emit import write
from soagen.codegen.loops import congruence_ops, inverse_ops, ltdl_ops, solve_ops
from soagen.codegen.robot import render
from soagen.dynamics.ldl import dof_parents, path_layout
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err
from tests.support.codegen import random_states

LOOPED = ["inverse_mass_matrix", "forward_dynamics", "forward_dynamics_derivatives", "op_space_inverse_inertia"]


def _reference(robot, name, q, qd, tau):
    if name == "inverse_mass_matrix":
        return [A.inverse_mass_matrix(robot, q)]
    if name == "forward_dynamics":
        return [A.forward_dynamics(robot, q, qd, tau)]
    if name == "forward_dynamics_derivatives":
        return list(A.forward_dynamics_derivatives(robot, q, qd, tau))
    return [A.op_space_inverse_inertia(robot, q)]


def _args(name, q, qd, tau):
    return (q,) if name in ("inverse_mass_matrix", "op_space_inverse_inertia") else (q, qd, tau)


PARENTS = [-1, 0, 1, 1, 3, 0, 5, 6, 6]


@pytest.fixture(scope="module")
def tree():
    """A branching tree of revolute, prismatic and spherical joints."""
    return random_chain(9, np.random.default_rng(4), joint_types=("revolute", "prismatic", "spherical"),
                        parents=PARENTS)


def _states(robot, n, seed):
    return [(s["q"], s["qd"], s["tau"]) for s in random_states(robot, n, seed)]


def _functions(robot):
    return LOOPED if robot.tip is not None else LOOPED[:3]


@pytest.mark.cc
@pytest.mark.parametrize("which", ["tree", "puma560"])
def test_looped_c_and_python_match_the_generic_code(which, tree, tmp_path):
    robot = tree if which == "tree" else soagen.load("puma560")
    names = _functions(robot)
    res = render(robot, None, algorithms=names, langs=("c", "python"), prefix="p", style="looped")
    assert all(f.manifest["style"] == "looped" for f in res.functions)
    write(res, tmp_path)
    lib, py = load_c(tmp_path, "p", res.manifest), load_python(tmp_path / "p.py")
    for q, qd, tau in _states(robot, 3, 7):
        for name in names:
            want = _reference(robot, name, q, qd, tau)
            got_c = lib(name, *_args(name, q, qd, tau))
            got_py = getattr(py, name)(*[list(a) for a in _args(name, q, qd, tau)])
            got_c = got_c if isinstance(got_c, tuple) else (got_c,)
            got_py = got_py if isinstance(got_py, tuple) else (got_py,)
            for w, c, p in zip(want, got_c, got_py):
                assert rel_err(np.reshape(c, w.shape), w) < 1e-12, name
                assert rel_err(np.reshape(np.asarray(p, dtype=float), w.shape), w) < 1e-12, name


@pytest.mark.cc
def test_a_floating_tree_with_a_free_joint(tmp_path):
    """A free joint's 6 coordinates, whose block of M has structural zeros on the pattern:
    the workspace's entries that no argument sets are 0."""
    robot = random_chain(5, np.random.default_rng(11), parents=[-1, 0, 1, 0, 3],
                         kinds=["free", "revolute", "revolute", "prismatic", "revolute"])
    res = render(robot, None, algorithms=LOOPED[:3], langs=("c",), prefix="p", style="looped")
    write(res, tmp_path)
    lib = load_c(tmp_path, "p", res.manifest)
    for q, qd, tau in _states(robot, 2, 2):
        for name in LOOPED[:3]:
            got = lib(name, *_args(name, q, qd, tau))
            for w, g in zip(_reference(robot, name, q, qd, tau), got if isinstance(got, tuple) else (got,)):
                assert rel_err(np.reshape(g, w.shape), w) < 1e-12, name


class Counted:
    """A number that counts the operations done on it (a shared tally)."""

    tally = {"mul": 0, "add": 0, "div": 0}

    def __init__(self, v):
        self.v = float(v)

    @staticmethod
    def _v(x):
        return x.v if isinstance(x, Counted) else float(x)

    def __mul__(self, o):
        Counted.tally["mul"] += 1
        return Counted(self.v * self._v(o))

    __rmul__ = __mul__

    def __add__(self, o):
        Counted.tally["add"] += 1
        return Counted(self.v + self._v(o))

    __radd__ = __add__

    def __sub__(self, o):
        Counted.tally["add"] += 1
        return Counted(self.v - self._v(o))

    def __rsub__(self, o):
        Counted.tally["add"] += 1
        return Counted(self._v(o) - self.v)

    def __truediv__(self, o):
        Counted.tally["div"] += 1
        return Counted(self.v / self._v(o))

    def __rtruediv__(self, o):
        Counted.tally["div"] += 1
        return Counted(self._v(o) / self.v)


def _count(fn, *args):
    Counted.tally = {"mul": 0, "add": 0, "div": 0}
    fn(*args)
    return dict(Counted.tally)


def _without_zero_work(c):
    return {k: c[k] for k in ("mul", "add", "div")}


def test_the_loops_do_the_operations_the_manifest_counts(tree, tmp_path):
    """The loops of templates/python/_ltdl.py.j2 (the C's, statement for statement) run on
    numbers that count what is done to them: exactly the counts of soagen.codegen.loops."""
    res = render(tree, None, algorithms=["inverse_mass_matrix"], langs=("python",), prefix="p", style="looped")
    write(res, tmp_path)
    py = load_python(tmp_path / "p.py")
    lam = tuple(dof_parents(tree))
    n = len(lam)
    paths = path_layout(lam)
    depth, off, path = paths
    M = A.mass_matrix(tree, _states(tree, 1, 1)[0][0])
    W = [Counted(M[k, path[off[k] + d]]) for k in range(n) for d in range(depth[k] + 1)]   # rows along the paths
    assert _count(py._soagen_ltdl, W, *paths, n) == _without_zero_work(ltdl_ops(lam))
    m = 3
    X = [Counted(1.0) for _ in range(n * m)]
    assert _count(py._soagen_ltdl_solve, W, *paths, n, X, m) == _without_zero_work(solve_ops(lam, m))
    assert np.allclose([x.v for x in X], np.linalg.solve(M, np.ones((n, m))).reshape(-1), rtol=1e-12, atol=0)
    Y, R = [Counted(0.5) for _ in range(n * m)], [None] * (m * m)
    counted = _count(py._soagen_ltdl_congruence, W, *paths, n, Y, m, R)
    assert counted == _without_zero_work(congruence_ops(lam, m))
    R = [None] * (n * n)
    assert _count(py._soagen_ltdl_inverse, W, *paths, n, R) == _without_zero_work(inverse_ops(lam))
    assert np.allclose(np.array([r.v for r in R]).reshape(n, n), np.linalg.inv(M), rtol=1e-10, atol=1e-12)


def test_auto_keeps_the_unrolled_code_of_an_arm():
    robot = soagen.load("arm7")
    res = render(robot, None, algorithms=LOOPED, langs=("c",), prefix="p")
    assert {f.manifest["style"] for f in res.functions} == {"unrolled"}, [f.manifest for f in res.functions]
    for f in res.functions:
        assert f.manifest["code_bytes_estimate"] > 0
    looped = render(robot, None, algorithms=LOOPED, langs=("c",), prefix="p", style="looped")
    assert "--style looped" in looped.header.command
    assert "soagen_ltdl" in looped.files["p.c"] and "soagen_ltdl" not in res.files["p.c"]


def test_a_function_without_the_factorization_stays_unrolled():
    robot = soagen.load("puma560")
    res = render(robot, None, algorithms=["inverse_dynamics", "mass_matrix"], langs=("c",), prefix="p",
                 style="looped")
    assert {f.manifest["style"] for f in res.functions} == {"unrolled"}
    assert "soagen_ltdl" not in res.files["p.c"]


@pytest.mark.cc
def test_the_batch_c_of_a_looped_function(tree, tmp_path):
    res = render(tree, None, algorithms=["forward_dynamics"], langs=("c",), prefix="p", batch=True, style="looped")
    write(res, tmp_path)
    lib = load_c(tmp_path, "p", res.manifest)
    states = _states(tree, 5, 3)
    q, qd, tau = (np.array([s[k] for s in states]) for k in range(3))
    got = lib.batch("forward_dynamics", q, qd, tau)
    for k in range(5):
        assert rel_err(got[k], A.forward_dynamics(tree, q[k], qd[k], tau[k])) < 1e-12


def test_style_on_the_command_line(tmp_path):
    out = CliRunner().invoke(cli, ["generate", "puma560", "--lang", "c", "--algorithms", "inverse_mass_matrix",
                                   "--style", "looped", "--out", str(tmp_path), "-q"])
    assert out.exit_code == 0, out.output
    assert "[ldl, looped]" in out.output
    bad = CliRunner().invoke(cli, ["generate", "puma560", "--style", "rolled", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "rolled" in bad.output
