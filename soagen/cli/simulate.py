"""`soagen simulate MODEL`: integrate a robot or a closed-chain system file and write its
trajectory and plots."""

from __future__ import annotations

import click

from soagen.cli.options import Numbers, robot_file_options
from soagen.closed_chain.forward import METHODS
from soagen.simulation.closed_chain import STABILIZATION
from soagen.simulation.robot import BASES, CONTROLLERS

BACKENDS = ("auto", "generated", "numpy")
SAG_WARNING = 0.10
"""A held link whose static tip deflection exceeds this fraction of its length is warned
about: the joints hold its root, not its shape, and its modes model small deflections."""
BALANCE_WARNING = 1e-3
"""An energy balance whose residual exceeds this fraction of its largest term is warned
about (the step is too long for the motion, or the state diverged)."""


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
                   "object's weight too, plus PD; flexible links held at their static shape), zero: none.")
@click.option("--q0", "q0", type=Numbers("q"), default=None, metavar="LIST|FILE",
              help="Robots: the start configuration, comma-separated: all nq entries of q, or only the "
                   "joint coordinates (the elastic ones then 0: undeformed); or a file (a trajectory.npz "
                   "of an earlier run: its last q; or a text file of numbers). Default: near neutral, "
                   "1-dof joints moved by 0.3 rad N(0, 1) (--seed).")
@click.option("--qd0", "qd0", type=Numbers("v"), default=None, metavar="LIST|FILE",
              help="Robots: the start velocity v, all nv entries or only the joint rates (elastic rates "
                   "0); a file as for --q0 (its last v). Default: random joint rates of size --speed.")
@click.option("--from-rest", is_flag=True,
              help="Robots: start at rest (qd0 = 0) at --q0, or at the neutral configuration: with "
                   "--controller zero, the release experiments of docs/flexible.md.")
@click.option("--settle/--no-settle", "settle", default=None,
              help="Robots with flexible links or spring joints: start the elastic coordinates in their "
                   "static equilibrium under gravity with the joints where the start puts them (the links "
                   "sag as when held there). Default: on for the random start, off for --q0 and "
                   "--from-rest (the coordinates as given; undeformed when not given).")
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
@robot_file_options
def simulate(model, duration, dt, out, backend, code, controller, q0, qd0, from_rest, settle, speed, seed, method,
             stabilization, base, load):
    """Simulate MODEL: a robot file (open chain or tree) or a closed-chain system file
    (docs/closed-chains.md).

    RK4 with the torques of the controller held over each step. A robot starts near its
    neutral configuration (1-dof joints moved by 0.3 rad N(0, 1)), its flexible links in
    their static shape there, with random joint rates (--speed); or where --q0, --qd0 and
    --from-rest put it. A system starts from a state that satisfies the loop closures
    (System.consistent_state), with random joint rates, and is kept on the closure by
    --stabilization. Writes trajectory.npz, trajectory.csv and plots to OUT, prints the
    steps per second and, for a robot, the energy balance (E(t) - E(0) = work of the joint
    torques + work of the damping) and each flexible link's largest transverse tip
    deflection.
    """
    from soagen import output_dir
    from soagen.cli.options import given, model_file
    from soagen.errors import SoagenError

    if not (duration > 0 and (dt is None or dt > 0)):
        raise SoagenError("--duration and --dt must be positive")
    if dt is not None and dt > duration:
        raise SoagenError(f"--dt {dt:g} is longer than --duration {duration:g}")
    if from_rest and qd0 is not None:
        raise SoagenError("--from-rest and --qd0: give one (--from-rest is --qd0 0)")
    if (from_rest or qd0 is not None) and given("speed"):
        raise SoagenError("--speed: only for the random start rates (not with --from-rest or --qd0)")
    model, system = model_file(model)
    output_dir.check(out)
    backend = _backend(backend, code)
    if system:
        if backend == "generated" and method is not None:
            raise SoagenError("--method: the generated backend is Lilly-Orin Table 1 unrolled; --method is for "
                              "--backend numpy")
        return _system(model, duration, dt or 2e-3, out, backend, code, controller, speed, seed,
                       method or "rccfd1", stabilization or "projection")
    return _robot(model, duration, dt, out, backend, code, controller, speed, seed, base, load,
                  Start(q0, qd0, from_rest, settle))


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


