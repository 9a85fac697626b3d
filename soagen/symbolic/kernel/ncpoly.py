"""Noncommutative polynomials modulo a small rewriting system (the per-N block engine).

An element is a finite sum of words (tuples of generator names) with integer or
rational coefficients.  A :class:`QuotientAlgebra` holds

* the generators, each with its transpose (transpose is an anti-automorphism:
  ``(x y)^T = y^T x^T``; symmetric generators are their own transpose);
* a list of rewriting rules ``word -> polynomial``, reduced by
  :class:`soagen.symbolic.kernel.rewriting.RewriteSystem` in its weighted degree-lexicographic
  :class:`~soagen.symbolic.kernel.rewriting.Order` (generators ranked in the order they are
  registered).  Every rule strictly decreases, so rewriting terminates; :func:`critical_pairs`
  checks local confluence of all overlaps, so by Newman's lemma the normal form is unique
  and two expressions are equal in the quotient algebra iff their normal forms coincide.

No numbers enter here except the coefficients of the words: an identity is *proved* (for a
fixed chain length N) when ``normal_form(lhs - rhs) == 0``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from soagen.symbolic.kernel.rewriting import (
    Order,
    RewriteSystem,
    Rule,
    acc,
    check_decreasing,
    format_poly,
    overlaps,
    pmul,
    ptranspose,
)

Word = tuple  # tuple[str, ...]


class QuotientAlgebra:
    """Generators with transposes plus a terminating, confluent rewriting system: the free
    algebra modulo the rules, whose elements are :class:`NCPoly` normal forms.

    `ranks` (optional) fixes the order of generators (smallest first) instead of the order
    of registration."""

    def __init__(self, name: str, ranks: Iterable[str] = ()):
        self.name = name
        self.transpose_of: dict[str, str] = {}
        self.system = RewriteSystem(Order(list(ranks)))

    @property
    def order(self) -> Order:
        return self.system.order

    @property
    def rules(self) -> list[tuple[Word, dict]]:
        return [(r.lhs, r.rhs) for r in self.system.rules]

    # -- generators ---------------------------------------------------------
    def gen(self, name: str, symmetric: bool = False, transpose: str | None = None) -> "NCPoly":
        """Register generator `name` (and its transpose) and return it as a polynomial."""
        if name not in self.transpose_of:
            t = name if symmetric else (transpose or f"{name}^T")
            self.transpose_of[name] = t
            self.transpose_of[t] = name
            self.order.extend((name, t))
        return NCPoly(self, {(name,): 1})

    # -- rules --------------------------------------------------------------
    def add_rule(self, lhs: Iterable[str], rhs: "NCPoly | int", with_transpose: bool = True):
        """Add `lhs -> rhs` (and, by default, its transpose `lhs^T -> rhs^T`).

        Both must decrease words in the order; a rule that does not (or whose transpose
        does not) is refused with :class:`~soagen.symbolic.kernel.rewriting.NonDecreasingRule`,
        since rewriting with it might not terminate."""
        lhs = tuple(lhs)
        rhs = rhs if isinstance(rhs, NCPoly) else NCPoly.const(self, rhs)
        todo = [(lhs, rhs.terms, f"theory {self.name}")]
        if with_transpose:
            lt = tuple(self.transpose_of[g] for g in reversed(lhs))
            if lt != lhs:
                todo.append((lt, rhs.T.terms, f"theory {self.name}, transposed"))
        for l_, terms, what in todo:            # all or nothing: check both before adding
            check_decreasing(self.order, l_, terms, what)
        for l_, terms, what in todo:
            self.system.add(Rule(l_, dict(terms), {}, what))

    def reduce_word(self, w: Word) -> dict:
        """Normal form of a single word as {word: coeff}."""
        return self.system.nf_word(w)

    def normal(self, terms: dict) -> dict:
        return self.system.normal_form(terms)


def critical_pairs(th: QuotientAlgebra) -> list[tuple[Word, dict, dict]]:
    """All ambiguities of the rules whose two reductions disagree: overlaps (a suffix of one
    left side is a prefix of another, :func:`soagen.symbolic.kernel.rewriting.overlaps`) and
    inclusions (one left side inside another).  An empty result means the system is locally
    confluent (hence confluent, as it terminates)."""
    bad = []
    rules = th.system.rules
    for r1 in rules:
        for r2 in rules:
            for w, s, _ in overlaps(r1, r2):
                nf = th.normal(s)
                if nf:
                    bad.append((w, nf, {}))
            l1, l2 = r1.lhs, r2.lhs
            if l1 != l2 and len(l2) < len(l1):
                for i in range(len(l1) - len(l2) + 1):
                    if l1[i:i + len(l2)] == l2:
                        a = th.normal(r1.rhs)
                        b = th.normal(pmul(pmul({l1[:i]: 1}, r2.rhs), {l1[i + len(l2):]: 1}))
                        if a != b:
                            bad.append((l1, a, b))
    return bad


class NCPoly:
    """A normal-form element of a :class:`QuotientAlgebra`."""

    __slots__ = ("th", "terms")
    __array_ufunc__ = None

    def __init__(self, th: QuotientAlgebra, terms: dict, normalize: bool = True):
        self.th = th
        self.terms = th.normal(terms) if normalize else terms

    @staticmethod
    def const(th: QuotientAlgebra, c) -> "NCPoly":
        return NCPoly(th, {(): c} if c else {}, normalize=False)

    def is_zero(self) -> bool:
        return not self.terms

    def _coerce(self, other):
        if isinstance(other, NCPoly):
            return other
        return NCPoly.const(self.th, other)

    def __add__(self, other):
        return NCPoly(self.th, acc(dict(self.terms), self._coerce(other).terms), normalize=False)

    __radd__ = __add__

    def __neg__(self):
        return NCPoly(self.th, {w: -c for w, c in self.terms.items()}, normalize=False)

    def __sub__(self, other):
        return NCPoly(self.th, acc(dict(self.terms), self._coerce(other).terms, -1), normalize=False)

    def __rsub__(self, other):
        return self._coerce(other) - self

    def __mul__(self, k):
        if isinstance(k, NCPoly):
            return self @ k
        k = Fraction(k) if isinstance(k, Fraction) else k
        return NCPoly(self.th, {w: c * k for w, c in self.terms.items()} if k else {}, normalize=False)

    __rmul__ = __mul__

    def __matmul__(self, other):
        other = self._coerce(other)
        out: dict = {}
        red = self.th.reduce_word
        for w1, c1 in self.terms.items():
            for w2, c2 in other.terms.items():
                acc(out, red(w1 + w2), c1 * c2)
        return NCPoly(self.th, out, normalize=False)

    @property
    def T(self):
        return NCPoly(self.th, ptranspose(self.terms, self.th.transpose_of))

    def __eq__(self, other):
        other = self._coerce(other)
        return self.terms == other.terms

    def __hash__(self):  # pragma: no cover - not used as dict key
        return hash(frozenset(self.terms.items()))

    def __len__(self):
        return len(self.terms)

    def __repr__(self):
        return format_poly(self.terms, self.th.order, 12)
