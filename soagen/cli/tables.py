"""The commands' rich tables, fitting 100 columns when piped or logged (on a terminal: its
width): a name or number column is as wide as its longest entry (header included) and is
never wrapped or cut, text wraps at spaces, never inside a word. A table whose unwrappable
columns need more than that is printed whole at its natural width, when piped; nothing is
ever dropped or cut. Tables that would not fit are split by the command (``soagen
bench``: the generated code, then the peers)."""

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
        cells = [r[k] for r in rows] + [header]
        width = max(_width(c) for c in cells) if no_wrap else max(_width(w) for c in cells for w in c.split())
        t.add_column(header, justify=justify, no_wrap=no_wrap, min_width=width, overflow="fold")
    for row in rows:
        t.add_row(*row)
    return t


def _width(text):
    """The printed width of a cell (its rich markup, such as [green]...[/], not counted;
    brackets that are not markup are)."""
    from rich.errors import MarkupError
    from rich.text import Text

    if "[" not in text:
        return len(text)
    try:
        return Text.from_markup(text).cell_len
    except MarkupError:
        return len(text)
