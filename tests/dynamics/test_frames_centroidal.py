"""Frames and centroidal quantities (soagen.dynamics.frames, soagen.dynamics.centroidal)
by routes that share no code with them:

* the dense tree operators of the framework paper (world frame about the joint origins,
  O(N^3)): V_f = B^T phi^T H^T qd, alpha_f = B^T phi^T (H^T qdd + a) + a(0),
  h_O = E^T phi M phi^T H^T qd, the robot's inertia E^T phi M phi^T E, and the rate
  E^T phi (M phi^T a + b), on random trees with free, spherical, revolute and prismatic
  joints;
* the frame Jacobians (J qd, J qdd + Jdot qd), flexible bodies' node frames included;
* time derivatives by central differences along a motion;
* the same code on SymPy symbols (it unrolls).

The Pinocchio oracle on real robots is tests/trees/test_pinocchio_frames_centroidal.py."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

import soagen
from soagen import algorithms as A
from soagen.backend import SYMPY
from soagen.errors import SoagenError
from soagen.loaders.random_robots import random_chain, random_flexible_chain
from soagen.model import Frame
from soagen.operators.chain import shift
from soagen.operators.tree import tree_operators
from soagen.quaternion import integrate
from soagen.spatial import cross, parallel_axis
from tests.support.accuracy import rel_err

TREE = [-1, 0, 1, 1, 3, -1, 5, 2, 2, 6]
TYPES = ("revolute", "prismatic", "spherical", "free")
TOL = 1e-12


def make(seed, parents=TREE, types=TYPES):
    rng = np.random.default_rng(seed)
    robot = random_chain(len(parents), rng, joint_types=types, parents=parents)
    return robot, robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv), rng


def frames_on(robot, rng, n=6):
    """Frames at random points of random bodies, with random rotations (which must not
    matter: world-aligned results)."""
    out = []
    for j in range(n):
        b = int(rng.integers(robot.nb))
        Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        out.append(Frame(f"f{j}", b, Q, rng.normal(size=3)))
    return out


def paper_index(T, body):
    """The paper's link number k of body ``body`` (tip = 1 .. base = n)."""
    return T.n - body


@pytest.mark.parametrize("seed", range(3))
def test_frames_against_the_dense_operators(seed):
    robot, q, qd, qdd, rng = make(seed)
    frames = frames_on(robot, rng)
    T = tree_operators(robot, q, qd, frames)
    V = T.B.T @ T.phi.T @ T.H.T @ T.Pi @ qd                                     # J qd (2.14)
    alpha = T.phi.T @ (T.H.T @ T.Pi @ qdd + T.a)                                # (3.15), no gravity
    got_T = A.frame_placements(robot, q, frames)
    got_V = A.frame_velocities(robot, q, qd, frames)
    got_A = A.frame_accelerations(robot, q, qd, qdd, frames)
    for c, f in enumerate(frames):
        k = paper_index(T, f.body)
        p = got_T[f.name][:3, 3]
        w = V[6 * c:6 * c + 3]                                                     # the body's omega
        r = p - origin(robot, q, f.body)                                            # l(k, f), world
        want_A = shift(r).T @ alpha[6 * (k - 1):6 * k]                              # B^T alpha
        want_A[3:] += cross(w, cross(w, r))                                         # + a(0) (2.27)
        assert rel_err(got_V[f.name], V[6 * c:6 * c + 6]) < TOL
        assert rel_err(got_A[f.name], want_A) < TOL
        assert np.allclose(got_T[f.name][3], [0, 0, 0, 1])
        R = got_T[f.name][:3, :3]
        assert rel_err(R.T @ R, np.eye(3)) < TOL


def origin(robot, q, body):
    """O(k) in the world, from the dense model's own world poses."""
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import link_transforms, world_poses

    return world_poses(robot, link_transforms(robot, q, NUMPY))[body][1]


