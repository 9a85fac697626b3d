"""The whole catalogue is run once per test session (all-N proofs with certificates,
block engine N = 1..3, numerics) and shared by the tests that read its outcomes."""

import pytest


@pytest.fixture(scope="session")
def outcomes():
    from soagen.symbolic.evidence.report import outcomes_for_docs

    return outcomes_for_docs()


@pytest.fixture(scope="session")
def readings():
    """The readings of every printed loop, proved block by block, with their certificates."""
    from soagen.symbolic.evidence.verify import prove_readings

    return prove_readings(certificates=True)
