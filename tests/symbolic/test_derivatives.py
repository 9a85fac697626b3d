"""The derivatives of docs/derivatives.md in the proof layer: the operators' definitions agree
with the generic recursions (soagen.algorithms) and with finite differences on real robot
states; their relations hold on rigid-body-shaped instances and wrong ones do not; the
theory with them completes; false variants of the derivative identities are refuted with a
counterexample; the derive topic points every step to a proved record."""

import numpy as np
import pytest
from click.testing import CliRunner

from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.loaders.random_robots import random_chain
from soagen.quaternion import integrate
from soagen.symbolic.engines import nfree
from soagen.symbolic.evidence.catalogue import BY_ID
from soagen.symbolic.evidence.numeric import robot_namespace
from soagen.symbolic.evidence.prove import decide
from soagen.symbolic.evidence.verify import check_symbolic
from soagen.symbolic.kernel.rewriting import overlaps
from soagen.symbolic.kernel.statement import evaluate, parse_expr
from soagen.symbolic.models import instances
from soagen.symbolic.models.chain import symbolic_chain_namespace
from soagen.symbolic.teaching import derive as D
from tests.support.accuracy import rel_err

ROBOTS = [(5, 0, ("revolute", "prismatic")), (6, 3, ("revolute", "spherical", "free", "prismatic"))]


@pytest.fixture(scope="module", params=ROBOTS, ids=["1-dof", "multi-dof"])
def state(request):
    n, seed, kinds = request.param
    rng = np.random.default_rng(seed)
    robot = random_chain(n, rng, joint_types=kinds)
    q, qd, qdd = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    ns = robot_namespace(robot, q, qd, rng, qdd=qdd)
    from soagen.operators.chain import chain_operators

    Pi = chain_operators(robot, q).Pi
    return robot, kinds, (q, qd, qdd), ns, (lambda X: Pi.T @ X.dense() @ Pi)


def test_the_definitions_are_the_derivatives_of_the_generic_recursions(state):
    """dTdth (D.11), dTdthd (D.13), Ccor (D.15) on the dense world-frame operators of a robot state
    against soagen.algorithms (link-frame recursions, written independently), and Mcaldot (the
    product rule) against central differences of the mass matrix along q(t) = q (+) t qd."""
    robot, _, (q, qd, qdd), ns, to_robot = state
    dtau_dq, dtau_dqd = A.inverse_dynamics_derivatives(robot, q, qd, qdd)
    assert rel_err(to_robot(ns["dTdth"]), dtau_dq) < 1e-11
    assert rel_err(to_robot(ns["dTdthd"]), dtau_dqd) < 1e-11
    assert rel_err(to_robot(ns["Ccor"]), A.coriolis_matrix(robot, q, qd)) < 1e-11
    h = 1e-6
    Mdot_fd = (A.mass_matrix(robot, integrate(robot, q, h * qd)) - A.mass_matrix(robot, integrate(robot, q, -h * qd))) / (2 * h)
    assert rel_err(to_robot(ns["Mcaldot"]), Mdot_fd) < 1e-7
    for rid in NEW:                                   # the relations, on the builder's world-frame operators
        r = nfree.algebra().relations[rid]
        lhs, rhs = evaluate(parse_expr(r.lhs), ns), evaluate(parse_expr(r.rhs), ns)
        assert rel_err(lhs.dense(), rhs.dense()) < 1e-12, rid


def test_dT_dthetadot_is_2C_exactly_for_one_dof_joints(state):
    """The hypothesis of D-2C: Psidot = Sdot for revolute/prismatic joints, not for spherical/free."""
    _, kinds, _, ns, _ = state
    one_dof = set(kinds) <= {"revolute", "prismatic"}
    assert (rel_err(ns["Psidot"].dense(), ns["Sdot"].dense()) < 1e-12) == one_dof
    assert (rel_err(ns["dTdthd"].dense(), 2 * ns["Ccor"].dense()) < 1e-12) == one_dof


