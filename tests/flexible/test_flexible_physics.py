"""The physics of the flexible-body model, checked against what does not depend on the
recursions: the Lagrange equations of the Section 4 kinetic energy (central differences
of the dense M^f(q) and of the potential), energy conservation, the rigid limit, the
exact mass-point inertia, Euler-Bernoulli frequencies, and the Jacobians against
differences of the frame poses."""

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot, pinned_frequencies, rigid_robot
from soagen.loaders.random_robots import random_flexible_chain
from soagen.operators.flexible import flexible_chain_operators, potential_energy
from tests.support.accuracy import rel_err

STRIP = Beam(length=1.0, EA=1.26e7, EIy=420.0, EIz=9.45, GJ=14.6, rhoA=0.471, rhoJ=1.6e-5)


def _lagrange(robot, q, qd, h=1e-6):
    """d/dt dT/dqd - dT/dq + dU/dq at qdd = 0 by central differences of the dense M^f(q)
    (framework paper Section 4) and the dense potential of the nodal masses."""
    Mf = lambda x: flexible_chain_operators(robot, x).Mf              # noqa: E731
    Mdot = (Mf(q + h * qd) - Mf(q - h * qd)) / (2 * h)
    E = np.eye(robot.nq)
    dT = np.array([qd @ (Mf(q + h * e) - Mf(q - h * e)) @ qd / (4 * h) for e in E])
    dU = np.array([(potential_energy(robot, q + h * e) - potential_energy(robot, q - h * e)) / (2 * h) for e in E])
    return Mdot @ qd - dT + dU


@pytest.mark.parametrize("stiffening", [False, True])
def test_bias_forces_are_the_lagrange_equations(stiffening):
    """The Euler-Poincare bias (F.4), the node terms (F.6) and gravity as the base
    acceleration give exactly the Lagrange equations of T = 1/2 X^* M^f X and U: a random
    chain with 3D joint axes, rotations and foreshortening, and the 3D beam (bending both
    ways, torsion) on a tilted axis with a child beam on its tip node. Central
    differences with h = 1e-6 leave ~1e-9 of the O(100) forces."""
    rng = np.random.default_rng(7)
    robots = [random_flexible_chain(4, rng, stiffening=stiffening, flexible=0.8),
              beam_robot([STRIP, STRIP], modes=3, elements=4, shapes=("y", "z", "torsion"), stiffening=stiffening,
                         joint_axis=(0.3, 0.2, 1.0), gravity=(0.5, -9.81, 0.2), hub_inertia=0.01)]
    for robot in robots:
        assert robot.is_flexible
        q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
        C = A.bias_forces(robot, q, qd)
        assert rel_err(C, _lagrange(robot, q, qd)) < 1e-7


def test_spring_damper_joints_are_generalized_forces():
    """A joint with stiffness k, damping d and rest q0 adds k (q - q0) + d qd to tau."""
    from dataclasses import replace

    robot = soagen.load("planar2")
    j = robot.bodies[1].joint
    sprung = replace(robot, bodies=(robot.bodies[0], replace(robot.bodies[1], joint=replace(
        j, stiffness=30.0, damping=0.5, rest=0.2))))
    q, qd, qdd = np.array([0.3, -0.4]), np.array([1.0, 2.0]), np.array([0.5, -1.0])
    extra = A.inverse_dynamics(sprung, q, qd, qdd) - A.inverse_dynamics(robot, q, qd, qdd)
    assert np.allclose(extra, [0.0, 30.0 * (-0.4 - 0.2) + 0.5 * 2.0], rtol=0, atol=1e-12)
    tau = A.inverse_dynamics(sprung, q, qd, qdd)
    assert rel_err(A.forward_dynamics(sprung, q, qd, tau), qdd) < 1e-12


def test_inertia_polynomial_is_the_mass_points_kinetic_energy():
    """The invariants (degree 4 with foreshortening) reproduce sum_p E_p^T M_p E_p at any
    deformation, so Mhat stays positive definite (no truncation)."""
    from soagen.loaders.invariants import exact_inertia

    robot = beam_robot(STRIP, modes=4, elements=5, shapes=("y", "z", "torsion"), stiffening=True)
    flex = robot.bodies[0].flex
    assert flex.powers.sum(axis=1).max() == 4
    from soagen.backend import NUMPY
    from soagen.dynamics.flexible import inertia

    rng = np.random.default_rng(3)
    for size in (0.01, 0.3, 3.0):
        eta = rng.normal(size=4) * size
        assert rel_err(inertia(flex, eta, NUMPY), exact_inertia(flex.points, eta)) < 1e-13


def _rk4(robot, q, v, T, dt, tau=None):
    tau = np.zeros(robot.nv) if tau is None else tau
    f = lambda q, v: (v, A.forward_dynamics(robot, q, v, tau))        # noqa: E731
    for _ in range(int(round(T / dt))):
        k1 = f(q, v)
        k2 = f(q + dt / 2 * k1[0], v + dt / 2 * k1[1])
        k3 = f(q + dt / 2 * k2[0], v + dt / 2 * k2[1])
        k4 = f(q + dt * k3[0], v + dt * k3[1])
        q = q + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        v = v + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    return q, v


