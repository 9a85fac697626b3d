"""`soagen verify`: proof-check the papers' identities (see soagen.symbolic.verify)."""

from __future__ import annotations

import json
import sys

import click

DEFAULT_NMAX = 7   # the whole catalogue in about 45 s on one core (measured; see docs/identities.md)


def _short_source(o) -> str:
    return o.where


def _rows(outcomes, cross):
    rows = []
    for o in outcomes:
        num = o.numeric
        if o.id in cross:
            res, at, err = cross[o.id]
            num = f"{o.numeric} | robots {res:.1e} (N<= {at})" if not err else f"{o.numeric} | robots: {err}"
        rows.append({"id": o.id, "source": o.where, "seed": o.source, "N": o.nrange, "result": o.result,
                     "seconds": round(o.seconds, 3), "numeric": num, "counterexample": o.counterexample,
                     "message": o.message,
                     "per_N": {str(k): round(v, 4) for k, v in o.per_n.items()}})
    return rows


def _markdown(rows) -> str:
    lines = ["| id | source | N | result | seconds | numeric residual |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['id']} | {r['source']} | {r['N']} | {r['result']} | {r['seconds']:.2f} | {r['numeric']} |")
    notes = [r for r in rows if r["counterexample"] or r["message"]]
    if notes:
        lines += ["", "Counterexamples and messages:", ""]
        for r in notes:
            lines.append(f"- **{r['id']}**: {r['counterexample']} {r['message']}".rstrip())
    return "\n".join(lines) + "\n"


@click.command()
@click.option("--nmax", type=click.IntRange(1, 9), default=DEFAULT_NMAX, show_default=True,
              help="Prove chain identities for N = 1..NMAX (cost grows ~5x per N; N = 8 takes minutes and 2 GB).")
@click.option("--only", "only", multiple=True, metavar="ID", help="Run only these identity ids (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "json"]), default="table",
              show_default=True)
@click.option("--numeric-nmax", type=click.IntRange(0, 200), default=50, show_default=True,
              help="Largest random robot of the numeric cross-check (0 skips it).")
@click.option("--list", "list_", is_flag=True, help="List the identity ids and exit.")
def verify(nmax, only, fmt, numeric_nmax, list_):
    """Prove each identity of the papers symbolically for N = 1..NMAX.

    Reports proved / misprint (printed form refuted with a counterexample, corrected form
    proved) / FAILED, cross-checks numerically on random robots, and exits with status 1
    if an identity fails that is not a recorded misprint.
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from soagen.symbolic import verify as V
    from soagen.symbolic.catalogue import CATALOGUE

    if list_:
        for r in CATALOGUE:
            click.echo(f"{r.id:16s} {r.where}" + ("   [known misprint]" if r.misprint else ""))
        return
    records = V.select(list(only))
    err = Console(stderr=True)
    outcomes = []
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True) as prog:
        task = prog.add_task("proving", total=len(records))
        for rec in records:
            prog.update(task, description=f"proving {rec.id}")
            outcomes.append(V.run_record(rec, nmax))
            prog.advance(task)
    cross = {}
    if numeric_nmax:
        from soagen.symbolic.numeric import cross_check
        Ns = tuple(n for n in (1, 2, 5, 10, 25, 50, 100, 200) if n <= numeric_nmax) or (numeric_nmax,)
        Ns_multi = tuple(n for n in Ns if n <= 10) or Ns[:1]
        err.print(f"numeric cross-check on random robots: 1-dof joints N in {Ns}, "
                  f"with spherical joints N in {Ns_multi} ...")
        cross = cross_check(records, Ns=Ns)
        multi = cross_check(records, Ns=Ns_multi, seed=2027, joint_types=("revolute", "prismatic", "spherical"))
        for k, (res, at, e) in multi.items():
            r0, a0, e0 = cross[k]
            cross[k] = (max(r0, res), at if res > r0 else a0, e0 or e)
        for o in outcomes:
            if o.id in cross and (cross[o.id][2] or cross[o.id][0] > 1e-6):
                o.result = "FAILED"
                o.message = (o.message + " numeric cross-check on robots failed").strip()
    rows = _rows(outcomes, cross)
    failed = [r for r in rows if r["result"] == "FAILED"]
    if fmt == "json":
        click.echo(json.dumps({"nmax": nmax, "identities": rows, "failed": [r["id"] for r in failed]},
                              indent=2, sort_keys=True))
    elif fmt == "markdown":
        click.echo(_markdown(rows), nl=False)
    else:
        table = Table(title=f"soagen verify (N = 1..{nmax})")
        for col in ("id", "source", "N", "result", "seconds", "numeric residual"):
            table.add_column(col, overflow="fold")
        for r in rows:
            style = {"proved": "green", "misprint": "yellow", "FAILED": "bold red"}[r["result"]]
            table.add_row(r["id"], r["source"], r["N"], f"[{style}]{r['result']}[/]", f"{r['seconds']:.2f}",
                          r["numeric"])
        out = Console(width=200, soft_wrap=False)
        out.print(table)
        for r in rows:
            if r["counterexample"] or r["message"]:
                out.print(f"[bold]{r['id']}[/]: {r['counterexample']} {r['message']}".rstrip(), soft_wrap=True)
        n_proved = sum(r["result"] == "proved" for r in rows)
        n_mis = sum(r["result"] == "misprint" for r in rows)
        out.print(f"{len(rows)} identities: {n_proved} proved, {n_mis} misprints (corrected form proved), "
                  f"{len(failed)} failed")
    if failed:
        sys.exit(1)
