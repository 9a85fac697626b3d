"""Certificates of N-free proofs, as plain text a reader can audit.

Two kinds of file, both written deterministically (sorted, exact rationals, no times):

* the **axioms** of an algebra (``axioms-<name>.txt``): its spaces, its generators with
  their types and transposes, and every relation ``id: lhs -> rhs`` with its source and
  the topologies where it holds;
* one **certificate** per identity (``<id>.txt``): the record's unknowns (``given``) and
  hypotheses (``assume``: e.g. a printed recursion read as an operator equation), the
  claims ``lhs = rhs`` exactly as the catalogue states them (with their ``let``
  bindings; a block statement is certified block by block), and for each claim the terms
  ``c | u | relation | v`` such that

      lhs - rhs = sum_i c_i * u_i * (relation_i.lhs - relation_i.rhs) * v_i

  in the free algebra (``relation^T`` is the transposed relation).

:mod:`soagen.symbolic.checker` re-parses the claims, expands the sum and compares; it
shares no code with the engine that found the terms.  Format::

    soagen certificate 1
    identity I-4.22
    source Part I (4.21)-(4.22) anticausal smoothing
    algebra chain
    topology tree
    given lam : s <- 1 | lam^T
    assume loop-4.22 : Epsi.T@lam -> lam - H.T@T | lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k)
    claim 1: T - K.T@lam = (I - H@Psi@L).T@T
    terms 1: 9
      1 | . | def-K^T | lam
      ...
    end
"""

from __future__ import annotations

from fractions import Fraction

HEADER = "soagen certificate 1"
AXIOMS_HEADER = "soagen axioms 1"


def _word(w) -> str:
    return " ".join(w) if w else "."


def _num(c: Fraction) -> str:
    c = Fraction(c)
    return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def axioms_text(alg) -> str:
    """The axioms file of an algebra (:class:`soagen.symbolic.nfree.Algebra`)."""
    out = [AXIOMS_HEADER, f"algebra {alg.name}", ""]
    out.append("# spaces")
    for s, meaning in alg.spaces.items():
        out.append(f"space {s}: {meaning}")
    out += ["", "# generators: name : codomain <- domain | transpose | meaning | source"]
    for g in alg.gens.values():
        out.append(f"gen {g.name} : {g.cod} <- {g.dom} | {g.tname} | {g.meaning} | {g.source}")
    out += ["", "# relations: id [kind; topologies] : lhs -> rhs | source (| note)",
            "# each holds for every N on the topologies listed; its transpose (id^T) is a relation too"]
    for r in alg.relations.values():
        note = f" | {r.note}" if r.note else ""
        out.append(f"rel {r.id} [{r.kind}; {','.join(r.topologies)}] : {r.lhs} -> {r.rhs} | {r.source}{note}")
    out.append("")
    out.append("# order: by total weight of a word (weights in parentheses, else 1), then by these ranks")
    out.append("order " + alg.order.ranking())
    return "\n".join(out) + "\n"


def certificate_text(ident: str, source: str, proof, let=(), assume=()) -> str:
    """One certificate for a :class:`soagen.symbolic.nfree.Proof` whose checks all hold;
    `assume` are the record's hypotheses (id, lhs, rhs, reading)."""
    alg = proof.algebra
    out = [HEADER, f"identity {ident}", f"source {source}", f"algebra {alg.name}", f"topology {proof.topology}"]
    base = set(alg.base_gens)
    for g in alg.gen_list:
        if g.name not in base:
            out.append(f"given {g.name} : {g.cod} <- {g.dom} | {g.tname}")
    used = set(proof.theory.relation_ids)
    for rid, lhs, rhs, reading in assume:
        if rid in used:
            out.append(f"assume {rid} : {lhs} -> {rhs} | {reading}")
    for name, expr in let:
        out.append(f"let {name} = {expr}")
    for i, p in enumerate(proof.checks, start=1):
        if not p.proved:
            raise ValueError(f"{ident}: claim {i} is not proved; no certificate")
        blk = f" block {p.block[0]},{p.block[1]}" if p.block else ""
        out.append(f"claim {i}{blk}: {p.lhs} = {p.rhs}")
        terms = sorted(p.trace.items(), key=lambda kv: (kv[0][1], len(kv[0][0]), kv[0][0], len(kv[0][2]), kv[0][2]))
        out.append(f"terms {i}: {len(terms)}")
        for (u, rid, v), c in terms:
            out.append(f"  {_num(c)} | {_word(u)} | {rid} | {_word(v)}")
    out.append("end")
    return "\n".join(out) + "\n"


def certificate_files(outcomes) -> dict:
    """{file name: text}: the axioms of every algebra used and one certificate per all-N proof."""
    files = {}
    for o in outcomes:
        if not o.certificate:
            continue
        alg = o.proof.algebra
        base = _base_algebra(alg.name)
        files.setdefault(f"axioms-{alg.name}.txt", axioms_text(base))
        files[f"{o.id}.txt"] = o.certificate
    return files


def _base_algebra(name: str):
    from soagen.symbolic.nfree import algebra

    return algebra(name)


def write_certificates(outcomes, directory) -> list:
    """Write :func:`certificate_files` into `directory` (created if needed); stale
    certificates there (files that start with the certificate header) are removed."""
    from pathlib import Path

    from soagen.errors import SoagenError

    files = certificate_files(outcomes)
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
        for old in d.glob("*.txt"):
            if old.name not in files and old.read_text().startswith((HEADER, AXIOMS_HEADER)):
                old.unlink()
        for name in sorted(files):
            (d / name).write_text(files[name])
    except OSError as err:
        raise SoagenError(f"{directory}: cannot write certificates ({err.strerror})") from None
    return sorted(files)
