"""`soagen prove`: decide a statement a user types, for every chain length N if possible.

The statement (``lhs = rhs`` in the names of docs/identities.md, see
:mod:`soagen.symbolic.kernel.statement`) goes through, in order:

1. **typing** in the N-free algebra: a product or sum that does not conform makes the
   statement ``ill-typed`` (for every N, since the types do not depend on N);
2. the **N-free proof**: ``lhs - rhs`` reduced by the completed relations of the
   topology (chain, or tree: only the relations that hold on every tree; on a chain also
   the chain-shape relations such as S S^T S = S); 0 means ``proved-all-n``, and the
   reduction's certificate is re-checked by the independent checker before the answer;
3. an **exact counterexample**: the reduced normal form of ``lhs - rhs`` (equal to it on
   every instance of the relations, with cancelling large terms gone) is evaluated on
   random integer instances of the topology in exact arithmetic modulo a prime
   (:mod:`soagen.symbolic.kernel.exact`): chains with N = 1 up to one more than the longest word
   of the normal form (a word of k shifts vanishes for N <= k), for trees also random
   branching trees and two arms.  A nonzero value is an exact counterexample: ``refuted``,
   with N and the relative size of the difference against its own terms (in floating
   point, for information only).  Rounding can neither refute a true statement nor hide a
   false one;
4. the **per-N engine** (chains): block normal forms for N = 1..nmax; equal for every
   N means ``proved-up-to-n`` (true for those N; e.g. it needs the rigid-body shape of
   phi(k+1, k), which no relation states).

What none of these settles is ``undecided``: no exact counterexample up to the N searched,
no all-N proof, and (chains) the per-N engine cannot decide it either.  Exit codes of the
command: :data:`EXIT_CODES`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from soagen.symbolic.engines import nfree
from soagen.symbolic.kernel import exact, statement
from soagen.symbolic.kernel.blocks import IllTyped
from soagen.symbolic.kernel.rewriting import format_poly
from soagen.symbolic.kernel.status import ProveResult
from soagen.symbolic.models import instances

# result -> exit status of `soagen prove` (2 is a syntax error or an unknown name)
EXIT_CODES = {ProveResult.PROVED_ALL_N: 0, ProveResult.REFUTED: 1, ProveResult.ILL_TYPED: 1,
              ProveResult.PROVED_UP_TO_N: 3, ProveResult.UNDECIDED: 4}
# counterexample search: every N = 1..max(8, longest word + 1) up to 16, then N = longest word + 1
# itself if that is larger (a word of k shifts vanishes for N <= k), up to 48
N_SEARCH_MIN, N_SEARCH_ALL, N_SEARCH_MAX = 8, 16, 48
SEEDS = (1, 2)


@dataclass
class Verdict:
    statement: str
    result: ProveResult
    seconds: float
    n_max: int | None = None
    counterexample: dict | None = None
    certificate: str | None = None      # path written, if any
    certificate_text: str = ""
    topology: str = "chain"
    detail: str = ""                    # the reason, in words
    n_searched: int = 0                 # the counterexample search went up to this N

    def json(self) -> dict:
        return {"statement": self.statement, "result": self.result,
                "n_max": self.n_max if self.result == ProveResult.PROVED_UP_TO_N else None,
                "counterexample": self.counterexample if self.result == ProveResult.REFUTED else None,
                "certificate": self.certificate, "seconds": round(self.seconds, 4),
                "exit_code": self.exit_code}

    @property
    def proved(self) -> bool:
        return self.result in (ProveResult.PROVED_ALL_N, ProveResult.PROVED_UP_TO_N)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.result]


def decide(text: str, topology: str = "chain", nmax: int = 4, certificate_path=None) -> Verdict:
    """Decide `text`; raises :class:`~soagen.symbolic.kernel.statement.StatementError` for a
    statement that does not parse or names an unknown operator."""
    t0 = time.perf_counter()
    lhs, rhs = statement.parse(text)
    alg = nfree.algebra("chain")
    known = set(alg.namespace())
    for node in (lhs, rhs):
        _check_names(node, known)
    v = Verdict(text.strip(), ProveResult.UNDECIDED, 0.0, topology=topology)
    try:
        proof = nfree.prove_checks([(lhs, rhs)], (), "chain", topology)
        if not proof.proved:
            proof = _with_structure(lhs, rhs, topology) or proof
    except IllTyped as err:
        v.result, v.detail = ProveResult.ILL_TYPED, str(err)
        v.seconds = time.perf_counter() - t0
        return v
    check = proof.checks[0]
    if check.proved:
        _certify(v, proof, certificate_path)
        v.seconds = time.perf_counter() - t0
        return v
    if topology == "chain" and _by_blocks(v, lhs, rhs, certificate_path):
        v.seconds = time.perf_counter() - t0
        return v
    v.detail = "normal form " + format_poly(check.nf, alg.order, 4)
    if not proof.theory.complete:
        v.detail += f" (the completion stopped early: {proof.theory.completion.reason})"
    ce, v.n_searched = counterexample(check.nf, alg, topology)
    if ce is not None:
        v.result, v.counterexample = ProveResult.REFUTED, ce
    elif topology == "chain":
        n = _per_n(lhs, rhs, nmax)
        if n == nmax:
            v.result, v.n_max = ProveResult.PROVED_UP_TO_N, nmax
            v.detail += f"; not a consequence of the all-N relations, proved per N for N = 1..{nmax}"
        else:
            v.detail += (f"; no exact counterexample for N <= {v.n_searched}, and the block engine fails at "
                         f"N = {n + 1} (true only by something the relations do not state, e.g. the rigid-body "
                         "shape of phi(k+1, k)?)")
    else:
        v.detail += (f"; no exact counterexample on chains, trees and arms up to N = {v.n_searched}, and no all-N "
                     "proof with the tree relations")
    v.seconds = time.perf_counter() - t0
    return v


def _with_structure(lhs, rhs, topology: str):
    """An all-N proof with what the theory of the topology does not say (None if there is none):
    on a chain the chain's shape (S S^T S = S); then where B and E live and the block pattern of S
    (:data:`soagen.symbolic.engines.nfree.STRUCTURE`), with the relations of every tree first (a proof
    with them holds on chains too), and, for a statement without phi, psi, chi, that S S^T is a
    multiple of I in every block."""
    tops = ("tree", "chain") if topology == "chain" else ("tree",)
    tries = ([{"shape": True, "topology": "chain"}] if topology == "chain" else []) + \
        [{"structure": "ports", "topology": top} for top in tops] + [{"structure": "children", "topology": "tree"}]
    for kw in tries:
        try:
            proof = nfree.prove_checks([(lhs, rhs)], (), "chain", **kw)
        except nfree.NotApplicable:
            continue
        if proof.proved:
            return proof
    return None


def _check_names(node, known: set) -> None:
    if node[0] == "name" and node[1] not in known:
        names = ", ".join(sorted(known))
        raise statement.StatementError(f"unknown operator `{node[1]}` at column {node[2]} (known: {names})")
    for child in node[1:]:
        if isinstance(child, tuple):
            _check_names(child, known)


def _certify(v: Verdict, proof, path) -> None:
    """Write (if asked) and independently re-check the certificate of an all-N proof."""
    from soagen.symbolic.evidence import checker
    from soagen.symbolic.evidence.certificate import axioms_text, certificate_text

    text = certificate_text("statement", v.statement, proof)
    checker.check(text, checker.Axioms(axioms_text(nfree.algebra("chain"))))   # raises if it does not hold
    v.result, v.certificate_text = ProveResult.PROVED_ALL_N, text
    v.topology = proof.topology
    v.detail = f"{sum(len(c.trace) for c in proof.checks)} certificate terms, re-checked"
    used = sorted({rid.removesuffix("^T") for c in proof.checks for _, rid, _ in c.trace} & set(nfree.STRUCTURE_IDS)
                  | ({"shift-chain"} & {rid for c in proof.checks for _, rid, _ in c.trace}))
    if used:
        v.detail += "; with the block structure: " + ", ".join(used)
    _write(v, text, path)


def _by_blocks(v: Verdict, lhs, rhs, path) -> bool:
    """Prove a statement of block-sparse operators block by block (soagen.symbolic.engines.blockwise),
    with a certificate re-checked by the checker; False if it is not block-sparse or a block
    does not reduce."""
    from soagen.symbolic.engines.blockwise import (
        BlockProofError,
        World,
        prove_by_blocks,
    )
    from soagen.symbolic.engines.indexed import BlockStatementError
    from soagen.symbolic.evidence import checker
    from soagen.symbolic.evidence.certificate import (
        axioms_text,
        blocks_axioms_text,
        by_blocks_text,
    )

    a, b = statement.unparse(lhs), statement.unparse(rhs)
    world = World()
    try:
        typ = world.op_poly(f"({a}) - ({b})")[1]
        if typ and typ[0] not in ("s", "j") and typ[1] in ("s", "j"):      # a row of blocks: its transpose
            a, b = statement.unparse(("T", lhs)), statement.unparse(("T", rhs))
        cases = prove_by_blocks(world, a, b)
    except (BlockProofError, BlockStatementError):
        return False
    text = by_blocks_text("statement", v.statement, a, b, cases)
    checker.check(text, checker.Axioms(axioms_text(nfree.algebra("chain"))), checker.Blocks(blocks_axioms_text()))
    v.result, v.certificate_text, v.topology = ProveResult.PROVED_ALL_N, text, "chain"
    v.detail = (f"block by block ({len(cases)} cases, {sum(len(c.terms) for c in cases)} certificate terms, "
                "re-checked): the chain's block structure, which the operator relations do not capture")
    _write(v, text, path)
    return True


def _write(v: Verdict, text: str, path) -> None:
    if path:
        from pathlib import Path

        from soagen.errors import SoagenError
        try:
            Path(path).write_text(text)
        except OSError as err:
            raise SoagenError(f"{path}: cannot write the certificate ({err.strerror})") from None
        v.certificate = str(path)


def search_range(nf: dict) -> list:
    """The N of the counterexample search, in order: 1 .. max(8, longest word + 1) up to 16,
    then one more than the longest word of the normal form if that is larger (up to 48)."""
    top = max((len(w) for w in nf), default=0) + 1
    out = list(range(1, min(N_SEARCH_ALL, max(N_SEARCH_MIN, top)) + 1))
    return out + ([min(top, N_SEARCH_MAX)] if top > out[-1] else [])


def counterexample(nf: dict, alg, topology: str = "chain", seeds=SEEDS):
    """The smallest exact counterexample to ``nf = 0`` (a normal form of lhs - rhs modulo
    the relations of `topology`): ({'N', 'topology', 'seed', 'residual', 'exact'}, N searched)
    or (None, N searched)."""
    if not nf:
        return None, 0
    kinds = ("chain",) if topology == "chain" else ("chain", "tree", "arms")
    Ns = search_range(nf)
    n_top = Ns[-1]
    for N in Ns:
        for kind in kinds:
            if kind == "tree" and N < 3 or kind == "arms" and N < 2:
                continue
            for seed in seeds:
                try:
                    ns = instances.topology_instance(kind, N, seed=1000 * seed + N, exact_arithmetic=True)
                except ZeroDivisionError:           # D singular modulo the prime: another instance
                    continue
                if exact.is_zero(_dense(evaluate_poly(nf, ns, alg, exactly=True))):
                    continue
                floats = instances.topology_instance(kind, N, seed=1000 * seed + N)
                return {"N": N, "topology": kind, "seed": 1000 * seed + N,
                        "residual": float(f"{relative_size(nf, floats, alg):.3e}"),
                        "exact": f"nonzero modulo {exact.PRIME}"}, n_top
    return None, n_top


def evaluate_poly(p: dict, ns, alg, exactly: bool = False):
    """sum c w over the words of `p` (generator names, transposes by name) on an instance
    (`exactly`: an instance modulo the prime, the rational c as a residue)."""
    total = None
    for w, c in sorted(p.items()):
        c = Fraction(c)
        k = c.numerator * pow(c.denominator, -1, exact.PRIME) % exact.PRIME if exactly else float(c)
        term = _word(w, ns, alg) * k
        total = term if total is None else total + term
    return total


def relative_size(p: dict, ns, alg) -> float:
    """||sum c w|| / sum |c| ||w|| on a floating-point instance: the size of the difference
    against its own terms (1 when nothing cancels; about 1e-16 when the terms cancel)."""
    scale = sum(abs(float(c)) * float(np.linalg.norm(_dense(_word(w, ns, alg)))) for w, c in p.items())
    return float(np.linalg.norm(_dense(evaluate_poly(p, ns, alg)))) / scale if scale else 0.0


def _word(w, ns, alg):
    x = ns["I"]
    for g in w:
        x = x @ (ns[g] if g in ns else ns[alg.transpose_of[g]].T)
    return x


def _dense(x):
    return x.dense() if hasattr(x, "dense") else np.array([[x.c]])     # a multiple of I: its coefficient


def _per_n(lhs, rhs, nmax: int) -> int:
    """Largest n <= nmax with the statement proved by the block engine for N = 1..n."""
    from soagen.symbolic.models.chain import symbolic_chain_namespace

    for N in range(1, nmax + 1):
        ns = symbolic_chain_namespace(N)
        d = statement.evaluate(lhs, ns) - statement.evaluate(rhs, ns)
        if getattr(d, "nonzero_blocks", lambda: [1])():
            return N - 1
    return nmax
