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

:mod:`soagen.symbolic.evidence.checker` re-parses the claims, expands the sum and compares; it
shares no code with the engine that found the terms.  A block-level certificate
(:mod:`soagen.symbolic.engines.blockwise`) also declares the printed loops it uses (``loop ID``, the
state renamed with ``as NAME``), proves lemmas (``lemma NAME: ...`` operator, ``lemma NAME by
blocks``, ``index-lemma NAME (indices) [bounds]: ...`` directly or with ``induction INDEX
up|down START`` and ``base terms``/``step terms``), and claims ``by blocks`` (with ``case
SHIFT LO..HI`` sections), ``index [bounds]``, or ``block R,C [bounds] of OP via LEMMA``; its
term lines name block-relation instances such as ``psi-semi(k,n,n-1)``, ``sum-last[...]``,
``loop-4.20.step(k)`` or a lemma.  The axioms of the block level are ``axioms-blocks.txt``
(:func:`blocks_axioms_text`).  Format of an operator certificate::

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
    """The axioms file of an algebra (:class:`soagen.symbolic.engines.nfree.Algebra`)."""
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
    """One certificate for a :class:`soagen.symbolic.engines.nfree.Proof` whose checks all hold;
    `assume` are the record's hypotheses (id, lhs, rhs, reading)."""
    alg = proof.algebra
    out = [HEADER, f"identity {ident}", f"source {source}", f"algebra {alg.name}", f"topology {proof.topology}"]
    base = set(alg.base_gens)
    for g in alg.gen_list:
        if g.name not in base:
            out.append(f"given {g.name} : {g.cod} <- {g.dom} | {g.tname}")
    from soagen.symbolic.engines.loops import CONDITIONS

    used = set(proof.theory.relation_ids)
    for rid, lhs, rhs, reading in assume:
        if rid in used:
            out.append(f"{'condition' if rid in CONDITIONS else 'assume'} {rid} : {lhs} -> {rhs} | {reading}")
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


def certificate_files(outcomes, readings=()) -> dict:
    """{file name: text}: the axioms of every algebra used, one certificate per all-N proof, and
    one per proved reading of a printed loop (`readings`: :class:`soagen.symbolic.evidence.verify.Reading`)."""
    files = {}
    for o in outcomes:
        if not o.certificate:
            continue
        name = getattr(o.proof, "algebra", None)
        name = name.name if name is not None else "chain"
        files.setdefault(f"axioms-{name}.txt", axioms_text(_base_algebra(name)))
        if "\nloop " in o.certificate or "\nassume " in o.certificate or "\ncondition " in o.certificate:
            files.setdefault("axioms-blocks.txt", blocks_axioms_text())
        files[f"{o.id}.txt"] = o.certificate
    for r in readings:
        if r.certificate:
            files.setdefault("axioms-chain.txt", axioms_text(_base_algebra("chain")))
            files.setdefault("axioms-blocks.txt", blocks_axioms_text())
            files[f"reading-{r.id}.txt"] = r.certificate
    return files


def _base_algebra(name: str):
    from soagen.symbolic.engines.nfree import algebra

    return algebra(name)


def write_certificates(outcomes, directory, readings=()) -> list:
    """Write :func:`certificate_files` into `directory` (created if needed); stale
    certificates there (files that start with the certificate header) are removed."""
    from pathlib import Path

    from soagen.errors import SoagenError

    files = certificate_files(outcomes, readings)
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


# ----------------------------------------------------------------------------- the block level
def _terms(lines: list, head: str, terms) -> None:
    lines.append(f"{head}: {len(terms)}")
    for c, u, rid, v in terms:
        lines.append(f"  {_num(c)} | {_word(u)} | {rid} | {_word(v)}")


def blocks_axioms_text() -> str:
    """``axioms-blocks.txt``: block families, the operators in blocks, the relations between
    blocks, the printed loops with their equations and readings, and the conditions
    (:mod:`soagen.symbolic.engines.loops`)."""
    from soagen.symbolic.engines import loops as LP

    out = [AXIOMS_HEADER, "algebra blocks", "",
           "# a serial chain of N >= 1 links, tip = 1 .. base = N; indices are integers, N the number of links",
           "# block families: name(indices) : codomain <- domain | sym | meaning   (j(k): the joint space of joint k;",
           "# f(k), u(k): the nodal space and the flexible dofs of link k, framework Section 4)"]
    for f in LP.FAMILIES.values():
        idx = f"({','.join(f.params)})" if f.params else ""
        out.append(f"family {f.name}{idx} : {f.cod} <- {f.dom} | {'sym' if f.symmetric else ''} | {f.meaning}")
    out += ["", "# the operators of the chain algebra in blocks (row k): diag X(k) at (k, k); shift d: identity at",
            "# (k, k+d); lower X(k): X(k) at (k, k-1); tip: block (1, .); base: block (N, .); vector: block (k, .);",
            "# single: one block"]
    for g, p in LP.PATTERNS.items():
        how = f"shift {p.d}" if p.kind == "shift" else f"{p.kind} {p.letter}"
        out.append(f"pattern {g} : {how} | {LP.PATTERN_SOURCES.get(g, '')}".rstrip(" |"))
    out += ["", "# relations between blocks: id (indices) [conditions] : lhs -> rhs | source"]
    for r in LP.RELATIONS:
        out.append(f"brel {r.id} ({','.join(r.params)}) [{r.where}] : {r.lhs} -> {r.rhs} | {r.source}")
    out += ["", "# the printed loops: id : state family | the operator equation it is read as | the loop as printed | note",
            "# each equation defines the state at the indices of its conditions; the reading is proved block by block"]
    for lp in LP.LOOPS:
        out.append(f"loop {lp.id} : {lp.family} | {lp.lhs} -> {lp.rhs} | {lp.printed} | {lp.note}")
        for t in lp.inputs:
            out.append(f"  input {t}")
        for eq in lp.equations:
            out.append(f"  eq {eq.id} ({','.join(eq.params)}) [{eq.where}] : {eq.lhs} -> {eq.rhs}")
    out += ["", "# conditions: hypotheses that restrict a statement (printed with its result)"]
    for cid, lhs, rhs, what in LP.CONDITIONS.values():
        out.append(f"condition {cid} : {lhs} -> {rhs} | {what}")
    return "\n".join(out) + "\n"


