"""Plots of a simulated closed-chain trajectory (matplotlib, PNG files): the joint angles
of each arm, the object's displacement and orientation error from its start, and the
constraint violation at the position and at the velocity level, each in its units.
Legends sit beside the axes (:mod:`soagen.simulation.robot_plots`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen.simulation.robot_plots import (
    legend_beside,
    orientation_error,
    plot_joint_angles,
    pyplot,
    save,
)


def plot_arm_joint_angles(traj, system, path):
    fig, axes = pyplot().subplots(system.l, 1, figsize=(8, 2.2 * system.l), sharex=True, squeeze=False)
    plot_joint_angles(axes[:, 0], traj.t, [
        (f"{a.name} [rad]", [(b.joint_name, traj.q[:, off + j]) for j, b in enumerate(a.robot.bodies)])
        for a, off in zip(system.arms, system.offsets())])
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(f"{system.name}: joint angles")
    return save(fig, path)


def plot_object_pose(traj, system, path):
    fig, (a1, a2) = pyplot().subplots(2, 1, figsize=(8, 5), sharex=True)
    d = (traj.p_C - traj.p_C[0]) * 1000
    for i, c in enumerate("xyz"):
        a1.plot(traj.t, d[:, i], label=f"p_C.{c}")
    a1.set_ylabel("displacement [mm]")
    a2.plot(traj.t, np.degrees(orientation_error(traj.quat_C)), "k", label="angle")
    a2.set_ylabel("orientation error [deg]")
    a2.set_xlabel("t [s]")
    for ax in (a1, a2):
        ax.grid(alpha=0.3)
        legend_beside(ax)
    fig.suptitle(f"{system.name}: object (frame C) from its start")
    return save(fig, path)


def plot_constraint_violation(traj, system, path):
    fig, (a1, a2) = pyplot().subplots(2, 1, figsize=(8, 5), sharex=True)
    parts = traj.violation
    for ax, cols, units, level in ((a1, (0, 1), ("m", "rad"), "position"), (a2, (2, 3), ("m/s", "rad/s"), "velocity")):
        for k, (col, unit) in enumerate(zip(cols, units)):
            ax.semilogy(traj.t, np.maximum(parts[:, col], 1e-17), label=f"{'linear' if k == 0 else 'angular'} [{unit}]")
        ax.set_ylabel(f"max |{level} error|")
        ax.grid(alpha=0.3, which="both")
        legend_beside(ax)
    a2.set_xlabel("t [s]")
    fig.suptitle(f"{system.name}: closure violation ({traj.stabilization} stabilization)")
    return save(fig, path)


def plot_trajectory(traj, system, out_dir):
    """joint_angles.png, object_pose.png and constraint_violation.png in ``out_dir`` (an
    existing directory); returns the written paths."""
    out = Path(out_dir)
    return [plot_arm_joint_angles(traj, system, out / "joint_angles.png"),
            plot_object_pose(traj, system, out / "object_pose.png"),
            plot_constraint_violation(traj, system, out / "constraint_violation.png")]
