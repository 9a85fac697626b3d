"""The proof techniques of the symbolic layer, one module each. A new technique is a module
here, a section of the certificates it writes (:mod:`..evidence.certificate`) and of the
checker that re-checks them (:mod:`..evidence.checker`), and a branch in the runner
(:func:`..evidence.verify.run_record`).

* :mod:`.nfree`      the typed N-free operator algebra: generators, relations as data,
  theories, Knuth-Bendix completion: proofs for every chain length (and on trees)
* :mod:`.indexed`    block-index statements: indices and their bounds, block letters, sums
* :mod:`.blockwise`  proofs block by block and by induction over an index
* :mod:`.loops`      the block level of a chain as data: block families, patterns, relations,
  the printed loops and their pinned readings
* :mod:`.matrices`   N-independent matrix theories (Part II closed chains, closure, Swain-Morris)
"""
