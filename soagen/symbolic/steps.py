"""The items a derivation is made of (see :mod:`soagen.symbolic.derive`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    latex: str            # the right-hand side in LaTeX
    text: str             # the same in plain text
    why: str = ""         # justification (equation numbers)
    expr: str | None = None   # operator expression checked against the previous one
    record: str = ""      # the catalogue record whose statement this step is (proved for all N)


@dataclass(frozen=True)
class Chain:
    """lhs = step_1 = step_2 = ...; each equality checked when both carry an expr."""
    lhs_latex: str
    lhs_text: str
    lhs_expr: str | None
    steps: tuple
    let: tuple = ()
    algebra: str = "chain"    # or an N-independent matrix theory (soagen.symbolic.matrices)


@dataclass(frozen=True)
class Para:
    text: str             # Markdown paragraph (may contain inline $...$)
    plain: str | None = None


@dataclass(frozen=True)
class Rec:
    """A sweep: the recursion lines (LaTeX/plain) and the check recursion == operator."""
    title: str
    lines_latex: tuple
    lines_text: tuple
    check: tuple          # (recursion expr, operator expr)
    let: tuple = ()
    record: str = ""      # the catalogue record whose operator reading proves the loop for all N
