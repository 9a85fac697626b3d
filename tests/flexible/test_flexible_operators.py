"""Section 4 of the framework paper, evaluated literally as dense operators
(soagen.operators.flexible), against the O(N) recursions on the extended blocks.

Random serial chains N = 1..10 mix rigid and flexible links (modal data with random mass
points, 1-4 modes, random mode shapes with rotations, random foreshortening), revolute
and prismatic joints with random axes. The dense form uses only link poses and node
kinematics; the recursions never build M^f. Tolerance 1e-10 relative (issue 18): the
matrices are well conditioned (smallest eigenvalue of M^f above 1e-2 of its largest in
these draws) and both sides are double-precision sums of a few hundred products."""

from pathlib import Path

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.loaders.random_robots import random_flexible_chain
from soagen.operators.flexible import (
    flexible_chain_operators,
    link_velocities,
    nodal_velocities,
)
from tests.support.accuracy import rel_err

TOL = 1e-10
CHAINS = [(n, stiff, seed) for n in range(1, 11) for stiff, seed in ((False, 10 + n), (True, 30 + n))]


def _chain(n, stiffening, seed):
    rng = np.random.default_rng(seed)
    robot = random_flexible_chain(n, rng, stiffening=stiffening, flexible=0.6)
    return robot, rng


def test_random_chains_mix_rigid_and_flexible_links():
    mods = [b.m for n, s, seed in CHAINS for b in _chain(n, s, seed)[0].bodies]
    assert 0 in mods and set(range(1, 5)) <= set(mods)


@pytest.mark.parametrize("n,stiffening,seed", CHAINS)
def test_mass_matrix_and_forward_dynamics_match_the_operator_form(n, stiffening, seed):
    """M^f = (HB; h)[I + C phi B] m [I + C phi B]^*(HB; h)^* against the composite-body
    recursion, and qdd = (M^f)^-1 (tau - C) against FD1-FD4 and M^-1 (4.16)."""
    robot, rng = _chain(n, stiffening, seed)
    q, qd, tau = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    ops = flexible_chain_operators(robot, q)
    Mf = ops.Mf
    assert rel_err(Mf, Mf.T) < 1e-14 and np.linalg.eigvalsh(Mf)[0] > 0
    assert rel_err(A.mass_matrix(robot, q), Mf) < TOL
    want = np.linalg.solve(Mf, tau - A.bias_forces(robot, q, qd))
    for method in A.FD_METHODS:
        assert rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), want) < TOL, method
    assert rel_err(A.inverse_mass_matrix(robot, q), np.linalg.inv(Mf)) < TOL


@pytest.mark.parametrize("n,stiffening,seed", CHAINS[::3])
def test_section4_identities(n, stiffening, seed):
    """B_k C_k = phi(k, k-1), hence B C = E_phi, B C phi = phi - I, B [I + C phi B] = phi B."""
    robot, rng = _chain(n, stiffening, seed)
    o = flexible_chain_operators(robot, robot.random_configuration(rng))
    I6N, In = np.eye(6 * n), np.eye(o.B.shape[1])
    assert rel_err(o.B @ o.C, o.E_phi) < 1e-14 if n > 1 else np.abs(o.B @ o.C).max() == 0
    assert np.abs(o.B @ o.C @ o.phi - (o.phi - I6N)).max() < 1e-12
    assert rel_err(o.B @ (In + o.C @ o.phi @ o.B), o.phi @ o.B) < 1e-12


