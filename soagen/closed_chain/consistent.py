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

from soagen import algorithms as alg
from soagen.closed_chain.arm import ArmTerms, block
from soagen.errors import SoagenError
from soagen.spatial import phi_CO, rotation_exp, rotation_log
from soagen.tolerances import CLOSURE


def angular_error(grasp, R_tip, Rg):
    """Orientation error of the tip frame against the grasp frame, to first order the
    rotation from the grasp frame to the tip frame (world axes): the rotation vector for a
    rigid grasp; for a revolute one h_grasp x h_tip, which vanishes at any hinge angle
    once the axes are aligned; zero otherwise (point contacts leave orientation free)."""
    if grasp.kind == "rigid":
        return rotation_log(R_tip @ Rg.T)
    if grasp.kind == "revolute":
        h = grasp.phi[:3, 0]
        return np.cross(Rg @ h, R_tip @ h)
    return np.zeros(3)


def grasp_errors(system, arms, R_C, p_C, holonomic=True):
    """Closure errors P_i^T e_i (holonomic directions, or all constraint directions with
    ``holonomic=False``) of every grasp and their Jacobian -P_i^T A_i w.r.t. the object
    twist; ``arms`` are :class:`ArmTerms` at the arm configurations."""
    res, JX = [], []
    for a, t in zip(system.arms, arms):
        Rg = R_C @ a.grasp.R
        e = np.concatenate([angular_error(a.grasp, t.R_tip, Rg), t.p_tip - (p_C + R_C @ a.grasp.r)])
        Pw = block(Rg) @ (a.grasp.holonomic if holonomic else a.grasp.phic)
        res.append(Pw.T @ e)
        JX.append(-Pw.T @ phi_CO(R_C @ a.grasp.r).T)
    return np.concatenate(res), np.vstack(JX)


def closure_residual(system, q, R_C, p_C, holonomic=True):
    """Stacked closure errors and their Jacobians w.r.t. q and the object twist
    (d e_i = J_i dq_i - A_i dX(C)); used by the solver, the simulator and the tests."""
    zero = np.zeros(system.n)
    arms = [ArmTerms(a, qi, zero[:a.n], zero[:a.n]) for a, qi in zip(system.arms, system.split(q))]
    e, JX = grasp_errors(system, arms, R_C, p_C, holonomic)
    Jq, r0 = np.zeros((len(e), system.n)), 0
    for a, t, off in zip(system.arms, arms, system.offsets()):
        Rg = R_C @ a.grasp.R
        Pw = block(Rg) @ (a.grasp.holonomic if holonomic else a.grasp.phic)
        Jq[r0:r0 + Pw.shape[1], off:off + a.n] = Pw.T @ t.Rb6 @ alg.jacobian(a.robot, t.q)
        r0 += Pw.shape[1]
    return e, Jq, JX


def solve_closure(system, q, R_C, p_C, tol=CLOSURE, max_iter=60):
    """Gauss-Newton with minimum-norm steps on the holonomic closure equations."""
    for _ in range(max_iter):
        e, Jq, JX = closure_residual(system, q, R_C, p_C)
        if np.abs(e).max() < tol:
            return q, R_C, p_C
        G = np.hstack([Jq, JX])
        dx = -np.linalg.lstsq(G, e, rcond=None)[0]
        q = q + dx[:system.n]
        dX = dx[system.n:]
        R_C = rotation_exp(dX[:3]) @ R_C
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
    R_C = rotation_exp(spread * rng.standard_normal(3)) @ system.obj.R0
    p_C = system.obj.p0 + 0.2 * spread * rng.standard_normal(3)
    q, R_C, p_C = solve_closure(system, q, R_C, p_C)
    G = velocity_constraints(system, q, R_C, p_C)
    u = speed * rng.standard_normal(system.n + 6)
    u = u - np.linalg.pinv(G) @ (G @ u)
    qd = u[:system.n]
    tau = torque * rng.standard_normal(system.n)
    return q, qd, tau
