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
divide 13, square root 20, sin/cos 40) and associates every sum greedily, like a Huffman
code on ready times: at each step it joins the two operands that give the earliest result
(two values by an add, a value and a product by a fused multiply-add, or two products by
a multiply and a fused multiply-add), so late terms are added last and in parallel.
Products multiply their factors in order of readiness, the latest one last.

The operations and their count are unchanged; only the rounding of the sums changes
(a different association). The same association is printed for the scalar and the
batch C, which therefore still agree bit for bit. The model only orders; nothing in the
generated code depends on its numbers being exact for a given core."""

from __future__ import annotations

import heapq

ADD = MUL = 3
FMA = 4
DIV = 13
SQRT = 20
TRIG = 40


def join(a, b, lat):
    """Two signed operands ``(ready, key, text, sign)`` added: the sum's operand. Signs
    become subtractions (``a - b``); of two negative operands a term's sign goes to its
    first factor (``-x*y - b``, folded into a fused multiply-add), else it stays outside
    (``-(a + b)``), to be absorbed by a later subtraction."""
    (ra, ka, ta, sa), (rb, kb, tb, sb) = a, b
    ready, key = max(ra, rb) + lat, min(ka, kb)
    if sa > 0 and sb > 0:
        return ready, key, f"({ta} + {tb})", 1
    if sa > 0:
        return ready, key, f"({ta} - {tb})", 1
    if sb > 0:
        return ready, key, f"({tb} - {ta})", 1
    if not ta.startswith("("):                # -x*y - b: the negation folds into the fma
        return ready, key, f"(-{ta} - {tb})", 1
    if not tb.startswith("("):
        return ready, key, f"(-{tb} - {ta})", 1
    return ready, key, f"({ta} + {tb})", -1


def associate(values, products):
    """The sum of ``values`` (``(ready, key, text, sign)``, ready when the value is) and
    ``products`` (the same, ready when the operands of their last multiply are), joined
    greedily by earliest result; ties go to the lower ``key`` (the term's place in the
    printing order), so the result is deterministic. Returns ``(ready, text, sign)``
    with the outer parentheses removed."""
    values, products = list(values), sorted(products)
    heapq.heapify(values)
    while len(values) + len(products) > 1:
        options = []
        if len(values) >= 2:
            options.append((max(values[0][0], heapq.nsmallest(2, values)[1][0]) + ADD, 0, "add"))
        if values and products:
            options.append((max(values[0][0], products[0][0]) + FMA, 0, "fma"))
        if len(products) >= 2:
            options.append((max(products[0][0] + MUL, products[1][0]) + FMA, 1, "mul"))
        kind = min(options)[2]
        if kind == "add":
            a = heapq.heappop(values)
            heapq.heappush(values, join(a, heapq.heappop(values), ADD))
        elif kind == "fma":
            heapq.heappush(values, join(heapq.heappop(values), products.pop(0), FMA))
        else:
            r, k, t, s = products.pop(0)
            heapq.heappush(values, join((r + MUL, k, t, s), products.pop(0), FMA))
    ready, _, text, sign = values[0] if values else (products[0][0] + MUL,) + products[0][1:]
    if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return ready, text, sign


def _balanced(text):
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0
