"""The languages and algebras every proof of the symbolic layer is written in.

* :mod:`.statement`  the statement language (parser, evaluation over any namespace)
* :mod:`.status`     the statuses reported (record verdicts, prove results), as enums
* :mod:`.rewriting`  noncommutative polynomials, the order, traced rewriting, completion
* :mod:`.ncpoly`     polynomials modulo a rewriting system (the per-N block engine's normal forms)
* :mod:`.blocks`     block operators over symbols or numbers; the identity I
* :mod:`.exact`      integers modulo a prime: counterexamples rounding cannot fake
"""
