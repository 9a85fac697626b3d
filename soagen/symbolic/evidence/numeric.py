"""Numeric cross-check of the catalogue on random robots (dense operators, N up to 50).

The operators come from :func:`soagen.operators.chain.chain_operators` (the literal, world-frame
dense builder, written independently of this package), so a residual near 1e-12 here
means the identity holds for real rigid-body chains and that the builder agrees with
the algebra.  Expressions are evaluated on :class:`~soagen.symbolic.models.dense.Dense`, a thin
wrapper over numpy arrays with the same operator syntax as the proof layer (``@``,
``.T``, ``I``).
Vectors the builder does not provide (T, T', thdd, y, f(0), ...) are random, from a
seeded generator.
"""

from __future__ import annotations

import numpy as np

from soagen.operators import chain as operators
from soagen.symbolic.engines.nfree import DERIVATIVES, evaluate_definitions
from soagen.symbolic.kernel.blocks import IllTyped
from soagen.symbolic.models.dense import Dense
from soagen.tolerances import ROBOT_RESIDUAL


def robot_namespace(robot, q, qd, rng, qdd=None) -> dict:
    """Operator namespace of one robot state, from the dense operator builder (with the
    derivative operators of :func:`soagen.operators.chain.derivative_operators`; thdd random unless qdd is given)."""
    from soagen.symbolic.kernel.blocks import I

    o = operators.chain_operators(robot, q, qd)
    N = o.N
    nv = []
    Hd = o.H
    for k in range(N):  # per-joint dofs from H's block structure
        rows = np.nonzero(np.any(Hd[:, 6 * k:6 * k + 6] != 0, axis=1))[0]
        nv.append(len(rows))
    if sum(nv) != Hd.shape[0]:
        raise IllTyped("cannot infer per-joint dofs from H")
    S_, R_, one = ["6"] * N, [f"r{n}" for n in nv], ["1"]

    def op(x, rd, cd):
        return Dense(x, rd, cd)
    ns = dict(
        phi=op(o.phi, S_, S_), Phi=op(o.Phi, S_, S_), psi=op(o.psi, S_, S_), Psi=op(o.Psi, S_, S_),
        phi_t=op(o.phi_tilde, S_, S_), psi_t=op(o.psi_tilde, S_, S_), S=op(o.S, S_, S_),
        H=op(o.H, R_, S_), M=op(o.M, S_, S_), P=op(o.P, S_, S_), D=op(o.D, R_, R_),
        Dinv=op(o.Dinv, R_, R_), L=op(o.L, S_, R_), G=op(o.G, S_, R_),
        Dphi=op(o.Delta_phi, S_, S_), Dpsi=op(o.Delta_psi, S_, S_),
        B=op(o.B, S_, ["6"]), E=op(o.E, S_, ["6"]), I=I)
    ns["Ephi"] = ns["S"] @ ns["Dphi"]                       # framework (2.3)
    ns["Epsi"] = ns["S"] @ ns["Dpsi"]
    ns["K"] = ns["Ephi"] @ ns["G"]                           # framework (3.2)
    ns["tau"] = ns["G"] @ ns["H"]
    ns["taub"] = I - ns["tau"]
    ns["Mcal"] = ns["H"] @ ns["phi"] @ ns["M"] @ ns["phi"].T @ ns["H"].T
    ns["J"] = ns["B"].T @ ns["phi"].T @ ns["H"].T
    ns["a"] = op(o.a.reshape(-1, 1), S_, one)
    ns["b"] = op(o.b.reshape(-1, 1), S_, one)
    ns["C"] = ns["H"] @ ns["phi"] @ (ns["M"] @ ns["phi"].T @ ns["a"] + ns["b"])
    n = sum(nv)
    for name in ("T", "Tp", "thd", "thdd"):
        ns[name] = op(rng.normal(size=(n, 1)), R_, one)
    if qdd is not None:
        ns["thdd"] = op((o.Pi @ np.asarray(qdd, float)).reshape(-1, 1), R_, one)
    for name, x in operators.derivative_operators(o, ns["thdd"].a[:, 0]).items():
        ns[name] = op(x, S_, R_ if name in ("Sdot", "Psidot", "Psiddot") else S_)
    ns.update(evaluate_definitions(ns, DERIVATIVES))   # hbar, Ccor, Mcaldot, dT/dtheta, dT/dtheta_dot
    ns["y"] = op(rng.normal(size=(6 * N, 1)), S_, one)
    ns["f0"] = op(rng.normal(size=(6, 1)), ["6"], one)
    ns["a0"] = op(rng.normal(size=(6, 1)), ["6"], one)
    ns["g"] = op(o.g.reshape(-1, 1), ["6"], one)
    X = rng.normal(size=(3, 3))
    Om = rng.normal(size=(6, 6))
    ns["At"] = op(rng.normal(size=(6, 3)), ["6"], ["e"])
    ns["Xinv"] = op(X + X.T, ["e"], ["e"])
    ns["Ominv"] = op(Om + Om.T, ["6"], ["6"])
    ns["apC"] = op(rng.normal(size=(6, 1)), ["6"], one)
    Dh = np.zeros_like(o.Dinv)
    i = 0
    for k in nv:  # D^-1/2 block by block
        w, V = np.linalg.eigh(o.Dinv[i:i + k, i:i + k])
        Dh[i:i + k, i:i + k] = V @ np.diag(np.sqrt(w)) @ V.T
        i += k
    ns["Dh"] = op(Dh, R_, R_)
    return ns


