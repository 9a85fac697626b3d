"""Symbolic operator algebra: proof-check the papers' identities and print derivations.

* :mod:`.ncpoly`      noncommutative polynomials modulo a rewriting system (normal forms)
* :mod:`.blocks`      block operators over symbols or numbers
* :mod:`.chain`       the spatial operators of an N-link chain (phi, psi, P, D, L, ...)
* :mod:`.recursions`  the papers' sweeps, block by block
* :mod:`.matrices`    N-independent matrix theories (Part II closed chains, Swain-Morris)
* :mod:`.catalogue`   the identities as data records
* :mod:`.verify`      the runner: proofs, counterexamples, numeric cross-check
* :mod:`.numeric`     numeric cross-check on random robots (dense operator builder)
* :mod:`.derive`      renders derivations (Markdown/LaTeX, plain text), checking every step
* :mod:`.steps`, :mod:`.derivations`  derivation items and the bundled topics
* :mod:`.closed_form` closed-form M(q), C(q, qd), g(q) of a small robot
* :mod:`.report`      generates docs/identities.md and docs/misprints.md
"""
