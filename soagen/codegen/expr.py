"""The expressions of the unroller: a hash-consed DAG with SymPy's canonical forms.

The code generator runs the generic recursions on symbols. SymPy builds every ``Add`` and
``Mul`` through its general evaluation machinery (assumption queries, caches, sympify),
which made that the dominant cost of ``soagen generate``. The expressions here are the
same objects *structurally* (same classes, same canonical argument order, same float
rounding) but built by a direct port of SymPy's automatic evaluation
(``Add.flatten``, ``Mul.flatten``, ``Pow``, numbers) restricted to what the recursions
produce: integers, rationals, floats, symbols, sums, products, integer powers and
sin/cos of a symbol. Anything outside that subset is handed to SymPy and converted back
(:func:`to_sympy`, :func:`from_sympy`), so the result is SymPy's in every case; the
differential tests check this on random expressions.

Nodes are interned in an :class:`Arena` (one per unrolled function, owned by its
:class:`~soagen.codegen.unroll.UnrollBackend` and made current on the building thread by
:func:`use`):
structurally equal nodes are the same object, so equality is identity and hashing is by
address; a canonical sum or product is marked (``canon``), so evaluating its arguments
again is a table lookup. ``key`` orders nodes exactly like ``sympy.Basic.compare`` (the
order of a canonical ``Add`` / ``Mul``'s arguments), as nested tuples compared in C. The
arena frees the nodes nothing else refers to (:meth:`Arena.sweep`).

A division by an exact zero or a float overflow gives :data:`NONFINITE`, which absorbs
every operation; the unroller refuses it with a clear error (never NaN in generated code).
"""

from __future__ import annotations

import gc
import math
import platform
import sys
import threading
from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache

import sympy
from mpmath.libmp import from_float
from sympy.core.basic import ordering_of_classes

_UNKNOWN = len(ordering_of_classes) + 1
_REFCOUNTS = platform.python_implementation() == "CPython"


def _rank(clsname):
    try:
        return (ordering_of_classes.index(clsname), "")
    except ValueError:
        return (_UNKNOWN, clsname)


class Unsupported(Exception):
    """An operation outside the ported subset: SymPy computes it instead."""


class Expr:
    __slots__ = ("args", "key", "_skey", "_sym", "arena", "canon")
    is_Number = is_Symbol = is_Add = is_Mul = is_Pow = is_Function = is_Atom = False
    is_Rational = is_Integer = is_Float = False
    is_finite = True

    # -- arithmetic: SymPy's Expr dunders (operands in the same order SymPy passes them);
    # number with number is SymPy's number arithmetic, not Add/Mul --
    def __add__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _binop(_ADD, self, o)

    def __radd__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _binop(_ADD, o, self)

    def __sub__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _sub(self, o)

    def __rsub__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _sub(o, self)

    def __mul__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _binop(_MUL, self, o)

    def __rmul__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _binop(_MUL, o, self)

    def __truediv__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _div(self, o)

    def __rtruediv__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else _div(o, self)

    def __pow__(self, other):
        o = _operand(other)
        return NotImplemented if o is None else power(self, o)

    def __neg__(self):                                      # Expr.__neg__: unevaluated -1*x
        return _from_args(Mul, (NEG_ONE, self))

    def __bool__(self):
        raise TypeError("truth value of a symbolic expression")

    def __repr__(self):
        return str(to_sympy(self))

    __str__ = __repr__

    # -- SymPy's structural helpers, as far as the unroller needs them --
    def as_coeff_Mul(self):
        return ONE, self

    def as_base_exp(self):
        return self, ONE

    @property
    def free_symbols(self):
        """The symbols in this expression (a set; not cached on the nodes: expressions
        here are short and a cache per node cost more memory than the whole program)."""
        out, seen, stack = set(), set(), [self]
        while stack:
            n = stack.pop()
            if n.is_Symbol:
                out.add(n)
            elif n.args and n not in seen:
                seen.add(n)
                stack.extend(n.args)
        return out

    def could_extract_minus_sign(self):
        return False


