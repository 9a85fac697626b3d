"""Fixtures for the loop-closure tests; the helper module of this directory (loop_helpers)
is put on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def pin():
    return pytest.importorskip("pinocchio", reason="pin (Pinocchio) is not installed (optional test extra)")
