"""Latency-aware association for the straight-line C.

A generated function is one long dependency graph, and on an out-of-order core the time of
a small one (a 6-dof inverse dynamics) is its longest chain of dependent operations as
much as its operation count. The printed order of a sum decides that chain: C evaluates
``a + b*c + d*e`` left to right, and with ``-ffp-contract=fast`` each ``+ x*y`` becomes a
fused multiply-add that waits for the partial sum before it. SymPy's term order is
alphabetical, so the terms that arrive last from the recursion (the child's force in a
Newton-Euler sweep) can sit at the front of the chain.

This module estimates when each value is ready (cycles from the call, with a fixed model
of a current x86-64 or AArch64 core: add and multiply 3 cycles, fused multiply-add 4,
divide 13, square root 20, sin/cos 40) and associates every sum: greedily, like a Huffman
code on ready times (at each step the two operands whose sum is ready earliest), and, if
that is no earlier, as a chain in the printing order or in order of readiness; the
earliest of the three is printed. Where an add joins two products, the one whose fusing
makes the sum ready earlier is printed first: GCC fuses the left one of ``x*y + z*w`` into
the add (checked on gcc 12). Products multiply their factors in order of readiness, the
latest one last.

The operations and their count are unchanged; only the rounding of the sums changes
(a different association). The same association is printed for the scalar and the
batch C (they agree to rounding, mostly bit for bit). The model only orders; nothing in the
generated code depends on its numbers being exact for a given core."""

from __future__ import annotations

from dataclasses import dataclass

ADD = MUL = 3
FMA = 4
DIV = 13
SQRT = 20
TRIG = 40


@dataclass(frozen=True)
class Term:
    """One operand of a sum: its printed ``text`` (without sign) and ``sign``, ``key`` (its
    place in the printing order, for deterministic ties), and ``ready`` (when its value is
    ready); for a product whose last multiply is still to be done, ``operands`` is when
    that multiply's operands are (the multiply can fuse into the add), else None."""

    ready: float
    key: int
    text: str
    sign: int = 1
    operands: float | None = None

    @staticmethod
    def product(operands, key, text, sign=1):
        return Term(operands + MUL, key, text, sign, operands)


def join(a: Term, b: Term) -> Term:
    """``a + b`` (signs applied), fused when one of them is a pending product. When both
    are, GCC fuses the left one (checked on gcc 12), so the one that makes the sum ready
    earlier is printed first; otherwise the order is kept."""
    fuse_a = max(a.operands, b.ready) + FMA if a.operands is not None else None
    fuse_b = max(b.operands, a.ready) + FMA if b.operands is not None else None
    fixed = fuse_a is not None and fuse_b is not None
    if fixed and fuse_b < fuse_a:
        a, b, fuse_a = b, a, fuse_b
    ready = next((r for r in (fuse_a, fuse_b) if r is not None), max(a.ready, b.ready) + ADD)
    key = min(a.key, b.key)
    if a.sign > 0 and b.sign > 0:
        return Term(ready, key, f"({a.text} + {b.text})")
    if a.sign > 0:
        return Term(ready, key, f"({a.text} - {b.text})")
    if b.sign > 0:
        return Term(ready, key, f"(-{a.text} + {b.text})" if fixed else f"({b.text} - {a.text})")
    if not a.text.startswith("("):          # -x*y - b: the negation folds into the fma
        return Term(ready, key, f"(-{a.text} - {b.text})")
    if not fixed and not b.text.startswith("("):
        return Term(ready, key, f"(-{b.text} - {a.text})")
    return Term(ready, key, f"({a.text} + {b.text})", -1)


def _chain(terms):
    acc = terms[0]
    for t in terms[1:]:
        acc = join(acc, t)
    return acc


def _greedy(terms):
    """Join the pair whose sum is ready earliest, among the few earliest operands, until
    one is left."""
    terms = list(terms)
    while len(terms) > 1:
        early = sorted(terms, key=lambda t: (t.ready, t.key))[:4]
        early += [t for t in sorted(terms, key=lambda t: (t.operands is None, t.operands or 0, t.key))[:4]
                  if t not in early]
        best = None
        for i, a in enumerate(early):
            for b in early[i + 1:]:
                s = join(a, b) if a.key < b.key else join(b, a)
                if best is None or (s.ready, s.key) < (best[0].ready, best[0].key):
                    best = (s, a, b)
        s, a, b = best
        terms = [t for t in terms if t is not a and t is not b] + [s]
    return terms[0]


def associate(terms):
    """The sum of ``terms`` (:class:`Term`, in printing order) as printed: the earliest
    ready of the greedy tree, the chain in printing order and the chain in order of
    readiness (ties in that order). Returns ``(ready, text, sign)`` with the outer
    parentheses removed."""
    if len(terms) == 1:
        t = terms[0]
        return t.ready, t.text, t.sign
    candidates = [_greedy(terms), _chain(terms),
                  _chain(sorted(terms, key=lambda t: (t.ready if t.operands is None else t.operands, t.key)))]
    best = min(candidates, key=lambda t: t.ready)
    text = best.text
    if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return best.ready, text, best.sign


def _balanced(text):
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0
