"""Generate docs/identities.md and docs/misprints.md from the catalogue and the algebra
(deterministic: no timings; a test regenerates both and compares)."""

from __future__ import annotations

from soagen.symbolic.evidence.catalogue import (
    CATALOGUE,
    COVERAGE,
    DERIV,
    FW,
    P1,
    P2,
    SM,
)
from soagen.symbolic.evidence.verify import run_record

DOCS_NMAX = 3      # block engine range used for the docs (and by the test that regenerates them)

PAPERS = [(P1, "Part I (Rodriguez-Kreutz, JPL 88-11, open chains)", f"Seed file `{P1}`."),
          (P2, "Part II (Rodriguez-Kreutz, closed chains)", f"Seed file `{P2}`."),
          (FW, "Framework paper (Rodriguez-Jain-Kreutz)", f"Seed file `{FW}`."),
          (SM, "Swain-Morris, Appendix B", f"Seed file `{SM}`."),
          (DERIV, "Derivatives of the dynamics (docs/derivatives.md)",
           "The derivation of [derivatives.md](derivatives.md) in operator form (the linearization of Jain and "
           "Rodriguez, \"Linearization of manipulator dynamics using spatial operators\", IEEE Trans. SMC 1993), "
           "with the operators Mdot, Bcor, Sdot, Psidot, Psiddot, fbar, R, Bcor_c and their relations listed "
           "above; step by step in [derivations/derivatives.md](derivations/derivatives.md) "
           "(`soagen derive derivatives`).")]

# Misprints the catalogue does not check as identities (notation, loop bounds, text).
OTHER_NOTES = [
    ("Part I (4.5)", "loop `for k = 2, ..., N-1`", "k = 2, ..., N (L(N) = phi(N+1,N) G(N) is used by (4.22) and psi(N+1,N))",
     "reading; the recursions of the catalogue run k = 1..N"),
    ("Part I (3.8)", "E = [0, ..., 0, phi^T(N+1,N)]^T", "the last block of E must be phi^T(N+1,N) (gravity enters a(N) as "
     "phi^T(N+1,N) g, (3.21)); read literally the outer ^T would make it phi(N+1,N)", "convention; soagen and the dense builder use phi^T"),
    ("Part I (2.32)", "a(k) = (0, w(k+1) x [w(k+1) x l(k+1,k) + h(k) thetadot(k)])",
     "(0, w(k+1) x [w(k+1) x l(k+1,k) + 2 h(k) thetadot(k)]): the Coriolis term of a prismatic joint "
     "is counted twice (the slider's velocity turns with link k+1, and l(k+1,k) grows along h)",
     "numeric; the Pinocchio oracle refutes the printed form (tests/test_pinocchio_oracle.py, chains "
     "with prismatic joints)"),
    ("Part I (2.12)", "line starts with a stray `l d/dt`", "N(k) = N(k-1) + l(k,k-1) x F(k-1) + p(k) x F^c(k) + N^c(k)", "OCR"),
    ("Part I (3.16), second line", "`phi(k, j) = M(k) phi(k, j-1) + delta(k, j) phi(k, j)`",
     "not an equation of the paper (a garbled line; (3.16) itself is checked as I-3.17)", "OCR"),
    ("Part I, text after (4.10)", "`psi(k, k) = psi(k, k) = I`", "phi(k, k) = psi(k, k) = I", "OCR (phi read as psi)"),
    ("Part II (5.10e)", "smoothing loop k = 1 .. N", "k = N .. 1", "see docs/misprints-closed-chain.md"),
    ("Part II (4.9h), (6.11j)", "Delta alpha(0) = alpha_f(0) + Delta alpha(0)", "alpha(0) = alpha_f(0) + Delta alpha(0)",
     "see docs/misprints-closed-chain.md"),
    ("Part II (b.6a)", "[H Omega^-1 J M^-1 T + ...]", "H(0) Omega^-1 J M^-1 T (index dropped)", "notation; II-b.7 uses H(0)"),
    ("Swain-Morris (B8), (B10), (B11)", "M_an, M_n, J_v, M_av, M_v, M_a", "M_ap, M_p, J_p, M_ap, M_p, M_q", "OCR; SM-B8, SM-B11 read them so"),
    ("Swain-Morris (B15)", "J_D = M_h^-1 X_h^T G X Phi, G = M_q (E + ...)^-1", "M_b^-1 X_b^T G X Phi, E = I", "OCR; SM-B14, SM-MIL"),
    ("Swain-Morris Sec. 8.1", "M_o -> inf, V_b -> inf", "M_b -> inf, V_b -> 0", "not an identity"),
    ("framework Section 4, text before (4.1)", "u_k = h_k u_k^f, where h_k^* = [I, 0] ... h_k in R^{6n_k x 6(n_k-1)}",
     "h_k in R^{6(n_k-1) x 6n_k}, h_k = [I, 0] (h_k^* = [I, 0]^T): u_k = h_k u_k^f itself, h^* u in (4.1) and (4.3), "
     "h_k^* u_k in V_k^f and the block row h of M^f's factor (HB; h) all conform only so",
     "a dimension statement transposed (the authors'); soagen types h as the equations use it, h : u <- f "
     "(FW-4.1, FW-4.3, FW-4.Mf)"),
    ("framework (4.2)", "C_{k+1}^* in R^{6 x 6n_k}", "R^{6 x 6n_{k+1}} (one block per node of link k+1)",
     "dimension statement; the same k for k+1 as in (4.1), FW-4.1"),
    ("framework Section 4, text before (4.1)", "Q_k(1) is on the same element as Q_{k-1}",
     "as O_{k-1} (the point where link k-1 is attached)", "OCR (O read as Q)"),
    ("framework (4.1)-(4.3)", "u, u_{k+1}(1) in the velocity equations (u^f: 'the vector of displacement variables')",
     "the rates of the flexible dofs", "a dropped dot or the authors' shorthand (beta is the joint rate of (2.2)); "
     "the identities are linear in u"),
    ("framework Section 4, after (4.3)", "M' is the mass matrix", "M^f", "OCR"),
]

