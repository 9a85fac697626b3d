"""`soagen` command group.

Each subcommand lives in its own module of this package and is imported only when it
runs, so `soagen --help` stays fast and a heavy import (SymPy, pinocchio) is paid only by
the command that needs it. A :class:`~soagen.errors.SoagenError` raised anywhere below a
command is printed as one line on stderr and turned into exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import click

from soagen.errors import SoagenError

# command name -> (module in soagen.cli, function name, one-line help for `soagen --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "derive": ("derive", "derive", "Print step-by-step derivations (Markdown/LaTeX or text): Facts 4.1-4.2, Theorem 4.1, sweeps, closed forms."),
    "verify": ("verify", "verify", "Proof-check the papers' operator identities (symbolic, N = 1..nmax) and report misprints."),
    "info": ("info", "info", "Print a robot model: bodies, joints, dofs, total mass."),
    "generate": ("generate", "generate", "Generate straight-line C and Python dynamics code for a robot."),
    "bench": ("bench", "bench", "Time generated C against Pinocchio and numpy; operation counts vs the papers."),
    "simulate": ("simulate", "simulate", "Simulate a closed-chain system (arms holding an object, legs): RK4 + stabilization."),
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
        try:
            return super().invoke(ctx)
        except SoagenError as err:
            click.echo(f"error: {err}", err=True)
            ctx.exit(2)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="soagen")
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
