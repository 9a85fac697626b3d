"""The O(N) recursions of the papers, one per module, each written once against the
backend shim (:mod:`soagen.backend`) so that it runs on floats (the numeric reference),
on SymPy symbols (the code generator) and on the blocks of the papers' operators (the
proofs, :mod:`soagen.symbolic.models.block_state`: what ``soagen verify`` proves is this code).

Sweeps over the body tree (internal numbering, base = 0 outwards, see soagen.model):

* tip-to-base ("causal" in the papers, k = 1 .. N) is ``for i in reversed(range(nb))``,
  each body adding its contribution into its parent;
* base-to-tip ("anticausal", k = N .. 1) is ``for i in range(nb)``, each body reading its
  parent.

On a serial chain these are exactly the papers' loops; on a tree they are the tree
recursions of the framework paper (A.1)-(A.2).
"""
