"""Second kind of evidence for docs/derivatives.md: the operator expressions (D.11),
(D.13), (D.15), (D.18) evaluated literally on dense world-frame operators (soagen.operators.chain,
paper numbering) against the link-frame recursions; Corollary A.1 for a non-symmetric
middle factor; and each step (D.7)-(D.10), (D.12) of the derivation checked by finite
differences in world coordinates about the world origin (where a body-fixed motion vector
x moves as s x x under the perturbation s)."""

import numpy as np
import pytest

from soagen import algorithms as A
from soagen.backend import NUMPY
from soagen.dynamics.base_parameters import placement_map
from soagen.dynamics.kinematics import link_transforms, world_poses
from soagen.dynamics.rates import composite_rates, joint_rates, spatial_accelerations
from soagen.dynamics.regressor import body_regressor
from soagen.dynamics.rne import newton_euler
from soagen.dynamics.sweeps import prepare
from soagen.loaders.random_robots import random_chain
from soagen.operators.chain import block_diag, chain_operators, derivative_operators
from soagen.quaternion import integrate
from soagen.spatial import force_bar_matrix, force_cross, motion_cross, skew
from tests.support.accuracy import rel_err
from tests.support.derivatives import ALL_JOINTS, random_state, random_tree

CHAINS = [(2, 0, ("revolute", "prismatic")), (6, 1, ("revolute", "prismatic")),
          (12, 2, ("revolute", "prismatic")), (5, 3, ("revolute", "spherical", "free", "prismatic"))]


@pytest.fixture(scope="module", params=CHAINS, ids=[f"N{n}-{s}" for n, s, _ in CHAINS])
def dense(request):
    n, seed, kinds = request.param
    rng = np.random.default_rng(seed)
    robot = random_chain(n, rng, joint_types=kinds)
    q, qd, qdd, tau = random_state(robot, rng)
    o = chain_operators(robot, q, qd)
    Pi = o.Pi
    blk = lambda k: slice(6 * (k - 1), 6 * k)
    th_dd = Pi @ qdd
    alpha = o.phi.T @ (o.H.T @ th_dd + o.a + o.E @ o.g)                      # (3.15), (3.21)
    d = derivative_operators(o, th_dd)                                       # (D.2)-(D.6)
    ops = dict(Psd=d["Psidot"], Psdd=d["Psiddot"], Sd=d["Sdot"], B=d["Bcor"], fbarHT=d["fbar"] @ o.H.T,
               alpha=alpha, V=o.V, blk=blk)
    return robot, (q, qd, qdd, tau), o, ops


def test_dT_dtheta_operator_form_D11(dense):
    robot, (q, qd, qdd, _), o, x = dense
    op = o.H @ o.phi @ (o.M @ o.phi.T @ x["Psdd"] + 2 * x["B"] @ o.phi.T @ x["Psd"]) \
        + o.H @ o.phi_tilde @ x["fbarHT"]
    assert rel_err(A.inverse_dynamics_derivatives(robot, q, qd, qdd)[0], o.Pi.T @ op @ o.Pi) < 1e-11


def test_dT_dthetadot_operator_form_D13(dense):
    robot, (q, qd, qdd, _), o, x = dense
    op = o.H @ o.phi @ (o.M @ o.phi.T @ (x["Psd"] + x["Sd"]) + 2 * x["B"] @ o.phi.T @ o.H.T)
    assert rel_err(A.inverse_dynamics_derivatives(robot, q, qd, qdd)[1], o.Pi.T @ op @ o.Pi) < 1e-11


def test_coriolis_operator_form_D15(dense):
    robot, (q, qd, _, _), o, x = dense
    C = o.H @ o.phi @ (o.M @ o.phi.T @ x["Sd"] + x["B"] @ o.phi.T @ o.H.T)
    assert rel_err(A.coriolis_matrix(robot, q, qd), o.Pi.T @ C @ o.Pi) < 1e-11
    assert rel_err(C @ (o.Pi @ qd), o.H @ o.phi @ (o.M @ o.phi.T @ o.a + o.b)) < 1e-11   # (3.20) velocity part