NAMES = [
    "| code | paper | where |", "|---|---|---|",
    "| `phi`, `psi` | phi, psi (lower block-triangular, identity diagonal) | Part I (3.4), (5.1) |",
    "| `Phi`, `Psi` | Phi = phi S, Psi = psi S (strictly lower) | (4.9), (4.10), (a.6), (a.7) |",
    "| `phi_t`, `psi_t` | phi~ = phi - I, psi~ = psi - I | (a.3), (5.11) |",
    "| `S` | shift, identity blocks at (parent(k), k); on a chain the subdiagonal | (5.2) |",
    "| `Dphi`, `Dpsi` | Delta_phi, Delta_psi | (a.4), (a.5) |",
    "| `Ephi`, `Epsi`, `K`, `tau`, `taub` | E_phi, E_psi, K = E_phi G, tau = G H, tau-bar = I - tau | framework (2.3), (3.2) |",
    "| `H`, `M`, `P`, `D`, `Dinv`, `L`, `G` | H, M (spatial inertias), P, D, D^-1, L, G | (3.5), (3.6), (4.4)-(4.8), (5.12) |",
    "| `Mcal` | the mass matrix (calligraphic M) = H phi M phi^T H^T | (3.20) |",
    "| `J`, `C` | Jacobian B^T phi^T H^T, bias C = H phi (M phi^T a + b) | (3.13), (3.20) |",
    "| `B`, `E` | tip and base maps | (3.7), (3.8) |",
    "| `a`, `b`, `y`, `T`, `Tp`, `thd`, `thdd`, `f0`, `a0`, `g` | a, b, a spatial vector, T, T', joint rates and "
    "accelerations, f(0), a(0), gravity | (2.19), (2.23), (3.9), (3.21), (3.22) |",
    "| `U` | Upsilon, block diagonal (framework (A.5)); with the chain-only relation (A.3) | framework (A.3)-(A.5) |",
    "| `chi`, `Dchi`, `chi_t` | a free causal semigroup (Lemma A.1 in its stated generality) | (a.45) |",
    "| `At`, `Xinv`, `Ominv`, `apC` | A^* (closure map), (A Lambda A^*)^-1, Omega^-1 (free symmetric), a'(C) | "
    "framework (3.12)-(3.13), Part II (6.13), (6.21) |",
    "| `Mdot`, `Bcor`, `hbar` | Mdot = diag(V x* M - M V x), the body Coriolis operator B = diag 1/2 [V x* M + "
    "(M V) xbar* - M V x], hbar = 2 B - Mdot = diag (M V) xbar* (B + B^T = Mdot: relation `coriolis-sym`) | "
    "docs/derivatives.md (D.2) |",
    "| `Sdot`, `Psidot`, `Psiddot`, `fbar` | diag V x H^T, V_p x H^T, A_p x H^T + V_p x Psi_dot, f xbar* | "
    "docs/derivatives.md (D.2), (D.4)-(D.6) |",
    "| `R`, `Bcor_c` | the composites of M and B by the loop (a.44) with psi = phi | Part I (a.44); "
    "docs/derivatives.md (D.9) |",
    "| `Ccor`, `Mcaldot`, `dTdth`, `dTdthd` | the Coriolis matrix C, the rate of the mass matrix, dT/dtheta, "
    "dT/dtheta_dot | docs/derivatives.md (D.11), (D.13), (D.15) |",
    "| `Bf`, `Cf`, `h`, `m`, `u` | the B, C, h, m and u of flexible links: B = diag B_k, C with C_k at (k, k-1), "
    "h = diag h_k (u_k = h_k u_k^f), the nodal masses m = diag m_k, the flexible dof rates u (B and C are written Bf, "
    "Cf: B and C are Part I's tip map and bias) | framework (4.1)-(4.3) |",
    "| `Af`, `Wu`, `Wb`, `Gu`, `Gb` (lets of FW-4.Mf) | I + C phi B, the columns W_u = [I + B^* phi^* C^*] h^*, "
    "W_beta = B^* phi^* H^* of V^f, the block rows h [I + C phi B], H B [I + C phi B] of M^f's factor | framework "
    "Section 4 |",
    "| `dM`, `dMinv`, `dCb` (theory `fdderiv`) | the differentials of M, M^-1 and the bias | docs/derivatives.md "
    "(D.19) |",
    "| `rne`, `accelerations`, `composite_forces`, `riccati`, `causal_filter`, `anticausal_smoother`, "
    "`link_accelerations`, `fd1`-`fd4`, `inverse_mass_matrix`, `mass_matrix`, `composite_inertias`, `upsilon`, "
    "`correction`, `coriolis_matrix`, `id_derivatives` | the recursions of soagen.dynamics, run on the blocks of "
    "the chain (the code that runs), for the block engine only | `soagen/symbolic/models/block_state.py` |",
    "| `loop('loop-4.13', ...)`, `lower(...)`, `diagonal(...)`, `single(...)`, `block`, `phi_` | a printed loop no "
    "code runs, run from its pinned equations; the sums of the proofs in their block text; single blocks; for the "
    "block engine only | `soagen/symbolic/models/block_values.py` |",
]


