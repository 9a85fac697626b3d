"""SymPy's printing order on :mod:`soagen.codegen.graph.expr` nodes: ``sort_key``,
``as_ordered_terms`` (the order of the terms of a printed sum), ``as_ordered_factors``
(of a printed product) and the sign rule of ``Add.could_extract_minus_sign`` that the
common-subexpression pass uses. Ports of ``sympy.core.expr.Expr`` methods (SymPy 1.14);
numbers inside the keys compare as SymPy 1.14's numbers do (:class:`KeyNumber`), so ties
break exactly as in SymPy 1.14 whatever SymPy is installed."""

from __future__ import annotations

from soagen.codegen.graph.expr import NEG_ONE, ONE, Add, Mul

_NUMBER = (1, 0, "Number")
_CLASS = {Add: (3, 1, "Add"), Mul: (3, 0, "Mul")}
_POW = (3, 2, "Pow")
_SYMBOL = (2, 0, "Symbol")
_FUNCTION = {"sin": (4, 20, "sin"), "cos": (4, 21, "cos")}     # Function.class_key()


class KeyNumber:
    """A number inside a sort key, compared as SymPy 1.14 compares its numbers: ``<`` and
    ``>`` exactly by value; ``==`` by value between two rationals or two floats, but a
    Float never equals a nonzero Rational (``Float(2.0) != 2`` since SymPy 1.13), so a
    tuple comparison stops there."""

    __slots__ = ("value", "is_float")

    def __init__(self, value, is_float=False):
        self.value, self.is_float = value, is_float

    def __eq__(self, other):
        if not isinstance(other, KeyNumber):
            return NotImplemented
        if self.is_float == other.is_float:
            return self.value == other.value
        return self.value == 0 and other.value == 0

    def __hash__(self):
        return hash(self.value)

    def __lt__(self, other):
        return self.value < other.value

    def __gt__(self, other):
        return self.value > other.value

    def __le__(self, other):
        return self.value <= other.value

    def __ge__(self, other):
        return self.value >= other.value


_ONE = KeyNumber(1)
_ONE_KEY = (_NUMBER, (0, ()), (), _ONE)


def _atom_str(e):
    """``str`` of an atom as a power's base: a symbol's name, or SymPy's text of an
    integer or rational (a float base is never built: its powers evaluate to floats)."""
    if e.is_Symbol:
        return e.name
    if e.is_Float:
        raise NotImplementedError(f"printing order of a power of the float {e!r}")
    v = e.value
    return str(v) if e.is_Integer else f"{v.numerator}/{v.denominator}"


def class_key(e):
    if e.is_Number:
        return _NUMBER
    if e.is_Symbol:
        return _SYMBOL
    if e.is_Pow:
        return _POW
    if e.is_Function:
        return _FUNCTION[e.name]
    return _CLASS[type(e)]


def sort_key(e):
    """``e.sort_key()`` (order=None), cached on the node."""
    k = e._skey
    if k is None:
        k = e._skey = _sort_key(e)
    return k


def _sort_key(e):
    if e.is_Number:
        return (_NUMBER, (0, ()), (), KeyNumber(e.value, e.is_Float))
    if e.is_Symbol:
        return (_SYMBOL, (1, (e.name,)), _ONE_KEY, _ONE)
    coeff, expr = e.as_coeff_Mul()
    if expr.is_Pow:
        expr, exp = expr.as_base_exp()
    else:
        exp = ONE
    if expr.is_Atom:
        args = (_atom_str(expr),)
    else:
        if expr.is_Add:
            args = ordered_terms(expr)
        elif expr.is_Mul:
            args = ordered_factors(expr)
        else:
            args = expr.args
        args = tuple(sort_key(a) for a in args)
    return (class_key(expr), (len(args), args), sort_key(exp), KeyNumber(coeff.value, coeff.is_Float))


def cnc(e):
    """``e.args_cnc()`` (commutative part; split_1): a negative coefficient other than
    -1 is split into -1 and its absolute value."""
    c = list(e.args) if e.is_Mul else [e]
    if c[0].is_Number and c[0].value < 0 and c[0] is not NEG_ONE:
        c[:1] = [NEG_ONE, -c[0]]
    return c


def ordered_factors(e):
    """``Mul.as_ordered_factors()``."""
    c = cnc(e)
    c.sort(key=sort_key)
    return c


def _decompose_power(f):
    b, e = f.as_base_exp()
    if e.is_Integer:
        return b, int(e.value)
    raise NotImplementedError(f"printing order of a power {f!r}")


def _term_key(item):
    _, (coeff, neg_monom) = item
    return neg_monom, (), ((bool(coeff.imag), coeff.imag), (coeff.real, coeff.imag))


def ordered_terms(e):
    """``Add.as_ordered_terms()`` with order=None (lexicographic in the sorted
    generators, higher powers first; a positive number before a negative multiple
    of one factor, as in ``1 - x``); cached on the node."""
    cache = e.arena.terms
    t = cache.get(e)
    if t is None:
        t = cache[e] = _ordered_terms(e)
    return t


def _ordered_terms(e):
    args = e.args
    nums = sorted(args, key=lambda x: not x.is_Number)
    if len(nums) == 2 and nums[0].is_Number and nums[1].is_Mul:
        m = sorted(nums[1].args, key=lambda x: not x.is_Number)
        if len(m) == 2 and m[0].is_Number and nums[0].value > 0 and m[0].value < 0:
            return nums
    gens, terms = set(), []
    for term in args:
        coeff, rest = term.as_coeff_Mul()
        coeff = complex(coeff.value)
        cpart = {}
        if rest is not ONE:
            for f in (rest.args if rest.is_Mul else (rest,)):
                if f.is_Number:
                    coeff *= complex(f.value)
                    continue
                b, k = _decompose_power(f)
                cpart[b] = k
                gens.add(b)
        terms.append((term, (coeff, cpart)))
    gens = sorted(gens, key=sort_key)
    index = {g: i for i, g in enumerate(gens)}
    rows = []
    for term, (coeff, cpart) in terms:
        monom = [0] * len(gens)              # the exponents, negated (higher powers first)
        for b, k in cpart.items():
            monom[index[b]] = -k
        rows.append((term, (coeff, tuple(monom))))
    rows.sort(key=_term_key)
    return [t for t, _ in rows]


def could_extract_minus_sign(e):
    """SymPy's ``e.could_extract_minus_sign()`` (a sum's rule needs the printing order,
    so it lives here rather than on the node)."""
    return add_could_extract_minus_sign(e) if e.is_Add else e.could_extract_minus_sign()


def add_could_extract_minus_sign(e):
    """``Add.could_extract_minus_sign``: more negative than positive terms, or on a
    tie SymPy's ``sort_key(e) < sort_key(-e)``, decided here without building -e: the
    terms of -e are those of e with the opposite coefficient, in the same order (the order
    depends on their monomials only), and a term's sort key ends with its coefficient, so
    the first term decides: e < -e when its coefficient is negative. The exception is
    ``a - c*x`` (a > 0), which prints number first: compared in full."""
    neg = sum(1 for a in e.args if a.could_extract_minus_sign())
    pos = len(e.args) - neg
    if pos != neg:
        return pos < neg
    terms = ordered_terms(e)
    if terms[0].is_Number and len(terms) == 2 and terms[0].value > 0:
        return bool(sort_key(e) < sort_key(-e))      # the printed-as-``1 - x`` case
    return terms[0].as_coeff_Mul()[0].value < 0
