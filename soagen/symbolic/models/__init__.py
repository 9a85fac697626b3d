"""The operators as objects to evaluate: what per-N checks, counterexamples and numeric
cross-checks run on.

* :mod:`.chain`        the spatial operators of an N-link chain (phi, psi, P, D, L, ...)
* :mod:`.block_state`  the recursions of soagen.dynamics run on a chain's blocks (the code that runs)
* :mod:`.block_values` the printed loops no code runs, and the proofs' sums, block by block
* :mod:`.instances`    random numeric instances of the algebra: chains, trees, several arms
* :mod:`.dense`        dense operators with block labels (numeric evaluation of statements)
* :mod:`.nodes`        the nodal operators of a flexible link (framework paper Section 4)
"""
