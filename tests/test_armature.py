"""Rotor inertia (armature) J_m, shown three ways: the operator form (M = H phi M phi^T H^T
+ J_m and the factorization with D(k) = H P H^T + J_m, evaluated densely) against the O(N)
recursions on random chains and trees; Pinocchio (``model.armature``) on example-robot-data
URDFs; and the loaders (MJCF in tests/test_foreign_files.py and tests/test_menagerie.py,
YAML, a URDF overlay, ``soagen.load(armature=...)``)."""

import textwrap

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import RobotFileError, SoagenError
from soagen.loaders.random_robots import random_chain
from soagen.model import with_armature
from soagen.operators.chain import chain_operators
from soagen.operators.tree import tree_operators
from tests.support.accuracy import rel_err
from tests.support.derivatives import ALL_JOINTS, random_state, tangent_fd, vector_fd
from tests.support.erd import erd_robot

TOL = 1e-12          # dense O(N^3) against O(N) recursions, and two codes on one model: round-off


def armed(robot, rng, low=0.01, high=0.5):
    """The robot with a random rotor inertia on every joint (per dof on multi-dof joints)."""
    return with_armature(robot, {b.joint_name: rng.uniform(low, high, b.joint.nv) for b in robot.bodies})


@pytest.fixture(params=[(1, 0), (3, 1), (8, 2), (25, 3)], ids=lambda p: f"N{p[0]}")
def chain(request):
    n, seed = request.param
    rng = np.random.default_rng(seed)
    robot = armed(random_chain(n, rng), rng)
    q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
    return robot, q, qd, chain_operators(robot, q, qd), rng


def test_armature_is_in_the_model_per_dof():
    rng = np.random.default_rng(0)
    base = random_chain(4, rng, joint_types=("revolute", "spherical"), kinds=["spherical", "revolute"] * 2)
    robot = with_armature(base, {"j0": [0.1, 0.2, 0.3], "j1": 0.5})
    assert robot.has_armature and not base.has_armature
    assert robot.armature.tolist() == [0.1, 0.2, 0.3, 0.5, 0, 0, 0, 0]
    assert with_armature(base, {"j1": 0.0}).bodies == base.bodies          # zero armature is no armature


def test_operator_form_mass_matrix_and_factorization(chain):
    """M + J_m = H phi M phi^T H^T + J_m (3.20) = (I + H Phi L) D (I + H Phi L)^T (4.11) with
    the dense Riccati's D = H P H^T + J_m; M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) (4.16)."""
    robot, q, _, o, _ = chain
    M_op = o.H @ o.phi @ o.M @ o.phi.T @ o.H.T + o.Jm
    assert np.count_nonzero(o.Jm) == robot.nv
    assert rel_err(A.mass_matrix(robot, q), o.Pi.T @ M_op @ o.Pi) < TOL
    F = np.eye(robot.nv) + o.H @ o.Phi @ o.L
    assert rel_err(F @ o.D @ F.T, M_op) < TOL                                       # Fact 4.1
    W = np.eye(robot.nv) - o.H @ o.Psi @ o.L
    assert rel_err(W.T @ o.Dinv @ W @ M_op, np.eye(robot.nv)) < TOL                 # Theorem 4.1
    for method in ("innovations", "ldl"):
        assert rel_err(A.inverse_mass_matrix(robot, q, method=method), o.Pi.T @ W.T @ o.Dinv @ W @ o.Pi) < TOL


def test_riccati_d_is_h_p_ht_plus_armature(chain):
    """The recursion's D(k) (link frames) against the dense world-frame D = H P H^T + J_m."""
    from soagen.backend import NUMPY
    from soagen.dynamics.innovations import riccati
    from soagen.dynamics.sweeps import prepare

    robot, q, qd, o, _ = chain
    inn = riccati(prepare(robot, q, qd, NUMPY))
    D = np.zeros((robot.nv, robot.nv))
    for i in range(robot.nb):
        D[robot.v_slice(i), robot.v_slice(i)] = inn.D[i]
    assert rel_err(D, o.Pi.T @ o.D @ o.Pi) < TOL


