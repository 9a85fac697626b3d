"""`soagen prove`: prove or refute a statement the user types (see soagen.symbolic.evidence.prove)."""

from __future__ import annotations

import json
import sys

import click


class _StatementCommand(click.Command):
    """A statement may begin with a minus sign (`-Phi@Psi = ...`): an argument that starts with
    `-` but is none of the options (nor an option's value) is the statement, not an unknown option."""

    def parse_args(self, ctx, args):
        takes_value = {}
        for p in self.get_params(ctx):
            for name in p.opts + p.secondary_opts:
                takes_value[name] = not getattr(p, "is_flag", False)
        rest, statement, i = [], [], 0
        while i < len(args):
            a = args[i]
            if a == "--":
                rest += args[i:]
                break
            if a in takes_value:
                rest += args[i:i + 1 + takes_value[a]]
                i += 1 + takes_value[a]
                continue
            if a.startswith("-") and not a.startswith("--") and a not in takes_value and len(a) > 1:
                statement.append(a)
            else:
                rest.append(a)
            i += 1
        if statement:
            rest += (["--"] if "--" not in rest else []) + statement
        return super().parse_args(ctx, rest)


@click.command(cls=_StatementCommand)
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
    Result and exit status: proved-all-n 0 (with a certificate, re-checked independently);
    refuted 1 (an exact counterexample: integer instance, checked modulo a prime) and
    ill-typed 1; a syntax error or unknown name 2; proved-up-to-n 3 (block by block, N =
    1..NMAX: true there, not derivable for every N); undecided 4 (no counterexample, no
    proof).  A statement that begins with '-' needs no '--'.
    """

    from soagen.symbolic.evidence.prove import decide
    from soagen.symbolic.kernel.status import ProveResult

    v = decide(statement, topology=topology, nmax=nmax, certificate_path=cert_path)
    if fmt == "json":
        click.echo(json.dumps(v.json(), indent=2, sort_keys=True))
    else:
        words = {ProveResult.PROVED_ALL_N: f"proved for every N ({'trees' if v.topology == 'tree' else 'chains'})",
                 ProveResult.PROVED_UP_TO_N: f"proved for N = 1..{v.n_max} only",
                 ProveResult.REFUTED: "refuted", ProveResult.ILL_TYPED: "ill-typed (for every N)",
                 ProveResult.UNDECIDED: f"undecided (no counterexample up to N = {v.n_searched}, no proof)"}
        click.echo(f"statement: {v.statement}")
        click.echo(f"result:    {words[v.result]}")
        if v.counterexample:
            ce = v.counterexample
            click.echo(f"counterexample: N = {ce['N']} (integer {ce.get('topology', 'chain')}, seed {ce['seed']}), "
                       f"exact: {ce['exact']}; relative size of the difference {ce['residual']:.3g}")
        if v.detail:
            click.echo(f"detail:    {v.detail}")
        if v.certificate:
            click.echo(f"certificate: {v.certificate}")
        click.echo(f"seconds:   {v.seconds:.3f}")
    sys.exit(v.exit_code)