@pytest.mark.parametrize("stiffening", [False, True])
def test_undamped_flexible_pendulum_conserves_energy(stiffening):
    """Released from 60 degrees with its first mode deflected, 0.2 s of RK4 at dt = 1e-3:
    the relative drift of T + U stays below 1e-8 (measured 2e-10). A hub of 1 kg m^2 keeps
    the free system's frequencies near the clamped ones (2.7 and 15.7 Hz; without it the
    passive hinge's are 69 and 332 Hz and RK4 needs dt = 1e-4), so that RK4's own energy
    error, ~ (omega dt)^5, is far below the bound; a bias term that is not the derivative
    of the kinetic energy drifts by 1e-4 and more. The 10 s run without a hub is
    benchmarks/flexible/energy.py."""
    robot = beam_robot(STRIP, modes=2, shapes=("y",), stiffening=stiffening, hub_inertia=1.0)
    q = np.array([np.pi / 3, 0.02, 0.0])
    v = np.zeros(robot.nv)
    E0 = sum(A.energy(robot, q, v))
    q, v = _rk4(robot, q, v, 0.2, 1e-3)
    assert abs(sum(A.energy(robot, q, v)) - E0) / abs(E0) < 1e-8


def test_very_stiff_links_follow_the_rigid_robot():
    """Frequencies x100 (EI x 1e4): the two-link flexible arm's joint trajectory over
    0.05 s, swinging under gravity, is the rigid arm's (same total inertias) to within the
    elastic deflection, ~ (g / omega^2) / L = 4e-6 rad (1 s and x1e4: benchmarks)."""
    b = Beam(length=1.0, EIz=9.45e4, rhoA=0.471)
    robot = beam_robot([b, b], modes=1, gravity=(0.0, -9.81, 0.0), hub_inertia=1e-3)
    rigid = rigid_robot(robot)
    q0, v0 = np.zeros(robot.nq), np.zeros(robot.nv)
    q0[[0, 2]], v0[[0, 2]] = [0.4, 0.3], [1.0, -1.0]
    q, _ = _rk4(robot, q0, v0, 0.05, 2e-4)
    qr, _ = _rk4(rigid, q0[[0, 2]], v0[[0, 2]], 0.05, 2e-4)
    assert np.abs(q[[0, 2]] - qr).max() < 2e-5
    assert np.abs(q[[0, 2]] - q0[[0, 2]]).max() > 3e-2          # it did move


def test_euler_bernoulli_frequencies():
    """A clamped-free beam with 10 elements: the first three bending frequencies within
    0.5% of beta_i L = 1.8751, 4.6941, 7.8548 (issue 18; measured: 9e-7, 3e-5, 3e-4);
    the pinned-free first elastic frequency (beta L = 3.9266) from every mode within 0.5%,
    and one clamped mode puts it 33% high (issue 24)."""
    robot = beam_robot(STRIP, modes=3, elements=10, shapes=("y",))
    w = robot.bodies[0].flex.frequencies
    c = np.sqrt(STRIP.EIz / (STRIP.rhoA * STRIP.length**4))
    assert np.abs(w / (np.array([1.8751, 4.6941, 7.8548])**2 * c) - 1).max() < 5e-3
    _, full = pinned_frequencies(robot.bodies[0])
    assert abs(full[0] / (3.9266**2 * c) - 1) < 5e-3
    one, _ = pinned_frequencies(beam_robot(STRIP, modes=1, shapes=("y",)).bodies[0])
    assert 1.30 < one[0] / full[0] < 1.36


def _frame_motion(robot, frame, q):
    from soagen.backend import NUMPY
    from soagen.dynamics.kinematics import frame_pose, link_transforms, world_poses

    poses = world_poses(robot, link_transforms(robot, q, NUMPY))
    return frame_pose(robot, poses, frame, q)


@pytest.mark.parametrize("name", ["flexarm2", "arm3_flexlink"])
def test_jacobian_and_jdot_qd_against_the_frame_motion(name):
    """J qd (joint and modal columns) is the tip frame's velocity, by central differences
    of its pose on the deformed node; Jdot qd is d/dt (J qd) at qdd = 0; J M^-1 J^T by its
    recursion is the dense product."""
    robot = soagen.load(name)
    rng = np.random.default_rng(2)
    q, qd = robot.random_configuration(rng), rng.normal(size=robot.nv)
    h = 1e-6
    (Rp, op), (Rm, om) = _frame_motion(robot, robot.tip, q + h * qd), _frame_motion(robot, robot.tip, q - h * qd)
    R, _ = _frame_motion(robot, robot.tip, q)
    W = (Rp - Rm) / (2 * h) @ R.T
    want = np.concatenate([[W[2, 1], W[0, 2], W[1, 0]], (op - om) / (2 * h)])
    J = A.jacobian(robot, q)
    assert rel_err(J @ qd, want) < 1e-7
    Jd = (A.jacobian(robot, q + h * qd) @ qd - A.jacobian(robot, q - h * qd) @ qd) / (2 * h)
    assert rel_err(A.jacobian_dot_qd(robot, q, qd), Jd) < 1e-7
    Minv = np.linalg.inv(A.mass_matrix(robot, q))
    assert rel_err(A.op_space_inverse_inertia(robot, q), J @ Minv @ J.T) < 1e-10
    f = rng.normal(size=6)
    assert rel_err(A.frame_force_correction(robot, q, [robot.tip], f), -Minv @ J.T @ f) < 1e-10
    k = next(i for i, b in enumerate(robot.bodies) if b.m)             # a node in the middle of a beam
    node = A.node_frame(robot, k, len(robot.bodies[k].flex.nodes.r0) // 2)
    _, op = _frame_motion(robot, node, q + h * qd)
    _, om = _frame_motion(robot, node, q - h * qd)
    assert rel_err(A.jacobian(robot, q, frame=node)[3:] @ qd, (op - om) / (2 * h)) < 1e-7
