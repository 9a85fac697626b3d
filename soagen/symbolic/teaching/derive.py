"""Step-by-step derivations for teaching, rendered as Markdown+LaTeX or plain text.

A derivation is a list of steps.  An *equality chain* step carries an operator
expression (same syntax as the catalogue); consecutive expressions of a chain are proved
equal for every N by the N-free engine (:mod:`soagen.symbolic.engines.nfree`, with the tree
relations when they suffice; a chain may instead live in an N-independent matrix theory)
before anything is printed, so a derivation that does not hold cannot be rendered.  A step
may name the catalogue record whose statement it is; that record must be proved for every N
(or every size), and the rendering links its certificate.  A *recursion* step names a recursion of
:mod:`soagen.dynamics` (run on the chain's blocks, :mod:`~soagen.symbolic.models.block_state`) and the
operator expression it computes; its operator reading is the catalogue record it names (proved
for every N), and the code is checked against the operator expression block by block for
N = 1..3.

Topics (:mod:`soagen.symbolic.teaching.derivations`): fact-4.1, fact-4.2, theorem-4.1,
minv-recursions, rne, fd4, derivatives (docs/derivatives.md (D.10)-(D.19)), armature (rotor
inertia in the factorization), centroidal, planar2 (closed forms,
:mod:`soagen.symbolic.teaching.closed_form`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from soagen.errors import SoagenError
from soagen.symbolic.engines.loops import CONDITION_SCOPE, CONDITIONS
from soagen.symbolic.evidence.catalogue import BY_ID
from soagen.symbolic.evidence.verify import (
    all_n_scope,
    check_symbolic,
    condition_scope,
    prove_all_n,
    prove_for_all_n,
)
from soagen.symbolic.kernel.status import AllNStatus
from soagen.symbolic.models.chain import symbolic_chain_namespace
from soagen.symbolic.teaching.derivations import TOPIC_HELP, TOPICS  # noqa: F401 - re-exported
from soagen.symbolic.teaching.plain import markdown_to_plain, tex_to_plain  # noqa: F401 - re-exported
from soagen.symbolic.teaching.steps import Chain, Para, Rec, Step  # noqa: F401 - re-exported

CHECK_N = (1, 2, 3)      # the block-by-block check of the code against its operator form


def _chain_pairs(item: Chain) -> list:
    pairs, prev = [], item.lhs_expr
    for st in item.steps:
        if st.expr is not None and prev is not None:
            pairs.append((prev, st.expr))
        if st.expr is not None:
            prev = st.expr
    return pairs


@functools.lru_cache(maxsize=None)
def _record_scope(rid: str) -> str:
    """The scope of a catalogue record's proof ('all N (trees)', 'all sizes', ...) with the
    condition it rests on ('all N (trees), 1-dof joints only'); raises AssertionError unless the
    record is proved for every N (or every size)."""
    rec = BY_ID[rid]
    out = prove_all_n(rec, corrected=rec.misprint, traced=False)
    if out.status != AllNStatus.PROVED:
        raise AssertionError(f"the record {rid} is not proved for all N: {out.detail}")
    return all_n_scope(rec, out.proof) + condition_scope(rec, out.proof)


def _let_conditions(let) -> str:
    """', 1-dof joints only' when a chain's lets state a pinned condition (Psidot = Sdot), else ''."""
    return "".join(f", {CONDITION_SCOPE[cid]}" for cid, (_, lhs, rhs, _) in CONDITIONS.items()
                   if (lhs, rhs) in tuple(let))


def _verify(item) -> str:
    """Prove an item (for every N) or raise AssertionError; return the note printed with it."""
    if isinstance(item, Chain):
        pairs = _chain_pairs(item)
        if not pairs:
            return ""
        for st in item.steps:
            if st.record:
                _record_scope(st.record)
        proof = prove_for_all_n(tuple(pairs), item.let, item.algebra, item.given, item.assume, traced=False)
        hypotheses = "; assuming " + "; ".join(dict.fromkeys(reading for *_, reading in item.assume)) \
            if item.assume else ""
        if proof.proved and item.algebra != "chain":
            return "each equality proved for every size (N-independent matrix algebra)" + hypotheses
        if proof.proved:
            return (f"each equality proved for every N, on every {proof.topology} (N-free algebra)"
                    + _let_conditions(item.let) + hypotheses)
        bad = next(c for c in proof.checks if not c.proved)
        raise AssertionError(f"derivation step {bad.lhs} = {bad.rhs} is not proved for all N")
    if isinstance(item, Rec):
        for N in CHECK_N:
            r = check_symbolic((item.check,), item.let, symbolic_chain_namespace(N))
            if not r.ok:
                raise AssertionError(f"recursion does not compute its operator at N={N}: {r.detail}")
        if item.record:
            _record_scope(item.record)
            return (f"the loop read as an operator equation is proved for every N ({item.record}); "
                    f"the code of soagen.dynamics run on its blocks for N = {CHECK_N[0]}..{CHECK_N[-1]}")
        return f"the code of soagen.dynamics run on its blocks for N = {CHECK_N[0]}..{CHECK_N[-1]}"
    return ""


# ----------------------------------------------------------------------------- rendering
CERTIFICATES_FROM_DOCS = "../certificates"   # docs/derivations/*.md -> docs/certificates/


def certificates_dir() -> Path | None:
    """The proof certificates soagen carries: docs/certificates of the repository it runs
    from, or their copy in the installed wheel (soagen/certificates); None without either."""
    import soagen

    pkg = Path(soagen.__file__).resolve().parent
    found = [d for d in (pkg / "certificates", pkg.parent / "docs" / "certificates") if d.is_dir()]
    return found[0] if found else None


