"""Run the identity catalogue: all-N proofs, per-N cross-checks, counterexamples, numerics.

For each record of :mod:`~soagen.symbolic.evidence.catalogue`, with the *valid form* being the
printed checks, or the corrected ones for a recorded misprint:

1. **all N**: the N-free engine (:mod:`soagen.symbolic.engines.nfree`) proves the valid form
   with the relations that hold on every tree, else with those of chains; a statement
   with block indices is proved by induction over the index
   (:mod:`soagen.symbolic.evidence.block_records`); the proof yields a certificate
   (:mod:`soagen.symbolic.evidence.certificate`);
2. **per N**: the block engine proves the valid form for N = nmin..nmax, a cross-check
   of the all-N proof (they must agree);
3. **refutation** of a misprint's printed form: ill-typed for every N (the N-free
   typing), or a counterexample: the smallest N where the printed form fails, with the
   residual of a random numeric instance;
4. **numbers**: the valid form on random instances (chains; trees and several arms when
   it was proved with the tree relations; matrix theories), with a record's unknowns
   solved from its hypotheses.

Outcomes: ``proved`` (scope: all N on trees / on chains, all sizes for an N-independent
theory, or N = 1..k only; with the condition it rests on, if any), ``misprint`` (printed
refuted, correction proved), ``FAILED`` (a check that should hold does not, a recorded
misprint turned out true, the engines disagree, or numbers contradict a proof).
:func:`prove_readings` proves, for every N, the operator reading of every printed loop
the records assume (:mod:`soagen.symbolic.engines.loops`).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from soagen.symbolic.engines import matrices, nfree
from soagen.symbolic.engines.blockwise import BlockProofError
from soagen.symbolic.engines.indexed import BlockStatementError
from soagen.symbolic.engines.loops import CONDITION_SCOPE, LOOPS
from soagen.symbolic.evidence import block_records
from soagen.symbolic.evidence.catalogue import CATALOGUE, IdentityRecord
from soagen.symbolic.kernel.blocks import IllTyped, blk2, vcat
from soagen.symbolic.kernel.rewriting import format_poly
from soagen.symbolic.kernel.statement import catalogue_expr, evaluate
from soagen.symbolic.kernel.status import AllNStatus, RecordResult
from soagen.symbolic.models import instances
from soagen.symbolic.models.block_state import BlockRunError
from soagen.symbolic.models.chain import (
    chain_namespace,
    random_chain_ops,
    symbolic_chain_namespace,
)
from soagen.tolerances import IDENTITY_RESIDUAL


def theory_namespace(name: str, seed: int = 0, sizes=None) -> dict:
    ns = matrices.build(name, seed=seed, sizes=sizes)
    ns.update(blk2=blk2, vcat=vcat)
    return ns


# -- evaluating checks -----------------------------------------------------------------
@dataclass
class CheckResult:
    ok: bool
    detail: str = ""       # symbolic witness / dimension clash
    residual: float = 0.0  # numeric


def _eval(expr: str, ns: dict):
    """A catalogue expression over a namespace, read by the statement parser (no `eval`)."""
    return evaluate(catalogue_expr(expr), ns)


def _with_let(ns: dict, let) -> dict:
    ns = dict(ns)
    for name, expr in let:
        ns[name] = _eval(expr, ns)
    return ns


def check_symbolic(checks, let, ns) -> CheckResult:
    """All checks hold in the proof layer (normal forms equal)?"""
    try:
        ns = _with_let(ns, let)
        for lhs, rhs in checks:
            d = _eval(lhs, ns) - _eval(rhs, ns)
            bad = d.nonzero_blocks()
            if bad:
                i, j, x = bad[0]
                return CheckResult(False, f"{lhs} - ({rhs}) has block ({i},{j}) = {format_poly(x.terms, x.th.order, 4)}")
    except IllTyped as err:
        return CheckResult(False, f"dimensions do not conform: {err}")
    except BlockRunError as err:
        return CheckResult(False, f"the recursion does not run on the blocks: {err}")
    return CheckResult(True)


def check_numeric(checks, let, ns, tol: float = IDENTITY_RESIDUAL) -> CheckResult:
    """Relative residual max ||lhs - rhs|| / max(1, ||lhs||) over the checks."""
    try:
        ns = _with_let(ns, let)
        worst = 0.0
        for lhs, rhs in checks:
            L, Rv = _eval(lhs, ns), _eval(rhs, ns)
            d = (L - Rv).dense()
            scale = L.dense() if hasattr(L, "dense") else Rv.dense()
            res = float(np.linalg.norm(d)) / max(1.0, float(np.linalg.norm(scale)))
            worst = max(worst, res)
    except (IllTyped, ValueError) as err:
        return CheckResult(False, f"dimensions do not conform: {err}", float("nan"))
    except BlockRunError as err:
        return CheckResult(False, f"the recursion does not run on the blocks: {err}", float("nan"))
    return CheckResult(worst < tol, "", worst)


# -- running one record ----------------------------------------------------------------
@dataclass
class Outcome:
    id: str
    source: str
    where: str
    nrange: str                 # per-N range of the block engine ("-" if none)
    result: RecordResult
    seconds: float
    scope: str = ""             # all N (trees) | all N (chains) | all sizes | N = a..b
    topology: str = ""          # tree | chain | "" (the relations of the all-N proof)
    per_n: dict = field(default_factory=dict)        # N -> seconds of the block engine
    seconds_all_n: float = 0.0
    counterexample: str = ""
    numeric: str = ""
    message: str = ""
    misprint_kind: str = ""
    proof: object = None        # the nfree.Proof of the valid form (all-N), if any
    rules: int = 0              # size of the completed rewriting system used
    certificate: str = ""       # certificate text (when asked for)

    @property
    def failed(self) -> bool:
        return self.result == RecordResult.FAILED

    @property
    def all_n(self) -> bool:
        return self.proof is not None


def numeric_ns(rec: IdentityRecord, N: int, seed: int = 1):
    """A seeded random instance for a record's theory (built once per theory, N and seed;
    a fresh namespace over operators that are never changed in place)."""
    return dict(_numeric_ns(rec.theory, N, seed))


@functools.lru_cache(maxsize=64)
def _numeric_ns(theory: str, N: int, seed: int) -> MappingProxyType:
    if theory == "chain":
        return MappingProxyType(chain_namespace(random_chain_ops(N, seed)))
    return MappingProxyType(theory_namespace(theory, seed=seed))


def _chain_range(rec: IdentityRecord, nmax: int) -> list:
    return list(range(rec.nmin, nmax + 1)) if rec.theory == "chain" else []


def operator_checks(rec: IdentityRecord, corrected: bool):
    """(checks, let) of the printed or corrected form for the N-free engine."""
    op = rec.operator_corrected if corrected else rec.operator_form
    if op:
        return op, (rec.operator_let if rec.operator_let is not None else rec.let)
    return (rec.corrected if corrected else rec.checks), rec.let


@dataclass
class AllN:
    """The N-free verdict on one form of a record."""

    status: AllNStatus
    proof: object = None
    detail: str = ""


def prove_for_all_n(checks, let, theory: str, given=(), assume=(), traced: bool = True):
    """The N-free proof of `checks`: with the tree relations first, then the chain ones (a
    matrix theory has only its own); the last attempt when neither proves them."""
    for top in ("tree", "chain") if theory == "chain" else ("chain",):
        pr = nfree.prove_checks(checks, let, theory, top, given, assume, traced=traced)
        if pr.proved:
            break
    return pr


def all_n_scope(rec: IdentityRecord, proof) -> str:
    """What an all-N proof of `rec` covers: 'all N (trees)', 'all N (chains)' or 'all sizes'."""
    return f"all N ({proof.topology}s)" if rec.theory == "chain" else "all sizes"


def condition_scope(rec: IdentityRecord, proof) -> str:
    """The conditions an all-N proof rests on, as they are printed with its scope
    (', 1-dof joints only'), or ''."""
    used = proof.theory.relation_ids
    return "".join(f", {CONDITION_SCOPE[rid]}" for rid, *_ in rec.assume if rid in CONDITION_SCOPE and rid in used)


def prove_all_n(rec: IdentityRecord, corrected: bool, traced: bool = True) -> AllN:
    """Prove a form of `rec` for every N (:func:`prove_for_all_n`)."""
    checks, let = operator_checks(rec, corrected)
    if not checks:
        return AllN(AllNStatus.NOT_APPLICABLE, detail="no such form")
    try:
        last = prove_for_all_n(checks, let, rec.theory, rec.given, rec.assume, traced)
    except IllTyped as err:
        return AllN(AllNStatus.ILL_TYPED, detail=str(err))
    except nfree.NotApplicable as err:
        return AllN(AllNStatus.NOT_APPLICABLE, detail=f"block-level statement ({err.name} has no N-free form)")
    if last.proved:
        return AllN(AllNStatus.PROVED, last)
    bad = next(c for c in last.checks if not c.proved)
    where = f" block {bad.block}" if bad.block else ""
    stopped = "" if last.theory.complete else f" (the completion stopped early: {last.theory.completion.reason})"
    return AllN(AllNStatus.NONZERO, last, f"{bad.lhs} - ({bad.rhs}){where} reduces to "
                                 f"{format_poly(bad.nf, last.algebra.order, 3)}{stopped}")


def valid_checks(rec: IdentityRecord) -> tuple:
    """The checks the per-N engine proves for a record: its valid form (the corrected one of a
    misprint) and the checks of the code that computes it (``code``)."""
    return (rec.corrected if rec.misprint else rec.checks) + rec.code


def _first_failure(rec: IdentityRecord, Ns, per_n: dict):
    """Smallest N at which the printed checks fail: (N, detail) or None.  Uses the block
    engine, or numbers when the printed form cannot be written there (symbolic_refutation)."""
    for N in Ns:
        t = time.perf_counter()
        if rec.symbolic_refutation:
            r = check_symbolic(rec.checks, rec.let, symbolic_chain_namespace(N))
        else:
            r = check_numeric(rec.checks, rec.let, numeric_ns(rec, N))
        per_n[N] = per_n.get(N, 0.0) + time.perf_counter() - t
        if not r.ok:
            return N, r.detail
    return None


def _failure_beyond(rec: IdentityRecord, nmax: int):
    """A misprint not refuted for N <= nmax: the smallest larger N (<= 8) where numbers refute it."""
    for N in range(max(nmax + 1, rec.nmin), max(nmax, 8) + 1):
        r = check_numeric(rec.checks, rec.let, numeric_ns(rec, N))
        if not r.ok:
            return N, r
    return None


def _refute_printed(rec: IdentityRecord, nmax: int, per_n: dict, out: Outcome) -> None:
    """Refute a misprint's printed form: ill-typed for every N, or a counterexample."""
    printed = prove_all_n(rec, corrected=False, traced=False)
    if printed.status == AllNStatus.ILL_TYPED:
        every = "N" if rec.theory == "chain" else "size"
        out.counterexample = f"ill-typed for every {every}: {printed.detail}"
        return
    if printed.status == AllNStatus.PROVED:
        out.result, out.message = RecordResult.FAILED, "marked as a misprint but the printed form holds for every N"
        return
    if rec.theory != "chain":
        num = check_numeric(rec.checks, rec.let, numeric_ns(rec, 1))
        if num.ok:
            out.result, out.message = RecordResult.FAILED, "marked as a misprint but a numeric instance satisfies the printed form"
        else:
            out.counterexample = (f"N-independent: {num.detail}" if num.detail else
                                  f"N-independent: random numeric instance residual {num.residual:.3e}")
        return
    fail = _first_failure(rec, _chain_range(rec, nmax), per_n)
    if fail is None:
        beyond = _failure_beyond(rec, nmax)
        if beyond is None:
            out.result, out.message = RecordResult.FAILED, "marked as a misprint but the printed form holds up to N = 8"
            return
        N, r = beyond
        out.counterexample = (f"N={N}: {r.detail}" if r.detail else
                              f"N={N} (beyond --nmax {nmax}): random numeric instance residual {r.residual:.3e}")
        return
    N, detail = fail
    if detail.startswith("dimensions"):
        out.counterexample = f"N={N}: {detail}"
        return
    num = check_numeric(rec.checks, rec.let, numeric_ns(rec, N))
    how = "normal forms differ" if rec.symbolic_refutation else "refuted numerically only"
    if rec.symbolic_refutation and num.ok:
        out.result = RecordResult.FAILED
        out.message = "normal forms differ but a numeric instance satisfies the identity (incomplete rules?)"
    out.counterexample = (f"N={N}: {how}; " + (detail + "; " if detail else "")
                          + f"random numeric instance at N={N}: residual {num.residual:.3e}")


