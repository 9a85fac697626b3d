"""The block level of a serial chain as data: block families, how each operator is laid out in
blocks, the relations between blocks, and the papers' printed loops.

This is what the block-level proofs (:mod:`soagen.symbolic.engines.blockwise`) and the checker trust,
written out as ``docs/certificates/axioms-blocks.txt`` (pinned by its hash in the checker):

* :data:`FAMILIES`: the blocks phi(i, j), psi(i, j), H(k), P(k), D^-1(k), L(k), ... with
  their types (``j(k)`` is the joint space of joint k, ``f(k)`` the nodal space and ``u(k)``
  the flexible dofs of link k, ``6`` one spatial vector);
* :data:`PATTERNS`: the operators of the N-free algebra (:mod:`soagen.symbolic.engines.nfree`) in
  blocks: S has identity blocks at (k+1, k) (Part I (5.2)), Delta_phi is diag phi(k+1, k)
  (a.4), H, P, M, D^-1 are block diagonal, B holds phi(1, 0) in block 1 (3.7), E holds
  phi^T(N+1, N) in block N (3.8), a, T, ... have one block per link; of flexible links
  (framework Section 4), B, h, m are block diagonal and C holds C_k at (k, k-1);
* :data:`RELATIONS`: what holds between blocks for every N, each with its source and the
  range of indices where it holds (the semigroup rule (3.2)-(3.3), psi(k+1, k) = phi(k+1, k)
  - L(k) H(k) (4.7), L(k) = phi(k+1, k) G(k) (4.6), ...);
* :data:`LOOPS`: every printed recursion the catalogue reads as an operator equation, with
  the equations of the loop (the boundary iteration worked out where the paper starts from
  index 0 or N+1; the note says how) and the operator equation it is read as (the record's
  *hypothesis*, :data:`HYPOTHESES`).  Each reading is proved for every N from its loop, block
  by block (one certificate per loop), so a record that assumes a reading rests on the
  printed loop itself;
* :data:`CONDITIONS`: hypotheses that are not readings but restrictions of the statement
  (D-2C holds for 1-dof joints only).
"""

from __future__ import annotations

from dataclasses import dataclass

from soagen.symbolic.engines.indexed import Family, Pattern


@dataclass(frozen=True)
class BlockRelation:
    """lhs -> rhs between letters, for the indices `params` within `where` (conditions)."""

    id: str
    params: tuple
    where: str
    lhs: str
    rhs: str
    source: str


@dataclass(frozen=True)
class Loop:
    """A printed recursion: the family it computes, the families it reads, its equations
    (BlockRelation records named id.eq), and the operator equation it is read as."""

    id: str
    family: str                 # name(k) : cod <- dom of the state
    inputs: tuple               # families computed by other loops that this one reads
    printed: str                # the loop as printed (the record's reading text)
    equations: tuple            # BlockRelation
    lhs: str                    # the operator reading lhs -> rhs (statement syntax)
    rhs: str
    note: str = ""

    @property
    def state(self) -> str:
        return self.family.split("(")[0].strip()

    @property
    def hypothesis(self) -> tuple:
        return (self.id, self.lhs, self.rhs, self.printed)


def _f(name, params, cod, dom, meaning, symmetric=False):
    return Family(name, tuple(params), cod, dom, symmetric, meaning)


