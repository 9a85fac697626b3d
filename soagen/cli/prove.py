"""`soagen prove`: prove or refute a statement the user types (see soagen.symbolic.prove)."""

from __future__ import annotations

import json
import sys

import click


@click.command()
@click.argument("statement")
@click.option("--topology", type=click.Choice(["chain", "tree"]), default="chain", show_default=True,
              help="Prove for every serial chain, or for every tree (only the relations that hold on trees).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--nmax", type=click.IntRange(1, 7), default=4, show_default=True,
              help="Per-N fallback: prove block by block for N = 1..NMAX when no all-N proof exists.")
@click.option("--certificate", "cert_path", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE", help="Write the certificate of an all-N proof to FILE.")
def prove(statement, topology, fmt, nmax, cert_path):
    """Prove STATEMENT, e.g. "Phi = Psi@(I + L@H@Phi)", for every chain length N.

    Names as in docs/identities.md (phi psi Phi Psi S Dphi Dpsi Ephi Epsi H M P D Dinv G L K
    Mcal I ...; the derivative operators Mdot Bcor Sdot Psidot Psiddot fbar R Bcor_c hbar
    Ccor Mcaldot dTdth dTdthd of docs/derivatives.md; an unknown name lists all), `.T` transpose, `@` product, `+ - ( )`, integer scalars, `LHS = RHS`.
    Result: proved-all-n (with a certificate, re-checked independently), proved-up-to-n
    (block by block, N = 1..NMAX), refuted (numeric counterexample), ill-typed.  Exit
    status 0 proved, 1 refuted or ill-typed, 2 syntax error.
    """

    from soagen.symbolic.prove import decide

    v = decide(statement, topology=topology, nmax=nmax, certificate_path=cert_path)
    if fmt == "json":
        click.echo(json.dumps(v.json(), indent=2, sort_keys=True))
    else:
        words = {"proved-all-n": f"proved for every N ({'trees' if topology == 'tree' else 'chains'})",
                 "proved-up-to-n": f"proved for N = 1..{v.n_max} only",
                 "refuted": "refuted", "ill-typed": "ill-typed (for every N)", "undecided": "undecided"}
        click.echo(f"statement: {v.statement}")
        click.echo(f"result:    {words[v.result]}")
        if v.counterexample:
            ce = v.counterexample
            click.echo(f"counterexample: N = {ce['N']} (random {ce.get('topology', 'chain')}), "
                       f"relative residual {ce['residual']:.3g}")
        if v.detail:
            click.echo(f"detail:    {v.detail}")
        if v.certificate:
            click.echo(f"certificate: {v.certificate}")
        click.echo(f"seconds:   {v.seconds:.3f}")
    if not v.proved:
        sys.exit(1)
