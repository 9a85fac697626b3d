"""Plots of a simulated closed-chain trajectory (matplotlib, PNG files): the joint
angles of each arm, the object's pose, the constraint violation."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    _pyplot().close(fig)
    return path


def plot_joint_angles(traj, system, path):
    fig, axes = _pyplot().subplots(system.l, 1, figsize=(7, 2.2 * system.l), sharex=True, squeeze=False)
    for ax, a, off in zip(axes[:, 0], system.arms, system.offsets()):
        for j, b in enumerate(a.robot.bodies):
            ax.plot(traj.t, traj.q[:, off + j], label=b.joint_name)
        ax.set_ylabel(f"{a.name} [rad]")
        ax.legend(fontsize=6, ncol=3, loc="upper right")
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(f"{system.name}: joint angles")
    return _save(fig, path)


def plot_object_pose(traj, system, path):
    fig, (a1, a2) = _pyplot().subplots(2, 1, figsize=(7, 5), sharex=True)
    for i, c in enumerate("xyz"):
        a1.plot(traj.t, traj.p_C[:, i], label=f"p_C.{c}")
    for i, c in enumerate("xyzw"):
        a2.plot(traj.t, traj.quat_C[:, i], label=f"quat.{c}")
    a1.set_ylabel("position [m]")
    a2.set_ylabel("orientation (quaternion)")
    a2.set_xlabel("t [s]")
    a1.legend(fontsize=7)
    a2.legend(fontsize=7)
    fig.suptitle(f"{system.name}: object pose (frame C)")
    return _save(fig, path)


def plot_constraint_violation(traj, system, path):
    fig, ax = _pyplot().subplots(figsize=(7, 3.5))
    ax.semilogy(traj.t, np.maximum(traj.err_pos, 1e-17), label="position (closure error)")
    ax.semilogy(traj.t, np.maximum(traj.err_vel, 1e-17), label="velocity")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("max |violation|")
    ax.set_title(f"{system.name}: constraint violation ({traj.stabilization})")
    ax.legend()
    return _save(fig, path)


def plot_trajectory(traj, system, out_dir):
    """joint_angles.png, object_pose.png and constraint_violation.png in ``out_dir`` (an
    existing directory); returns the written paths."""
    out = Path(out_dir)
    return [plot_joint_angles(traj, system, out / "joint_angles.png"),
            plot_object_pose(traj, system, out / "object_pose.png"),
            plot_constraint_violation(traj, system, out / "constraint_violation.png")]
