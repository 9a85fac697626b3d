"""`soagen` command group.

Each subcommand lives in its own module of this package and is imported only when it
runs, so `soagen --help` stays fast and a heavy import (SymPy, pinocchio) is paid only by
the command that needs it. A :class:`~soagen.errors.SoagenError` raised anywhere below a
command, and a usage error of the command line (unknown option, a directory where a file
is expected), is printed as one ``error:`` line on stderr with exit status 2; a
:class:`~soagen.errors.RobotFileWarning` as one ``warning:`` line, at once, except the
warning that the mass matrix is singular: that one waits for the end of the command, and
is left out when the command fails for that very reason (the error line says it all, with
the fix: ``generate --algorithms forward_dynamics`` of a robot with a massless moving
link printed the sentence twice).
"""

from __future__ import annotations

import importlib
import sys
import warnings

import click

from soagen import __version__
from soagen.errors import RobotFileWarning, SoagenError

# command name -> (module in soagen.cli, function name, one-line help for `soagen --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "derive": ("derive", "derive", "Print step-by-step derivations (text, Markdown/LaTeX or a notebook): Facts 4.1-4.2, Theorem 4.1, sweeps, closed forms."),
    "verify": ("verify", "verify", "Prove the papers' operator identities for every N (with certificates) and report misprints."),
    "prove": ("prove", "prove", "Prove or refute an operator identity you type, for every chain length N."),
    "info": ("info", "info", "Print a robot model: bodies, joints, dofs, total mass, flexible links' frequencies."),
    "generate": ("generate", "generate", "Generate straight-line C (scalar and batched), Python, JAX, PyTorch and CasADi dynamics code."),
    "build": ("build", "build", "Compile the generated C into a Python module (numpy in/out, batched, SIMD)."),
    "bench": ("bench", "bench", "Time generated C against Pinocchio and numpy; operation counts vs the papers."),
    "simulate": ("simulate", "simulate", "Simulate a robot or a closed-chain system on the generated code: RK4, hold controller, plots."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(f"soagen.cli.{module}"), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx):
        held = []
        with warnings.catch_warnings():
            warnings.simplefilter("always", RobotFileWarning)
            warnings.showwarning = lambda *args, **kw: _show_warning(*args, held=held, **kw)
            try:
                result = super().invoke(ctx)
            except SoagenError as err:
                for w in held:
                    if not _repeats(err, w):
                        click.echo(f"warning: {w}", err=True)
                click.echo(f"error: {err}", err=True)
                ctx.exit(2)
        for w in held:
            click.echo(f"warning: {w}", err=True)
        return result

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's main, with its usage errors (3-4 lines and ``Error:``) turned into one
        ``error:`` line like soagen's own."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as err:
            err.show()
            sys.exit(err.exit_code)
        except click.ClickException as err:
            where = f"{err.ctx.command_path}: " if getattr(err, "ctx", None) else ""
            hint = f" (see {err.ctx.command_path} --help)" if isinstance(err, click.UsageError) and err.ctx else ""
            click.echo(f"error: {where}{' '.join(err.format_message().split())}{hint}", err=True)
            sys.exit(err.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


_default_showwarning = warnings.showwarning


def _show_warning(message, category, filename, lineno, file=None, line=None, held=None):
    if issubclass(category, RobotFileWarning) and held is not None and _singular(message):
        held.append(message)
    elif issubclass(category, RobotFileWarning):
        click.echo(f"warning: {message}", err=True)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


def _singular(warning) -> bool:
    """Whether ``warning`` is the loader's: the mass matrix is singular
    (:func:`soagen.loaders.solvable.check_invertible`)."""
    from soagen.loaders.solvable import USABLE

    return isinstance(warning, RobotFileWarning) and warning.problem.endswith(f"({USABLE})")


def _repeats(err, warning) -> bool:
    """Whether the error ``err`` fails for the reason the singular-mass-matrix ``warning``
    gave: the same file and its sentence (the generator's refusal), or a joint the warning
    names (the recursions' SingularMassMatrixError)."""
    import re

    from soagen.errors import SingularMassMatrixError
    from soagen.loaders.solvable import USABLE

    text = str(err)
    if not text.startswith(f"{warning.path}: "):
        return False
    if warning.problem[:-len(f" ({USABLE})")] in text:
        return True
    fix = re.search(r"--lock (\S+) \(", warning.problem)
    return isinstance(err, SingularMassMatrixError) and bool(fix) and err.joint in fix.group(1).split(",")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, package_name="soagen")
def cli():
    """soagen: Spatial Operator Algebra for multibody robot dynamics.

    Proof-check the identities of the operator papers (verify), derive recursions
    (derive), run the generic numpy algorithms, and generate straight-line C and Python
    dynamics code for a robot (generate, bench).
    """


def main(argv=None):
    """Console-script entry point."""
    return cli.main(args=argv, prog_name="soagen")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
