"""MuJoCo as an oracle: its mass matrix, bias forces, inverse and forward dynamics of an
MJCF file in soagen's coordinates, for the tests and the MuJoCo Menagerie sweep
(tests/test_menagerie.py, benchmarks/menagerie.py). MuJoCo is optional
(``pip install soagen[mjcf]``).

Coordinates (:mod:`soagen.loaders.mjcf`): q is MuJoCo's qpos with quaternions (x, y, z, w)
instead of (w, x, y, z); velocities agree except a free joint's, (omega, v) in the body
frame here and (v in the world frame, omega in the body frame) in MuJoCo. So qvel = T v
with T block diagonal (a rotation R on a free joint's linear block), qacc = T a + Tdot v,
and soagen's generalized forces are T^T MuJoCo's.

What is compared is what soagen models: :func:`modelled_only` switches off, in MuJoCo's
model, what the loader names in a warning as not modelled (constraints: contacts, limits,
friction loss, equality; actuators; gravity compensation; fluid forces; tendons' springs,
dampers and armature; springs on ball and free joints; nonlinear springs and dampers), so
that MuJoCo's qfrc_passive is the joints' qfrc_spring + qfrc_damper and mj_forward's qacc
is M^-1 (qfrc_passive - qfrc_bias) with the rotors' armature in M.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.spatial import quaternion_rotation


def modelled_only(m):
    """MuJoCo's model ``m`` (changed in place, and returned) with what soagen does not
    model switched off (see the module docstring)."""
    import mujoco

    D = mujoco.mjtDisableBit
    m.opt.disableflags |= D.mjDSBL_CONSTRAINT | D.mjDSBL_ACTUATION
    m.body_gravcomp[:] = 0
    m.opt.density, m.opt.viscosity = 0.0, 0.0
    m.opt.wind[:] = 0
    for field in ("tendon_stiffness", "tendon_damping", "tendon_armature", "dof_dampingpoly", "jnt_springyield",
                  "actuator_armature", "actuator_damping"):
        if hasattr(m, field):
            getattr(m, field)[:] = 0
    m.jnt_stiffness[np.isin(m.jnt_type, [mujoco.mjtJoint.mjJNT_FREE, mujoco.mjtJoint.mjJNT_BALL])] = 0
    return m


class MuJoCoOracle:
    """MuJoCo's M, bias forces, inverse and forward dynamics in soagen's coordinates for
    a robot loaded from the same file (joints matched by name, in order)."""

    def __init__(self, robot, model):
        import mujoco

        self.robot, self.m, self.d = robot, model, mujoco.MjData(model)
        names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, j) or f"joint{j}" for j in range(model.njnt)]
        ours = [b.joint_name for b in robot.bodies]
        if ours != names:
            raise ValueError(f"{robot.name}: joints {ours} are not MuJoCo's {names}")

    def set_state(self, q, v):
        """qpos and qvel from (q, v), mj_forward; returns T (qvel = T v) and Tdot v."""
        import mujoco

        r, m = self.robot, self.m
        qpos, T, Tdv = np.zeros(m.nq), np.zeros((m.nv, r.nv)), np.zeros(m.nv)
        for i, b in enumerate(r.bodies):
            x, w, sv = q[r.q_slice(i)], v[r.v_slice(i)], r.v_slice(i)
            iq, iv = b.q_index, b.v_index
            if b.joint.kind == "free":
                R = quaternion_rotation(x[3:7])
                qpos[iq:iq + 7] = [*x[:3], x[6], *x[3:6]]
                T[iv:iv + 3, sv.start + 3:sv.stop] = R
                T[iv + 3:iv + 6, sv.start:sv.start + 3] = np.eye(3)
                Tdv[iv:iv + 3] = R @ np.cross(w[:3], w[3:])      # d/dt (R v_body), the R-dot part
            elif b.joint.kind == "spherical":
                qpos[iq:iq + 4] = [x[3], *x[:3]]
                T[iv:iv + 3, sv] = np.eye(3)
            else:
                qpos[iq] = x[0]
                T[iv, sv] = 1
        self.d.qpos[:], self.d.qvel[:] = qpos, T @ v
        self.d.ctrl[:] = 0
        mujoco.mj_forward(self.m, self.d)
        return T, Tdv

    def full_mass_matrix(self):
        """MuJoCo's dense M at the state set last (armature included)."""
        import mujoco

        M = np.zeros((self.m.nv, self.m.nv))
        try:
            mujoco.mj_fullM(self.m, self.d, M)              # MuJoCo 4
        except TypeError:
            mujoco.mj_fullM(self.m, M, self.d.qM)           # MuJoCo 3
        return M

    def mass_matrix(self, q):
        T, _ = self.set_state(q, np.zeros(self.robot.nv))
        return T.T @ self.full_mass_matrix() @ T

    def bias_forces(self, q, v):
        """T^T (qfrc_bias - qfrc_passive + M Tdot v): soagen's bias forces (C - tau_passive)."""
        T, Tdv = self.set_state(q, v)
        return T.T @ (self.d.qfrc_bias - self.d.qfrc_passive + self.full_mass_matrix() @ Tdv)

    def passive_forces(self, q, v):
        T, _ = self.set_state(q, v)
        return T.T @ self.d.qfrc_passive

    def inverse_dynamics(self, q, v, a):
        """mj_inverse at qacc = T a + Tdot v: T^T (M qacc + qfrc_bias - qfrc_passive)."""
        import mujoco

        T, Tdv = self.set_state(q, v)
        self.d.qacc[:] = T @ a + Tdv
        mujoco.mj_inverse(self.m, self.d)
        return T.T @ self.d.qfrc_inverse

    def forward_dynamics(self, q, v, tau):
        """mj_forward's qacc with the joint forces tau (qfrc_applied = T^-T tau), as soagen's
        qdd = T^-1 (qacc - Tdot v)."""
        import mujoco

        T, Tdv = self.set_state(q, v)
        self.d.qfrc_applied[:] = np.linalg.solve(T.T, tau)
        mujoco.mj_forward(self.m, self.d)
        qacc = self.d.qacc.copy()
        self.d.qfrc_applied[:] = 0
        return np.linalg.solve(T, qacc - Tdv)