def centroidal_dense(robot, q, qd):
    """(c, A_G, A_G-dot qd) from the dense operators: h_O = E^T phi M phi^T H^T qd, the
    robot's inertia E^T phi M phi^T E about the world origin, and the momentum rate at
    qdd = 0 without gravity, E^T phi (M phi^T a + b) (3.17)."""
    T = tree_operators(robot, q, qd)
    A_O = T.E.T @ T.phi @ T.M @ T.phi.T @ T.H.T @ T.Pi
    I_O = T.E.T @ T.phi @ T.M @ T.phi.T @ T.E
    m = I_O[3, 3]
    c = np.array([I_O[2, 4], I_O[0, 5], I_O[1, 3]]) / m
    rate = T.E.T @ T.phi @ (T.M @ T.phi.T @ T.a + T.b)
    G = shift(-c)                                                              # phi(G, O)
    return c, G @ A_O, G @ rate, m


@pytest.mark.parametrize("seed", range(4))
def test_centroidal_against_the_dense_operators(seed):
    robot, q, qd, _, _ = make(seed)
    c, A_G, bias, m = centroidal_dense(robot, q, qd)
    assert rel_err(A.center_of_mass(robot, q), c) < TOL
    assert rel_err(A.centroidal_momentum_matrix(robot, q), A_G) < TOL
    assert rel_err(A.com_jacobian(robot, q), A_G[3:] / m) < TOL
    assert rel_err(A.centroidal_bias(robot, q, qd), bias) < TOL


def test_centre_of_mass_is_the_mass_weighted_mean():
    """c = sum m_i p_i / sum m_i with p_i the bodies' centres of mass in the world."""
    robot, q, *_ = make(5)
    T = A.frame_placements(robot, q, [Frame(b.name, i, np.eye(3), b.com) for i, b in enumerate(robot.bodies)])
    p = np.array([T[b.name][:3, 3] for b in robot.bodies])
    m = np.array([b.mass for b in robot.bodies])
    assert rel_err(A.center_of_mass(robot, q), m @ p / m.sum()) < TOL


def test_centroidal_momentum_by_bodies():
    """h_G = sum over bodies of (I_i w_i + (p_i - c) x m_i v_i, m_i v_i), each body at its
    own centre of mass (velocities from frame_velocities there)."""
    robot, q, qd, _, _ = make(6)
    frames = [Frame(b.name, i, np.eye(3), b.com) for i, b in enumerate(robot.bodies)]
    T, V = A.frame_placements(robot, q, frames), A.frame_velocities(robot, q, qd, frames)
    c = A.center_of_mass(robot, q)
    h = np.zeros(6)
    for b in robot.bodies:
        R, p, (w, v) = T[b.name][:3, :3], T[b.name][:3, 3], np.split(V[b.name], 2)
        h += np.concatenate([R @ b.inertia @ R.T @ w + cross(p - c, b.mass * v), b.mass * v])
    assert rel_err(A.centroidal_momentum_matrix(robot, q) @ qd, h) < TOL


def flow(robot, q, qd, qdd, t):
    """The configuration and velocity at time t of the motion with constant qdd."""
    return integrate(robot, q, t * qd + t * t / 2 * qdd), qd + t * qdd