class Replacer:
    """``e.xreplace(rule)`` on many expressions: subtrees shared between the expressions
    are rebuilt once. With ``renaming`` (``rule`` maps symbols to distinct symbols) a
    canonical sum or product is rebuilt by sorting its arguments again, which is what its
    evaluation would do (a renaming creates no like terms or powers)."""

    def __init__(self, rule, renaming=False):
        self.rule, self.memo, self.renaming = rule, {}, renaming

    def __call__(self, e):
        r = self.rule.get(e)
        if r is not None:
            return r
        if not e.args:
            return e
        r = self.memo.get(e)
        if r is None:
            args = [self(a) for a in e.args]
            if all(a is b for a, b in zip(args, e.args)):
                r = e
            elif self.renaming and e.canon:     # number first, the rest in Basic.compare order
                k = 1 if args[0].is_Number else 0
                r = _intern(type(e), tuple(args[:k] + sorted(args[k:], key=_key)))
                r.canon = True
            else:
                r = e.func(*args)
            self.memo[e] = r
        return r


# ---------------------------------------------------------------------------------------
# Atoms

class Num(Expr):
    """Integer, Rational or Float (SymPy's Zero, One, NegativeOne and Half are the
    singleton integers/rationals with their own class names)."""

    __slots__ = ("value", "clsname", "is_Rational", "is_Integer", "is_Float")
    is_Number = is_Atom = True

    def could_extract_minus_sign(self):
        return self.value < 0

    def as_coeff_Mul(self):
        return self, ONE

    @property
    def free_symbols(self):
        return frozenset()

    def __neg__(self):
        if self.clsname == "Float" and self.value == 0:
            return self                                 # Float.__neg__ keeps 0.0
        return _number(-self.value, self.clsname == "Float")

    def sympy(self):
        """The SymPy number (kept for sort keys, which compare numbers SymPy's way)."""
        s = self._sym
        if s is None:
            s = self._sym = _sympy_number(self.is_Float, self.value)
        return s


@lru_cache(maxsize=1 << 16)
def _sympy_number(is_float, v):
    if is_float:
        return sympy.Float(v)
    return sympy.Rational(v.numerator, v.denominator) if type(v) is Fraction else sympy.Integer(v)


class Sym(Expr):
    __slots__ = ("name",)
    is_Symbol = is_Atom = True

    @property
    def free_symbols(self):
        return frozenset((self,))


class NonFinite(Expr):
    """zoo / nan / an overflowed float: absorbs every operation (see the module doc).
    As a number it is a NaN float, so number arithmetic keeps it non-finite."""

    __slots__ = ()
    is_Atom = True
    is_finite = False
    is_Float = True
    value = math.nan
    clsname = "Float"

    @property
    def free_symbols(self):
        return frozenset()

    def __neg__(self):
        return self

    def __repr__(self):
        return "zoo"


# ---------------------------------------------------------------------------------------
# Compound nodes

class Add(Expr):
    __slots__ = ()
    is_Add = True

    @staticmethod
    def func(*args):
        return add(*args)

    def __neg__(self):                                      # Add.__neg__: Mul(-1, self)
        return mul(NEG_ONE, self)


class Mul(Expr):
    __slots__ = ()
    is_Mul = True

    @staticmethod
    def func(*args):
        return mul(*args)

    def as_coeff_Mul(self):
        c = self.args[0]
        if c.is_Number:
            rest = self.args[1:]
            return c, (rest[0] if len(rest) == 1 else _from_args(Mul, rest))
        return ONE, self

    def could_extract_minus_sign(self):
        c = self.args[0]
        return c.is_Number and c.value < 0

    def __neg__(self):                                      # Mul.__neg__
        args = self.args
        c = args[0]
        if c.is_Number:
            if c.is_Rational:                               # as_coeff_mul(rational=True)
                c, args = -c, args[1:]
            elif c.value < 0:
                c, args = ONE, (-c,) + args[1:]
            else:
                c = NEG_ONE
        else:
            c = NEG_ONE
        if c is not ONE:
            if args[0].is_Number:
                args = (-args[0] if c is NEG_ONE else _num_mul(args[0], c),) + tuple(args[1:])
            else:
                args = (c,) + tuple(args)
        return _from_args(Mul, args)


