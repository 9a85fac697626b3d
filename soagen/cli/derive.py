"""`soagen derive`: step-by-step derivations (see soagen.symbolic.derive)."""

from __future__ import annotations

from pathlib import Path

import click

from soagen.errors import SoagenError


@click.command()
@click.argument("topic", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True,
              help="Plain text for the terminal, or Markdown with LaTeX.")
@click.option("--robot", "robot_path", type=click.Path(dir_okay=False), default=None,
              help="Robot file for the closed-form topic (default robots/planar2.yaml).")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file instead of stdout.")
@click.option("--all", "all_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write every bundled topic as DIR/<topic>.md (Markdown); used for docs/derivations.")
@click.option("--list", "list_", is_flag=True, help="List the topics and exit.")
def derive(topic, fmt, robot_path, output, all_dir, list_):
    """Print a derivation step by step, each step checked in the proof layer."""
    from soagen.symbolic import derive as D

    if list_:
        for name in D.TOPICS:
            click.echo(f"{name:16s} {D.TOPIC_HELP[name]}")
        return
    if all_dir:
        out = Path(all_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name in D.TOPICS:
            (out / f"{name}.md").write_text(D.render(name, "markdown", robot_path))
            click.echo(f"wrote {out / (name + '.md')}", err=True)
        return
    if not topic:
        raise SoagenError("derive: name a topic (`soagen derive --list`)")
    if robot_path and not Path(robot_path).is_file():
        raise SoagenError(f"{robot_path}: no such robot file")
    text = D.render(topic, fmt, robot_path)
    if output:
        try:
            Path(output).write_text(text)
        except OSError as err:
            raise SoagenError(f"{output}: cannot write ({err.strerror})") from None
    else:
        click.echo(text, nl=False)
