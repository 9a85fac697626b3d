"""Conversions between soagen's conventions and Pinocchio's, for the oracle tests and
benchmarks. Pinocchio is optional (``pip install soagen[test]``); nothing in the
algorithms depends on it.

Conventions (docs/trees-and-floating-bases.md):

* free joint: both use q = (x, y, z, qx, qy, qz, qw), the body origin in the parent frame
  and the unit quaternion of the body frame. Velocities are body-frame in both, but
  soagen orders them angular first, v = (omega, v) (the papers' spatial vectors), and
  Pinocchio linear first, v = (v, omega). Accelerations and forces are permuted alike.
* spherical joint: q = quaternion (x, y, z, w) in both; v = omega in the body frame.
* revolute joints: one angle here; Pinocchio's continuous joints use (cos, sin).
* frame Jacobians: Pinocchio's rows are (linear, angular); soagen's (angular, linear).
Joints are matched by name, so the joint orders may differ.
"""

from __future__ import annotations

import numpy as np


def pin_model(path, floating=True):
    import pinocchio as pin

    if floating:
        return pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    return pin.buildModelFromUrdf(str(path))


class Converter:
    """Index maps between a soagen Robot and a Pinocchio Model of the same file."""

    def __init__(self, robot, model):
        self.robot, self.model = robot, model
        pin_idx = {name: j for j, name in enumerate(model.names)}
        self.map = []          # (body i, pin joint j, kind, pin nq)
        vperm = np.zeros(robot.nv, dtype=int)      # v_soagen = v_pin[vperm]
        for i, b in enumerate(robot.bodies):
            name = b.joint_name if b.joint_name in pin_idx else "root_joint"
            j = pin_idx[name]
            iv, nv = model.idx_vs[j], model.nvs[j]
            assert nv == b.joint.nv, (b.joint_name, nv, b.joint.nv)
            sl = robot.v_slice(i)
            if b.joint.kind == "free":
                vperm[sl] = [iv + 3, iv + 4, iv + 5, iv, iv + 1, iv + 2]
            elif b.joint.kind == "planar":           # (omega, v1, v2) vs (vx, vy, wz)
                vperm[sl] = [iv + 2, iv, iv + 1]
            else:
                vperm[sl] = np.arange(iv, iv + nv)
            self.map.append((i, j, b.joint.kind, model.nqs[j]))
        assert sorted(vperm) == list(range(robot.nv))
        self.vperm = vperm

    def q_to_pin(self, q):
        qp = np.zeros(self.model.nq)
        for i, j, kind, nq in self.map:
            x = q[self.robot.q_slice(i)]
            iq = self.model.idx_qs[j]
            if kind == "revolute" and nq == 2:
                qp[iq:iq + 2] = np.cos(x[0]), np.sin(x[0])
            elif kind == "planar":                   # (x, y, theta) vs (x, y, cos, sin)
                qp[iq:iq + 4] = x[0], x[1], np.cos(x[2]), np.sin(x[2])
            else:
                qp[iq:iq + nq] = x
        return qp

    def v_to_pin(self, v):
        out = np.zeros(self.model.nv)
        out[self.vperm] = v
        return out

    def v_from_pin(self, vp):
        return np.asarray(vp)[self.vperm]

    def matrix_from_pin(self, A):
        return np.asarray(A)[np.ix_(self.vperm, self.vperm)]


def pin_model_from_robot(robot):
    """The same multibody system built directly in Pinocchio (joint by joint), for robots
    without a URDF (random trees with spherical and free joints)."""
    import pinocchio as pin

    model = pin.Model()
    model.gravity = pin.Motion(np.asarray(robot.gravity, dtype=float), np.zeros(3))  # (linear, angular)
    ids = []
    for b in robot.bodies:
        k = b.joint.kind
        axis = np.asarray(b.joint.axis, dtype=float)
        jm = {"revolute": lambda: pin.JointModelRevoluteUnaligned(axis),
              "prismatic": lambda: pin.JointModelPrismaticUnaligned(axis),
              "spherical": pin.JointModelSpherical,
              "free": pin.JointModelFreeFlyer,
              "planar": pin.JointModelPlanar}[k]()      # planar: normal along z only
        parent = 0 if b.parent < 0 else ids[b.parent]
        placement = pin.SE3(np.asarray(b.placement_R, float), np.asarray(b.placement_r, float))
        jid = model.addJoint(parent, jm, placement, b.joint_name)
        model.appendBodyToJoint(jid, pin.Inertia(float(b.mass), np.asarray(b.com, float),
                                                 np.asarray(b.inertia, float)), pin.SE3.Identity())
        ids.append(jid)
    return model


def symmetrized(A):
    """Pinocchio's crba / computeMinverse fill the upper triangle only."""
    A = np.asarray(A)
    return np.triu(A) + np.triu(A, 1).T


def example_robot_data_dir():
    """The folder of robot descriptions installed by the ``example-robot-data`` package,
    or None when it is not installed."""
    from importlib import metadata
    from pathlib import Path

    try:
        dist = metadata.distribution("example-robot-data")
    except metadata.PackageNotFoundError:
        return None
    path = Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))
    return path if path.is_dir() else None


def angular_first(J):
    """Pinocchio's (linear, angular) rows -> soagen's (angular, linear)."""
    J = np.asarray(J)
    return np.concatenate([J[3:6], J[0:3]], axis=0)