@dataclass
class Agreement:
    """The largest relative error of each function over the states compared."""

    mass_matrix: float = 0.0
    bias_forces: float = 0.0
    inverse_dynamics: float = 0.0
    forward_dynamics: float = 0.0
    passive_forces: float = 0.0

    @property
    def worst(self) -> float:
        return max(self.mass_matrix, self.bias_forces, self.inverse_dynamics, self.forward_dynamics,
                   self.passive_forces)


def _rel(got, want, floor=0.0):
    """max |got - want| / max(max |want|, floor): relative, with ``floor`` the size below which
    a value is round-off (bias forces and accelerations that vanish, as on a planar base
    moving perpendicular to gravity, would otherwise compare round-off with round-off)."""
    if not np.size(want):
        return 0.0
    scale = max(float(np.abs(want).max()), floor)
    err = float(np.abs(np.asarray(got) - np.asarray(want)).max())
    return err / scale if scale > 0 else err


def random_state(robot, rng):
    """q (free-joint positions of order 1 m, unit quaternions), v, a: MuJoCo-sized."""
    q = robot.random_configuration(rng)
    for b in robot.bodies:
        if b.joint.kind == "free":
            q[b.q_index:b.q_index + 3] = rng.normal(size=3)
    return q, rng.normal(size=robot.nv), rng.normal(size=robot.nv)


def compare(robot, path, states=3, seed=0) -> Agreement:
    """soagen's mass matrix, bias forces, passive forces, inverse dynamics and forward
    dynamics (tau = 0: MuJoCo's qacc with zero ctrl and no constraints) against MuJoCo's
    on the file ``path``, at ``states`` random states; the largest relative errors, forces
    relative to at least the largest force of a unit acceleration (max |M|) and
    accelerations to at least 1 (the states' velocities are of order 1)."""
    import mujoco

    from soagen import algorithms as A

    oracle = MuJoCoOracle(robot, modelled_only(mujoco.MjModel.from_xml_path(str(path))))
    rng = np.random.default_rng(seed)
    out = Agreement()
    for _ in range(states):
        q, v, a = random_state(robot, rng)
        M = oracle.mass_matrix(q)
        unit = float(np.abs(M).max())
        out.mass_matrix = max(out.mass_matrix, _rel(A.mass_matrix(robot, q), M))
        out.bias_forces = max(out.bias_forces, _rel(A.bias_forces(robot, q, v), oracle.bias_forces(q, v), unit))
        out.passive_forces = max(out.passive_forces,
                                 _rel(A.passive_forces(robot, q, v), oracle.passive_forces(q, v), unit))
        out.inverse_dynamics = max(out.inverse_dynamics,
                                   _rel(A.inverse_dynamics(robot, q, v, a), oracle.inverse_dynamics(q, v, a), unit))
        zero = np.zeros(robot.nv)
        out.forward_dynamics = max(out.forward_dynamics,
                                   _rel(A.forward_dynamics(robot, q, v, zero), oracle.forward_dynamics(q, v, zero), 1.0))
    return out