def _integrate(sim, name, duration, dt, seed, speed, **start):
    """sim.run with a progress bar on stderr."""
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    from soagen.cli.options import progress

    bar = progress(TextColumn("[bold]simulate[/] {task.description}"), BarColumn(),
                   TextColumn("{task.completed}/{task.total} steps"), TimeRemainingColumn())
    task = bar.add_task(name, total=int(round(duration / dt)))
    with bar:
        return sim.run(duration, dt, seed, speed=speed, progress=lambda k, n: bar.update(task, completed=k), **start)


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


class Start:
    """The command line's start of a robot: --q0, --qd0, --from-rest, --settle."""

    def __init__(self, q0, qd0, from_rest, settle):
        self.q0, self.qd0, self.from_rest = q0, qd0, from_rest
        self.given = q0 is not None or qd0 is not None or from_rest
        self.settle = settle if settle is not None else (q0 is None and not from_rest)

    def state(self, sim, seed, speed):
        """(q, v) for RobotSimulator.run's ``start``, or None for its random start."""
        import numpy as np

        if not self.given:
            return None
        robot = sim.robot
        q, v = sim.random_state(seed, speed=speed)
        if self.q0 is not None:
            q = _entries(robot, "--q0", self.q0, robot.nq, sim.elastic_q, "the joint coordinates")
            _check_quaternions(robot, q)
        elif self.from_rest:
            q = robot.neutral_configuration()
        if self.qd0 is not None:
            v = _entries(robot, "--qd0", self.qd0, robot.nv, np.flatnonzero(sim.elastic), "the joint rates")
        elif self.from_rest:
            v = np.zeros(robot.nv)
        return q, v

    def describe(self, sim, seed, speed):
        what = "at --q0" if self.q0 is not None else "at the neutral configuration" if self.from_rest else \
            f"near neutral (seed {seed})"
        rates = "at rest" if self.from_rest else "with --qd0" if self.qd0 is not None else \
            f"joint rates {speed:g} N(0, 1) rad/s"
        elastic = ""
        if sim.elastic.any():
            elastic = ", the elastic coordinates in static equilibrium" if self.settle else \
                (", the elastic coordinates as given" if self.q0 is not None else ", undeformed")
        return f"start: {what}, {rates}{elastic}"


def _entries(robot, option, x, n, elastic, joints):
    """``x`` as the n entries of q or v: all n given, or only those not in ``elastic``
    (their indices; the others 0)."""
    import numpy as np

    from soagen.errors import SoagenError
    from soagen.simulation.robot import q_names

    if len(x) == n:
        return np.array(x, dtype=float)
    keep = np.setdiff1d(np.arange(n), elastic)
    if len(elastic) and len(x) == len(keep):
        out = np.zeros(n)
        out[keep] = x
        return out
    names = q_names(robot) if option == "--q0" else [f"v[{k}]" for k in range(n)]
    listed = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    other = f" or {len(keep)} ({joints})" if len(elastic) else ""
    raise SoagenError(f"{option}: {len(x)} numbers; {robot.name} takes {n}{other} ({listed})")


def _check_quaternions(robot, q):
    """Each quaternion of q (spherical and free joints) of unit norm, to 1e-6."""
    import numpy as np

    from soagen.errors import SoagenError

    for i, b in enumerate(robot.bodies):
        if b.joint.kind in ("spherical", "free"):
            quat = robot.joint_q(i, q)[-4:]
            if abs(np.linalg.norm(quat) - 1) > 1e-6:
                raise SoagenError(f"--q0: joint {b.joint_name!r}: its quaternion (qx, qy, qz, qw) has norm "
                                  f"{np.linalg.norm(quat):.6g}, not 1")