def test_time_derivatives_by_central_differences():
    """d/dt of the frame positions is the linear velocity, d/dt of V_f the classical
    acceleration, d/dt (A_G qd) = A_G qdd + A_G-dot qd (the rate about the moving centre of
    mass), along a motion with constant joint accelerations (body-frame rates integrated on
    the manifold: Pinocchio's convention for free and spherical joints)."""
    robot, q, qd, qdd, rng = make(7)
    frames = frames_on(robot, rng)
    h = 1e-5
    (qp, vp), (qm, vm) = flow(robot, q, qd, qdd, h), flow(robot, q, qd, qdd, -h)
    Tp, Tm = A.frame_placements(robot, qp, frames), A.frame_placements(robot, qm, frames)
    Vp, Vm = A.frame_velocities(robot, qp, vp, frames), A.frame_velocities(robot, qm, vm, frames)
    V, Acc = A.frame_velocities(robot, q, qd, frames), A.frame_accelerations(robot, q, qd, qdd, frames)
    T0 = A.frame_placements(robot, q, frames)
    for f in frames:
        assert rel_err((Tp[f.name][:3, 3] - Tm[f.name][:3, 3]) / (2 * h), V[f.name][3:]) < 1e-8
        dR = (Tp[f.name][:3, :3] - Tm[f.name][:3, :3]) / (2 * h) @ T0[f.name][:3, :3].T   # w~
        assert rel_err(np.array([dR[2, 1], dR[0, 2], dR[1, 0]]), V[f.name][:3]) < 1e-8
        assert rel_err((Vp[f.name] - Vm[f.name]) / (2 * h), Acc[f.name]) < 1e-8
    hG = lambda x, v: A.centroidal_momentum_matrix(robot, x) @ v    # noqa: E731
    rate = (hG(qp, vp) - hG(qm, vm)) / (2 * h)
    want = A.centroidal_momentum_matrix(robot, q) @ qdd + A.centroidal_bias(robot, q, qd)
    assert rel_err(rate, want) < 1e-7
    c = lambda x: A.center_of_mass(robot, x)                        # noqa: E731
    assert rel_err((c(qp) - c(qm)) / (2 * h), A.com_jacobian(robot, q) @ qd) < 1e-8


def test_node_frames_of_flexible_bodies_against_their_jacobians():
    """On a flexible chain every frame sits on a node: V_f = J qd and alpha_f = J qdd +
    Jdot qd (the Jacobian's columns are built separately, from the modal influences)."""
    rng = np.random.default_rng(3)
    robot = random_flexible_chain(4, rng)
    q, qd, qdd = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    node = [A.node_frame(robot, i, n) for i, b in enumerate(robot.bodies) if b.flex is not None
            for n in range(len(b.flex.nodes.r0))]
    frames = list(robot.frames) + node
    V = A.frame_velocities(robot, q, qd, frames)
    Acc = A.frame_accelerations(robot, q, qd, qdd, frames)
    for f in frames:
        if f.body < 0:
            assert not V[f.name].any() and not Acc[f.name].any()
            continue
        J = A.jacobian(robot, q, frame=f)
        assert rel_err(V[f.name], J @ qd) < TOL
        assert rel_err(Acc[f.name], J @ qdd + A.jacobian_dot_qd(robot, q, qd, frame=f)) < TOL
    with pytest.raises(SoagenError, match="not available for flexible bodies"):
        A.centroidal_momentum_matrix(robot, q)


def symbols(prefix, n):
    return np.array(sympy.symbols(f"{prefix}0:{n}", real=True), dtype=object)


def test_the_same_code_unrolls_on_sympy():
    """Frames and centroidal quantities on SymPy symbols (what the code generator runs),
    evaluated at a state, equal the float run."""
    robot = soagen.load("robots/stanford.yaml")
    n = robot.nv
    q, qd, qdd = symbols("q", n), symbols("qd", n), symbols("qdd", n)
    rng = np.random.default_rng(2)
    x = {s: v for vec in (q, qd, qdd) for s, v in zip(vec, rng.normal(size=n))}
    num = [np.array([x[s] for s in vec]) for vec in (q, qd, qdd)]

    def ev(e):
        return np.array([float(sympy.sympify(v).xreplace(x)) for v in np.ravel(e)]).reshape(np.shape(e))

    for name in ("frame_placements", "frame_velocities", "frame_accelerations"):
        k = {"frame_placements": 1, "frame_velocities": 2, "frame_accelerations": 3}[name]
        sym = getattr(A, name)(robot, *(q, qd, qdd)[:k], xp=SYMPY)
        ref = getattr(A, name)(robot, *num[:k])
        assert list(sym) == list(ref)
        for f in sym:
            assert rel_err(ev(sym[f]), ref[f]) < TOL, (name, f)
    assert rel_err(ev(A.center_of_mass(robot, q, xp=SYMPY)), A.center_of_mass(robot, num[0])) < TOL
    assert rel_err(ev(A.com_jacobian(robot, q, xp=SYMPY)), A.com_jacobian(robot, num[0])) < TOL
    assert rel_err(ev(A.centroidal_momentum_matrix(robot, q, xp=SYMPY)),
                   A.centroidal_momentum_matrix(robot, num[0])) < TOL
    assert rel_err(ev(A.centroidal_bias(robot, q, qd, xp=SYMPY)), A.centroidal_bias(robot, *num[:2])) < TOL


