"""Fixtures for the tree / floating-base tests (the Pinocchio oracle); the helper
module of this directory (erd) is put on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def pin():
    return pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