def _esc(s: str) -> str:
    return s.replace("|", "\\|")


def outcomes_for_docs() -> dict:
    return {r.id: run_record(r, nmax=DOCS_NMAX, certificates=True) for r in CATALOGUE}


def _status(rec, o) -> str:
    if rec.misprint:
        kind = {"paper": "error in the paper", "ocr": "likely OCR damage"}[rec.misprint_kind]
        s = f"misprint ({kind}); corrected form proved for {o.scope}"
    else:
        s = f"proved for {o.scope}"
    if o.all_n:
        s += f" [certificate](certificates/{rec.id}.txt)"
    elif o.scope.startswith("N = "):
        s += " only (block indices)"
    return s


def relations_markdown() -> list:
    """The relations and the order of the chain/tree algebra, from the data."""
    from soagen.symbolic.engines.nfree import algebra

    alg = algebra()
    out = ["| id | kind | rule (lhs -> rhs) | holds on | source |", "|---|---|---|---|---|"]
    for r in alg.relation_list:
        out.append(f"| `{r.id}` | {r.kind} | `{r.lhs} -> {r.rhs}` | {', '.join(t + 's' for t in r.topologies)} | "
                   f"{_esc(r.source)} |")
    ranking = alg.order.ranking([g for g in alg.order.ranks if not g.endswith("^T")])
    out += ["", "The order: words are compared by total weight (the weights in parentheses; 1 where none is "
            "shown; a defined symbol outweighs its definition), then generator by generator in this rank order "
            "(each transpose ranks right after its generator):", "", f"`{ranking}`"]
    return out


