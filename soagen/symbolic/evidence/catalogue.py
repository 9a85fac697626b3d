"""The identity catalogue: every identity of the seed papers as a data record.

A record says where the identity is printed (seed file, equation), the statement as
printed, its hypotheses, and the checks that express it as equalities of operator
expressions, in the statement language of :mod:`soagen.symbolic.kernel.statement` (the one `soagen
prove` reads; no ``eval``) over the names of :class:`~soagen.symbolic.models.chain.ChainOps` or of a
:mod:`~soagen.symbolic.engines.matrices` theory: ``@`` product, ``.T`` transpose, ``I`` identity of
the right size, and calls of the functions the per-N namespace binds (below), with integer,
string and keyword arguments.  Records are written with keyword arguments.  Statements about an inverse, ``X = M^-1 Y``, are
checked as ``M X == Y`` (M is invertible by hypothesis); ``A^-1 = B`` as ``A B == I``
and ``B A == I``.

If the printed form is wrong, ``misprint=True`` and ``corrected`` holds the checks of
the corrected form; the verifier must then refute the printed checks and prove the
corrected ones.  ``misprint_kind`` says whether the printed form is an error of the
paper or likely damage by the OCR of the scan, ``evidence`` why (quoting the seed).

Two engines read the same record (:mod:`soagen.symbolic.evidence.verify`): the N-free algebra
(:mod:`soagen.symbolic.engines.nfree`) proves the checks for every N when they are written with
whole operators; a check with explicit block indices or a recursion is evaluated by the
per-N engine for N = 1..k, and the statements with block indices are proved for every N by
induction over the index (:mod:`soagen.symbolic.evidence.block_records`).  A recursion in a check is
the code that runs: ``causal_filter(Tp)``, ``rne(thdd, f0)``, ... are the functions of
:mod:`soagen.dynamics` run on the chain's blocks (:mod:`soagen.symbolic.models.block_state`); a
printed loop no code runs (the innovations model (4.13), a misprinted loop) is
``loop('loop-4.13')``, run from its pinned equations, and the sums of the proofs are
``lower(...)``, ``diagonal(...)``, ``single(...)`` of their block text
(:mod:`soagen.symbolic.models.block_values`); ``block`` and ``phi_`` take single blocks.  ``code``
holds checks of the code that computes a record's statement when the statement itself is an
operator identity (FD1 computes (4.18)).  A recursion also has an *operator
reading*: ``given`` names its state (``"z : s <- 1"``), ``assume`` states the loop as an
operator equation (``(id, lhs, rhs, reading)`` from the pinned list of
:mod:`soagen.symbolic.engines.loops`, e.g. ``Epsi@z -> z - K@Tp`` for z(k) = psi(k,k-1) z(k-1) +
L(k-1) T'(k-1); each reading is proved for every N from its loop, block by block), and
``operator_form`` / ``operator_corrected`` are the checks in those terms; the N-free
engine proves them for every N.  A condition (``one-dof``: 1-dof joints) is stated the
same way and printed with the result.
Adding an identity is adding a record; the parametrized tests pick it up.
"""

from __future__ import annotations

from dataclasses import dataclass

from soagen.symbolic.engines.loops import CONDITIONS as CONDITION
from soagen.symbolic.engines.loops import HYPOTHESES as HYP
from soagen.symbolic.evidence.block_records import (
    F19,
    F21,
    F29,
    F31,
    RSUM,
    RSUM_PRINTED,
    XU,
    XU_PRINTED,
    S,
)
from soagen.symbolic.kernel.status import MisprintKind

P1 = "001_e87345439e27e1df.txt"   # Part I
P2 = "000_1955e51890d74a28.txt"   # Part II
FW = "003_c289bb0fa373b503.txt"   # framework paper
SM = "002_5314617134f00eeb.txt"   # Swain-Morris
DERIV = "docs/derivatives.md"      # the derivatives of the dynamics (after Jain and Rodriguez 1993)


@dataclass(frozen=True, kw_only=True)
class IdentityRecord:
    id: str
    source: str
    where: str
    printed: str
    checks: tuple
    hypotheses: str = ""
    theory: str = "chain"
    let: tuple = ()
    misprint: bool = False
    correction: str = ""
    corrected: tuple = ()
    nmin: int = 1
    symbolic_refutation: bool = True   # printed form refutable in the proof layer
    robot: bool = True                 # include in the numeric cross-check on robots
    note: str = ""
    given: tuple = ()                  # unknowns of the operator reading: "name : cod <- dom"
    assume: tuple = ()                 # (id, lhs, rhs, reading): the printed loops as operator equations
    operator_form: tuple = ()          # N-free checks of a printed recursion / block statement
    operator_corrected: tuple = ()     # the same for the corrected form
    operator_let: tuple | None = None  # lets of the operator form (default: let)
    instance: str = "chain"            # numeric cross-check family: chain | tree | arms
    misprint_kind: MisprintKind | str = ""   # an error of the paper or likely OCR damage ("" for no misprint)
    evidence: str = ""                 # why, quoting the seed text
    code: tuple = ()                   # checks of the soagen.dynamics code that computes the statement (per N)


# common sub-expressions (Part I notation)
IHPsiL = "(I - H@Psi@L)"
IHPhiL = "(I + H@Phi@L)"
MINV41 = f"{IHPsiL}.T@Dinv@{IHPsiL}"           # Theorem 4.1
THAT = "H@phi@(M@phi.T@a + b + B@f0)"            # bias torques (3.23)
FD = f"{MINV41}@(T - {THAT})"                     # the joint accelerations of forward dynamics (4.17)-(4.18)
LAMBDA1 = S("k", "1", "N", XU.format(j="1"))      # Lambda(1) of Part II (6.9b)
VF = "loop('loop-FW-4.1', 'loop-FW-4.3')"         # V^f by the sweeps (4.1), (4.3) of flexible links
# The printed sweeps read as operator equations (framework (2.2)): block k of E_phi x is
# phi(k,k-1) x(k-1), of E_phi^T x is phi^T(k+1,k) x(k+1), of E_psi x is psi(k,k-1) x(k-1),
# of K x is L(k-1) x(k-1), of K^T x is L^T(k) x(k+1); B f(0) enters block 1, E g block N.
# The loops and their readings are data (soagen.symbolic.engines.loops), each reading proved for
# every N from its loop (soagen.symbolic.engines.blockwise).
ALPHA = HYP["loop-2.26"]
FORCE = HYP["loop-2.29"]
VEL = HYP["loop-2.25"]
FILTER_T = HYP["loop-A.2-z"]
INNOV = HYP["loop-4.13"]
R_VEC, R_STATE = ("alpha : s <- 1", "f : s <- 1"), ("zf : s <- 1", "lam : s <- 1")

CHAIN_HYP = ("serial chain, tip = 1 .. base = N; P by the Riccati recursion (4.4)-(4.6); "
             "D = H P H^T invertible; L = phi G, G = P H^T D^-1; P, M, D symmetric")

FLEX_HYP = ("serial chain of flexible links (framework Section 4): link k has n_k nodes Q_k(j), node n_k pinned "
            "at O_k (u_k = h_k u_k^f), link k-1 attached at node Q_k(1); B = diag B_k, C with C_k at (k, k-1), "
            "h = diag h_k, m = diag m_k (symmetric); B C = E_phi (relation flex-BC, FW-4.BC)")
# the mass matrix of T = 1/2 (V^f)^* m V^f, V^f = W_u u + W_beta beta (FW-4.3), and the rows of the printed factor
FLEX_LET = (("Af", "I + Cf@phi@Bf"), ("Wu", "(I + Bf.T@phi.T@Cf.T)@h.T"), ("Wb", "Bf.T@phi.T@H.T"),
            ("Gu", "h@Af"), ("Gb", "H@Bf@Af"))


def _mf_checks(first: str, second: str) -> tuple:
    """T = 1/2 X^* M^f X with X = (u; beta) and M^f = (G_1; G_2) m (G_1; G_2)^*: its four blocks and
    the quadratic form, for the block rows G_1, G_2 of the factor (h; HB) [I + C phi B]."""
    a, b = first, second
    return (("Wu.T@m@Wu", f"{a}@m@{a}.T"), ("Wu.T@m@Wb", f"{a}@m@{b}.T"), ("Wb.T@m@Wu", f"{b}@m@{a}.T"),
            ("Wb.T@m@Wb", f"{b}@m@{b}.T"),
            ("Vf.T@m@Vf", f"u.T@{a}@m@{a}.T@u + u.T@{a}@m@{b}.T@thd + thd.T@{b}@m@{a}.T@u + thd.T@{b}@m@{b}.T@thd"))


