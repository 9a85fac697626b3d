"""`soagen simulate SYSTEM`: integrate a closed-chain system file and write its trajectory."""

from __future__ import annotations

import click

from soagen.closed_chain.forward import METHODS
from soagen.closed_chain.simulate import CONTROLLERS, STABILIZATION


@click.command()
@click.argument("system", type=click.Path(dir_okay=False, path_type=str))
@click.option("--duration", "-T", type=float, default=1.0, show_default=True, help="Simulated time [s].")
@click.option("--dt", "dt", type=float, default=2e-3, show_default=True, help="RK4 step [s].")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False, path_type=str), default="simulation",
              show_default=True, help="Output folder (trajectory.npz/.csv, PNG plots).")
@click.option("--method", type=click.Choice(list(METHODS)), default="rccfd1", show_default=True,
              help="Closed-chain forward dynamics method.")
@click.option("--stabilization", type=click.Choice(STABILIZATION), default="projection",
              show_default=True, help="Constraint stabilization: projection onto the closure after each "
                                      "step, Baumgarte (w = 50 rad/s), or none.")
@click.option("--controller", type=click.Choice(CONTROLLERS), default="pd", show_default=True,
              help="Joint torques: PD about the start + arm gravity compensation, or zero.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the consistent initial state.")
def simulate(system, duration, dt, out, method, stabilization, controller, seed):
    """Simulate SYSTEM (a closed-chain system file, docs/closed-chains.md).

    Starts from a state that satisfies the loop closures (System.consistent_state),
    integrates with RK4 and the chosen stabilization, and writes trajectory.npz,
    trajectory.csv and plots of the joint angles, the object pose and the constraint
    violation to OUT.
    """
    import numpy as np
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from soagen import output_dir
    from soagen.closed_chain import load_system
    from soagen.closed_chain.plots import plot_trajectory
    from soagen.closed_chain.simulate import Simulator
    from soagen.closed_chain.trajectory_files import write_trajectory
    from soagen.errors import SoagenError

    if not (duration > 0 and dt > 0):
        raise SoagenError("--duration and --dt must be positive")
    if dt > duration:
        raise SoagenError(f"--dt {dt:g} is longer than --duration {duration:g}")
    output_dir.check(out)
    sys_ = load_system(system)
    sim = Simulator(sys_, method, stabilization, controller)
    err = Console(stderr=True)
    with Progress(TextColumn("[bold]simulate[/] {task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} steps"), TimeRemainingColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task(sys_.name, total=int(round(duration / dt)))
        traj = sim.run(duration, dt, seed, progress=lambda k, n: progress.update(task, completed=k))
    output_dir.create(out)
    paths = write_trajectory(traj, sys_, out) + plot_trajectory(traj, sys_, out)
    click.echo(f"{sys_.name}: {len(traj.t) - 1} steps of {dt:g} s with {method}, {stabilization} stabilization")
    click.echo(f"max closure error: position {np.max(traj.err_pos):.3e}, velocity {np.max(traj.err_vel):.3e}")
    for p in paths:
        click.echo(f"wrote {p}")
