"""The general CCFD algorithm (4.9) and its recursive forms RCCFD1 (6.11), RCCFD2 (6.18),
RCCFD3 (6.22) of Part II, O(n) + O(l^3). Equations as corrected in
docs/misprints-closed-chain.md ((6.4) sign and loop, (6.5a)/(6.11g) H and minus sign,
(6.11j) alpha(0), (6.18e) transpose). Non-rigid grasps: f(0) on the constraint spaces
(:mod:`soagen.closed_chain.solve`)."""

from __future__ import annotations

import numpy as np

from soagen import algorithms as alg
from soagen.closed_chain import solve
from soagen.closed_chain.result import from_forces
from soagen.operators.chain import block_diag


def ccfd(ctx):
    """General CCFD (4.9) with an arbitrary open-chain solver (here Part I's FD3 through
    the public API, as a black box): free accelerations (4.9a-b); J M^-1 J^T column by
    column from the solver's response to unit tip forces (the Walker-Orin route the paper
    mentions); f(0) from (4.9d); corrections (4.9e-f) by one more solve with f(0) applied."""
    qf, af, Lams = [], [], []
    for t in ctx.arms:
        r, Rb6 = t.robot, t.Rb6
        q_f = alg.forward_dynamics(r, t.q, t.qd, t.tau, method="fd3")                 # (4.9a)
        J = Rb6 @ alg.jacobian(r, t.q)
        af.append(J @ q_f + t.jdot_qdot())                                             # (4.9b)
        cols = [alg.forward_dynamics(r, t.q, t.qd, t.tau, method="fd3", f_tip=Rb6.T @ e) - q_f
                for e in np.eye(6)]                                                    # -M^-1 J^T e_j
        Lams.append(-J @ np.array(cols).T)
        qf.append(q_f)
    A = ctx.A_stack()
    Omega = block_diag(Lams) + A @ ctx.M_C_inv() @ A.T                                 # (4.9c)
    f0 = solve.grasp_forces(ctx, Omega, solve.rhs(ctx, af))                            # (4.9d)
    qdd = [alg.forward_dynamics(t.robot, t.q, t.qd, t.tau, method="fd3", f_tip=t.Rb6.T @ f)
           for t, f in zip(ctx.arms, solve.per_arm(f0))]                               # (4.9e), (4.9g)
    return from_forces(ctx, qdd, f0)


def rccfd1(ctx):
    """RCCFD1 (6.11): 1) T', qdd_f, alpha_f(0) (6.11a-c); 2) J M^-1 J^T by (6.10), Omega,
    f(0) (6.11d-f); 3) Delta qdd = -(I - H Psi L)^T D^-1 H psi B f(0) by (6.4) and
    Delta alpha(0) = J Delta qdd (6.11g-h); 4) qdd = qdd_f + Delta qdd (6.11i),
    alpha(0) = alpha_f(0) + Delta alpha(0) (6.11j)."""
    free = [t.free() for t in ctx.arms]                                               # (6.11a-c)
    Omega = solve.omega(ctx)                                                           # (6.11d-e)
    f0 = solve.grasp_forces(ctx, Omega, solve.rhs(ctx, [a for _, a in free]))          # (6.11f)
    qdd, alpha0 = [], []
    for t, (q_f, a_f), f in zip(ctx.arms, free, solve.per_arm(f0)):
        dq, da = t.delta(f)                                                            # (6.11g-h)
        qdd.append(q_f + dq)                                                           # (6.11i)
        alpha0.append(a_f + da)                                                        # (6.11j)
    res = from_forces(ctx, qdd, f0)
    res.alpha0 = np.array(alpha0)
    return res


def rccfd2(ctx):
    """RCCFD2 (6.18): T' (6.18a); Omega (6.18b-c); f(0) = Omega^-1 {B^T psi^T H^T D^-1
    (I - H Psi L) T' - a'(C)} (6.18d), the first term from one filter and the smoother's
    lambda (6.12); then qdd = (I - H Psi L)^T D^-1 {T' - H psi (S L T' + B f(0))} (6.18e,
    transpose restored): one causal filtering of T' and f(0) together, one smoothing."""
    y = []
    for t in ctx.arms:
        _, JMinvT = t.smooth(t.filter(t.T_prime))                                      # (6.12)
        y.append(JMinvT + t.jdot_qdot())          # - a'(C) = ... - Jdot qd: r of (4.9d)
    f0 = solve.grasp_forces(ctx, solve.omega(ctx), solve.rhs(ctx, y))                  # (6.18d)
    qdd = [t.smooth(t.filter(t.T_prime, f))[0] for t, f in zip(ctx.arms, solve.per_arm(f0))]   # (6.18e)
    return from_forces(ctx, qdd, f0)


def rccfd3(ctx):
    """RCCFD3 (6.22): qdd = qdd_1 + qdd_2 with
    qdd_1 = (I - H Psi L)^T {D^-1 - D^-1 H psi B Omega^-1 B^T psi^T H^T D^-1}(I - H Psi L) T'
    (6.22f, four sweeps) and qdd_2 = (I - H Psi L)^T D^-1 H psi B zeta(C),
    zeta(C) = Omega^-1 a'(C) (6.22d, g); f(0) = Omega^-1 B^T psi^T H^T D^-1 (I - H Psi L) T'
    - zeta(C) (6.22e). Omega^-1 acts on the constraint spaces (Phi^c Omega_c^-1 Phi^c^T)."""
    nu, y = [], []
    for t in ctx.arms:
        n = t.filter(t.T_prime)                                                        # sweep 1
        nu.append(n)
        y.append(t.smooth(n)[1])                                  # sweep 2: B^T psi^T H^T nu
    Omega = solve.omega(ctx)
    Pc, Oc = solve.project(ctx, Omega)
    A = ctx.A_stack()
    jd = np.concatenate([t.jdot_qdot() for t in ctx.arms])
    a_prime = ctx.a_stack() - A @ ctx.M_C_inv() @ ctx.b_C - jd                          # (2.15b)
    zeta = Pc @ np.linalg.solve(Oc, Pc.T @ a_prime + np.concatenate(ctx.gamma))         # (6.22d)
    w = Pc @ np.linalg.solve(Oc, Pc.T @ np.concatenate(y))        # Omega^-1 B^T psi^T H^T nu
    f0 = w - zeta                                                                      # (6.22e)
    qdd = []
    for t, n, wi, zi in zip(ctx.arms, nu, solve.per_arm(w), solve.per_arm(zeta)):
        corr = t.filter(None, wi)                                 # sweep 3: -D^-1 H psi B w
        q1 = t.smooth([a + b for a, b in zip(n, corr)])[0]                             # (6.22f) sweep 4
        q2 = -t.smooth(t.filter(None, zi))[0]                                          # (6.22g)
        qdd.append(q1 + q2)                                                            # (6.22h)
    return from_forces(ctx, qdd, f0)
