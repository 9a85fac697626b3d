"""Shared pytest configuration.

`--runslow` runs the tests marked `slow` (long symbolic proofs for larger N, long
numeric sweeps); without it they are skipped with a reason, so the default suite stays
within a few minutes on two cores.
"""

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (full symbolic catalogue, large N)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
