"""The dense route through the mass matrix (soagen/dynamics/ldl.py) and the 10-parameter
shift of spatial inertias (soagen/dynamics/inertia.py), against independent forms: the
6 x 6 congruence phi M phi^T written out, numpy's inverse and solve of the composite
mass matrix, and the papers' O(N) recursions (innovations (4.16), FD1, the Upsilon
recursion of J M^-1 J^T). (Pinocchio checks method="ldl" of forward dynamics with the
other FD methods in tests/test_pinocchio_oracle.py.)"""

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.backend import NUMPY
from soagen.dynamics.inertia import inertia_parameters, phi_inertia
from soagen.dynamics.ldl import ltdl, ltdl_multiplications
from soagen.dynamics.sweeps import prepare
from soagen.errors import SingularMassMatrixError
from soagen.loaders.random_robots import random_chain, random_rotation
from soagen.spatial import force_cross_matrix, phi_matrix, spatial_inertia
from tests.support.accuracy import rel_err

# A free base, a branching tree with every joint kind, and a chain.
TREES = {
    "free-tree": ([-1, 0, 1, 0, 3, 3, 5], ["free", "revolute", "prismatic", "revolute", "spherical",
                                           "revolute", "prismatic"]),
    "fixed-tree": ([-1, 0, 0, 1, 2, 2], None),
    "chain": (None, None),
}
TOL = 1e-12   # inverses of well-conditioned random robots: observed below 1e-14


def _robot(name, seed=0):
    parents, kinds = TREES[name]
    rng = np.random.default_rng(seed)
    n = len(parents) if parents else 6
    return random_chain(n, rng, parents=parents, kinds=kinds), rng


@pytest.mark.parametrize("seed", range(5))
def test_phi_inertia_is_the_congruence(seed):
    """The 10-parameter shift equals [[R, l~ R], [0, R]] M [..]^T for a rigid-body inertia
    and for its rate (V x* M - M V x, whose m is 0)."""
    rng = np.random.default_rng(seed)
    R, l = random_rotation(rng), rng.normal(size=3)
    A_ = rng.normal(size=(3, 3))
    M = spatial_inertia(rng.uniform(0.1, 5), rng.normal(size=3), A_ @ A_.T + np.eye(3))
    XM = force_cross_matrix(rng.normal(size=6)) @ M
    phi = phi_matrix(R, l)
    for X in (M, XM + XM.T):
        assert rel_err(phi_inertia(R, l, X), phi @ X @ phi.T) < 1e-14
    m, h, I_O = inertia_parameters(XM + XM.T)
    assert m == 0.0 and np.allclose(I_O, (XM + XM.T)[:3, :3])


@pytest.mark.parametrize("name", TREES)
def test_ltdl_reconstructs_M_without_fill_in(name):
    """M = L^T D L, L unit lower triangular, with L(k, i) = 0 wherever M(k, i) is zero for
    every configuration (no common path to the base: the tree's sparsity is kept)."""
    robot, rng = _robot(name)
    q = robot.random_configuration(rng)
    M = A.mass_matrix(robot, q)
    L, dinv = ltdl(robot, M, NUMPY)
    assert np.allclose(np.diag(L), 1) and np.all(np.triu(L, 1) == 0)
    assert rel_err(L.T @ np.diag(1 / dinv) @ L, M) < TOL
    coupled = np.zeros((robot.nv, robot.nv), dtype=bool)
    for i, b in enumerate(robot.bodies):
        k = i
        while k >= 0:                                   # body i and its ancestors couple
            coupled[robot.v_slice(i), robot.v_slice(k)] = True
            k = robot.bodies[k].parent
    assert np.all(L[~coupled] == 0)
    if name == "fixed-tree":
        assert not coupled.all()                        # the test has zeros to keep


class _Counted:
    """A nonzero scalar whose products are counted (a product with an exact 0 or 1 folds)."""

    products = 0

    def __mul__(self, other):
        if isinstance(other, np.ndarray):
            return NotImplemented                       # numpy multiplies element by element
        if isinstance(other, int) and other in (0, 1):
            return other * 0 if other == 0 else self
        _Counted.products += 1
        return _Counted()

    __rmul__ = __mul__

    def __sub__(self, other):
        return _Counted()

    __rsub__ = __truediv__ = __rtruediv__ = __sub__


class _CountingBackend:
    dtype = object

    def name(self, x, *args, **kwargs):
        return x

    def eye(self, n):
        return np.eye(n, dtype=int).astype(object)

    def zeros(self, shape):
        return np.zeros(shape, dtype=int).astype(object)


