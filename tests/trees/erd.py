"""Locate the URDFs of example-robot-data (skip the test when it is absent)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

ROBOTS = {
    "solo12": "solo_description/robots/solo12.urdf",
    "anymal": "anymal_b_simple_description/robots/anymal.urdf",
    "talos": "talos_data/robots/talos_reduced.urdf",
}


def erd_path(rel):
    """Absolute path of a URDF inside example-robot-data, or skip the test."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed (optional test extra)")
    for f in dist.files or ():
        if str(f).endswith("robots/" + rel):
            return Path(dist.locate_file(f)).resolve()
    pytest.skip(f"{rel} is not in this example-robot-data")
