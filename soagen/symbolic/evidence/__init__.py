"""What is claimed about the papers and how it is checked. A new identity is a record in
:mod:`.catalogue` (or, with block indices, :mod:`.block_records`); the runner picks it up.

* :mod:`.catalogue`     the identities as data records, and the coverage of the seeds
* :mod:`.block_records` the block-index records and the loops' readings, proved for every N
* :mod:`.verify`        the runner: all-N proofs, per-N cross-checks, counterexamples, numerics
* :mod:`.certificate`   certificates and axioms files (deterministic text)
* :mod:`.checker`       the independent checker of the certificates (standard library only)
* :mod:`.report`        docs/identities.md and docs/misprints.md
* :mod:`.numeric`       the numeric cross-check on random robots (dense operator builder)
* :mod:`.prove`         ``soagen prove``: all-N proof, exact counterexample, per-N fallback
"""
