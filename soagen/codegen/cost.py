"""Which style a generated function takes: a cost model of its operations, its code bytes
and its loops, for the call a controller makes (once per step, between other code, its
machine code not in the caches).

    time = straight-line operations / STRAIGHT_RATE
         + code bytes / 1024 * FETCH_NS_PER_KB
         + loop operations / LOOP_RATE

with code bytes = BYTES_PER_OP per straight-line operation. The constants are fitted to
benchmarks/looped_style.py on this project's 2-core AMD EPYC (Zen 5, AVX-512, gcc 12 -O3
-march=native), 2026-12-02, over UR5, Solo12, ANYmal and TALOS (docs/codegen.md, "The
looped style"): straight-line code runs at 8.4 operations per ns in a hot loop whatever
its size (up to TALOS's 287 KB M^-1), fetching it after 8 MB of other memory costs about
20 ns per KB, and the loops run at about 2.5 operations per ns (1.4 on the UR5's chain of
6 coordinates, 2.5 for Solo12's and TALOS's solves, 3.1 for TALOS's M^-1: short trips over
contiguous rows along the paths, :func:`soagen.dynamics.ldl.path_layout`). On that machine
the model keeps the unrolled code for every robot measured; ``--style looped`` trades time
for code bytes and compile time."""

from __future__ import annotations

BYTES_PER_OP = 8.5          # machine code per straight-line operation (gcc -O3, measured 7.9-8.9)
STRAIGHT_RATE = 8.4         # straight-line operations per ns
FETCH_NS_PER_KB = 20.0      # fetching machine code that is not in the caches, per KB
LOOP_RATE = 2.5             # operations per ns of the loops (templates/c/_ltdl.c.j2)


def operations(counts) -> int:
    return counts["mul"] + counts["add"] + counts["div"] + counts["trig"] + counts["sqrt"]


def code_bytes(counts) -> int:
    """The estimated machine code of straight-line code with these operation counts."""
    return int(BYTES_PER_OP * operations(counts))


def estimate_ns(counts, loop_counts=None, loop_bytes=0) -> float:
    """The estimated time of one call made cold: its straight-line operations, fetching
    its code (with ``loop_bytes`` of loops), and its loops' operations."""
    size = code_bytes(counts) + loop_bytes
    loops = operations(loop_counts) / LOOP_RATE if loop_counts else 0.0
    return operations(counts) / STRAIGHT_RATE + FETCH_NS_PER_KB * size / 1024 + loops