@pytest.mark.parametrize("n,stiffening,seed", CHAINS[1::4])
def test_velocities_4_1_and_4_3(n, stiffening, seed):
    """V = phi^*[H^* beta + C^* h^* u] (4.1) against the recursion's link velocities; the
    nodal velocities V^f of (4.3) against central differences of the nodes' positions
    along the motion (the kinematics of the attachments, the Cayley rotations and the
    foreshortening, without the recursions)."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import world_poses
    from soagen.dynamics.sweeps import prepare

    robot, rng = _chain(n, stiffening, seed)
    q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
    o = flexible_chain_operators(robot, q)
    s = prepare(robot, q, qd, NUMPY)
    poses = world_poses(robot, s.X)
    want = np.concatenate([np.concatenate([poses[n - k][0] @ s.V[n - k][:3], poses[n - k][0] @ s.V[n - k][3:6]])
                           for k in range(1, n + 1)])
    assert rel_err(link_velocities(o, robot, qd), want) < 1e-12
    h = 1e-6
    plus, minus = flexible_chain_operators(robot, q + h * qd), flexible_chain_operators(robot, q - h * qd)
    Vf = nodal_velocities(o, robot, qd).reshape(-1, 6)
    fd = np.array([(p - m) / (2 * h) for k in range(n) for p, m in zip(plus.nodes[k], minus.nodes[k])])
    assert rel_err(Vf[:, 3:], fd) < 1e-7          # central differences: h^2 ~ 1e-12 of the O(1) curvature


def test_flexible_link_without_deformation_is_the_rigid_body():
    """At eta = 0 the hinge block of M^f equals the mass matrix of the rigid robot with the
    same total link inertias (issue 18), on the bundled two-link arm and the URDF arm."""
    import soagen
    from soagen.loaders.flexible import rigid_robot

    for name in ("flexarm2", "arm3_flexlink"):
        robot = soagen.load(name)
        rigid = rigid_robot(robot)
        hinge = [b.v_index + j for b in robot.bodies for j in range(b.joint.nv)]
        rng = np.random.default_rng(4)
        for _ in range(3):
            qr = rigid.random_configuration(rng)
            q = np.zeros(robot.nq)
            q[hinge] = qr
            assert rel_err(A.mass_matrix(robot, q)[np.ix_(hinge, hinge)], A.mass_matrix(rigid, qr)) < 1e-12
            assert rel_err(flexible_chain_operators(robot, q).Mf[np.ix_(hinge, hinge)],
                           A.mass_matrix(rigid, qr)) < 1e-12


def test_mass_points_reproduce_the_nodal_fe_form_at_zero_deformation():
    """Section 4 with the FE model's own nodes and consistent mass matrix m_k:
    [B_k; h_k] m_k [B_k^*, h_k^*] with B_k = [phi(O_k, Q_k(j))] and h_k^* the mode shapes at
    the nodes equals the body's extended inertia Mhat(0) from its Gauss points, for a 3D
    beam (bending both ways, torsion, axial): the rigid fields and the
    modes are exactly those of the element's shape functions."""
    from soagen.loaders.beam import Beam, BeamFE
    from soagen.loaders.flexible import beam_robot
    from soagen.operators.chain import shift

    b = Beam(length=0.8, EA=2e5, EIy=30.0, EIz=20.0, GJ=10.0, rhoA=1.3, rhoJ=0.02)
    fe = BeamFE(b, 4)
    omega, X, _ = fe.clamped_modes(b.families())
    X = X[:, :5]
    # FE dofs per node (u, v, w, theta1, theta2, theta3), beam frame = body frame here;
    # spatial velocities are (angular, linear): permute each node's 6 dofs
    P = np.zeros((6, 6))
    P[:3, 3:], P[3:, :3] = np.eye(3), np.eye(3)
    nodes = len(fe.x)
    Pall = np.kron(np.eye(nodes), P)
    m = Pall @ fe.M @ Pall.T                                  # nodal mass in (angular, linear) order
    B = np.hstack([shift(np.array([x, 0.0, 0.0])) for x in fe.x])     # phi(O_k, Q_k(j))
    hT = Pall @ X                                              # h_k^*: nodal velocities per eta_dot
    A = np.vstack([B, hT.T])
    want = A @ m @ A.T
    for stiffening in (False, True):                          # the foreshortening is second order
        robot = beam_robot(b, modes=5, elements=4, stiffening=stiffening)
        assert rel_err(robot.bodies[0].flex.M0, want) < 1e-12


@pytest.mark.parametrize("n,stiffening,seed", CHAINS[2::4])
def test_the_proofs_instances_build_the_same_B_and_C(n, stiffening, seed):
    """The all-N engine proves the Section 4 records on instances built from the paper's
    definitions (soagen.symbolic.models.nodes); those definitions, given this chain's node
    offsets, reproduce the B and C of the dense operator form block by block: the
    proved statements are about the operators the recursions are tested against."""
    from soagen.dynamics.kinematics import link_transforms, world_poses
    from soagen.symbolic.models import nodes
    from soagen.symbolic.models.instances import Reals

    robot, rng = _chain(n, stiffening, seed)
    q = robot.random_configuration(rng)
    ops = flexible_chain_operators(robot, q)
    poses = world_poses(robot, link_transforms(robot, q, A.NUMPY))
    origin = {k: poses[n - k][1] for k in range(1, n + 1)}             # paper k: link 1 = the tip
    ar = Reals(rng)
    offsets = {k: [p - origin[k] for p in ops.nodes[k - 1]] for k in range(1, n + 1)}
    B = np.zeros_like(ops.B)
    C = np.zeros_like(ops.C)
    col = 0
    for k in range(1, n + 1):
        Bk = nodes.B_block(ar, offsets[k])
        B[6 * (k - 1):6 * k, col:col + Bk.shape[1]] = Bk
        if k > 1:                                     # link k-1 hangs from node 1 of link k (4.2)
            phi_kc = nodes.shift(ar, origin[k - 1] - origin[k])
            C[col:col + Bk.shape[1], 6 * (k - 2):6 * (k - 1)] = nodes.C_block(ar, offsets[k], 1, phi_kc)
        col += Bk.shape[1]
    assert col == ops.B.shape[1]
    assert rel_err(B, ops.B) < 1e-14
    assert rel_err(C, ops.C) < 1e-14


@pytest.mark.parametrize("seed", range(3))
def test_a_tree_of_rigid_and_flexible_bodies(seed):
    """Branching at a rigid hub (a flexible and a rigid child) and on a flexible body's
    nodes (a revolute and a prismatic child): the composite-body M (all-rigid subtrees by
    their 10 parameters, the others by phihat blocks) is the inverse of the innovations
    M^-1 (4.16), which never forms composite inertias; FD1-FD4 and the dense route invert
    inverse dynamics."""
    import soagen

    robot = soagen.load(Path(__file__).parent / "data" / "flextree.yaml")
    rng = np.random.default_rng(seed)
    q, qd, tau = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    M = A.mass_matrix(robot, q)
    assert not robot.is_chain and rel_err(M, M.T) == 0 and np.linalg.eigvalsh(M)[0] > 0
    assert rel_err(np.linalg.inv(A.inverse_mass_matrix(robot, q)), M) < TOL
    for method in A.FD_METHODS:
        qdd = A.forward_dynamics(robot, q, qd, tau, method=method)
        assert rel_err(A.inverse_dynamics(robot, q, qd, qdd), tau) < TOL, method
