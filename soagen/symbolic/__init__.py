"""Symbolic operator algebra: prove the papers' identities for every N, print derivations.

All-N engine (whole operators, any chain length, trees):

* :mod:`.statement`   the statement language (parser, evaluation over any namespace)
* :mod:`.rewriting`   noncommutative polynomials, the order, traced rewriting, completion
* :mod:`.nfree`       the typed operator algebra: generators, relations as data, theories
* :mod:`.certificate` certificates and axioms files (deterministic text)
* :mod:`.checker`     the independent checker (standard library only)
* :mod:`.instances`   random numeric instances of the algebra: chains, trees, several arms
* :mod:`.dense`       dense operators with block labels (numeric evaluation of statements)
* :mod:`.prove`       `soagen prove`: all-N proof, exact counterexample, per-N fallback
* :mod:`.exact`       integer instances modulo a prime: counterexamples rounding cannot fake

Block level for every N (statements with block indices, the readings of printed loops):

* :mod:`.indexed`     indices and their bounds, block letters, sums, the blocks of an operator
* :mod:`.loops`       the block families, patterns, relations and printed loops (pinned data)
* :mod:`.blockwise`   proofs block by block and by induction over an index
* :mod:`.block_records` the catalogue's block-index records and the loops' readings, proved

Per-N block engine (fallback for block-indexed statements, and cross-check):

* :mod:`.ncpoly`      noncommutative polynomials modulo a rewriting system (normal forms)
* :mod:`.blocks`      block operators over symbols or numbers; the identity I
* :mod:`.chain`       the spatial operators of an N-link chain (phi, psi, P, D, L, ...)
* :mod:`.block_state` the recursions of soagen.dynamics run on the blocks (the code that runs)
* :mod:`.block_values` the printed loops no code runs, and the proofs' sums, block by block

Catalogue and reports:

* :mod:`.matrices`    N-independent matrix theories (Part II closed chains, closure, Swain-Morris)
* :mod:`.catalogue`   the identities as data records, and the coverage of the seeds
* :mod:`.verify`      the runner: all-N proofs, per-N cross-checks, counterexamples, numerics
* :mod:`.numeric`     numeric cross-check on random robots (dense operator builder)
* :mod:`.derive`      renders derivations (Markdown/LaTeX, plain text), proving every step
* :mod:`.steps`, :mod:`.derivations`  derivation items and the bundled topics
* :mod:`.closed_form` closed-form M(q), C(q, qd), g(q) of a small robot
* :mod:`.report`      generates docs/identities.md and docs/misprints.md
* :mod:`.status`      the statuses reported (record verdicts, `soagen prove` results), as enums
"""