class Pow(Expr):
    __slots__ = ()
    is_Pow = True

    @staticmethod
    def func(b, e):
        return power(b, e)

    @property
    def base(self):
        return self.args[0]

    @property
    def exp(self):
        return self.args[1]

    def as_base_exp(self):
        b, e = self.args
        if b.is_Rational and not b.is_Integer and b.value.numerator == 1:
            return _number(b.value.denominator), -e
        return b, e


class Fn(Expr):
    """sin or cos of one argument."""

    __slots__ = ("name",)
    is_Function = True

    @property
    def func(self):
        return FUNCTIONS[self.name]


# ---------------------------------------------------------------------------------------
# The arena: interning table and operation cache

_SINGLETONS: dict = {}     # 0, 1, -1, 1/2: in every arena's table (filled below)


class Arena:
    """The interning table and operation caches of one unrolled function. An
    :class:`~soagen.codegen.unroll.UnrollBackend` owns one; nodes are built in the arena
    made current by :func:`use` on this thread (never in a process-wide table), so two
    backends, interleaved or on two threads, never see each other's nodes."""

    __slots__ = ("table", "sym", "terms", "swept", "__weakref__")

    def __init__(self):
        self.table = dict(_SINGLETONS)
        self.sym = {}           # sympy object -> node (conversion cache)
        self.terms = {}         # sum -> its terms in printing order
        self.swept = 0          # table size after the last sweep

    def sweep(self):
        """Drop the nodes nothing but the table refers to any more (intermediate results
        of the recursions), so that memory follows the live program, not everything ever
        built. Nodes are created after their arguments, so one pass from the newest
        entry backwards frees whole dead subtrees. Exact on CPython (reference counts);
        elsewhere a no-op (keeping a node is always correct)."""
        self.terms.clear()
        if _REFCOUNTS:
            t, keys = self.table, list(self.table)
            while keys:
                k = keys.pop()
                n = t[k]
                if sys.getrefcount(n) <= 3:          # the table, ``n`` and the call
                    del t[k]
                del k, n
        self.swept = len(self.table)

    def release(self):
        """Drop every node (they refer to the arena: without this the cycle waits for the
        cyclic garbage collector)."""
        self.table.clear()
        self.sym.clear()
        self.terms.clear()

    def maybe_sweep(self):
        """Sweep when the table has doubled since the last sweep (amortized O(1))."""
        if len(self.table) > 2 * self.swept + 20000:
            self.sweep()


class _NoArena:
    """The current arena of a thread that has entered none: building a node is an error
    (nodes must not land in a table that nobody owns)."""

    __slots__ = ()

    @property
    def table(self):
        raise RuntimeError("expression nodes are built inside an arena: "
                           "`with expr.arena():`, `with expr.use(a):` or `with UnrollBackend() as xp:`")

    sym = table


class _Current(threading.local):
    arena = _NoArena()


_CURRENT = _Current()      # per thread: the arena new nodes go to (set only by use())


@contextmanager
def arena():
    """A fresh interning table for a short computation (a test, a conversion, a count),
    current on this thread for the ``with`` block. Nodes from different arenas must not
    be mixed."""
    with use(Arena()) as a:
        yield a


@contextmanager
def use(a):
    """Make ``a`` (an :class:`Arena`) the arena new nodes go to on this thread, for the
    ``with`` block."""
    saved = _CURRENT.arena
    _CURRENT.arena = a
    try:
        yield a
    finally:
        _CURRENT.arena = saved


