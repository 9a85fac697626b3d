"""The files of a simulated closed-chain trajectory: ``trajectory.npz`` (every array of
the :class:`~soagen.simulation.closed_chain.Trajectory`; ``violation``: per step the max
closure error [m], [rad] and velocity violation [m/s], [rad/s]) and ``trajectory.csv`` (time, joint
angles, object pose, constraint violation; one row per step, named columns)."""

from __future__ import annotations

import numpy as np

from soagen.simulation.robot import write_trajectory_files


def csv_columns(system):
    """The CSV header's column names: t, q[arm.joint] ..., p_C, quat_C, err_pos, err_vel."""
    names = [f"{a.name}.{b.joint_name}" for a in system.arms for b in a.robot.bodies]
    return (["t"] + [f"q[{n}]" for n in names] + ["p_C.x", "p_C.y", "p_C.z", "quat_C.x", "quat_C.y",
                                                  "quat_C.z", "quat_C.w", "err_pos", "err_vel"])


def write_trajectory(traj, system, out_dir):
    """Write trajectory.npz and trajectory.csv into ``out_dir`` (an existing directory);
    returns the written paths."""
    arrays = dict(t=traj.t, q=traj.q, qd=traj.qd, p_C=traj.p_C, quat_C=traj.quat_C, V_C=traj.V_C,
                  err_pos=traj.err_pos, err_vel=traj.err_vel, violation=traj.violation)
    return write_trajectory_files(out_dir, arrays, csv_columns(system),
                                  np.column_stack([traj.t, traj.q, traj.p_C, traj.quat_C, traj.err_pos, traj.err_vel]))
