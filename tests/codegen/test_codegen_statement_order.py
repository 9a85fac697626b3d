"""The statement order of the generated C (soagen.codegen.c.statement_order): a dependency order of
the same statements that keeps fewer values live. The generated C itself is compiled and
checked against the generic implementation by the other codegen tests."""

import random

from soagen.codegen.c.statement_order import REGISTERS, WINDOW, fewest_live


def max_live(order, perm):
    """The most values live at once when ``order``'s statements run in the order ``perm``
    (a value is live from its statement to its last reader)."""
    at = {k: n for n, k in enumerate(perm)}
    index = {t: i for i, (t, _) in enumerate(order) if t is not None}
    last = {}
    for i, (_, reads) in enumerate(order):
        for r in reads:
            if r in index:
                last[index[r]] = max(last.get(index[r], -1), at[i])
    live = [0] * (len(perm) + 1)
    for d, end in last.items():
        for n in range(at[d], end):
            live[n] += 1
    return max(live)


def check_order(order, perm):
    assert sorted(perm) == list(range(len(order)))
    placed = set()
    index = {t: i for i, (t, _) in enumerate(order) if t is not None}
    for i in perm:
        assert all(index[r] in placed for r in order[i][1] if r in index), f"statement {i} before its operands"
        placed.add(i)


def random_program(rng, n):
    order = []
    for i in range(n):
        reads = rng.sample([f"v{j}" for j in range(i)], min(i, rng.randint(0, 3))) + ["q[0]"]
        order.append((f"v{i}" if rng.random() < 0.9 else None, reads))
    return order


def test_the_order_is_a_dependency_order_of_the_same_statements():
    rng = random.Random(1)
    for n in (0, 1, 5, 50, WINDOW + 100):          # both tie-breaks
        order = random_program(rng, n)
        perm = fewest_live(order)
        check_order(order, perm)
        assert perm == fewest_live(order)           # deterministic


def test_values_computed_far_ahead_of_their_use_are_moved_next_to_it():
    """40 values computed first and each stored later, as a recursion sweep followed by its
    outputs: in the given order all 40 are live at once; reordered, each is stored soon
    after it is made, and no more are live than the registers."""
    n = 40
    order = [(f"x{i}", ["q[0]"]) for i in range(n)] + [(f"y{i}", [f"x{i}"]) for i in range(n)] \
        + [(None, [f"y{i}"]) for i in range(n)]
    assert max_live(order, list(range(len(order)))) == n
    perm = fewest_live(order)
    check_order(order, perm)
    assert max_live(order, perm) <= REGISTERS + 1


def test_below_the_registers_the_given_order_is_kept():
    order = [(f"x{i}", ["q[0]"]) for i in range(REGISTERS - 2)] + [(None, [f"x{i}" for i in range(REGISTERS - 2)])]
    assert fewest_live(order) == list(range(len(order)))
