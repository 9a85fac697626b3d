"""The order of a generated C function's statements: fewer values live at once.

A generated function is one basic block of hundreds to thousands of statements, and the
compiler allocates registers in the order it is given: a value computed long before its
last use stays live across everything in between, and beyond the 16 vector registers of
x86-64 it is stored to the stack and loaded back. The program's own order is the
recursions' (every velocity, then every force; every composite inertia, then every
column walk), which keeps many values live at once: 36 on average in the UR5's inverse
dynamics, 156 in the Panda's ID derivatives.

:func:`fewest_live` reorders the statements by list scheduling for register pressure.
While fewer than :data:`REGISTERS` values are live it keeps the given order; beyond, of
the statements whose operands are all computed it takes the one that changes the number
of live values least (a statement makes its value live if anything reads it, and ends
each operand it is the last reader of). Ties go to the statement that starts the longest
chain of dependent statements, in a function short enough (:data:`WINDOW` statements)
that the core's out-of-order window sees most of it and its time is that chain; in a
longer one, to the earliest in the given order. The statements and their arithmetic are
unchanged, only their order."""

from __future__ import annotations

import heapq

REGISTERS = 16       # x86-64 vector registers (AArch64 has 32: this order is then conservative)
WINDOW = 400         # statements: about the instructions an out-of-order core keeps in flight


def fewest_live(order) -> list:
    """A dependency order of the statements ``order`` (target, the targets it reads; in a
    valid order; a target None for a store that nothing reads) as a permutation of their
    indices. Reads of names that no statement defines (inputs) are free. Deterministic."""
    index = {target: i for i, (target, _) in enumerate(order) if target is not None}
    deps = [sorted({index[r] for r in reads if r in index and index[r] != i}) for i, (_, reads) in enumerate(order)]
    users = [[] for _ in order]
    for i, ds in enumerate(deps):
        for d in ds:
            users[d].append(i)
    height = [0] * len(order)                          # the longest chain of readers from it
    for i in reversed(range(len(order))):
        height[i] = 1 + max((height[u] for u in users[i]), default=0)
    tie = (lambda i: -height[i]) if len(order) <= WINDOW else (lambda i: 0)
    remaining = [len(u) for u in users]                # readers not yet placed
    births = [int(r > 0) for r in remaining]
    kills = [sum(remaining[d] == 1 for d in ds) for ds in deps]
    waiting = [len(ds) for ds in deps]

    def key(i):
        return births[i] - kills[i], tie(i), i

    ready = [i for i in range(len(order)) if not waiting[i]]
    by_key, by_order = [key(i) for i in ready], list(ready)
    heapq.heapify(by_key)
    heapq.heapify(by_order)
    placed, out, live = [False] * len(order), [], 0
    while len(out) < len(order):
        if live < REGISTERS:                           # room: the given order
            i = heapq.heappop(by_order)
            if placed[i]:
                continue
        else:
            k = heapq.heappop(by_key)
            i = k[-1]
            if placed[i] or k != key(i):
                continue                               # placed, or its key changed since
        placed[i] = True
        out.append(i)
        live += births[i] - kills[i]
        for d in deps[i]:
            remaining[d] -= 1
            if remaining[d] == 1:                      # its one reader left now ends it
                last = next(u for u in users[d] if not placed[u])
                kills[last] += 1
                if not waiting[last]:
                    heapq.heappush(by_key, key(last))
        for u in users[i]:
            waiting[u] -= 1
            if not waiting[u]:
                heapq.heappush(by_key, key(u))
                heapq.heappush(by_order, u)
    return out