def current_arena():
    """The arena new nodes go to on this thread."""
    return _CURRENT.arena


DEEP_STACK = 1 << 29                 # bytes of stack for deep expressions (virtual; used as touched)
DEEP_RECURSION = 200_000


def deep(fn, *args, **kw):
    """``fn(*args, **kw)`` on a thread with a large stack and recursion limit. Expressions
    that are not named along a chain (a world rotation as the product of N link rotations)
    are N levels deep, and SymPy's algorithms (ported here) are recursive: a 2000-link
    chain needs ~10^4 levels, beyond Python's default 1000 and the main thread's stack."""
    import threading

    out = {}

    def run():
        try:
            out["value"] = fn(*args, **kw)
        except BaseException as err:           # re-raised in the caller's thread
            out["error"] = err

    limit, size = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(limit, DEEP_RECURSION))
    try:
        threading.stack_size(DEEP_STACK)
        t = threading.Thread(target=run, name="soagen-unroll")
        t.start()
    finally:
        threading.stack_size(size)
    t.join()
    sys.setrecursionlimit(limit)
    if "error" in out:
        raise out["error"]
    return out["value"]


@contextmanager
def gc_paused():
    """Python's cyclic garbage collector paused: it would scan every live node again and
    again while the program is built (a quarter of the time, and growing with N). The
    nodes need no cycle collection while an arena is in use (the arena frees them by
    reference counts, :meth:`_Arena.sweep`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _intern(cls, args):
    """The node ``cls(*args)`` (no evaluation), created once per arena. Callers keep
    NONFINITE out of ``args`` (it is never an argument: it absorbs the whole expression)."""
    k = (cls, args)
    a = _CURRENT.arena
    t = a.table
    n = t.get(k)
    if n is None:
        n = object.__new__(cls)
        n.args = args
        n.key = (_RANK[cls], len(args)) + tuple([a.key for a in args])
        n._skey = None
        n._sym = None
        n.arena = a
        n.canon = False
        t[k] = n
    return n


def _from_args(cls, args):
    """``cls._from_args``: a node with these (already canonical) arguments."""
    if len(args) == 1:
        return args[0]
    if not args:
        return ONE if cls is Mul else ZERO
    return _intern(cls, tuple(args))


_RANK = {Add: _rank("Add"), Mul: _rank("Mul"), Pow: _rank("Pow")}


def _number(v, is_float=False):
    """A number node; ``is_float``: the value is a Float (an arithmetic result of 0.0 is
    SymPy's integer zero, as ``Float._new`` makes it)."""
    if is_float:
        v = float(v)
        if v == 0.0:
            return ZERO
        if not math.isfinite(v):
            return NONFINITE
        return _float_node(v)
    if type(v) is Fraction:
        if v.denominator == 1:
            v = v.numerator
        else:
            k = ("r", v)
            t = _CURRENT.arena.table
            n = t.get(k)
            if n is None:
                n = t[k] = _make_num(v, "Half" if v == Fraction(1, 2) else "Rational", (v.numerator, v.denominator))
            return n
    v = int(v)
    k = ("i", v)
    t = _CURRENT.arena.table
    n = t.get(k)
    if n is None:
        name = {0: "Zero", 1: "One", -1: "NegativeOne"}.get(v, "Integer")
        n = t[k] = _make_num(v, name, (v, 1))
    return n


def _float_node(v):
    k = ("f", v)
    t = _CURRENT.arena.table
    n = t.get(k)
    if n is None:
        n = t[k] = _make_num(v, "Float", (from_float(v), 53))
    return n


def _make_num(v, clsname, content):
    n = object.__new__(Num)
    n.value, n.clsname, n.args = v, clsname, ()
    n.is_Float = clsname == "Float"
    n.is_Rational = not n.is_Float
    n.is_Integer = clsname in ("Zero", "One", "NegativeOne", "Integer")
    n.key = (_rank(clsname), len(content)) + content
    n._skey = n._sym = None
    n.arena = _CURRENT.arena
    return n


def symbol(name, sympy_symbol=None):
    """The symbol ``name`` (with the assumptions of ``sympy_symbol`` when given)."""
    s = sympy_symbol if sympy_symbol is not None else sympy.Symbol(name)
    k = ("s", s)
    a = _CURRENT.arena
    n = a.table.get(k)
    if n is None:
        n = object.__new__(Sym)
        n.name, n.args = s.name, ()
        content = s._hashable_content()
        n.key = (_rank("Symbol"), len(content)) + content
        n._skey = None
        n._sym = s
        n.arena = a
        a.table[k] = n
    return n


NONFINITE = object.__new__(NonFinite)
NONFINITE.args, NONFINITE.key, NONFINITE._skey = (), ((-1, ""), 0), None
NONFINITE.arena = None
NONFINITE._sym = sympy.zoo
with use(Arena()) as _boot:             # the numbers every arena shares (arena None)
    ZERO, ONE, NEG_ONE, HALF = _number(0), _number(1), _number(-1), _number(Fraction(1, 2))
_SINGLETONS.update(_boot.table)
for _n in _SINGLETONS.values():
    _n.arena = None


def sympify(x):
    """A node from a node, a Python/numpy number or a SymPy expression (SymPy's
    ``_sympify``: a Python float becomes a Float, an int an Integer)."""
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        raise TypeError("bool in an expression")
    if isinstance(x, int):
        return _number(x)
    if isinstance(x, float):
        if not math.isfinite(x):
            return NONFINITE
        return _float_node(x)                          # Float(0.0) stays a Float
    if isinstance(x, sympy.Basic):
        return from_sympy(x)
    import numpy as np

    if isinstance(x, np.integer):
        return _number(int(x))
    if isinstance(x, np.floating):
        return sympify(float(x))
    raise TypeError(f"cannot use {type(x).__name__} in an expression")


# ---------------------------------------------------------------------------------------
# Numbers (SymPy semantics: exact integers and rationals, Float ops correctly rounded to
# 53 bits, which is IEEE double arithmetic)

def _num_add(a, b):
    if a.is_Float or b.is_Float:
        return _number(float(a.value) + float(b.value), True)
    return _number(a.value + b.value)          # int + Fraction is a Fraction: exact


def _num_mul(a, b):
    if a.is_Float or b.is_Float:
        return _number(float(a.value) * float(b.value), True)
    return _number(a.value * b.value)


def _num_div(a, b):
    if b.value == 0:
        return NONFINITE
    if a.clsname == "Float":
        return _number(_fval(a) / _fval(b), True)
    if b.clsname == "Float":                    # Rational.__truediv__: self * (1/other)
        return _number(_fval(a) * (1.0 / _fval(b)), True)
    return _number(_rat(a.value) / _rat(b.value))


def _fval(n):
    return float(n.value)       # Fraction -> float is correctly rounded, as SymPy's mpf


def _rat(v):
    return v if type(v) is Fraction else Fraction(v)


# ---------------------------------------------------------------------------------------
# Add, Mul, Pow: ports of SymPy's evaluation

_ADD, _MUL = 0, 1


def _operand(x):
    """The other operand of an arithmetic dunder as a node, or None (NotImplemented, so
    that e.g. numpy broadcasts) for what SymPy would not sympify either."""
    if isinstance(x, Expr):
        return x
    try:
        return sympify(x)
    except TypeError:
        return None


def _binop(op, a, b):
    if a.is_Number and b.is_Number:
        return _num_add(a, b) if op == _ADD else _num_mul(a, b)
    return add(a, b) if op == _ADD else mul(a, b)


def _sub(a, b):
    """a - b: Expr.__sub__ is Add(a, -b); for two numbers, number subtraction."""
    if a.is_Number and b.is_Number:
        if a.clsname == "Float" or b.clsname == "Float":
            return _number(_fval(a) - _fval(b), True)
        return _number(_rat(a.value) - _rat(b.value))
    return add(a, -b)


def _div(a, b):
    """a / b: Expr.__truediv__ is Mul(a, Pow(b, -1)) (just the power when a is 1)."""
    if a.is_Number and b.is_Number:
        return _num_div(a, b)
    denom = power(b, NEG_ONE)
    return denom if a is ONE else mul(a, denom)


def add(*args):
    """``Add(*args)`` with evaluation (AssocOp.__new__ + Add.flatten)."""
    args = [a for a in args if a is not ZERO]
    if len(args) < 2:
        return args[0] if args else ZERO
    n = _CURRENT.arena.table.get((Add, tuple(args)))
    if n is not None and n.canon:       # a canonical sum is its own evaluation
        return n
    if NONFINITE in args:
        return NONFINITE
    try:
        return _add(args)
    except Unsupported:
        return _via_sympy(sympy.Add, args)


def _add(args):
    if len(args) == 2:
        a, b = args
        if b.is_Rational:
            a, b = b, a
        if a.is_Rational and b.is_Mul:
            return _from_args(Add, (a, b))
    terms, single = {}, {}
    coeff = ZERO
    seq = list(args)
    i = 0
    while i < len(seq):
        o = seq[i]
        i += 1
        if o.is_Number:
            coeff = _num_add(coeff, o)
            continue
        if o.is_Add:
            seq.extend(o.args)
            continue
        # o = c*s; a product's s is keyed by its factors (a tuple, or the one factor),
        # which is the identity of the node Mul(*factors) without building it
        if o.is_Mul:
            args = o.args
            if args[0].is_Number:
                c, s = args[0], (args[1] if len(args) == 2 else args[1:])
            else:
                c, s = ONE, args
        elif o.is_Pow:
            b, e = o.as_base_exp()
            if b.is_Number and (e.is_Integer or (e.is_Rational and e.value < 0)):
                raise Unsupported("numeric power in Add")
            c, s = ONE, o
        else:
            c, s = ONE, o
        old = terms.get(s)
        if old is None:
            terms[s] = c
            single[s] = o
        else:
            terms[s] = _num_add(old, c)
            single.pop(s, None)
    if coeff is NONFINITE or NONFINITE in terms.values():
        return NONFINITE
    newseq = []
    for s, c in terms.items():
        if c.value == 0:
            continue
        o = single.get(s)
        if type(s) is tuple:                # the product of these factors, times c
            if o is not None:
                newseq.append(o)            # a term met once is rebuilt as itself
            else:
                newseq.append(_from_args(Mul, s if c is ONE else (c,) + s))
        elif o is not None and (c is ONE or s.is_Mul or s.is_Add or o.canon):
            newseq.append(o)
        elif c is ONE:
            newseq.append(s)
        elif s.is_Add:
            newseq.append(_from_args(Mul, (c, s)))
        else:
            newseq.append(mul(c, s))
    newseq.sort(key=_key)
    if coeff is not ZERO:
        newseq.insert(0, coeff)
    r = _from_args(Add, newseq)
    if r.__class__ is Add:
        r.canon = True
    return r


def _key(n):
    return n.key


def _keep_coeff(coeff, factors):
    """sympy.core.mul._keep_coeff(coeff, factors) for a Number ``coeff``."""
    if factors is ONE:
        return coeff
    if coeff is ONE:
        return factors
    if coeff is NEG_ONE:
        return -factors
    if factors.is_Add:
        return _from_args(Mul, (coeff, factors))
    if factors.is_Mul:
        margs = list(factors.args)
        if margs[0].is_Number:
            margs[0] = _num_mul(margs[0], coeff)
            if margs[0] is NONFINITE:
                return NONFINITE
            if margs[0] is ONE:
                margs.pop(0)
        else:
            margs.insert(0, coeff)
        return _from_args(Mul, margs)
    m = mul(coeff, factors)
    if m.is_Number and not factors.is_Number:
        m = _from_args(Mul, (coeff, factors))
    return m


def mul(*args):
    """``Mul(*args)`` with evaluation (AssocOp.__new__ + Mul.flatten)."""
    args = [a for a in args if a is not ONE]
    if len(args) < 2:
        return args[0] if args else ONE
    if len(args) == 2:                  # the commonest products, as flatten makes them:
        a, b = args
        if b.is_Number:
            a, b = b, a
        if a.is_Number and b.is_finite:
            if a.value == 0:            # 0*x = 0 (SymPy's integer zero)
                return ZERO
            if b.is_Symbol or b.is_Function or (b.is_Pow and not b.args[0].is_Number):
                r = _intern(Mul, (a, b))          # c*x
                r.canon = True
                return r
    n = _CURRENT.arena.table.get((Mul, tuple(args)))
    if n is not None and n.canon:       # a canonical product is its own evaluation
        return n
    if NONFINITE in args:
        return NONFINITE
    try:
        return _mul(args)
    except Unsupported:
        return _via_sympy(sympy.Mul, args)


def _mul(seq):
    if len(seq) == 2:                                       # the 2-arg hack
        a, b = seq
        if b.is_Rational:
            a, b = b, a
            seq = [a, b]
        if a.is_Rational and a.value != 0:
            r, bb = b.as_coeff_Mul()
            if bb.is_Add:
                if r is not ONE:
                    ar = _num_mul(a, r)
                    return bb if ar is ONE else ar if ar is NONFINITE else _from_args(Mul, (ar, bb))
                return add(*[_keep_coeff(a, bi) for bi in bb.args])
    coeff = ONE
    c_powers = []
    i = 0
    seq = list(seq)
    while i < len(seq):
        o = seq[i]
        i += 1
        if o.is_Mul:
            seq.extend(o.args)
            continue
        if o.is_Number:
            coeff = _num_mul(coeff, o)
            continue
        b, e = o.as_base_exp()
        if o.is_Pow and b.is_Number:
            raise Unsupported("numeric base power in Mul")
        c_powers.append((b, e))
    # _gather: exponents of common bases (exponents here are numbers: as_coeff_Mul -> (e, 1))
    common = {}
    for b, e in c_powers:
        if not e.is_Number:
            raise Unsupported("symbolic exponent")
        common.setdefault(b, []).append(e)
    c_powers = []
    for b, es in common.items():
        e = es[0]
        for x in es[1:]:
            e = _num_add(e, x)
        c_powers.append((b, e))
    c_part = []
    new_bases = []
    for b, e in c_powers:
        if e.value == 0:
            continue
        if e is ONE:
            if b.is_Number:
                coeff = _num_mul(coeff, b)
                continue
            p = b
        else:
            p = power(b, e)
            if p.is_Pow and not b.is_Pow and p.args[0] is not b:
                raise Unsupported("power changed its base")
        c_part.append(p)
        new_bases.append(b)
    if coeff.value == 0 or coeff is NONFINITE:
        return coeff
    rest = []
    for x in c_part:
        if x.is_Number:
            coeff = _num_mul(coeff, x)
        else:
            rest.append(x)
    c_part = rest
    if coeff is NONFINITE:
        return NONFINITE
    c_part.sort(key=_key)
    if coeff is not ONE:
        c_part.insert(0, coeff)
    if len(c_part) == 2 and c_part[0].is_Number and c_part[1].is_Add:   # 2*(1+a) -> 2 + 2*a
        coeff = c_part[0]
        return add(*[coeff * f for f in c_part[1].args])
    r = _from_args(Mul, c_part)
    if r.__class__ is Mul:
        r.canon = True
    return r


def power(b, e):
    """``Pow(b, e)`` with evaluation, for integer exponents of symbols, functions and
    sums (anything else is SymPy's)."""
    if not (b.is_finite and e.is_finite):
        return NONFINITE
    if e is ZERO:
        return ONE
    if e is ONE:
        return b
    if e is NEG_ONE and b.is_Number and b.value == 0:
        return NONFINITE                                    # 1/0 = zoo
    if e.is_Integer:
        if b.is_Symbol or b.is_Function or (b.is_Add and e is NEG_ONE):
            return _intern(Pow, (b, e))
        if b.is_Pow and b.args[1].is_Integer:
            return power(b.args[0], _num_mul(b.args[1], e))
    return _via_sympy(sympy.Pow, (b, e))


def _via_sympy(fn, args):
    return from_sympy(fn(*[to_sympy(a) for a in args]))


def sin(x):
    return _fn("sin", x)


def cos(x):
    return _fn("cos", x)


FUNCTIONS = {"sin": sin, "cos": cos}
_FN_RANK = {"sin": _rank("sin"), "cos": _rank("cos")}


def _fn(name, x):
    x = sympify(x)
    if not x.is_finite:
        return NONFINITE
    if not x.is_Symbol:
        return _via_sympy(getattr(sympy, name), (x,))
    k = (name, x)
    a = _CURRENT.arena
    n = a.table.get(k)
    if n is None:
        n = object.__new__(Fn)
        n.name, n.args = name, (x,)
        n.key = (_FN_RANK[name], 1, x.key)
        n._skey = n._sym = None
        n.arena = a
        n.canon = False
        a.table[k] = n
    return n


# ---------------------------------------------------------------------------------------
# Conversion to and from SymPy (structural: no re-evaluation, so exact both ways)

def to_sympy(e):
    s = e._sym
    if s is not None:
        return s
    if e.is_Number:
        s = e.sympy()
    elif e.is_Add:
        s = sympy.Add._from_args([to_sympy(a) for a in e.args])
    elif e.is_Mul:
        s = sympy.Mul._from_args([to_sympy(a) for a in e.args])
    elif e.is_Pow:
        s = sympy.Pow(to_sympy(e.args[0]), to_sympy(e.args[1]), evaluate=False)
    elif e.is_Function:
        s = getattr(sympy, e.name)(to_sympy(e.args[0]), evaluate=False)
    else:
        raise TypeError(f"cannot convert {e!r}")
    e._sym = s
    return s


def from_sympy(s):
    cache = _CURRENT.arena.sym
    n = cache.get(s)
    if n is not None:
        return n
    if s.is_Number:
        if s.is_Float:
            v = float(s)
            n = _float_node(v) if math.isfinite(v) else NONFINITE
        elif s.is_Integer:
            n = _number(int(s))
        elif s.is_Rational:
            n = _number(Fraction(int(s.p), int(s.q)))
        else:
            n = NONFINITE                               # zoo, nan, oo
    elif s.is_Symbol:
        n = symbol(s.name, s)
    elif s.is_Add:
        args = [from_sympy(a) for a in s.args]
        n = NONFINITE if NONFINITE in args else _from_args(Add, args)
    elif s.is_Mul:
        args = [from_sympy(a) for a in s.args]
        n = NONFINITE if NONFINITE in args else _from_args(Mul, args)
    elif s.is_Pow:
        b, e = from_sympy(s.args[0]), from_sympy(s.args[1])
        n = _intern(Pow, (b, e)) if b.is_finite and e.is_finite else NONFINITE
    elif isinstance(s, (sympy.sin, sympy.cos)) and s.args[0].is_Symbol:
        n = _fn(type(s).__name__, from_sympy(s.args[0]))
    elif s in (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        n = NONFINITE
    else:
        raise TypeError(f"unsupported expression in generated code: {s}")
    cache[s] = n
    return n