def test_D19_with_the_minv_of_theorem_4_1(state):
    """dqdd = -M^-1 dT_ID at the forward-dynamics qdd, M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L):
    against soagen.algorithms.forward_dynamics_derivatives."""
    robot, _, (q, qd, _), _, _ = state
    rng = np.random.default_rng(5)
    tau = rng.normal(size=robot.nv)
    qdd = A.forward_dynamics(robot, q, qd, tau)
    ns = robot_namespace(robot, q, qd, rng, qdd=qdd)
    from soagen.operators.chain import chain_operators

    Pi = chain_operators(robot, q).Pi
    W = evaluate(parse_expr("(I - H@Psi@L).T@Dinv@(I - H@Psi@L)"), ns).dense()
    dq, dqd, Minv = A.forward_dynamics_derivatives(robot, q, qd, tau)
    assert rel_err(Pi.T @ (-W @ ns["dTdth"].dense()) @ Pi, dq) < 1e-10
    assert rel_err(Pi.T @ (-W @ ns["dTdthd"].dense()) @ Pi, dqd) < 1e-10
    assert rel_err(Pi.T @ W @ Pi, Minv) < 1e-10


NEW = ("coriolis-sym", "composite-R", "composite-B")
WRONG = [("Bcor.T", "Bcor", "B symmetric (hbar dropped)"),
         ("Ephi.T@R@Ephi", "R - M", "the composite loop run base to tip"),
         ("Ephi@Bcor_c.T@Ephi.T", "Bcor_c - Bcor", "B_c^T carried instead of B_c"),
         ("Psidot", "Sdot", "the 1-dof hypothesis for a 3-dof joint")]


@pytest.mark.parametrize("kind,n,seed", [("chain", 4, 1), ("tree", 7, 2), ("arms", 6, 3)])
def test_the_relations_hold_on_rigid_body_instances_and_wrong_ones_do_not(kind, n, seed):
    ns = instances.topology_instance(kind, n, seed)

    def res(lhs, rhs):
        a, b = evaluate(parse_expr(lhs), ns), evaluate(parse_expr(rhs), ns)
        return np.linalg.norm((a - b).dense()) / max(1.0, np.linalg.norm(a.dense()))
    for rid in NEW:
        r = nfree.algebra().relations[rid]
        assert res(r.lhs, r.rhs) < 1e-12, rid
    for lhs, rhs, what in WRONG:
        assert res(lhs, rhs) > 1e-3, what
    assert res("hbar", "0*hbar") > 1e-3 and res("R", "M") > 1e-3      # nothing vanishes by accident


def test_the_theory_with_the_derivative_modules_completes():
    alg = nfree.algebra()
    symbols = {"R", "Bcor_c", "dTdth", "Ccor", "Mcaldot"}
    for top in ("tree", "chain"):
        th = nfree.theory(alg, alg.relation_ids(top, symbols))
        assert th.complete and {"composite-R", "composite-B", "coriolis-sym"} <= set(th.relation_ids)
        sysm = th.completion.system
        for r1 in sysm.rules:
            for r2 in sysm.rules:
                for _, s, _ in overlaps(r1, r2):
                    assert sysm.normal_form(s) == {}, (r1.lhs, r2.lhs)
    base = nfree.theory(alg, alg.relation_ids("tree"))
    assert not {"composite-R", "def-Ccor"} & set(base.relation_ids)   # the papers' theories are unchanged


def test_a_self_transposed_relation_needs_one_orientation_only():
    gens = [nfree.Gen("a", "s", "s", symmetric=True), nfree.Gen("b", "s", "s")]
    alg = nfree.Algebra("tiny", gens, [nfree.Relation("sym", "b.T", "a - b", "test")], ["a", "b"])
    assert "sym^T" not in alg.stated_polys(["sym"])


def test_the_walk_is_checked_block_by_block():
    """The walks of soagen.dynamics (D.14), (D.16), run on the blocks, compute (D.10), (D.12) and C per N;
    the Coriolis walk is not (D.16) with B_c^T for B_c (the transpose of its W dropped)."""
    for N in (1, 2, 3):
        ns = symbolic_chain_namespace(N)
        assert check_symbolic((("id_derivatives(thdd)[0]", "dTdth"),), (), ns).ok
        assert check_symbolic((("id_derivatives(thdd)[1]", "dTdthd"),), (), ns).ok
        assert check_symbolic((("coriolis_matrix()", "Ccor"),), (), ns).ok
    wrong = "H@(R@phi.T@Sdot + Bcor_c.T@phi.T@H.T) + H@phi_t@(R@Sdot + Bcor_c.T@H.T)"
    assert not check_symbolic((("coriolis_matrix()", wrong),), (), symbolic_chain_namespace(2)).ok


