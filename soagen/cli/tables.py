"""The commands' rich tables, fitting 100 columns when piped or logged (on a terminal: its
width): a name column is as wide as its longest entry and is never wrapped or cut, a
number stays whole, text wraps at spaces. Tables that would not fit are split by the
command (``soagen bench``: the generated code, then the peers)."""

from __future__ import annotations

WIDTH = 100

# column kinds: (justify, no_wrap)
KINDS = {"name": ("left", True), "number": ("right", True), "text": ("left", False)}


def console():
    """Rich's console on stdout; piped or redirected, WIDTH columns (rich's default
    would be 80)."""
    from rich.console import Console

    con = Console()
    return con if con.is_terminal else Console(width=WIDTH)


def show(con, renderable):
    """Print ``renderable``; piped, a table whose unwrappable columns need more than
    WIDTH is printed at its natural width, nothing wrapped (rich would cut it)."""
    from rich.console import Console
    from rich.measure import Measurement

    need = Measurement.get(con, con.options.update_width(10_000), renderable)
    wide = not con.is_terminal and need.minimum > con.width
    (Console(width=need.maximum) if wide else con).print(renderable)


def table(title, columns, rows):
    """A table: ``columns`` as (header, kind) with kind in :data:`KINDS`, ``rows`` as
    lists of strings. Name columns get the width of their longest entry."""
    from rich import box
    from rich.table import Table

    rows = [[str(x) for x in row] for row in rows]
    t = Table(title=title, box=box.SIMPLE_HEAD)
    for k, (header, kind) in enumerate(columns):
        justify, no_wrap = KINDS[kind]
        width = max([len(r[k]) for r in rows] + [len(header)]) if kind == "name" else None
        t.add_column(header, justify=justify, no_wrap=no_wrap, min_width=width, overflow="fold")
    for row in rows:
        t.add_row(*row)
    return t
