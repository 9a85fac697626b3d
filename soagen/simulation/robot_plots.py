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


def styles(n):
    """n (colour, linestyle) pairs, all different and no two curves in one colour:
    tab10 up to 10 curves, tab20 (its light shades dashed) up to 20, beyond that n hues
    of a continuous map with four alternating line styles."""
    import matplotlib

    if n <= 10:
        return [(matplotlib.colormaps["tab10"](k), "-") for k in range(n)]
    if n <= 20:
        return [(matplotlib.colormaps["tab20"](k), "--" if k % 2 else "-") for k in range(n)]
    return [(matplotlib.colormaps["turbo"](k / (n - 1)), ("-", "--", "-.", ":")[k % 4]) for k in range(n)]


def plot_joint_angles(ax_rows, t, columns):
    """One axes per group: ``columns`` is a list of (axes label, [(curve label, values)]);
    the curves of one axes in distinct colours (:func:`styles`)."""
    for ax, (label, curves) in zip(ax_rows, columns):
        for (name, y), (colour, line) in zip(curves, styles(len(curves))):
            ax.plot(t, y, color=colour, linestyle=line, label=name)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        legend_beside(ax, ncol=1 if len(curves) <= 12 else 2)


def orientation_error(quat):
    """Angle [rad] of the rotation from the first orientation to each one (steps x 4
    quaternions (x, y, z, w))."""
    from soagen.spatial import quaternion_rotation, rotation_log

    R0 = quaternion_rotation(quat[0])
    return np.array([np.linalg.norm(rotation_log(R0.T @ quaternion_rotation(q))) for q in quat])


MAX_LIMB_AXES = 6


def limbs(robot):
    """The moving joints grouped by limb: the tree cut below a free joint and at every
    branch point (a quadruped's four legs, a humanoid's legs, torso, arms and fingers), as
    (name, [body indices]); a limb's name is its joints' common name prefix (``FL`` for
    FL_HAA, FL_HFE, FL_KFE), else its first joint's name (``LHipYaw..``)."""
    import os

    children = [robot.children(i) for i in range(robot.nb)]
    groups = {}
    for i, b in enumerate(robot.bodies):
        if b.joint.kind == "free":
            continue
        start = i
        while True:
            p = robot.bodies[start].parent
            if p < 0 or robot.bodies[p].joint.kind == "free" or len(children[p]) > 1:
                break
            start = p
        groups.setdefault(start, []).append(i)
    out = []
    for members in groups.values():
        names = [robot.bodies[i].joint_name for i in members]
        prefix = os.path.commonprefix(names).rstrip("_-. ") if len(names) > 1 else ""
        out.append((prefix if len(prefix) >= 2 else names[0] + (".." if len(names) > 1 else ""), members))
    return out


def _joint_curves(robot, q, members):
    """(label, values, unit) per curve of the joints of body indices ``members``: a 1-dof
    joint's q, a spherical joint's angle from its start, a planar joint's x, y, theta."""
    curves = []
    for i in members:
        b, qs = robot.bodies[i], robot.joint_q_slice(i)
        if b.joint.kind == "spherical":
            curves.append((f"{b.joint_name} (angle)", orientation_error(q[:, qs]), "rad"))
        elif b.joint.kind == "planar":
            curves += [(f"{b.joint_name}.{c}", q[:, qs.start + k], u) for k, (c, u) in enumerate(
                (("x", "m"), ("y", "m"), ("theta", "rad")))]
        else:
            curves.append((b.joint_name, q[:, qs.start], "m" if b.joint.kind == "prismatic" else "rad"))
    return curves


