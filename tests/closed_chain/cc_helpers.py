"""Helpers for the closed-chain tests: bundled system documents, variants written to a
temporary folder, relative errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

import soagen.closed_chain as cc

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ROOT / "robots" / "systems"
BUNDLED = ("dual_arm_box", "three_arm_point_contacts", "quadruped_platform")


def system_doc(name):
    """The YAML document of a bundled system, robot paths made absolute."""
    doc = yaml.safe_load((SYSTEMS / f"{name}.yaml").read_text())
    for arm in doc["arms"]:
        arm["robot"] = str((SYSTEMS / arm["robot"]).resolve())
    return doc


def write_system(tmp_path, doc, name="system.yaml"):
    path = Path(tmp_path) / name
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def variant(tmp_path, base, grasp, name=None):
    """A bundled system with every grasp replaced by ``grasp`` (dict without 'frame')."""
    doc = system_doc(base)
    for arm in doc["arms"]:
        arm["grasp"] = {"frame": arm["grasp"]["frame"], **grasp}
    return cc.load_system(write_system(tmp_path, doc, name or f"{base}_{grasp['type']}.yaml"))


def rel(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.abs(a - b).max() / max(1e-300, np.abs(b).max()))