def test_regressor_operator_form_D18(dense):
    """Y = H phi A with the world-frame body regressors A(k); the parameters of body k
    in world axes are the body-frame ones rotated (placement_map with r = 0)."""
    robot, (q, qd, qdd, _), o, x = dense
    N, blk = o.N, x["blk"]
    Ablk = block_diag([body_regressor(x["alpha"][blk(k)], x["V"][blk(k)], NUMPY) for k in range(1, N + 1)])
    Y_op = o.Pi.T @ o.H @ o.phi @ Ablk                       # columns: paper order, world-axis parameters
    poses = world_poses(robot, link_transforms(robot, q, NUMPY))
    Y = A.regressor(robot, q, qd, qdd)
    for k in range(1, N + 1):
        i = N - k
        assert rel_err(Y[:, 10 * i:10 * i + 10], Y_op[:, 10 * (k - 1):10 * k] @ placement_map(poses[i][0], np.zeros(3))) < 1e-11


def test_corollary_A1_holds_for_a_non_symmetric_middle_factor(dense):
    """phi X phi^T = r + phi~ r + r phi~^T with r(k+1) = phi(k+1, k) r(k) phi^T(k+1, k) + X(k+1)
    for any block-diagonal X (used with X = B, which is not symmetric)."""
    _, _, o, _ = dense
    N, rng = o.N, np.random.default_rng(0)
    Xk = [rng.normal(size=(6, 6)) for _ in range(N)]
    r = [Xk[0]]
    for k in range(1, N):
        p = o.phi[6 * k:6 * k + 6, 6 * k - 6:6 * k]
        r.append(p @ r[-1] @ p.T + Xk[k])
    R = block_diag(r)
    lhs = o.phi @ block_diag(Xk) @ o.phi.T
    assert rel_err(lhs, R + o.phi_tilde @ R + R @ o.phi_tilde.T) < 1e-12


# --- the derivation, step by step, in world coordinates about the world origin ---------

def world(robot, q, qd, qdd):
    """Per body, about the world origin in world axes: V, A (spatial), f (joint force),
    S = H^T, and the motion / force transforms from the body frame."""
    s = prepare(robot, q, qd, NUMPY)
    alpha, f, _ = newton_euler(s, qdd)
    As = spatial_accelerations(s, alpha)
    out = []
    for i, (R, o) in enumerate(world_poses(robot, s.X)):
        Xm = np.block([[R, np.zeros((3, 3))], [skew(o) @ R, R]])      # v(0) = R v + o x R w
        Xf = np.linalg.inv(Xm).T
        out.append(dict(V=Xm @ s.V[i], A=Xm @ As[i], f=Xf @ f[i], S=Xm @ s.H[i].T, Xm=Xm, Xf=Xf))
    return s, out


def fd_close(got, want, scale, tol=1e-7):
    """Finite-difference agreement relative to the size of the quantity differentiated
    (a derivative that is exactly zero, e.g. s x s, comes out as round-off / h)."""
    return np.abs(np.asarray(got) - np.asarray(want)).max() <= tol * max(scale, 1e-300)


def descendants(robot, j):
    return [i for i in range(robot.nb) if j in _path(robot, i)]


def _path(robot, i):
    while i >= 0:
        yield i
        i = robot.bodies[i].parent


def parent_quantity(robot, w, j, key, base):
    p = robot.bodies[j].parent
    return base if p < 0 else w[p][key]


