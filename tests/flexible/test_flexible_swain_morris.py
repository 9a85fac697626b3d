"""Swain-Morris Appendix C through soagen's recursions: a flexible base on spring-damper
joints (C.1), a flexible arm as virtual elastic joints (C.2) and as finite elements, the
elastic coordinates passive in the unified model; the lumped and the FE beam agree."""

import numpy as np

from soagen import algorithms as A
from soagen.loaders.beam import Beam
from soagen.loaders.description import Description, JointSpec, LinkSpec, build
from soagen.loaders.flexible import beam_robot, lumped_beam_robot
from soagen.swain_morris.passive import passive_mask, reduced
from tests.support.accuracy import rel_err

STRIP = Beam(length=1.0, EIz=9.45, rhoA=0.471)


def flexible_base_arm():
    """A two-link arm on a base held by six spring-damper joints (x, y, z, roll, pitch,
    yaw): Swain-Morris's flexible base (C.1), f_b = -delta_b xdot_b - s_b dx_b (C5)."""
    rng = np.random.default_rng(1)
    names = ["world", "b1", "b2", "b3", "b4", "b5", "base", "l1", "l2"]
    links = [LinkSpec(n, f"link {n!r}") for n in names[:6]]
    for n in names[6:]:
        links.append(LinkSpec(n, f"link {n!r}", 2.0, rng.uniform(-0.1, 0.1, 3), np.diag([0.05, 0.06, 0.07]), True))
    joints = []
    for k, (kind, axis) in enumerate([("prismatic", [1, 0, 0]), ("prismatic", [0, 1, 0]), ("prismatic", [0, 0, 1]),
                                      ("revolute", [1, 0, 0]), ("revolute", [0, 1, 0]), ("revolute", [0, 0, 1])]):
        j = JointSpec(f"base{k}", f"joint 'base{k}'", kind, names[k], names[k + 1], np.eye(3), np.zeros(3),
                      np.array(axis, float))
        j.stiffness, j.damping = (4e3, 20.0) if kind == "prismatic" else (1e3, 5.0)
        j.actuated = False                      # a spring-damper joint: no joint force input
        joints.append(j)
    joints += [JointSpec("shoulder", "joint 'shoulder'", "revolute", "base", "l1", np.eye(3), np.array([0, 0, 0.2]),
                         np.array([0, 1.0, 0])),
               JointSpec("elbow", "joint 'elbow'", "revolute", "l1", "l2", np.eye(3), np.array([0.5, 0, 0]),
                         np.array([0, 1.0, 0]))]
    return build(Description("<flexible base>", "flexible_base", links, joints, np.array([0, 0, -9.81])))


def test_passive_elastic_coordinates_solve_the_unified_model():
    """The O(N) forward dynamics with the elastic coordinates free (tau_p = 0) gives the
    active accelerations of Swain-Morris's reduced model M qdd_a + C = T_hat (C1), (C6),
    (B7)-(B10), for the flexible base (C.1), the virtual elastic joints (C.2) and a
    finite-element arm (its modal coordinates passive)."""
    rng = np.random.default_rng(5)
    for robot in (flexible_base_arm(), lumped_beam_robot([STRIP, STRIP], segments=4, hub_inertia=0.01),
                  beam_robot([STRIP, STRIP], modes=2, hub_inertia=0.01)):
        p = passive_mask(robot)
        assert p.any() and (~p).any()
        q, qd = robot.random_configuration(rng) * 0.3, rng.normal(size=robot.nv)
        tau = np.where(p, 0.0, rng.normal(size=robot.nv))
        qdd = A.forward_dynamics(robot, q, qd, tau)
        red = reduced(robot, q, qd, tau[~p])
        assert rel_err(qdd[~p], np.linalg.solve(red.M, red.T_hat - red.C)) < 1e-10


def test_lumped_and_finite_element_beam_agree():
    """One beam two ways, clamped: the lumped chain's first bending frequency converges
    to the FE model's at O(1/n^2) (0.46% at 10 segments, 0.03% at 40; the FE's is within
    3e-6 of Euler-Bernoulli's)."""
    from soagen.loaders.beam import generalized_eigh

    fe = beam_robot(STRIP, modes=2).bodies[0].flex.frequencies[0]
    errors = []
    for n in (10, 40):
        r = lumped_beam_robot(STRIP, segments=n, hub_inertia=1.0)
        M = A.mass_matrix(r, np.zeros(r.nq))[1:, 1:]                   # the hinge locked: clamped
        w2, _ = generalized_eigh(np.diag([b.joint.stiffness for b in r.bodies[1:]]), M)
        errors.append(abs(np.sqrt(w2[0]) / fe - 1))
    assert errors[0] < 6e-3 and errors[1] < 5e-4 and 12 < errors[0] / errors[1] < 20