def joint_panels(robot, q):
    """The joint-position axes: one per limb (at most MAX_LIMB_AXES: consecutive limbs
    share one beyond that), as (axes label, [(curve label, values)])."""
    groups = limbs(robot)
    per_axes = -(-len(groups) // MAX_LIMB_AXES)              # ceil
    panels = []
    for k in range(0, len(groups), per_axes):
        chunk = groups[k:k + per_axes]
        curves = [c for _, members in chunk for c in _joint_curves(robot, q, members)]
        units = sorted({u for _, _, u in curves})
        name = ", ".join(n for n, _ in chunk) if len(chunk) <= 3 else f"{chunk[0][0]} ... {chunk[-1][0]}"
        panels.append((f"{name} [{' or '.join(units)}]", [(label, y) for label, y, _ in curves]))
    return panels


def base_panels(robot, q):
    """The free joints' (the base's) axes: its displacement [mm] and the angle of its
    rotation [deg], both from the start, instead of the seven raw q components."""
    free = [(b.joint_name, robot.joint_q_slice(i)) for i, b in enumerate(robot.bodies) if b.joint.kind == "free"]
    if not free:
        return []
    many = len(free) > 1
    pos = [(f"{n}.{c}" if many else c, 1000 * (q[:, s.start + k] - q[0, s.start + k]))
           for n, s in free for k, c in enumerate("xyz")]
    ang = [(n if many else "angle", np.degrees(orientation_error(q[:, s.start + 3:s.stop]))) for n, s in free]
    return [("base displacement [mm]", pos), ("base rotation [deg]", ang)]


BASE_TITLE = {"held": "base held at its start pose", "free": "base free, falling"}


def plot_robot_trajectory(traj, robot, out_dir):
    """joint_angles.png and tip_deviation.png in ``out_dir`` (an existing directory);
    returns the written paths."""
    plt, out = pyplot(), Path(out_dir)
    panels = base_panels(robot, traj.q) + joint_panels(robot, traj.q)
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 0.6 + 2.0 * len(panels)), sharex=True, squeeze=False,
                             layout="constrained")
    plot_joint_angles(axes[:, 0], traj.t, panels)
    axes[-1, 0].set_xlabel("t [s]")
    base = f"; {BASE_TITLE[traj.base]}" if traj.base else ""
    fig.suptitle(f"{robot.name}: joint positions ({traj.method}{base})")
    joints = save(fig, out / "joint_angles.png")
    return [joints, plot_tip_deviation(traj, robot, out / "tip_deviation.png")]


def end_frames(robot):
    """The frames whose motion the tip plot shows: the tip, else a serial chain's last
    body, else each leaf frame of the tree (its feet, hands, head)."""
    from soagen.model import Frame

    if robot.tip is not None:
        return [robot.tip]
    if robot.is_chain:
        return [Frame(robot.bodies[-1].name, robot.nb - 1, np.eye(3), np.zeros(3))]
    from soagen.codegen.frames import leaf_frames

    return leaf_frames(robot)


def plot_tip_deviation(traj, robot, path):
    """The tip's displacement from its start (x, y, z and its norm), or for a tree
    without a tip each leaf frame's distance from its start."""
    from soagen.simulation.robot import frame_positions

    frames = end_frames(robot)
    d = (frame_positions(robot, traj.q, frames) - frame_positions(robot, traj.q[:1], frames)) * 1000
    norm = np.linalg.norm(d, axis=2)
    fig, ax = pyplot().subplots(figsize=(8, 3.5))
    if len(frames) == 1:
        for k, c in enumerate("xyz"):
            ax.plot(traj.t, d[:, 0, k], label=c)
        ax.plot(traj.t, norm[:, 0], "k", lw=1.5, label="|d|")
        what = f"tip ({frames[0].name})"
    else:
        for j, (f, (colour, line)) in enumerate(zip(frames, styles(len(frames)))):
            ax.plot(traj.t, norm[:, j], color=colour, linestyle=line, label=f.name)
        what = f"{len(frames)} end frames"
    ax.set_xlabel("t [s]")
    ax.set_ylabel("displacement [mm]" if len(frames) == 1 else "distance from start [mm]")
    ax.set_title(f"{robot.name}: {what} from the start: max {norm.max():.2f} mm, at the end "
                 f"{norm[-1].max():.3f} mm" + (f" ({BASE_TITLE[traj.base]})" if traj.base else ""), fontsize=10)
    ax.grid(alpha=0.3)
    legend_beside(ax, ncol=1 if len(frames) <= 12 else 2)
    return save(fig, path)


