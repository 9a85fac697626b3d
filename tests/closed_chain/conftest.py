"""Fixtures for the closed-chain tests: the bundled systems and non-rigid variants."""

from __future__ import annotations

import pytest

import soagen
from tests.support.systems import BUNDLED, SYSTEMS, variant


@pytest.fixture(scope="session")
def bundled():
    return {name: soagen.load_system(SYSTEMS / f"{name}.yaml") for name in BUNDLED}


@pytest.fixture(scope="session")
def variants(tmp_path_factory):
    """Non-rigid grasp variants: revolute grasps on the dual-arm box (about the grasp
    frame's z axis), soft fingers and a 'general' joint equal to a spherical one on the
    three-arm system."""
    d = tmp_path_factory.mktemp("variants")
    sph = [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]
    return {
        "dual_revolute": variant(d, "dual_arm_box", {"type": "revolute", "axis": [0, 0, 1]}),
        "three_soft_finger": variant(d, "three_arm_point_contacts", {"type": "soft_finger", "normal": [1, 0, 0]}),
        "three_general": variant(d, "three_arm_point_contacts", {"type": "general", "motion": sph}),
        "dual_revolute_x": variant(d, "dual_arm_box", {"type": "revolute", "axis": [1, 0.2, 0]}, "rx.yaml"),
    }

