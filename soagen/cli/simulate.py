"""`soagen simulate MODEL`: integrate a robot or a closed-chain system file and write its
trajectory and plots."""

from __future__ import annotations

import click

from soagen.cli.options import floating_base_option, robot_file_options, tip_option
from soagen.closed_chain.forward import METHODS
from soagen.simulation.closed_chain import STABILIZATION
from soagen.simulation.robot import BASES, CONTROLLERS

BACKENDS = ("auto", "generated", "numpy")


@click.command()
@click.argument("model", type=click.Path(dir_okay=False, path_type=str))
@click.option("--duration", "-T", type=float, default=1.0, show_default=True, help="Simulated time [s].")
@click.option("--dt", "dt", type=float, default=None,
              help="RK4 step [s]; default 2e-3, or for a flexible robot the stable step of its "
                   "stiffest mode (2.8 / omega_max).")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False, path_type=str), default="simulation",
              show_default=True, help="Output folder (trajectory.npz/.csv, PNG plots).")
@click.option("--backend", type=click.Choice(BACKENDS), default="auto", show_default=True,
              help="generated: the generated C, compiled (cached between runs); numpy: the generic "
                   "algorithms; auto: generated when a C compiler is found.")
@click.option("--code", type=click.Path(file_okay=False, exists=True, path_type=str), default=None,
              help="Folder of `soagen generate MODEL` to use for --backend generated (instead of "
                   "generating and caching).")
@click.option("--controller", type=click.Choice(CONTROLLERS), default="pd", show_default=True,
              help="Joint torques: pd holds the start (gravity compensation, for a system the "
                   "object's weight too, plus PD), zero: none.")
@click.option("--speed", type=float, default=0.5, show_default=True, help="Size of the random initial joint rates.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the initial state.")
@click.option("--method", type=click.Choice(list(METHODS)), default=None,
              help="System files, numpy backend: the closed-chain method (default rccfd1).")
@click.option("--stabilization", type=click.Choice(STABILIZATION), default=None,
              help="System files: projection onto the closure after each step (default), Baumgarte "
                   "(w = 50 rad/s), or none.")
@click.option("--base", type=click.Choice(BASES), default="held", show_default=True,
              help="A floating robot's base (a free joint at the root, or --floating-base): held at its "
                   "start pose by a fixture (gravity compensation and PD on the free joint), or free "
                   "(unactuated: the robot falls).")
@tip_option
@floating_base_option
@robot_file_options
def simulate(model, duration, dt, out, backend, code, controller, speed, seed, method, stabilization, base, tip,
             floating_base):
    """Simulate MODEL: a robot file (open chain or tree) or a closed-chain system file
    (docs/closed-chains.md).

    RK4 with the torques of the controller held over each step. A robot starts near its
    neutral configuration (1-dof joints moved by 0.3 rad N(0, 1)), a system from a state
    that satisfies the loop closures (System.consistent_state), both with random joint
    rates (--speed); systems are kept on the closure by --stabilization. Writes
    trajectory.npz, trajectory.csv and plots to OUT, and prints the steps per second.
    """
    from soagen import output_dir
    from soagen.cli.options import model_file
    from soagen.errors import SoagenError

    if not (duration > 0 and (dt is None or dt > 0)):
        raise SoagenError("--duration and --dt must be positive")
    if dt is not None and dt > duration:
        raise SoagenError(f"--dt {dt:g} is longer than --duration {duration:g}")
    model, system = model_file(model)
    output_dir.check(out)
    backend = _backend(backend, code)
    if system:
        if backend == "generated" and method is not None:
            raise SoagenError("--method: the generated backend is Lilly-Orin Table 1 unrolled; --method is for "
                              "--backend numpy")
        return _system(model, duration, dt or 2e-3, out, backend, code, controller, speed, seed,
                       method or "rccfd1", stabilization or "projection")
    return _robot(model, duration, dt, out, backend, code, controller, speed, seed, tip, floating_base, base)


def _backend(backend, code):
    from soagen.errors import SoagenError

    if backend == "auto":
        from soagen.codegen.compile import compiler

        try:
            compiler()
            backend = "generated"
        except SoagenError:
            backend = "numpy"
    if code is not None and backend != "generated":
        raise SoagenError("--code: only with --backend generated")
    return backend


def _integrate(sim, name, duration, dt, seed, speed):
    """sim.run with a progress bar on stderr."""
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    from soagen.cli.options import progress

    bar = progress(TextColumn("[bold]simulate[/] {task.description}"), BarColumn(),
                   TextColumn("{task.completed}/{task.total} steps"), TimeRemainingColumn())
    task = bar.add_task(name, total=int(round(duration / dt)))
    with bar:
        return sim.run(duration, dt, seed, speed=speed, progress=lambda k, n: bar.update(task, completed=k))


def _announce(what):
    return lambda: click.echo(f"{what}: generating and compiling the code (cached for the next run) ...",
                              err=True)


