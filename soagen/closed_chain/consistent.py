"""A state that satisfies the loop closures, found by solving the closure equations.

Unknowns: all arm joint angles q and the object pose X(C). Closure residual of grasp i
(world): e_i = (rotation vector of R_tip R_grasp^T, p_tip - O_i), of which the holonomic
constraint directions count (all six for a rigid grasp, the position and the axis
alignment for a revolute one, the position for point contacts). Gauss-Newton with
minimum-norm steps from a random start near the nominal configuration (the q0 of the
file and the object's nominal pose), so the solution stays near it; the linearisation
d e_i = J_i dq_i - A_i dX(C) is (2.7a) with positions for velocities. Velocities: random
(qd, V(C)) projected on the null space of the velocity constraints (all constraint
directions, phi^c^T (J qd - A V(C)) = 0)."""

from __future__ import annotations

import numpy as np

from soagen.closed_chain.arm import ArmTerms
from soagen.closed_chain.context import phi_CO
from soagen.errors import SoagenError
from soagen.spatial import axis_rotation
from soagen.backend import NUMPY


def rotvec(R):
    """The rotation vector (axis * angle) of a rotation matrix."""
    c = np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)
    th = np.arccos(c)
    w = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    if th < 1e-8:
        return w / 2
    if np.pi - th < 1e-6:
        B = (R + np.eye(3)) / 2
        k = np.argmax(np.diag(B))
        axis = B[:, k] / np.sqrt(B[k, k])
        return axis * th
    return w * th / (2 * np.sin(th))


def expm_so3(w):
    th = np.linalg.norm(w)
    if th < 1e-15:
        return np.eye(3)
    return axis_rotation(w / th, th, NUMPY)


def closure_residual(system, q, R_C, p_C, holonomic=True):
    """Stacked closure errors (holonomic directions) and their Jacobians w.r.t. q and the
    object twist; used by the solver, the simulator and the tests."""
    rows, res, Jq, JX = [], [], [], []
    zero = np.zeros(system.n)
    for a, qi, off in zip(system.arms, system.split(q), system.offsets()):
        t = ArmTerms(a, qi, zero[:a.n], zero[:a.n])
        Rg = R_C @ a.grasp.R
        e = np.concatenate([rotvec(t.R_tip @ Rg.T), t.p_tip - (p_C + R_C @ a.grasp.r)])
        P = a.grasp.holonomic if holonomic else a.grasp.phic
        Pw = np.block([[Rg, np.zeros((3, 3))], [np.zeros((3, 3)), Rg]]) @ P
        from soagen import algorithms as alg
        J = t.Rb6 @ alg.jacobian(a.robot, qi)
        Jrow = np.zeros((P.shape[1], system.n))
        Jrow[:, off:off + a.n] = Pw.T @ J
        res.append(Pw.T @ e)
        Jq.append(Jrow)
        JX.append(-Pw.T @ phi_CO(R_C @ a.grasp.r).T)
    return np.concatenate(res), np.vstack(Jq), np.vstack(JX)


def solve_closure(system, q, R_C, p_C, tol=1e-12, max_iter=60):
    """Gauss-Newton with minimum-norm steps on the holonomic closure equations."""
    for _ in range(max_iter):
        e, Jq, JX = closure_residual(system, q, R_C, p_C)
        if np.abs(e).max() < tol:
            return q, R_C, p_C
        G = np.hstack([Jq, JX])
        dx = -np.linalg.lstsq(G, e, rcond=None)[0]
        q = q + dx[:system.n]
        dX = dx[system.n:]
        R_C = expm_so3(dX[:3]) @ R_C
        p_C = p_C + dX[3:]
    raise SoagenError(f"{system.name}: the closure equations did not converge "
                      f"(residual {np.abs(e).max():.2e}); check q0 and the object pose")


def velocity_constraints(system, q, R_C, p_C):
    """G with G (qd, V(C)) = 0: phi^c^T (J qd - A V(C)) for every grasp (all directions)."""
    _, Jq, JX = closure_residual(system, q, R_C, p_C, holonomic=False)
    return np.hstack([Jq, JX])


def consistent_state(system, rng=None, spread=0.05, speed=0.5, torque=1.0):
    """(q, qd, tau), plus the object state in ``.obj``-free form: returns q, qd, tau.

    ``spread`` (rad) perturbs the nominal q0 and the object pose before solving,
    ``speed`` scales the random joint rates, ``torque`` the random joint torques (added
    to the gravity-compensating torques of the free arms, so the motion stays moderate)."""
    rng = np.random.default_rng(rng)
    q = system.q0() + spread * rng.standard_normal(system.n)
    R_C = expm_so3(spread * rng.standard_normal(3)) @ system.obj.R0
    p_C = system.obj.p0 + 0.2 * spread * rng.standard_normal(3)
    q, R_C, p_C = solve_closure(system, q, R_C, p_C)
    G = velocity_constraints(system, q, R_C, p_C)
    u = speed * rng.standard_normal(system.n + 6)
    u = u - np.linalg.pinv(G) @ (G @ u)
    qd = u[:system.n]
    tau = torque * rng.standard_normal(system.n)
    return q, qd, tau
