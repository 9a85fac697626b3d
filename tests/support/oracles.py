"""The oracles' side of the comparisons, shared by the oracle tests: MuJoCo's M and inverse
dynamics in soagen's coordinates, and the joint-space errors against Pinocchio. The oracle
packages are optional; the tests that use these import them first (pytest.importorskip)."""

import numpy as np

from soagen import algorithms as A
from soagen.oracles.pinocchio import symmetrized
from soagen.spatial import quaternion_rotation
from tests.support.accuracy import rel_err


class MuJoCoOracle:
    """MuJoCo's M and inverse dynamics in soagen's coordinates: quaternions (x, y, z, w),
    free-joint velocities (omega, v) in the body frame (MuJoCo: v in the world frame,
    then omega in the body frame), accelerations likewise."""

    def __init__(self, robot, model):
        import mujoco

        self.robot, self.m, self.d = robot, model, mujoco.MjData(model)
        # armature is not modelled by soagen (a warning says so): taken out of MuJoCo's M
        # (its RNE recursion leaves armature out, and gravity compensation, a passive force)
        self.armature = np.diag(model.dof_armature)

    def set_state(self, q, v):
        """qpos, and T with qvel = T v; returns T and Tdot v."""
        r, m = self.robot, self.m
        qpos, T, Tdv = np.zeros(m.nq), np.zeros((m.nv, r.nv)), np.zeros(m.nv)
        iq = iv = 0
        for i, b in enumerate(r.bodies):
            x, w = q[r.q_slice(i)], v[r.v_slice(i)]
            sv = r.v_slice(i)
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
            iq, iv = iq + b.joint.nq, iv + b.joint.nv
        self.d.qpos[:], self.d.qvel[:] = qpos, T @ v
        import mujoco

        mujoco.mj_forward(self.m, self.d)
        return T, Tdv

    def mass_matrix(self, q):
        T, _ = self.set_state(q, np.zeros(self.robot.nv))
        import mujoco

        M = np.zeros((self.m.nv, self.m.nv))
        try:
            mujoco.mj_fullM(self.m, self.d, M)              # MuJoCo 4
        except TypeError:
            mujoco.mj_fullM(self.m, M, self.d.qM)           # MuJoCo 3
        return T.T @ (M - self.armature) @ T

    def inverse_dynamics(self, q, v, a):
        T, Tdv = self.set_state(q, v)
        self.d.qacc[:] = T @ a + Tdv
        import mujoco

        out = np.zeros(self.m.nv)
        mujoco.mj_rne(self.m, self.d, 1, out)
        return T.T @ out


def joint_space_errors(robot, model, data, conv, q, qd, qdd, tau):
    """Relative errors against Pinocchio of RNEA, CRBA, M^-1 and each of FD1-FD4 (ABA)."""
    import pinocchio as pin

    qp, vp = conv.q_to_pin(q), conv.v_to_pin(qd)
    errs = {
        "rnea": rel_err(A.inverse_dynamics(robot, q, qd, qdd),
                        conv.v_from_pin(pin.rnea(model, data, qp, vp, conv.v_to_pin(qdd)))),
        "crba": rel_err(A.mass_matrix(robot, q), conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))),
        "minv": rel_err(A.inverse_mass_matrix(robot, q),
                        conv.matrix_from_pin(symmetrized(pin.computeMinverse(model, data, qp)))),
    }
    aba = conv.v_from_pin(pin.aba(model, data, qp, vp, conv.v_to_pin(tau)))
    for method in A.FD_METHODS:
        errs[method] = rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), aba)
    return errs
