"""Shared pytest configuration.

`--runslow` runs the tests marked `slow` (long symbolic proofs for larger N, long
numeric sweeps); without it they are skipped with a reason, so the default suite stays
within a few minutes on two cores.
"""

import os

# The matrices in these tests are small (at most a few hundred rows); BLAS threads only
# contend for the two cores of a CI machine (measured: the N = 50 operator checks ran
# 5-8x slower with the default thread count). Must happen before numpy is imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pytest  # noqa: E402


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
