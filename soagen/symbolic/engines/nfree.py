"""The N-free operator algebra: identities proved for every chain length at once.

The papers never fix N.  Part I's Appendix A and the framework paper prove everything
with whole operators and a few defining relations; so does this module.

* **Generators** are whole operators (phi, psi, S, Delta_phi, H, P, D^-1, B, E, the
  vectors a, b, T, ..., and the nodal operators B, C, h, m of flexible links, framework
  Section 4, named Bf, Cf, h, m), each typed as a map between two spaces: ``s`` (spatial, 6
  per link), ``j`` (joint, r_k per joint), ``f`` (nodal, 6 n_k per link), ``u`` (the
  flexible dofs, 6 (n_k - 1) per link), ``6`` (one spatial vector: the tip, the base, a
  contact), ``1`` (a column), ``e`` (closure constraints).  A product or sum that does
  not conform is refused (:class:`~soagen.symbolic.kernel.blocks.IllTyped`), so ill-typed
  statements are refuted without numbers.  Transpose is an anti-automorphism; P, D^-1,
  M, ... are symmetric.
* **Definitions** (Phi = phi S, G = P H^T D^-1, L = Delta_phi G, E_phi = S Delta_phi, M by
  the Riccati equation, ...) and **relations** (phi (I - E_phi) = I, D^-1 D = I, ...) are
  data records (:data:`RELATIONS`), each an oriented rule ``lhs -> rhs`` with its source
  in the papers.  Every rule and its transpose must decrease in the stated order
  (:data:`RANKS`, weights derived from the definitions); one that does not is refused (a
  relation that is its own transpose, B^T = Mdot - B, has one orientation).
* The **derivatives** of docs/derivatives.md (after Jain and Rodriguez, "Linearization of
  manipulator dynamics using spatial operators", IEEE Trans. SMC 1993) bring the rates
  Mdot, B, Sdot, Psidot, Psiddot, fbar and the composites R, B_c with three relations
  (B + B^T = Mdot, and the composite loops (a.44) read as operator equations) and the
  definitions of hbar, the Coriolis matrix, the rate of the mass matrix, dT/dtheta and
  dT/dtheta_dot; like Lemma A.1's chi and Upsilon, they enter a theory only when a
  statement uses them (:data:`MODULES`), so the papers' theories are unchanged.  So does
  B C = E_phi of flexible links (relation flex-BC, proved block by block from B_k C_k =
  phi(k, k-1): certificate FW-4.BC).
* A **theory** (chain or tree topology, plus a record's own hypotheses) is completed to a
  confluent rewriting system (:func:`soagen.symbolic.kernel.rewriting.complete`); an identity is
  proved for every N when ``lhs - rhs`` reduces to 0, and the reduction's trace is the
  certificate (``lhs - rhs = sum c u relation v``) that the independent checker
  re-expands.

Only relations that hold for every N (and, unless marked chain-only, for every tree)
enter, so a reduction to 0 is a proof for all N.  A nonzero normal form is *not* a
refutation (the relations do not capture everything true, e.g. nilpotency of E_phi);
refutations come with numbers (:mod:`soagen.symbolic.evidence.prove`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

from soagen.symbolic.kernel import statement
from soagen.symbolic.kernel.blocks import (
    BM,
    Field,
    IllTyped,
    ScaledIdentity,
    blk2,
    vcat,
)
from soagen.symbolic.kernel.rewriting import (
    Order,
    Rule,
    check_decreasing,
    complete,
    format_poly,
    padd,
    pmul,
    pscale,
    ptranspose,
)


# ----------------------------------------------------------------------------- typed operators
class NotApplicable(ValueError):
    """A statement outside what a theory is for (a block index, a recursion, a dense operator in
    a block-sparse theory): another engine decides it.  `name`: what the algebra does not have."""

    def __init__(self, message: str, name: str = ""):
        super().__init__(message)
        self.name = name


class Op:
    """An element of the free algebra with its type (codomain, domain).

    ``typ`` None marks a multiple of the identity (``I``, integers), which takes the type
    of whatever it is added to or multiplied with.
    """

    __slots__ = ("poly", "typ", "alg")
    __array_ufunc__ = None

    def __init__(self, alg: "Algebra", poly: dict, typ):
        self.alg, self.poly, self.typ = alg, poly, typ

    # -- typing ---------------------------------------------------------------------
    def _sum_type(self, other: "Op"):
        a, b = self.typ, other.typ
        if a is None:
            if b is not None and b[0] != b[1] and self.poly:
                raise IllTyped(f"I added to a non-square operator {b[0]} <- {b[1]}")
            return b
        if b is None:
            if a[0] != a[1] and other.poly:
                raise IllTyped(f"I added to a non-square operator {a[0]} <- {a[1]}")
            return a
        if a != b:
            raise IllTyped(f"sum of a {a[0]} <- {a[1]} and a {b[0]} <- {b[1]} operator")
        return a

    def _coerce(self, other):
        if isinstance(other, Op):
            return other
        if isinstance(other, ScaledIdentity):
            other = other.c
        if isinstance(other, int | Fraction):
            return Op(self.alg, {(): Fraction(other)} if other else {}, None)
        return NotImplemented

    def __add__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return Op(self.alg, padd(self.poly, other.poly), self._sum_type(other))

    __radd__ = __add__

    def __neg__(self):
        return Op(self.alg, pscale(self.poly, -1), self.typ)

    def __sub__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return Op(self.alg, padd(self.poly, other.poly, -1), self._sum_type(other))

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, k):
        if isinstance(k, Op):
            return self @ k
        if isinstance(k, int | Fraction):
            return Op(self.alg, pscale(self.poly, Fraction(k)), self.typ)
        return NotImplemented

    __rmul__ = __mul__

    def __matmul__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        a, b = self.typ, other.typ
        if a is None:
            typ = b
        elif b is None:
            typ = a
        elif a[1] != b[0]:
            raise IllTyped(f"product of a {a[0]} <- {a[1]} and a {b[0]} <- {b[1]} operator")
        else:
            typ = (a[0], b[1])
        return Op(self.alg, pmul(self.poly, other.poly), typ)

    def __rmatmul__(self, other):
        other = self._coerce(other)
        if other is NotImplemented:
            return other
        return other @ self

    @property
    def T(self):
        typ = None if self.typ is None else (self.typ[1], self.typ[0])
        return Op(self.alg, ptranspose(self.poly, self.alg.transpose_of), typ)

    def __repr__(self):
        return format_poly(self.poly)


# ----------------------------------------------------------------------------- the data
@dataclass(frozen=True)
class Gen:
    """A generator: name, type (codomain <- domain), meaning, where the paper defines it.

    weight > 1 makes a generator heavier in the order (record unknowns, so that the
    completion solves for them)."""

    name: str
    cod: str
    dom: str
    meaning: str = ""
    source: str = ""
    symmetric: bool = False
    transpose: str = ""         # name of the transpose generator (default name + "^T")
    weight: int = 1

    @property
    def tname(self) -> str:
        return self.name if self.symmetric else (self.transpose or f"{self.name}^T")


@dataclass(frozen=True)
class Relation:
    """An oriented rule lhs -> rhs over the generators (statement syntax), with its source.

    kind: 'definition' (lhs is one defined symbol), 'relation', 'commutation' (x y -> y' x,
    whose transpose turns round: x^T y'^T -> y^T x^T), or 'hypothesis' (a record's own
    assumption, e.g. a printed recursion read as an operator equation).
    topologies: where it holds.  Its transpose is a relation too (id^T)."""

    id: str
    lhs: str
    rhs: str
    source: str
    kind: str = "relation"
    topologies: tuple = ("chain", "tree")
    note: str = ""


SPACES = {"s": "spatial, 6 per link (stacked over all N links)",
          "j": "joint, r_k per joint (stacked)",
          "6": "one spatial vector (tip, base or contact frame)",
          "1": "a column (vectors are maps 1 -> space)",
          "e": "closure constraints (framework (2.16))",
          "f": "nodal, 6 n_k per link (the n_k nodes of a flexible link; framework Section 4)",
          "u": "flexible dofs, 6 (n_k - 1) per link (node n_k is pinned at O_k; framework Section 4)"}

DERIV = "docs/derivatives.md"
JR93 = "Jain and Rodriguez, Linearization of manipulator dynamics using spatial operators, IEEE Trans. SMC 1993"
UNKNOWN_WEIGHT = 60     # record unknowns (sweep states) outweigh every word of their solutions

GENERATORS: list[Gen] = [
    Gen("phi", "s", "s", "phi = (I - E_phi)^-1, lower block-triangular, identity diagonal", "Part I (3.4), framework (2.4)"),
    Gen("psi", "s", "s", "psi = (I - E_psi)^-1", "Part I (5.1), framework (3.3)"),
    Gen("S", "s", "s", "the shift: identity blocks at (parent(k), k); on a chain the subdiagonal", "Part I (5.2)"),
    Gen("Dphi", "s", "s", "Delta_phi = diag phi(parent(k), k)", "Part I (a.4)"),
    Gen("H", "j", "s", "joint map (H^T(k) spans the motion space of joint k)", "Part I (3.5)"),
    Gen("P", "s", "s", "articulated-body inertia, block diagonal", "Part I (4.4)-(4.5), framework (3.1)", symmetric=True),
    Gen("Dinv", "j", "j", "D^-1, block diagonal", "Part I (4.6)", symmetric=True),
    Gen("B", "s", "6", "tip map: phi(1,0) in block 1", "Part I (3.7), framework (2.13)"),
    Gen("E", "s", "6", "base map: phi^T(N+1,N) in block N", "Part I (3.8)"),
    Gen("U", "s", "s", "Upsilon, block diagonal, by the recursion (A.5)", "framework (A.3)-(A.5)", symmetric=True),
    Gen("chi", "s", "s", "a free causal semigroup (I - S Dchi)^-1", "Part I Lemma A.1"),
    Gen("Dchi", "s", "s", "diag chi(k+1, k)", "Part I Lemma A.1"),
    Gen("a", "s", "1", "bias accelerations", "Part I (2.19)"),
    Gen("b", "s", "1", "bias forces", "Part I (2.23)"),
    Gen("y", "s", "1", "a spatial vector", "Part I (4.1): W"),
    Gen("T", "j", "1", "joint forces", "Part I (3.9)"),
    Gen("Tp", "j", "1", "bias-free joint forces T'", "Part I (3.22)"),
    Gen("thd", "j", "1", "joint rates", "Part I (3.9)"),
    Gen("thdd", "j", "1", "joint accelerations", "Part I (3.9)"),
    Gen("f0", "6", "1", "tip force f(0)", "Part I (2.30)"),
    Gen("a0", "6", "1", "tip bias acceleration a(0)", "Part I (2.27)"),
    Gen("g", "6", "1", "gravity as a base acceleration", "Part I (3.21)"),
    Gen("apC", "6", "1", "a'(C)", "Part II (5.5b)"),
    Gen("At", "6", "e", "A^* (closure map)", "framework (2.16)", transpose="A"),
    Gen("Xinv", "e", "e", "(A Lambda A^*)^-1, any symmetric", "framework (3.11)", symmetric=True),
    Gen("Ominv", "6", "6", "Omega^-1 of Part II, any symmetric", "Part II (3.2)", symmetric=True),
    # flexible links (framework Section 4): the nodal operators of a chain of finite-element links
    Gen("Bf", "s", "f", "B = diag B_k, B_k = [phi(O_k, Q_k(1)) .. phi(O_k, Q_k(n_k))] (6 x 6 n_k)", "framework (4.3)"),
    Gen("Cf", "f", "s", "C: C_{k+1} at (k+1, k) (first block subdiagonal), C_{k+1}^* = [phi^*(Q_{k+1}(1), O_k), 0, .., 0]",
        "framework (4.1)-(4.2)"),
    Gen("h", "u", "f", "h = diag h_k, u_k = h_k u_k^f: the free nodal dofs (node n_k pinned: h_k = [I, 0])",
        "framework Section 4, text before (4.1)"),
    Gen("m", "f", "f", "nodal mass matrices, block diagonal m_k (6 n_k x 6 n_k)", "framework Section 4, text before (4.1)",
        symmetric=True),
    Gen("u", "u", "1", "flexible dof rates (the u of (4.1)-(4.3))", "framework (4.1)"),
    # the derivatives of the dynamics (docs/derivatives.md (D.2)-(D.16); Jain and Rodriguez 1993)
    Gen("Mdot", "s", "s", "diag Mdot(k) = V x* M - M V x: the rate of a spatial inertia carried by its link",
        f"{DERIV} (D.2); {JR93}", symmetric=True),
    Gen("Bcor", "s", "s", "the body Coriolis operator B = diag 1/2 [V x* M + (M V) xbar* - M V x]", f"{DERIV} (D.2)"),
    Gen("Sdot", "s", "j", "diag V(k) x H^T(k): the rate of the joint axes", f"{DERIV} (D.4)"),
    Gen("Psidot", "s", "j", "diag V_p(k) x H^T(k), V_p(k) the parent's velocity seen at O(k)", f"{DERIV} (D.5)"),
    Gen("Psiddot", "s", "j", "diag A_p(k) x H^T(k) + V_p(k) x Psidot(k)", f"{DERIV} (D.6)"),
    Gen("fbar", "s", "s", "diag f(k) xbar*: x -> x x* f(k)", f"{DERIV} (D.2), (D.10)"),
    Gen("R", "s", "s", "composite inertias, block diagonal (a.44) with psi = phi", "Part I (a.44), Corollary A.1",
        symmetric=True, weight=7),   # 7: E_phi R E_phi^T (weight 13) outweighs M (12), so composite-R decreases
    Gen("Bcor_c", "s", "s", "composite Coriolis operators B_c, block diagonal ((a.44) with X = B)",
        f"{DERIV} (D.9); Part I Corollary A.1"),
    # defined symbols (eliminated by their definitions)
    Gen("Ephi", "s", "s", "E_phi", "framework (2.3)"),
    Gen("G", "s", "j", "G = P H^T D^-1", "Part I (5.12), (a.2)"),
    Gen("L", "s", "j", "L = Delta_phi G", "Part I (4.6), (a.12)"),
    Gen("K", "s", "j", "K = E_phi G", "framework (3.2)"),
    Gen("D", "j", "j", "D = H P H^T", "Part I (4.6), (a.1)", symmetric=True),
    Gen("tau", "s", "s", "tau = G H", "framework (3.2)"),
    Gen("taub", "s", "s", "tau-bar = I - tau", "framework (3.2)"),
    Gen("Dpsi", "s", "s", "Delta_psi = diag psi(k+1, k)", "Part I (a.5), (4.7)"),
    Gen("Epsi", "s", "s", "E_psi = E_phi tau-bar", "framework (3.2)"),
    Gen("Phi", "s", "s", "Phi = phi S", "Part I (4.9), (a.6)"),
    Gen("Psi", "s", "s", "Psi = psi S", "Part I (4.10), (a.7)"),
    Gen("phi_t", "s", "s", "phi~ = phi - I", "Part I (a.3)"),
    Gen("psi_t", "s", "s", "psi~ = psi - I", "Part I (5.11)"),
    Gen("chi_t", "s", "s", "chi~ = chi - I", "Part I Lemma A.1"),
    Gen("M", "s", "s", "spatial inertias, block diagonal", "Part I (3.6)", symmetric=True),
    Gen("Mcal", "j", "j", "the mass matrix H phi M phi^T H^T", "Part I (3.20)", symmetric=True),
    Gen("J", "6", "j", "Jacobian B^T phi^T H^T", "Part I (3.13)"),
    Gen("C", "j", "1", "bias H phi (M phi^T a + b)", "Part I (3.20)"),
    Gen("hbar", "s", "s", "diag (M V) xbar* = 2 B - Mdot", f"{DERIV} (D.2)"),
    Gen("Ccor", "j", "j", "the Coriolis matrix C(q, qd)", f"{DERIV} (D.15)"),
    Gen("Mcaldot", "j", "j", "the rate of the mass matrix", f"{DERIV} (D.15)", symmetric=True),
    Gen("dTdth", "j", "j", "dT/dtheta, the derivative of inverse dynamics in the joint positions", f"{DERIV} (D.11)"),
    Gen("dTdthd", "j", "j", "dT/dtheta_dot, the derivative of inverse dynamics in the joint rates",
        f"{DERIV} (D.13)"),
]

# The order: primitive generators from smallest to largest; defined symbols follow in the
# order of their definitions (each a transpose right after its generator).
RANKS_PRIMITIVE = ["a", "b", "y", "T", "Tp", "thd", "thdd", "u", "f0", "a0", "g", "apC", "At", "Xinv", "Ominv",
                   "B", "E", "Dinv", "H", "P", "U", "m", "h", "Mdot", "Bcor", "Bcor_c", "R", "fbar", "Sdot", "Psidot",
                   "Psiddot", "Dphi", "Dchi", "S", "phi", "chi", "psi", "Cf", "Bf"]

RELATIONS: list[Relation] = [
    # definitions
    Relation("def-Ephi", "Ephi", "S@Dphi", "framework (2.3); Part I (a.4), (5.2)", "definition"),
    Relation("def-G", "G", "P@H.T@Dinv", "Part I (5.12), (a.2); framework (3.2)", "definition"),
    Relation("def-L", "L", "Dphi@G", "Part I (4.6), (a.12)", "definition"),
    Relation("def-K", "K", "Ephi@G", "framework (3.2)", "definition"),
    Relation("def-D", "D", "H@P@H.T", "Part I (4.6), (a.1); framework (3.2)", "definition"),
    Relation("def-tau", "tau", "G@H", "framework (3.2)", "definition"),
    Relation("def-taub", "taub", "I - tau", "framework (3.2)", "definition"),
    Relation("def-Dpsi", "Dpsi", "Dphi - L@H", "Part I (4.7), (a.5)", "definition"),
    Relation("def-Epsi", "Epsi", "Ephi@taub", "framework (3.2); Part I (4.7)", "definition"),
    Relation("def-Phi", "Phi", "phi@S", "Part I (4.9), (a.6)", "definition"),
    Relation("def-Psi", "Psi", "psi@S", "Part I (4.10), (a.7)", "definition"),
    Relation("def-phi_t", "phi_t", "phi - I", "Part I (a.3)", "definition"),
    Relation("def-psi_t", "psi_t", "psi - I", "Part I (5.11)", "definition"),
    Relation("def-chi_t", "chi_t", "chi - I", "Part I Lemma A.1", "definition"),
    Relation("def-Mcal", "Mcal", "H@phi@M@phi.T@H.T", "Part I (3.20); framework (2.5)", "definition"),
    Relation("def-J", "J", "B.T@phi.T@H.T", "Part I (3.13); framework (2.14)", "definition"),
    Relation("def-C", "C", "H@phi@M@phi.T@a + H@phi@b", "Part I (3.20)", "definition"),
    # the Riccati equation defines P (M eliminated in favour of P)
    Relation("riccati", "M", "P - Ephi@(P - P@H.T@Dinv@H@P)@Ephi.T",
             "framework (3.1); Part I (4.4)-(4.5) with P(0) = 0", "definition",
             note="S has a zero block row at every tip link, so there it reads M(k) = P(k) (on a chain M(1) = P(1))"),
    # relations
    Relation("D-inv-left", "Dinv@D", "I", "Part I (4.6): D = H P H^T is invertible"),
    Relation("D-inv-right", "D@Dinv", "I", "Part I (4.6): D = H P H^T is invertible"),
    Relation("phi-inv-left", "phi@Ephi", "phi - I", "framework (2.4): phi = (I - E_phi)^-1; Part I (a.11)"),
    Relation("phi-inv-right", "Ephi@phi", "phi - I", "framework (2.4): phi = (I - E_phi)^-1; Part I (a.11)"),
    Relation("psi-inv-left", "psi@Epsi", "psi - I", "framework (3.3): psi = (I - E_psi)^-1; Part I (a.10)"),
    Relation("psi-inv-right", "Epsi@psi", "psi - I", "framework (3.3): psi = (I - E_psi)^-1; Part I (a.10)"),
    Relation("chi-inv-left", "chi@S@Dchi", "chi - I", "Part I Lemma A.1: chi causal with the semigroup property"),
    Relation("chi-inv-right", "S@Dchi@chi", "chi - I", "Part I Lemma A.1: chi causal with the semigroup property"),
    # the derivatives of the dynamics: definitions of the operator forms, and the relations
    # of the rates (each holds for every N, on chains and trees)
    Relation("def-hbar", "hbar", "2@Bcor - Mdot", f"{DERIV} (D.2): 2 B = Mdot + (M V) xbar*", "definition"),
    Relation("def-Ccor", "Ccor", "H@phi@(M@phi.T@Sdot + Bcor@phi.T@H.T)", f"{DERIV} (D.15); {JR93}", "definition"),
    Relation("def-Mcaldot", "Mcaldot", "Sdot.T@phi@M@phi.T@H.T + H@phi@M@phi.T@Sdot + H@phi@Mdot@phi.T@H.T",
             f"Part I (3.20) differentiated along the motion: M = J^T M J with J = phi^T H^T, Jdot = phi^T Sdot "
             f"({DERIV} (D.4), (D.15))", "definition"),
    Relation("def-dTdth", "dTdth", "H@phi@(M@phi.T@Psiddot + 2@Bcor@phi.T@Psidot) + H@phi_t@fbar@H.T",
             f"{DERIV} (D.11); {JR93}", "definition"),
    Relation("def-dTdthd", "dTdthd", "H@phi@(M@phi.T@(Psidot + Sdot) + 2@Bcor@phi.T@H.T)",
             f"{DERIV} (D.13); {JR93}", "definition"),
    Relation("coriolis-sym", "Bcor.T", "Mdot - Bcor",
             f"{DERIV} (D.2): 2 B = Mdot + (M V) xbar* with Mdot symmetric (V x* = -(V x)^T, M = M^T) and "
             "(M V) xbar* skew ((f xbar*)^T = -(f xbar*)), so B + B^T = Mdot",
             note="its own transpose: only this orientation is a rule"),
    Relation("composite-R", "Ephi@R@Ephi.T", "R - M",
             "Part I (a.44) with psi = phi (Corollary A.1): R(k) = M(k) + sum over the children c of k of "
             "phi(k, c) R(c) phi^T(k, c), read as M = R - E_phi R E_phi^T (E X E^T is block diagonal for "
             "block-diagonal X on every tree)"),
    Relation("composite-B", "Ephi@Bcor_c@Ephi.T", "Bcor_c - Bcor",
             f"{DERIV} (D.9): the composite Coriolis operators by the recursion of (a.44) with X = B (not "
             "symmetric), read as B = B_c - E_phi B_c E_phi^T"),
    # the shape of a serial chain (chain only, brought in by `soagen prove` when the other relations
    # do not suffice): S has identity blocks at (k+1, k), k = 1..N-1.  (Its consequences for
    # block-diagonal factors, e.g. E_phi S^T S = E_phi, make the completion infinite; `soagen
    # prove` proves those block by block, soagen.symbolic.engines.blockwise.)
    Relation("shift-chain", "S@S.T@S", "S",
             "Part I (5.2): on a serial chain S^T S = diag(I, .., I, 0), so S S^T S = S (and S^T S S^T = S^T)",
             topologies=("chain",),
             note="chain only: on a tree S S^T = diag(number of children), and S S^T S != S at a branching"),
    Relation("flex-BC", "Bf@Cf", "S@Dphi",
             "framework Section 4, after (4.3): B_k C_k = phi(k, k-1) => B C = E_phi (= S Delta_phi, (2.3)); "
             "proved block by block from B_k C_k = phi(k, k-1), certificate FW-4.BC",
             note="B_k C_k = phi(O_k, Q_k(1)) phi(Q_k(1), O_{k-1}) by (4.2)-(4.3) and the semigroup rule; on a tree "
                  "C has, for each child c of link k, the block C_{k,c} (phi(Q_k(j), O_c) at the node j that c is "
                  "attached to) at (k, c), and B_k C_{k,c} = phi(k, c) again"),
    Relation("upsilon", "Epsi.T@U@Epsi", "U - H.T@Dinv@H",
             "framework (A.3), Upsilon the block-diagonal solution by the recursion (A.5)", topologies=("chain",),
             note="chain only: on a chain E_psi^T X E_psi is block diagonal for block-diagonal X, so the "
                  "block-diagonal Upsilon of (A.5) solves (A.3); on a branching tree it couples siblings"),
]

# relations a symbol brings in when a statement uses it (the rest of the theory is always there)
DERIVATIVES = ("def-hbar", "def-Ccor", "def-Mcaldot", "def-dTdth", "def-dTdthd", "coriolis-sym")
MODULES = {"chi": ("chi-inv-left", "chi-inv-right"), "Dchi": ("chi-inv-left", "chi-inv-right"),
           "chi_t": ("chi-inv-left", "chi-inv-right"), "U": ("upsilon",),
           **{sym: DERIVATIVES for sym in ("Mdot", "Bcor", "Sdot", "Psidot", "Psiddot", "fbar", "hbar", "Ccor",
                                            "Mcaldot", "dTdth", "dTdthd")},
           "R": ("composite-R",), "Bcor_c": DERIVATIVES + ("composite-B",), "Bf": ("flex-BC",), "Cf": ("flex-BC",)}
SHAPE = ("shift-chain",)


# ----------------------------------------------------------------------------- the block structure
# What the relations above do not say, and statements about the tip and base maps B, E combined
# with phi, psi or Upsilon need: B and E live on single links (Part I (3.7)-(3.8)), a tip link has
# no children and a link on the base no parent link (the block pattern of S, Part I (5.2),
# framework (2.7)), and S S^T is a multiple of I in every block.  Written with
#   e1 (s <- t), e1j (j <- tj): identity blocks at the tip links (block 1 of a chain: the links B acts
#       on, each a leaf), so B = e1 phi(1,0);
#   eN (s <- r), eNj (j <- rj): identity blocks at the links on the base (block N of a chain), so
#       E = eN phi^T(N+1,N);
#   X_1 = e1^T X e1, X_N = eN^T X eN: the blocks there of a block-diagonal generator X;
#   Nc = S S^T = diag(c_k I) (c_k the number of children of link k), Ncj = diag(c_k I) on the joints.
# Each relation holds for every N on every tree (so on chains and on several arms too).  They enter
# a theory only when `soagen prove` asks for them (structure=True: :func:`structure_ids`), after the
# theory without them has failed, so no certificate of the catalogue changes.
DIAGONAL = ("Dphi", "Dchi", "P", "U", "Mdot", "Bcor", "R", "Bcor_c", "fbar", "H", "Dinv", "Sdot", "Psidot",
            "Psiddot")
PORTS = {  # where: (spatial selection, joint selection, their domains, in words, the block of a chain)
    "1": ("e1", "e1j", {"s": "t", "j": "tj"}, "the tip links", "block 1"),
    "N": ("eN", "eNj", {"s": "r", "j": "rj"}, "the links on the base", "block N"),
}
SPACES.update({"t": "the tip links, 6 each (the links B acts on: block 1 of a chain)",
               "tj": "the joints of the tip links",
               "r": "the links on the base, 6 each (block N of a chain)",
               "rj": "the joints of the links on the base"})
STRUCTURE_SOURCE = "Part I (3.5)-(3.8), (5.2); framework (2.3), (2.7)"


def _structure():
    """(generators, relations, {relation id: the block-diagonal generator it is about}) of the
    block structure (see above)."""
    src, gen, about = STRUCTURE_SOURCE, {g.name: g for g in GENERATORS}, {}
    gens = [Gen("Nc", "s", "s", "S S^T = diag(c_k I), c_k the number of children of link k", src, symmetric=True),
            Gen("Ncj", "j", "j", "diag(c_k I) on the joints (H Nc = Ncj H)", src, symmetric=True),
            Gen("Ncp", "s", "s", "diag(c_p(k) I), c_p(k) the number of children of the parent of link k (0 on the base)",
                src, symmetric=True),
            Gen("Ncpj", "j", "j", "diag(c_p(k) I) on the joints (H Ncp = Ncpj H)", src, symmetric=True),
            Gen("e1", "s", "t", "identity blocks at the tip links (block 1 of a chain: [I, 0, .., 0]^T)", src),
            Gen("e1j", "j", "tj", "identity blocks at the joints of the tip links", src),
            Gen("eN", "s", "r", "identity blocks at the links on the base (block N of a chain: [0, .., 0, I]^T)", src),
            Gen("eNj", "j", "rj", "identity blocks at the joints of the links on the base", src),
            Gen("phi10", "t", "6", "phi(1,0): from the tip frame to the tip link", "Part I (3.7)"),
            Gen("phiN", "6", "r", "phi(N+1,N): from the link on the base to the base frame", "Part I (3.8)")]
    gen.update({g.name: g for g in gens})
    rels = [Relation("def-B", "B", "e1@phi10", "Part I (3.7): B^T = [phi^T(1,0), 0, .., 0]", "definition"),
            Relation("def-E", "E", "eN@phiN.T", "Part I (3.8), read as (3.21) needs it: block N of E is "
                     "phi^T(N+1,N)", "definition"),
            Relation("tip-leaf", "S.T@e1", "0", f"{src}: S has identity blocks at (parent(k), k), and a tip link "
                     "is no link's parent, so the rows of S^T at the tip links are 0"),
            Relation("base-root", "S@eN", "0", f"{src}: a link on the base has no parent link, so the columns of S "
                     "at the links on the base are 0"),
            Relation("tip-root", "e1.T@eN@eN.T@e1@e1.T@eN", "e1.T@eN", f"{src}: e1^T eN has an identity block for "
                     "each tip link that is on the base (on a chain: I for N = 1, else 0) and zeros elsewhere"),
            Relation("children", "S@S.T", "Nc", f"{src}: block (p, q) of S S^T counts the links whose parent is p "
                     "and q: c_p I for p = q, 0 else")]
    for where, (e, ej, port, words, block) in PORTS.items():
        sel = {"s": e, "j": ej}
        rels += [Relation(f"unit-{e}", f"{e}.T@{e}", "I", f"{src}: {e} selects {words}"),
                 Relation(f"unit-{ej}", f"{ej}.T@{ej}", "I", f"{src}: {ej} selects the joints of {words}")]
        for x in DIAGONAL + ("Nc", "Ncj", "Ncp", "Ncpj"):
            g = gen[x]
            gens.append(Gen(f"{x}_{where}", port[g.cod], port[g.dom], f"{x} at {words} ({block} of a chain): "
                            f"{sel[g.cod]}^T {x} {sel[g.dom]}", g.source, symmetric=g.symmetric))
            sides = [(x, g.cod, g.dom, "")] + ([] if g.symmetric else [(f"{x}.T", g.dom, g.cod, ".T")])
            for lhs, cod, dom, t in sides:
                rels.append(Relation(f"at-{x}{t.replace('.', '')}-{where}", f"{lhs}@{sel[dom]}",
                                     f"{sel[cod]}@{x}_{where}{t}", f"{src}: {x} is block diagonal"))
                about[rels[-1].id] = (x, where)
    rels.append(Relation("children-S", "S@Ncp", "Nc@S", f"{src}: block (p, k) of S Ncp and of Nc S is c_p I if p "
                         "is the parent of k, else 0", "commutation"))
    for nc, name in (({"s": "Nc", "j": "Ncj"}, "children"), ({"s": "Ncp", "j": "Ncpj"}, "siblings")):
        for x in DIAGONAL:
            g = gen[x]
            rels.append(Relation(f"{name}-{x}", f"{x}@{nc[g.dom]}", f"{nc[g.cod]}@{x}", f"{src}: {x} is block "
                                 f"diagonal and {nc['s']}, {nc['j']} multiples of I in every block", "commutation"))
            about[rels[-1].id] = (x, "")
    return gens, rels, about


STRUCTURE_GENS, STRUCTURE, _ABOUT = _structure()
STRUCTURE_IDS = tuple(r.id for r in STRUCTURE)
GENERATORS += STRUCTURE_GENS
RELATIONS += STRUCTURE
RANKS_PRIMITIVE[RANKS_PRIMITIVE.index("B"):RANKS_PRIMITIVE.index("B")] = (
    [g.name for g in STRUCTURE_GENS if "_" in g.name] + ["phi10", "phiN", "e1j", "e1", "eNj", "eN", "Ncpj", "Ncp", "Ncj", "Nc"])
OPTIONAL = ({"upsilon", "chi-inv-left", "chi-inv-right", "composite-R", "composite-B", "flex-BC"} | set(DERIVATIVES)
            | set(SHAPE) | {r.id for r in STRUCTURE})


TIP = ("def-B", "tip-leaf", "unit-e1", "unit-e1j")
BASE = ("def-E", "base-root", "unit-eN", "unit-eNj")
DENSE = ("phi", "psi", "chi")       # the operators that are not block-sparse
# relations whose theory with the ports of (the tip, the base) has no finite completion (measured:
# the completion grows a family without end, e.g. R (phi^T)^k eN): those statements are left to the
# other engines
NO_FINITE_COMPLETION = (("composite-R", False, True), ("composite-R", True, True), ("composite-B", True, True),
                        ("upsilon", True, True))


def _names(alg: "Algebra", words) -> set:
    return {g if g in alg.gens else alg.transpose_of[g] for w in words for g in w}


def structure_ids(alg: "Algebra", topology: str, ids, symbols, kind: str) -> tuple | None:
    """The block-structure relations (:data:`STRUCTURE`) for a statement over `symbols` in a
    theory with relations `ids`, or None where the kind does not apply:

    * 'ports': where B and E live.  The relations of the tip links if the statement (its defined
      symbols expanded) uses B or a tip block, of the links on the base if it uses E or a base
      block, both with tip-root if it uses both; each block-diagonal generator of the theory gets
      its blocks there.
    * 'children': S S^T = Nc commuting with every block-diagonal generator, for a block-sparse
      statement (no phi, psi, chi once its defined symbols are expanded), with the ports it uses,
      or, without ports, Nc S = S Ncp (Ncp the children of each link's parent) commuting too;
      `ids` are then cut to the relations without phi, psi, chi (see :func:`block_sparse_ids`).

    The full theory with both sides' ports and Upsilon or the composites, or with Nc and phi,
    has no finite completion (e.g. Dphi^T Nc^k S^T phi^T = Nc^k (phi^T - I) for every k), so
    each theory gets only what its statement needs."""
    defs = {r.lhs: r.id for r in alg.relation_list if r.kind == "definition"}
    mine, todo = set(), [g if g in alg.gens else alg.transpose_of[g] for g in symbols]
    while todo:                                   # the statement's generators, definitions expanded
        g = todo.pop()
        if g not in mine:
            mine.add(g)
            if g in defs:
                todo += _names(alg, alg.stated_polys([defs[g]])[defs[g]])
    tip = bool(mine & {"B", "e1", "e1j", "phi10"} or any(g.endswith("_1") for g in mine))
    base = bool(mine & {"E", "eN", "eNj", "phiN"} or any(g.endswith("_N") for g in mine))
    if kind == "children" and mine & set(DENSE):
        return None
    if kind == "ports" and not (tip or base):
        return None
    siblings = kind == "children" and not (tip or base)      # Ncp with the ports has no finite completion
    used = set(mine) | ({"Nc", "Ncj"} if kind == "children" else set()) | ({"Ncp", "Ncpj"} if siblings else set())
    for p in alg.stated_polys(ids).values():
        used |= _names(alg, p)
    chosen = [i for i in (TIP if tip else ()) + (BASE if base else ()) + (("tip-root",) if tip and base else ())]
    for r in STRUCTURE:
        x, where = _ABOUT.get(r.id, ("", ""))
        if x in used and (where == "1" and tip or where == "N" and base or where == "" and kind == "children"
                          and (siblings or not r.id.startswith("siblings"))):
            chosen.append(r.id)
    if kind == "children":
        chosen[:0] = ["children"] + (["children-S"] if siblings else [])
    if any(rid in ids for rid, t, b in NO_FINITE_COMPLETION if (tip or not t) and (base or not b) and (t or b)):
        return None
    return tuple(i for i in chosen if topology in alg.relations[i].topologies)


def block_sparse_ids(alg: "Algebra", ids) -> tuple:
    """The relations among `ids` without phi, psi or chi (a sub-ideal: what proves with them holds)."""
    dense = set(DENSE) | {r.lhs for r in alg.relation_list if r.kind == "definition"
                          and _names(alg, alg.stated_polys([r.id])[r.id]) & set(DENSE)}
    return tuple(i for i in ids if not _names(alg, alg.stated_polys([i])[i]) & dense)


def evaluate_definitions(ns: dict, ids) -> dict:
    """The definitions among relations `ids`, evaluated over `ns` in the order stated (each
    may use the ones before it): {defined symbol: value}."""
    env, out = dict(ns), {}
    for r in RELATIONS:
        if r.id in ids and r.kind == "definition":
            out[r.lhs] = env[r.lhs] = statement.evaluate(statement.parse_expr(r.rhs), env)
    return out


# ----------------------------------------------------------------------------- the algebra
class NFreeField(Field):
    """Entries of block operators over the N-free algebra (block-matrix statements)."""

    def __init__(self, alg: "Algebra"):
        self.alg = alg

    def one(self, dim):
        return Op(self.alg, {(): Fraction(1)}, None)

    def is_zero(self, x):
        return not x.poly


class Algebra:
    """Generators, transposes, types, relations and the order of one family of theories.

    `modules`/`optional`: relations brought in only when a statement uses a symbol.
    `check_all`: check every relation at construction (a record's extension checks only the
    relations its theories use, when they use them: its hypotheses may reweigh a symbol, e.g.
    Lemma A.1's M = r - E_psi r E_phi^T makes M heavier than composite-R allows)."""

    def __init__(self, name: str, gens: list[Gen], relations: list[Relation], ranks: list[str],
                 spaces: dict | None = None, modules: dict | None = None, optional=(), blocks: bool = False,
                 check_all: bool = True):
        self.name, self.spaces, self.blocks = name, dict(spaces or {}), blocks
        self.modules, self.optional = dict(modules or {}), set(optional)
        self.gen_list = list(gens)
        self.gens = {g.name: g for g in gens}
        self.base_gens = tuple(self.gens)        # an extended algebra keeps its base's list
        if len(self.gens) != len(gens):
            raise ValueError(f"{name}: a generator is declared twice")
        self.transpose_of: dict = {}
        self.types: dict = {}
        for g in gens:
            for n in (g.name, g.tname):
                if n in self.transpose_of:
                    raise ValueError(f"{name}: generator name {n} clashes")
            self.transpose_of[g.name], self.transpose_of[g.tname] = g.tname, g.name
            self.types[g.name], self.types[g.tname] = (g.cod, g.dom), (g.dom, g.cod)
        self.relation_list = list(relations)
        self.relations = {r.id: r for r in relations}
        if len(self.relations) != len(relations):
            raise ValueError(f"{name}: a relation id is used twice")
        order_names: list = []
        listed = set(ranks)
        for n in list(ranks) + [g.name for g in gens]:
            for x in (n, self.transpose_of[n]):       # a transpose follows its generator unless ranked itself
                if x not in order_names and (x == n or x not in listed):
                    order_names.append(x)
        weights: dict = {}
        for g in gens:
            if g.weight != 1:
                weights[g.name] = weights[g.tname] = g.weight
        self.field = NFreeField(self)
        defs = [r for r in relations if r.kind in ("definition", "hypothesis")
                and statement.parse_expr(r.lhs)[0] == "name"]
        changed = True
        while changed:                      # a defined symbol outweighs every word of its definitions
            changed = False
            for r in defs:
                rhs = self.op(r.rhs).poly
                w = 1 + max((sum(weights.get(g, 1) for g in word) for word in rhs), default=0)
                if weights.get(r.lhs, 1) < w:
                    weights[r.lhs] = weights[self.transpose_of[r.lhs]] = w
                    changed = True
        self.order = Order(order_names, weights)
        self._rules: dict = {}
        if check_all:            # an extended algebra checks the relations its theories use, when they do
            for r in relations:
                self.rule(r.id)
        self._extended: dict = {}
        self.theories: dict = {}          # sorted relation ids -> CompletedTheory (see theory())

    # -- building ----------------------------------------------------------------------
    def namespace(self) -> dict:
        """name -> Op (or a 1 x 1 block operator when the algebra has block statements)."""
        ns = {}
        for name, g in self.gens.items():
            x = Op(self, {(name,): Fraction(1)}, (g.cod, g.dom))
            ns[name] = BM(self.field, [g.cod], [g.dom], [[x]]) if self.blocks else x
        ns["I"] = Op(self, {(): Fraction(1)}, None) if not self.blocks else IDENTITY
        if self.blocks:
            ns.update(blk2=blk2, vcat=vcat)
        return ns

    def op(self, text: str) -> Op:
        v = statement.evaluate(statement.parse_expr(text), self.namespace())
        if isinstance(v, ScaledIdentity):
            return Op(self, {(): Fraction(v.c)} if v.c else {}, None)
        return _as_op(v)

    def rule(self, rid: str):
        """rule_of the relation `rid` (cached)."""
        if rid not in self._rules:
            self._rules[rid] = self.rule_of(self.relations[rid])
        return self._rules[rid]

    def rule_of(self, r: Relation):
        """(lhs word, rhs poly, type) of a stated relation; checks that it is well-typed and
        that it and its transpose decrease in the order (else NonDecreasingRule)."""
        lhs, rhs = self.op(r.lhs), self.op(r.rhs)
        if len(lhs.poly) != 1 or list(lhs.poly.values())[0] != 1:
            raise ValueError(f"relation {r.id}: the left side must be a single word")
        try:
            typ = (lhs - rhs).typ
        except IllTyped as err:
            raise IllTyped(f"relation {r.id} is ill-typed: {err}") from None
        (word,) = lhs.poly
        check_decreasing(self.order, word, rhs.poly, f"relation {r.id}")
        p = (lhs - rhs).poly
        pt = ptranspose(p, self.transpose_of)
        if pt != p and pt != pscale(p, -1):      # a relation that is its own transpose has one orientation
            tword = tuple(self.transpose_of[g] for g in reversed(word))
            trhs = ptranspose(rhs.poly, self.transpose_of)
            if r.kind == "commutation":          # x y -> y' x: its transpose turns round, x^T y'^T -> y^T x^T
                if len(trhs) != 1:
                    raise ValueError(f"relation {r.id}: a commutation has one word on each side")
                (tword, _), trhs = trhs.popitem(), {tword: Fraction(1)}
            check_decreasing(self.order, tword, trhs, f"relation {r.id} transposed")
        return word, rhs.poly, typ

    def stated_polys(self, ids) -> dict:
        """{relation id: polynomial lhs - rhs} for the ids and their transposes ('id^T')."""
        out = {}
        for rid in ids:
            word, rhs, _ = self.rule(rid)
            p = padd({word: Fraction(1)}, rhs, -1)
            out[rid] = p
            pt = ptranspose(p, self.transpose_of)
            if pt != p and pscale(pt, -1) != p:
                out[rid + "^T"] = pt
        return out

    def relation_ids(self, topology: str, symbols=(), assumed=()) -> tuple:
        """Relations of a theory: the non-optional ones valid on the topology, the modules the
        symbols bring in, and the assumed ones (an assumed definition of a symbol replaces
        the standing one, e.g. Lemma A.1's M = r - E_psi r E_phi^T replaces the Riccati M)."""
        ids = [r.id for r in self.relation_list if r.id not in self.optional and topology in r.topologies
               and r.kind != "hypothesis"]
        for sym in sorted(symbols):
            ids += [i for i in self.modules.get(sym, ()) if topology in self.relations[i].topologies]
        for i in assumed:
            lhs = self.relations[i].lhs
            if lhs in self.gens:
                ids = [j for j in ids if self.relations[j].lhs != lhs]
            ids.append(i)
        return tuple(dict.fromkeys(ids))

    def extended(self, given=(), assume=()) -> "Algebra":
        """This algebra with a record's unknowns (`given`: 'name : cod <- dom [sym]') and
        hypotheses (`assume`: (id, lhs, rhs, reading)) added (cached)."""
        key = (tuple(given), tuple(assume))
        if not given and not assume:
            return self
        if key not in self._extended:
            gens = list(self.gen_list) + [parse_given(gv, i) for i, gv in enumerate(given)]
            rels = list(self.relation_list) + [Relation(i, lhs, rhs, reading, "hypothesis")
                                               for i, lhs, rhs, reading in assume]
            ranks = [n for n in self.order.ranks if n in self.gens] + [parse_given(gv).name for gv in given]
            ext = Algebra(self.name, gens, rels, ranks, self.spaces, self.modules, self.optional, self.blocks,
                          check_all=False)
            ext.base_gens = self.base_gens
            self._extended[key] = ext
        return self._extended[key]


def parse_given(text: str, index: int = 0) -> Gen:
    """'zf : s <- 1' (append ' sym' for a symmetric one) -> the index-th unknown of a record
    (later unknowns are heavier: a sweep may use the states declared before it)."""
    name, _, rest = text.partition(":")
    parts = rest.replace("<-", " ").split()
    if len(parts) not in (2, 3):
        raise ValueError(f"bad unknown declaration {text!r}")
    return Gen(name.strip(), parts[0], parts[1], "record unknown", "", symmetric=len(parts) == 3,
               weight=UNKNOWN_WEIGHT * (index + 1))


IDENTITY = ScaledIdentity(1)


def _as_op(v) -> Op:
    if isinstance(v, BM):
        if v.shape != (1, 1):
            raise ValueError("a relation must be a single operator")
        return v.b[0][0]
    return v


@functools.cache
def algebra(name: str = "chain") -> Algebra:
    """The chain/tree operator algebra, or the algebra of a matrix theory (built once: an
    algebra does not change after construction; its theories are cached on it)."""
    if name == "chain":
        return Algebra("chain", GENERATORS, RELATIONS, RANKS_PRIMITIVE, SPACES, MODULES, OPTIONAL)
    return matrix_algebra(name)


def matrix_algebra(name: str) -> Algebra:
    """The algebra of an N-independent matrix theory of :mod:`soagen.symbolic.engines.matrices`."""
    from soagen.symbolic.engines.matrices import THEORIES

    spec = THEORIES[name]
    gens, rels, spaces = [], [], {}
    for m in spec["mats"]:
        sym = m.kind in ("sym", "spd")
        gens.append(Gen(m.name, m.rows, m.cols, m.kind, "", symmetric=sym))
        spaces.setdefault(m.rows, "size label"), spaces.setdefault(m.cols, "size label")
        if m.inverse:
            gens.append(Gen(m.inverse, m.cols, m.rows, f"inverse of {m.name}", "", symmetric=sym))
            rels += [Relation(f"inv-{m.name}-right", f"{m.name}@{m.inverse}", "I", f"{m.name} is invertible"),
                     Relation(f"inv-{m.name}-left", f"{m.inverse}@{m.name}", "I", f"{m.name} is invertible")]
    for inv, word, source in spec.get("inverse_of", ()):
        rels.append(Relation(f"inv-{inv}", f"{inv}@{word}", "I", source))
    for rid, lhs, rhs, source in spec.get("rules", ()):
        rels.append(Relation(rid, lhs, rhs, source))
    for sym, (expr, source) in spec.get("derived", {}).items():
        gens.append(Gen(sym, *_def_type(expr, gens), f"{sym} = {expr}", source))
        rels.append(Relation(f"def-{sym}", sym, expr, source, "definition"))
    ranks = [g.name for g in gens if g.name not in spec.get("ranks", ())] + list(spec.get("ranks", ()))
    return Algebra(name, gens, rels, ranks, {s: SPACES.get(s, "a size label") for s in spaces}, blocks=True)


def _def_type(expr: str, gens: list[Gen]):
    return Algebra("tmp", gens, [], [g.name for g in gens]).op(expr).typ


# ----------------------------------------------------------------------------- theories
@dataclass
class CompletedTheory:
    """A completed rewriting system for one set of relations of an algebra."""

    alg: Algebra
    relation_ids: tuple
    completion: object

    @property
    def complete(self) -> bool:
        return self.completion.complete

    @property
    def size(self) -> int:
        return len(self.completion.rules)

    def reduce(self, p: dict) -> dict:
        return self.completion.system.normal_form(p)

    def reduce_traced(self, p: dict):
        return self.completion.system.traced_normal_form(p)


def theory(alg: Algebra, ids: tuple) -> CompletedTheory:
    """The completed rewriting system for a set of relation ids of `alg` (cached on `alg`)."""
    key = tuple(sorted(ids))
    hit = alg.theories.get(key)
    if hit is not None:
        return hit
    rules = []
    for rid, p in alg.stated_polys(ids).items():
        lead = alg.order.lead(p)
        c = p[lead]
        rules.append(Rule(lead, {w: -x / c for w, x in p.items() if w != lead}, {((), rid, ()): 1 / c}, rid))
    th = CompletedTheory(alg, tuple(ids), complete(rules, alg.order))
    alg.theories[key] = th
    return th


# ----------------------------------------------------------------------------- proofs
@dataclass
class CheckProof:
    """One claim lhs = rhs (one block of it, for a block statement): polynomial, type,
    normal form, and the trace that makes its certificate."""

    lhs: str
    rhs: str
    block: tuple | None
    poly: dict
    typ: tuple | None
    nf: dict
    trace: dict = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return not self.nf


@dataclass
class Proof:
    """The N-free verdict on a list of checks."""

    algebra: Algebra
    theory: CompletedTheory
    topology: str
    checks: list

    @property
    def proved(self) -> bool:
        return all(c.proved for c in self.checks)


def prove_checks(checks, let=(), algebra_name: str = "chain", topology: str = "chain", given=(), assume=(),
                 traced: bool = True, shape: bool = False, structure: str = "") -> Proof:
    """Prove each (lhs, rhs) of `checks` in the N-free algebra, for every N (`shape`: with
    the chain-shape relations :data:`SHAPE` too, on a chain; `structure`: with the block
    structure of the topology, :func:`structure_ids` of that kind).

    Raises IllTyped for an ill-typed check and NotApplicable when a check uses something the
    algebra does not have (a block index, a recursion): such statements are for the per-N
    engine.  A nonzero normal form is *not* a refutation.
    """
    alg = algebra(algebra_name).extended(given, assume)
    env = alg.namespace()
    for nm, expr in let:
        env[nm] = _eval(expr, env)
    items = []
    for lhs, rhs in checks:
        d = _eval(lhs, env) - _eval(rhs, env)
        if isinstance(lhs, tuple):
            lhs, rhs = statement.unparse(lhs), statement.unparse(rhs)
        if isinstance(d, BM):
            for i in range(d.shape[0]):
                for j in range(d.shape[1]):
                    x = d.b[i][j]
                    items.append((lhs, rhs, (i + 1, j + 1), x if x is not None else Op(alg, {}, None)))
        else:
            items.append((lhs, rhs, None, d))
    symbols = set()
    for *_, d in items:
        for w in d.poly:
            symbols.update(alg.transpose_of[s] if s not in alg.gens else s for s in w)
    ids = alg.relation_ids(topology, symbols, [a[0] for a in assume])
    if structure:
        more = structure_ids(alg, topology, ids, symbols, structure)
        if more is None:
            raise NotApplicable(f"no {structure} relations for this statement")
        ids = (block_sparse_ids(alg, ids) if structure == "children" else ids) + more
    if shape and topology == "chain":
        ids += SHAPE
    th = theory(alg, ids)
    out = []
    for lhs, rhs, blk, d in items:
        if traced:
            nf, tr = th.reduce_traced(d.poly)
        else:
            nf, tr = th.reduce(d.poly), {}
        out.append(CheckProof(lhs, rhs, blk, d.poly, d.typ, nf, tr if not nf else {}))
    return Proof(alg, th, topology, out)


def _eval(expr, env: dict):
    """Evaluate a check: a parsed statement tree (user input, see :mod:`.statement`), or a
    catalogue expression (read by the same parser; it may call blk2/vcat).  NotApplicable
    names the first thing the algebra does not have (a block index, a recursion)."""
    tree = expr if isinstance(expr, tuple) else statement.catalogue_expr(expr)
    missing = next((n for n in statement.ordered_names(tree) if n not in env), None)
    if missing is not None:
        raise NotApplicable(f"{missing} has no N-free form", missing)
    return statement.evaluate(tree, env)
