"""Plots of simulated trajectories (matplotlib, PNG files): what every figure shares
(legends beside the axes, never over the curves) and the figures of a robot
(:func:`plot_robot_trajectory`); closed-chain systems: :mod:`soagen.simulation.closed_chain_plots`."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def legend_beside(ax, **kw):
    """The legend to the right of the axes, outside them, so it covers no curve."""
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=7, frameon=False, **kw)


def save(fig, path):
    fig.savefig(path, dpi=100, bbox_inches="tight")
    pyplot().close(fig)
    return path


def plot_joint_angles(ax_rows, t, columns):
    """One axes per group: ``columns`` is a list of (axes label, [(curve label, values)])."""
    for ax, (label, curves) in zip(ax_rows, columns):
        for name, y in curves:
            ax.plot(t, y, label=name)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        legend_beside(ax, ncol=1 if len(curves) <= 12 else 2)


def plot_robot_trajectory(traj, robot, out_dir):
    """joint_angles.png and tip_deviation.png in ``out_dir`` (an existing directory);
    returns the written paths."""
    from soagen.simulation.robot import q_names, tip_positions

    plt, out = pyplot(), Path(out_dir)
    names = q_names(robot)
    fig, ax = plt.subplots(figsize=(8, 3.5))
    plot_joint_angles([ax], traj.t, [("q [rad or m]", [(n, traj.q[:, k]) for k, n in enumerate(names)])])
    ax.set_xlabel("t [s]")
    ax.set_title(f"{robot.name}: joint positions ({traj.method})")
    joints = save(fig, out / "joint_angles.png")

    tip = tip_positions(robot, traj.q)
    d = (tip - tip[0]) * 1000
    fig, ax = plt.subplots(figsize=(8, 3.5))
    for k, c in enumerate("xyz"):
        ax.plot(traj.t, d[:, k], label=f"{c}")
    norm = np.linalg.norm(d, axis=1)
    ax.plot(traj.t, norm, "k", lw=1.5, label="|d|")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("tip displacement [mm]")
    ax.set_title(f"{robot.name}: tip ({robot.tip.name if robot.tip is not None else robot.bodies[-1].name}) "
                 f"from its start: max {norm.max():.2f} mm, at the end {norm[-1]:.3f} mm")
    ax.grid(alpha=0.3)
    legend_beside(ax)
    return [joints, save(fig, out / "tip_deviation.png")]