def plot_flexible(traj, robot, out_dir):
    """modal_coordinates.png (eta of each flexible body) and tip_deflection.png (each
    flexible link's tip node in its hub frame: the transverse deflection, its components
    and the axial foreshortening; :mod:`soagen.simulation.elastic`) in ``out_dir``;
    returns the written paths."""
    from soagen.simulation.elastic import tip_deflections

    plt, out = pyplot(), Path(out_dir)
    flex = [(i, b) for i, b in enumerate(robot.bodies) if b.m]
    fig, axes = plt.subplots(len(flex), 1, figsize=(8, 2.6 * len(flex)), squeeze=False)
    plot_joint_angles(axes[:, 0], traj.t, [(f"eta of {b.name} [kg^1/2 m]",
                                            [(m, traj.q[:, robot.modal_q_slice(i)][:, k])
                                             for k, m in enumerate(b.flex.names)]) for i, b in flex])
    axes[-1, 0].set_xlabel("t [s]")
    axes[0, 0].set_title(f"{robot.name}: modal coordinates (mass-normalized modes: Phi eta in m), "
                         f"{traj.method}", fontsize=10)
    modal = save(fig, out / "modal_coordinates.png")

    fig, axes = plt.subplots(len(flex), 1, figsize=(8, 2.6 * len(flex)), squeeze=False)
    for ax, (name, d) in zip(axes[:, 0], tip_deflections(robot, traj.q).items()):
        curves = [(f"transverse {c}", 1000 * d.transverse[:, k]) for k, c in enumerate("xyz")
                  if np.abs(d.transverse[:, k]).max() > 1e-12 * d.length]
        curves += [("|transverse|", 1000 * d.magnitude), ("axial", 1000 * d.axial)]
        for (label, y), (colour, line) in zip(curves, styles(len(curves))):
            ax.plot(traj.t, y, color=colour, linestyle=":" if label == "axial" else line,
                    lw=1.5 if label == "|transverse|" else 1.0, label=label)
        ax.set_ylabel(f"{name}: tip [mm]")
        ax.grid(alpha=0.3)
        legend_beside(ax)
    axes[-1, 0].set_xlabel("t [s]")
    axes[0, 0].set_title(f"{robot.name}: elastic tip deflection of each flexible link in its hub frame, "
                         "transverse to the link and along it", fontsize=10)
    return [modal, save(fig, out / "tip_deflection.png")]


def plot_energy(traj, robot, out_dir, balance):
    """energy.png in ``out_dir``: the energy balance of the run
    (:class:`~soagen.simulation.elastic.EnergyBalance`), E(t) - E(0) and the work of the
    joint torques and of the damping above, the residual E - E(0) - W below, all in J;
    returns its path."""
    plt, out = pyplot(), Path(out_dir)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 4.6), sharex=True, gridspec_kw={"height_ratios": (2, 1)})
    b = balance
    for (label, y), (colour, line) in zip([("E(t) - E(0), E = T + U", b.E - b.E[0]),
                                           ("W_tau: work of the joint torques", b.W_tau),
                                           ("W_d: work of the damping", b.W_d)], styles(3)):
        top.plot(traj.t, y, color=colour, linestyle=line, label=label)
    top.set_ylabel("energy [J]")
    top.set_title(f"{robot.name}: energy balance E(t) - E(0) = W_tau(t) + W_d(t)"
                  + (f" ({BASE_TITLE[traj.base]})" if traj.base else ""), fontsize=10)
    bottom.plot(traj.t, b.residual, "k", lw=1.0, label="E - E(0) - W_tau - W_d")
    bottom.set_ylabel("residual [J]")
    bottom.set_xlabel("t [s]")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        legend_beside(ax)
    return save(fig, out / "energy.png")
