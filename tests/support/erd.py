"""The robots of example-robot-data (an optional test extra): their files, or a skip when
the package or the file is absent."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

import soagen
from soagen.oracles.pinocchio import example_robot_data_dir

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


def erd(rel):
    """A file of example-robot-data, or None when the package is absent."""
    d = example_robot_data_dir()
    return None if d is None or not (d / rel).is_file() else d / rel


ERD = {  # name: (file under example-robot-data/robots, floating base)
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
    "panda": ("panda_description/urdf/panda.urdf", False),
    "kinova": ("kinova_description/robots/kinova.urdf", False),
    "solo12": ("solo_description/robots/solo12.urdf", True),
}


def erd_robot(name):
    """(robot, path) of an example-robot-data URDF, or skip."""
    root = example_robot_data_dir()
    if root is None:
        pytest.skip("the optional 'example-robot-data' package is not installed")
    rel, floating = ERD[name]
    return soagen.load(root / rel, floating_base=floating), root / rel
