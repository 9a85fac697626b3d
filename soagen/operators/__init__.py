"""The papers' operators built literally as dense block matrices (world frame, about the
joint origins), one module per system kind: :mod:`.chain` (Part I), :mod:`.tree` (framework
paper Sec. 2), :mod:`.closed_chain` (Part II Sec. 5), :mod:`.swain_morris` (the unified
model's X, X_b, Phi). They are O(N^3) on purpose: the independent form the O(N) recursions
of :mod:`soagen.dynamics` are tested against."""
