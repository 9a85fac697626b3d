"""Symbolic operator algebra: prove the papers' identities for every N, print derivations.

The layer is split by role; docs/architecture.md ("The symbolic layer") says where a new
identity, a new proof technique and a new derivation go.

* :mod:`.kernel`    the languages and algebras every proof is written in: the statement
  language, the statuses, noncommutative polynomials with traced rewriting and completion,
  polynomials modulo a rewriting system, block operators, exact modular arithmetic
* :mod:`.engines`   the proof techniques, one module each: the N-free operator algebra
  (completion, for every N), block-index statements proved by induction over the index,
  N-independent matrix theories, and the block level of a chain as data (pinned loops)
* :mod:`.models`    the operators as objects to evaluate: a chain's blocks on symbols or
  numbers, the recursions of soagen.dynamics run on them (what is proved is what runs),
  the printed loops no code runs, random numeric instances, dense labelled operators,
  flexible links' nodal operators
* :mod:`.evidence`  what is claimed and how it is checked: the catalogue of the papers'
  identities and its block-index records, the verify runner, certificates and their
  standalone checker (standard library only), the reports, the numeric cross-check on
  robots, ``soagen prove``
* :mod:`.teaching`  derivations (``soagen derive``): topics as data, their items, the
  Markdown/LaTeX, plain-text and notebook renderers, closed forms of a small robot

Dependencies run down this list's reverse: teaching reads evidence and models; evidence
reads engines, models and the kernel; engines read the kernel (and models for their per-N
checks); the kernel reads nothing of soagen.
"""
