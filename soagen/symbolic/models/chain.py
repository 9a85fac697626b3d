"""The spatial operators of a serial chain of N links, on symbols or on numbers.

Numbering as in Part I: links tip = 1 .. base = N, joint k connects links k and k+1.
Everything is built from the primitive blocks

    phi(k+1, k)  k = 0..N   (phi(1,0) feeds B, phi(N+1,N) feeds E and L(N))
    H(k), P(k), D^-1(k)     k = 1..N   (P, D^-1 symmetric)
    M(k)                    k = 1..N   (symbolic: eliminated in favour of P, see below)

and the definitions of the papers:

    phi(i,j) = phi(i,i-1) ... phi(j+1,j)                 (3.2)-(3.3)
    D(k) = H(k) P(k) H^T(k);  G(k) = P(k) H^T(k) D^-1(k)  (4.4)-(4.6), (5.12)
    L(k) = phi(k+1,k) G(k)                              (4.6)
    psi(k+1,k) = phi(k+1,k) - L(k) H(k) = phi(k+1,k) tau-bar(k)   (4.7), framework (3.2)
    M(k) = P(k) - phi(k,k-1) [P(k-1) - P H^T D^-1 H P (k-1)] phi^T(k,k-1), P(0) = 0
                                                        (4.5) solved for M, framework (3.1)

The symbolic theory (:func:`soa_theory`) has exactly two rewriting rules per joint,
D^-1(k) H(k) P(k) H^T(k) -> I and its transpose H(k) P(k) H^T(k) D^-1(k) -> I; they
are length-decreasing and their overlaps are confluent (checked by a test), so the
normal form decides equality in the algebra these relations generate.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from dataclasses import field as dc_field
from types import MappingProxyType

import numpy as np

from soagen.symbolic.kernel.blocks import BM, I, NumericField, SymbolicField, blk2, vcat
from soagen.symbolic.kernel.ncpoly import QuotientAlgebra
from soagen.symbolic.models import block_state, block_values


# ---------------------------------------------------------------------------
# primitive blocks
# ---------------------------------------------------------------------------
@dataclass
class Primitives:
    """The primitive blocks of one chain instance (symbolic or numeric)."""

    N: int
    field: object
    sdim: object                      # spatial dimension label ("6" or 6)
    rdim: dict                        # k -> joint dimension label
    phi1: dict                        # k -> phi(k+1, k), k = 0..N
    H: dict                           # k -> H(k)
    P: dict                           # k -> P(k)
    Dinv: dict                        # k -> D^-1(k)
    M: dict                           # k -> M(k)
    vec: dict = dc_field(default_factory=dict)   # name -> {k: block}
    extra: dict = dc_field(default_factory=dict)  # name -> (block, rdim, cdim): free extra matrices
    chi1: dict = dc_field(default_factory=dict)   # k -> chi(k+1,k): a free transition (Lemma A.1 in general)
    rates: dict = dc_field(default_factory=dict)  # name -> {k: block}: the rates of the derivatives (RATES)
    flex: dict = dc_field(default_factory=dict)   # the nodal blocks of flexible links (FLEX), framework Section 4


# The block-diagonal rates of the derivatives (docs/derivatives.md (D.2)-(D.6)): name -> (column
# space, meaning).  B(k) is free (not symmetric); Mdot(k) = B(k) + B^T(k), which is (D.2)'s
# B + B^T = Mdot with Mdot symmetric and (M V) xbar* = B - B^T skew.
RATES = {
    "Bcor": ("s", "body Coriolis operator B(k) (D.2)"),
    "fbar": ("s", "f(k) xbar* (D.2)"),
    "Sdot": ("j", "the axis rate V(k) x H^T(k) (D.4)"),
    "Psidot": ("j", "V_p(k) x H^T(k) (D.5)"),
    "Psiddot": ("j", "A_p(k) x H^T(k) + V_p(k) x Psidot(k) (D.6)"),
}


# The nodal blocks of flexible links (framework Section 4): name -> meaning.  Per link k the labels
# "n<k>" (6 n_k, its nodes) and "u<k>" (6 (n_k - 1), its free dofs); Cf(k) exists for k >= 2.
FLEX = {
    "Bf": "B_k = [phi(O_k, Q_k(1)) .. phi(O_k, Q_k(n_k))] (4.3)",
    "Cf": "C_k, C_k^* = [phi^*(Q_k(1), O_{k-1}), 0, .., 0] (4.2), k = 2..N",
    "h": "h_k = [I, 0]: u_k = h_k u_k^f",
    "m": "nodal mass matrix m_k (symmetric)",
    "u": "flexible dof rates u_k",
}


def soa_theory(N: int) -> QuotientAlgebra:
    """Generators and rules for a chain of N links (see module docstring; the flexible links'
    B_k C_k = phi(k, k-1) of framework Section 4 is a rule too, length-decreasing)."""
    th = QuotientAlgebra(f"SOA chain N={N}")
    for k in range(0, N + 1):
        th.gen(f"phi({k + 1},{k})")
    for k in range(1, N + 1):
        th.gen(f"H({k})")
        th.gen(f"P({k})", symmetric=True)
        th.gen(f"Dinv({k})", symmetric=True)
        for name in RATES:
            th.gen(f"{name}({k})")
    for k in range(1, N + 1):
        Hk, HkT, Pk, Dk = f"H({k})", f"H({k})^T", f"P({k})", f"Dinv({k})"
        th.add_rule((Dk, Hk, Pk, HkT), 1)          # D^-1 D = I   (a.1)
    for k in range(1, N + 1):
        th.gen(f"Bf({k})")
        th.gen(f"h({k})")
        th.gen(f"m({k})", symmetric=True)
        th.gen(f"u({k})")
        if k > 1:
            th.gen(f"Cf({k})")
            th.add_rule((f"Bf({k})", f"Cf({k})"), th.gen(f"phi({k},{k - 1})"))   # B_k C_k = phi(k, k-1)
    return th


VECTORS = {  # name -> (space, paper meaning)
    "a": ("s", "bias accelerations a(k) (2.19)"),
    "b": ("s", "bias forces b(k) (2.23)"),
    "T": ("j", "joint forces T(k)"),
    "Tp": ("j", "bias-free joint forces T'(k) (3.22)"),
    "thd": ("j", "joint rates"),
    "thdd": ("j", "joint accelerations"),
    "y": ("s", "a generic spatial vector"),
}


def symbolic_primitives(N: int, rlabels: dict | None = None) -> Primitives:
    """Symbolic blocks; `rlabels` (k -> label) names the joint dimensions, e.g. all "1" for
    scalar joints (default "r1".."rN": any r_k, including multi-dof)."""
    th = soa_theory(N)
    f = SymbolicField(th)
    phi1 = {k: th.gen(f"phi({k + 1},{k})") for k in range(0, N + 1)}
    H = {k: th.gen(f"H({k})") for k in range(1, N + 1)}
    P = {k: th.gen(f"P({k})", symmetric=True) for k in range(1, N + 1)}
    Dinv = {k: th.gen(f"Dinv({k})", symmetric=True) for k in range(1, N + 1)}
    M = {}
    for k in range(1, N + 1):  # (4.5) solved for M(k); P(0) = 0
        M[k] = P[k]
        if k > 1:
            Pm = P[k - 1] - P[k - 1] @ H[k - 1].T @ Dinv[k - 1] @ H[k - 1] @ P[k - 1]
            M[k] = P[k] - phi1[k - 1] @ Pm @ phi1[k - 1].T
    vec = {}
    for name in VECTORS:
        vec[name] = {k: th.gen(f"{name}({k})") for k in range(1, N + 1)}
    vec["f0"] = {0: th.gen("f(0)")}
    vec["a0"] = {0: th.gen("a(0)")}
    vec["g"] = {0: th.gen("g")}
    extra = {"At": (th.gen("A^*", transpose="A"), "6", "e"),          # closure map A^* (framework)
             "Xinv": (th.gen("Xinv", symmetric=True), "e", "e"),     # (A Lambda A^*)^-1, any symmetric
             "Ominv": (th.gen("Ominv", symmetric=True), "6", "6"),   # Omega^-1 of Part II, any symmetric
             "apC": (th.gen("a'(C)"), "6", "1")}                    # a'(C) of Part II (2.15)
    labels = rlabels or {k: f"r{k}" for k in range(1, N + 1)}
    pr = Primitives(N, f, "6", labels, phi1, H, P, Dinv, M, vec)
    pr.extra = extra
    pr.chi1 = {k: th.gen(f"chi({k + 1},{k})") for k in range(0, N + 1)}
    pr.rates = {name: {k: th.gen(f"{name}({k})") for k in range(1, N + 1)} for name in RATES}
    pr.flex = {"nodes": {k: f"n{k}" for k in range(1, N + 1)}, "free": {k: f"u{k}" for k in range(1, N + 1)},
               **{name: {k: th.gen(f"{name}({k})", symmetric=name == "m") for k in range(1 + (name == "Cf"), N + 1)}
                  for name in FLEX}}
    return pr


def random_primitives(N: int, rng: np.random.Generator, dofs=None) -> Primitives:
    """A random numeric chain: rigid-body-shaped phi, random H (r_k x 6), SPD M.

    P follows from M by the Riccati recursion (4.4)-(4.6), so the instance satisfies
    every defining relation; it is used for counterexamples and residuals.
    """
    dofs = dofs or [1 + (k % 3 == 2) * 2 for k in range(1, N + 1)]  # mix of 1 and 3 dof
    f = NumericField()

    def skew(v):
        return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])

    phi1 = {}
    for k in range(0, N + 1):
        m = np.eye(6)
        m[:3, 3:] = skew(rng.normal(size=3))
        phi1[k] = m
    H = {k: rng.normal(size=(dofs[k - 1], 6)) for k in range(1, N + 1)}
    M = {}
    for k in range(1, N + 1):
        A = rng.normal(size=(6, 6))
        M[k] = A @ A.T + 6 * np.eye(6)
    P, Dinv = {}, {}
    for k in range(1, N + 1):  # (4.4)-(4.6)
        P[k] = M[k].copy()
        if k > 1:
            Pm = P[k - 1] - P[k - 1] @ H[k - 1].T @ Dinv[k - 1] @ H[k - 1] @ P[k - 1]
            P[k] = phi1[k - 1] @ Pm @ phi1[k - 1].T + M[k]
        Dinv[k] = np.linalg.inv(H[k] @ P[k] @ H[k].T)
    vec = {}
    for name, (space, _) in VECTORS.items():
        vec[name] = {k: rng.normal(size=(6 if space == "s" else dofs[k - 1], 1)) for k in range(1, N + 1)}
    vec["f0"] = {0: rng.normal(size=(6, 1))}
    vec["a0"] = {0: rng.normal(size=(6, 1))}
    vec["g"] = {0: rng.normal(size=(6, 1))}
    X = rng.normal(size=(3, 3))
    Om = rng.normal(size=(6, 6))
    pr = Primitives(N, f, 6, {k: dofs[k - 1] for k in range(1, N + 1)}, phi1, H, P, Dinv, M, vec)
    pr.extra = {"At": (rng.normal(size=(6, 3)), 6, 3), "Xinv": (X + X.T, 3, 3), "Ominv": (Om + Om.T, 6, 6),
                "apC": (rng.normal(size=(6, 1)), 6, 1)}
    pr.chi1 = {k: rng.normal(size=(6, 6)) for k in range(0, N + 1)}
    pr.rates = {name: {k: rng.normal(size=(6, 6 if space == "s" else dofs[k - 1])) for k in range(1, N + 1)}
                for name, (space, _) in RATES.items()}
    pr.flex = flexible_blocks(phi1, N, rng)
    return pr


def flexible_blocks(phi1: dict, N: int, rng: np.random.Generator) -> dict:
    """Random numeric nodal blocks of a chain with the steps phi1[k] = phi(k+1, k), from their
    definitions (:mod:`soagen.symbolic.models.nodes`): B_k, C_k (child k-1 at node 1), h_k, m_k, u_k."""
    from soagen.symbolic.models import nodes
    from soagen.symbolic.models.instances import Reals

    ar, ns = Reals(rng), nodes.node_counts(N)
    r = {k: nodes.offsets(ar, ns[k - 1]) for k in range(1, N + 1)}
    return {"nodes": {k: 6 * ns[k - 1] for k in r}, "free": {k: 6 * (ns[k - 1] - 1) for k in r},
            "Bf": {k: nodes.B_block(ar, r[k]) for k in r},
            "Cf": {k: nodes.C_block(ar, r[k], 1, phi1[k - 1]) for k in r if k > 1},
            "h": {k: nodes.h_block(ar, ns[k - 1]) for k in r},
            "m": {k: nodes.m_block(ar, ns[k - 1]) for k in r},
            "u": {k: rng.normal(size=(6 * (ns[k - 1] - 1), 1)) for k in r}}


# ---------------------------------------------------------------------------
# the operators
# ---------------------------------------------------------------------------
class ChainOps:
    """The papers' operators for one chain instance, as attributes.

    Names: phi, Phi, psi, Psi, psi_t (psi~), phi_t (phi~), S, H, M, P, D, Dinv, L, G,
    Dphi (Delta_phi), Dpsi (Delta_psi), B, E, Ephi, Epsi, K, tau, taub (tau-bar),
    Mcal (the mass matrix), Minv (Theorem 4.1 factor form, used where a statement
    involves M^-1 of a *proved* factorization), J, C, U (Upsilon), and the vectors a, b, T, Tp,
    thdd, y (N x 1 blocks), f0, g (1 x 1 blocks).
    """

    def __init__(self, pr: Primitives):
        self.pr = pr
        N, f, s = pr.N, pr.field, pr.sdim
        S_ = [s] * N
        R_ = [pr.rdim[k] for k in range(1, N + 1)]
        self.N, self.S_dims, self.R_dims = N, S_, R_
        one_s = f.one(s)

        # memoryless operators
        self.H = BM.diag(f, R_, S_, [pr.H[k] for k in range(1, N + 1)])
        self.M = BM.diag(f, S_, S_, [pr.M[k] for k in range(1, N + 1)])
        self.P = BM.diag(f, S_, S_, [pr.P[k] for k in range(1, N + 1)])
        self.Dinv = BM.diag(f, R_, R_, [pr.Dinv[k] for k in range(1, N + 1)])
        self.D = self.H @ self.P @ self.H.T                        # (a.1)
        self.G = self.P @ self.H.T @ self.Dinv                     # (a.2)
        self.Dphi = BM.diag(f, S_, S_, [pr.phi1[k] for k in range(1, N + 1)])   # (a.4)
        self.L = self.Dphi @ self.G                                # (a.12) = (4.6)
        self.tau = self.G @ self.H                                 # framework (3.2)
        self.taub = I - self.tau
        # psi(k+1,k) = phi(k+1,k) - L(k) H(k)                       (4.7)
        self.psi1 = {0: pr.phi1[0]}                                # L(0) H(0) = 0
        for k in range(1, N + 1):
            self.psi1[k] = pr.phi1[k] - self.L[k, k] @ pr.H[k]
        self.Dpsi = BM.diag(f, S_, S_, [self.psi1[k] for k in range(1, N + 1)])  # (a.5)

        # causal operators by the semigroup rule (3.2)-(3.3), (4.7)
        self.phi = self._transition(pr.phi1, one_s)
        self.psi = self._transition(self.psi1, one_s)
        self.S = BM.zeros(f, S_, S_)                               # (5.2)
        for k in range(1, N):
            self.S.b[k][k - 1] = f.one(s)
        self.Phi = self.phi @ self.S                               # (4.9) = (a.6)
        self.Psi = self.psi @ self.S                               # (4.10) = (a.7)
        self.chi = self._transition(pr.chi1, one_s)               # a free causal semigroup
        self.Dchi = BM.diag(f, S_, S_, [pr.chi1[k] for k in range(1, N + 1)])   # diag chi(k+1, k)
        self.chi_t = self.chi - I
        self.phi_t = self.phi - I                                  # (a.3)
        self.psi_t = self.psi - I                                  # (5.11)
        self.Ephi = BM.zeros(f, S_, S_)                            # framework (2.3)
        self.Epsi = BM.zeros(f, S_, S_)
        for k in range(1, N):
            self.Ephi.b[k][k - 1] = pr.phi1[k]
            self.Epsi.b[k][k - 1] = self.psi1[k]
        self.K = self.Ephi @ self.G                                # framework (3.2)

        # tip and base
        self.B = BM.zeros(f, S_, [s])                              # (3.7)
        self.B.b[0][0] = pr.phi1[0]
        self.E = BM.zeros(f, S_, [s])                              # (3.8), read as gravity needs it
        self.E.b[N - 1][0] = pr.phi1[N].T

        # vectors
        one = [1 if isinstance(s, int) else "1"]
        for name, (space, _) in VECTORS.items():
            rows = S_ if space == "s" else R_
            v = BM.zeros(f, rows, one)
            for k in range(1, N + 1):
                v.b[k - 1][0] = pr.vec[name][k]
            setattr(self, name, v)
        self.f0 = BM(f, [s], one, [[pr.vec["f0"][0]]])
        self.a0 = BM(f, [s], one, [[pr.vec["a0"][0]]])
        self.g = BM(f, [s], one, [[pr.vec["g"][0]]])

        # composite operators
        self.Mcal = self.H @ self.phi @ self.M @ self.phi.T @ self.H.T   # (3.20)
        self.J = self.B.T @ self.phi.T @ self.H.T                  # (3.13)
        self.C = self.H @ self.phi @ (self.M @ self.phi.T @ self.a + self.b)  # (3.20)
        self.U = block_state.computed(block_state.bind(self)["upsilon"])   # Upsilon by the code of (A.5)
        self.I = I
        for name, (x, r, c) in pr.extra.items():
            setattr(self, name, BM(f, [r], [c], [[x]]))
        if pr.rates:
            self._derivative_operators()
        if pr.flex:
            self._flexible_operators()
        self._structure_operators()
        if isinstance(f, NumericField):  # D^-1/2, only needed to evaluate framework (3.13) as printed
            def inv_sqrt(Dk):
                w, V = np.linalg.eigh(np.linalg.inv(Dk))
                return V @ np.diag(np.sqrt(w)) @ V.T
            self.Dh = BM.diag(f, R_, R_, [inv_sqrt(self.D[k, k]) for k in range(1, N + 1)])

    def _derivative_operators(self) -> None:
        """The operators of docs/derivatives.md: the rates block by block (RATES), Mdot = B + B^T,
        the composites R and B_c by the loop of (a.44) with psi = phi, and the operator forms
        (hbar, the Coriolis matrix, Mdot of the mass matrix, dT/dtheta, dT/dtheta_dot) by the
        algebra's own definitions."""
        from soagen.symbolic.engines.nfree import DERIVATIVES, evaluate_definitions

        pr, f, N = self.pr, self.pr.field, self.N
        for name, (space, _) in RATES.items():
            cols = self.S_dims if space == "s" else self.R_dims
            setattr(self, name, BM.diag(f, self.S_dims, cols, [pr.rates[name][k] for k in range(1, N + 1)]))
        self.Mdot = self.Bcor + self.Bcor.T                        # (D.2)
        composites = block_state.bind(self)["composite_inertias"]    # the code of (a.44), Corollary A.1
        self.R = block_state.computed(lambda: composites(self.M))
        self.Bcor_c = block_state.computed(lambda: composites(self.Bcor))
        for name, value in evaluate_definitions(self.namespace(), DERIVATIVES).items():
            setattr(self, name, value)

    def _flexible_operators(self) -> None:
        """The nodal operators of framework Section 4: B = diag B_k (4.3), C with C_k at (k, k-1)
        (4.1)-(4.2), h = diag h_k, m = diag m_k, the vector u."""
        fl, f, N = self.pr.flex, self.pr.field, self.N
        F_ = [fl["nodes"][k] for k in range(1, N + 1)]
        U_ = [fl["free"][k] for k in range(1, N + 1)]
        self.F_dims, self.U_dims = F_, U_
        self.Bf = BM.diag(f, self.S_dims, F_, [fl["Bf"][k] for k in range(1, N + 1)])
        self.Cf = BM.zeros(f, F_, self.S_dims)
        for k in range(2, N + 1):
            self.Cf.b[k - 1][k - 2] = fl["Cf"][k]
        self.h = BM.diag(f, U_, F_, [fl["h"][k] for k in range(1, N + 1)])
        self.m = BM.diag(f, F_, F_, [fl["m"][k] for k in range(1, N + 1)])
        self.u = self.stack(fl["u"], U_)

    def _structure_operators(self) -> None:
        """The operators of the block structure (:data:`soagen.symbolic.engines.nfree.STRUCTURE`) on the
        chain: e1, e1j select block 1 (the tip link and its joint), eN, eNj block N; phi10 =
        phi(1,0), phiN = phi(N+1,N); Nc = S S^T, Ncj = diag(0, I, .., I) on the joints, Ncp, Ncpj =
        diag(I, .., I, 0); X_1, X_N the first and last blocks of every block-diagonal X."""
        from soagen.symbolic.engines.nfree import DIAGONAL

        pr, f, N, s = self.pr, self.pr.field, self.N, self.pr.sdim
        for name, k, rows, col in (("e1", 1, self.S_dims, s), ("eN", N, self.S_dims, s),
                                   ("e1j", 1, self.R_dims, self.R_dims[0]), ("eNj", N, self.R_dims, self.R_dims[-1])):
            e = BM.zeros(f, rows, [col])
            e.b[k - 1][0] = f.one(col)
            setattr(self, name, e)
        self.phi10 = self._one_by_one(pr.phi1[0])
        self.phiN = self._one_by_one(pr.phi1[N])
        self.Nc = self.S @ self.S.T
        for name, dims, skip in (("Ncj", self.R_dims, 1), ("Ncp", self.S_dims, N), ("Ncpj", self.R_dims, N)):
            setattr(self, name, BM.diag(f, dims, dims, [0 * f.one(d) if k == skip else f.one(d)
                                                        for k, d in enumerate(dims, start=1)]))
        sel = {"1": {"s": self.e1, "j": self.e1j}, "N": {"s": self.eN, "j": self.eNj}}
        for x in DIAGONAL + ("Nc", "Ncj", "Ncp", "Ncpj"):
            X = getattr(self, x, None)
            if not isinstance(X, BM):         # absent, or not computed (its blocks raise as it does)
                for where in sel:
                    if X is not None:
                        setattr(self, f"{x}_{where}", X)
                continue
            rows = "j" if X.rdims == self.R_dims else "s"
            cols = "j" if X.cdims == self.R_dims else "s"
            for where, e in sel.items():
                setattr(self, f"{x}_{where}", e[rows].T @ X @ e[cols])

    def _transition(self, one_step: dict, one_s) -> BM:
        """Lower block-triangular operator with blocks x(i,j) = x(i,i-1)...x(j+1,j)."""
        N, f, S_ = self.N, self.pr.field, self.S_dims
        m = BM.zeros(f, S_, S_)
        for j in range(1, N + 1):
            m.b[j - 1][j - 1] = f.one(self.pr.sdim)
            for i in range(j + 1, N + 1):
                m.b[i - 1][j - 1] = one_step[i - 1] @ m.b[i - 2][j - 1]
        return m

    # -- helpers for statements that talk about single blocks or recursions --------
    def phi_(self, i, j):
        """phi(i, j) as a 1 x 1 block operator (i >= j, 0 <= j, i <= N+1)."""
        return self._one_by_one(self._blk(self.pr.phi1, i, j))

    def psi_(self, i, j):
        return self._one_by_one(self._blk(self.psi1, i, j))

    def _blk(self, steps, i, j):
        f, s = self.pr.field, self.pr.sdim
        x = f.one(s)
        for k in range(j, i):
            x = steps[k] @ x
        return x

    def _one_by_one(self, x, rdim=None, cdim=None):
        s = self.pr.sdim
        return BM(self.pr.field, [rdim or s], [cdim or s], [[x]])

    def block(self, op, i, j):
        """Block (i, j) of an operator as a 1 x 1 block operator."""
        return BM(self.pr.field, [op.rdims[i - 1]], [op.cdims[j - 1]], [[op.b[i - 1][j - 1]]])

    def stack(self, entries, rows):
        """N x 1 vector from a dict k -> block (None = 0)."""
        one = [1 if isinstance(self.pr.sdim, int) else "1"]
        v = BM.zeros(self.pr.field, rows, one)
        for k, x in entries.items():
            v.b[k - 1][0] = x
        return v

    def namespace(self) -> dict:
        ns = {k: v for k, v in vars(self).items() if not k.startswith("_")}
        ns.update(phi_=self.phi_, psi_=self.psi_, block=self.block, ops=self)
        return ns


def symbolic_chain(N: int, rlabels: dict | None = None) -> ChainOps:
    return ChainOps(symbolic_primitives(N, rlabels))


def random_chain_ops(N: int, seed: int = 0, dofs=None) -> ChainOps:
    return ChainOps(random_primitives(N, np.random.default_rng(seed), dofs))


def chain_namespace(ops: ChainOps) -> dict:
    """The names a catalogue check may use on one chain: the operators, the recursions of
    soagen.dynamics run on its blocks (:mod:`~soagen.symbolic.models.block_state`), the printed
    loops and sums of the papers (:mod:`~soagen.symbolic.models.block_values`), blk2, vcat and I."""
    ns = ops.namespace()
    ns.update(block_state.bind(ops))
    ns.update(block_values.bind(ops))
    ns.update(blk2=blk2, vcat=vcat, I=I)
    return ns


@functools.lru_cache(maxsize=None)
def symbolic_chain_namespace(N: int) -> MappingProxyType:
    """:func:`chain_namespace` of the symbolic chain of N links (built once per N; read-only,
    copy it to bind more names)."""
    return MappingProxyType(chain_namespace(symbolic_chain(N)))