FAMILIES = {f.name: f for f in [
    _f("phi", "ab", "6", "6", "phi(a, b) = phi(a, a-1) ... phi(b+1, b), phi(a, a) = I (Part I (3.2)-(3.3))"),
    _f("psi", "ab", "6", "6", "psi(a, b) = psi(a, a-1) ... psi(b+1, b) (Part I (4.7), (5.1))"),
    _f("chi", "ab", "6", "6", "chi(a, b) of a free causal semigroup (Part I Lemma A.1)"),
    _f("H", "a", "j(a)", "6", "joint map of joint a (Part I (3.5))"),
    _f("P", "a", "6", "6", "articulated-body inertia (Part I (4.4)-(4.5))", symmetric=True),
    _f("M", "a", "6", "6", "spatial inertia of link a (Part I (3.6))", symmetric=True),
    _f("Dinv", "a", "j(a)", "j(a)", "D^-1(a), D(a) = H(a) P(a) H^T(a) (Part I (4.6))", symmetric=True),
    _f("G", "a", "6", "j(a)", "G(a) = P(a) H^T(a) D^-1(a) (Part I (5.12))"),
    _f("L", "a", "6", "j(a)", "L(a) = phi(a+1, a) G(a) (Part I (4.6))"),
    *[_f(v, "a", "6", "1", f"block a of the vector {v} (Part I (2.19)-(2.23), (4.1))") for v in ("a", "b", "y")],
    *[_f(v, "a", "j(a)", "1", f"block a of the joint vector {v}") for v in ("T", "Tp", "thd", "thdd")],
    *[_f(v, "", "6", "1", f"the spatial vector {v}") for v in ("f0", "a0", "g", "apC")],
    # flexible links (framework Section 4): f(a) the nodal space of link a (6 n_a), u(a) its free dofs
    _f("Bf", "a", "6", "f(a)", "B_a = [phi(O_a, Q_a(1)) .. phi(O_a, Q_a(n_a))] (framework (4.3))"),
    _f("Cf", "a", "f(a)", "6", "C_a, C_a^* = [phi^*(Q_a(1), O_{a-1}), 0, .., 0] (framework (4.2))"),
    _f("h", "a", "u(a)", "f(a)", "h_a: the free nodal dofs of link a, u_a = h_a u_a^f (framework Section 4)"),
    _f("m", "a", "f(a)", "f(a)", "nodal mass matrix of link a (framework Section 4)", symmetric=True),
    _f("u", "a", "u(a)", "1", "block a of the flexible dof rates u (framework (4.1))"),
]}

PATTERNS = {
    "S": Pattern("shift", d=-1),
    "Dphi": Pattern("diag", "phi(k+1,k)"),
    "Dchi": Pattern("diag", "chi(k+1,k)"),
    "H": Pattern("diag", "H(k)"),
    "P": Pattern("diag", "P(k)"),
    "M": Pattern("diag", "M(k)"),
    "Dinv": Pattern("diag", "Dinv(k)"),
    "U": Pattern("diag", "U(k)"),
    "B": Pattern("tip", "phi(1,0)"),
    "E": Pattern("base", "phi(N+1,N)^T"),
    **{v: Pattern("vector", f"{v}(k)") for v in ("a", "b", "y", "T", "Tp", "thd", "thdd")},
    **{v: Pattern("single", v) for v in ("f0", "a0", "g", "apC")},
    "Bf": Pattern("diag", "Bf(k)"),
    "Cf": Pattern("lower", "Cf(k)"),
    "h": Pattern("diag", "h(k)"),
    "m": Pattern("diag", "m(k)"),
    "u": Pattern("vector", "u(k)"),
}
PATTERN_SOURCES = {
    "S": "Part I (5.2): identity blocks at (k+1, k), k = 1..N-1",
    "Dphi": "Part I (a.4): Delta_phi = diag phi(k+1, k)",
    "Dchi": "Part I Lemma A.1: Delta_chi = diag chi(k+1, k)",
    "B": "Part I (3.7): B = [phi(1, 0), 0, ..., 0]^T",
    "E": "Part I (3.8), (3.21): E = [0, ..., 0, phi^T(N+1, N)]^T (gravity enters block N)",
    "U": "framework (A.5): Upsilon = diag Upsilon(k) (the loop loop-A.5)",
    "Bf": "framework (4.3): B = diag B_k",
    "Cf": "framework (4.1)-(4.2): C_2 .. C_N on the first block subdiagonal, C_k at (k, k-1)",
    "h": "framework Section 4: h = diag h_k",
    "m": "framework Section 4: m = diag m_k",
}

T_RANGE = "0 <= b; b <= a; a <= N+1"

