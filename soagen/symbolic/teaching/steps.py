"""The items a derivation is made of (see :mod:`soagen.symbolic.teaching.derive`).

Each item is written once, in LaTeX (Markdown for paragraphs); its plain text for the
terminal is generated (:mod:`soagen.symbolic.teaching.plain`). The optional ``text`` fields are
overrides, given only where the generated plain text is not what a reader should see (an
abbreviation, a LaTeX construct with no plain spelling); a test checks that each override
differs from the generated form.
"""

from __future__ import annotations

from dataclasses import dataclass

from soagen.symbolic.teaching.plain import markdown_to_plain, tex_to_plain

RANGE_GAP = 4      # spaces between a sweep line and its range (k = 1..N) in plain text


@dataclass(frozen=True)
class Step:
    latex: str                # the right-hand side in LaTeX
    text: str | None = None   # plain-text override (default: tex_to_plain(latex))
    why: str = ""             # justification: the rule or identity, with its equation number
    expr: str | None = None   # operator expression checked against the previous one
    record: str = ""          # the catalogue record whose statement this step is (proved for all N)

    @property
    def plain(self) -> str:
        return self.text if self.text is not None else tex_to_plain(self.latex)


@dataclass(frozen=True)
class Chain:
    """lhs = step_1 = step_2 = ...; each equality checked when both carry an expr."""
    lhs_latex: str
    lhs_text: str | None = None   # plain-text override
    lhs_expr: str | None = None
    steps: tuple = ()
    let: tuple = ()
    algebra: str = "chain"    # or an N-independent matrix theory (soagen.symbolic.engines.matrices)
    given: tuple = ()         # extra operators ('Jm : j <- j sym'), as a catalogue record's
    assume: tuple = ()        # hypotheses on them: (id, single-word lhs, rhs, reading)

    @property
    def lhs_plain(self) -> str:
        return self.lhs_text if self.lhs_text is not None else tex_to_plain(self.lhs_latex)


@dataclass(frozen=True)
class Para:
    markdown: str             # Markdown paragraph (may contain inline $...$)
    text: str | None = None   # plain-text override

    @property
    def plain(self) -> str:
        return self.text if self.text is not None else markdown_to_plain(self.markdown)


@dataclass(frozen=True)
class Rec:
    """A sweep: the recursion lines (LaTeX) and the check recursion == operator.

    A line may end in ``\\qquad`` and its range (``k = 1..N``); the plain text puts the
    ranges of one sweep in one column."""
    title: str
    lines_latex: tuple
    lines_text: tuple | None = None   # plain-text override of all lines
    check: tuple = ()         # (recursion expr, operator expr)
    let: tuple = ()
    record: str = ""          # the catalogue record whose operator reading proves the loop for all N

    @property
    def plain_lines(self) -> tuple:
        if self.lines_text is not None:
            return self.lines_text
        split = [ln.partition("\\qquad") for ln in self.lines_latex]
        lefts = [tex_to_plain(left) for left, _, _ in split]
        width = max(map(len, lefts)) + RANGE_GAP
        return tuple(left.ljust(width) + tex_to_plain(right) if right else left
                     for left, (_, _, right) in zip(lefts, split))