def _numeric_check(rec: IdentityRecord, numeric_n, out: Outcome) -> None:
    """Residual of the valid form on random instances: block checks on chains (N >= nmin);
    the operator form on chains, trees and arms when it was proved with the tree relations."""
    valid = valid_checks(rec)
    runs = []                   # (where, CheckResult)
    if rec.theory == "chain":
        for N in [n for n in numeric_n if n >= rec.nmin]:
            runs.append((f" at N={N}", check_numeric(valid, rec.let, numeric_ns(rec, N, seed=7))))
        if out.proof is not None and not isinstance(out.proof, block_records.BlockRecordProof):
            checks, let = operator_checks(rec, rec.misprint)
            kinds = ("chain", "tree", "arms") if out.topology == "tree" else ("chain",)
            # unknowns are found by probing: keep matrix unknowns (Lemma A.1's r) on small instances
            sizes = (2, 3) if any(g.split("<-")[1].split()[0] != "1" for g in rec.given) else (3, 6)
            for kind in kinds:
                for n in sizes:
                    ns = instances.solve_unknowns(rec.given, rec.assume, instances.topology_instance(kind, n, seed=n + 11))
                    runs.append((f" on a {kind} of {n} links", check_numeric(checks, let, ns)))
    else:
        runs.append(("", check_numeric(valid, rec.let, numeric_ns(rec, 1, seed=7))))
    notes = [f"numeric check failed{where}: {r.detail or r.residual}" for where, r in runs if not r.ok]
    worst = max((r.residual for _, r in runs if r.residual == r.residual), default=0.0)   # NaN: dimensions clash
    if notes:
        out.result = RecordResult.FAILED
    out.numeric = f"{worst:.1e}" + ("" if not notes else " (" + "; ".join(notes) + ")")