@pytest.mark.parametrize("name", TREES)
def test_ltdl_multiplications_counts_the_factorization(name):
    """The estimate that decides whether the code generator unrolls the dense route equals
    the products ltdl forms on a mass matrix with a nonzero entry wherever the tree couples
    two coordinates (counted by a scalar type, not by the formula)."""
    robot, _ = _robot(name)
    M = np.zeros((robot.nv, robot.nv), dtype=int).astype(object)
    for i in range(robot.nb):
        k = i
        while k >= 0:
            for a in range(robot.bodies[i].v_index, robot.bodies[i].v_index + robot.bodies[i].nv):
                for b in range(robot.bodies[k].v_index, robot.bodies[k].v_index + robot.bodies[k].nv):
                    M[a, b] = M[b, a] = _Counted()
            k = robot.bodies[k].parent
    _Counted.products = 0
    ltdl(robot, M, _CountingBackend())
    assert _Counted.products == ltdl_multiplications(robot) > 0


def test_the_generator_skips_the_dense_route_of_a_long_chain():
    """Unrolled, the dense route costs O(n^3) on a chain: for 12 flexible links with 2
    modes each (n = 36) its factorization alone outweighs the O(N) forward dynamics, so
    it is not unrolled (and the manifest says so); for 6 rigid links it is unrolled and
    kept."""
    from soagen.codegen.functions import generate_function
    from soagen.loaders.beam import Beam
    from soagen.loaders.flexible import beam_robot

    long = beam_robot([Beam(length=1.0, EIz=9.45, rhoA=0.471)] * 12, modes=2, shapes=("y",))
    fn = generate_function(long, "forward_dynamics")
    assert "ldl" in fn.manifest["skipped"] and "ldl" not in fn.manifest["candidates"]
    assert fn.manifest["variant"] in ("fd1", "fd3", "fd4")
    short = generate_function(_robot("chain")[0], "forward_dynamics")
    assert "skipped" not in short.manifest and "ldl" in short.manifest["candidates"]


@pytest.mark.parametrize("name", TREES)
def test_ldl_methods_against_the_recursions_and_numpy(name):
    robot, rng = _robot(name, seed=3)
    for _ in range(3):
        q = robot.random_configuration(rng)
        qd, tau = rng.normal(size=robot.nv), rng.normal(size=robot.nv)
        M = A.mass_matrix(robot, q)
        Minv = A.inverse_mass_matrix(robot, q, method="ldl")
        assert rel_err(Minv, np.linalg.inv(M)) < TOL
        assert rel_err(Minv, A.inverse_mass_matrix(robot, q)) < TOL                     # (4.16)
        qdd = A.forward_dynamics(robot, q, qd, tau, method="ldl")
        assert rel_err(qdd, np.linalg.solve(M, tau - A.bias_forces(robot, q, qd))) < TOL
        assert rel_err(qdd, A.forward_dynamics(robot, q, qd, tau, method="fd1")) < TOL
        frames = [f for f in robot.frames if f.body >= 0][-3:]
        assert rel_err(A.inverse_inertia_at_frames(robot, q, frames, method="ldl"),
                       A.inverse_inertia_at_frames(robot, q, frames)) < TOL
        dense = [A.forward_dynamics_derivatives(robot, q, qd, tau, method=m) for m in ("ldl", "innovations")]
        for a, b in zip(*dense):
            assert rel_err(a, b) < 1e-10          # derivatives: larger terms, same bound as elsewhere


def test_ldl_refuses_a_singular_mass_matrix():
    """A massless leaf on a revolute joint: the pivot of its coordinate is zero, refused
    by name (not inf or NaN)."""
    robot, rng = _robot("chain", seed=1)
    from dataclasses import replace

    last = robot.bodies[-1]
    massless = replace(robot, bodies=robot.bodies[:-1] + (replace(last, mass=0.0, inertia=np.zeros((3, 3))),))
    s = prepare(massless, massless.random_configuration(rng), np.zeros(massless.nv), NUMPY, gravity=False)
    from soagen.dynamics.mass_matrix import mass_matrix

    with pytest.raises(SingularMassMatrixError, match=repr(last.joint_name)):
        ltdl(massless, mass_matrix(s), NUMPY)


def test_unknown_method_is_one_line():
    robot, rng = _robot("chain")
    with pytest.raises(Exception, match="unknown inverse mass matrix method 'lu'"):
        A.inverse_mass_matrix(robot, robot.random_configuration(rng), method="lu")
