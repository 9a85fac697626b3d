"""Helpers for the closed-chain tests: bundled system documents, variants written to a
temporary folder, and a check of the loop closures independent of soagen's own
closure residuals (:func:`closure_errors`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

import soagen

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
    return soagen.load_system(write_system(tmp_path, doc, name or f"{base}_{grasp['type']}.yaml"))


def _rodrigues(a, t):
    a = np.asarray(a, float) / np.linalg.norm(a)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(t) * K + (1 - np.cos(t)) * K @ K


def tip_pose(arm, q):
    """World pose of the arm's tip frame: base, then placement * joint motion per body."""
    Rs, ps = [], []
    for b in arm.robot.bodies:
        Rp, pp = (arm.base_R, arm.base_r) if b.parent < 0 else (Rs[b.parent], ps[b.parent])
        R, p = Rp @ b.placement_R, pp + Rp @ b.placement_r
        if b.joint.kind == "revolute":
            R = R @ _rodrigues(b.joint.axis, q[b.q_index])
        else:
            assert b.joint.kind == "prismatic", b.joint.kind
            p = p + R @ np.asarray(b.joint.axis) * q[b.q_index]
        Rs.append(R)
        ps.append(p)
    tip = arm.robot.tip
    R, p = (arm.base_R, arm.base_r) if tip.body < 0 else (Rs[tip.body], ps[tip.body])
    return R @ tip.R, p + R @ tip.r


def tip_twist(arm, q, qd, h=1e-6):
    """(omega, v) of the tip frame, world, by central differences along qd
    (truncation ~h^2 = 1e-12, round-off ~1e-16 / h = 1e-10)."""
    (Ra, pa), (Rb, pb) = tip_pose(arm, q + h * qd), tip_pose(arm, q - h * qd)
    W = (Ra - Rb) / (2 * h) @ tip_pose(arm, q)[0].T
    return np.array([W[2, 1], W[0, 2], W[1, 0]]), (pa - pb) / (2 * h)


def _object_points(grasp):
    """Points fixed in the grasp frame that the tip frame must carry along (position
    closure): the grasp point, plus its axes for a rigid grasp, the hinge axis for a
    revolute one; point contacts and soft fingers hold the point only."""
    pts = [np.zeros(3)]
    if grasp.kind == "rigid":
        pts += list(np.eye(3))
    elif grasp.kind == "revolute":
        pts.append(grasp.phi[:3, 0])
    return pts


def closure_errors(s, q, qd):
    """(position error, velocity error): how far the tips are from some rigid placement
    of the object, and their velocities from some rigid motion of it."""
    obj, tips = [], []
    for a, qi in zip(s.arms, s.split(q)):
        R_tip, p_tip = tip_pose(a, qi)
        for x in _object_points(a.grasp):
            obj.append(a.grasp.r + a.grasp.R @ x)        # in the object frame C
            tips.append(p_tip + R_tip @ x)                # where the tip holds it, world
    P, Q = np.array(obj), np.array(tips)
    pc, qc = P.mean(0), Q.mean(0)
    U, _, Vt = np.linalg.svd((Q - qc).T @ (P - pc))
    R_C = U @ np.diag([1, 1, np.sign(np.linalg.det(U @ Vt))]) @ Vt                 # Kabsch
    p_C = qc - R_C @ pc
    pos_err = np.abs(Q - (p_C + P @ R_C.T)).max()
    rows, rhs = [], []                  # unknowns (omega, v_C): v(x) = v_C + omega x (x - p_C)
    for a, qi, qdi in zip(s.arms, s.split(q), s.split(qd)):
        w_tip, v_tip = tip_twist(a, qi, qdi)
        d = R_C @ a.grasp.r
        rows.append(np.hstack([-np.array([[0, -d[2], d[1]], [d[2], 0, -d[0]], [-d[1], d[0], 0]]), np.eye(3)]))
        rhs.append(v_tip)
        Pc = R_C @ a.grasp.R @ a.grasp.phic[:3]          # constrained rotation directions, world
        Pc = Pc[:, np.linalg.norm(Pc, axis=0) > 0.5]
        rows.append(np.hstack([Pc.T, np.zeros((Pc.shape[1], 3))]))
        rhs.append(Pc.T @ w_tip)
    G, y = np.vstack(rows), np.concatenate(rhs)
    twist = np.linalg.lstsq(G, y, rcond=None)[0]
    return pos_err, np.abs(G @ twist - y).max()