def run_record(rec: IdentityRecord, nmax: int = 4, numeric_n=(1, 3, 6), certificates: bool = False) -> Outcome:
    """Prove (or refute and correct) one catalogue record; see the module docstring."""
    t0 = time.perf_counter()
    Ns = _chain_range(rec, nmax)
    per_n: dict = {}
    nrange = "-" if not Ns else f"{Ns[0]}..{Ns[-1]}"
    out = Outcome(rec.id, rec.source, rec.where, nrange, RecordResult.PROVED, 0.0, per_n=per_n,
                  misprint_kind=rec.misprint_kind)
    # 1. the valid form for every N (a block record by its block-level proof: its statement may be a
    #    relation of the algebra, FW-4.BC's B C = E_phi, which the N-free engine would only restate)
    t = time.perf_counter()
    alln = AllN(AllNStatus.NOT_APPLICABLE) if rec.id in block_records.RECORDS else prove_all_n(rec, corrected=rec.misprint,
                                                                          traced=certificates)
    out.seconds_all_n = time.perf_counter() - t
    if alln.status == AllNStatus.ILL_TYPED:
        out.result, out.message = RecordResult.FAILED, f"the valid form is ill-typed: {alln.detail}"
    elif alln.status == AllNStatus.PROVED:
        out.proof, out.rules = alln.proof, alln.proof.theory.size
        out.topology = alln.proof.topology if rec.theory == "chain" else ""
        out.scope = all_n_scope(rec, alln.proof) + condition_scope(rec, alln.proof)
    elif alln.status == AllNStatus.NONZERO:
        out.message = f"not reduced to 0 by the all-N relations: {alln.detail}"
    elif rec.id in block_records.RECORDS:               # block indices: the index-level proof
        try:
            out.proof = block_records.prove_record(rec.id)
            out.topology, out.scope = "chain", "all N (chains)"
        except (BlockProofError, BlockStatementError) as err:
            out.message = f"the block-level proof fails: {err}"
        out.seconds_all_n = time.perf_counter() - t
    # 2. the valid form per N (cross-check, or the proof itself), and the code that computes it
    valid = valid_checks(rec)
    for N in Ns:
        t = time.perf_counter()
        r = check_symbolic(valid, rec.let, symbolic_chain_namespace(N))
        per_n[N] = per_n.get(N, 0.0) + time.perf_counter() - t
        if not r.ok:
            what = "the all-N proof and the per-N engine disagree" if out.proof else "not proved"
            out.result, out.message = RecordResult.FAILED, f"{what} at N={N}: {r.detail}"
            break
    if out.result != RecordResult.FAILED and not out.scope:
        if not Ns:
            out.result = RecordResult.FAILED
            out.message = (out.message + "; " if out.message else "") + "no engine proves it"
        else:
            out.scope = f"N = {nrange}"
    # 3. the printed form of a misprint must be refuted
    if rec.misprint and out.result != RecordResult.FAILED:
        _refute_printed(rec, nmax, per_n, out)
        if out.result != RecordResult.FAILED:
            out.result = RecordResult.MISPRINT
    # 4. numbers
    _numeric_check(rec, numeric_n, out)
    if certificates and out.proof is not None and out.result != RecordResult.FAILED:
        from soagen.symbolic.evidence.certificate import (
            block_record_text,
            certificate_text,
        )

        if isinstance(out.proof, block_records.BlockRecordProof):
            out.certificate = block_record_text(rec.id, rec.where, out.proof)
        else:
            _, let = operator_checks(rec, rec.misprint)
            out.certificate = certificate_text(rec.id, rec.where, out.proof, let, rec.assume)
    out.seconds = time.perf_counter() - t0
    return out


