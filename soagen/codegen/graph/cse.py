"""Common-subexpression elimination on :mod:`soagen.codegen.graph.expr` nodes: a port of
``sympy.cse(exprs, symbols, order="none")`` (SymPy 1.14, no pre/post optimizations):
``opt_cse`` (negations, reciprocal powers, common argument subsets of sums and
products) then ``tree_cse`` (repeated subtrees). Same algorithm, same traversal order, so
the same temporaries in the same order as SymPy; it is fast because the nodes are
interned (identity equality, no SymPy evaluation on the way)."""

from __future__ import annotations

from collections import defaultdict

from soagen.codegen.graph.expr import NEG_ONE, Add, Mul, Pow, add, mul, power
from soagen.codegen.graph.order import cnc, could_extract_minus_sign


class OrderedSet:
    """sympy.core.containers.OrderedSet (insertion order, dict based)."""

    __slots__ = ("map",)

    def __init__(self, iterable=None):
        self.map = dict.fromkeys(iterable) if iterable else {}

    def __len__(self):
        return len(self.map)

    def __contains__(self, key):
        return key in self.map

    def __iter__(self):
        return iter(self.map)

    def add(self, key):
        self.map[key] = None

    def discard(self, key):
        self.map.pop(key)

    remove = discard

    def pop(self, last=True):
        if last:
            return self.map.popitem()[0]
        k = next(iter(self.map))
        del self.map[k]
        return k

    def intersection(self, other):
        return OrderedSet([v for v in self.map if v in other])

    def difference(self, other):
        return OrderedSet([v for v in self.map if v not in other])

    def __sub__(self, other):
        return self.difference(other)

    def __or__(self, other):
        out = OrderedSet(self.map)
        out.update(other)
        return out

    def __iand__(self, other):
        for v in [v for v in self.map if v not in other]:
            del self.map[v]
        return self

    def update(self, iterable):
        for v in iterable:
            self.map[v] = None

    def clear(self):
        self.map.clear()


class Unevaluated:
    """A sum/product/power whose arguments are still being rewritten."""

    __slots__ = ("func", "args")
    is_Atom = False

    def __init__(self, func, args):
        self.func, self.args = func, args


_FUNC = {Add: add, Mul: mul, Pow: power}


class FuncArgTracker:
    """sympy.simplify.cse_main.FuncArgTracker."""

    def __init__(self, funcs):
        self.value_numbers = {}
        self.value_number_to_value = []
        self.arg_to_funcset = []
        self.func_to_argset = []
        for func_i, func in enumerate(funcs):
            func_argset = OrderedSet()
            for func_arg in func.args:
                n = self.get_or_add_value_number(func_arg)
                func_argset.add(n)
                self.arg_to_funcset[n].add(func_i)
            self.func_to_argset.append(func_argset)

    def get_args_in_value_order(self, argset):
        return [self.value_number_to_value[n] for n in sorted(argset)]

    def get_or_add_value_number(self, value):
        nvalues = len(self.value_numbers)
        n = self.value_numbers.setdefault(value, nvalues)
        if n == nvalues:
            self.value_number_to_value.append(value)
            self.arg_to_funcset.append(OrderedSet())
        return n

    def stop_arg_tracking(self, func_i):
        for arg in self.func_to_argset[func_i]:
            self.arg_to_funcset[arg].remove(func_i)

    def get_common_arg_candidates(self, argset, min_func_i=0):
        count_map = defaultdict(lambda: 0)
        if not argset:
            return count_map
        funcsets = [self.arg_to_funcset[arg] for arg in argset]
        largest = max(funcsets, key=len)
        for funcset in funcsets:
            if largest is funcset:
                continue
            for func_i in funcset:
                if func_i >= min_func_i:
                    count_map[func_i] += 1
        smaller, larger = sorted([largest, count_map], key=len)
        for func_i in list(smaller):
            if count_map[func_i] < 1:
                continue
            if func_i in larger:
                count_map[func_i] += 1
        return {k: v for k, v in count_map.items() if v >= 2}

    def get_subset_candidates(self, argset, restrict_to_funcset=None):
        iarg = iter(argset)
        indices = OrderedSet(fi for fi in self.arg_to_funcset[next(iarg)])
        if restrict_to_funcset is not None:
            indices &= restrict_to_funcset
        for arg in iarg:
            indices &= self.arg_to_funcset[arg]
        return indices

    def update_func_argset(self, func_i, new_argset):
        new_args = OrderedSet(new_argset)
        old_args = self.func_to_argset[func_i]
        for deleted in old_args - new_args:
            self.arg_to_funcset[deleted].remove(func_i)
        for added in new_args - old_args:
            self.arg_to_funcset[added].add(func_i)
        self.func_to_argset[func_i].clear()
        self.func_to_argset[func_i].update(new_args)


