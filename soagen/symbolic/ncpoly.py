"""Noncommutative polynomials modulo a small rewriting system (the proof layer).

An element is a finite sum of words (tuples of generator names) with integer or
rational coefficients.  A :class:`Theory` holds

* the generators, each with its transpose (transpose is an anti-automorphism:
  ``(x y)^T = y^T x^T``; symmetric generators are their own transpose);
* a list of rewriting rules ``word -> polynomial``.  Every rule strictly decreases
  words in a degree-lexicographic order (right-hand sides have shorter words, or words
  of the same length made of lower-ranked generators), so rewriting terminates; :func:`critical_pairs` checks local confluence
  of all overlaps, so by Newman's lemma the normal form is unique and two
  expressions are equal in the quotient algebra iff their normal forms coincide.

No numbers enter here except the integer coefficients of the words: an identity is
*proved* (for a fixed chain length N) when ``normal_form(lhs - rhs) == 0``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from soagen.symbolic.rewriting import RewriteSystem, Rule, check_decreasing, format_poly

Word = tuple  # tuple[str, ...]


class DeglexByRank:
    """Degree-lexicographic order: shorter words first, then by generator rank (then name).
    A monomial order, so rules that decrease words terminate."""

    def __init__(self, rank: dict):
        self.rank = rank

    def key(self, w: Word):
        return (len(w), [(self.rank.get(g, 0), g) for g in w])

    def less(self, u: Word, w: Word) -> bool:
        return self.key(u) < self.key(w)


class Theory:
    """Generators with transposes plus a terminating, confluent rewriting system (the
    reduction itself is :class:`soagen.symbolic.rewriting.RewriteSystem`)."""

    def __init__(self, name: str):
        self.name = name
        self.transpose_of: dict[str, str] = {}
        self.rank: dict[str, int] = {}     # generator precedence for the order of equal-length words
        self.system = RewriteSystem(DeglexByRank(self.rank))

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
        return NCPoly(self, {(name,): 1})

    def genT(self, name: str) -> "NCPoly":
        """The transpose of a registered generator."""
        return NCPoly(self, {(self.transpose_of[name],): 1})

    # -- rules --------------------------------------------------------------
    def add_rule(self, lhs: Iterable[str], rhs: "NCPoly | int", with_transpose: bool = True):
        """Add `lhs -> rhs` (and, by default, its transpose `lhs^T -> rhs^T`).

        Both must decrease words in the order; a rule that does not (or whose transpose
        does not) is refused with :class:`~soagen.symbolic.rewriting.NonDecreasingRule`,
        since rewriting with it might not terminate."""
        lhs = tuple(lhs)
        rhs = rhs if isinstance(rhs, NCPoly) else NCPoly.const(self, rhs)
        todo = [(lhs, rhs.terms, f"theory {self.name}")]
        if with_transpose:
            lt = tuple(self.transpose_of[g] for g in reversed(lhs))
            if lt != lhs:
                todo.append((lt, rhs.T.terms, f"theory {self.name}, transposed"))
        for l_, terms, what in todo:            # all or nothing: check both before adding
            check_decreasing(self.system.order, l_, terms, what)
        for l_, terms, what in todo:
            self.system.add(Rule(l_, dict(terms), {}, what))

    def reduce_word(self, w: Word) -> dict:
        """Normal form of a single word as {word: coeff}."""
        return self.system.nf_word(w)

    def normal(self, terms: dict) -> dict:
        return self.system.normal_form(terms)


def critical_pairs(th: Theory) -> list[tuple[Word, dict, dict]]:
    """All overlap ambiguities of the rules whose two reductions disagree.

    For every pair of rules (l1, l2) and every proper overlap (a suffix of l1 equal to
    a prefix of l2, or l2 inside l1) the overlap word is rewritten both ways; an empty
    result means the system is locally confluent (hence confluent, as it terminates).
    """
    bad = []
    for l1, r1 in th.rules:
        for l2, r2 in th.rules:
            # suffix of l1 == prefix of l2
            for k in range(1, min(len(l1), len(l2))):
                if l1[-k:] == l2[:k]:
                    w = l1 + l2[k:]
                    a = th.normal({rw + l2[k:]: c for rw, c in r1.items()})
                    b = th.normal({l1[:-k] + rw: c for rw, c in r2.items()})
                    if a != b:
                        bad.append((w, a, b))
            # l2 strictly inside l1
            if l1 != l2 and len(l2) < len(l1):
                for i in range(len(l1) - len(l2) + 1):
                    if l1[i:i + len(l2)] == l2:
                        a = th.normal(dict(r1))
                        b = th.normal({l1[:i] + rw + l1[i + len(l2):]: c for rw, c in r2.items()})
                        if a != b:
                            bad.append((l1, a, b))
    return bad


class NCPoly:
    """A normal-form element of the quotient algebra of a :class:`Theory`."""

    __slots__ = ("th", "terms")
    __array_ufunc__ = None

    def __init__(self, th: Theory, terms: dict, normalize: bool = True):
        self.th = th
        self.terms = th.normal(terms) if normalize else terms

    @staticmethod
    def const(th: Theory, c) -> "NCPoly":
        return NCPoly(th, {(): c} if c else {}, normalize=False)

    def is_zero(self) -> bool:
        return not self.terms

    def _coerce(self, other):
        if isinstance(other, NCPoly):
            return other
        return NCPoly.const(self.th, other)

    def __add__(self, other):
        other = self._coerce(other)
        out = dict(self.terms)
        for w, c in other.terms.items():
            v = out.get(w, 0) + c
            if v:
                out[w] = v
            else:
                out.pop(w, None)
        return NCPoly(self.th, out, normalize=False)

    __radd__ = __add__

    def __neg__(self):
        return NCPoly(self.th, {w: -c for w, c in self.terms.items()}, normalize=False)

    def __sub__(self, other):
        return self + (-self._coerce(other))

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
                for w, c in red(w1 + w2).items():
                    v = out.get(w, 0) + c1 * c2 * c
                    if v:
                        out[w] = v
                    else:
                        out.pop(w, None)
        return NCPoly(self.th, out, normalize=False)

    @property
    def T(self):
        tr = self.th.transpose_of
        return NCPoly(self.th, {tuple(tr[g] for g in reversed(w)): c for w, c in self.terms.items()})

    def __eq__(self, other):
        other = self._coerce(other)
        return self.terms == other.terms

    def __hash__(self):  # pragma: no cover - not used as dict key
        return hash(frozenset(self.terms.items()))

    def __len__(self):
        return len(self.terms)

    def __repr__(self):
        return format_poly(self.terms, self.th.system.order, 12)
