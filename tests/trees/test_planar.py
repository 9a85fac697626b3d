"""The planar joint (3 dof: rotation about the plane normal, translation in the plane;
q = (x, y, theta), v = (omega, v1, v2) in the body frame, H^T constant 6 x 3)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from soagen import algorithms as A
from soagen import quaternion as Q
from soagen.loaders import load
from soagen.loaders.description import Description, JointSpec, LinkSpec, build
from soagen.loaders.random_robots import random_chain, random_link, random_rotation
from soagen.model import Joint, plane_basis
from soagen.operators.tree import tree_operators
from soagen.oracles.pinocchio import Converter, pin_model_from_robot, symmetrized
from tests.support.accuracy import rel_err

TOL = 1e-12
"""The same dynamics in two sets of coordinates (planar vs P-P-R through massless links),
or by the dense operators: round-off only, measured <= 2e-15."""


def with_z_normals(robot):
    bodies = tuple(dataclasses.replace(b, joint=Joint("planar", (0.0, 0.0, 1.0), "planar"))
                   if b.joint.kind == "planar" else b for b in robot.bodies)
    return dataclasses.replace(robot, bodies=bodies)


@pytest.mark.oracle
@pytest.mark.parametrize("seed", range(3))
def test_planar_joints_in_trees_against_pinocchio(pin, seed):
    rng = np.random.default_rng(300 + seed)
    robot = with_z_normals(random_chain(6, rng, parents=[-1, 0, 0, 1, 2, 2],
                                        kinds=["planar", "revolute", "planar", "spherical", "planar", "prismatic"]))
    model = pin_model_from_robot(robot)
    data = model.createData()
    c = Converter(robot, model)
    q, v, a = robot.random_configuration(rng), rng.normal(size=robot.nv), rng.normal(size=robot.nv)
    qp, vp = c.q_to_pin(q), c.v_to_pin(v)
    assert rel_err(A.inverse_dynamics(robot, q, v, a), c.v_from_pin(pin.rnea(model, data, qp, vp, c.v_to_pin(a)))) < 1e-9
    assert rel_err(A.mass_matrix(robot, q), c.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))) < 1e-9
    assert rel_err(A.forward_dynamics(robot, q, v, a, method="fd3"),
               c.v_from_pin(pin.aba(model, data, qp, vp, c.v_to_pin(a)))) < 1e-9
    assert rel_err(A.inverse_mass_matrix(robot, q),
               c.matrix_from_pin(symmetrized(pin.computeMinverse(model, data, qp)))) < 1e-9
    assert rel_err(c.q_to_pin(Q.integrate(robot, q, v)), pin.integrate(model, qp, vp)) < 1e-12   # round-off


def test_planar_equals_prismatic_prismatic_revolute_with_any_normal():
    """A planar joint with a tilted normal n is P(e1) P(e2) R(n) through massless links,
    in other velocity coordinates: (v1, v2) = R2(theta)^T (x_dot, y_dot), omega = theta_dot.
    So M_PPR = T^T M_planar T, tau_PPR = T^T tau_planar at qdd_planar = T qdd + T_dot qd,
    and the dense tree operators agree with the recursions."""
    rng = np.random.default_rng(7)
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    e1, e2 = plane_basis(n)
    links = [LinkSpec("base", "base"), random_link(rng, "a"), random_link(rng, "b")]
    P0, P1 = (random_rotation(rng), rng.normal(size=3) * 0.3), (random_rotation(rng), rng.normal(size=3) * 0.3)
    ax1 = rng.normal(size=3)
    g = np.array([0.0, 0.0, -9.81])
    planar = build(Description("<p>", "p", links, [JointSpec("j", "j", "planar", "base", "a", *P0, n),
                                                    JointSpec("k", "k", "revolute", "a", "b", *P1, ax1)], g))
    mid = [LinkSpec("u", "u"), LinkSpec("w", "w")]
    I3, z = np.eye(3), np.zeros(3)
    ppr = build(Description("<ppr>", "ppr", links + mid, [
        JointSpec("jx", "jx", "prismatic", "base", "u", *P0, e1),
        JointSpec("jy", "jy", "prismatic", "u", "w", I3, z, e2),
        JointSpec("jt", "jt", "revolute", "w", "a", I3, z, n),
        JointSpec("k", "k", "revolute", "a", "b", *P1, ax1)], g))
    x, y, th, qk = rng.normal(size=4)
    c, s = np.cos(th), np.sin(th)
    T = np.zeros((4, 4))                          # v_planar = T v_ppr
    T[0, 2] = 1
    T[1:3, 0:2] = np.array([[c, s], [-s, c]])
    T[3, 3] = 1
    q_p, q_r = np.array([x, y, th, qk]), np.array([x, y, th, qk])
    assert rel_err(A.mass_matrix(ppr, q_r), T.T @ A.mass_matrix(planar, q_p) @ T) < TOL
    v_r, qdd_r = rng.normal(size=4), rng.normal(size=4)
    T_dot = np.zeros((4, 4))
    T_dot[1:3, 0:2] = v_r[2] * np.array([[-s, c], [-c, -s]])
    v_p, qdd_p = T @ v_r, T @ qdd_r + T_dot @ v_r
    assert rel_err(A.inverse_dynamics(ppr, q_r, v_r, qdd_r),
                   T.T @ A.inverse_dynamics(planar, q_p, v_p, qdd_p)) < TOL       # bias a(k)
    O = tree_operators(planar, q_p)
    M = O.H @ O.phi @ O.M @ O.phi.T @ O.H.T
    assert rel_err(O.Pi.T @ M @ O.Pi, A.mass_matrix(planar, q_p)) < TOL


@pytest.mark.oracle
def test_planar_urdf_loads_and_matches_pinocchio(tmp_path, pin):
    urdf = tmp_path / "p.urdf"
    urdf.write_text("""<robot name="p">
  <link name="world"/>
  <link name="cart"><inertial><origin xyz="0.1 0 0.05"/><mass value="3"/><inertia ixx="0.1" iyy="0.2" izz="0.25" ixy="0.01" ixz="0" iyz="0"/></inertial></link>
  <link name="pole"><inertial><origin xyz="0 0 0.3"/><mass value="1"/><inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="slide" type="planar"><parent link="world"/><child link="cart"/><origin xyz="0 0 0.2"/><axis xyz="0 0 1"/></joint>
  <joint name="hinge" type="continuous"><parent link="cart"/><child link="pole"/><origin xyz="0 0 0.1" rpy="0.3 0 0"/><axis xyz="1 0 0"/></joint>
</robot>""")
    robot = load(urdf)
    assert [b.joint.kind for b in robot.bodies] == ["planar", "revolute"] and robot.nq == 4
    model = pin.buildModelFromUrdf(str(urdf))
    c = Converter(robot, model)
    rng = np.random.default_rng(0)
    q, v, a = robot.random_configuration(rng), rng.normal(size=4), rng.normal(size=4)
    data = model.createData()
    assert rel_err(A.inverse_dynamics(robot, q, v, a),
               c.v_from_pin(pin.rnea(model, data, c.q_to_pin(q), c.v_to_pin(v), c.v_to_pin(a)))) < 1e-9