def test_operator_form_inverse_and_forward_dynamics(chain):
    """T = (M + J_m) qdd + C + J^T f(0): inverse dynamics and FD1-FD4, ldl against the dense form."""
    robot, q, qd, o, rng = chain
    M = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T + o.Jm) @ o.Pi
    C = o.Pi.T @ (o.H @ o.phi @ (o.M @ o.phi.T @ (o.a + o.E @ o.g) + o.b))
    JT = o.Pi.T @ (o.H @ o.phi @ o.B)
    qdd, f0, tau = rng.normal(size=robot.nv), rng.normal(size=6), rng.normal(size=robot.nv)
    assert rel_err(A.inverse_dynamics(robot, q, qd, qdd, f_tip=f0), M @ qdd + C + JT @ f0) < TOL
    assert rel_err(A.bias_forces(robot, q, qd), C) < TOL                   # the bias does not change
    want = np.linalg.solve(M, tau - C - JT @ f0)
    for method in A.FD_METHODS:
        assert rel_err(A.forward_dynamics(robot, q, qd, tau, method=method, f_tip=f0), want) < TOL, method
    J = A.jacobian(robot, q)
    assert rel_err(A.op_space_inverse_inertia(robot, q), J @ np.linalg.solve(M, J.T)) < TOL


@pytest.mark.parametrize("seed", range(3))
def test_trees_with_multi_dof_joints_operator_form(seed):
    """Random trees with every joint kind (armature on each dof): the tree operators' M and the
    factorization, and FD1-FD4 against (M + J_m)^-1 (tau - C)."""
    rng = np.random.default_rng(seed)
    parents = [-1] + [int(rng.integers(-1, i)) for i in range(1, 7)]
    robot = armed(random_chain(7, rng, joint_types=ALL_JOINTS, parents=parents), rng)
    q, qd, _, tau = random_state(robot, rng)
    o = tree_operators(robot, q, qd)
    M = o.Pi.T @ (o.H @ o.phi @ o.M @ o.phi.T @ o.H.T + o.Jm) @ o.Pi
    assert rel_err(A.mass_matrix(robot, q), M) < TOL
    tau_bar = np.eye(6 * robot.nb) - o.G @ o.H
    W = np.eye(robot.nv) - o.H @ o.psi @ o.E_phi @ o.G                      # (I - H psi K), framework (3.5)
    assert rel_err(o.Pi.T @ W.T @ o.Dinv @ W @ o.Pi @ M, np.eye(robot.nv)) < TOL
    assert rel_err(tau_bar @ o.P, o.P - o.G @ o.H @ o.P) < TOL
    C = A.bias_forces(robot, q, qd)
    for method in A.FD_METHODS:
        assert rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), np.linalg.solve(M, tau - C)) < TOL


def test_derivatives_and_regressor_with_armature():
    """dT/dqdd = M + J_m; dT/dq and dT/dqd do not change (finite differences); the forward
    dynamics derivatives against finite differences; T = Y pi + J_m qdd (a known term)."""
    rng = np.random.default_rng(4)
    parents = [-1, 0, 1, 1, 3]
    robot = armed(random_chain(5, rng, joint_types=ALL_JOINTS, parents=parents), rng)
    q, qd, qdd, tau = random_state(robot, rng)
    dq, dqd = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
    assert rel_err(dq, tangent_fd(lambda x: A.inverse_dynamics(robot, x, qd, qdd), robot, q)) < 1e-8
    assert rel_err(dqd, vector_fd(lambda v: A.inverse_dynamics(robot, q, v, qdd), qd)) < 1e-8
    assert rel_err(vector_fd(lambda a: A.inverse_dynamics(robot, q, qd, a), qdd), A.mass_matrix(robot, q)) < 1e-8
    fq, fqd, Minv = A.forward_dynamics_derivatives(robot, q, qd, tau)
    assert rel_err(fq, tangent_fd(lambda x: A.forward_dynamics(robot, x, qd, tau), robot, q)) < 1e-7
    assert rel_err(fqd, vector_fd(lambda v: A.forward_dynamics(robot, q, v, tau), qd)) < 1e-7
    assert rel_err(Minv, np.linalg.inv(A.mass_matrix(robot, q))) < 1e-11
    Y = A.regressor(robot, q, qd, qdd)
    T = A.inverse_dynamics(robot, q, qd, qdd)
    assert rel_err(A.known_forces(robot, q, qd, qdd), robot.armature * qdd) < 1e-15
    assert rel_err(Y @ A.inertial_parameters(robot) + A.known_forces(robot, q, qd, qdd), T) < TOL
    assert rel_err(Y @ A.inertial_parameters(robot), T - robot.armature * qdd) < TOL