CATALOGUE: list[IdentityRecord] = [
    # ------------------------------------------------------------------ Part I, section 3
    IdentityRecord(id="I-3.19", source=P1, where="Part I (3.19), second line",
      printed="T = H phi [M phi^T (H^T thdd + a) + b + B f(0)]  equals  M thdd + C + J^T f(0) of (3.20)",
      checks=(("H@phi@(M@phi.T@(H.T@thdd + a) + b + B@f0)", "Mcal@thdd + C + J.T@f0"),),
      hypotheses="M = H phi M phi^T H^T, C = H phi (M phi^T a + b), J = B^T phi^T H^T (3.13), (3.20)"),
    IdentityRecord(id="I-3.18", source=P1, where="Part I (3.18)", printed="T = H phi [M alpha + b + B f(0)], alpha = phi^T H^T thdd + phi^T a",
      checks=(("H@phi@(M@alpha + b + B@f0)", "Mcal@thdd + C + J.T@f0"),), hypotheses="(3.20)", let=(("alpha", "phi.T@H.T@thdd + phi.T@a"),)),
    IdentityRecord(id="I-3.19a", source=P1, where="Part I (3.19), first line",
      printed="T = H phi [M phi^T H^T thdd + H phi [M phi^T a + b + B f(0)]]",
      checks=(("H@phi@(M@phi.T@H.T@thdd + H@phi@(M@phi.T@a + b + B@f0))", "Mcal@thdd + C + J.T@f0"),),
      hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="a bracket placed wrongly in the typeset display: the inner `H\\phi[` sits inside the outer bracket, "
               "and the second line of (3.19), printed right below, has the right grouping",
      correction="T = H phi M phi^T H^T thdd + H phi [M phi^T a + b + B f(0)] (the inner "
                 "H phi is applied twice as printed, which does not conform)",
      corrected=(("H@phi@M@phi.T@H.T@thdd + H@phi@(M@phi.T@a + b + B@f0)", "Mcal@thdd + C + J.T@f0"),)),
    IdentityRecord(id="I-3.20", source=P1, where="Part I (3.20)",
      printed="T = M thdd + C + J^T f(0); M = H phi M phi^T H^T; C = H phi (M phi^T a + b); J^T = H phi B",
      checks=(("rne(thdd, f0)", "Mcal@thdd + C + J.T@f0"),),
      hypotheses="the RSD/RNE sweeps (2.24)-(2.30) run block by block", robot=False, code=(("mass_matrix()", "Mcal"),),
      given=R_VEC, assume=(ALPHA, FORCE), operator_form=(("H@f", "Mcal@thdd + C + J.T@f0"),)),
    IdentityRecord(id="I-3.12", source=P1, where="Part I (3.11)-(3.12)", printed="V(k) = sum_{i=k..N} phi^T(i,k) H^T(i) thd(i), i.e. V = phi^T H^T thd",
      checks=(("accelerations(thd, 0*a)", "phi.T@H.T@thd"),), hypotheses="the velocity sweep (2.25) block by block", robot=False,
      given=("V : s <- 1",), assume=(VEL,), operator_form=(("V", "phi.T@H.T@thd"),)),
    IdentityRecord(id="I-3.13", source=P1, where="Part I (3.13)", printed="V(0) = phi^T(1,0) V(1) = J thd, J = B^T phi^T H^T",
      checks=(("B.T@accelerations(thd, 0*a)", "J@thd"),), hypotheses="B = [phi(1,0), 0, ..., 0]^T (3.7)", robot=False,
      given=("V : s <- 1",), assume=(VEL,), operator_form=(("B.T@V", "J@thd"),)),
    IdentityRecord(id="I-3.15", source=P1, where="Part I (3.14)-(3.15)",
      printed="alpha = phi^T H^T thdd + phi^T a  (operator form of the sweep (2.26))",
      checks=(("accelerations(thdd, a)", "phi.T@H.T@thdd + phi.T@a"),), robot=False,
      given=R_VEC[:1], assume=(ALPHA,), operator_form=(("alpha", "phi.T@H.T@thdd + phi.T@a"),)),
    IdentityRecord(id="I-3.21", source=P1, where="Part I (3.8), (3.21)",
      printed="uniform gravity = base acceleration g: alpha = phi^T (H^T thdd + a + E g), E = [0, ..., 0, phi^T(N+1,N)]^T",
      checks=(("accelerations(thdd, a + E@g)", "phi.T@(H.T@thdd + a + E@g)"),),
      hypotheses="alpha(N+1) = g in the sweep (2.26); E read with last block phi^T(N+1,N)", robot=False,
      given=R_VEC[:1], assume=(HYP["loop-3.21"],),
      operator_form=(("alpha", "phi.T@(H.T@thdd + a + E@g)"),),
      note="checks the reading of (3.8): a literal transpose would put phi(N+1,N) in E and fail"),
    IdentityRecord(id="I-3.17", source=P1, where="Part I (3.16)-(3.17)",
      printed="f = phi (M alpha + b + B f(0))  (operator form of the sweep (2.29))",
      checks=(("composite_forces(M@alpha + b + B@f0)", "phi@(M@alpha + b + B@f0)"),),
      let=(("alpha", "accelerations(thdd, a)"),), robot=False,
      given=R_VEC, assume=(ALPHA, FORCE), operator_form=(("f", "phi@(M@alpha + b + B@f0)"),), operator_let=()),
    IdentityRecord(id="I-3.22", source=P1, where="Part I (3.22)-(3.23)", printed="M thdd = T', T' = T - T^ (the bias-free dynamics)",
      checks=((f"T20 - {THAT}", "Mcal@thdd"),), hypotheses="T = M thdd + C + J^T f(0) (3.20)", let=(("T20", "Mcal@thdd + C + J.T@f0"),)),
    IdentityRecord(id="I-abstract", source=P1, where="Part I abstract (second abstract, line 104)",
      printed="M^-1 = (I - H Phi L)^T D^-1 (I - H Phi L)",
      checks=(("Mcal@(I - H@Phi@L).T@Dinv@(I - H@Phi@L)", "I"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="all three occurrences of the factor in that abstract read `(I - H\\Phi L)`, while the same sentence "
               "renders `L , \u03a8 and D` correctly: a consistent substitution, not a misread glyph. The report's first "
               "abstract prints the same sentence with `(I - H\\Psi L)` (line 47 of the seed)",
      correction="M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L)  (Psi, as in (4.16))",
      corrected=((f"Mcal@{MINV41}", "I"),)),
    # ------------------------------------------------------------------ Part I, section 4
    IdentityRecord(id="I-4.2", source=P1, where="Part I (4.1)-(4.2)", printed="Y = H phi W with E(W W^T) = M gives E(Y Y^T) = H phi M phi^T H^T = M",
      checks=(("(H@phi)@M@(H@phi).T", "Mcal"),), hypotheses="W white with covariance M (4.1)"),
    IdentityRecord(id="I-4.3", source=P1, where="Part I (4.3)", printed="z(k) = phi(k,k-1) z(k-1) + w(k), y(k) = H(k) z(k)  computes Y = H phi W",
      checks=(("H@composite_forces(y)", "H@phi@y"),), hypotheses="w written y", robot=False, given=("z : s <- 1",),
      assume=(HYP["loop-4.3"],),
      operator_form=(("H@z", "H@phi@y"),)),
    IdentityRecord(id="I-4.4", source=P1, where="Part I (4.4)",
      printed="L(1) = Phi(2,1) P(1) H^T(1) D^-1(1)",
      checks=(("block(L,1,1)", "block(Phi,2,1)@block(P,1,1)@block(H,1,1).T@block(Dinv,1,1)"),),
      hypotheses=CHAIN_HYP, misprint=True, nmin=2, misprint_kind=MisprintKind.OCR,
      evidence="lowercase phi rendered as capital: `\\Phi(2,1)` is the only place in Part I where Phi carries block "
               "indices (Phi is used only as a whole operator, (4.9)); the loop line (4.6) right below prints "
               "`L(k) = \\phi(k+1, k)P(k)H^T(k)D^{-1}(k)`, and the OCR confuses the phi glyphs elsewhere: the text "
               "after (4.10) prints `\\psi(k, k) = \\psi(k, k) = I` for phi(k, k) = psi(k, k) = I",
      correction="L(1) = phi(2,1) P(1) H^T(1) D^-1(1)  (Phi(2,1) = I by (4.9))",
      corrected=(("block(L,1,1)", "phi_(2,1)@block(P,1,1)@block(H,1,1).T@block(Dinv,1,1)"),),
      robot=False),
    IdentityRecord(id="I-3.23", source=P1, where="Part I (3.13), (3.23)",
      printed="T^ = H phi [M phi^T a + b + B f(0)] = C + J^T f(0), J = B^T phi^T H^T",
      checks=((THAT, "C + J.T@f0"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-4.11", source=P1, where="Part I Fact 4.1 (4.11)", printed="M = (I + H Phi L) D (I + H Phi L)^T",
      checks=((f"{IHPhiL}@D@{IHPhiL}.T", "Mcal"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-4.14", source=P1, where="Part I Fact 4.2 (4.14)", printed="(I + H Phi L)^-1 = I - H Psi L",
      checks=((f"{IHPhiL}@{IHPsiL}", "I"), (f"{IHPsiL}@{IHPhiL}", "I")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-4.16", source=P1, where="Part I Theorem 4.1 (4.16)", printed="M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L)",
      checks=((f"Mcal@{MINV41}", "I"), (f"{MINV41}@Mcal", "I")), hypotheses=CHAIN_HYP + "; M invertible",
      code=(("inverse_mass_matrix()", MINV41),)),
    IdentityRecord(id="I-4.13", source=P1, where="Part I (4.12)-(4.13) innovations model",
      printed="z(k) = phi(k,k-1) z(k-1) + L(k-1) eps(k-1); y(k) = H(k) z(k) + eps(k)  computes Y = (I + H Phi L) eps",
      checks=(("H@loop('loop-4.13') + T", f"{IHPhiL}@T"),), hypotheses=CHAIN_HYP, robot=False,
      given=("z : s <- 1",), assume=(INNOV,), operator_form=(("H@z + T", f"{IHPhiL}@T"),)),
    IdentityRecord(id="I-4.15", source=P1, where="Part I (4.15) Kalman filter as whitening filter",
      printed="z(k) = [phi(k,k-1) - L(k-1)H(k-1)] z(k-1) + L(k-1) y(k-1); eps(k) = -H(k) z(k) + y(k)  computes "
      "eps = (I - H Psi L) y, the inverse of (4.13)",
      checks=(("D@causal_filter(H@loop('loop-4.13') + T)", "T"),), hypotheses=CHAIN_HYP + "; D causal_filter = (4.15)", robot=False,
      given=("z : s <- 1", "zf : s <- 1"),
      assume=(INNOV, HYP["loop-4.15"]),
      operator_form=(("H@z + T - H@zf", "T"),)),
    IdentityRecord(id="I-4.20", source=P1, where="Part I (4.19)-(4.20) causal filtering",
      printed="z(k) = [phi(k,k-1) - L(k-1)H(k-1)] z(k-1) + L(k-1) T'(k-1); eps(k) = T(k) - H(k) z(k); "
      "nu = D^-1 eps  computes nu = D^-1 (I - H Psi L) T'",
      checks=(("Dinv@(T - H@loop('loop-4.20'))", f"Dinv@{IHPsiL}@Tp"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.OCR,
      evidence="a dropped prime: the same display prints `T'(0) = 0` in (4.19) and `L(k-1)T'(k-1)` in the line "
               "above, and the text after (4.18) defines `\\epsilon = (I - H\\Psi L)T'`; the OCR drops primes and "
               "accents elsewhere too (Part I (a.50) proof: `P\\phi^T` for P phi~^T)",
      correction="eps(k) = T'(k) - H(k) z(k)  (the bias-free T', as in (4.18))",
      corrected=(("causal_filter(Tp)", f"Dinv@{IHPsiL}@Tp"),), robot=False,
      given=("zf : s <- 1",), assume=(HYP["loop-4.20"],),
      operator_form=(("Dinv@(T - H@zf)", f"Dinv@{IHPsiL}@Tp"),),
      operator_corrected=(("Dinv@(Tp - H@zf)", f"Dinv@{IHPsiL}@Tp"),)),
    IdentityRecord(id="I-4.22", source=P1, where="Part I (4.21)-(4.22) anticausal smoothing",
      printed="lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k); thdd(k) = nu(k) - L^T(k) lambda(k+1) "
      "computes thdd = (I - H Psi L)^T nu",
      checks=(("anticausal_smoother(T)[0]", f"{IHPsiL}.T@T"),), hypotheses=CHAIN_HYP, robot=False,
      given=("lam : s <- 1",), assume=(HYP["loop-4.22"],),
      operator_form=(("T - K.T@lam", f"{IHPsiL}.T@T"),)),
    IdentityRecord(id="I-FD1", source=P1, where="Part I Algorithm FD1 (4.17)-(4.18)",
      printed="thdd = (I - H Psi L)^T D^-1 (I - H Psi L) T', T' = T - H phi [M phi^T a + b + B f(0)] solves (3.20)",
      checks=((f"Mcal@{MINV41}@(T - {THAT})", f"T - {THAT}"),), hypotheses=CHAIN_HYP, code=(("fd1(T, f0)[0]", FD),)),
    # ------------------------------------------------------------------ Part I, section 5
    IdentityRecord(id="I-5.3", source=P1, where="Part I (5.3)", printed="Psi = psi S", checks=(("Psi", "psi@S"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-5.4", source=P1, where="Part I Identity 5.1 (5.4)", printed="(I - H Psi L) H phi = H psi",
      checks=((f"{IHPsiL}@H@phi", "H@psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-FD2", source=P1, where="Part I Algorithm FD2 (5.6) and its proof",
      printed="phi^T H^T (I - H Psi L)^T D^-1 (I - H Psi L) T' + phi^T a = psi^T H^T D^-1 (I - H Psi L) T' + phi^T a",
      checks=((f"phi.T@H.T@{MINV41}@Tp + phi.T@a", f"psi.T@H.T@Dinv@{IHPsiL}@Tp + phi.T@a"),), hypotheses=CHAIN_HYP,
      code=(("fd2(T, f0)[0]", FD), ("fd2(T, f0)[1]", f"psi.T@H.T@Dinv@{IHPsiL}@(T - {THAT}) + phi.T@a"))),
    IdentityRecord(id="I-FD2-rec", source=P1, where="Part I (4.21b)-(4.22b)",
      printed="lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k); zeta(k) = phi^T(k+1,k) zeta(k+1) + a(k); "
      "alpha(k) = lambda(k) + zeta(k)  computes alpha of (5.6)",
      checks=(("link_accelerations(anticausal_smoother(Dinv@(I - H@Psi@L)@Tp)[1])", f"psi.T@H.T@Dinv@{IHPsiL}@Tp + phi.T@a"),), hypotheses=CHAIN_HYP,
      robot=False, given=("lam : s <- 1", "zeta : s <- 1"),
      assume=(HYP["loop-4.22b"],
              HYP["loop-4.22b-zeta"]),
      operator_form=(("lam + zeta", f"psi.T@H.T@Dinv@{IHPsiL}@Tp + phi.T@a"),)),
    IdentityRecord(id="I-5.7", source=P1, where="Part I (5.7) with (3.7), (2.27)",
      printed="alpha(0) = B^T alpha + a(0) = J thdd + B^T phi^T a + a(0), alpha of FD2 (5.6), thdd of FD1",
      checks=(("B.T@alpha + a0", f"J@{MINV41}@Tp + B.T@phi.T@a + a0"),), hypotheses=CHAIN_HYP,
      let=(("alpha", f"psi.T@H.T@Dinv@{IHPsiL}@Tp + phi.T@a"),)),
    IdentityRecord(id="I-4.23", source=P1, where="Part I (4.23)", printed="alpha(0) = phi^T(1,0) alpha(1) + a(0), alpha by the sweep (4.21b)-(4.22b)",
      checks=(("phi_(1,0).T@block(alpha,1,1) + a0", f"J@{MINV41}@Tp + B.T@phi.T@a + a0"),), hypotheses=CHAIN_HYP, robot=False,
      let=(("alpha", "link_accelerations(anticausal_smoother(Dinv@(I - H@Psi@L)@Tp)[1])"),)),
    IdentityRecord(id="I-FD2-lambda", source=P1, where="Part I, remark after FD2",
      printed="(I - H Psi L)^T nu = nu - L^T S^T lambda, lambda = psi^T H^T nu",
      checks=((f"{IHPsiL}.T@T", "T - L.T@S.T@psi.T@H.T@T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-FD3", source=P1, where="Part I Algorithm FD3 (5.8)-(5.10)",
      printed="thdd = (I - H Psi L)^T D^-1 eps, eps = T - H psi [S L T + M zeta + b + B f(0)], zeta = phi^T a, solves (3.20)",
      checks=((f"Mcal@{IHPsiL}.T@Dinv@(T - H@psi@(S@L@T + M@phi.T@a + b + B@f0))", f"T - {THAT}"),), hypotheses=CHAIN_HYP,
      code=(("fd3(T, f0)[0]", FD),)),
    IdentityRecord(id="I-FD3-proof", source=P1, where="Part I, proof of FD3 (last line); also Part II (5.13)",
      printed="thdd = (I - H Psi L)^-1 D^-1 [T - H psi (S L T + M zeta + b + B f(0))]",
      checks=((f"Mcal@{IHPhiL}@Dinv@(T - H@psi@(S@L@T + M@phi.T@a + b + B@f0))", f"T - {THAT}"),),
      hypotheses=CHAIN_HYP + "; (I - H Psi L)^-1 = I + H Phi L by Fact 4.2", misprint=True, nmin=1, misprint_kind=MisprintKind.PAPER,
      evidence="the same `(I - H\\Psi L)^{-1}` is printed in Part II (5.13), a separately typeset paper, so it is the "
               "authors' formula; (5.10) two lines above has the transpose",
      correction="thdd = (I - H Psi L)^T D^-1 [...]  (transpose, not inverse; as in (5.10))",
      corrected=((f"Mcal@{IHPsiL}.T@Dinv@(T - H@psi@(S@L@T + M@phi.T@a + b + B@f0))", f"T - {THAT}"),)),
    IdentityRecord(id="I-FD4", source=P1, where="Part I Algorithm FD4 (5.13)-(5.15)",
      printed="nu = D^-1 (I - H Psi L) T - D^-1 H psi~ P a - D^-1 H psi [b + B f(0)]; "
      "thdd = (I - H Psi L)^T nu - L^T Psi^T (I - G H)^T a - G^T a  solves (3.20)",
      checks=(("Mcal@thdd4", f"T - {THAT}"),), hypotheses=CHAIN_HYP,
      let=(("nu4", f"Dinv@{IHPsiL}@T - Dinv@H@psi_t@P@a - Dinv@H@psi@(b + B@f0)"),
           ("thdd4", f"{IHPsiL}.T@nu4 - L.T@Psi.T@(I - G@H).T@a - G.T@a"))),
    IdentityRecord(id="I-FD4-rec", source=P1, where="Part I (5.16)-(5.17)",
      printed="the 3-sweep recursion (5.16)-(5.17) computes FD4's thdd",
      checks=(("fd4(T, f0)[0]", "thdd4"),), hypotheses=CHAIN_HYP,
      code=(("fd4(T, f0)[1]", f"phi.T@(H.T@{FD} + a)"),),
      let=(("nu4", f"Dinv@{IHPsiL}@T - Dinv@H@psi_t@P@a - Dinv@H@psi@(b + B@f0)"),
           ("thdd4", f"{IHPsiL}.T@nu4 - L.T@Psi.T@(I - G@H).T@a - G.T@a")), robot=False,
      given=("z : s <- 1", "lam : s <- 1"),
      assume=(HYP["loop-5.16"],
              HYP["loop-5.17"]),
      operator_form=(("Dinv@(T - H@z) - K.T@lam - G.T@a", "thdd4"),)),
    IdentityRecord(id="I-FD4-proof", source=P1, where="Part I, proof of FD4 (last display)",
      printed="(I - H Psi L)^T D^-1 H psi M phi^T = (I - H Psi L)^T D^-1 H phi~ P + L^T Psi^T (I - G H)^T + G^T",
      checks=((f"{IHPsiL}.T@Dinv@H@psi@M@phi.T", f"{IHPsiL}.T@Dinv@H@phi_t@P + L.T@Psi.T@(I - G@H).T + G.T"),),
      hypotheses=CHAIN_HYP, misprint=True, nmin=2, misprint_kind=MisprintKind.PAPER,
      evidence="the proof display prints `H\\tilde{\\phi}P` with the tilde intact, while (a.50), which the proof "
               "says it follows from, has `H\\tilde{\\psi}P`: a different letter, not a lost mark",
      correction="... = (I - H Psi L)^T D^-1 H psi~ P + ...  (psi~, as in (a.50))",
      corrected=((f"{IHPsiL}.T@Dinv@H@psi@M@phi.T", f"{IHPsiL}.T@Dinv@H@psi_t@P + L.T@Psi.T@(I - G@H).T + G.T"),)),
    # ------------------------------------------------------------------ Part I, Appendix A
    IdentityRecord(id="I-a.1", source=P1, where="Part I (a.1)-(a.5), (4.7) definitions",
      printed="D = H P H^T (invertible), G = P H^T D^-1, phi~ = phi - I, Delta_psi = Delta_phi - L H",
      checks=(("D@Dinv", "I"), ("Dinv@D", "I"), ("G@D", "P@H.T"), ("phi_t", "phi - I"), ("Dpsi", "Dphi - L@H")),
      hypotheses=CHAIN_HYP, note="consistency of the definitions the proof layer is built on"),
    IdentityRecord(id="I-a.6", source=P1, where="Part I (a.6)", printed="Phi = phi S", checks=(("Phi", "phi@S"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.7", source=P1, where="Part I (a.7)", printed="Psi = psi S", checks=(("Psi", "psi@S"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.8", source=P1, where="Part I (a.8)", printed="Psi Delta_psi = psi~", checks=(("Psi@Dpsi", "psi_t"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.9", source=P1, where="Part I (a.9)", printed="Phi Delta_phi = phi~", checks=(("Phi@Dphi", "phi_t"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.10", source=P1, where="Part I (a.10)", printed="psi^-1 = I - S Delta_psi",
      checks=(("psi@(I - S@Dpsi)", "I"), ("(I - S@Dpsi)@psi", "I")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.11", source=P1, where="Part I (a.11)", printed="phi^-1 = I - S Delta_phi",
      checks=(("phi@(I - S@Dphi)", "I"), ("(I - S@Dphi)@phi", "I")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.12", source=P1, where="Part I (a.12)", printed="L = Delta_phi G", checks=(("L", "Dphi@G"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.13", source=P1, where="Part I (a.13)", printed="phi~ G = Phi L", checks=(("phi_t@G", "Phi@L"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.14", source=P1, where="Part I (a.14)", printed="phi = psi (I + S L H phi)", checks=(("phi", "psi@(I + S@L@H@phi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.15", source=P1, where="Part I (a.15)", printed="psi = (I - Psi L H) phi", checks=(("psi", "(I - Psi@L@H)@phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.16", source=P1, where="Part I (a.16)", printed="Phi = Psi (I + L H Phi)", checks=(("Phi", "Psi@(I + L@H@Phi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.17", source=P1, where="Part I (a.17)", printed="Psi = (I - Psi L H) Phi", checks=(("Psi", "(I - Psi@L@H)@Phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.18", source=P1, where="Part I (a.18)", printed="phi - psi = Psi L H phi = psi S L H phi",
      checks=(("phi - psi", "Psi@L@H@phi"), ("Psi@L@H@phi", "psi@S@L@H@phi")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.20", source=P1, where="Part I (a.19)-(a.20), telescoping",
      printed="T(k,m) = sum_{i=m}^{k-1} [psi(k,i+1) phi(i+1,m) - psi(k,i) phi(i,m)] = phi(k,m) - psi(k,m), k > m",
      checks=((f"lower('{S('i', 'm', 'k-1', F19)}')", "phi - psi"),), hypotheses=CHAIN_HYP, robot=False, note="block sums over the index i; their operator form is (a.18) / (a.28), proved for every N"),
    IdentityRecord(id="I-a.30", source=P1, where="Part I (a.29)-(a.30), telescoping",
      printed="T'(k,m) = sum_{i=m}^{k-1} [phi(k,i+1) psi(i+1,m) - phi(k,i) psi(i,m)] = psi(k,m) - phi(k,m), k > m",
      checks=((f"lower('{S('i', 'm', 'k-1', F29)}')", "psi - phi"),), hypotheses=CHAIN_HYP, robot=False, note="block sums over the index i; their operator form is (a.18) / (a.28), proved for every N"),
    IdentityRecord(id="I-a.21", source=P1, where="Part I (a.19)-(a.21), block form of (a.18)",
      printed="phi(k,m) - psi(k,m) = sum_{i=m}^{k-1} psi(k,i+1) L(i) H(i) phi(i,m), k > m",
      checks=(("phi - psi", f"lower('{S('i', 'm', 'k-1', F21)}')"),), hypotheses=CHAIN_HYP, robot=False, note="block sums over the index i; their operator form is (a.18) / (a.28), proved for every N"),
    IdentityRecord(id="I-a.31", source=P1, where="Part I (a.29)-(a.31), block form of (a.28)",
      printed="phi(k,m) - psi(k,m) = sum_{i=m}^{k-1} phi(k,i+1) L(i) H(i) psi(i,m), k > m",
      checks=(("phi - psi", f"lower('{S('i', 'm', 'k-1', F31)}')"),), hypotheses=CHAIN_HYP, robot=False, note="block sums over the index i; their operator form is (a.18) / (a.28), proved for every N"),
    IdentityRecord(id="I-a.22", source=P1, where="Part I (a.22)", printed="phi = (I + Phi L H) psi", checks=(("phi", "(I + Phi@L@H)@psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.23", source=P1, where="Part I (a.23)", printed="psi = phi (I - S L H psi)", checks=(("psi", "phi@(I - S@L@H@psi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.24", source=P1, where="Part I (a.24)", printed="Phi = (I + Phi L H) Psi", checks=(("Phi", "(I + Phi@L@H)@Psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.25", source=P1, where="Part I (a.25)", printed="Psi = Phi (I - L H Psi)", checks=(("Psi", "Phi@(I - L@H@Psi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.26", source=P1, where="Part I (a.26)", printed="Phi L H psi = Psi L H phi", checks=(("Phi@L@H@psi", "Psi@L@H@phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.27", source=P1, where="Part I (a.27)", printed="Phi L H Psi = Psi L H Phi", checks=(("Phi@L@H@Psi", "Psi@L@H@Phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.28", source=P1, where="Part I (a.28)", printed="phi - psi = Phi L H psi = phi S L H psi",
      checks=(("phi - psi", "Phi@L@H@psi"), ("Phi@L@H@psi", "phi@S@L@H@psi")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.32", source=P1, where="Part I (a.32)", printed="H phi = (I + H Phi L) H psi", checks=(("H@phi", f"{IHPhiL}@H@psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.33", source=P1, where="Part I (a.33)", printed="H Phi = (I + H Phi L) H Psi", checks=(("H@Phi", f"{IHPhiL}@H@Psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.34", source=P1, where="Part I (a.34)", printed="H Psi = H Phi (I - L H Psi)", checks=(("H@Psi", "H@Phi@(I - L@H@Psi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.35", source=P1, where="Part I (a.35)", printed="H psi = (I - H Psi L) H phi", checks=(("H@psi", f"{IHPsiL}@H@phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.36", source=P1, where="Part I (a.36)", printed="H Psi = (I - H Psi L) H Phi", checks=(("H@Psi", f"{IHPsiL}@H@Phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.37", source=P1, where="Part I (a.37)", printed="H Phi = H Psi (I + L H Phi)", checks=(("H@Phi", "H@Psi@(I + L@H@Phi)"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.38", source=P1, where="Part I (a.38)", printed="H Phi L H Psi = H Psi L H Phi", checks=(("H@Phi@L@H@Psi", "H@Psi@L@H@Phi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.39", source=P1, where="Part I (a.39)", printed="Phi L = Psi L (I + H Phi L)", checks=(("Phi@L", f"Psi@L@{IHPhiL}"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.40", source=P1, where="Part I (a.40)", printed="Psi L = (I - Psi L H) Phi L", checks=(("Psi@L", "(I - Psi@L@H)@Phi@L"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.41", source=P1, where="Part I (a.41)", printed="Psi L = Phi L (I - H Psi L)", checks=(("Psi@L", f"Phi@L@{IHPsiL}"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.42", source=P1, where="Part I (a.42)", printed="Phi L = (I + Phi L H) Psi L", checks=(("Phi@L", "(I + Phi@L@H)@Psi@L"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.43", source=P1, where="Part I (a.43)", printed="Psi L H Phi L = Phi L H Psi L", checks=(("Psi@L@H@Phi@L", "Phi@L@H@Psi@L"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.45", source=P1, where="Part I Lemma A.1 (a.44)-(a.45), with psi of (4.7)",
      printed="r(0) = 0, r(k+1) = psi(k+1,k) r(k) phi^T(k+1,k) + M(k+1)  =>  psi M phi^T = r + psi~ r + r phi~^T",
      checks=(("psi@M@phi.T", "r + psi_t@r + r@phi_t.T"),), hypotheses=CHAIN_HYP, let=(("r", "loop('lemma-A1')"),), robot=False,
      given=("r : s <- s",),
      assume=(HYP["lemma-A1"],),
      operator_form=(("psi@M@phi.T", "r + psi_t@r + r@phi_t.T"),), operator_let=()),
    IdentityRecord(id="I-a.45-gen", source=P1, where="Part I Lemma A.1 (a.45) in its stated generality",
      printed="for any causal psi with the semigroup property: psi M phi^T = r + psi~ r + r phi~^T",
      checks=(("chi@M@phi.T", "r + chi_t@r + r@phi_t.T"),), hypotheses="chi(k+1,k) free 6 x 6 blocks; M any block diagonal",
      let=(("r", "loop('lemma-A1-chi')"),), robot=False,
      given=("r : s <- s",),
      assume=(HYP["lemma-A1-chi"],),
      operator_form=(("chi@M@phi.T", "r + chi_t@r + r@phi_t.T"),), operator_let=()),
    IdentityRecord(id="I-a.45-proof", source=P1, where="Part I, proof of Lemma A.1",
      printed="r(k) = sum_{j=1..k} phi(k,j) M(j) psi^T(k,j) obeys (a.44)",
      checks=(("loop('lemma-A1-chi')", f"diagonal('{S('j', '1', 'k', RSUM_PRINTED.format(left='chi'))}')"),), hypotheses="psi a general causal semigroup (chi)",
      misprint=True, nmin=2, misprint_kind=MisprintKind.PAPER,
      evidence="phi and psi are swapped as whole factors (`\\phi(k, j) M(j) \\psi^T(k, j)`), not a lost mark; the "
               "statement it proves, (a.44)-(a.45), has psi on the left",
      correction="r(k) = sum_{j=1..k} psi(k,j) M(j) phi^T(k,j).  (For the psi of (4.7) the printed sum "
                 "also holds, because then r = P is symmetric and the printed sum is its transpose.)",
      corrected=(("loop('lemma-A1-chi')", f"diagonal('{S('j', '1', 'k', RSUM.format(left='chi'))}')"),
                 ("loop('lemma-A1')", f"diagonal('{S('j', '1', 'k', RSUM_PRINTED.format(left='psi'))}')")), robot=False),
    IdentityRecord(id="I-corA.1", source=P1, where="Part I Corollary A.1", printed="Lemma A.1 holds for psi = phi: phi M phi^T = r + phi~ r + r phi~^T",
      checks=(("phi@M@phi.T", "r + phi_t@r + r@phi_t.T"),), hypotheses="r(k+1) = phi(k+1,k) r(k) phi^T(k+1,k) + M(k+1)",
      let=(("r", "composite_inertias(M)"),), robot=False,
      given=("r : s <- s",),
      assume=(HYP["corollary-A1"],),
      operator_form=(("phi@M@phi.T", "r + phi_t@r + r@phi_t.T"),), operator_let=()),
    IdentityRecord(id="I-a.46", source=P1, where="Part I (a.46)", printed="psi M phi^T = P + psi~ P + P phi~^T",
      checks=(("psi@M@phi.T", "P + psi_t@P + P@phi_t.T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.47", source=P1, where="Part I (a.47)", printed="psi M psi^T = P + psi~ P + P psi~^T",
      checks=(("psi@M@psi.T", "P + psi_t@P + P@psi_t.T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.47-proof", source=P1, where="Part I, proof of (a.47); framework (A.1)",
      printed="P(k+1) = psi(k+1,k) P(k) psi^T(k+1,k) + M(k+1)", checks=(("riccati().P", "M + Epsi@P@Epsi.T"),), hypotheses=CHAIN_HYP, robot=False,
      operator_form=(("M", "P - Epsi@P@Epsi.T"),),
      note="operator form: M = P - E_psi P E_psi^T, whose diagonal is the recursion (E X E^T block diagonal)"),
    IdentityRecord(id="I-a.48", source=P1, where="Part I Identity A.6 (a.48)",
      printed="phi M phi^T = P + phi~ P + P phi~^T + phi~ P H^T D^-1 H P phi~^T",
      checks=(("phi@M@phi.T", "P + phi_t@P + P@phi_t.T + phi_t@P@H.T@Dinv@H@P@phi_t.T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.49", source=P1, where="Part I, proof of (a.48): (a.49) and phi Theta phi^T",
      printed="phi pi phi^T = P + phi~ P + P phi~^T with pi = M - Theta; phi Theta phi^T = phi~ P H^T D^-1 H P phi~^T",
      checks=(("phi@(M - Theta)@phi.T", "P + phi_t@P + P@phi_t.T"),
       ("phi@Theta@phi.T", "phi_t@P@H.T@Dinv@H@P@phi_t.T")), hypotheses=CHAIN_HYP,
      let=(("Theta", "Ephi@P@H.T@Dinv@H@P@Ephi.T"),)),
    IdentityRecord(id="I-a.50", source=P1, where="Part I Identity A.7 (a.50)",
      printed="(I - H Psi L)^T D^-1 H psi M phi^T = (I - H Psi L)^T D^-1 H psi~ P + L^T Psi^T (I - G H)^T + G^T",
      checks=((f"{IHPsiL}.T@Dinv@H@psi@M@phi.T", f"{IHPsiL}.T@Dinv@H@psi_t@P + L.T@Psi.T@(I - G@H).T + G.T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-a.50-proof", source=P1, where="Part I, proof of (a.50), second line",
      printed="(I - H Psi L)^T D^-1 H (psi M phi^T) = (I - H Psi L)^T D^-1 H (P + psi~ P + P phi^T)  from (a.45)",
      checks=((f"{IHPsiL}.T@Dinv@H@psi@M@phi.T", f"{IHPsiL}.T@Dinv@H@(P + psi_t@P + P@phi.T)"),), hypotheses=CHAIN_HYP,
      misprint=True, misprint_kind=MisprintKind.OCR,
      evidence="a dropped tilde: the proof's next line prints `HP\\tilde{\\phi}^T` for the same term, and the statement "
               "it quotes, (a.45), has r phi~^T; the OCR drops small marks (primes, dots) elsewhere",
      correction="... H (P + psi~ P + P phi~^T)  (phi~^T, as the next line uses)",
      corrected=((f"{IHPsiL}.T@Dinv@H@psi@M@phi.T", f"{IHPsiL}.T@Dinv@H@(P + psi_t@P + P@phi_t.T)"),)),
    IdentityRecord(id="I-a.51", source=P1, where="Part I (a.51)",
      printed="(I - H Psi L)^T D^-1 H P + (I - H Psi L)^T D^-1 H P phi~^T = L^T Psi^T (I - G H)^T + G^T",
      checks=((f"{IHPsiL}.T@Dinv@H@P + {IHPsiL}.T@Dinv@H@P@phi_t.T", "L.T@Psi.T@(I - G@H).T + G.T"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-F4.1-proof", source=P1, where="Part I, proof of Fact 4.1",
      printed="I + H phi~ G = I + H Phi L and (I + H phi~ G) D (I + H phi~ G)^T = H phi M phi^T H^T",
      checks=(("I + H@phi_t@G", IHPhiL), ("(I + H@phi_t@G)@D@(I + H@phi_t@G).T", "Mcal")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="I-F4.2-proof", source=P1, where="Part I, proof of Fact 4.2",
      printed="(I + H Phi L)(I - H Psi L) = I + H (Phi - Psi - Psi L H Phi) L, and Phi - Psi - Psi L H Phi = 0 by (a.16)",
      checks=((f"{IHPhiL}@{IHPsiL}", "I + H@(Phi - Psi - Psi@L@H@Phi)@L"), ("Phi - Psi - Psi@L@H@Phi", "0*Phi")), hypotheses=CHAIN_HYP),
    # ------------------------------------------------------------------ Part II
    IdentityRecord(id="II-3.5a", source=P2, where="Part II (3.5a)",
      printed="[[M, J^T], [J, -A M^-1(C) A^T]]^-1 = [[M^-1 - M^-1 J^T Om^-1 J M^-1, M^-1 J^T Om^-1], [Om^-1 J M^-1, -Om^-1]]",
      checks=(("Kkt@Inv", "I2"), ("Inv@Kkt", "I2")),
      hypotheses="Omega = J M^-1 J^T + A M^-1(C) A^T (3.1) invertible; M invertible", theory="closed",
      let=(("Kkt", "blk2(M, J.T, J, -K)"),
           ("Inv", "blk2(Minv - Minv@J.T@Ominv@J@Minv, Minv@J.T@Ominv, Ominv@J@Minv, -Ominv)"),
           ("I2", "blk2(M@Minv, 0*J.T, 0*J, Om@Ominv)"))),
    IdentityRecord(id="II-3.5b", source=P2, where="Part II (3.5b)",
      printed="(3.5a) = diag(M^-1, Om^-1) [[M - J^T Om^-1 J, J^T], [J, -Om]] diag(M^-1, Om^-1)",
      checks=(("blk2(Minv, 0*J.T, 0*J, Ominv)@blk2(M - J.T@Ominv@J, J.T, J, -Om)@blk2(Minv, 0*J.T, 0*J, Ominv)",
        "blk2(Minv - Minv@J.T@Ominv@J@Minv, Minv@J.T@Ominv, Ominv@J@Minv, -Ominv)"),),
      hypotheses="M, Omega invertible", theory="closed"),
    IdentityRecord(id="II-5.2", source=P2, where="Part II (5.2a)-(5.2b), l arms",
      printed="M = (I + H Phi L) D (I + H Phi L)^T for the aggregate of l arms (every operator block diagonal over the arms)",
      checks=((f"{IHPhiL}@D@{IHPhiL}.T", "Mcal"),), hypotheses="l arms, each a serial chain; H = diag(H_i), phi = diag(phi_i), ...",
      instance="arms", robot=False,
      note="the relations hold arm by arm, hence for the block-diagonal aggregate: the proof is the one of Fact 4.1"),
    IdentityRecord(id="II-5.3", source=P2, where="Part II (5.3), l arms", printed="(I + H Phi L)^-1 = I - H Psi L for the aggregate of l arms",
      checks=((f"{IHPhiL}@{IHPsiL}", "I"), (f"{IHPsiL}@{IHPhiL}", "I")), hypotheses="as II-5.2", instance="arms", robot=False),
    IdentityRecord(id="II-5.4", source=P2, where="Part II (5.4), l arms", printed="M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) for the aggregate of l arms",
      checks=((f"Mcal@{MINV41}", "I"), (f"{MINV41}@Mcal", "I")), hypotheses="as II-5.2", instance="arms", robot=False),
    IdentityRecord(id="II-6.3", source=P2, where="Part II (6.2)-(6.3)",
      printed="Delta thdd = -M^-1 J^T f(0) = -(I - H Psi L)^T D^-1 H psi B f(0)",
      checks=((f"Mcal@(-{IHPsiL}.T@Dinv@H@psi@B@f0)", "-J.T@f0"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.4", source=P2, where="Part II (6.4a)-(6.4f)",
      printed="z(1) = phi(1,0) f(0); for k = 2..N: z(k) = psi(k,k-1) z(k-1), nu(k) = D^-1(k) H(k) z(k); "
      "lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k); Delta thdd = nu(k) - L^T(k) lambda(k+1)  computes (6.3)",
      checks=(("Mcal@anticausal_smoother(loop('loop-6.4', 'loop-6.4-nu-printed'))[0]", "-J.T@f0"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="an algorithm defect, not a glyph: the loop that computes nu runs k = 2..N, so nu(1) is never "
                "computed, and the result has the opposite sign of (6.3), which the text says it implements",
      correction="nu(k) = D^-1(k) H(k) z(k) for k = 1..N (nu(1) is needed), and the sweep gives "
                 "-Delta thdd: Delta thdd(k) = -[nu(k) - L^T(k) lambda(k+1)] (or start from z(1) = -phi(1,0) f(0))",
      corrected=(("Mcal@correction(f0)", "-J.T@f0"),), robot=False,
      given=("z : s <- 1", "lam : s <- 1"),
      assume=(HYP["loop-6.4"],
              HYP["loop-6.4-lambda"]),
      operator_corrected=(("Mcal@(K.T@lam - Dinv@H@z)", "-J.T@f0"),)),
    IdentityRecord(id="II-6.5a", source=P2, where="Part II (6.5a)", printed="Delta thdd = -(I - H Psi L)^T D^-1 psi B f(0)",
      checks=((f"Mcal@(-{IHPsiL}.T@Dinv@psi@B@f0)", "-J.T@f0"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="a whole factor is missing (H), in (6.5a) and again in (6.11g); (6.3), printed just before, has it",
      correction="Delta thdd = -(I - H Psi L)^T D^-1 H psi B f(0)  (H missing; D^-1 psi does not conform)",
      corrected=((f"Mcal@(-{IHPsiL}.T@Dinv@H@psi@B@f0)", "-J.T@f0"),)),
    IdentityRecord(id="II-6.11g", source=P2, where="Part II (6.11g)", printed="Delta thdd = (I - H Psi L)^T D^-1 psi B f(0)",
      checks=((f"Mcal@({IHPsiL}.T@Dinv@psi@B@f0)", "-J.T@f0"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="the factor H and the sign are missing, as in (6.5a); (6.3) has both",
      correction="Delta thdd = -(I - H Psi L)^T D^-1 H psi B f(0)  (H and the minus sign missing)",
      corrected=((f"Mcal@(-{IHPsiL}.T@Dinv@H@psi@B@f0)", "-J.T@f0"),)),
    IdentityRecord(id="II-6.7", source=P2, where="Part II (6.6)-(6.7); framework (3.10)",
      printed="J M^-1 J^T = B^T phi^T H^T (I - H Psi L)^T D^-1 (I - H Psi L) H phi B = B^T psi^T H^T D^-1 H psi B",
      checks=((f"J@{MINV41}@J.T", "B.T@psi.T@H.T@Dinv@H@psi@B"),), hypotheses=CHAIN_HYP + "; M^-1 by Theorem 4.1"),
    IdentityRecord(id="II-6.9", source=P2, where="Part II (6.9a)-(6.9b)",
      printed="Lambda(0) = phi^T(1,0) Lambda(1) phi(1,0), Lambda(1) = sum_k psi^T(k,1) H^T(k) D^-1(k) H^T(k) psi(k,1)",
      checks=((f"J@{MINV41}@J.T", f"phi_(1,0).T@single('{S('k', '1', 'N', XU_PRINTED)}')@phi_(1,0)"),), hypotheses=CHAIN_HYP, misprint=True,
      misprint_kind=MisprintKind.PAPER,
      evidence="a superscript added, not lost: `H^T(k) D^{-1}(k) H^T(k)`; the recursion (6.10b) that computes the same "
               "sum prints H^T D^-1 H",
      correction="Lambda(1) = sum_k psi^T(k,1) H^T(k) D^-1(k) H(k) psi(k,1)",
      corrected=((f"J@{MINV41}@J.T", f"phi_(1,0).T@single('{LAMBDA1}')@phi_(1,0)"),), robot=False),
    IdentityRecord(id="II-6.10", source=P2, where="Part II (6.10a)-(6.10c)",
      printed="Lambda(N+1) = 0; Lambda(k) = psi^T(k+1,k) Lambda(k+1) psi(k+1,k) + H^T(k) D^-1 H(k) gives Lambda(1) of (6.9b)",
      checks=(("block(upsilon(),1,1)", f"single('{LAMBDA1}')"),), hypotheses=CHAIN_HYP, robot=False),
    IdentityRecord(id="II-6.12", source=P2, where="Part II (6.12)", printed="J M^-1 = B^T psi^T H^T D^-1 (I - H Psi L)",
      checks=(("J", f"B.T@psi.T@H.T@Dinv@{IHPsiL}@Mcal"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.13", source=P2, where="Part II (3.6b) with (6.12) => (6.13)",
      printed="f(0) = Om^-1 J M^-1 T' - Om^-1 a'(C) = Om^-1 {B^T psi^T H^T D^-1 (I - H Psi L) T' - a'(C)}",
      checks=((f"Ominv@J@{MINV41}@Tp - Ominv@apC", f"Ominv@(B.T@psi.T@H.T@Dinv@{IHPsiL}@Tp - apC)"),),
      hypotheses=CHAIN_HYP + "; M^-1 by Theorem 4.1; Om^-1 any symmetric 6 x 6"),
    IdentityRecord(id="II-6.15", source=P2, where="Part II (6.15)", printed="M^-1 T' = (I - H Psi L)^T D^-1 (I - H psi S L) T'",
      checks=((f"Mcal@{IHPsiL}.T@Dinv@(I - H@psi@S@L)@Tp", "Tp"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.16", source=P2, where="Part II (6.16)", printed="M^-1 J^T f(0) = (I - H Psi L)^T D^-1 H psi B f(0)",
      checks=((f"Mcal@{IHPsiL}.T@Dinv@H@psi@B@f0", "J.T@f0"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.17", source=P2, where="Part II (6.14)-(6.17)",
      printed="thdd = M^-1 [T' - J^T f(0)] = (I - H Psi L)^T D^-1 {T' - H psi (S L T' + B f(0))}",
      checks=((f"Mcal@{IHPsiL}.T@Dinv@(Tp - H@psi@(S@L@Tp + B@f0))", "Tp - J.T@f0"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.18e", source=P2, where="Part II (6.18e)", printed="thdd = (I - H Psi L) D^-1 {T' - H psi (S L T' + B f(0))}",
      checks=((f"Mcal@{IHPsiL}@Dinv@(Tp - H@psi@(S@L@Tp + B@f0))", "Tp - J.T@f0"),), hypotheses=CHAIN_HYP, misprint=True,
      nmin=2, misprint_kind=MisprintKind.PAPER,
      evidence="(6.18e) restates (6.17) in the algorithm summary; the superscript T is absent there while the OCR "
               "kept every ^T of (6.17), (6.18b) and (6.18d) on the same page", correction="thdd = (I - H Psi L)^T D^-1 {...}  (transpose missing; cf. (6.17))",
      corrected=((f"Mcal@{IHPsiL}.T@Dinv@(Tp - H@psi@(S@L@Tp + B@f0))", "Tp - J.T@f0"),)),
    IdentityRecord(id="II-6.20", source=P2, where="Part II (6.19b) => (6.20)",
      printed="thdd_2 = M^-1 J^T Om^-1 a'(C) = (I - H Psi L)^T D^-1 H psi B Om^-1 a'(C)",
      checks=((f"Mcal@{IHPsiL}.T@Dinv@H@psi@B@Ominv@apC", "J.T@Ominv@apC"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="II-6.21", source=P2, where="Part II (6.19a), (6.21)",
      printed="(M^-1 - M^-1 J^T Om^-1 J M^-1) T' = (I - H Psi L)^T {D^-1 - D^-1 H psi B Om^-1 B^T psi^T H^T D^-1} (I - H Psi L) T'",
      checks=((f"Mcal@{IHPsiL}.T@(Dinv - Dinv@H@psi@B@Ominv@B.T@psi.T@H.T@Dinv)@{IHPsiL}@Tp",
        f"Tp - J.T@Ominv@B.T@psi.T@H.T@Dinv@{IHPsiL}@Tp"),),
      hypotheses=CHAIN_HYP + "; checked as M x (6.21) = T' - J^T Om^-1 (J M^-1) T' with J M^-1 from (6.12) "
      "(proved separately, II-6.12); Om^-1 any symmetric 6 x 6 matrix"),
    IdentityRecord(id="II-b.4", source=P2, where="Part II (b.1f), (b.2), (b.3) => (b.4b)-(b.4c); same G1 in (b.9a)",
      printed="Omega f(0) = J M^-1 T + H^T(0) dW(0) + G1, G1 = A M^-1(C) b(C) + J thd + dH^T(0) W(0) - a(C) - J M^-1 C",
      checks=(("am - ap - H0.T@Wd - H0d.T@W", "OmDef@f - (J@Minv@T + H0.T@Wd + G1p)"),),
      hypotheses="(b.1a)-(b.1f)", theory="grasp", misprint=True, misprint_kind=MisprintKind.OCR,
      evidence="a dropped dot: the derivation's source terms print `\\dot{J}\\dot{\\theta}` ((b.1d) and (b.2)), and G1 "
               "collects exactly that bias; (b.4c) and (b.9a) print `J\\dot{\\theta}`, the dot over J lost as dots "
               "are elsewhere ((b.14) prints thd for thdd)",
      let=(("ap", "J@Minv@(T - J.T@f - Cb) + Jdqd"), ("am", "A@Mcinv@A.T@f - A@Mcinv@bC + aC"),
           ("OmDef", "J@Minv@J.T + A@Mcinv@A.T"),
           ("G1p", "A@Mcinv@bC + J@qd + H0d.T@W - aC - J@Minv@Cb"),
           ("G1c", "A@Mcinv@bC + Jdqd + H0d.T@W - aC - J@Minv@Cb")),
      correction="G1 = A M^-1(C) b(C) + dJ thd + dH^T(0) W(0) - a(C) - J M^-1 C  (dJ thd, the bias of (b.1d))",
      corrected=(("am - ap - H0.T@Wd - H0d.T@W", "OmDef@f - (J@Minv@T + H0.T@Wd + G1c)"),)),
    IdentityRecord(id="II-b.4a", source=P2, where="Part II (b.4a)", printed="Omega = J M^-1 J + A M^-1(C) A^T",
      checks=(("J@Minv@J + A@Mcinv@A.T", "J@Minv@J.T + A@Mcinv@A.T"),), hypotheses="J is 6l x n", theory="grasp",
      misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="the same Omega is printed correctly, `JM^{-1}J^T + AM^{-1}(C)A^T`, in (b.9b) and (3.1); (b.4a) is the "
               "authors' first statement of it (a lost ^T could also be the scan; the display is otherwise clean)",
      correction="Omega = J M^-1 J^T + A M^-1(C) A^T",
      corrected=(("J@Minv@J.T + A@Mcinv@A.T", "J@Minv@J.T + A@Mcinv@A.T"),)),
    IdentityRecord(id="II-b.7", source=P2, where="Part II (b.6a)-(b.6b) => (b.7)",
      printed="f(0) = Pi (J M^-1 T + G1), Pi = Om^-1 - Om^-1 H^T(0) [H(0) Om^-1 H^T(0)]^-1 H(0) Om^-1; and H(0) f(0) = 0",
      checks=(("fb6", "Pi@(J@Minv@T + G1)"), ("H0@fb6", "0*H0@fb6")),
      hypotheses="Omega and H(0) Omega^-1 H^T(0) invertible", theory="grasp",
      let=(("Wd6", "-Xinv@(H0@Ominv@J@Minv@T + H0@Ominv@G1)"), ("fb6", "Ominv@(J@Minv@T + H0.T@Wd6 + G1)"),
           ("Pi", "Ominv - Ominv@H0.T@Xinv@H0@Ominv"))),
    IdentityRecord(id="II-b.8", source=P2, where="Part II (b.6c) => (b.8)",
      printed="thdd = (M^-1 - M^-1 J^T Pi J M^-1) T - M^-1 J^T Pi G1 - M^-1 C",
      checks=(("M@thdd8", "T - Cb - J.T@Pi@(J@Minv@T + G1)"),), hypotheses="as (b.7)", theory="grasp",
      let=(("Pi", "Ominv - Ominv@H0.T@Xinv@H0@Ominv"),
           ("thdd8", "(Minv - Minv@J.T@Pi@J@Minv)@T - Minv@J.T@Pi@G1 - Minv@Cb"))),
    IdentityRecord(id="II-b.10", source=P2, where="Part II, text after (b.9): from (b.3), (b.1d), (b.1f)",
      printed="H^T(0) dW(0) + J thdd = A M^-1(C) A^T f(0) - G1 + J M^-1 C",
      checks=(("am - (J@thdd + Jdqd) - H0.T@Wd - H0d.T@W", "A@Mcinv@A.T@f - G1c + J@Minv@Cb - (H0.T@Wd + J@thdd)"),),
      hypotheses="(b.1d) alpha+(0) = J thdd + dJ thd, (b.1f); G1 as corrected in II-b.4", theory="grasp", misprint=True,
      misprint_kind=MisprintKind.PAPER,
      evidence="a sign error in the derivation: the preceding display has `- J\\ddot{\\theta} - \\dot{J}\\dot{\\theta}` and "
               "G1 already holds `- JM^{-1}C`; the wrong `+ JM^{-1}C` is then carried consistently into (b.10), (b.11)",
      let=(("am", "A@Mcinv@A.T@f - A@Mcinv@bC + aC"), ("G1c", "A@Mcinv@bC + Jdqd + H0d.T@W - aC - J@Minv@Cb"),
           ("thdd", "Minv@T")),
      correction="H^T(0) dW(0) + J thdd = A M^-1(C) A^T f(0) - G1 - J M^-1 C  (G1 already holds -J M^-1 C)",
      corrected=(("am - (J@thdd + Jdqd) - H0.T@Wd - H0d.T@W", "A@Mcinv@A.T@f - G1c - J@Minv@Cb - (H0.T@Wd + J@thdd)"),)),
    IdentityRecord(id="II-b.11", source=P2, where="Part II (b.10)-(b.11)",
      printed="H(0) Om^-1 [A M^-1(C) A^T f(0) + J M^-1 C - G1] = H(0) Om^-1 A M^-1(C) A^T Pi J M^-1 T + G2, "
      "G2 = H(0) Om^-1 {(A M^-1(C) A^T Pi - I) G1 + J M^-1 C}, f(0) by (b.9d)",
      checks=(("H0@Ominv@(A@Mcinv@A.T@f9 + J@Minv@Cb - G1)", "H0@Ominv@A@Mcinv@A.T@Pi@J@Minv@T + G2p"),
       ("H0@Ominv@(A@Mcinv@A.T@f9 - J@Minv@Cb - G1)", "H0@Ominv@A@Mcinv@A.T@Pi@J@Minv@T + G2p")),
      hypotheses="(b.9c)-(b.9d)", theory="grasp", misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="consistent with the sign error of the line before (b.10) (II-b.10), which it inherits",
      let=(("Pi", "Ominv - Ominv@H0.T@Xinv@H0@Ominv"), ("f9", "Pi@(J@Minv@T + G1)"),
           ("G2p", "H0@Ominv@((A@Mcinv@A.T@Pi - I)@G1 + J@Minv@Cb)"),
           ("G2c", "H0@Ominv@((A@Mcinv@A.T@Pi - I)@G1 - J@Minv@Cb)")),
      note="the first check is the printed (b.10) step (internally consistent with the printed sign), the "
           "second the step with the corrected sign of II-b.10, which the printed G2 does not match",
      correction="G2 = H(0) Om^-1 {(A M^-1(C) A^T Pi - I) G1 - J M^-1 C}  (sign of J M^-1 C, following II-b.10)",
      corrected=(("H0@Ominv@(A@Mcinv@A.T@f9 - J@Minv@Cb - G1)", "H0@Ominv@A@Mcinv@A.T@Pi@J@Minv@T + G2c"),)),
    IdentityRecord(id="II-b.12", source=P2, where="Part II (b.12)-(b.13)",
      printed="M thdd + J^T Om^-1 H^T(0) dW(0) = (I - J^T Om^-1 J M^-1) T + G3, G3 = -J^T Om^-1 G1 - C",
      checks=(("M@thdd6 + J.T@Ominv@H0.T@Wd", "(I - J.T@Ominv@J@Minv)@T - J.T@Ominv@G1 - Cb"),),
      hypotheses="(b.6b)-(b.6c)", theory="grasp",
      let=(("f6", "Ominv@(J@Minv@T + H0.T@Wd + G1)"), ("thdd6", "Minv@(T - Cb - J.T@f6)"))),
    IdentityRecord(id="II-b.14", source=P2, where="Part II (b.14) solved by (b.9e)-(b.9f)",
      printed="[[H Om^-1 H^T, H Om^-1 J], [J^T Om^-1 H^T, M]] (dW(0), thd) = [H Om^-1 A M^-1(C) A^T Pi J M^-1; "
      "I - J^T Om^-1 J M^-1] T + (G2, G3)",
      checks=(("Kb@vcat(Wd9, qd)", "vcat(H0@Ominv@A@Mcinv@A.T@Pi@J@Minv@T + G2c, (I - J.T@Ominv@J@Minv)@T + G3)"),),
      hypotheses="(b.9); G2 with the sign of II-b.11; G1 = A Mc^-1 bC + Jdqd + H0d^T W - aC - J M^-1 Cb, a free symbol "
      "here (the identity holds for every G1)", theory="grasp", misprint=True, misprint_kind=MisprintKind.OCR,
      evidence="a dropped dot: the rows of (b.14) are (b.10) and (b.12), which print `J\\ddot{\\theta}` and "
               "`M\\ddot{\\theta}`, and the text below says (b.14) is solved by (b.9e), which gives thdd; (b.14) prints "
               "the unknown as `\\dot{\\theta}`",
      let=(("Pi", "Ominv - Ominv@H0.T@Xinv@H0@Ominv"),
           ("Kb", "blk2(H0@Ominv@H0.T, H0@Ominv@J, J.T@Ominv@H0.T, M)"),
           ("Wd9", "-Xinv@(H0@Ominv@J@Minv@T + H0@Ominv@G1)"),
           ("thdd9", "(Minv - Minv@J.T@Pi@J@Minv)@T - Minv@J.T@Pi@G1 - Minv@Cb"),
           ("G2c", "H0@Ominv@((A@Mcinv@A.T@Pi - I)@G1 - J@Minv@Cb)"),
           ("G3", "-J.T@Ominv@G1 - Cb")),
      correction="the unknowns are (dW(0), thdd), not (dW(0), thd)",
      corrected=(("Kb@vcat(Wd9, thdd9)", "vcat(H0@Ominv@A@Mcinv@A.T@Pi@J@Minv@T + G2c, (I - J.T@Ominv@J@Minv)@T + G3)"),)),
    # ------------------------------------------------------------------ framework paper
    IdentityRecord(id="FW-2.1", source=FW, where="framework (2.1), force sweep",
      printed="f(0) = 0; f(k) = phi(k+1,k) f(k-1) + M(k) alpha(k) + b(k)  (i.e. f = phi (M alpha + b))",
      checks=(("loop('loop-2.1-printed')", "phi@y"),), hypotheses="y = M alpha + b", misprint=True, nmin=2, misprint_kind=MisprintKind.PAPER,
      evidence="the index pair is wrong, not a glyph: `\\phi(k+1, k)f(k-1)` would map a force at O(k-1) with the "
               "transform between O(k) and O(k+1); the paper's own definition below says phi(k, k-1) maps O(k-1) to O(k)",
      correction="f(k) = phi(k,k-1) f(k-1) + M(k) alpha(k) + b(k)",
      corrected=(("composite_forces(y)", "phi@y"),), robot=False,
      given=("fp : s <- 1", "f : s <- 1"),
      assume=(HYP["loop-2.1-printed"],
              HYP["loop-2.1"]),
      operator_form=(("fp", "phi@y"),), operator_corrected=(("f", "phi@y"),)),
    IdentityRecord(id="FW-2.5", source=FW, where="framework (2.2) => (2.5); on a tree (2.8) => (2.11)",
      printed="V = E_phi^* V + H^* beta, alpha = E_phi^* alpha + H^* beta-dot + a, f = E_phi f + M alpha + b give "
      "V = phi^* H^* beta, alpha = phi^* (H^* beta-dot + a), f = phi (M alpha + b), T = H f = M beta-dot + C",
      checks=(("H@composite_forces(M@accelerations(thdd, a) + b)", "Mcal@thdd + C"),), hypotheses="serial chain (2.2) or tree (2.8)", robot=False,
      instance="tree", given=("V : s <- 1",) + R_VEC,
      assume=(HYP["loop-2.2-V"],
              HYP["loop-2.2-alpha"],
              HYP["loop-2.2-f"]),
      operator_form=(("V", "phi.T@H.T@thd"), ("alpha", "phi.T@(H.T@thdd + a)"), ("f", "phi@(M@alpha + b)"),
                     ("H@f", "Mcal@thdd + C"))),
    IdentityRecord(id="FW-2.4", source=FW, where="framework (2.2)-(2.4); on a tree (2.9)", printed="phi = (I - E_phi)^-1",
      checks=(("phi@(I - Ephi)", "I"), ("(I - Ephi)@phi", "I")), hypotheses=CHAIN_HYP, instance="tree"),
    IdentityRecord(id="FW-3.1", source=FW, where="framework (3.1)", printed="M = P - E_phi [P - P H^* (H P H^*)^-1 H P] E_phi^*",
      checks=(("M", "P - Ephi@(P - P@H.T@Dinv@H@P)@Ephi.T"),), hypotheses=CHAIN_HYP,
      note="this is the definition of P used by the proof layer (M is eliminated in favour of P), "
           "so symbolically it is a consistency check; numerically it checks the builder's P"),
    IdentityRecord(id="FW-3.2", source=FW, where="framework (3.2)-(3.3)", printed="E_psi = E_phi tau-bar; psi = (I - E_psi)^-1; phi K = Phi L",
      checks=(("Epsi", "Ephi@taub"), ("psi@(I - Epsi)", "I"), ("(I - Epsi)@psi", "I"), ("phi@K", "Phi@L")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-L1", source=FW, where="framework Lemma 1 (3.4)", printed="M = [I + H phi K] D [I + H phi K]^*",
      checks=(("(I + H@phi@K)@D@(I + H@phi@K).T", "Mcal"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-L2", source=FW, where="framework Lemma 2 (3.5)", printed="[I + H phi K]^-1 = [I - H psi K]",
      checks=(("(I + H@phi@K)@(I - H@psi@K)", "I"), ("(I - H@psi@K)@(I + H@phi@K)", "I")), hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-L3", source=FW, where="framework Lemma 3 (3.6)", printed="M^-1 = [I - H psi K]^* D^-1 [I - H psi K]",
      checks=(("Mcal@(I - H@psi@K).T@Dinv@(I - H@psi@K)", "I"), ("(I - H@psi@K).T@Dinv@(I - H@psi@K)@Mcal", "I")),
      hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-L4", source=FW, where="framework Lemma 4 (3.9)", printed="(I - H psi K) H phi = H psi",
      checks=(("(I - H@psi@K)@H@phi", "H@psi"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-3.10", source=FW, where="framework (3.10)",
      printed="Lambda = {[I - H psi K] H phi B}^* D^-1 {[I - H psi K] H phi B} = B^* psi^* H^* D^-1 H psi B",
      checks=(("((I - H@psi@K)@H@phi@B).T@Dinv@((I - H@psi@K)@H@phi@B)", "B.T@psi.T@H.T@Dinv@H@psi@B"),), hypotheses=CHAIN_HYP),
    IdentityRecord(id="FW-3.12", source=FW, where="framework (3.12)", printed="beta_delta = -M^-1 J^* A^* f~ = -[I - H psi K]^* D^-1 H psi B A^* f~",
      checks=(("Mcal@(-(I - H@psi@K).T@Dinv@H@psi@B@f0)", "-J.T@f0"),), hypotheses=CHAIN_HYP + "; A^* f~ written as one 6-vector"),
    IdentityRecord(id="FW-2.17", source=FW, where="framework (2.17): eliminating beta_P, beta_S",
      printed="rows 1-2 of (2.17) solved for beta_P, beta_S turn row 3, A_P J_P beta_P + A_S J_S beta_S, into "
      "-[A_P Lambda_P A_P^* + A_S Lambda_S A_S^*] f~ + A_P J_P M_P^-1 T_P + A_S J_S M_S^-1 T_S",
      checks=(("AP@JP@bP + AS@JS@bS", "-(AP@JP@MPinv@JP.T@AP.T + AS@JS@MSinv@JS.T@AS.T)@ft + AP@JP@MPinv@TP + AS@JS@MSinv@TS"),),
      hypotheses="M_P, M_S invertible; Lambda = J M^-1 J^*", theory="closure",
      let=(("bP", "MPinv@(TP - JP.T@AP.T@ft)"), ("bS", "MSinv@(TS - JS.T@AS.T@ft)"))),
    IdentityRecord(id="FW-3.11", source=FW, where="framework (3.11), Step (D)",
      printed="f~ = [A_P Lambda_P A_P^* + A_S Lambda_S A_S^*]^-1 [(A_P alpha~_P^f + A_S alpha~_S^f) - U] solves (2.17)",
      checks=(("AP@JP@MPinv@(TP - JP.T@AP.T@fsol) + AS@JS@MSinv@(TS - JS.T@AS.T@fsol)", "U"),),
      hypotheses="alpha~^f = J M^-1 T (steps (A)-(B)); the bracket invertible (Winv)", theory="closure",
      let=(("fsol", "Winv@(AP@JP@MPinv@TP + AS@JS@MSinv@TS - U)"),)),
    IdentityRecord(id="FW-3.11-alt", source=FW, where="framework Step (D), the alternative form with (A_P Lambda_P A_P^*)^-1",
      printed="beta_S = [M_S + J_S^* A_S^* X^-1 A_S J_S]^-1 [T_S - J_S^* A_S^* X^-1 (A_P alpha~_P^f - U)], "
      "f~ = X^-1 [(A_P alpha~_P^f + A_S J_S beta_S) - U], X = A_P Lambda_P A_P^*, solve (2.17)",
      checks=(("MS@bS + JS.T@AS.T@fsol", "TS"),
       ("AP@JP@MPinv@(TP - JP.T@AP.T@fsol) + AS@JS@bS", "U")),
      hypotheses="A_P Lambda_P A_P^* (XPinv) and M_S + J_S^* A_S^* X^-1 A_S J_S (Qinv) invertible", theory="closure",
      let=(("aP", "JP@MPinv@TP"), ("bS", "Qinv@(TS - JS.T@AS.T@XPinv@(AP@aP - U))"),
           ("fsol", "XPinv@(AP@aP + AS@JS@bS - U)"))),
    IdentityRecord(id="FW-3.13", source=FW, where="framework (3.13)",
      printed="beta-dot = [I - H psi K]^* D^-1/2 [I - b (A Lambda A^*)^-1 b^*] D^-1/2 [I - H psi K] T, b = H psi B A^*",
      checks=(("Mcal@(I - H@psi@K).T@Dh@(I - bb@Xinv@bb.T)@Dh@(I - H@psi@K)@T",
        "T - J.T@At@Xinv@At.T@J@Minv@T"),),
      hypotheses=CHAIN_HYP + "; no closure bias (U = 0); Xinv = (A Lambda A^*)^-1", misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="the definition `b \\triangleq H\\psi B A^*` is stated in words next to the formula; with it the "
                "middle factor is not D^{1/2}-scaled, so the error is in the definition, not in a glyph",
      symbolic_refutation=False,
      let=(("Minv", "(I - H@psi@K).T@Dinv@(I - H@psi@K)"), ("bb", "H@psi@B@At")),
      correction="b = D^-1/2 H psi B A^*, i.e. beta-dot = [I - H psi K]^* {D^-1 - D^-1 H psi B A^* "
                 "(A Lambda A^*)^-1 A B^* psi^* H^* D^-1} [I - H psi K] T",
      corrected=(("Mcal@(I - H@psi@K).T@(Dinv - Dinv@H@psi@B@At@Xinv@At.T@B.T@psi.T@H.T@Dinv)@(I - H@psi@K)@T",
                  "T - J.T@At@Xinv@At.T@J@Minv@T"),)),
    IdentityRecord(id="FW-A.2", source=FW, where="framework Appendix A, text before (A.2)",
      printed="alpha^f = psi^* D^-1 [I - H psi K] T  (the intermediate of the forward-dynamics sweep)",
      checks=(("phi.T@H.T@Minv@T", "psi.T@Dinv@(I - H@psi@K)@T"),), hypotheses=CHAIN_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      evidence="a whole factor H^* is missing; STEP (B) of the same paper prints `\\psi^* H^* D^{-1}[I - H\\psi K]`",
      let=(("Minv", "(I - H@psi@K).T@Dinv@(I - H@psi@K)"),),
      correction="alpha^f = psi^* H^* D^-1 [I - H psi K] T  (H^* missing; cf. STEP (B))",
      corrected=(("phi.T@H.T@Minv@T", "psi.T@H.T@Dinv@(I - H@psi@K)@T"),)),
    IdentityRecord(id="FW-A.2-rec", source=FW, where="framework (A.2), serial chain",
      printed="z(k) = psi(k,k-1) z(k-1) + K(k,k-1) T(k-1); eps(k) = T(k) - H(k) z(k); nu = D^-1 eps; "
      "alpha(k) = psi^*(k+1,k) alpha(k+1) + H^* nu(k); beta(k) = nu(k) - K^*(k+1) alpha(k+1)  computes M^-1 T",
      checks=(("Mcal@anticausal_smoother(causal_filter(T))[0]", "T"),), hypotheses=CHAIN_HYP + "; K(k+1,k) = phi(k+1,k) G(k) = L(k)", robot=False,
      given=R_STATE, assume=(FILTER_T, HYP["loop-A.2-alpha"]),
      operator_form=(("Mcal@(Dinv@(T - H@zf) - K.T@lam)", "T"),)),
    IdentityRecord(id="FW-A.6", source=FW, where="framework (A.6), serial chain",
      printed="x = -B A^* f~; z(k) = psi(k,k-1) z(k-1) + K(k,k-1) x(k-1); eps(k) = -H(k) z(k); nu = D^-1 eps; then the "
      "smoother of (A.2)  computes beta-delta = -[I - H psi K]^* D^-1 H psi B A^* f~ (3.12)",
      checks=(("Mcal@anticausal_smoother(-Dinv@H@loop('loop-A.6-printed'))[0]", "-J.T@f0"),), hypotheses=CHAIN_HYP + "; A^* f~ written as one 6-vector f(0)",
      misprint=True, nmin=2, misprint_kind=MisprintKind.PAPER,
      evidence="K(k,k-1) takes joint inputs and x is spatial, so the printed product cannot be formed at all; "
               "and the sign of eps is reversed relative to (3.12), which (A.6) claims to compute",
      correction="z(k) = psi(k,k-1) z(k-1) + x(k) (x is spatial and enters at its own index; K(k,k-1) x(k-1) does "
                 "not conform) and eps(k) = +H(k) z(k) (with x = -B A^* f~ the printed minus sign is one too many); "
                 "equivalently run (A.2) on T = H phi x",
      corrected=(("Mcal@correction(f0)", "-J.T@f0"),), robot=False,
      given=R_STATE, assume=(HYP["loop-A.6"],
                             HYP["loop-A.6-alpha"]),
      operator_corrected=(("Mcal@(Dinv@H@zf - K.T@lam)", "-J.T@f0"),)),
    IdentityRecord(id="FW-A.3", source=FW, where="framework (A.3) with the Upsilon recursion of (A.5)",
      printed="H^* D^-1 H = Upsilon - E_psi^* Upsilon E_psi", checks=(("H.T@Dinv@H", "U - Epsi.T@U@Epsi"),), hypotheses=CHAIN_HYP,
      let=(("U", "upsilon()"),), robot=False),
    IdentityRecord(id="FW-L5", source=FW, where="framework Lemma 5 (A.4)", printed="Omega = psi^* H^* D^-1 H psi = Upsilon + psi~^* Upsilon + Upsilon psi~",
      checks=(("psi.T@H.T@Dinv@H@psi", "U + psi_t.T@U + U@psi_t"),), hypotheses=CHAIN_HYP, robot=False,
      operator_form=(("psi.T@H.T@Dinv@H@psi", "U + psi_t.T@U + U@psi_t"),),
      note="needs the chain-only relation `upsilon` ((A.3) with block-diagonal Upsilon); fails on branching trees"),
    # ------------------------------------------------------------------ framework Section 4: flexible links
    IdentityRecord(id="FW-4.BC", source=FW, where="framework Section 4, after (4.3): B_k C_k = phi(k, k-1) => B C = E_phi",
      printed="B_k C_k = phi(k, k-1) => BC = E_phi", checks=(("Bf@Cf", "Ephi"),), hypotheses=FLEX_HYP, robot=False,
      note="proved block by block from B_k C_k = phi(k, k-1) (B block diagonal, C_k at (k, k-1)); it is the "
           "relation flex-BC of the all-N algebra, which the other Section 4 records use"),
    IdentityRecord(id="FW-4.BCphi", source=FW, where="framework Section 4, after (4.3): BC = E_phi => BC phi = phi - I",
      printed="BC phi = phi - I", checks=(("Bf@Cf@phi", "phi - I"),), hypotheses=FLEX_HYP, robot=False),
    IdentityRecord(id="FW-4.BI", source=FW, where="framework Section 4, after (4.3): BC phi = phi - I => B[I + C phi B] = phi B",
      printed="B [I + C phi B] = phi B", checks=(("Bf@(I + Cf@phi@Bf)", "phi@Bf"),), hypotheses=FLEX_HYP, robot=False),
    IdentityRecord(id="FW-4.1", source=FW, where="framework (4.1)-(4.2): the velocity sweep of a chain of flexible links",
      printed="V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k) + C^*_{k+1} h^*_k u_{k+1}, thus V = phi^* [H^* beta + C^* h^* u]",
      checks=(("loop('loop-FW-4.1-printed')", "phi.T@(H.T@thd + Cf.T@h.T@u)"),), hypotheses=FLEX_HYP, misprint=True,
      misprint_kind=MisprintKind.PAPER,
      evidence="an index, not a glyph: the first line of (4.1) adds phi^*(Q_{k+1}(1), O_k) u_{k+1}(1), a node of link "
               "k+1, and the term itself has C_{k+1}^* and u_{k+1}, so h_k^* (a map of link k's dofs) conforms with "
               "neither unless n_k = n_{k+1}; (4.2) makes the same k-for-k+1 slip (`C_{k+1}^* ... \\in "
               "\\mathcal{R}^{6 \\times 6n_k}`, for 6 n_{k+1}), and the operator form printed right below, "
               "C^* h^* u with h block diagonal, pairs h_{k+1} with u_{k+1}",
      correction="V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k) + C^*_{k+1} h^*_{k+1} u_{k+1}; the operator form "
                 "V = phi^* [H^* beta + C^* h^* u] holds as printed",
      corrected=(("loop('loop-FW-4.1')", "phi.T@(H.T@thd + Cf.T@h.T@u)"),), robot=False,
      given=("V : s <- 1",), assume=(HYP["loop-FW-4.1"],),
      operator_corrected=(("V", "phi.T@(H.T@thd + Cf.T@h.T@u)"),),
      note="u are the rates of the flexible dofs (beta is the joint rate, as in (2.2))"),
    IdentityRecord(id="FW-4.3", source=FW, where="framework (4.3): the velocities at the nodes",
      printed="V_k^f = B_k^* V(k) + h_k^* u_k => V^f = B^* V + h^* u = B^* phi^* [H^* beta + C^* h^* u] + h^* u "
      "= B^* phi^* H^* beta + [I + B^* phi^* C^*] h^* u = [I + B^* phi^* C^*] [h^* B^* H^*] X, X = (u; beta)",
      checks=((VF, "Bf.T@phi.T@(H.T@thd + Cf.T@h.T@u) + h.T@u"),
       (VF, "Bf.T@phi.T@H.T@thd + (I + Bf.T@phi.T@Cf.T)@h.T@u"),
       (VF, "(I + Bf.T@phi.T@Cf.T)@(h.T@u + Bf.T@H.T@thd)")), hypotheses=FLEX_HYP, robot=False,
      given=("V : s <- 1", "Vf : f <- 1"), assume=(HYP["loop-FW-4.1"], HYP["loop-FW-4.3"]),
      operator_form=(("Vf", "Bf.T@V + h.T@u"), ("Vf", "Bf.T@phi.T@(H.T@thd + Cf.T@h.T@u) + h.T@u"),
                     ("Vf", "Bf.T@phi.T@H.T@thd + (I + Bf.T@phi.T@Cf.T)@h.T@u"),
                     ("Vf", "(I + Bf.T@phi.T@Cf.T)@(h.T@u + Bf.T@H.T@thd)")),
      note="the last step uses B[I + C phi B] = phi B (FW-4.BI); the block row [h^* B^* H^*] times X = (u; beta) is "
           "written out as h^* u + B^* H^* beta"),
    IdentityRecord(id="FW-4.Mf", source=FW, where="framework Section 4 after (4.3): T = 1/2 (V^f)^* m V^f = 1/2 X^* M^f X",
      printed="M^f = (HB; h) [I + C phi B] m [I + C phi B]^* (HB; h)^*, with X = (u; beta) of (4.3)",
      checks=_mf_checks("Gb", "Gu"), hypotheses=FLEX_HYP, misprint=True, misprint_kind=MisprintKind.PAPER,
      let=FLEX_LET + (("Vf", VF),),
      evidence="the order of two block rows, not a glyph: (4.3) defines X = (u; beta) and writes V^f = [I + B^* "
               "phi^* C^*][h^* B^* H^*] X with h^* first, whose transpose is (h; HB), while M^f stacks (HB; h): its "
               "first block row and column belong to beta, so X^* M^f X does not conform",
      correction="M^f = (h; HB) [I + C phi B] m [I + C phi B]^* (h; HB)^* for X = (u; beta) (equivalently, the "
                 "printed M^f with X = (beta; u)); its blocks are W_u^* m W_u, W_u^* m W_beta, ... with V^f = W_u u "
                 "+ W_beta beta, W_u = [I + B^* phi^* C^*] h^*, W_beta = B^* phi^* H^* = [I + B^* phi^* C^*] B^* H^*",
      corrected=_mf_checks("Gu", "Gb"), robot=False,
      given=("V : s <- 1", "Vf : f <- 1"), assume=(HYP["loop-FW-4.1"], HYP["loop-FW-4.3"]),
      operator_form=_mf_checks("Gb", "Gu"), operator_corrected=_mf_checks("Gu", "Gb"), operator_let=FLEX_LET,
      note="four checks are the blocks of the mass matrix of T (V^f = W_u u + W_beta beta, FW-4.3), the fifth the "
           "kinetic energy itself, 2 T = (V^f)^* m V^f = X^* M^f X, with V^f from the sweeps (4.1), (4.3)"),
    # ------------------------------------------------------------------ derivatives of the dynamics
    # docs/derivatives.md in operator form (Jain and Rodriguez, "Linearization of manipulator dynamics
    # using spatial operators", IEEE Trans. SMC 1993); the operators and their relations are in
    # soagen.symbolic.engines.nfree (Mdot, Bcor, Sdot, Psidot, Psiddot, fbar, R, Bcor_c and the definitions of
    # hbar, Ccor, Mcaldot, dTdth, dTdthd).  Per N the composites come from their loops and B(k) is free.
    IdentityRecord(id="D-a.44", source=DERIV, where="docs/derivatives.md (D.9), (D.14): the composite sweeps; Part I (a.44) with psi = phi",
      printed="R(k) = M(k) + phi(k,k-1) R(k-1) phi^T(k,k-1), B_c(k) = B(k) + phi(k,k-1) B_c(k-1) phi^T(k,k-1), "
      "R(0) = B_c(0) = 0  read as  M = R - E_phi R E_phi^T, B = B_c - E_phi B_c E_phi^T",
      checks=(("R - Ephi@R@Ephi.T", "M"), ("Bcor_c - Ephi@Bcor_c@Ephi.T", "Bcor")),
      hypotheses="per N the composites are run block by block by their loop (on a tree the sum is over the children)",
      note="for every N these are the relations composite-R and composite-B; per N this checks the loop "
           "against them"),
    IdentityRecord(id="D-corA.1", source=DERIV, where="Part I Corollary A.1 with a non-symmetric middle factor (docs/derivatives.md, (D.10))",
      printed="phi X phi^T = r + phi~ r + r phi~^T for r(k+1) = phi(k+1,k) r(k) phi^T(k+1,k) + X(k+1) and any block-"
      "diagonal X: X = B (not symmetric) and X = M",
      checks=(("phi@Bcor@phi.T", "Bcor_c + phi_t@Bcor_c + Bcor_c@phi_t.T"), ("phi@M@phi.T", "R + phi_t@R + R@phi_t.T")),
      hypotheses="R, B_c the composites of M and B (D-a.44); B + B^T = Mdot is not used (B is free per N)",
      note="the proof of (a.45) uses only the semigroup property of phi, never X = X^T"),
    IdentityRecord(id="D-merge", source=DERIV, where="docs/derivatives.md (D.10) => (D.11): the two triangular parts merged",
      printed="R phi^T + phi~ R = phi M phi^T and B_c phi^T + phi~ B_c = phi B phi^T",
      checks=(("R@phi.T + phi_t@R", "phi@M@phi.T"), ("Bcor_c@phi.T + phi_t@Bcor_c", "phi@Bcor@phi.T")),
      hypotheses="R, B_c the composites of M and B (D-a.44)"),
    IdentityRecord(id="D-11", source=DERIV, where="docs/derivatives.md (D.10) => (D.11), computed by the walk (D.14)",
      printed="dT/dtheta = H (R phi^T Psi_ddot + 2 B_c phi^T Psi_dot) + H phi~ (R Psi_ddot + 2 B_c Psi_dot + fbar H^T) "
      "= H phi [M phi^T Psi_ddot + 2 B phi^T Psi_dot] + H phi~ fbar H^T",
      checks=(("id_derivatives(thdd)[0]", "dTdth"),),
      hypotheses="(D.10): block (i, j) from the links of the subtree of j (lower part) and through phi(i, j) for i "
      "inboard of j (upper part); the walk (D.14) computes the blocks", robot=False,
      note="the walk carries single blocks link by link, which the N-free algebra cannot index: it is checked "
           "against dT/dtheta block by block per N, and its operator reading (D.10) = (D.11) for every N",
      operator_form=(("H@(R@phi.T@Psiddot + 2*Bcor_c@phi.T@Psidot) + H@phi_t@(R@Psiddot + 2*Bcor_c@Psidot + fbar@H.T)",
                      "dTdth"),)),
    IdentityRecord(id="D-13", source=DERIV, where="docs/derivatives.md (D.12) => (D.13), computed by the walk (D.14)",
      printed="dT/dtheta_dot = H (R phi^T (Psi_dot + S_dot) + 2 B_c phi^T H^T) + H phi~ (R (Psi_dot + S_dot) + 2 B_c H^T) "
      "= H phi [M phi^T (Psi_dot + S_dot) + 2 B phi^T H^T]",
      checks=(("id_derivatives(thdd)[1]", "dTdthd"),),
      hypotheses="(D.12); the walk (D.14) computes the blocks", robot=False,
      note="the walk is checked block by block per N, its operator reading (D.12) = (D.13) for every N",
      operator_form=(("H@(R@phi.T@(Psidot + Sdot) + 2*Bcor_c@phi.T@H.T) + H@phi_t@(R@(Psidot + Sdot) + 2*Bcor_c@H.T)",
                      "dTdthd"),)),
    IdentityRecord(id="D-15", source=DERIV, where="docs/derivatives.md (D.16) => (D.15), the Coriolis matrix",
      printed="C = H (R phi^T S_dot + B_c phi^T H^T) + H phi~ (R S_dot + B_c H^T) = H phi [M phi^T S_dot + B phi^T H^T]",
      checks=(("coriolis_matrix()", "Ccor"),),
      hypotheses="(D.16); the walk computes the blocks", robot=False,
      note="the walk is checked block by block per N, its operator reading (D.16) = (D.15) for every N",
      operator_form=(("H@(R@phi.T@Sdot + Bcor_c@phi.T@H.T) + H@phi_t@(R@Sdot + Bcor_c@H.T)", "Ccor"),)),
    IdentityRecord(id="D-skew", source=DERIV, where="docs/derivatives.md after (D.15): Mdot - 2C is skew-symmetric",
      printed="with J = phi^T H^T, Jdot = phi^T S_dot, C = J^T (M Jdot + B J), Mdot = Jdot^T M J + J^T M Jdot + "
      "J^T Mdot_b J: (Mdot - 2C)^T = -(Mdot - 2C), Mdot = C + C^T, hbar^T = -hbar",
      checks=(("Md - 2*Cj", "-(Md - 2*Cj).T"), ("Md", "Cj + Cj.T"), ("Cj", "Ccor"), ("Md", "Mcaldot"),
       ("hbar.T", "-hbar")),
      hypotheses="M^T = M, Mdot_b^T = Mdot_b, 2B = Mdot_b + hbar with hbar^T = -hbar (the relation coriolis-sym: "
      "B + B^T = Mdot_b)",
      let=(("Jb", "phi.T@H.T"), ("Jd", "phi.T@Sdot"), ("Cj", "Jb.T@(M@Jd + Bcor@Jb)"),
           ("Md", "Jd.T@M@Jb + Jb.T@M@Jd + Jb.T@Mdot@Jb"))),
    IdentityRecord(id="D-2C", source=DERIV, where="docs/derivatives.md after (D.15): dT/dtheta_dot = 2 C for 1-dof joints",
      printed="for revolute and prismatic joints S_dot = Psi_dot, so dT/dtheta_dot = H phi [M phi^T 2 S_dot + 2 B phi^T H^T] "
      "= 2 C (C is then the Christoffel matrix)",
      checks=(("H@phi@(M@phi.T@(Psidot + Sdot) + 2*Bcor@phi.T@H.T)", "2*Ccor"),),
      hypotheses="1-dof joints", let=(("Psidot", "Sdot"),),
      assume=(CONDITION["one-dof"],),
      operator_form=(("dTdthd", "2*Ccor"),), operator_let=(),
      note="with spherical or free joints S_dot != Psi_dot and dT/dtheta_dot != 2C (refuted by soagen prove)"),
    IdentityRecord(id="D-19", source=DERIV, where="docs/derivatives.md (D.19): derivatives of forward dynamics",
      printed="qdd = M^-1 (T - C) gives d(M^-1) = -M^-1 dM M^-1 and dqdd = -M^-1 (dM qdd + dC) = -M^-1 dT_ID",
      checks=(("M@(dMinv@(T - Cb) - Minv@dCb)", "-(dM@Minv@(T - Cb) + dCb)"), ("dMinv", "-Minv@dM@Minv")),
      hypotheses="M invertible, M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) (Theorem 4.1, I-4.16); d(M M^-1) = 0",
      theory="fdderiv",
      note="stated as M dqdd = -dT_ID (the catalogue's form of X = M^-1 Y); dT_ID = dM qdd + dC at the "
           "forward-dynamics qdd is (D.11), (D.13) with the dT/dtheta_dot of the joint rates"),
    # ------------------------------------------------------------------ Swain-Morris
    IdentityRecord(id="SM-B1", source=SM, where="Swain-Morris (B1) => (B2) with (B3)-(B6)",
      printed="Phi^T f - Phi^T X^T G M_q^-1 D f_e = Phi^T X^T G {X Phi qdd + dX_b V_b + M_q^-1 b + X_b M_b^-1 (f_b - b_b) + dX Phi qd} "
      "is T^ - J^T f_e = M qdd + C, G = M_q - M_q X_b (M_b + X_b^T M_q X_b)^-1 X_b^T M_q",
      checks=(("Phi.T@f - Phi.T@X.T@Q@Mqinv@D@fe - Phi.T@X.T@Q@(X@Phi@qdd + Xbd@Vb + Mqinv@bv + Xb@Mbinv@(fb - bb) + Xd@Phi@qd)",
        "That - JT@fe - Mm@qdd - Cc"),),
      hypotheses="M_q, M_b, M_p invertible; M_a^-1 b of (B1) read as M_q^-1 b (see SM-B5)", theory="swain",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Mm", "Phi.T@X.T@Q@X@Phi"), ("JT", "Phi.T@X.T@Q@Mqinv@D"),
           ("Cc", "Phi.T@X.T@Q@(Xbd@Vb + Mqinv@bv - Xb@Mbinv@bb + Xd@Phi@qd)"),
           ("That", "Phi.T@f - Phi.T@X.T@Q@Xb@Mbinv@fb"))),
    IdentityRecord(id="SM-B7", source=SM, where="Swain-Morris Lemma B1 (B7) from (B3)", printed="M = M_a - M_ap^T M_p^-1 M_ap",
      checks=(("PhT@X.T@Q@X@Phi", "Ma - Map.T@Mpinv@Map"),), hypotheses="M_q, M_p invertible; M_p = M_b + X_b^T M_q X_b",
      theory="swain", let=(("PhT", "Phi.T"), ("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Ma", "Phi.T@X.T@Mq@X@Phi"),
                           ("Map", "Xb.T@Mq@X@Phi"))),
    IdentityRecord(id="SM-B8", source=SM, where="Swain-Morris Lemma B1 (B8) from (B4)",
      printed="J^T = J_a - M_an^T M_n^-1 J_v  (OCR: M_ap^T M_p^-1 J_p)",
      checks=(("Phi.T@X.T@Q@Mqinv@D", "Phi.T@X.T@D - Map.T@Mpinv@Xb.T@D"),), hypotheses="as (B7); J_a = Phi^T X^T D, J_p = X_b^T D",
      theory="swain", let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Map", "Xb.T@Mq@X@Phi")),
      note="the printed subscripts an, n, v are OCR damage of ap, p, p"),
    IdentityRecord(id="SM-B5", source=SM, where="Swain-Morris (B1), (B5): the term M_a^-1 b",
      printed="C = Phi^T X^T {M_q - M_q X_b M_p^-1 X_b^T M_q} {dX_b V_b + M_a^-1 b - X_b M_b^-1 b_b + dX Phi qd}",
      checks=(("Phi.T@X.T@Q@(Xbd@Vb + Mainv@bv - Xb@Mbinv@bb + Xd@Phi@qd)", "Ca - Map.T@Mpinv@Cp"),),
      hypotheses="as (B7)", theory="swain", misprint=True, misprint_kind=MisprintKind.OCR,
      evidence="subscript q read as a: M_a is n x n and cannot multiply b (6nm x 1); the OCR makes the same "
               "confusion in (B11), `X_b^T M_a - M_v X_b^{-1}` for X_b^T M_q - M_p X_b^-1, and (B1), from which (B5) is "
               "copied, carries the same `M_a^{-1}b`",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Map", "Xb.T@Mq@X@Phi"),
           ("Ca", "Phi.T@X.T@(bv + Mq@Xd@Phi@qd + Mq@Xbd@Vb)"),
           ("Cp", "Xb.T@(bv + Mq@Xd@Phi@qd + Mq@Xbd@Vb) + bb")),
      correction="M_q^-1 b, not M_a^-1 b (M_a is n x n, b is 6nm x 1)",
      corrected=(("Phi.T@X.T@Q@(Xbd@Vb + Mqinv@bv - Xb@Mbinv@bb + Xd@Phi@qd)", "Ca - Map.T@Mpinv@Cp"),)),
    IdentityRecord(id="SM-B9", source=SM, where="Swain-Morris Lemma B1 (B9) with C_p as printed",
      printed="C = C_a - M_ap^T M_p^-1 C_p, C_p = X_b^T (b + M_q dX Phi qd) - (M_b X_b^-1 dX_b V_b - b_b)",
      checks=(("Cb5", "Ca - Map.T@Mpinv@Cp"),),
      hypotheses="as (B7); X_b is 6nm x 6 (n arms, m ... ) so X_b^-1 can only be a left inverse", theory="swain",
      misprint=True, symbolic_refutation=True, misprint_kind=MisprintKind.PAPER,
      evidence="the lemma's definition of C_p uses X_b^{-1} although X_b is 6nm x 6 (Sec. 3 of the paper); no reading "
               "of the glyphs makes the printed grouping hold (a left inverse leaves the residual (I - X_b X_b^-1))",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Map", "Xb.T@Mq@X@Phi"),
           ("Cb5", "Phi.T@X.T@Q@(Xbd@Vb + Mqinv@bv - Xb@Mbinv@bb + Xd@Phi@qd)"),
           ("Ca", "Phi.T@X.T@bv + Phi.T@X.T@Mq@Xd@Phi@qd"),
           ("Cp", "Xb.T@(bv + Mq@Xd@Phi@qd) - (Mb@Xbinv@Xbd@Vb - bb)"),
           ("Ca2", "Phi.T@X.T@(bv + Mq@Xd@Phi@qd + Mq@Xbd@Vb)"),
           ("Cp2", "Xb.T@(bv + Mq@Xd@Phi@qd + Mq@Xbd@Vb) + bb")),
      correction="no inverse of X_b is needed: C = C_a - M_ap^T M_p^-1 C_p with the base bias folded in, "
                 "C_a = Phi^T X^T (b + M_q dX Phi qd + M_q dX_b V_b), C_p = X_b^T (b + M_q dX Phi qd + M_q dX_b V_b) + b_b. "
                 "The printed form is off by exactly Phi^T X^T G (I - X_b X_b^-1) dX_b V_b, G = M_q - M_q X_b M_p^-1 X_b^T M_q, "
                 "which vanishes if X_b X_b^-1 = I (X_b square, a single 6-dof base-to-arm map) and not for a left inverse",
      corrected=(("Cb5", "Ca2 - Map.T@Mpinv@Cp2"),
                 ("Cb5 - (Ca - Map.T@Mpinv@Cp)", "Phi.T@X.T@Q@(I - Xb@Xbinv)@Xbd@Vb"))),
    IdentityRecord(id="SM-B11", source=SM, where="Swain-Morris (B11)",
      printed="M_ap^T M_p^-1 M_b X_b^-1 dX_b V_b = -M_ap^T M_p^-1 (X_b^T M_q - M_p X_b^-1) dX_b V_b",
      checks=(("Map.T@Mpinv@Mb@Xbinv@Xbd@Vb", "-Map.T@Mpinv@(Xb.T@Mq - Mp@Xbinv)@Xbd@Vb"),),
      hypotheses="as (B7); the printed M_an, M_n, M_a, M_v read as M_ap, M_p, M_q, M_p", theory="swain", misprint=True,
      misprint_kind=MisprintKind.PAPER,
      evidence="needs X_b X_b^{-1} = I (a right inverse of a tall matrix); the subscripts an, n, a, v are OCR damage "
               "on top, read as ap, p, q, p",
      let=(("Map", "Xb.T@Mq@X@Phi"),),
      correction="exact form: M_ap^T M_p^-1 M_b X_b^-1 dX_b V_b = -M_ap^T M_p^-1 (X_b^T M_q - M_p X_b^-1) dX_b V_b "
                 "+ M_ap^T M_p^-1 X_b^T M_q (I - X_b X_b^-1) dX_b V_b; the last term vanishes only if X_b X_b^-1 = I",
      corrected=(("Map.T@Mpinv@Mb@Xbinv@Xbd@Vb",
                  "-Map.T@Mpinv@(Xb.T@Mq - Mp@Xbinv)@Xbd@Vb + Map.T@Mpinv@Xb.T@Mq@(I - Xb@Xbinv)@Xbd@Vb"),)),
    IdentityRecord(id="SM-B12", source=SM, where="Swain-Morris (B12)", printed="-M_ap^T M_p^-1 b_b = M_ap^T M_p^-1 (X_b^T M_q X_b - M_p) M_b^-1 b_b",
      checks=(("-Map.T@Mpinv@bb", "Map.T@Mpinv@(Xb.T@Mq@Xb - Mp)@Mbinv@bb"),), hypotheses="as (B7)", theory="swain",
      let=(("Map", "Xb.T@Mq@X@Phi"),)),
    IdentityRecord(id="SM-B13", source=SM, where="Swain-Morris (B13)", printed="M_ap^T M_p^-1 f_b = M_ap^T M_p^-1 (M_p - X_b^T M_q X_b) M_b^-1 f_b",
      checks=(("Map.T@Mpinv@fb", "Map.T@Mpinv@(Mp - Xb.T@Mq@Xb)@Mbinv@fb"),), hypotheses="as (B7)", theory="swain",
      let=(("Map", "Xb.T@Mq@X@Phi"),)),
    IdentityRecord(id="SM-B10", source=SM, where="Swain-Morris Lemma B1 (B10) from (B6)", printed="T^ = T_a - M_ap^T M_p^-1 T_p, T_p = f_b, T_a = Phi^T f",
      checks=(("Phi.T@f - Phi.T@X.T@Q@Xb@Mbinv@fb", "Phi.T@f - Map.T@Mpinv@fb"),), hypotheses="as (B7)", theory="swain",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Map", "Xb.T@Mq@X@Phi"))),
    IdentityRecord(id="SM-MIL", source=SM, where="Swain-Morris Lemma B2, matrix inversion lemma step",
      printed="G = (M_q^-1 + X_b M_b^-1 X_b^T)^-1 = M_q - M_q X_b M_p^-1 X_b^T M_q = M_q (I + X_b M_b^-1 X_b^T M_q)^-1",
      checks=(("(Mqinv + Xb@Mbinv@Xb.T)@Q", "I"), ("Q@(Mqinv + Xb@Mbinv@Xb.T)", "I"),
       ("Q@(I + Xb@Mbinv@Xb.T@Mq)", "Mq")), hypotheses="M_q, M_b, M_p invertible", theory="swain",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"),)),
    IdentityRecord(id="SM-B14", source=SM, where="Swain-Morris Lemma B2 (B14)-(B15)",
      printed="J_D = M_b^-1 X_b^T G X Phi = M_b^-1 M_ap - M_b^-1 X_b^T M_q X_b M_p^-1 M_ap = M_p^-1 M_ap",
      checks=(("Mbinv@Xb.T@Q@X@Phi", "Mbinv@Map - Mbinv@Xb.T@Mq@Xb@Mpinv@Map"), ("Mbinv@Xb.T@Q@X@Phi", "Mpinv@Map")),
      hypotheses="as (B7); G by the matrix inversion lemma (SM-MIL)", theory="swain",
      let=(("Q", "Mq - Mq@Xb@Mpinv@Xb.T@Mq"), ("Map", "Xb.T@Mq@X@Phi"))),
]

BY_ID = {r.id: r for r in CATALOGUE}
assert len(BY_ID) == len(CATALOGUE), "duplicate identity id"

# Coverage of the seeds: every numbered operator statement -> the records that check it, or
# the reason it is not an identity.  (paper, equations, record ids or a reason)
_P1, _P2, _FW, _SM, _D = "Part I", "Part II", "framework", "Swain-Morris", "derivatives"
COVERAGE: list = [
    (_P1, "(2.1)-(2.23)", "kinematics and Newton-Euler equations of one link (physics, no operators); the "
                          "numeric algorithms implement them and are checked against Pinocchio"),
    (_P1, "(2.24)-(2.30)", ("I-3.12", "I-3.15", "I-3.17", "I-3.20")),
    (_P1, "(2.31)-(2.32)", "prismatic-joint bias terms (physics); (2.32) is refuted by the Pinocchio oracle, "
                           "see the 'also noted' table of docs/misprints.md"),
    (_P1, "(3.1)", "definition of phi(i, j) (a rigid-body transform)"),
    (_P1, "(3.2)-(3.3)", "the group (state transition) properties of phi(i, j): definitions; the block engine "
                         "builds phi(i, j) by (3.3), and their operator form phi = (I - E_phi)^-1 is FW-2.4"),
    (_P1, "(3.4)-(3.10)", "definitions of phi, H, M, B, E and the stacked vectors"),
    (_P1, "(3.11)-(3.12)", ("I-3.12",)), (_P1, "(3.13)", ("I-3.13",)), (_P1, "(3.14)-(3.15)", ("I-3.15",)),
    (_P1, "(3.16)-(3.17)", ("I-3.17",)), (_P1, "(3.18)", ("I-3.18",)), (_P1, "(3.19)", ("I-3.19", "I-3.19a")),
    (_P1, "(3.20)", ("I-3.20", "I-3.19")), (_P1, "(3.21)", ("I-3.21",)), (_P1, "(3.22)", ("I-3.22",)),
    (_P1, "(3.23)", ("I-3.23",)),
    (_P1, "(4.1)-(4.2)", ("I-4.2",)), (_P1, "(4.3)", ("I-4.3",)),
    (_P1, "(4.4)-(4.6)", ("I-4.4", "FW-3.1", "I-a.1")), (_P1, "(4.7)-(4.10)", ("I-a.1", "I-a.6", "I-a.7", "I-5.3")),
    (_P1, "(4.11)", ("I-4.11", "I-F4.1-proof")),
    (_P1, "(4.12)-(4.13)", ("I-4.13",)), (_P1, "(4.14)", ("I-4.14", "I-F4.2-proof")), (_P1, "(4.15)", ("I-4.15",)),
    (_P1, "(4.16)", ("I-4.16",)), (_P1, "(4.17)-(4.18)", ("I-FD1",)), (_P1, "(4.19)-(4.20)", ("I-4.20",)),
    (_P1, "(4.21)-(4.22)", ("I-4.22", "I-FD2-lambda")), (_P1, "(4.21b)-(4.22b)", ("I-FD2-rec",)),
    (_P1, "(4.23)", ("I-4.23",)),
    (_P1, "(5.1)-(5.2)", "definitions of psi and S"), (_P1, "(5.3)", ("I-5.3",)), (_P1, "(5.4)", ("I-5.4",)),
    (_P1, "(5.5)-(5.6)", ("I-FD2",)), (_P1, "(5.7)", ("I-5.7",)),
    (_P1, "(5.8)-(5.10)", ("I-FD3", "I-FD3-proof")), (_P1, "(5.11)-(5.12)", "definitions of psi~ and G"),
    (_P1, "(5.13)-(5.15)", ("I-FD4", "I-FD4-proof")), (_P1, "(5.16)-(5.17)", ("I-FD4-rec",)),
    (_P1, "(a.1)-(a.5)", ("I-a.1",)),
    (_P1, "(a.6)-(a.18)", ("I-a.6", "I-a.7", "I-a.8", "I-a.9", "I-a.10", "I-a.11", "I-a.12", "I-a.13", "I-a.14",
                           "I-a.15", "I-a.16", "I-a.17", "I-a.18")),
    (_P1, "(a.19)-(a.21)", ("I-a.20", "I-a.21")),
    (_P1, "(a.22)-(a.28)", ("I-a.22", "I-a.23", "I-a.24", "I-a.25", "I-a.26", "I-a.27", "I-a.28")),
    (_P1, "(a.29)-(a.31)", ("I-a.30", "I-a.31")),
    (_P1, "(a.32)-(a.43)", tuple(f"I-a.{k}" for k in range(32, 44))),
    (_P1, "(a.44)-(a.45)", ("I-a.45", "I-a.45-gen", "I-a.45-proof", "I-corA.1")),
    (_P1, "(a.46)-(a.47)", ("I-a.46", "I-a.47", "I-a.47-proof")), (_P1, "(a.48)-(a.49)", ("I-a.48", "I-a.49")),
    (_P1, "(a.50)-(a.51)", ("I-a.50", "I-a.50-proof", "I-a.51", "I-FD4-proof")),
    (_P1, "abstract", ("I-abstract",)),
    (_P1, "(b.1)-(b.8)", "mobile base: quaternion kinematics of the base body (not operator identities), checked "
                         "numerically; see docs/misprints-trees-swain-morris.md"),
    (_P2, "(2.1)-(2.15)", "the closed-chain model: rigid-body kinematics of the grasp and the equations of "
                          "motion (definitions and physics), checked by the closed-chain tests"),
    (_P2, "(3.1)-(3.4)", "definitions of Omega, a'(C) and the block system"), (_P2, "(3.5)", ("II-3.5a", "II-3.5b")),
    (_P2, "(3.6)", ("II-6.13", "II-6.17")),
    (_P2, "(4.1)-(4.9)", "the general algorithm CCFD as steps (an algorithm, not identities); its operator "
                         "steps are (6.2)-(6.21); the misprint (4.9h) is in docs/misprints-closed-chain.md"),
    (_P2, "(5.1)", "definitions of the aggregate operators of l arms"),
    (_P2, "(5.2)-(5.4)", ("II-5.2", "II-5.3", "II-5.4")),
    (_P2, "(5.5)-(5.7)", "(2.13)-(2.15) rewritten with (5.1) (definitions)"),
    (_P2, "(5.8)-(5.10)", ("I-FD1", "I-4.20", "I-4.22")), (_P2, "(5.11)", ("I-FD1",)),
    (_P2, "(5.12)", ("I-5.3", "I-5.4")), (_P2, "(5.13)-(5.14)", ("I-FD3-proof", "I-FD3")),
    (_P2, "(6.1)", ("I-FD1", "I-FD2")), (_P2, "(6.2)-(6.3)", ("II-6.3",)), (_P2, "(6.4)", ("II-6.4",)),
    (_P2, "(6.5)", ("II-6.5a",)), (_P2, "(6.6)-(6.7)", ("II-6.7",)), (_P2, "(6.8)-(6.9)", ("II-6.9",)),
    (_P2, "(6.10)", ("II-6.10", "FW-A.3")), (_P2, "(6.11)", ("II-6.11g",)), (_P2, "(6.12)", ("II-6.12",)),
    (_P2, "(6.13)", ("II-6.13",)), (_P2, "(6.14)-(6.17)", ("II-6.15", "II-6.16", "II-6.17")),
    (_P2, "(6.18)", ("II-6.18e", "II-6.7")), (_P2, "(6.19)-(6.21)", ("II-6.20", "II-6.21")),
    (_P2, "(6.22)", "algorithm RCCFD3 as steps: (6.7), (6.20), (6.21) in recursive form"),
    (_P2, "(a.1)-(a.6)", "contact kinematics: definitions of the relative velocity across a contact (W(0), "
                         "h(0), H(0)); not operator identities"),
    (_P2, "(a.7)", "H(0) f(0) = 0 follows from f^T(0) H^T(0) W(0) = 0 for all W(0) (a logical step, not an "
                   "operator identity); used as (b.1c) in II-b.7"),
    (_P2, "(a.8)-(a.10)", "the time derivative of (a.6) and the definitions of alpha+/-(0)"),
    (_P2, "(b.1)-(b.4)", ("II-b.4", "II-b.4a")), (_P2, "(b.5)-(b.7)", ("II-b.7",)), (_P2, "(b.8)", ("II-b.8",)),
    (_P2, "(b.9)-(b.11)", ("II-b.10", "II-b.11")), (_P2, "(b.12)-(b.13)", ("II-b.12",)), (_P2, "(b.14)", ("II-b.14",)),
    (_FW, "(2.1)", ("FW-2.1",)), (_FW, "(2.2)-(2.5)", ("FW-2.4", "FW-2.5")),
    (_FW, "(2.6)", "definitions of the tree's link and dof counts"),
    (_FW, "(2.7)", "definition of E_phi on a tree (the shift S with phi(parent(k), k)); the relations of the "
                   "tree topology hold for it (checked numerically on random trees)"),
    (_FW, "(2.8)-(2.11)", ("FW-2.5", "FW-2.4")),
    (_FW, "(2.12)-(2.14)", "definitions of T^ and the Jacobian J = B^* phi^* H^* of several frames"),
    (_FW, "(2.15)", "the equations of motion of the primary and secondary trees (definitions)"),
    (_FW, "(2.16)", "definition of A = [A_P A_S] and of the stacked closure constraint"),
    (_FW, "(2.17)", ("FW-2.17",)),
    (_FW, "(3.1)-(3.3)", ("FW-3.1", "FW-3.2")), (_FW, "(3.4)-(3.6)", ("FW-L1", "FW-L2", "FW-L3")),
    (_FW, "(3.7)-(3.9)", ("FW-L3", "FW-L4", "FW-A.2")), (_FW, "(3.10)", ("FW-3.10",)),
    (_FW, "(3.11)", ("FW-3.11", "FW-3.11-alt")), (_FW, "(3.12)", ("FW-3.12",)), (_FW, "(3.13)", ("FW-3.13",)),
    (_FW, "Section 4, text before (4.1)", "definitions of the nodes Q_k(j), the nodal displacements u_k^f, m_k, K_k "
                                          "and u_k = h_k u_k^f (the typing of h: 'also noted' in docs/misprints.md)"),
    (_FW, "(4.1)-(4.2)", ("FW-4.1",)), (_FW, "(4.3)", ("FW-4.3", "FW-4.BC", "FW-4.BCphi", "FW-4.BI")),
    (_FW, "Section 4, T and M^f", ("FW-4.Mf",)),
    (_FW, "(A.1)", ("I-a.47-proof",)), (_FW, "(A.2)", ("FW-A.2", "FW-A.2-rec")),
    (_FW, "(A.3)-(A.5)", ("FW-A.3", "FW-L5")), (_FW, "(A.6)", ("FW-A.6",)),
    (_SM, "(B1)-(B2)", ("SM-B1",)), (_SM, "(B3)-(B6)", ("SM-B7", "SM-B8", "SM-B5", "SM-B10")),
    (_SM, "(B7)-(B10)", ("SM-B7", "SM-B8", "SM-B9", "SM-B10")), (_SM, "(B11)-(B13)", ("SM-B11", "SM-B12", "SM-B13")),
    (_SM, "(B14)-(B15)", ("SM-B14", "SM-MIL")),
    (_D, "(D.1)-(D.6)", "the tangent-space perturbation and the rates (definitions; the operators Mdot, B, "
                        "Sdot, Psidot, Psiddot, fbar of the N-free algebra, checked numerically against the "
                        "generic recursions and Pinocchio, tests/dynamics/test_derivatives_oracle.py)"),
    (_D, "(D.7)-(D.8)", "cross-product rules of rigid motion (x, x*, the Jacobi identity), which the algebra "
                        "does not have; checked by finite differences, tests/dynamics/test_derivatives_operators.py"),
    (_D, "(D.9)", ("D-a.44",)), (_D, "(D.10)-(D.11)", ("D-corA.1", "D-merge", "D-11")),
    (_D, "(D.12)-(D.13)", ("D-13",)), (_D, "(D.14)", ("D-11", "D-13", "D-a.44")),
    (_D, "(D.15)-(D.16)", ("D-15", "D-skew", "D-2C")),
    (_D, "(D.17)-(D.18)", "the regressor: the body regressor is (2.22)-(2.23) written linearly in pi (physics), "
                          "checked numerically (tests/dynamics/test_regressor.py)"),
    (_D, "(D.19)", ("D-19", "I-4.16")),
]
