"""The whole catalogue is run once per test session (all-N proofs with certificates,
block engine N = 1..3, numerics) and shared by the tests that read its outcomes."""

import pytest


@pytest.fixture(scope="session")
def outcomes():
    from soagen.symbolic.catalogue import CATALOGUE
    from soagen.symbolic.report import DOCS_NMAX
    from soagen.symbolic.verify import run_record

    return {rec.id: run_record(rec, nmax=DOCS_NMAX, certificates=True) for rec in CATALOGUE}