def match_common_args(func_class, funcs, opt_subs):
    """Common argument subsets of sums (products), extracted as new sums (products)."""
    funcs = sorted(funcs, key=lambda f: len(f.args))
    tracker = FuncArgTracker(funcs)
    changed = OrderedSet()
    for i in range(len(funcs)):
        counts = tracker.get_common_arg_candidates(tracker.func_to_argset[i], min_func_i=i + 1)
        candidates = OrderedSet(sorted(counts.keys(), key=lambda k: (counts[k], k)))
        while candidates:
            j = candidates.pop(last=False)
            com_args = tracker.func_to_argset[i].intersection(tracker.func_to_argset[j])
            if len(com_args) <= 1:
                continue
            diff_i = tracker.func_to_argset[i].difference(com_args)
            if diff_i:
                com_func = Unevaluated(func_class, tracker.get_args_in_value_order(com_args))
                com_func_number = tracker.get_or_add_value_number(com_func)
                tracker.update_func_argset(i, diff_i | OrderedSet([com_func_number]))
                changed.add(i)
            else:
                com_func_number = tracker.get_or_add_value_number(funcs[i])
            diff_j = tracker.func_to_argset[j].difference(com_args)
            tracker.update_func_argset(j, diff_j | OrderedSet([com_func_number]))
            changed.add(j)
            for k in tracker.get_subset_candidates(com_args, candidates):
                diff_k = tracker.func_to_argset[k].difference(com_args)
                tracker.update_func_argset(k, diff_k | OrderedSet([com_func_number]))
                changed.add(k)
        if i in changed:
            opt_subs[funcs[i]] = Unevaluated(func_class,
                                             tracker.get_args_in_value_order(tracker.func_to_argset[i]))
        tracker.stop_arg_tracking(i)


def opt_cse(exprs):
    """Substitutions that expose more common subexpressions (negated sums and products,
    x**-k as (x**k)**-1, common argument subsets)."""
    opt_subs = {}
    adds, muls = OrderedSet(), OrderedSet()
    seen = set()
    for e in exprs:
        _find_opts(e, seen, opt_subs, adds, muls)
    commutative_muls = OrderedSet()
    for m in muls:
        c = cnc(m)
        c_mul = mul(*c)
        if len(c) > 1:
            commutative_muls.add(c_mul)
    match_common_args(Add, adds, opt_subs)
    match_common_args(Mul, commutative_muls, opt_subs)
    return opt_subs


def _find_opts(expr, seen, opt_subs, adds, muls):
    if expr.is_Atom or expr in seen:
        return
    seen.add(expr)
    for a in expr.args:
        _find_opts(a, seen, opt_subs, adds, muls)
    if could_extract_minus_sign(expr):
        neg = add(*(-i for i in expr.args)) if expr.is_Add else -expr
        if not neg.is_Atom:
            opt_subs[expr] = Unevaluated(Mul, (NEG_ONE, neg))
            seen.add(neg)
            expr = neg
    if expr.is_Mul:
        muls.add(expr)
    elif expr.is_Add:
        adds.add(expr)
    elif expr.is_Pow:
        base, exp = expr.args
        if could_extract_minus_sign(exp):
            opt_subs[expr] = Unevaluated(Pow, (power(base, -exp), NEG_ONE))


def tree_cse(exprs, symbols, opt_subs):
    """Replace every subtree seen twice (after ``opt_subs``) by a new symbol; returns
    (replacements in definition order, reduced expressions)."""
    to_eliminate, seen, excluded = set(), set(), set()

    def find_repeated(expr):
        if expr.is_Atom:
            if expr.is_Symbol:
                excluded.add(expr.name)
            return
        if expr in seen:
            to_eliminate.add(expr)
            return
        seen.add(expr)
        if expr in opt_subs:
            expr = opt_subs[expr]
        for a in expr.args:
            find_repeated(a)

    for e in exprs:
        find_repeated(e)
    names = (s for s in symbols if s.name not in excluded)
    replacements, subs = [], {}

    def rebuild(expr):
        if not expr.args:
            return expr
        if expr in subs:
            return subs[expr]
        orig = expr
        if expr in opt_subs:
            expr = opt_subs[expr]
        new_args = [rebuild(a) for a in expr.args]
        func = _FUNC[expr.func] if isinstance(expr, Unevaluated) else expr.func
        new = func(*new_args)              # SymPy rebuilds every node (list != tuple)
        if orig in to_eliminate:
            sym = next(names)
            subs[orig] = sym
            replacements.append((sym, new))
            return sym
        return new

    return replacements, [rebuild(e) for e in exprs]


def cse(exprs, symbols):
    """``sympy.cse(exprs, symbols=symbols, order="none")`` on nodes."""
    return tree_cse(exprs, symbols, opt_cse(exprs))
