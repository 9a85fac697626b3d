"""The catalogue's statements with explicit block indices, proved for every N, and the readings
of the printed loops.

Each record below says what it proves and how, as the papers argue it: an operator lemma
from the N-free engine, the block of an operator (:func:`soagen.symbolic.engines.indexed.expand`), and
lemmas over block indices proved by induction (split off the last term of a sum, the
semigroup rule, psi(k+1, k) = phi(k+1, k) - L(k) H(k)).  :func:`prove_record` runs one and
:func:`prove_reading` proves the operator reading of one printed loop block by block; both
give the parts of a certificate (:mod:`soagen.symbolic.evidence.certificate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from soagen.symbolic.engines import loops as LP
from soagen.symbolic.engines import nfree
from soagen.symbolic.engines.blockwise import (
    BlockProofError,
    Lemma,
    World,
    find_terms,
    operator_space,
    prove_by_blocks,
    prove_lemma,
)
from soagen.symbolic.engines.indexed import SINGLE, Context, ix, parse_facts
from soagen.symbolic.kernel.rewriting import padd, ptranspose


def S(var, lo, hi, body) -> str:
    """The sum letter sum(var=lo..hi){body}."""
    return f"sum({var}={lo}..{hi}){{{body}}}"


@dataclass
class IndexClaim:
    """lhs = rhs between letters, for the indices satisfying `where`."""

    where: str
    lhs: str
    rhs: str
    hints: tuple = ()
    terms: list = field(default_factory=list)


@dataclass
class BlockClaim:
    """Block (row, col) of the operator `op` is `rhs` (letters); `via` an operator lemma
    op = X whose block is taken instead (X block-sparse)."""

    row: str
    col: str
    op: str
    rhs: str
    via: str = ""
    where: str = ""
    hints: tuple = ()
    terms: list = field(default_factory=list)


@dataclass
class BlocksClaim:
    """An operator equation proved block by block (`at_row`: block relations used at each row)."""

    lhs: str
    rhs: str
    at_row: tuple = ()
    cases: list = field(default_factory=list)


@dataclass
class OpLemma:
    """An operator equation proved by the N-free engine, with the record's hypotheses and the
    block lemmas named in `uses`; or, with `combine`, as a sum of earlier operator lemmas
    (and their transposes) times words, found by rewriting."""

    name: str
    lhs: str
    rhs: str
    uses: tuple = ()
    combine: tuple = ()
    terms: list = field(default_factory=list)      # a combination's terms
    proof: object = None                           # the N-free proof otherwise


@dataclass
class BlockRecordProof:
    """What a block record proves and how; filled in by :func:`prove_record`."""

    id: str
    loops: tuple = ()
    rename: dict = field(default_factory=dict)
    given: tuple = ()
    assume: tuple = ()                 # hypothesis ids (pinned: soagen.symbolic.engines.loops)
    block_lemmas: tuple = ()           # (name, lhs, rhs): operator equations proved block by block
    op_lemmas: tuple = ()              # OpLemma
    lemmas: tuple = ()                 # Lemma
    claims: tuple = ()
    # results
    block_cases: dict = field(default_factory=dict)     # name -> cases


MINV41 = "(I - H@Psi@L).T@Dinv@(I - H@Psi@L)"
WHERE_KM = "1 <= m; m+1 <= k; k <= N"
WHERE_KMN = "1 <= m; m <= n; n <= k; k <= N"


def _telescope(name, body, rhs_n, claim_lhs, claim_rhs, step=()):
    lem = Lemma(name, ("k", "m", "n"), WHERE_KMN, S("i", "m", "n-1", body), rhs_n, induction=("n", "up", "m"),
                base=(f"sum-empty[{S('i', 'm', 'm-1', body)}]",), step=(f"sum-last[{S('i', 'm', 'n-1', body)}]",) + step)
    return (lem,), (IndexClaim(WHERE_KM, claim_lhs, claim_rhs, (f"{name}(k,m,k)",)),)


F19 = "psi(k,i+1)*phi(i+1,m)-psi(k,i)*phi(i,m)"
F29 = "phi(k,i+1)*psi(i+1,m)-phi(k,i)*psi(i,m)"
F21 = "psi(k,i+1)*L(i)*H(i)*phi(i,m)"
F31 = "phi(k,i+1)*L(i)*H(i)*psi(i,m)"
XU = "psi(k,{j})^T*H(k)^T*Dinv(k)*H(k)*psi(k,{j})"          # the summand of (6.9b) at column {j}


def _lambda1():
    """Lemmas of Part II (6.9b)-(6.10): Upsilon(j) = sum_{k=j..N} psi^T(k,j) H^T D^-1 H psi(k,j),
    by induction down from j = N with the loop (6.10b) / framework (A.5)."""
    pull = Lemma("pull", ("j", "n"), "1 <= j; j <= N-1; j+1 <= n; n <= N+1",
                 f"psi(j+1,j)^T {S('k', 'n', 'N', XU.format(j='j+1'))} psi(j+1,j)", S("k", "n", "N", XU.format(j="j")),
                 induction=("n", "down", "N+1"),
                 base=(f"sum-empty[{S('k', 'N+1', 'N', XU.format(j='j+1'))}]", f"sum-empty[{S('k', 'N+1', 'N', XU.format(j='j'))}]"),
                 step=(f"sum-first[{S('k', 'n', 'N', XU.format(j='j+1'))}]", f"sum-first[{S('k', 'n', 'N', XU.format(j='j'))}]",
                       "psi-semi(n,j+1,j)", "psi-semi(n,j+1,j)^T"))
    ups = Lemma("ups", ("j",), "1 <= j; j <= N", "U(j)", S("k", "j", "N", XU.format(j="j")), induction=("j", "down", "N"),
                base=("loop-A.5.last(N)", f"sum-first[{S('k', 'N', 'N', XU.format(j='N'))}]",
                      f"sum-empty[{S('k', 'N+1', 'N', XU.format(j='N'))}]"),
                step=("loop-A.5.step(j)", "pull(j,j+1)", f"sum-first[{S('k', 'j', 'N', XU.format(j='j'))}]"))
    return pull, ups


RSUM = "{left}(k,j)*M(j)*phi(k,j)^T"
RSUM_PRINTED = "phi(k,j)*M(j)*{left}(k,j)^T"                  # the proof of Lemma A.1 as printed
XU_PRINTED = "psi(k,1)^T*H(k)^T*Dinv(k)*H(k)^T*psi(k,1)"      # the summand of (6.9b) as printed


def _lemma_a1(left, loop, state):
    """Lemma A.1's proof: r(k) = sum_{j=1..k} left(k,j) M(j) phi^T(k,j), by induction on k with
    the loop (a.44) and, to move the new step inside the sum, induction on its upper limit."""
    body_in = f"{left}(k-1,j)*M(j)*phi(k-1,j)^T"
    body = RSUM.format(left=left)
    pull = Lemma(f"pull-{left}", ("k", "n"), "2 <= k; k <= N; 0 <= n; n <= k-1",
                 f"{left}(k,k-1) {S('j', '1', 'n', body_in)} phi(k,k-1)^T", S("j", "1", "n", body),
                 induction=("n", "up", "0"),
                 base=(f"sum-empty[{S('j', '1', '0', body_in)}]", f"sum-empty[{S('j', '1', '0', body)}]"),
                 step=(f"sum-last[{S('j', '1', 'n', body_in)}]", f"sum-last[{S('j', '1', 'n', body)}]",
                       f"{left}-semi(k,k-1,n)", "phi-semi(k,k-1,n)^T"))
    rsum = Lemma(f"rsum-{left}", ("k",), "1 <= k; k <= N", f"{state}(k)", S("j", "1", "k", body),
                 induction=("k", "up", "1"),
                 base=(f"{loop}.first(1)", f"sum-last[{S('j', '1', '1', RSUM.format(left=left).replace('(k,', '(1,'))}]",
                       f"sum-empty[{S('j', '1', '0', RSUM.format(left=left).replace('(k,', '(1,'))}]"),
                 step=(f"{loop}.step(k)", f"pull-{left}(k,k-1)", f"sum-last[{S('j', '1', 'k', body)}]"))
    return pull, rsum


def _records() -> dict:
    out = {}
    # Part I (4.4): the first block of L, as the loop (4.6) defines it (the printed Phi(2,1) is refuted)
    out["I-4.4"] = BlockRecordProof("I-4.4", claims=(BlockClaim("1", "1", "L", "phi(2,1) P(1) H(1)^T Dinv(1)"),))
    # Part I (4.23): alpha(0) from the sweep (4.21b)-(4.22b)
    out["I-4.23"] = BlockRecordProof(
        "I-4.23", loops=("loop-4.22b", "loop-4.22b-zeta", "loop-4.22b-alpha"),
        given=("lam : s <- 1", "zeta : s <- 1", "alpha : s <- 1"),
        assume=("loop-4.22b", "loop-4.22b-zeta", "loop-4.22b-alpha"),
        op_lemmas=(OpLemma("sweep", f"J@{MINV41}@Tp + B.T@phi.T@a + a0", "B.T@alpha + a0"),),
        claims=(BlockClaim(".", ".", f"J@{MINV41}@Tp + B.T@phi.T@a + a0", "phi(1,0)^T alpha(1) + a0", via="sweep"),))
    # Part I (a.19)-(a.21), (a.29)-(a.31): telescoping sums
    lem, cl = _telescope("tel-a19", F19, "psi(k,n) phi(n,m) - psi(k,m)", S("i", "m", "k-1", F19), "phi(k,m) - psi(k,m)")
    out["I-a.20"] = BlockRecordProof("I-a.20", lemmas=lem, claims=cl)
    lem, cl = _telescope("tel-a29", F29, "phi(k,n) psi(n,m) - phi(k,m)", S("i", "m", "k-1", F29), "psi(k,m) - phi(k,m)")
    out["I-a.30"] = BlockRecordProof("I-a.30", lemmas=lem, claims=cl)
    lem, cl = _telescope("tel-a21", F21, "psi(k,n) phi(n,m) - psi(k,m)", "phi(k,m) - psi(k,m)", S("i", "m", "k-1", F21),
                         step=("psi-semi(k,n,n-1)", "phi-semi(n,n-1,m)"))
    out["I-a.21"] = BlockRecordProof("I-a.21", lemmas=lem, claims=cl)
    lem, cl = _telescope("tel-a31", F31, "phi(k,m) - phi(k,n) psi(n,m)", "phi(k,m) - psi(k,m)", S("i", "m", "k-1", F31),
                         step=("phi-semi(k,n,n-1)", "psi-semi(n,n-1,m)"))
    out["I-a.31"] = BlockRecordProof("I-a.31", lemmas=lem, claims=cl)
    # Part I, proof of Lemma A.1 (corrected): the sum with chi on the left; with the psi of (4.7)
    # r = P is symmetric and the printed sum (its transpose) holds too
    chi = _lemma_a1("chi", "lemma-A1-chi", "r")
    psi = _lemma_a1("psi", "lemma-A1", "rp")
    rP = Lemma("rP", ("k",), "1 <= k; k <= N", "rp(k)", "P(k)", induction=("k", "up", "1"),
               base=("lemma-A1.first(1)", "riccati-tip"), step=("lemma-A1.step(k)", "riccati(k)"))
    out["I-a.45-proof"] = BlockRecordProof(
        "I-a.45-proof", loops=("lemma-A1-chi", "lemma-A1"), rename={"lemma-A1": "rp"},
        lemmas=chi + psi + (rP,),
        claims=(IndexClaim("1 <= k; k <= N", "r(k)", S("j", "1", "k", RSUM.format(left="chi")), ("rsum-chi(k)",)),
                IndexClaim("1 <= k; k <= N", "rp(k)", S("j", "1", "k", RSUM_PRINTED.format(left="psi")),
                           ("rsum-psi(k)^T", "rP(k)", "rP(k)^T"))))
    # Part II (6.9) (corrected) and (6.10)
    lam1 = S("k", "1", "N", XU.format(j="1"))
    out["II-6.10"] = BlockRecordProof("II-6.10", loops=("loop-A.5",), lemmas=_lambda1(),
                                      claims=(IndexClaim("", "U(1)", lam1, ("ups(1)",)),))
    out["II-6.9"] = BlockRecordProof(
        "II-6.9", loops=("loop-A.5",), block_lemmas=(("tip", "Epsi.T@U@B", "0"),),
        op_lemmas=(OpLemma("ii-6.7", f"J@{MINV41}@J.T", "B.T@psi.T@H.T@Dinv@H@psi@B"),
                   OpLemma("lemma5", "psi.T@H.T@Dinv@H@psi", "U + psi_t.T@U + U@psi_t"),
                   OpLemma("tip-psi", "B.T@psi_t.T@U@B", "0", uses=("tip",)),
                   OpLemma("via-U", f"J@{MINV41}@J.T", "B.T@U@B", combine=("ii-6.7", "lemma5", "tip-psi"))),
        lemmas=_lambda1(),
        claims=(BlockClaim(".", ".", f"J@{MINV41}@J.T", f"phi(1,0)^T {lam1} phi(1,0)", via="via-U", hints=("ups(1)",)),))
    # framework (A.3) with the Upsilon of the recursion (A.5)
    out["FW-A.3"] = BlockRecordProof("FW-A.3", loops=("loop-A.5",), claims=(BlocksClaim("H.T@Dinv@H", "U - Epsi.T@U@Epsi"),))
    # framework Section 4: B C = E_phi from B_k C_k = phi(k, k-1) (B block diagonal, C on the first subdiagonal)
    out["FW-4.BC"] = BlockRecordProof("FW-4.BC", claims=(BlocksClaim("Bf@Cf", "Ephi", at_row=("BC",)),))
    return out


RECORDS = _records()


def prove_record(rid: str) -> BlockRecordProof:
    """Prove a block record for every N (raises BlockProofError if a step fails)."""
    pr = _records()[rid]                     # fresh: proving fills in the terms
    world = World(pr.loops, pr.rename)
    hyps = tuple(LP.HYPOTHESES[h] for h in pr.assume)
    blocks = {}
    for name, lhs, rhs in pr.block_lemmas:
        pr.block_cases[name] = prove_by_blocks(world, lhs, rhs, pr.given)
        blocks[name] = (name, lhs, rhs, "proved block by block in this certificate")
    done = {}
    for op in pr.op_lemmas:
        if op.combine:
            inst = {}
            for n in op.combine:
                inst[n] = done[n]
                inst[n + "^T"] = ptranspose(done[n], world.transpose_of)
            target, _ = world.op_poly(f"({op.lhs}) - ({op.rhs})", pr.given)
            op.terms = find_terms(target, {k: v for k, v in inst.items() if v})
        else:
            use = hyps + tuple(blocks[n] for n in op.uses)
            for top in ("tree", "chain"):
                op.proof = nfree.prove_checks([(op.lhs, op.rhs)], (), "chain", top, pr.given, use)
                if op.proof.proved:
                    break
            else:
                raise BlockProofError(f"{rid}: the operator lemma {op.name} is not proved")
        done[op.name] = world.op_poly(f"({op.lhs}) - ({op.rhs})", pr.given)[0]
    for lem in pr.lemmas:
        prove_lemma(world, lem)
    L = world.letters
    for cl in pr.claims:
        if isinstance(cl, IndexClaim):
            ctx = Context(parse_facts(cl.where))
            cl.terms = world.terms(padd(L.poly(cl.lhs), L.poly(cl.rhs), -1), cl.hints, ctx)
        elif isinstance(cl, BlockClaim):
            ctx = Context(parse_facts(cl.where))
            src = {op.name: op.rhs for op in pr.op_lemmas}[cl.via] if cl.via else cl.op
            poly, _ = world.op_poly(src, pr.given)
            row = SINGLE if cl.row == "." else ix(cl.row)
            col = SINGLE if cl.col == "." else ix(cl.col)
            blk = world.expand(world.primitive(poly), row, col, ctx)
            cl.terms = world.terms(padd(blk, L.poly(cl.rhs), -1), cl.hints, ctx)
        else:
            cl.cases = prove_by_blocks(world, cl.lhs, cl.rhs, pr.given, cl.at_row)
    return pr


def reading_given(lp: LP.Loop) -> tuple:
    """The operator unknowns of a loop's reading: its state and the states it reads."""
    gens = nfree.algebra("chain").gens
    out = []
    for t in (lp.family,) + lp.inputs:
        f = LP.input_family(t)
        if f.name not in gens:
            out.append(f"{f.name} : {operator_space(f.cod)} <- {operator_space(f.dom)}")
    return tuple(dict.fromkeys(out))


def prove_reading(loop_id: str) -> list:
    """The cases of the reading of a printed loop (its operator equation) proved block by block."""
    lp = LP.BY_ID[loop_id]
    return prove_by_blocks(World([loop_id]), lp.lhs, lp.rhs, reading_given(lp))