def test_kinetic_energy_has_the_rotors():
    rng = np.random.default_rng(5)
    robot = armed(random_chain(4, rng), rng)
    q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
    T, _ = A.energy(robot, q, qd)
    assert rel_err(T, 0.5 * qd @ A.mass_matrix(robot, q) @ qd) < TOL


def test_a_massless_joint_with_armature_is_invertible():
    """A joint that moves only massless links has a singular M, unless it has a rotor: then
    D(k) = J_m > 0 and nothing is refused (MuJoCo's grippers rely on this)."""
    from soagen.loaders.solvable import massless_joints

    rng = np.random.default_rng(6)
    robot = random_chain(3, rng, mass_scale=lambda i: 1.0 if i < 2 else 0.0)
    assert massless_joints(robot) == ["j2"]
    armed_robot = with_armature(robot, {"j2": 0.05})
    assert massless_joints(armed_robot) == []
    q = robot.random_configuration(rng)
    M = A.mass_matrix(armed_robot, q)
    assert rel_err(A.inverse_mass_matrix(armed_robot, q), np.linalg.inv(M)) < 1e-10


# ---- Pinocchio: model.armature ---------------------------------------------------------

PIN_ROBOTS = ["ur5", "panda", "solo12"]


@pytest.mark.oracle
@pytest.mark.parametrize("name", PIN_ROBOTS)
def test_against_pinocchio_armature(name):
    """M (crba), RNEA, ABA against each of FD1-FD4 and ldl, computeMinverse, and the RNEA
    and ABA derivatives, with a random armature on every joint (Solo12 floating: its free
    joint without), within 1e-12 relative (measured: arms <= 2.1e-15, Solo12 <= 2.5e-13)."""
    pin = pytest.importorskip("pinocchio", reason="the oracle needs the optional 'pin' package")
    from soagen.oracles.pinocchio import Converter, pin_model, symmetrized
    from tests.support.erd import ERD

    rigid, path = erd_robot(name)
    rng = np.random.default_rng(11)
    arm = {b.joint_name: float(rng.uniform(0.01, 0.5)) for b in rigid.bodies if b.joint.kind != "free"}
    robot = soagen.load(path, floating_base=ERD[name][1], armature=arm)
    model = pin_model(path, floating=ERD[name][1])
    data, c = model.createData(), Converter(robot, model)
    model.armature = c.v_to_pin(robot.armature)
    P = c.matrix_from_pin
    for _ in range(3):
        q, qd, qdd, tau = random_state(robot, rng)
        qp, vp = c.q_to_pin(q), c.v_to_pin(qd)
        errs = {"M": rel_err(A.mass_matrix(robot, q), P(symmetrized(pin.crba(model, data, qp)))),
                "RNEA": rel_err(A.inverse_dynamics(robot, q, qd, qdd),
                                c.v_from_pin(pin.rnea(model, data, qp, vp, c.v_to_pin(qdd)))),
                "Minv": rel_err(A.inverse_mass_matrix(robot, q), P(symmetrized(pin.computeMinverse(model, data, qp))))}
        aba = c.v_from_pin(pin.aba(model, data, qp, vp, c.v_to_pin(tau)))
        for method in A.FD_METHODS:
            errs[f"ABA {method}"] = rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), aba)
        dq, dv, da = pin.computeRNEADerivatives(model, data, qp, vp, c.v_to_pin(qdd))
        ours = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
        errs |= {"dRNEA/dq": rel_err(ours[0], P(dq)), "dRNEA/dv": rel_err(ours[1], P(dv)),
                 "dRNEA/da": rel_err(A.mass_matrix(robot, q), P(symmetrized(da)))}
        fd = pin.computeABADerivatives(model, data, qp, vp, c.v_to_pin(tau))
        for k, x, y in zip(("dABA/dq", "dABA/dv", "dABA/dtau"), A.forward_dynamics_derivatives(robot, q, qd, tau), fd):
            errs[k] = rel_err(x, P(y))
        bad = {k: v for k, v in errs.items() if not v < TOL}
        assert not bad, bad