def _system(path, duration, dt, out, backend, code, controller, speed, seed, method, stabilization):
    import numpy as np

    from soagen import load_system, output_dir
    from soagen.simulation.closed_chain import GeneratedDynamics, Simulator
    from soagen.simulation.closed_chain_files import write_trajectory
    from soagen.simulation.closed_chain_plots import plot_trajectory

    system = load_system(path)
    dynamics = None
    if backend == "generated":
        dynamics = GeneratedDynamics.for_system(system, path, code=code, announce=_announce(system.name))
    sim = Simulator(system, method, stabilization, controller, dynamics=dynamics)
    traj = _integrate(sim, system.name, duration, dt, seed, speed)
    output_dir.create(out)
    paths = write_trajectory(traj, system, out) + plot_trajectory(traj, system, out)
    click.echo(f"{system.name}: {len(traj.t) - 1} steps of {dt:g} s, {backend} backend ({sim.method}), "
               f"{stabilization} stabilization, {controller} controller: {sim.steps_per_second:,.0f} steps/s")
    click.echo(f"max closure error: position {np.max(traj.err_pos):.3e}, velocity {np.max(traj.err_vel):.3e}")
    for p in paths:
        click.echo(f"wrote {p}")


def _robot(path, duration, dt, out, backend, code, controller, speed, seed, tip, floating_base, base):
    from soagen import output_dir
    from soagen.cli.options import given, load_robot, locked
    from soagen.errors import SoagenError
    from soagen.simulation.robot import (
        GeneratedRobotDynamics,
        RobotSimulator,
        write_robot_trajectory,
    )
    from soagen.simulation.robot_plots import plot_robot_trajectory

    robot = load_robot(path, tip=tip, floating_base=floating_base)
    if given("base") and all(b.joint.kind != "free" for b in robot.bodies):
        raise SoagenError(f"{path}: --base: only for a floating robot (a free joint at the root, or --floating-base)")
    dt = _step(robot, dt, duration)
    dynamics = None
    if robot.closures:                  # loops inside the robot: the generic loop_forward_dynamics
        backend = "numpy"
    if backend == "generated":
        options = {"tip": tip, "floating_base": floating_base, "lock": locked()}
        dynamics = GeneratedRobotDynamics.for_robot(robot, robot.source, options, code=code,
                                                    announce=_announce(robot.name))
    sim = RobotSimulator(robot, controller, dynamics, base=base)
    traj = _integrate(sim, robot.name, duration, dt, seed, speed)
    output_dir.create(out)
    paths = write_robot_trajectory(traj, robot, out) + plot_robot_trajectory(traj, robot, out)
    held = f", base {sim.base}" if sim.base else ""
    click.echo(f"{robot.name}: {len(traj.t) - 1} steps of {dt:g} s, {backend} backend ({sim.method}), "
               f"{controller} controller{held}: {sim.steps_per_second:,.0f} steps/s")
    if robot.is_flexible or any(b.joint.elastic for b in robot.bodies):
        paths += _elastic_report(robot, traj, out, controller)
    for p in paths:
        click.echo(f"wrote {p}")


def _step(robot, dt, duration):
    """--dt, checked against the stable RK4 step of a robot with elastic coordinates; by
    default 2e-3 s or that step (rounded down to 1, 2 or 5 x 10^k)."""
    import math

    from soagen.errors import SoagenError
    from soagen.simulation.robot import stable_step

    limit = stable_step(robot, robot.neutral_configuration())
    if dt is None:
        dt = 2e-3
        if limit is not None and limit < dt:
            e = 10 ** math.floor(math.log10(limit))
            dt = max(f * e for f in (1, 2, 5) if f * e <= limit)
    elif limit is not None and dt > limit:
        raise SoagenError(f"{robot.name}: --dt {dt:g} s is beyond RK4's stable step {limit:.3g} s for the "
                          "stiffest elastic mode (2.8 / omega_max); use a smaller --dt")
    if dt > duration:
        raise SoagenError(f"--dt {dt:g} is longer than --duration {duration:g}")
    return dt


def _elastic_report(robot, traj, out, controller):
    """Energy drift, the largest tip deflection of each flexible link, and their plots."""
    import numpy as np

    from soagen.simulation.robot import energies, tip_deflections
    from soagen.simulation.robot_plots import plot_flexible

    energy = energies(robot, traj)
    E = energy.sum(axis=0)
    drift = np.abs(E - E[0]).max() / max(abs(E[0]), np.abs(energy).max())
    damped = any(b.m and np.any(b.flex.C) for b in robot.bodies) or any(b.joint.damping for b in robot.bodies)
    why = "" if controller == "zero" and not damped else \
        " (not conserved here: " + ("joint torques" if controller != "zero" else "damping") + ")"
    click.echo(f"energy T + U: start {E[0]:.6g} J, end {E[-1]:.6g} J, largest relative change {drift:.3e}{why}")
    for name, d in tip_deflections(robot, traj.q).items():
        click.echo(f"{name}: largest elastic tip deflection {1000 * np.linalg.norm(d, axis=1).max():.3f} mm")
    return plot_flexible(traj, robot, out, energy) if robot.is_flexible else []
