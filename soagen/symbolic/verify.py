"""Run the identity catalogue: symbolic proofs for N = 1..nmax, counterexamples, numerics.

For each record of :mod:`~soagen.symbolic.catalogue`:

1. the printed checks are reduced to normal form for every chain length N (or once,
   for N-independent matrix theories);
2. if a printed check fails, the smallest failing N is the counterexample; a random
   numeric instance at that N gives its residual norm (or the dimension clash);
3. if the record is a known misprint, the corrected checks must be proved;
4. the valid form (printed or corrected) is cross-checked numerically.

Outcomes: ``proved``, ``misprint`` (printed refuted, correction proved),
``FAILED`` (a check that should hold does not, or a known misprint turned out true).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from soagen.symbolic import matrices, recursions
from soagen.symbolic.blocks import BM, I, IllTyped
from soagen.symbolic.catalogue import CATALOGUE, Identity
from soagen.symbolic.chain import random_chain_ops, symbolic_chain
from soagen.symbolic.ncpoly import format_poly


def blk2(A, B, C, D):
    """A 2 x 2 block operator from four 1 x 1 block operators."""
    return BM(A.field, [A.rdims[0], C.rdims[0]], [A.cdims[0], B.cdims[0]],
              [[A.b[0][0], B.b[0][0]], [C.b[0][0], D.b[0][0]]])


def vcat(A, B):
    """A 2 x 1 block operator from two 1 x 1 block operators."""
    return BM(A.field, [A.rdims[0], B.rdims[0]], [A.cdims[0]], [[A.b[0][0]], [B.b[0][0]]])


def chain_namespace(ops) -> dict:
    ns = ops.namespace()
    ns.update(recursions.bind(ops))
    ns.update(blk2=blk2, vcat=vcat, I=I)
    return ns


def theory_namespace(name: str, numeric: bool = False, seed: int = 0, sizes=None) -> dict:
    ns = matrices.build(name, numeric=numeric, seed=seed, sizes=sizes)
    ns.update(blk2=blk2, vcat=vcat)
    return ns


# -- evaluating checks -----------------------------------------------------------------
@dataclass
class CheckResult:
    ok: bool
    detail: str = ""       # symbolic witness / dimension clash
    residual: float = 0.0  # numeric


def _eval(expr: str, ns: dict):
    return eval(expr, {"__builtins__": {}}, ns)  # noqa: S307 - catalogue expressions are ours


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
                return CheckResult(False, f"{lhs} - ({rhs}) has block ({i},{j}) = {format_poly(x.terms, 4)}")
    except IllTyped as err:
        return CheckResult(False, f"dimensions do not conform: {err}")
    return CheckResult(True)


def check_numeric(checks, let, ns, tol: float = 1e-8) -> CheckResult:
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
    return CheckResult(worst < tol, "", worst)


# -- running one record ----------------------------------------------------------------
@dataclass
class Outcome:
    id: str
    source: str
    where: str
    nrange: str
    result: str                 # proved | misprint | FAILED
    seconds: float
    per_n: dict = field(default_factory=dict)        # N -> seconds (printed + corrected)
    counterexample: str = ""
    numeric: str = ""
    message: str = ""

    @property
    def failed(self) -> bool:
        return self.result == "FAILED"


_SYM_CACHE: dict[int, dict] = {}


def _sym_chain_ns(N: int) -> dict:
    if N not in _SYM_CACHE:
        _SYM_CACHE[N] = chain_namespace(symbolic_chain(N))
    return _SYM_CACHE[N]


def numeric_ns(rec: Identity, N: int, seed: int = 1):
    if rec.theory == "chain":
        return chain_namespace(random_chain_ops(N, seed))
    return theory_namespace(rec.theory, numeric=True, seed=seed)


def _chain_range(rec: Identity, nmax: int) -> list:
    return list(range(rec.nmin, nmax + 1)) if rec.theory == "chain" else [None]


def _symbolic_ns(rec: Identity, N):
    return _sym_chain_ns(N) if N is not None else theory_namespace(rec.theory)


def _first_failure(rec: Identity, Ns, per_n: dict):
    """Smallest N at which the printed checks fail: (N, detail) or None.  Uses the proof
    layer, or numbers when the printed form cannot be written there (symbolic_refutation)."""
    for N in Ns:
        t = time.perf_counter()
        if rec.symbolic_refutation:
            r = check_symbolic(rec.checks, rec.let, _symbolic_ns(rec, N))
        else:
            r = check_numeric(rec.checks, rec.let, numeric_ns(rec, N or 1))
        per_n[N] = time.perf_counter() - t
        if not r.ok:
            return N, r.detail
    return None


def _failure_beyond(rec: Identity, nmax: int):
    """A misprint not refuted for N <= nmax: the smallest larger N (<= 8) where numbers refute it."""
    if rec.theory != "chain":
        return None
    for N in range(nmax + 1, max(nmax, 8) + 1):
        r = check_numeric(rec.checks, rec.let, numeric_ns(rec, N))
        if not r.ok:
            return N, r
    return None


def _counterexample(rec: Identity, N, detail: str, out: "Outcome"):
    """Describe the refutation at N with a numeric instance; a symbolic refutation that the
    numbers do not confirm marks the outcome FAILED (a relation would be missing)."""
    num = check_numeric(rec.checks, rec.let, numeric_ns(rec, N or 1))
    where = f"N={N}" if N is not None else "N-independent"
    if detail.startswith("dimensions"):
        out.counterexample = f"{where}: {detail}"
        return
    how = "normal forms differ" if rec.symbolic_refutation else "refuted numerically only"
    if rec.symbolic_refutation and num.ok:
        out.result = "FAILED"
        out.message = "normal forms differ but a numeric instance satisfies the identity (incomplete rules?)"
    out.counterexample = (f"{where}: {how}; " + (detail + "; " if detail else "")
                          + f"random numeric instance at {where}: residual {num.residual:.3e}")


def _prove_corrected(rec: Identity, Ns, per_n: dict, out: "Outcome"):
    for N in Ns:
        t = time.perf_counter()
        r = check_symbolic(rec.corrected, rec.let, _symbolic_ns(rec, N))
        per_n[N] = per_n.get(N, 0.0) + time.perf_counter() - t
        if not r.ok:
            out.result, out.message = "FAILED", f"corrected form not proved at N={N}: {r.detail}"
            return
    out.result = "misprint"


def _numeric_check(rec: Identity, numeric_n, out: "Outcome"):
    """Residual of the valid form (printed, or corrected for a misprint) on random instances."""
    valid = rec.corrected if rec.misprint else rec.checks
    worst, notes = 0.0, []
    for N in (numeric_n if rec.theory == "chain" else (None,)):
        r = check_numeric(valid, rec.let, numeric_ns(rec, N or 1, seed=7))
        if not r.ok:
            notes.append(f"numeric check failed at N={N}: {r.detail or r.residual}")
            out.result = "FAILED"
        worst = max(worst, r.residual if r.residual == r.residual else 0.0)
    out.numeric = f"{worst:.1e}" + ("" if not notes else " (" + "; ".join(notes) + ")")


def run_record(rec: Identity, nmax: int = 4, numeric_n=(1, 3, 6)) -> Outcome:
    """Prove (or refute and correct) one catalogue record; see the module docstring."""
    t0 = time.perf_counter()
    Ns = _chain_range(rec, nmax)
    per_n: dict = {}
    nrange = "-" if Ns == [None] else (f"{Ns[0]}..{Ns[-1]}" if Ns else f"none (needs N >= {rec.nmin})")
    out = Outcome(rec.id, rec.source, rec.where, nrange, "proved", 0.0, per_n)

    fail = _first_failure(rec, Ns, per_n)
    if fail is not None:
        _counterexample(rec, fail[0], fail[1], out)
    elif rec.misprint:
        beyond = _failure_beyond(rec, nmax)
        if beyond is None:
            out.result, out.message = "FAILED", "marked as a misprint but the printed form holds"
        else:
            N, r = beyond
            fail = (N, r.detail)
            out.counterexample = (f"N={N} (beyond --nmax {nmax}): random numeric instance residual "
                                  f"{r.residual:.3e}" if not r.detail else f"N={N}: {r.detail}")
    if fail is not None and out.result != "FAILED":
        if rec.misprint:
            _prove_corrected(rec, Ns, per_n, out)
        else:
            out.result, out.message = "FAILED", "printed form refuted and no correction recorded"
    _numeric_check(rec, numeric_n, out)
    out.seconds = time.perf_counter() - t0
    return out


def select(only=None) -> list[Identity]:
    if not only:
        return list(CATALOGUE)
    ids = {r.id for r in CATALOGUE}
    unknown = [i for i in only if i not in ids]
    if unknown:
        from soagen.errors import SoagenError
        raise SoagenError(f"unknown identity id(s): {', '.join(unknown)} (see `soagen verify --list`)")
    return [r for r in CATALOGUE if r.id in set(only)]


def run(records, nmax: int = 4, progress=None) -> list[Outcome]:
    out = []
    for rec in records:
        out.append(run_record(rec, nmax))
        if progress:
            progress(rec)
    return out
