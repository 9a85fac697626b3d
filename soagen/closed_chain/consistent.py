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

from soagen.backend import NUMPY
from soagen.closed_chain.arm import ArmTerms, block
from soagen.dynamics.newton import gauss_newton, project_velocity
from soagen.errors import SoagenError
from soagen.spatial import cross, phi_CO, rotation_error, rotation_exp
from soagen.tolerances import CLOSURE


def world_basis(B, Rg, xp=NUMPY):
    """Constraint directions of a grasp in the world, as every closed-chain method uses
    them: the grasp-frame columns ``B`` (phi^c, or its holonomic part) rotated by
    diag(Rg, Rg); all six directions (a rigid grasp) as the identity, since only their span
    matters (Part II (2.10b))."""
    if B.shape[1] == 6:
        return xp.eye(6)
    return block(Rg) @ xp.constant(B)


def angular_error(grasp, R_tip, Rg, xp=NUMPY):
    """Orientation error of the tip frame against the grasp frame, to first order the
    rotation from the grasp frame to the tip frame (world axes): for a rigid grasp the vee
    of the skew part of R_tip Rg^T (sin of the angle times the axis); for a revolute one
    h_grasp x h_tip, which vanishes at any hinge angle once the axes are aligned; zero
    otherwise (point contacts leave orientation free). Polynomial in the rotations, so it
    runs on any backend (the generated closure_constraints)."""
    if grasp.kind == "rigid":
        return rotation_error(R_tip, Rg)
    if grasp.kind == "revolute":
        h = xp.constant(grasp.phi[:3, 0])
        return cross(Rg @ h, R_tip @ h)
    return xp.zeros(3)


def grasp_errors(system, arms, R_C, p_C, holonomic=True, xp=NUMPY):
    """Closure errors P_i^T e_i (holonomic directions, or all constraint directions with
    ``holonomic=False``; P_i the :func:`world_basis`) of every grasp and their Jacobian
    -P_i^T A_i w.r.t. the object twist; ``arms`` are :class:`ArmTerms` at the arm
    configurations."""
    res, JX = [], []
    for a, t in zip(system.arms, arms):
        g = a.grasp
        Rg = R_C @ xp.constant(g.R)
        l = R_C @ xp.constant(g.r)
        e = np.concatenate([angular_error(g, t.R_tip, Rg, xp), t.p_tip - (p_C + l)])
        P = world_basis(g.holonomic if holonomic else g.phic, Rg, xp)
        res.append(P.T @ e)
        JX.append(-P.T @ phi_CO(l).T)
    return np.concatenate(res), np.vstack(JX)


def closure_residual(system, q, R_C, p_C, holonomic=True, xp=NUMPY):
    """Stacked closure errors e and their Jacobian G = [J_q, J_X] w.r.t. q and the object
    twist (d e_i = J_i dq_i - A_i dX(C)), in the world constraint directions of
    :func:`world_basis`; used by the solver, the simulator and the tests, and unrolled for
    the generated closure_constraints."""
    zero = xp.zeros(system.n)
    arms = [ArmTerms(a, qi, zero[:a.n], zero[:a.n], xp) for a, qi in zip(system.arms, system.split(q, xp.dtype))]
    e, JX = grasp_errors(system, arms, R_C, p_C, holonomic, xp)
    blocks = []
    for a, t in zip(system.arms, arms):
        P = world_basis(a.grasp.holonomic if holonomic else a.grasp.phic, R_C @ xp.constant(a.grasp.R), xp)
        blocks.append(P.T @ t.jacobian())
    Jq = xp.zeros((len(e), system.n))
    r0 = 0
    for B, off, a in zip(blocks, system.offsets(), system.arms):
        Jq[r0:r0 + B.shape[0], off:off + a.n] = B
        r0 += B.shape[0]
    return e, np.hstack([Jq, JX])


def solve_closure(system, q, R_C, p_C, tol=CLOSURE, max_iter=60, residual=None):
    """Gauss-Newton with minimum-norm steps on the holonomic closure equations;
    ``residual(q, R_C, p_C)`` gives (e, [J_q, J_X]) (default: :func:`closure_residual`,
    a simulation passes the generated closure_constraints)."""
    if residual is None:
        def residual(q, R, p):
            return closure_residual(system, q, R, p)
    n = system.n

    def moved(x, dx):
        q, R, p = x
        return q + dx[:n], rotation_exp(dx[n:n + 3]) @ R, p + dx[n + 3:]
    x, e = gauss_newton(lambda x: residual(*x), (q, R_C, p_C), moved, tol, max_iter)
    if x is None:
        raise SoagenError(f"{system.name}: the closure equations did not converge "
                          f"(residual {np.abs(e).max():.2e}); check q0 and the object pose")
    return x


def velocity_constraints(system, q, R_C, p_C):
    """G with G (qd, V(C)) = 0: phi^c^T (J qd - A V(C)) for every grasp (all directions)."""
    return closure_residual(system, q, R_C, p_C, holonomic=False)[1]


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
    u = project_velocity(G, speed * rng.standard_normal(system.n + 6))
    qd = u[:system.n]
    tau = torque * rng.standard_normal(system.n)
    return q, qd, tau
