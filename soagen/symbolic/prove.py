"""`soagen prove`: decide a statement a user types, for every chain length N if possible.

The statement (``lhs = rhs`` in the names of docs/identities.md, see
:mod:`soagen.symbolic.statement`) goes through, in order:

1. **typing** in the N-free algebra: a product or sum that does not conform makes the
   statement ``ill-typed`` (for every N, since the types do not depend on N);
2. the **N-free proof**: ``lhs - rhs`` reduced by the completed relations of the
   topology (chain, or tree: only the relations that hold on every tree); 0 means
   ``proved-all-n``, and the reduction's certificate is re-checked by the independent
   checker before the answer is given;
3. a **numeric counterexample**: random rigid-body instances of the topology (chains
   N = 1..8; for trees also random branching trees, and two arms); a relative residual
   above :data:`~soagen.tolerances.ROBOT_RESIDUAL` means ``refuted``, with the smallest N and the residual;
4. the **per-N engine** (chains): block normal forms for N = 1..nmax; equal for every
   N means ``proved-up-to-n`` (true, but not a consequence of the all-N relations, e.g.
   it needs the shape of S on a chain).

What none of these settles is ``undecided`` (no known statement of the papers is).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from soagen.symbolic import instances, nfree, statement
from soagen.symbolic.blocks import IllTyped
from soagen.symbolic.rewriting import format_poly
from soagen.tolerances import ROBOT_RESIDUAL


@dataclass
class Verdict:
    statement: str
    result: str                 # proved-all-n | proved-up-to-n | refuted | ill-typed | undecided
    seconds: float
    n_max: int | None = None
    counterexample: dict | None = None
    certificate: str | None = None      # path written, if any
    certificate_text: str = ""
    topology: str = "chain"
    detail: str = ""                    # the reason, in words

    def json(self) -> dict:
        return {"statement": self.statement, "result": self.result,
                "n_max": self.n_max if self.result == "proved-up-to-n" else None,
                "counterexample": self.counterexample if self.result == "refuted" else None,
                "certificate": self.certificate, "seconds": round(self.seconds, 4)}

    @property
    def proved(self) -> bool:
        return self.result in ("proved-all-n", "proved-up-to-n")


def decide(text: str, topology: str = "chain", nmax: int = 4, certificate_path=None) -> Verdict:
    """Decide `text`; raises :class:`~soagen.symbolic.statement.StatementError` for a
    statement that does not parse or names an unknown operator."""
    t0 = time.perf_counter()
    lhs, rhs = statement.parse(text)
    alg = nfree.algebra("chain")
    known = set(alg.namespace())
    for node in (lhs, rhs):
        _check_names(node, known)
    v = Verdict(text.strip(), "undecided", 0.0, topology=topology)
    try:
        proof = nfree.prove_checks([(lhs, rhs)], (), "chain", topology)
    except IllTyped as err:
        v.result, v.detail = "ill-typed", str(err)
        v.seconds = time.perf_counter() - t0
        return v
    check = proof.checks[0]
    if check.typ is None and check.poly:
        v.result, v.detail = "refuted", "a multiple of the identity that is not zero"
        v.counterexample = {"N": 1, "residual": 1.0}
    elif check.proved:
        _certify(v, proof, certificate_path)
    else:
        v.detail = "normal form " + format_poly(check.nf, alg.order, 4)
        if not proof.theory.complete:
            v.detail += f" (the completion stopped early: {proof.theory.completion.reason})"
        ce = counterexample(lhs, rhs, topology)
        if ce is not None:
            v.result, v.counterexample = "refuted", ce
        elif topology == "chain":
            n = _per_n(lhs, rhs, nmax)
            if n == nmax:
                v.result, v.n_max = "proved-up-to-n", nmax
                v.detail += f"; not a consequence of the all-N relations, proved per N for N = 1..{nmax}"
            else:
                v.detail += (f"; numbers do not refute it but the block engine fails at N = {n + 1}"
                             " (a relation the engines lack?)")
        else:
            v.detail += "; no counterexample on random trees, and no all-N proof with the tree relations"
    v.seconds = time.perf_counter() - t0
    return v


def _check_names(node, known: set) -> None:
    if node[0] == "name" and node[1] not in known:
        names = ", ".join(sorted(known))
        raise statement.StatementError(f"unknown operator `{node[1]}` at column {node[2]} (known: {names})")
    for child in node[1:]:
        if isinstance(child, tuple):
            _check_names(child, known)


def _certify(v: Verdict, proof, path) -> None:
    """Write (if asked) and independently re-check the certificate of an all-N proof."""
    from soagen.symbolic import checker
    from soagen.symbolic.certificate import axioms_text, certificate_text

    text = certificate_text("statement", v.statement, proof)
    checker.check(text, checker.Axioms(axioms_text(nfree.algebra("chain"))))   # raises if it does not hold
    v.result, v.certificate_text = "proved-all-n", text
    v.detail = f"{sum(len(c.trace) for c in proof.checks)} certificate terms, re-checked"
    if path:
        from pathlib import Path

        from soagen.errors import SoagenError
        try:
            Path(path).write_text(text)
        except OSError as err:
            raise SoagenError(f"{path}: cannot write the certificate ({err.strerror})") from None
        v.certificate = str(path)


def counterexample(lhs, rhs, topology: str = "chain", seeds=(1, 2)):
    """The smallest instance where lhs != rhs numerically: {'N', 'residual', 'topology'} or None."""
    kinds = ("chain",) if topology == "chain" else ("chain", "tree", "arms")
    for N in range(1, 9):
        for kind in kinds:
            if kind == "tree" and N < 3 or kind == "arms" and N < 2:
                continue
            for seed in seeds:
                ns = instances.topology_instance(kind, N, seed=1000 * seed + N)
                res = residual(lhs, rhs, ns)
                if res > ROBOT_RESIDUAL:
                    return {"N": N, "residual": float(f"{res:.3e}"), "topology": kind}
    return None


def residual(lhs, rhs, ns) -> float:
    """Relative residual ||lhs - rhs|| / max(1, ||lhs||, ||rhs||) on a numeric instance."""
    a, b = statement.evaluate(lhs, ns), statement.evaluate(rhs, ns)
    d = a - b
    dense = getattr(d, "dense", None)
    if dense is None:                       # both sides multiples of the identity
        return abs(getattr(d, "c", 0.0))
    scale = max([1.0] + [float(np.linalg.norm(x.dense())) for x in (a, b) if hasattr(x, "dense")])
    return float(np.linalg.norm(dense())) / scale


def _per_n(lhs, rhs, nmax: int) -> int:
    """Largest n <= nmax with the statement proved by the block engine for N = 1..n."""
    from soagen.symbolic.chain import symbolic_chain_namespace

    for N in range(1, nmax + 1):
        ns = symbolic_chain_namespace(N)
        d = statement.evaluate(lhs, ns) - statement.evaluate(rhs, ns)
        if getattr(d, "nonzero_blocks", lambda: [1])():
            return N - 1
    return nmax
