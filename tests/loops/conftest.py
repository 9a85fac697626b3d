"""Fixtures for the loop-closure tests (their helpers: tests/support/loops.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def pin():
    return pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
