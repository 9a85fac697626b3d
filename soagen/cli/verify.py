"""`soagen verify`: prove the papers' identities for every N (see soagen.symbolic.evidence.verify)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from soagen.symbolic.kernel.status import RecordResult

DEFAULT_NMAX = 4   # per-N block engine: cross-check of the all-N proofs, proof of block statements


def _rows(outcomes, cross, cert_dir):
    rows = []
    for o in outcomes:
        num = o.numeric
        if o.id in cross:
            res, at, err = cross[o.id]
            num = f"{o.numeric} | robots {res:.1e} (N<= {at})" if not err else f"{o.numeric} | robots: {err}"
        scope = o.scope
        rows.append({
            "id": o.id, "source": o.where, "seed": o.source, "result": o.result,
            "scope": scope, "all_n": o.all_n, "topology": o.topology or None,
            "n_max": None if o.all_n or not o.per_n else max(o.per_n),
            "misprint_kind": o.misprint_kind or None, "N": o.nrange,
            "seconds": round(o.seconds, 3), "seconds_all_n": round(o.seconds_all_n, 3),
            "rules": o.rules or None, "numeric": num, "counterexample": o.counterexample, "message": o.message,
            "certificate": (str(Path(cert_dir) / f"{o.id}.txt") if cert_dir and o.certificate else None),
            "per_N": {str(k): round(v, 4) for k, v in o.per_n.items()}})
    return rows


def _result_label(r) -> str:
    if r["result"] == RecordResult.MISPRINT:
        return "misprint (" + {"paper": "error in the paper", "ocr": "likely OCR damage"}.get(r["misprint_kind"], "?") + ")"
    return r["result"]


def _summary(rows, outcomes, readings=()) -> str:
    c = Counter()
    for r in rows:
        c[r["result"]] += 1
        if r["result"] != RecordResult.FAILED:
            c["all_n" if r["all_n"] else "up_to_n"] += 1
            if r["topology"]:
                c["top_" + r["topology"]] += 1
        if r["misprint_kind"]:
            c["mis_" + r["misprint_kind"]] += 1
    sizes = sorted({o.rules for o in outcomes if o.rules})
    engine = sum(o.seconds_all_n for o in outcomes)
    blocks = sum(1 for o in outcomes if o.all_n and not hasattr(o.proof, "algebra"))
    conditional = [o.id for o in outcomes if o.all_n and "only" in o.scope]
    text = (f"{c['all_n']} of {len(rows)} identities proved for all N ({c['top_tree']} with the tree relations, "
            f"{c['top_chain']} needing a chain, of them {blocks} at block level (block by block or by induction over the block index); the rest N-independent"
            + (f"; under a condition: {', '.join(conditional)}" if conditional else "")
            + f"), {c['up_to_n']} for N = 1..k only; "
            f"{c['misprint']} of them misprints ({c['mis_paper']} errors in the paper, {c['mis_ocr']} likely OCR damage), "
            f"{c['FAILED']} failed. All-N engine {engine:.1f} s; completed systems of "
            f"{', '.join(map(str, sizes))} rules.")
    if readings:
        ok = sum(r.proved for r in readings)
        text += (f" Hypothesis readings: {ok} of {len(readings)} printed loops read as operator equations proved for "
                 f"every N, block by block" + ("" if ok == len(readings) else
                                               f" (NOT proved: {', '.join(r.id for r in readings if not r.proved)})")
                 + ".")
    return text


def _markdown(rows) -> str:
    lines = ["| id | source | result | proved for | all-N s | numeric residual |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['id']} | {r['source']} | {_result_label(r)} | {r['scope']} | "
                     f"{r['seconds_all_n']:.3f} | {r['numeric']} |")
    notes = [r for r in rows if r["counterexample"] or r["message"]]
    if notes:
        lines += ["", "Counterexamples and messages:", ""]
        for r in notes:
            lines.append(f"- **{r['id']}**: {r['counterexample']} {r['message']}".rstrip())
    return "\n".join(lines) + "\n"


@click.command()
@click.option("--nmax", type=click.IntRange(1, 9), default=DEFAULT_NMAX, show_default=True,
              help="Per-N block engine for N = 1..NMAX: cross-checks the all-N proofs and proves the statements "
                   "with block indices (cost grows ~5x per N from N = 5).")
@click.option("--only", "only", multiple=True, metavar="ID", help="Run only these identity ids (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "json"]), default="table",
              show_default=True)
@click.option("--numeric-nmax", type=click.IntRange(0, 200), default=50, show_default=True,
              help="Largest random robot of the numeric cross-check (0 skips it).")
@click.option("--certificates", "cert_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Write the axioms and one certificate per all-N proof into DIR (re-check them with "
                   "`python -m soagen.symbolic.evidence.checker DIR`).")
@click.option("--list", "list_", is_flag=True, help="List the identity ids and exit.")
def verify(nmax, only, fmt, numeric_nmax, cert_dir, list_):
    """Prove each identity of the papers for every chain length N.

    Reports, per identity: proved for all N (with a certificate; on trees, or needing a
    chain; statements with block indices by induction over the index; under a condition
    if the record has one), misprint (printed form refuted, as an error of the paper or
    likely OCR damage, corrected form proved), or FAILED; proves the reading of every
    printed loop as an operator equation for every N; cross-checks numerically on random
    robots; exits with status 1 if an identity or a reading fails.
    """
    from rich.console import Console
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

    from soagen.cli.options import progress
    from soagen.cli.tables import console, table
    from soagen.symbolic.evidence import verify as V
    from soagen.symbolic.evidence.catalogue import CATALOGUE
    from soagen.tolerances import ROBOT_RESIDUAL

    if list_:
        for r in CATALOGUE:
            click.echo(f"{r.id:16s} {r.where}" + ("   [known misprint]" if r.misprint else ""))
        return
    records = V.select(list(only))
    err = Console(stderr=True)
    outcomes = []
    with progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn()) as prog:
        task = prog.add_task("proving", total=len(records))
        for rec in records:
            prog.update(task, description=f"proving {rec.id}")
            outcomes.append(V.run_record(rec, nmax, certificates=bool(cert_dir)))
            prog.advance(task)
    readings = V.prove_readings(certificates=bool(cert_dir)) if not only else []
    cross = {}
    if numeric_nmax:
        from soagen.symbolic.evidence.numeric import cross_check
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
            if o.id in cross and (cross[o.id][2] or cross[o.id][0] > ROBOT_RESIDUAL):
                o.result = RecordResult.FAILED
                o.message = (o.message + " numeric cross-check on robots failed").strip()
    if cert_dir:
        from soagen.symbolic.evidence.certificate import write_certificates
        written = write_certificates(outcomes, cert_dir, readings)
        err.print(f"wrote {len(written)} files to {cert_dir}")
    rows = _rows(outcomes, cross, cert_dir)
    failed = [r for r in rows if r["result"] == RecordResult.FAILED] + [r for r in readings if not r.proved]
    if fmt == "json":
        click.echo(json.dumps({"nmax": nmax, "identities": rows,
                               "readings": [{"id": r.id, "proved": r.proved, "cases": r.cases, "terms": r.terms,
                                             "error": r.error} for r in readings],
                               "failed": [r["id"] if isinstance(r, dict) else r.id for r in failed],
                               "summary": _summary(rows, outcomes, readings)}, indent=2, sort_keys=True))
    elif fmt == "markdown":
        click.echo(_markdown(rows), nl=False)
    else:
        styles = {RecordResult.PROVED: "green", RecordResult.MISPRINT: "yellow", RecordResult.FAILED: "bold red"}
        out = console()
        out.print(table(f"soagen verify (all N; block engine N = 1..{nmax})",
                        [("id", "name"), ("source", "text"), ("result", "text"), ("proved for", "text"),
                         ("all-N s", "number"), ("numeric residual", "text")],
                        [[r["id"], r["source"], f"[{styles[r['result']]}]{_result_label(r)}[/]", r["scope"],
                          f"{r['seconds_all_n']:.3f}", r["numeric"]] for r in rows]))
        for r in rows:
            if r["counterexample"] or r["message"]:
                out.print(f"[bold]{r['id']}[/]: {r['counterexample']} {r['message']}".rstrip(), soft_wrap=True)
        out.print(_summary(rows, outcomes, readings), soft_wrap=True)
    if failed:
        sys.exit(1)