def _robot(path, duration, dt, out, backend, code, controller, speed, seed, base, load, start):
    from soagen import output_dir
    from soagen.cli.options import given
    from soagen.errors import SoagenError
    from soagen.simulation.robot import (
        GeneratedRobotDynamics,
        RobotSimulator,
        energies,
        write_robot_trajectory,
    )
    from soagen.simulation.robot_plots import plot_energy, plot_robot_trajectory

    robot = load.load(path)
    if given("base") and all(b.joint.kind != "free" for b in robot.bodies):
        raise SoagenError(f"{path}: --base: only for a floating robot (a free joint at the root, or --floating-base)")
    dt = _step(robot, dt, duration)
    state = start.state(RobotSimulator(robot, controller, base=base), seed, speed)   # checked before any work
    dynamics = None
    if robot.closures:                  # loops inside the robot: the generic loop_forward_dynamics
        backend = "numpy"
    if backend == "generated":
        dynamics = GeneratedRobotDynamics.for_robot(robot, robot.source, load.key(), code=code,
                                                    announce=_announce(robot.name))
    sim = RobotSimulator(robot, controller, dynamics, base=base)
    traj = _integrate(sim, robot.name, duration, dt, seed, speed, start=state, settle=start.settle)
    energy = energies(robot, traj)
    output_dir.create(out)
    paths = write_robot_trajectory(traj, robot, out, energy) + plot_robot_trajectory(traj, robot, out)
    held = f", base {sim.base}" if sim.base else ""
    click.echo(f"{robot.name}: {len(traj.t) - 1} steps of {dt:g} s, {backend} backend ({sim.method}), "
               f"{controller} controller{held}: {sim.steps_per_second:,.0f} steps/s")
    click.echo(start.describe(sim, seed, speed))
    balance = _energy_report(robot, traj, energy)
    paths.append(plot_energy(traj, robot, out, balance))
    if robot.is_flexible:
        _deflection_report(robot, traj, sim, controller)
        from soagen.simulation.robot_plots import plot_flexible

        paths += plot_flexible(traj, robot, out)
    if not sim.settled:
        click.echo(f"warning: {robot.name}: no static equilibrium of the elastic coordinates found at the start "
                   "(a link too soft for its load?): the gravity compensation takes them as given", err=True)
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


def _energy_report(robot, traj, energy):
    """The energy balance of the run, in one line (a warning when it does not close)."""
    from soagen.simulation.elastic import energy_balance

    b = energy_balance(traj, energy)
    worst = abs(b.residual).max()
    click.echo(f"energy balance E(t) - E(0) = W_tau(t) + W_d(t): E = T + U from {b.E[0]:.6g} J to {b.E[-1]:.6g} J, "
               f"work of the joint torques W_tau {b.W_tau[-1]:.6g} J, of the damping W_d {b.W_d[-1]:.6g} J; "
               f"closes within {worst:.2g} J, {b.relative:.2g} of the {b.scale:.4g} J exchanged (RK4's error)")
    if b.relative > BALANCE_WARNING:
        click.echo(f"warning: {robot.name}: the energy balance does not close ({b.relative:.2g} of its largest "
                   "term): the step is too long for this motion; use a smaller --dt", err=True)
    return b


def _deflection_report(robot, traj, sim, controller):
    """Each flexible link's largest transverse tip deflection, and its static deflection
    at the held start (a warning when that is beyond small deflections)."""
    from soagen.simulation.elastic import tip_deflections

    static = tip_deflections(robot, sim.q_static)
    for name, d in tip_deflections(robot, traj.q).items():
        sag = static[name].magnitude[0]
        peak = d.magnitude.max()
        held = f"; held at the start, {1000 * sag:.4g} mm statically" if controller != "zero" else ""
        click.echo(f"{name}: transverse tip deflection at most {1000 * peak:.4g} mm ({100 * peak / d.length:.3g}% "
                   f"of its {d.length:.4g} m length){held}; axial (foreshortening) at most "
                   f"{1000 * abs(d.axial).max():.3g} mm")
        if controller != "zero" and sag > SAG_WARNING * d.length:
            click.echo(f"warning: {robot.name}: {name}: held at the start, its tip sags {1000 * sag:.4g} mm under "
                       f"gravity ({100 * sag / d.length:.3g}% of its length): joint torques hold a link's root, not "
                       "its shape, and its modes model small deflections (docs/flexible.md); start where gravity "
                       "loads it less (--q0) or stiffen the link", err=True)
