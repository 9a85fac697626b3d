"""The joint torque regressor and the base parameters (docs/derivatives.md (D.16)-(D.18)
and "Base parameters"): Y pi = tau; every structural regrouping direction is invisible
to Y; the base regressor has full column rank, Y = Y_b K and reproduces tau; the counts
against the rank of the full stacked regressor and the published numbers."""

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.dynamics.base_parameters import (
    placement_map,
    stacked_regressor,
    transferable,
)
from tests.support.accuracy import rel_err
from tests.support.derivatives import ALL_JOINTS, random_state, random_tree
from tests.support.erd import erd_robot

BUNDLED = ("puma560", "stanford", "arm7", "leg6", "planar2")


def cases():
    for name in BUNDLED:
        yield name, soagen.load(f"robots/{name}.yaml")
    for seed in range(3):
        yield f"random{seed}", random_tree(600 + seed, n=6, joint_types=ALL_JOINTS)[0]


CASES = list(cases())
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, robot", CASES, ids=IDS)
def test_regressor_times_parameters_is_inverse_dynamics(name, robot):
    rng = np.random.default_rng(2)
    pi = A.inertial_parameters(robot)
    for _ in range(3):
        q, qd, qdd, _ = random_state(robot, rng)
        assert rel_err(A.regressor(robot, q, qd, qdd) @ pi, A.inverse_dynamics(robot, q, qd, qdd)) < 1e-12


@pytest.mark.parametrize("name, robot", CASES, ids=IDS)
def test_structural_regrouping_directions_are_invisible(name, robot):
    """For each joint's directions u (point mass on a revolute axis, first moment along it,
    1 - h h^T; the rotational inertia across a prismatic joint; ...): u on the body minus
    the same inertia on the parent (through the placement) is in the null space of Y."""
    W = stacked_regressor(robot, seed=9)
    scale = np.abs(W).max()
    for i, b in enumerate(robot.bodies):
        T = transferable(b.joint)
        for u in T.T:
            x = np.zeros(10 * robot.nb)
            x[10 * i:10 * i + 10] = u
            if b.parent >= 0:
                x[10 * b.parent:10 * b.parent + 10] -= placement_map(np.asarray(b.placement_R),
                                                                     np.asarray(b.placement_r)) @ u
            assert np.abs(W @ x).max() < 1e-11 * scale, (b.name, b.joint.kind, u)


@pytest.mark.parametrize("name, robot", CASES, ids=IDS)
def test_base_regressor_full_rank_and_reproduces_tau(name, robot):
    bp = A.base_parameters(robot)
    K, names = bp
    assert K.shape == (len(names), 10 * robot.nb) and len(bp.columns) == len(names) == len(bp.expressions)
    assert np.array_equal(K[:, list(bp.columns)], np.eye(len(names)))
    W = stacked_regressor(robot, seed=11)                         # states other than the ones used to build K
    Wb = W[:, list(bp.columns)]
    sv = np.linalg.svd(Wb, compute_uv=False)
    assert sv[-1] > 1e-6 * sv[0]                                  # full column rank, well conditioned
    assert rel_err(Wb @ K, W) < 1e-10                             # Y = Y_b K
    full = np.linalg.svd(W, compute_uv=False)
    assert int((full > 1e-9 * full[0]).sum()) == len(names)       # b = rank of the stacked Y
    rng = np.random.default_rng(4)
    q, qd, qdd, _ = random_state(robot, rng)
    Yb = A.base_regressor(robot, q, qd, qdd, base_params=bp)
    assert rel_err(Yb @ (K @ A.inertial_parameters(robot)), A.inverse_dynamics(robot, q, qd, qdd)) < 1e-12


# Published counts of base inertial parameters (no friction, no rotor inertias):
# Franka Emika Panda arm (7 revolute): 43, the dynamic coefficients of C. Gaz, M. Cognetti,
# A. Oliva, P. Robuffo Giordano, A. De Luca, "Dynamic Identification of the Franka Emika
# Panda Robot With Retrieval of Feasible Parameters Using Penalty-Based Optimization",
# IEEE RA-L 4(4), 2019 (robots/arm7.yaml transcribes the Panda URDF). The others are
# checked against the rank of the stacked regressor above and Pinocchio's in the oracle
# tests; docs/derivatives.md discusses the classical numbers. PUMA 560 and Stanford arm
# by Gautier and Khalil's grouping rules (docs/derivatives.md, "Base parameters"): a 6R
# arm with a vertical first axis keeps 1 parameter of link 1 (ZZR1), then 7 per link
# (XXR, XY, XZ, YZ, ZZR, MX, MY); the Stanford arm (RRPRRR) keeps of its prismatic link 3
# only m3, MX3, MY3, MZ3 (its rotational inertia moves to link 2).
COUNTS = {"puma560": 1 + 7 * 5, "stanford": 1 + 7 + 4 + 3 * 7, "arm7": 43, "planar2": 6}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_base_parameter_counts(name):
    bp = A.base_parameters(soagen.load(f"robots/{name}.yaml"))
    assert len(bp.names) == COUNTS[name]


@pytest.mark.oracle
@pytest.mark.parametrize("name, count", [("ur5", 36), ("panda", 51)])
def test_base_parameter_counts_example_robot_data(name, count):
    """UR5: 36; the Panda URDF with its two prismatic fingers: the arm's 43 plus 4 per finger."""
    robot, _ = erd_robot(name)
    assert len(A.base_parameters(robot).names) == count


def test_puma_first_link_regroups_the_classical_way():
    """Joint 1 is vertical: of link 1 only the inertia about its axis is identifiable, and
    it collects Iyy of links 2 and 3 and m a2^2 of the links beyond joint 3 (Khalil's ZZR1)."""
    bp = A.base_parameters(soagen.load("robots/puma560.yaml"))
    assert bp.names[0] == "Izz1R"
    assert [n for n in bp.names if n.endswith("1") or n.endswith("1R")] == ["Izz1R"]
    terms = bp.expressions[0].split(" + ")
    assert {"Izz1", "Iyy2", "Iyy3", f"{0.4318 ** 2:.12g} m3"} <= set(terms)


def test_planar_two_link_arm_textbook_parameters():
    """The planar 2R arm with gravity in its plane (link 1 of length l1 = 1 m): the six
    textbook parameters Izz1 + m2 l1^2, m x1 + m2 l1, m y1, Izz2, m x2, m y2."""
    bp = A.base_parameters(soagen.load("robots/planar2.yaml"))
    assert dict(zip(bp.names, bp.expressions)) == {
        "mx1R": "mx1 + m2", "my1": "my1", "Izz1R": "Izz1 + m2", "mx2": "mx2", "my2": "my2", "Izz2": "Izz2"}
