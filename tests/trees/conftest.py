"""Fixtures for the tree / floating-base tests (the Pinocchio oracle)."""

from __future__ import annotations

import pytest


@pytest.fixture
def pin():
    return pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