# ---- the file formats and the API ------------------------------------------------------

YAML = textwrap.dedent("""\
    name: armed
    links:
      - {name: base}
      - {name: l1, mass: 1.0, com: [0.1, 0, 0], inertia: {ixx: 0.01, iyy: 0.02, izz: 0.02, ixy: 0, ixz: 0, iyz: 0}}
      - {name: l2, mass: 0.5, com: [0.1, 0, 0], inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01, ixy: 0, ixz: 0, iyz: 0}}
    joints:
      - {name: j1, type: revolute, parent: base, child: l1, axis: [0, 0, 1], armature: 0.25}
      - {name: j2, type: spherical, parent: l1, child: l2, xyz: [0.2, 0, 0], armature: [0.1, 0.2, 0.3]}
    """)


def test_yaml_armature_per_joint_and_per_dof(tmp_path):
    path = tmp_path / "armed.yaml"
    path.write_text(YAML)
    robot = soagen.load(path)
    assert robot.armature.tolist() == [0.25, 0.1, 0.2, 0.3]
    rigid = soagen.load(path, armature={"j1": 0, "j2": 0})
    q = robot.random_configuration(np.random.default_rng(0))
    assert rel_err(A.mass_matrix(robot, q), A.mass_matrix(rigid, q) + np.diag(robot.armature)) < TOL


@pytest.mark.parametrize("bad, message", [
    ("armature: 0.25}", None),
    ("armature: -1}", "armature: the armature must be finite and >= 0"),
    ("armature: [1, 2]}", "armature: expected a number or 1 numbers"),
    ("armature: yes}", "joint 'j1'.armature: expected a number"),
])
def test_yaml_armature_errors_are_one_line(tmp_path, bad, message):
    path = tmp_path / "bad.yaml"
    path.write_text(YAML.replace("armature: 0.25}", bad))
    if message is None:
        soagen.load(path)
        return
    with pytest.raises(RobotFileError, match=message) as err:
        soagen.load(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))


def test_urdf_overlay_armature(tmp_path):
    """An overlay gives a URDF's joints armature (the URDF has no element for it)."""
    from tests.support.robot_files import URDF

    (tmp_path / "r.urdf").write_text(URDF)
    (tmp_path / "r.yaml").write_text("overlay: r.urdf\narmature: {a: 0.3, b: 0.7}\n")
    robot, rigid = soagen.load(tmp_path / "r.yaml"), soagen.load(tmp_path / "r.urdf")
    assert [b.joint_name for b in robot.bodies] == ["a", "b"] and robot.armature.tolist() == [0.3, 0.7]
    q = rigid.random_configuration(np.random.default_rng(1))
    assert rel_err(A.mass_matrix(robot, q), A.mass_matrix(rigid, q) + np.diag([0.3, 0.7])) < TOL
    (tmp_path / "bad.yaml").write_text("overlay: r.urdf\narmature: {nope: 0.3}\n")
    with pytest.raises(RobotFileError, match="armature: unknown key 'nope'"):
        soagen.load(tmp_path / "bad.yaml")


@pytest.mark.parametrize("armature, message", [
    ({"nope": 0.1}, "armature: no moving joint 'nope'"),
    ({"a": -0.1}, "armature: the armature must be finite and >= 0"),
    ({"a": [0.1, 0.2]}, "armature: expected a number or 1 numbers"),
    ({"a": float("nan")}, "armature: the armature must be finite and >= 0"),
    ([0.1], "armature: expected a mapping"),
])
def test_api_armature_errors(tmp_path, armature, message):
    from tests.support.robot_files import URDF

    (tmp_path / "r.urdf").write_text(URDF)
    with pytest.raises(SoagenError, match=message) as err:
        soagen.load(tmp_path / "r.urdf", armature=armature)
    assert "\n" not in str(err.value)