def robot_chain_ops(robot, q, qd, rng):
    """A block-operator :class:`ChainOps` whose primitive blocks (phi(k+1,k), H, M, and P, D^-1
    from the builder's own Riccati recursion) come from a real robot state; used for the
    recursion-level identities, which need individual blocks (small N only: block loops)."""
    from soagen.symbolic.kernel.blocks import NumericField, split_dense
    from soagen.symbolic.models.chain import (
        RATES,
        VECTORS,
        ChainOps,
        Primitives,
        flexible_blocks,
    )

    o = operators.chain_operators(robot, q, qd)
    N = o.N
    nv = [int(np.count_nonzero(np.any(o.H[:, 6 * k:6 * k + 6] != 0, axis=1))) for k in range(N)]
    f = NumericField()
    S6, R_ = [6] * N, nv
    blk = lambda A, rd, cd: split_dense(f, A, rd, cd)   # noqa: E731
    phi, H, M, P, Di = (blk(o.phi, S6, S6), blk(o.H, R_, S6), blk(o.M, S6, S6), blk(o.P, S6, S6),
                        blk(o.Dinv, R_, R_))
    Dphi = blk(o.Delta_phi, S6, S6)
    z6 = lambda x: np.zeros((6, 6)) if x is None else x  # noqa: E731
    phi1 = {0: o.B[:6].copy(), N: z6(Dphi[N, N])}
    for k in range(1, N):
        phi1[k] = z6(phi[k + 1, k])
    pr = Primitives(N, f, 6, {k: nv[k - 1] for k in range(1, N + 1)}, phi1,
                    {k: H[k, k] if H[k, k] is not None else np.zeros((nv[k - 1], 6)) for k in range(1, N + 1)},
                    {k: P[k, k] for k in range(1, N + 1)}, {k: Di[k, k] for k in range(1, N + 1)},
                    {k: M[k, k] for k in range(1, N + 1)})
    a, b = o.a.reshape(-1, 1), o.b.reshape(-1, 1)
    for name, (space, _) in VECTORS.items():
        if name in ("a", "b"):
            src = a if name == "a" else b
            pr.vec[name] = {k: src[6 * (k - 1):6 * k] for k in range(1, N + 1)}
        else:
            pr.vec[name] = {k: rng.normal(size=(6 if space == "s" else nv[k - 1], 1)) for k in range(1, N + 1)}
    pr.vec["f0"] = {0: rng.normal(size=(6, 1))}
    pr.vec["a0"] = {0: rng.normal(size=(6, 1))}
    pr.vec["g"] = {0: o.g.reshape(-1, 1)}
    X, Om = rng.normal(size=(3, 3)), rng.normal(size=(6, 6))
    pr.extra = {"At": (rng.normal(size=(6, 3)), 6, 3), "Xinv": (X + X.T, 3, 3), "Ominv": (Om + Om.T, 6, 6),
                "apC": (rng.normal(size=(6, 1)), 6, 1)}
    pr.chi1 = {k: rng.normal(size=(6, 6)) for k in range(0, N + 1)}
    rates = operators.derivative_operators(o, rng.normal(size=sum(nv)))
    for name, (space, _) in RATES.items():
        split = blk(rates[name], S6, S6 if space == "s" else R_)
        pr.rates[name] = {k: split[k, k] for k in range(1, N + 1)}
    pr.flex = flexible_blocks(phi1, N, rng)           # nodes on the robot's links (framework Section 4)
    return ChainOps(pr)


def random_state(robot, rng):
    """Random q (unit quaternions for spherical/free joints) and qd."""
    return robot.random_configuration(rng), rng.normal(size=robot.nv)


def cross_check(records, Ns=(1, 2, 5, 10, 25, 50), seed: int = 2026,
                joint_types=("revolute", "prismatic"), block_nmax: int = 10) -> dict:
    """{record id: (max relative residual, N at the maximum, error or '')} over random robots.

    Operator-level identities run on the dense operators for every N; recursion-level ones
    (record.robot False), and the code checks of a record, on block operators built from the
    same robot for N <= block_nmax."""
    from soagen.loaders.random_robots import random_chain
    from soagen.symbolic.evidence.verify import check_numeric
    from soagen.symbolic.models.chain import chain_namespace

    rng = np.random.default_rng(seed)
    out = {r.id: (0.0, None, "") for r in records if r.theory == "chain"}
    for N in Ns:
        robot = random_chain(N, rng, joint_types=joint_types)
        q, qd = random_state(robot, rng)
        ns = robot_namespace(robot, q, qd, rng)
        ns_blocks = chain_namespace(robot_chain_ops(robot, q, qd, rng)) if N <= block_nmax else None
        for rec in records:
            if rec.id not in out or (not rec.robot and ns_blocks is None):
                continue
            checks = rec.corrected if rec.misprint else rec.checks
            runs = [check_numeric(checks, rec.let, ns if rec.robot else ns_blocks, tol=ROBOT_RESIDUAL)]
            if rec.code and ns_blocks is not None:       # the code runs on the robot's blocks
                runs.append(check_numeric(rec.code, rec.let, ns_blocks, tol=ROBOT_RESIDUAL))
            for res in runs:
                worst, at, err = out[rec.id]
                if res.detail:
                    out[rec.id] = (worst, at, f"N={N}: {res.detail}")
                elif res.residual >= worst:
                    out[rec.id] = (res.residual, N, err)
    return out
