"""`soagen derive`: step-by-step derivations (see soagen.symbolic.teaching.derive)."""

from __future__ import annotations

from pathlib import Path

import click

from soagen.errors import SoagenError


@click.command()
@click.argument("topic", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "ipynb"]), default="text",
              show_default=True,
              help="Plain text for the terminal; Markdown with LaTeX; or a Jupyter notebook (ipynb): each "
                   "step in LaTeX with its justification and a code cell that checks it with soagen on a "
                   "random robot (needs the notebooks extra: pip install 'soagen[notebooks]').")
@click.option("--robot", "robot_path", type=click.Path(dir_okay=False), default=None,
              help="Robot file for the closed-form topic (default robots/planar2.yaml).")
@click.option("--out", "--output", "output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of stdout. Links to the proof certificates are file URIs of the "
                   "certificates soagen carries (the wheel ships them), so they resolve wherever the text is "
                   "moved; relative to FILE's directory when FILE is inside soagen's own repository.")
@click.option("--all", "all_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write every bundled topic as DIR/<topic>.md (DIR/<topic>.ipynb with --format ipynb); "
                   "`--all docs/derivations` regenerates the docs.")
@click.option("--list", "list_", is_flag=True, help="List the topics and exit (as `soagen derive` alone).")
def derive(topic, fmt, robot_path, output, all_dir, list_):
    """A derivation step by step (text, Markdown or a notebook), each step proved in the
    proof layer. Without a TOPIC: the list of topics."""
    from soagen.symbolic.teaching import derive as D

    if list_ or not (topic or all_dir):
        for name in D.TOPICS:
            click.echo(f"{name:16s} {D.TOPIC_HELP[name]}")
        return
    if robot_path and not Path(robot_path).is_file():
        raise SoagenError(f"{robot_path}: no such robot file")
    if all_dir:
        out = Path(all_dir)
        fmt, suffix = ("ipynb", ".ipynb") if fmt == "ipynb" else ("markdown", ".md")
        links = D.certificate_link(out)
        texts = {out / f"{name}{suffix}": _render(name, fmt, robot_path, links) for name in D.TOPICS}
        for path, text in texts.items():
            _write(path, text)
            click.echo(f"wrote {path}", err=True)
        return
    links = D.certificate_link(Path(output).parent if output else None)
    text = _render(topic, fmt, robot_path, links)
    if output:
        _write(Path(output), text)
    else:
        click.echo(text, nl=False)


def _render(topic, fmt, robot_path, links) -> str:
    if fmt == "ipynb":
        from soagen.symbolic.teaching.notebook import notebook
        return notebook(topic, robot_path, links)
    from soagen.symbolic.teaching import derive as D
    return D.render(topic, fmt, robot_path, links)


def _write(path: Path, text: str) -> None:
    """Write a finished rendering (nothing is written when rendering fails)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    except OSError as err:
        raise SoagenError(f"{path}: cannot write ({err.strerror})") from None