RELATIONS = [
    BlockRelation("phi-unit", ("a",), "0 <= a; a <= N+1", "phi(a,a)", "I", "Part I (3.3): phi(k, k) = I"),
    BlockRelation("phi-semi", ("a", "b", "c"), "0 <= c; c <= b; b <= a; a <= N+1", "phi(a,c)", "phi(a,b) phi(b,c)",
                  "Part I (3.2)-(3.3): phi(i, j) = phi(i, i-1) ... phi(j+1, j)"),
    BlockRelation("psi-unit", ("a",), "0 <= a; a <= N+1", "psi(a,a)", "I", "Part I (4.7), (5.1): psi(k, k) = I"),
    BlockRelation("psi-semi", ("a", "b", "c"), "0 <= c; c <= b; b <= a; a <= N+1", "psi(a,c)", "psi(a,b) psi(b,c)",
                  "Part I (5.1): psi(i, j) = psi(i, i-1) ... psi(j+1, j)"),
    BlockRelation("chi-unit", ("a",), "0 <= a; a <= N+1", "chi(a,a)", "I", "Part I Lemma A.1: chi(k, k) = I"),
    BlockRelation("chi-semi", ("a", "b", "c"), "0 <= c; c <= b; b <= a; a <= N+1", "chi(a,c)", "chi(a,b) chi(b,c)",
                  "Part I Lemma A.1: chi has the semigroup property"),
    BlockRelation("psi-step", ("a",), "1 <= a; a <= N", "psi(a+1,a)", "phi(a+1,a) - L(a) H(a)",
                  "Part I (4.7): psi(k+1, k) = phi(k+1, k) - L(k) H(k)"),
    BlockRelation("psi-tip", (), "", "psi(1,0)", "phi(1,0)", "Part I (4.4), (4.7): P(0) = 0, so L(0) = 0 and psi(1, 0) = phi(1, 0)"),
    BlockRelation("L-def", ("a",), "1 <= a; a <= N", "L(a)", "phi(a+1,a) G(a)", "Part I (4.6): L(k) = phi(k+1, k) G(k)"),
    BlockRelation("G-def", ("a",), "1 <= a; a <= N", "G(a)", "P(a) H(a)^T Dinv(a)", "Part I (5.12): G(k) = P(k) H^T(k) D^-1(k)"),
    BlockRelation("D-inv", ("a",), "1 <= a; a <= N", "Dinv(a) H(a) P(a) H(a)^T", "I", "Part I (4.6): D(k) = H(k) P(k) H^T(k) is invertible"),
    BlockRelation("BC", ("a",), "2 <= a; a <= N", "Bf(a) Cf(a)", "phi(a,a-1)",
                  "framework Section 4, after (4.3): B_k C_k = phi(k, k-1), i.e. phi(O_k, Q_k(1)) phi(Q_k(1), O_{k-1}) "
                  "by (4.2)-(4.3) and the semigroup rule"),
    BlockRelation("riccati-tip", (), "", "M(1)", "P(1)", "Part I (4.4)-(4.5): P(1) = M(1), since P(0) = 0"),
    BlockRelation("riccati", ("a",), "2 <= a; a <= N", "M(a)",
                  "P(a) - phi(a,a-1) P(a-1) phi(a,a-1)^T + phi(a,a-1) P(a-1) H(a-1)^T Dinv(a-1) H(a-1) P(a-1) phi(a,a-1)^T",
                  "Part I (4.4)-(4.5): P(k) = phi(k,k-1) [P - P H^T D^-1 H P](k-1) phi^T(k,k-1) + M(k)"),
]


def _eq(loop_id, name, params, where, lhs, rhs):
    return BlockRelation(f"{loop_id}.{name}", tuple(params), where, lhs, rhs, "")


FIRST, STEP_UP = "k = 1", "2 <= k; k <= N"             # a tip-to-base loop: its first iteration, the rest
LAST, STEP_DOWN = "k = N", "1 <= k; k <= N-1"           # a base-to-tip loop


def _up(loop_id, state, first, step):
    return (_eq(loop_id, "first", "k", FIRST, f"{state}(k)", first), _eq(loop_id, "step", "k", STEP_UP, f"{state}(k)", step))


def _down(loop_id, state, last, step):
    return (_eq(loop_id, "last", "k", LAST, f"{state}(k)", last), _eq(loop_id, "step", "k", STEP_DOWN, f"{state}(k)", step))