def identities_markdown(outcomes: dict | None = None) -> str:
    outcomes = outcomes or outcomes_for_docs()
    n_all = sum(o.all_n for o in outcomes.values())
    out = ["# Identity catalogue", "",
           "<!-- generated from soagen/symbolic/evidence/catalogue.py by soagen.symbolic.evidence.report; do not edit -->", "",
           f"Every identity that `soagen verify` checks: {len(outcomes)} records, {n_all} of them proved for "
           "every chain length N, each with a certificate in [certificates/](certificates/) that an "
           "independent checker re-expands: by the N-free operator algebra, or, for the statements with "
           "explicit block indices, by induction over the index with the papers' own telescoping steps. "
           f"The per-N block engine cross-checks every record for N = 1..{DOCS_NMAX} here (N = 1..7 with "
           "`pytest --runslow`). How an all-N proof works: [all-n-proofs.md](all-n-proofs.md). Misprints, "
           "counterexamples and corrected forms: [misprints.md](misprints.md). Timings: "
           "[verify-timings.md](verify-timings.md).", "",
           "## Usage", "",
           "```",
           "soagen verify                          # all identities: all-N proofs, block engine N = 1..4, numerics",
           "soagen verify --only I-4.16 --only FW-3.13 --format json",
           "soagen verify --certificates docs/certificates   # write the certificates",
           "python -m soagen.symbolic.evidence.checker docs/certificates  # re-check them, independently",
           "soagen prove \"Phi = Psi@(I + L@H@Phi)\"   # your own statement (--topology tree, --format json)",
           "soagen derive --list                   # step-by-step derivations (text, --format markdown or --format ipynb)",
           "```", "",
           "Results: `proved for all N (trees)` (only relations that hold on every tree were used, so it holds "
           "for chains too), `proved for all N (chains)` (it needs a chain-only relation, or the block "
           "structure of a chain), `proved for all sizes` (an N-independent matrix theory), followed by the "
           "condition it rests on if any (`1-dof joints only`); `misprint` "
           "(printed form refuted, ill-typed or with a counterexample; corrected form proved), split into "
           "*error in the paper* and *likely OCR damage*; `FAILED` (exit status 1). User errors exit with "
           "status 2.", "",
           "## The relations of the all-N algebra", "",
           "Generators are whole operators, typed as maps between the spaces s (spatial, 6 per link), j "
           "(joint, r_k per joint), f (nodal, 6 n_k per flexible link of n_k nodes), u (the flexible dofs, "
           "6 (n_k - 1) per link), 6 (one spatial vector), 1 (a column) and e (closure constraints); "
           "transpose is an anti-automorphism. Every rule and its transpose decrease in the order; the "
           "completion turns them into a confluent rewriting system. The same list, with generators and "
           "types, is [certificates/axioms-chain.txt](certificates/axioms-chain.txt).", ""]
    out += relations_markdown()
    out += ["", "## The printed loops and their readings", "",
            "A record about a printed recursion assumes the loop read as an operator equation (its "
            "*hypothesis*). Each reading is proved for every N from the loop itself, block by block: block k of "
            "the operator equation is the loop's line k (the first or last link separately), with the block "
            "relations of [certificates/axioms-blocks.txt](certificates/axioms-blocks.txt) (semigroup rule, "
            "psi(k+1,k) = phi(k+1,k) - L(k) H(k), L = phi G, ...). The loops, their equations and readings are "
            "that file's pinned list: the checker accepts no other hypothesis.", "",
            "| loop | as printed | read as | certificate |", "|---|---|---|---|"]
    from soagen.symbolic.engines.loops import LOOPS

    for lp in LOOPS:
        out.append(f"| {lp.id} | {_esc(lp.printed)} | `{lp.lhs} = {lp.rhs}` | "
                   f"[reading-{lp.id}](certificates/reading-{lp.id}.txt) |")
    out += ["", "## Names in the check expressions", ""] + NAMES + [""]
    for src, title, intro in PAPERS:
        out += [f"## {title}", "", intro, "",
                "| id | where | statement as printed | hypotheses | status |", "|---|---|---|---|---|"]
        for r in CATALOGUE:
            if r.source != src:
                continue
            hyp = r.hypotheses + ("; " if r.hypotheses and r.assume else "") + "; ".join(a[3] for a in r.assume)
            out.append(f"| {r.id} | {_esc(r.where)} | {_esc(r.printed)} | {_esc(hyp)} | "
                       f"{_status(r, outcomes[r.id])} |")
        out.append("")
    out += ["## Coverage of the seeds", "",
            "Every numbered operator statement of the seeds (and of docs/derivatives.md), with the records that "
            "check it or the reason it is not an identity.", "", "| paper | equations | records, or why none |", "|---|---|---|"]
    for paper, eqs, what in COVERAGE:
        cell = ", ".join(what) if isinstance(what, tuple) else _esc(what)
        out.append(f"| {paper} | {eqs} | {cell} |")
    return "\n".join(out) + "\n"


