"""Dense tree operators (framework paper (2.7)-(2.14), (3.1)-(3.12)) against the O(N) tree
recursions of soagen.dynamics, on random trees with multi-dof joints."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders.random_robots import random_chain
from soagen.operators.chain import chain_operators
from soagen.operators.tree import tree_operators
from tests.support.accuracy import rel_err

TREE = [-1, 0, 1, 1, 3, -1, 5, 2, 2, 6]
MULTI = ("revolute", "prismatic", "spherical")


def make(seed, parents=TREE, types=MULTI + ("free",)):
    rng = np.random.default_rng(seed)
    robot = random_chain(len(parents), rng, joint_types=types, parents=parents)
    q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
    return robot, q, qd, rng


def blk(A_, k, m):
    return A_[6 * (k - 1):6 * k, 6 * (m - 1):6 * m]


TOL = 1e-12
"""Dense operator products (O(N^3), inverses of (I - E_phi) and of D) against the O(N)
recursions on 10-body trees with free and spherical joints: round-off, measured <= 7e-14
(a wrong term or index gives 1e-2 and more)."""


def test_branches_and_connectivity():
    """Branches are maximal serial runs, numbered outboard first; iota is the inboard one."""
    robot, q, *_ = make(0)
    T = tree_operators(robot, q)
    assert sorted(k for br in T.branches for k in br) == list(range(1, T.n + 1))
    for j, br in enumerate(T.branches, start=1):
        assert all(T.parent[k] == k2 for k, k2 in zip(br, br[1:]))         # serial run
        i = T.iota[j]
        assert (i is None) == (T.parent[br[-1]] == T.n + 1)
        if i is not None:
            assert i > j and T.parent[br[-1]] == T.branches[i - 1][0]      # attaches at 1_i


def test_E_phi_has_the_branch_structure_of_2_7():
    """E_phi(j, k) = E_phi_j on the diagonal; for j = iota(k) one block phi(1_j, n_k) in
    the top-right corner; zero otherwise; strictly lower triangular, nilpotent (2.9)."""
    robot, q, *_ = make(1)
    T = tree_operators(robot, q)
    rebuilt = np.zeros_like(T.E_phi)
    for j, br in enumerate(T.branches, start=1):
        for a, b in zip(br[1:], br):                       # within the branch: phi(k+1, k)
            rebuilt[6 * (a - 1):6 * a, 6 * (b - 1):6 * b] = blk(T.E_phi, a, b)
        if T.iota[j] is not None:
            first = T.branches[T.iota[j] - 1][0]            # 1_iota(j)
            rebuilt[6 * (first - 1):6 * first, 6 * (br[-1] - 1):6 * br[-1]] = blk(T.E_phi, first, br[-1])
    assert np.array_equal(rebuilt, T.E_phi)
    assert not np.triu(T.E_phi).any()                                  # structural zeros, exact
    assert not np.linalg.matrix_power(T.E_phi, T.n).any()


@pytest.mark.parametrize("seed", range(3))
def test_operator_expressions_equal_the_tree_recursions(seed):
    robot, q, qd, rng = make(seed)
    T = tree_operators(robot, q, qd)
    Pi, I = T.Pi, np.eye(robot.nv)
    M = T.H @ T.phi @ T.M @ T.phi.T @ T.H.T                                   # (2.11)
    assert rel_err(Pi.T @ M @ Pi, A.mass_matrix(robot, q)) < TOL
    C = T.H @ T.phi @ (T.M @ T.phi.T @ (T.a + T.E @ T.g) + T.b)                # (2.11), a + E g
    assert rel_err(Pi.T @ C, A.bias_forces(robot, q, qd)) < TOL
    assert rel_err(T.M, T.P - T.E_phi @ (T.P - T.P @ T.H.T @ T.Dinv @ T.H @ T.P) @ T.E_phi.T) < TOL  # (3.1)
    X, Y = I + T.H @ T.phi @ T.K, I - T.H @ T.psi @ T.K
    assert rel_err(X @ T.D @ X.T, M) < TOL                                             # Lemma 1 (3.4)
    assert rel_err(Y @ X, I) < TOL                                                     # Lemma 2 (3.5)
    assert rel_err(Pi.T @ Y.T @ T.Dinv @ Y @ Pi, A.inverse_mass_matrix(robot, q)) < TOL  # Lemma 3 (3.6)
    assert rel_err(Y @ T.H @ T.phi, T.H @ T.psi) < TOL                                 # Lemma 4 (3.9)
    tau = rng.normal(size=robot.nv)
    assert rel_err(Pi.T @ Y.T @ T.Dinv @ Y @ Pi @ (tau - Pi.T @ C),
                   A.forward_dynamics(robot, q, qd, tau)) < TOL                # (3.7), (A.2)


def test_jacobians_and_multi_frame_inverse_inertia():
    """J = B^T phi^T H^T (2.14) for several frames; Lambda = B^T Omega B (3.10) by the
    tree Upsilon recursion equals J M^-1 J^T."""
    robot, q, qd, rng = make(4)
    frames = [f for f in robot.frames if f.body >= 0]
    T = tree_operators(robot, q, frames=frames)
    J = np.vstack([A.jacobian(robot, q, frame=f) for f in frames])
    assert rel_err(T.B.T @ T.phi.T @ T.H.T @ T.Pi, J) < TOL
    Omega = T.psi.T @ T.H.T @ T.Dinv @ T.H @ T.psi
    Lam = A.inverse_inertia_at_frames(robot, q, frames)
    assert rel_err(Lam, T.B.T @ Omega @ T.B) < TOL
    assert rel_err(Lam, J @ A.inverse_mass_matrix(robot, q) @ J.T) < TOL
    f = rng.normal(size=J.shape[0])
    beta_delta = -T.Pi.T @ (np.eye(robot.nv) - T.H @ T.psi @ T.K).T @ T.Dinv @ T.H @ T.psi @ T.B @ f
    assert rel_err(A.frame_force_correction(robot, q, frames, f), beta_delta) < TOL    # (3.12), (A.6)


def _lemma5_residual(T):
    Omega = T.psi.T @ T.H.T @ T.Dinv @ T.H @ T.psi
    Ups = np.zeros_like(Omega)
    for k in range(1, T.n + 1):
        s = slice(6 * (k - 1), 6 * k)
        Ups[s, s] = Omega[s, s]
    pt = T.psi - np.eye(6 * T.n)
    return np.abs(Ups + pt.T @ Ups + Ups @ pt - Omega).max() / np.abs(Omega).max()


def test_lemma5_holds_on_chains_and_fails_on_branching_trees():
    """Lemma 5 (A.4) Omega = Upsilon + psi~^T Upsilon + Upsilon psi~ holds on a serial chain
    and fails on a branching tree without 6-dof joints (siblings couple through their common
    ancestor: Omega(k, m) = psi^T(c, k) Upsilon(c) psi(c, m)); see the misprints doc."""
    robot, q, *_ = make(5, parents=[-1, 0, 1, 2, 3], types=MULTI)
    assert _lemma5_residual(tree_operators(robot, q)) < 1e-12
    robot, q, *_ = make(5, types=MULTI)
    T = tree_operators(robot, q)
    assert _lemma5_residual(T) > 1e-3
    Omega = T.psi.T @ T.H.T @ T.Dinv @ T.H @ T.psi
    for k in range(1, T.n + 1):                   # the tree form, for every pair
        for m in range(1, T.n + 1):
            anc = lambda x: [x] + (anc(T.parent[x]) if T.parent[x] <= T.n else [])
            common = [c for c in anc(k) if c in anc(m)]
            if not common:
                assert np.abs(blk(Omega, k, m)).max() < TOL * np.abs(Omega).max()
                continue
            c = common[0]
            assert rel_err(blk(Omega, k, m), blk(T.psi, c, k).T @ blk(Omega, c, c) @ blk(T.psi, c, m)) < TOL


def test_serial_chain_reproduces_part_one():
    """On a serial chain the tree operators are Part I's chain operators, and the tree
    recursions give Part I's operator expressions (M (3.20), M^-1 (4.16), FD (4.17)-(4.22))."""
    robot, q, qd, rng = make(6, parents=[-1, 0, 1, 2, 3, 4], types=MULTI)
    T, Cn = tree_operators(robot, q, qd), chain_operators(robot, q, qd)
    assert len(T.branches) == 1 and T.iota == {1: None}
    for name in ("phi", "psi", "H", "M", "P", "D", "G", "V", "a", "b", "Pi"):
        assert rel_err(getattr(T, name), getattr(Cn, name)) < TOL, name        # two builds of the same operators
    assert rel_err(T.E_phi, np.eye(6 * T.n) - np.linalg.inv(Cn.phi)) < TOL    # (2.4)
    Minv = Cn.Pi.T @ (np.eye(robot.nv) - Cn.H @ Cn.Psi @ Cn.L).T @ Cn.Dinv \
        @ (np.eye(robot.nv) - Cn.H @ Cn.Psi @ Cn.L) @ Cn.Pi                  # (4.16)
    assert rel_err(A.inverse_mass_matrix(robot, q), Minv) < TOL
    flat = dataclasses.replace(robot, gravity=np.zeros(3))
    tau = rng.normal(size=robot.nv)
    Cb = Cn.H @ Cn.phi @ (Cn.M @ Cn.phi.T @ Cn.a + Cn.b)
    assert rel_err(A.forward_dynamics(flat, q, qd, tau), Minv @ (tau - Cn.Pi.T @ Cb)) < TOL