FROM_ZERO = "z(0) = 0 (and the input at index 0 is 0): the first iteration gives z(1) directly"
FROM_TOP = "the state at N+1 is 0: the first iteration gives block N directly"
NU_422B = "H(k)^T Dinv(k) Tp(k) - H(k)^T Dinv(k) H(k) [psi*S*Dphi*P*H^T*Dinv*Tp](k)"   # H^T(k) nu(k), nu = D^-1 (I - H Psi L) T'

LOOPS = [
    Loop("loop-2.26", "alpha(k) : 6 <- 1", (), "(2.24)-(2.26): alpha(N+1) = 0; alpha(k) = phi^T(k+1,k) alpha(k+1) + H^T(k) thdd(k) + a(k)",
         _down("loop-2.26", "alpha", "H(k)^T thdd(k) + a(k)", "phi(k+1,k)^T alpha(k+1) + H(k)^T thdd(k) + a(k)"),
         "Ephi.T@alpha", "alpha - H.T@thdd - a", FROM_TOP),
    Loop("loop-2.29", "f(k) : 6 <- 1", ("alpha(k) : 6 <- 1",),
         "(2.28)-(2.30): f(k) = phi(k,k-1) f(k-1) + M(k) alpha(k) + b(k), starting from f(0)",
         _up("loop-2.29", "f", "phi(k,k-1) f0 + M(k) alpha(k) + b(k)", "phi(k,k-1) f(k-1) + M(k) alpha(k) + b(k)"),
         "Ephi@f", "f - M@alpha - b - B@f0", "f(0) is the tip force f0"),
    Loop("loop-2.25", "V(k) : 6 <- 1", (), "(2.25), (3.11): V(N+1) = 0; V(k) = phi^T(k+1,k) V(k+1) + H^T(k) thd(k)",
         _down("loop-2.25", "V", "H(k)^T thd(k)", "phi(k+1,k)^T V(k+1) + H(k)^T thd(k)"),
         "Ephi.T@V", "V - H.T@thd", FROM_TOP),
    Loop("loop-3.21", "alpha(k) : 6 <- 1", (), "(2.26) started from alpha(N+1) = g (3.21): g enters block N as E g",
         _down("loop-3.21", "alpha", "phi(k+1,k)^T g + H(k)^T thdd(k) + a(k)", "phi(k+1,k)^T alpha(k+1) + H(k)^T thdd(k) + a(k)"),
         "Ephi.T@alpha", "alpha - H.T@thdd - a - E@g", "alpha(N+1) = g"),
    Loop("loop-4.3", "z(k) : 6 <- 1", (), "(4.3): z(0) = 0; z(k) = phi(k,k-1) z(k-1) + w(k)",
         _up("loop-4.3", "z", "y(k)", "phi(k,k-1) z(k-1) + y(k)"), "Ephi@z", "z - y", FROM_ZERO + "; w is written y"),
    Loop("loop-4.13", "z(k) : 6 <- 1", (), "(4.13): z(0) = 0; z(k) = phi(k,k-1) z(k-1) + L(k-1) eps(k-1), with eps = T",
         _up("loop-4.13", "z", "0", "phi(k,k-1) z(k-1) + L(k-1) T(k-1)"), "Ephi@z", "z - K@T", FROM_ZERO),
    Loop("loop-4.15", "zf(k) : 6 <- 1", ("z(k) : 6 <- 1",),
         "(4.15): z(k) = [phi(k,k-1) - L(k-1)H(k-1)] z(k-1) + L(k-1) y(k-1), y = H z + eps of (4.13)",
         _up("loop-4.15", "zf", "0", "phi(k,k-1) zf(k-1) - L(k-1) H(k-1) zf(k-1) + L(k-1) H(k-1) z(k-1) + L(k-1) T(k-1)"),
         "Epsi@zf", "zf - K@(H@z + T)", FROM_ZERO + "; the filter's state is written zf, the input z is the state of (4.13)"),
    Loop("loop-4.20", "zf(k) : 6 <- 1", (),
         "(4.19)-(4.20): z(0) = 0; z(k) = [phi(k,k-1) - L(k-1)H(k-1)] z(k-1) + L(k-1) T'(k-1)",
         _up("loop-4.20", "zf", "0", "phi(k,k-1) zf(k-1) - L(k-1) H(k-1) zf(k-1) + L(k-1) Tp(k-1)"),
         "Epsi@zf", "zf - K@Tp", FROM_ZERO + " (T'(0) = 0)"),
    Loop("loop-4.22", "lam(k) : 6 <- 1", (),
         "(4.21)-(4.22): lambda(N+1) = 0; lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k), with nu = T",
         _down("loop-4.22", "lam", "H(k)^T T(k)", "psi(k+1,k)^T lam(k+1) + H(k)^T T(k)"),
         "Epsi.T@lam", "lam - H.T@T", FROM_TOP),
    Loop("loop-4.22b", "lam(k) : 6 <- 1", (),
         "(4.22b): lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k), nu = D^-1 (I - H Psi L) T'",
         _down("loop-4.22b", "lam", NU_422B, "psi(k+1,k)^T lam(k+1) + " + NU_422B),
         "Epsi.T@lam", "lam - H.T@Dinv@(I - H@Psi@L)@Tp",
         FROM_TOP + "; nu(k) = D^-1(k) [T'(k) - H(k) [Psi L T'](k)], where [psi*S*Dphi*P*H^T*Dinv*Tp](k) is block k of the "
         "vector Psi L T' = psi S Delta_phi P H^T D^-1 T' (the definitions written out)"),
    Loop("loop-4.22b-zeta", "zeta(k) : 6 <- 1", (), "(4.22b): zeta(N+1) = 0; zeta(k) = phi^T(k+1,k) zeta(k+1) + a(k)",
         _down("loop-4.22b-zeta", "zeta", "a(k)", "phi(k+1,k)^T zeta(k+1) + a(k)"), "Ephi.T@zeta", "zeta - a", FROM_TOP),
    Loop("loop-4.22b-alpha", "alpha(k) : 6 <- 1", ("lam(k) : 6 <- 1", "zeta(k) : 6 <- 1"),
         "(4.21b)-(4.22b): alpha(k) = lambda(k) + zeta(k)",
         (_eq("loop-4.22b-alpha", "all", "k", "1 <= k; k <= N", "alpha(k)", "lam(k) + zeta(k)"),),
         "alpha", "lam + zeta"),
    Loop("loop-5.16", "z(k) : 6 <- 1", (),
         "(5.16): z(0) = f(0), P(0) = 0, T(0) = 0; z(k) = psi(k,k-1) z(k-1) + L(k-1) T(k-1) + psi(k,k-1) P(k-1) a(k-1) + b(k)",
         _up("loop-5.16", "z", "psi(k,k-1) f0 + b(k)",
             "psi(k,k-1) z(k-1) + L(k-1) T(k-1) + psi(k,k-1) P(k-1) a(k-1) + b(k)"),
         "Epsi@z", "z - K@T - Epsi@P@a - b - B@f0", "z(0) = f(0), P(0) = 0, T(0) = 0: z(1) = psi(1,0) f(0) + b(1)"),
    Loop("loop-5.17", "lam(k) : 6 <- 1", ("z(k) : 6 <- 1",),
         "(5.17): lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k) + [I - G(k)H(k)]^T a(k), nu = D^-1 (T - H z)",
         _down("loop-5.17", "lam", "H(k)^T Dinv(k) T(k) - H(k)^T Dinv(k) H(k) z(k) + a(k) - H(k)^T G(k)^T a(k)",
               "psi(k+1,k)^T lam(k+1) + H(k)^T Dinv(k) T(k) - H(k)^T Dinv(k) H(k) z(k) + a(k) - H(k)^T G(k)^T a(k)"),
         "Epsi.T@lam", "lam - H.T@Dinv@(T - H@z) - taub.T@a", FROM_TOP + "; z is the state of (5.16)"),
    Loop("lemma-A1", "r(k) : 6 <- 6", (),
         "(a.44): r(0) = 0; r(k+1) = psi(k+1,k) r(k) phi^T(k+1,k) + M(k+1), read as M = r - E_psi r E_phi^T "
         "(E X E^T is block diagonal for block-diagonal X); M any block-diagonal operator",
         _up("lemma-A1", "r", "M(k)", "psi(k,k-1) r(k-1) phi(k,k-1)^T + M(k)"),
         "M", "r - Epsi@r@Ephi.T", "r(0) = 0: r(1) = M(1); r = diag r(k)"),
    Loop("lemma-A1-chi", "r(k) : 6 <- 6", (),
         "(a.44) for a causal chi: r(k+1) = chi(k+1,k) r(k) phi^T(k+1,k) + M(k+1), r(0) = 0; M any block diagonal",
         _up("lemma-A1-chi", "r", "M(k)", "chi(k,k-1) r(k-1) phi(k,k-1)^T + M(k)"),
         "M", "r - S@Dchi@r@Ephi.T", "r(0) = 0: r(1) = M(1); r = diag r(k)"),
    Loop("corollary-A1", "r(k) : 6 <- 6", (),
         "Corollary A.1: r(k+1) = phi(k+1,k) r(k) phi^T(k+1,k) + M(k+1), r(0) = 0, as M = r - E_phi r E_phi^T",
         _up("corollary-A1", "r", "M(k)", "phi(k,k-1) r(k-1) phi(k,k-1)^T + M(k)"),
         "M", "r - Ephi@r@Ephi.T", "r(0) = 0: r(1) = M(1); r = diag r(k)"),
    Loop("loop-6.4", "z(k) : 6 <- 1", (), "(6.4a)-(6.4c): z(1) = phi(1,0) f(0); z(k) = psi(k,k-1) z(k-1)",
         _up("loop-6.4", "z", "phi(1,0) f0", "psi(k,k-1) z(k-1)"), "Epsi@z", "z - B@f0"),
    Loop("loop-6.4-lambda", "lam(k) : 6 <- 1", ("z(k) : 6 <- 1",),
         "(6.4d)-(6.4e): lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k), nu(k) = D^-1(k) H(k) z(k), k = 1..N",
         _down("loop-6.4-lambda", "lam", "H(k)^T Dinv(k) H(k) z(k)", "psi(k+1,k)^T lam(k+1) + H(k)^T Dinv(k) H(k) z(k)"),
         "Epsi.T@lam", "lam - H.T@Dinv@H@z", FROM_TOP + "; z is the state of (6.4a)-(6.4c)"),
    Loop("loop-2.1-printed", "fp(k) : 6 <- 1", (), "(2.1) as printed: f(0) = 0; f(k) = phi(k+1,k) f(k-1) + y(k)",
         _up("loop-2.1-printed", "fp", "y(k)", "phi(k+1,k) fp(k-1) + y(k)"), "Dphi@S@fp", "fp - y",
         FROM_ZERO + "; the printed loop's state is written fp"),
    Loop("loop-2.1", "f(k) : 6 <- 1", (), "(2.1) corrected: f(0) = 0; f(k) = phi(k,k-1) f(k-1) + y(k)",
         _up("loop-2.1", "f", "y(k)", "phi(k,k-1) f(k-1) + y(k)"), "Ephi@f", "f - y", FROM_ZERO),
    Loop("loop-2.2-V", "V(k) : 6 <- 1", (), "(2.2), (2.8): V = E_phi^* V + H^* beta",
         _down("loop-2.2-V", "V", "H(k)^T thd(k)", "phi(k+1,k)^T V(k+1) + H(k)^T thd(k)"), "Ephi.T@V", "V - H.T@thd",
         "the loop (2.1): V(n+1) = 0; V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k); beta is written thd"),
    Loop("loop-2.2-alpha", "alpha(k) : 6 <- 1", (), "(2.2), (2.8): alpha = E_phi^* alpha + H^* beta-dot + a",
         _down("loop-2.2-alpha", "alpha", "H(k)^T thdd(k) + a(k)", "phi(k+1,k)^T alpha(k+1) + H(k)^T thdd(k) + a(k)"),
         "Ephi.T@alpha", "alpha - H.T@thdd - a", "the loop (2.1): alpha(n+1) = 0; beta-dot is written thdd"),
    Loop("loop-2.2-f", "f(k) : 6 <- 1", ("alpha(k) : 6 <- 1",), "(2.2), (2.8): f = E_phi f + M alpha + b",
         _up("loop-2.2-f", "f", "M(k) alpha(k) + b(k)", "phi(k,k-1) f(k-1) + M(k) alpha(k) + b(k)"),
         "Ephi@f", "f - M@alpha - b", "the loop (2.1) with phi(k,k-1) (FW-2.1): f(0) = 0"),
    Loop("loop-A.2-z", "zf(k) : 6 <- 1", (), "(A.2), (4.15): z(0) = 0; z(k) = psi(k,k-1) z(k-1) + K(k,k-1) T(k-1)",
         _up("loop-A.2-z", "zf", "0", "psi(k,k-1) zf(k-1) + phi(k,k-1) G(k-1) T(k-1)"), "Epsi@zf", "zf - K@T",
         FROM_ZERO + "; K(k,k-1) = phi(k,k-1) G(k-1), framework (3.2)"),
    Loop("loop-A.2-alpha", "lam(k) : 6 <- 1", ("zf(k) : 6 <- 1",),
         "(A.2): alpha(k) = psi^*(k+1,k) alpha(k+1) + H^*(k) nu(k), nu = D^-1 (T - H z)",
         _down("loop-A.2-alpha", "lam", "H(k)^T Dinv(k) T(k) - H(k)^T Dinv(k) H(k) zf(k)",
               "psi(k+1,k)^T lam(k+1) + H(k)^T Dinv(k) T(k) - H(k)^T Dinv(k) H(k) zf(k)"),
         "Epsi.T@lam", "lam - H.T@Dinv@(T - H@zf)", FROM_TOP + "; alpha is written lam, z is the state zf of (A.2)"),
    Loop("loop-A.6", "zf(k) : 6 <- 1", (),
         "(A.6) corrected: z(0) = 0; z(k) = psi(k,k-1) z(k-1) + x(k), x = -B A^* f~ (A^* f~ as f(0))",
         _up("loop-A.6", "zf", "-phi(1,0) f0", "psi(k,k-1) zf(k-1)"), "Epsi@zf", "zf + B@f0",
         "x = -B f(0) has block 1 only: x(1) = -phi(1,0) f(0)"),
    Loop("loop-A.6-alpha", "lam(k) : 6 <- 1", ("zf(k) : 6 <- 1",),
         "(A.6): alpha(k) = psi^*(k+1,k) alpha(k+1) + H^*(k) nu(k), nu = D^-1 H z",
         _down("loop-A.6-alpha", "lam", "H(k)^T Dinv(k) H(k) zf(k)", "psi(k+1,k)^T lam(k+1) + H(k)^T Dinv(k) H(k) zf(k)"),
         "Epsi.T@lam", "lam - H.T@Dinv@H@zf", FROM_TOP),
    Loop("loop-A.5", "U(k) : 6 <- 6", (),
         "framework (A.5), Part II (6.10a)-(6.10c): Upsilon(N+1) = 0; Upsilon(k) = psi^T(k+1,k) Upsilon(k+1) psi(k+1,k) "
         "+ H^T(k) D^-1(k) H(k)",
         _down("loop-A.5", "U", "H(k)^T Dinv(k) H(k)", "psi(k+1,k)^T U(k+1) psi(k+1,k) + H(k)^T Dinv(k) H(k)"),
         "Epsi.T@U@Epsi", "U - H.T@Dinv@H", FROM_TOP + "; Upsilon = diag U(k): the relation upsilon, framework (A.3)"),
    Loop("loop-FW-4.1", "V(k) : 6 <- 1", (),
         "framework (4.1) corrected (h^*_{k+1}, printed h^*_k: FW-4.1): V(N+1) = 0; "
         "V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k) + C^*_{k+1} h^*_{k+1} u_{k+1}",
         _down("loop-FW-4.1", "V", "H(k)^T thd(k)", "phi(k+1,k)^T V(k+1) + H(k)^T thd(k) + Cf(k+1)^T h(k+1)^T u(k+1)"),
         "Ephi.T@V", "V - H.T@thd - Cf.T@h.T@u",
         FROM_TOP + "; beta is written thd; C^*_{k+1} h^*_{k+1} u_{k+1} = phi^*(Q_{k+1}(1), O_k) u_{k+1}(1) by (4.2)"),
    Loop("loop-FW-4.3", "Vf(k) : f(k) <- 1", ("V(k) : 6 <- 1",),
         "framework (4.3): V_k^f = B_k^* V(k) + h_k^* u_k, the spatial velocities at the n_k nodes of link k",
         (_eq("loop-FW-4.3", "all", "k", "1 <= k; k <= N", "Vf(k)", "Bf(k)^T V(k) + h(k)^T u(k)"),),
         "Vf", "Bf.T@V + h.T@u", "V is the state of (4.1)"),
]
BY_ID = {lp.id: lp for lp in LOOPS}
assert len(BY_ID) == len(LOOPS), "a loop id is used twice"

