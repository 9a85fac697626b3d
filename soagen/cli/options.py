"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

from soagen.algorithms import FD_METHODS

robot_argument = click.argument("robot", type=click.Path(dir_okay=False, path_type=str))
tip_option = click.option("--tip", metavar="LINK", default=None,
                          help="Link whose frame is the tip frame O(0) (default: the file's "
                               "tip, or a serial chain's last link).")
floating_base_option = click.option("--floating-base", is_flag=True,
                                    help="Put a free (6-dof) joint between the world and the "
                                         "file's root link: q starts with (x, y, z, qx, qy, qz, "
                                         "qw), v with (omega, v) in the root body frame.")

fd_variant_option = click.option("--fd-variant", type=click.Choice(("best",) + FD_METHODS), default="best",
                                 show_default=True,
                                 help="Forward dynamics variant of Part I; 'best' keeps the one whose "
                                      "unrolled code has the fewest operations.")

style_option = click.option("--style", type=click.Choice(("auto", "unrolled", "looped")), default="auto",
                            show_default=True,
                            help="C style of the functions that go through M = L^T D L (inverse mass matrix, "
                                 "forward dynamics and its derivatives, J M^-1 J^T): unrolled straight-line "
                                 "code, or looped (the factorization and solves as loops along the tree's "
                                 "parent array: code that stays small on humanoids); auto keeps the one the "
                                 "cost model finds faster (docs/codegen.md). The manifest says which.")

# The default is soagen.codegen.compile.FAST_FLAGS, spelled out: importing it would load
# SymPy for every --help (tests/test_cli.py checks that the two agree).
cflags_option = click.option("--cflags", default="-O3 -march=native -ffp-contract=fast", show_default=True,
                             callback=lambda ctx, param, value: tuple(value.split()),
                             help="Compiler flags for the generated C (the default builds for this "
                                  "machine's vector units).")


def progress(*columns):
    """A transient rich progress bar on stderr, shown only on a terminal: piped or logged,
    stderr gets neither the bar nor the blank line rich leaves after it, so an error
    that follows is the first line."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


def _remember(ctx, param, value):
    """Keep a robot-file option in the context for :func:`load_robot` (the commands'
    signatures stay as they are)."""
    ctx.meta[f"soagen.{param.name}"] = value
    return value


strict_option = click.option("--strict", is_flag=True, expose_value=False, callback=_remember,
                             help="Refuse the robot file on any warning (an inertia that "
                                  "violates the triangle inequality, rotational inertia "
                                  "without mass, a <mimic> naming no joint).")
lock_option = click.option("--lock", metavar="JOINT[=VALUE],...", multiple=True, expose_value=False,
                           callback=_remember,
                           help="Make these joints fixed, at VALUE (rad or m) or their neutral "
                                "position; JOINT may be a pattern ('*Finger*'). Repeatable, or "
                                "comma-separated. Fixes a singular mass matrix (joints that move "
                                "only massless links).")


def robot_file_options(command):
    """--lock and --strict, read by :func:`load_robot`."""
    return strict_option(lock_option(command))


def locked():
    """The joints of the command line's --lock options (repeated or comma-separated)."""
    meta = click.get_current_context().meta
    return [x.strip() for entry in meta.get("soagen.lock", ()) for x in entry.split(",") if x.strip()]


def load_robot(path, tip=None, floating_base=False):
    """``soagen.load`` with the command line's --lock and --strict."""
    import soagen

    strict = click.get_current_context().meta.get("soagen.strict", False)
    return soagen.load(path, tip=tip, floating_base=floating_base, strict=strict, lock=locked())


def load_args(tip=None, floating_base=False):
    """The options that shaped the model (--tip, --floating-base, --lock), as command-line
    words, so a generated file's regenerate command reproduces the same model."""
    import shlex

    words = ["--tip", shlex.quote(tip)] if tip else []
    words += ["--floating-base"] if floating_base else []
    lock = locked()
    return tuple(words + (["--lock", shlex.quote(",".join(lock))] if lock else []))


# Parameters (click names) that only one kind of model file takes.
ROBOT_ONLY = ("tip", "floating_base", "lock", "strict", "algos", "fd_variant", "symbolic_params", "use_numpy",
              "frames", "base")
SYSTEM_ONLY = ("method", "stabilization")


def given(name, ctx=None) -> bool:
    """True when the command line (or the environment) gave the parameter ``name``, whatever
    its value: click's parameter source, not a comparison with the default, so an explicit
    ``--algorithms all`` counts as given."""
    from click.core import ParameterSource

    ctx = ctx or click.get_current_context()
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT,
                                              ParameterSource.PROMPT)


def _spelling(param):
    return next((o for o in param.opts if o.startswith("--")), param.opts[0])


def model_file(model):
    """The file a MODEL argument names (a path, or the name of a bundled robot or system)
    and whether it is a closed-chain system file; the options of the command line that
    only the other kind of file takes are refused, all named in one error. Every command
    that takes robot and system files dispatches through this."""
    from soagen.errors import SoagenError
    from soagen.loaders.bundled import resolve
    from soagen.loaders.closed_chain import is_system_file

    ctx = click.get_current_context()
    path = resolve(model)
    system = is_system_file(path)
    wrong, kind = (ROBOT_ONLY, "robot files, not for a system file") if system else (SYSTEM_ONLY, "system files")
    params = {p.name: p for p in ctx.command.params}
    used = [_spelling(params[name]) for name in wrong if name in params and given(name, ctx)]
    if used:
        raise SoagenError(f"{model}: {', '.join(used)}: only for {kind}")
    return str(path), system