def _sqrt_inv(Dm):
    w, U = np.linalg.eigh(Dm)
    return U @ np.diag(w ** -0.5) @ U.T


def test_closed_topology_forward_dynamics_3_13_and_alpha_hat():
    """(3.13) with b = D^-1/2 H psi B A^T (printed: b = H psi B A^T) equals
    M^-1 T - M^-1 J^T A^T (A Lambda A^T)^-1 A J M^-1 T (U = 0); and the intermediate of
    (A.2) is alpha_hat^f = psi^T H^T D^-1 [I - H psi K] T (the bullet before (A.2) drops H^T)."""
    robot, q, qd, rng = make(7, types=MULTI)
    frames = [f for f in robot.frames if f.body >= 0][:3]
    T = tree_operators(robot, q, frames=frames)
    I = np.eye(robot.nv)
    Y = I - T.H @ T.psi @ T.K
    Minv = Y.T @ T.Dinv @ Y
    J = T.B.T @ T.phi.T @ T.H.T
    Lam = J @ Minv @ J.T
    A_ = rng.normal(size=(5, J.shape[0]))
    tau = rng.normal(size=robot.nv)
    exact = Minv @ tau - Minv @ J.T @ A_.T @ np.linalg.solve(A_ @ Lam @ A_.T, A_ @ J @ Minv @ tau)
    Dh = _sqrt_inv(T.D)
    for b, ok in ((Dh @ T.H @ T.psi @ T.B @ A_.T, True), (T.H @ T.psi @ T.B @ A_.T, False)):
        mid = I - b @ np.linalg.solve(A_ @ Lam @ A_.T, b.T)
        assert (rel_err(Y.T @ Dh @ mid @ Dh @ Y @ tau, exact) < 1e-8) == ok
    alpha = T.phi.T @ T.H.T @ Minv @ tau                                    # (3.8)
    assert rel_err(T.psi.T @ T.H.T @ T.Dinv @ Y @ tau, alpha) < TOL