# Printed loops that no operator equation reads: a product that does not conform, or a loop
# that skips an index. Not pinned and never assumed: the per-N engine runs them
# (soagen.symbolic.models.block_values) to refute the records that print them.
MISPRINTED = [
    Loop("loop-6.4-nu-printed", "nu(k) : j(k) <- 1", ("z(k) : 6 <- 1",),
         "Part II (6.4b)-(6.4c) as printed: nu(k) = D^-1(k) H(k) z(k) for k = 2..N only (nu(1) is never computed)",
         (_eq("loop-6.4-nu-printed", "first", "k", FIRST, "nu(k)", "0"),
          _eq("loop-6.4-nu-printed", "step", "k", STEP_UP, "nu(k)", "Dinv(k) H(k) z(k)")), "", ""),
    Loop("loop-A.6-printed", "zf(k) : 6 <- 1", (),
         "framework (A.6) as printed: z(0) = 0; z(k) = psi(k,k-1) z(k-1) + K(k,k-1) x(k-1), x = -B A^* f~ "
         "(A^* f~ as f(0)); K(k,k-1) = phi(k,k-1) G(k-1) takes a joint vector, x(k-1) is spatial",
         _up("loop-A.6-printed", "zf", "0", "psi(k,k-1) zf(k-1) - phi(k,k-1) G(k-1) [B*f0](k-1)"), "", ""),
    Loop("loop-FW-4.1-printed", "V(k) : 6 <- 1", (),
         "framework (4.1) as printed: V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k) + C^*_{k+1} h^*_k u_{k+1}",
         _down("loop-FW-4.1-printed", "V", "H(k)^T thd(k)",
               "phi(k+1,k)^T V(k+1) + H(k)^T thd(k) + Cf(k+1)^T h(k)^T u(k+1)"), "", ""),
]
assert not {lp.id for lp in MISPRINTED} & set(BY_ID), "a misprinted loop has a pinned loop's id"
HYPOTHESES = {lp.id: lp.hypothesis for lp in LOOPS}

# hypotheses that restrict a statement instead of reading a loop: (id, lhs, rhs, what they mean)
CONDITIONS = {
    "one-dof": ("one-dof", "Psidot", "Sdot",
                "(D.4)-(D.5) for 1-dof joints: V(k) x H^T(k) - V_p(k) x H^T(k) = (H^T thd x H^T)(k) = 0"),
}
CONDITION_SCOPE = {"one-dof": "1-dof joints only"}     # how a result under the condition is labelled


def loop_family(lp: Loop, name: str | None = None) -> Family:
    """The family a loop computes (renamed to `name` if given)."""
    return _parse_family(lp.family, name, f"computed by {lp.id}")


def _parse_family(text: str, name=None, meaning=""):
    head, _, typ = text.partition(":")
    fam, _, params = head.strip().partition("(")
    cod, dom = (s.strip() for s in typ.split("<-"))
    params = tuple(p.strip() for p in params.rstrip(") ").split(",") if p.strip())
    env_cod = cod.replace("(k)", f"({params[0]})") if params else cod
    return Family(name or fam, params, env_cod, dom, False, meaning)


def input_family(text: str) -> Family:
    return _parse_family(text, None, "computed by another loop")