def test_frames_by_name_and_bad_input():
    robot = soagen.load("robots/stanford.yaml")
    q = robot.neutral_configuration()
    names = [f.name for f in robot.frames]
    one = A.frame_placements(robot, q, [names[-1], names[1]])
    assert list(one) == [names[-1], names[1]]
    assert rel_err(one[names[1]], A.frame_placements(robot, q)[names[1]]) == 0
    with pytest.raises(SoagenError, match="no frame named 'nowhere'"):
        A.frame_velocities(robot, q, np.zeros(robot.nv), ["nowhere"])
    with pytest.raises(SoagenError, match="qd: expected a vector of length"):
        A.frame_velocities(robot, q, np.zeros(robot.nv + 1))
    with pytest.raises(SoagenError, match="qdd: expected a vector of length"):
        A.frame_accelerations(robot, q, np.zeros(robot.nv), np.zeros(2))


def test_a_massless_robot_has_no_centre_of_mass():
    robot, q, *_ = make(0, parents=[-1, 0], types=("revolute",))
    from dataclasses import replace

    ghost = replace(robot, bodies=tuple(replace(b, mass=0.0, inertia=np.zeros((3, 3))) for b in robot.bodies))
    with pytest.raises(SoagenError, match="the robot has no mass"):
        A.center_of_mass(ghost, q)


def test_parallel_axis_of_the_whole_robot():
    """The robot's inertia about its centre of mass from A_G: for a motion that turns the
    whole (locked) robot about the CoM, h_G's angular part is I_G w."""
    robot, q, *_ = make(8, parents=[-1, 0, 1, 1], types=("free",))        # the root free, the rest at rest
    frames = [Frame(b.name, i, np.eye(3), b.com) for i, b in enumerate(robot.bodies)]
    T = A.frame_placements(robot, q, frames)
    c = A.center_of_mass(robot, q)
    I_G = np.zeros((3, 3))
    for b in robot.bodies:
        R, p = T[b.name][:3, :3], T[b.name][:3, 3]
        I_G += R @ b.inertia @ R.T - parallel_axis(b.mass, p - c)
    w = np.array([0.3, -0.2, 0.5])
    # the free root's body twist that turns the whole robot about c at w: (R^T w, R^T (w x (o - c)))
    root = A.frame_placements(robot, q, [Frame("o", 0, np.eye(3), np.zeros(3))])["o"]
    Rb, o = root[:3, :3], root[:3, 3]
    v = np.zeros(robot.nv)
    v[:6] = np.concatenate([Rb.T @ w, Rb.T @ cross(w, o - c)])
    h = A.centroidal_momentum_matrix(robot, q) @ v
    assert rel_err(h, np.concatenate([I_G @ w, np.zeros(3)])) < TOL


@pytest.mark.parametrize("N", range(1, 5))
def test_the_root_rows_of_R_phi_tilde_transpose_vanish(N):
    """The step of `soagen derive centroidal` that is not a relation of the N-free algebra:
    E^T R phi~^T = 0 (a link on the base has no ancestor), so E^T phi M phi^T H^T = E^T phi R H^T,
    block by block on symbols for chains of N links (on trees the dense-operator tests above
    check A_O itself); and a wrong variant fails (from N = 2)."""
    from soagen.symbolic.evidence.verify import check_symbolic
    from soagen.symbolic.models.chain import symbolic_chain_namespace

    ns = symbolic_chain_namespace(N)
    assert check_symbolic((("E.T@R@phi_t.T", "0*E.T"),), (), ns).ok
    assert check_symbolic((("E.T@phi@R@H.T", "E.T@phi@M@phi.T@H.T"),), (), ns).ok
    assert N == 1 or not check_symbolic((("E.T@phi@R@H.T", "E.T@phi@M@H.T"),), (), ns).ok   # at N = 1, R = M