def certificate_link(out_dir: str | Path | None = None) -> str | None:
    """The link prefix of the certificates (:func:`certificates_dir`) for a rendering
    written in ``out_dir``: a path relative to it when ``out_dir`` is inside the repository
    that holds them (``--all docs/derivations``: the docs stay portable with the tree);
    anywhere else (stdout, a file outside the tree, an installed wheel) their file URI,
    which resolves wherever the text is printed or moved on this machine (a relative path
    from the current directory broke when the text moved, and pointed into the clone).
    None when soagen carries no certificates: records are then named, not linked."""
    import os

    certs = certificates_dir()
    if certs is None:
        return None
    repository = certs.parents[1] if certs.parent.name == "docs" else None
    if out_dir is not None and repository is not None and Path(out_dir).resolve().is_relative_to(repository):
        return Path(os.path.relpath(certs, Path(out_dir).resolve())).as_posix()
    return certs.as_uri()


def verified(topic: str):
    """(title, [(item, note), ...]) of a bundled topic, every item proved (see _verify)."""
    if topic not in TOPICS or TOPICS[topic] is None:
        raise SoagenError(f"unknown derivation topic {topic!r}; `soagen derive --list` lists them")
    title, items = TOPICS[topic]()
    return title, [(item, _verify(item)) for item in items]


def render(topic: str, fmt: str = "markdown", robot_path: str | None = None,
           links: str | None = CERTIFICATES_FROM_DOCS) -> str:
    """A topic as "text" or "markdown" (the notebook: :mod:`soagen.symbolic.teaching.notebook`).
    ``links`` is the prefix of the certificate links as seen from where the output will
    live (see :func:`certificate_link`; the default suits docs/derivations/)."""
    if topic not in TOPICS:
        raise SoagenError(f"unknown derivation topic {topic!r}; `soagen derive --list` lists them")
    if topic == "planar2":
        from soagen.symbolic.teaching.closed_form import render_closed_form
        return render_closed_form(robot_path, fmt)
    title, items = verified(topic)
    md = fmt == "markdown"
    out = [f"# {title}\n" if md else f"{title}\n{'=' * len(title)}\n",
           ("<!-- generated by `soagen derive " + topic + "`; do not edit -->\n") if md else ""]
    for item, note in items:
        out += _markdown(item, note, links) if md else _text(item, note)
    return "\n".join(out).rstrip() + "\n"


def chain_latex(item: Chain) -> str:
    """The equality chain as one aligned display, each step with its justification."""
    lines = ["$$", "\\begin{aligned}"]
    for i, s in enumerate(item.steps):
        lead = item.lhs_latex if i == 0 else ""
        tag = f" [{s.record}]" if s.record else ""
        why = f"&& \\text{{{s.why}{tag}}}" if s.why or tag else ""
        lines.append(f"{lead} &= {s.latex} {why} \\\\")
    return "\n".join(lines + ["\\end{aligned}", "$$"])


def sweep_latex(item: Rec) -> str:
    return "$$\n\\begin{aligned}\n" + " \\\\\n".join(f"&{ln}" for ln in item.lines_latex) + "\n\\end{aligned}\n$$"


def item_note(item, note: str, links: str | None) -> str:
    """The proof note printed after a chain (with its records, linked) or a sweep."""
    records = [s.record for s in item.steps if s.record] if isinstance(item, Chain) else []
    if records:
        note += "; " + _records_note(records, links, md=True)
    return note


def _markdown(item, note: str, links: str | None) -> list:
    if isinstance(item, Para):
        return [item.markdown + "\n"]
    if isinstance(item, Chain):
        note = item_note(item, note, links)
        return [chain_latex(item) + "\n"] + ([f"*({note})*\n"] if note else [])
    return [f"**{item.title}**\n\n{sweep_latex(item)}\n",
            f"*(checked: `{item.check[0]}` = `{item.check[1]}`; {record_link(note, item.record, links)})*\n"]


def _text(item, note: str) -> list:
    if isinstance(item, Para):
        return [item.plain + "\n"]
    if isinstance(item, Chain):
        out = []
        for i, s in enumerate(item.steps):
            lead = item.lhs_plain if i == 0 else " " * len(item.lhs_plain)
            tag = f"; {s.record}" if s.record else ""
            why = f"    [{markdown_to_plain(s.why)}{tag}]" if s.why or tag else ""
            out.append(f"  {lead} = {s.plain}{why}")
        out.append("")
        records = [s.record for s in item.steps if s.record]
        if records:
            note += "; " + _records_note(records, None, md=False)
        return out + ([f"  ({note})\n"] if note else [])
    return ([f"  {item.title}:"] + [f"    {ln}" for ln in item.plain_lines]
            + [f"  (checked: {item.check[0]} = {item.check[1]}; {note})\n"])


def record_ref(record: str, links: str | None) -> str:
    """A catalogue record, linked to its certificate when ``links`` says where they are."""
    return f"[{record}]({links}/{record}.txt)" if links else record


def record_link(note: str, record: str, links: str | None) -> str:
    """A sweep's proof note with its record "(I-4.20)" linked to the certificate."""
    return note.replace(f"({record})", f"({record_ref(record, links)})") if record else note


def _records_note(records, links: str | None, md: bool) -> str:
    """'the marked steps are the catalogue records D-merge (all N (trees)), ...', linked to the
    certificates in Markdown (when ``links`` says where they are)."""
    parts = []
    records = list(dict.fromkeys(records))
    for r in records:
        name = record_ref(r, links if md else None)
        parts.append(f"{name}, proved for {_record_scope(r)}")
    if len(records) == 1:
        return "the marked step is the catalogue record " + parts[0]
    return "the marked steps are the catalogue records " + "; ".join(parts)


def bundled_topics() -> list[str]:
    return list(TOPICS)