@pytest.mark.parametrize("seed", range(3))
def test_derivation_steps_D7_to_D10_position(seed):
    robot, rng = random_tree(400 + seed, n=6, joint_types=ALL_JOINTS)
    q, qd, qdd, _ = random_state(robot, rng)
    s, w = world(robot, q, qd, qdd)
    g0 = np.concatenate([np.zeros(3), -np.asarray(robot.gravity)])
    c = composite_rates(s)
    h = 1e-6
    for j in range(robot.nb):
        for e in range(robot.bodies[j].joint.nv):
            col = robot.bodies[j].v_index + e
            d = np.zeros(robot.nv)
            d[col] = h
            wp, wm = world(robot, integrate(robot, q, d), qd, qdd)[1], world(robot, integrate(robot, q, -d), qd, qdd)[1]
            dot = lambda i, key: (wp[i][key] - wm[i][key]) / (2 * h)
            sv = w[j]["S"][:, e]
            Vp = parent_quantity(robot, w, j, "V", np.zeros(6))
            Ap = parent_quantity(robot, w, j, "A", g0)
            Psd = motion_cross(Vp, sv)                                         # (D.5)
            Psdd = motion_cross(Ap, sv) + motion_cross(Vp, Psd)                # (D.6)
            sub = descendants(robot, j)
            for i in range(robot.nb):
                if i not in sub:
                    assert np.abs(dot(i, "V")).max() < 1e-8
                    continue
                V, Ai = w[i]["V"], w[i]["A"]
                scale = np.abs(sv).max() * (np.abs(V).max() + np.abs(Ai).max() + np.abs(Ap).max())
                assert fd_close(dot(i, "V"), motion_cross(sv, V - Vp), scale)                       # (D.7)
                assert fd_close(dot(i, "A"), motion_cross(sv, Ai - Ap)
                                - motion_cross(motion_cross(sv, Vp), V - Vp), scale)                # (D.8)
                Xf = w[i]["Xf"]                                                 # composites to world
                Rc = Xf @ c.R[i] @ Xf.T
                twoB = Xf @ (c.Idot[i] + force_bar_matrix(c.h[i])) @ Xf.T
                want = force_cross(sv, w[i]["f"]) + Rc @ Psdd + twoB @ Psd
                assert fd_close(dot(i, "f"), want, np.abs(w[i]["f"]).max() + np.abs(want).max())   # (D.9)


@pytest.mark.parametrize("seed", range(2))
def test_derivation_step_D12_velocity(seed):
    robot, rng = random_tree(500 + seed, n=6, joint_types=ALL_JOINTS)
    q, qd, qdd, _ = random_state(robot, rng)
    s, w = world(robot, q, qd, qdd)
    c = composite_rates(s)
    j_rates = joint_rates(s, qd)
    h = 1e-6
    for j in range(robot.nb):
        for e in range(robot.bodies[j].joint.nv):
            d = np.zeros(robot.nv)
            d[robot.bodies[j].v_index + e] = h
            wp, wm = world(robot, q, qd + d, qdd)[1], world(robot, q, qd - d, qdd)[1]
            dot = lambda i, key: (wp[i][key] - wm[i][key]) / (2 * h)
            sv = w[j]["S"][:, e]
            Xm_j = w[j]["Xm"]
            PsSd = Xm_j @ (j_rates.Psi_dot[j][:, e] + j_rates.S_dot[j][:, e])   # (D.4), (D.5) to world
            for i in descendants(robot, j):
                scale = np.abs(sv).max() * (1 + np.abs(w[i]["V"]).max())
                assert fd_close(dot(i, "V"), sv, scale)
                assert fd_close(dot(i, "A"), motion_cross(sv, w[i]["V"]) + PsSd, scale)
                Xf = w[i]["Xf"]
                twoB = Xf @ (c.Idot[i] + force_bar_matrix(c.h[i])) @ Xf.T
                want = twoB @ sv + Xf @ c.R[i] @ Xf.T @ PsSd
                assert fd_close(dot(i, "f"), want, np.abs(w[i]["f"]).max() + np.abs(want).max())   # (D.12)
