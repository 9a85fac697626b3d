"""Options shared by several commands, defined once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


class CommaList(click.ParamType):
    """A comma-separated list on the command line (``a,b,c``), as a tuple of its words in
    order, each once. ``choices``: the words allowed (an error names the first other and
    lists them); ``expand``: words that stand for several (``all``), a dict or a function
    of no arguments returning one (so a --help needs no heavy import). With
    ``multiple=True`` give the option ``callback=joined``: every occurrence is a list, the
    command gets them as one."""

    name = "list"

    def __init__(self, choices=None, expand=None):
        self.choices, self.expand = choices, expand

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        words = [w.strip() for w in str(value).split(",") if w.strip()]
        if not words:
            self.fail(f"{value!r}: an empty list", param, ctx)
        expand = self.expand() if callable(self.expand) else (self.expand or {})
        if self.choices is not None:
            bad = [w for w in words if w not in self.choices and w not in expand]
            if bad:
                self.fail(f"{bad[0]!r}: choose from {', '.join(self.choices)} (or a comma-separated list)",
                          param, ctx)
        return tuple(dict.fromkeys(x for w in words for x in expand.get(w, (w,))))


def joined(ctx, param, value):
    """The callback of a repeatable CommaList option: its lists as one tuple."""
    return tuple(dict.fromkeys(w for words in value or () for w in words))


class Numbers(click.ParamType):
    """Numbers as a comma-separated list (``0.1,-0.2,0``), or the name of a file that
    holds them: an ``.npz`` with the array ``key`` (a trajectory's: its last row, so a run
    continues where another ended), or a text file of numbers separated by commas or
    white space. A numpy array."""

    name = "numbers"

    def __init__(self, key):
        self.key = key

    def convert(self, value, param, ctx):
        import numpy as np

        if isinstance(value, np.ndarray):
            return value
        path = Path(value)
        try:
            if path.is_file() and path.suffix == ".npz":
                with np.load(path) as data:
                    if self.key not in data:
                        self.fail(f"{value}: no array {self.key!r} in it (it has {', '.join(data.files)})", param, ctx)
                    x = np.atleast_2d(data[self.key])[-1]
            else:
                text = path.read_text() if path.is_file() else str(value)
                x = np.array([float(w) for w in text.replace(",", " ").split()])
        except ValueError as err:
            self.fail(f"{value!r}: not numbers ({err})", param, ctx)
        except OSError as err:
            self.fail(f"{value}: cannot read ({err.strerror})", param, ctx)
        if not x.size or not np.all(np.isfinite(x)):
            self.fail(f"{value!r}: expected finite numbers", param, ctx)
        return x.astype(float)


class XacroArg(click.ParamType):
    """``NAME:=VALUE``, xacro's own spelling of an argument, as (NAME, VALUE)."""

    name = "NAME:=VALUE"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        name, sep, arg = str(value).partition(":=")
        if not sep or not name.strip():
            self.fail(f"{value!r}: expected NAME:=VALUE (xacro's syntax), e.g. ur_type:=ur5e", param, ctx)
        return name.strip(), arg


@dataclass(frozen=True)
class LoadOptions:
    """What shapes the model of a robot file besides the file: --tip, --floating-base,
    --lock, --strict and --xacro-arg, as one object the commands pass on (given by
    :func:`robot_file_options`)."""

    tip: str | None = None
    floating_base: bool = False
    lock: tuple = ()
    strict: bool = False
    xacro_args: tuple = ()          # ((NAME, VALUE), ...)

    def load(self, path):
        """``soagen.load`` with these options."""
        import soagen

        return soagen.load(path, tip=self.tip, floating_base=self.floating_base, strict=self.strict,
                           lock=list(self.lock), xacro_args=dict(self.xacro_args))

    def args(self) -> tuple:
        """The options that shaped the model, as command-line words, so a generated
        file's regenerate command reproduces the same model (--strict shapes nothing)."""
        import shlex

        words = ["--tip", shlex.quote(self.tip)] if self.tip else []
        words += ["--floating-base"] if self.floating_base else []
        words += ["--lock", shlex.quote(",".join(self.lock))] if self.lock else []
        for name, value in self.xacro_args:
            words += ["--xacro-arg", shlex.quote(f"{name}:={value}")]
        return tuple(words)

    def key(self) -> dict:
        """The options as plain data, for the compiled-code cache's key."""
        return {"tip": self.tip, "floating_base": self.floating_base, "lock": list(self.lock),
                "xacro_args": [list(a) for a in self.xacro_args]}


strict_option = click.option("--strict", is_flag=True,
                             help="Refuse the robot file on any warning (an inertia that "
                                  "violates the triangle inequality, rotational inertia "
                                  "without mass, a <mimic> naming no joint, an unknown URDF "
                                  "element or attribute).")
lock_option = click.option("--lock", metavar="JOINT[=VALUE],...", multiple=True, type=CommaList(),
                           callback=joined,
                           help="Make these joints fixed, at VALUE (rad or m) or their neutral "
                                "position; JOINT may be a pattern ('*Finger*'). Repeatable, or "
                                "comma-separated. Fixes a singular mass matrix (joints that move "
                                "only massless links).")
xacro_arg_option = click.option("--xacro-arg", "xacro_args", metavar="NAME:=VALUE", multiple=True,
                                type=XacroArg(),
                                help="An argument of a xacro file (<xacro:arg name=...>), as for "
                                     "`xacro FILE NAME:=VALUE`. Repeatable.")


def robot_file_options(command):
    """--tip, --floating-base, --lock, --strict and --xacro-arg on ``command``, which
    receives them as one ``load`` argument (a :class:`LoadOptions`)."""
    import functools

    @functools.wraps(command)
    def with_load(*args, tip, floating_base, lock, strict, xacro_args, **kwargs):
        return command(*args, load=LoadOptions(tip, floating_base, tuple(lock), strict, tuple(xacro_args)),
                       **kwargs)

    for option in (xacro_arg_option, strict_option, lock_option, floating_base_option, tip_option):
        with_load = option(with_load)
    return with_load


# Parameters (click names) that only one kind of model file takes.
ROBOT_ONLY = ("tip", "floating_base", "lock", "strict", "xacro_args", "algos", "fd_variant", "symbolic_params", "use_numpy",
              "frames", "base", "q0", "qd0", "from_rest", "settle")
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