# (false statement, how it was made from a true one)
FALSE = [
    ("dTdth = H@phi@(M@phi.T@Psiddot + Bcor@phi.T@Psidot) + H@phi_t@fbar@H.T", "(D.11), factor 2 dropped"),
    ("dTdthd = H@phi@(M@phi.T@(Psidot + Sdot) + Bcor@phi.T@H.T)", "(D.13), factor 2 dropped"),
    ("dTdth = H@phi@(M@phi.T@Psiddot + 2@Bcor@phi.T@Psidot) + H@phi@fbar@H.T", "(D.11), phi for phi~"),
    ("Mcaldot = 2@Ccor", "Mdot = C + C^T with C for C^T"),
    ("(Mcaldot - 2@Ccor).T = Mcaldot - 2@Ccor", "Mdot - 2C symmetric instead of skew"),
    ("Ccor = H@phi@(M@phi.T@Sdot + Bcor.T@phi.T@H.T)", "(D.15), B^T for B"),
    ("R@phi + phi_t@R = phi@M@phi.T", "the merge, transpose dropped"),
    ("phi@Bcor@phi.T = Bcor_c + phi_t@Bcor_c + Bcor_c.T@phi_t.T", "Corollary A.1 with B_c^T (as if X were symmetric)"),
    ("Ccor = H@phi@(M@phi.T@Sdot + Bcor_c@phi.T@H.T)", "(D.15), composite for body Coriolis operator"),
    ("dTdthd = 2@Ccor", "dT/dtheta_dot = 2C without the 1-dof hypothesis"),
    ("hbar.T = hbar", "hbar symmetric"),
]
TRUE = ["dTdth = H@(R@phi.T@Psiddot + 2@Bcor_c@phi.T@Psidot) + H@phi_t@(R@Psiddot + 2@Bcor_c@Psidot + fbar@H.T)",
        "Mcaldot = Ccor + Ccor.T", "(Mcaldot - 2@Ccor).T = 2@Ccor - Mcaldot", "hbar.T = -hbar",
        "phi@Bcor@phi.T = Bcor_c + phi_t@Bcor_c + Bcor_c@phi_t.T"]


@pytest.mark.parametrize("stmt,how", FALSE, ids=[h for _, h in FALSE])
def test_false_derivative_identity_is_refuted(stmt, how):
    for topology in ("chain", "tree"):
        v = decide(stmt, topology=topology)
        assert v.result == "refuted", (stmt, v.detail)
        assert v.counterexample["residual"] > 1e-3 and 1 <= v.counterexample["N"] <= 8


@pytest.mark.parametrize("stmt", TRUE)
def test_true_derivative_identity_is_proved_on_every_tree(stmt):
    v = decide(stmt, topology="tree")
    assert v.result == "proved-all-n" and "re-checked" in v.detail


def test_cli_prove_refutes_a_dropped_factor_2():
    r = CliRunner().invoke(cli, ["prove", FALSE[0][0]])
    assert r.exit_code == 1 and "refuted" in r.stdout and "counterexample: N = 2" in r.stdout


def test_every_step_of_the_derivatives_topic_points_to_a_proved_record():
    _, items = D.TOPICS["derivatives"]()
    chains = [it for it in items if isinstance(it, D.Chain)]
    recs = [it for it in items if isinstance(it, D.Rec)]
    assert len(chains) >= 8 and len(recs) >= 3
    named = set()
    for it in chains:
        assert it.steps[-1].record, it.lhs_plain                    # every chain ends in a record
        named |= {s.record for s in it.steps if s.record}
    named |= {r.record for r in recs}
    assert all(r for r in (it.record for it in recs))
    assert {"D-a.44", "D-corA.1", "D-merge", "D-11", "D-13", "D-15", "D-skew", "D-2C", "D-19"} <= named
    assert all(rid in BY_ID for rid in named)
    bad = D.Chain("X", "X", "Mcaldot", (D.Step("2C", "2C", "", "2*Ccor", "D-skew"),))
    with pytest.raises(AssertionError, match="not proved for all N"):
        D._verify(bad)