@dataclass
class Reading:
    """The reading of one printed loop (its operator equation), proved block by block."""

    id: str
    cases: int = 0
    terms: int = 0
    seconds: float = 0.0
    certificate: str = ""
    error: str = ""

    @property
    def proved(self) -> bool:
        return not self.error


def prove_readings(certificates: bool = False) -> list[Reading]:
    """Prove the operator reading of every printed loop of :data:`soagen.symbolic.engines.loops.LOOPS`
    for every N, block by block from the loop's own equations."""
    from soagen.symbolic.evidence.certificate import reading_text

    out = []
    for lp in LOOPS:
        t = time.perf_counter()
        r = Reading(lp.id)
        try:
            cases = block_records.prove_reading(lp.id)
            r.cases, r.terms = len(cases), sum(len(c.terms) for c in cases)
            if certificates:
                r.certificate = reading_text(lp.id, cases)
        except (BlockProofError, BlockStatementError) as err:
            r.error = str(err)
        r.seconds = time.perf_counter() - t
        out.append(r)
    return out


def select(only=None) -> list[IdentityRecord]:
    if not only:
        return list(CATALOGUE)
    ids = {r.id for r in CATALOGUE}
    unknown = [i for i in only if i not in ids]
    if unknown:
        from soagen.errors import SoagenError
        raise SoagenError(f"unknown identity id(s): {', '.join(unknown)} (see `soagen verify --list`)")
    return [r for r in CATALOGUE if r.id in set(only)]


def run(records, nmax: int = 4, progress=None, certificates: bool = False) -> list[Outcome]:
    out = []
    for rec in records:
        out.append(run_record(rec, nmax, certificates=certificates))
        if progress:
            progress(rec)
    return out