def _cases(lines: list, cases) -> None:
    for case in cases:
        lines.append(case.header)
        _terms(lines, "terms", case.terms)


def reading_text(loop_id: str, cases) -> str:
    """The certificate of the reading of a printed loop, proved block by block."""
    from soagen.symbolic.engines import loops as LP
    from soagen.symbolic.evidence.block_records import reading_given

    lp = LP.BY_ID[loop_id]
    return by_blocks_text(f"reading-{lp.id}", lp.printed, lp.lhs, lp.rhs, cases, reading_given(lp), (lp.id,))


def by_blocks_text(ident: str, source: str, lhs: str, rhs: str, cases, given=(), loops=()) -> str:
    """The certificate of an operator equation proved block by block (chains)."""
    out = [HEADER, f"identity {ident}", f"source {source}", "algebra chain", "topology chain"]
    for g in given:
        out.append(f"given {g} | {g.split(':')[0].strip()}^T")
    for lid in loops:
        out.append(f"loop {lid}")
    out.append(f"claim 1 by blocks: {lhs} = {rhs}")
    _cases(out, cases)
    out.append("end")
    return "\n".join(out) + "\n"


def block_record_text(ident: str, source: str, pr) -> str:
    """The certificate of a block record (:class:`soagen.symbolic.evidence.block_records.BlockRecordProof`)."""
    from soagen.symbolic.engines import loops as LP
    from soagen.symbolic.evidence.block_records import BlockClaim, IndexClaim

    out = [HEADER, f"identity {ident}", f"source {source}", "algebra chain", "topology chain"]
    for g in pr.given:
        out.append(f"given {g} | {g.split(':')[0].strip()}^T")
    for h in pr.assume:
        rid, lhs, rhs, reading = LP.HYPOTHESES[h]
        out.append(f"assume {rid} : {lhs} -> {rhs} | {reading}")
    for lid in pr.loops:
        out.append(f"loop {lid}" + (f" as {pr.rename[lid]}" if lid in pr.rename else ""))
    for name, lhs, rhs in pr.block_lemmas:
        out.append(f"lemma {name} by blocks: {lhs} = {rhs}")
        _cases(out, pr.block_cases[name])
    for op in pr.op_lemmas:
        out.append(f"lemma {op.name}: {op.lhs} = {op.rhs}")
        if op.combine:
            _terms(out, "terms", op.terms)
        else:
            _terms(out, "terms", _sorted_trace(op.proof.checks[0].trace))
    for lem in pr.lemmas:
        out.append(lem.header)
        if lem.induction is None:
            _terms(out, "terms", lem.terms)
        else:
            var, way, start = lem.induction
            out.append(f"induction {var} {way} {start}")
            _terms(out, "base terms", lem.base_terms)
            _terms(out, "step terms", lem.step_terms)
    for i, cl in enumerate(pr.claims, start=1):
        if isinstance(cl, IndexClaim):
            out.append(f"claim {i} index [{cl.where}]: {cl.lhs} = {cl.rhs}")
            _terms(out, f"terms {i}", cl.terms)
        elif isinstance(cl, BlockClaim):
            via = f" via {cl.via}" if cl.via else ""
            out.append(f"claim {i} block {cl.row},{cl.col} [{cl.where}] of {cl.op}{via}: {cl.rhs}")
            _terms(out, f"terms {i}", cl.terms)
        else:
            out.append(f"claim {i} by blocks: {cl.lhs} = {cl.rhs}")
            _cases(out, cl.cases)
    out.append("end")
    return "\n".join(out) + "\n"


def _sorted_trace(trace: dict) -> list:
    return [(c, u, rid, v) for (u, rid, v), c in
            sorted(trace.items(), key=lambda kv: (kv[0][1], len(kv[0][0]), kv[0][0], len(kv[0][2]), kv[0][2]))]