def misprints_markdown(outcomes: dict | None = None) -> str:
    outcomes = outcomes or outcomes_for_docs()
    out = ["# Misprints found by `soagen verify`", "",
           "<!-- generated from soagen/symbolic/evidence/catalogue.py by soagen.symbolic.evidence.report; do not edit -->", "",
           "For each entry the printed form is refuted: ill-typed (for every N: the operator types do not "
           "conform), or with a counterexample at the smallest chain length N where the normal forms differ "
           "and the residual of a random numeric instance there (relative Frobenius norm; seeded). The "
           "corrected form is proved, for every N where the record says so (with a certificate). The "
           "entries are split into **errors in the paper** and **likely OCR damage**; the evidence quotes the "
           "seed text. Closed-chain items found independently by numeric tests are in "
           "[misprints-closed-chain.md](misprints-closed-chain.md), those of the tree recursions, Appendix B "
           "and the Swain-Morris model in [misprints-trees-swain-morris.md](misprints-trees-swain-morris.md); "
           "they agree with the entries below where both list one.", ""]
    for kind, title in (("paper", "Errors in the paper"), ("ocr", "Likely OCR damage")):
        out += [f"## {title}", "", "| id | where | printed | refutation | corrected form | proved for | evidence |",
                "|---|---|---|---|---|---|---|"]
        for r in CATALOGUE:
            if not r.misprint or r.misprint_kind != kind:
                continue
            o = outcomes[r.id]
            out.append(f"| {r.id} | {_esc(r.where)} | {_esc(r.printed)} | {_esc(_short_ce(o.counterexample))} | "
                       f"{_esc(r.correction)} | {o.scope} | {_esc(r.evidence)} |")
        out.append("")
    out += ["## Also noted (not checked as identities)", "",
            "| where | printed | meant | remark |", "|---|---|---|---|"]
    for where, printed, meant, remark in OTHER_NOTES:
        out.append(f"| {_esc(where)} | {_esc(printed)} | {_esc(meant)} | {_esc(remark)} |")
    out += ["", "## Swain-Morris X_b^-1", "",
            "X_b is 6nm x 6 (n arms, m links), so for nm > 1 it has no inverse. (B11) and the printed C_p of "
            "(B9) need X_b X_b^-1 = I, a *right* inverse, which a tall matrix never has; a left inverse "
            "(pseudo-inverse) does not make them true (SM-B9, SM-B11: residual O(1) with X_b^-1 = pinv(X_b)). "
            "The proof layer shows the exact defect: the printed C differs from (B5) by "
            "Phi^T X^T G (I - X_b X_b^-1) dX_b V_b, G = M_q - M_q X_b M_p^-1 X_b^T M_q. With a square X_b "
            "(x = 6) the printed form holds numerically (residual ~1e-15, "
            "`tests/symbolic/test_catalogue.py::test_swain_morris_B9_holds_when_Xb_is_square`). What holds with "
            "no assumption is the corrected (B9): fold the base bias into C_a and C_p, "
            "C_a = Phi^T X^T (b + M_q dX Phi qd + M_q dX_b V_b), C_p = X_b^T (b + M_q dX Phi qd + M_q dX_b V_b) + b_b. "
            "(B7), (B8), (B10), (B12), (B13), (B14) and the matrix inversion lemma step hold as printed "
            "(after reading the OCR-damaged subscripts).", ""]
    return "\n".join(out)


def _short_ce(s: str) -> str:
    """Keep the counterexample line short: N, kind, residual (drop the long witness)."""
    if "normal forms differ" in s:
        head = s.split(";")[0]
        res = s.rsplit("residual", 1)[-1].strip()
        return f"{head}; numeric residual {res}"
    return s


def write(docs_dir: str = "docs") -> list[str]:
    from pathlib import Path

    d = Path(docs_dir)
    outcomes = outcomes_for_docs()
    files = {d / "identities.md": identities_markdown(outcomes), d / "misprints.md": misprints_markdown(outcomes)}
    for path, text in files.items():
        path.write_text(text)
    return [str(p) for p in files]


if __name__ == "__main__":  # python -m soagen.symbolic.evidence.report [docs_dir]
    import sys

    for p in write(*(sys.argv[1:2])):
        print("wrote", p)
