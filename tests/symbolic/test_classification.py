"""Issue 19's acceptance statements, and more of the same kinds, classified right by `soagen prove`:

* scale: a false statement hidden under large terms (the old relative residual let them pass),
  and true ones under large equal terms;
* deep nilpotency: true for N <= k, false from N = k + 1 (the search goes beyond the longest word);
* cancellation: true statements whose terms cancel in floating point are never refuted (the
  refutation is exact: integer instances modulo a prime); true but underivable ones end
  proved-up-to-n or undecided, each with its exit status;
* chain shape: S S^T S = S and its consequences are proved for every chain (the relation
  shift-chain, or block by block) and refuted on trees;
* tree shape: S S^T commutes with block-diagonal operators on every tree (the block structure);
* unary minus: statements the engine used to write back as `--Phi` (a checker crash).

The certificates of the tampering kinds ("rebinding") are in test_checker_alone.py.
"""

import pytest
from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.symbolic.evidence.prove import EXIT_CODES, decide

S9 = "@".join(["S"] * 9)
# (statement, topology, result, N of the first counterexample, kind)
CASES = [
    # --- the statements ---------------------------------------------------------------
    ("Ephi@Ephi@Ephi@Ephi@Ephi + 1000000000@I = 1000000000@I", "chain", "refuted", 6, "scale"),
    ("Phi@Phi@Phi@Phi@S + P@P@P@P@P@P@P@P = P@P@P@P@P@P@P@P", "chain", "refuted", 6, "scale"),
    (f"{S9} = 0@S", "chain", "refuted", 10, "nilpotency"),
    ("100000001@Phi = 100000000@Phi", "chain", "refuted", 2, "scale"),
    ("S.T@S@Ephi.T@(P@P@P)@(P@P@P) - Ephi.T@P@P@P@P@P@P + I = I", "chain", "proved-all-n", None, "cancellation"),
    ("-(-Phi) = Phi.T.T", "chain", "proved-all-n", None, "unary minus"),
    ("Phi - (-Psi) = Phi + Psi", "chain", "proved-all-n", None, "unary minus"),
    ("Phi + (-Psi) = Phi - Psi", "chain", "proved-all-n", None, "unary minus"),
    ("S@S.T@S = S", "chain", "proved-all-n", None, "chain shape"),
    ("S.T@S@S.T = S.T", "chain", "proved-all-n", None, "chain shape"),
    ("Ephi@S.T@S = Ephi", "chain", "proved-all-n", None, "chain shape"),
    ("(Dphi - I)@(Dphi - I) = 0@Dphi", "chain", "undecided", None, "rigid-body shape"),
    # --- 40 more of the same kinds ------------------------------------------------------------
    # scale: a false statement hidden under big terms
    ("1000000@Mcal + Psi@Psi = 1000000@Mcal", "chain", "ill-typed", None, "scale"),
    ("1000000@P + Psi@Psi = 1000000@P", "chain", "refuted", 3, "scale"),
    ("M@M@M@M@M@M + Ephi@Ephi@Ephi = M@M@M@M@M@M", "chain", "refuted", 4, "scale"),
    ("999999999@I + psi_t@psi_t@psi_t = 999999999@I", "chain", "refuted", 4, "scale"),
    ("P@P@P@P@P@P@P@P@Ephi@Ephi@Ephi = 0@Ephi", "chain", "refuted", 4, "scale"),
    ("1000000000@P + Ephi.T = 1000000000@P", "chain", "refuted", 2, "scale"),
    ("2000000000@phi = 2000000001@phi - phi + Ephi@Ephi", "chain", "refuted", 3, "scale"),
    ("123456789@Mcal@(I - H@Psi@L).T@Dinv@(I - H@Psi@L) = 123456789@I + H@Psi@Psi@L", "chain", "refuted", 3, "scale"),
    ("Dinv@Dinv@Dinv@Dinv + H@Phi@Phi@Phi@L = Dinv@Dinv@Dinv@Dinv", "chain", "refuted", 4, "scale"),
    ("P@P@P@P@P@P@P@P@P@P + Phi@Phi@Phi@Phi@Phi@Phi = P@P@P@P@P@P@P@P@P@P", "chain", "refuted", 7, "scale"),
    ("M@M@M@M + Epsi@Epsi = M@M@M@M", "tree", "refuted", 3, "scale"),
    # scale, true: big equal terms, a true identity underneath
    ("123456789@(phi - psi) = 123456789@Psi@L@H@phi", "chain", "proved-all-n", None, "scale (true)"),
    ("1000000000@Mcal@(I - H@Psi@L).T@Dinv@(I - H@Psi@L) = 1000000000@I", "chain", "proved-all-n", None, "scale (true)"),
    ("P@P@P@P@P@P + Phi = P@P@P@P@P@P + phi@S", "tree", "proved-all-n", None, "scale (true)"),
    # deep nilpotency: true for N <= k, false beyond
    ("@".join(["S"] * 12) + " = 0@S", "chain", "refuted", 13, "nilpotency"),
    ("@".join(["S"] * 20) + " = 0@S", "chain", "refuted", 21, "nilpotency"),
    ("@".join(["Ephi"] * 7) + " = 0@S", "chain", "refuted", 8, "nilpotency"),
    ("@".join(["Epsi"] * 6) + " = 0@S", "chain", "refuted", 7, "nilpotency"),
    ("@".join(["Phi"] * 9) + " = 0@Phi", "chain", "refuted", 10, "nilpotency"),
    ("@".join(["Psi"] * 5) + " = 0@Psi", "chain", "refuted", 6, "nilpotency"),
    ("@".join(["phi_t"] * 6) + " = 0@phi", "chain", "refuted", 7, "nilpotency"),
    ("@".join(["S.T"] * 8) + " = 0@S", "chain", "refuted", 9, "nilpotency"),
    ("Psi@L@H@Psi@L@H@Psi@L@H@Psi = 0@Psi", "chain", "refuted", 5, "nilpotency"),
    ("phi = I + Ephi + Ephi@Ephi + Ephi@Ephi@Ephi", "chain", "refuted", 5, "nilpotency"),
    ("@".join(["S"] * 6) + " = 0@S", "tree", "refuted", 7, "nilpotency"),
    # cancellation: true statements whose terms cancel in floating point, never refuted
    ("1000000@Phi@Phi - 1000000@Phi@Phi + Psi = Psi", "chain", "proved-all-n", None, "cancellation"),
    ("Mcal@Mcal@Mcal@(I - H@Psi@L).T@Dinv@(I - H@Psi@L) = Mcal@Mcal", "chain", "proved-all-n", None, "cancellation"),
    ("1000000000@phi@S.T@S@Dphi - 1000000000@phi@Dphi@S.T@S + Phi = Phi", "chain", "proved-up-to-n", None, "cancellation"),
    ("phi@S.T@S@Dphi = phi@Dphi@S.T@S", "chain", "proved-up-to-n", None, "cancellation"),
    ("(Dphi - I)@(Dphi - I)@P@P@P@P@P@P = 0@P", "chain", "undecided", None, "cancellation"),
    ("100000@(Dphi - I)@(Dphi - I) + Phi = Phi", "chain", "undecided", None, "cancellation"),
    ("Ephi.T@Ephi@S.T@S = S.T@S@Ephi.T@Ephi", "chain", "proved-all-n", None, "cancellation"),
    # chain shape: proved on chains, refuted on trees
    ("S@S.T@S = S", "tree", "refuted", 3, "chain shape"),
    ("Ephi@S.T@S = Ephi", "tree", "refuted", 3, "chain shape"),
    ("phi@S.T@S@Dphi = phi@Dphi@S.T@S", "tree", "refuted", 3, "chain shape"),
    ("S@S.T@Ephi = Ephi", "chain", "proved-all-n", None, "chain shape"),
    ("E.T@S.T = 0@E.T", "chain", "proved-all-n", None, "chain shape"),
    ("Ephi@Ephi@S.T@S.T@S@S = Ephi@Ephi", "chain", "proved-all-n", None, "chain shape"),
    ("S.T@B = 0@B", "chain", "proved-all-n", None, "chain shape"),
    # unary minus and signs
    ("-Phi@Psi = (-Phi)@Psi", "chain", "proved-all-n", None, "unary minus"),
    ("-(Phi - Psi).T = Psi.T - Phi.T", "chain", "proved-all-n", None, "unary minus"),
    ("-(-(-Mcal)) = -Mcal", "chain", "proved-all-n", None, "unary minus"),
    ("-Phi = Phi", "chain", "refuted", 2, "unary minus"),
    ("I = 2@I", "chain", "refuted", 1, "scale"),
    # tree shape: S S^T = Nc is a multiple of I in every block (proved with the block structure)
    ("S@S.T@Dphi = Dphi@S@S.T", "tree", "proved-all-n", None, "tree shape"),
    # true on every tree only by the rigid-body shape of phi(k+1, k), which no relation states: undecided
    ("S@S.T@(Dphi - I)@(Dphi - I) = 0@Dphi", "tree", "undecided", None, "rigid-body shape"),
]


SLOW = {"@".join(["S"] * 20) + " = 0@S"}


def _cases(slow: bool):
    return [pytest.param(*c, id=f"{c[4]}: {c[0][:60]} ({c[1]})", marks=[pytest.mark.slow] if c[0] in SLOW else [])
            for c in CASES if (c[0] in SLOW) == slow or not slow]


def test_enough_statements_of_each_kind():
    kinds = {}
    for *_, kind in CASES:
        kinds[kind] = kinds.get(kind, 0) + 1
    assert len(CASES) >= 12 + 40
    assert kinds["scale"] >= 10 and kinds["nilpotency"] >= 10 and kinds["cancellation"] >= 6


@pytest.mark.parametrize("stmt,topology,result,N,kind", _cases(slow=False))
def test_statement_is_classified_right(stmt, topology, result, N, kind):
    v = decide(stmt, topology=topology)
    assert v.result == result, (stmt, v.detail)
    assert v.exit_code == EXIT_CODES[result]
    if result == "refuted":
        ce = v.counterexample
        assert ce["N"] == N and ce["exact"].startswith("nonzero modulo")
        if kind == "chain shape":                    # true on chains: the counterexample is a branching tree
            assert ce["topology"] == "tree"
    if result == "proved-all-n":
        assert v.certificate_text.startswith("soagen certificate 1") and "re-checked" in v.detail


def test_exit_codes_on_the_command_line():
    for stmt, code in (("Ephi@Ephi@Ephi@Ephi@Ephi + 1000000000@I = 1000000000@I", 1),
                       ("-(-Phi) = Phi.T.T", 0), ("Ephi@S.T@S = Ephi", 0),
                       ("phi@S.T@S@Dphi = phi@Dphi@S.T@S", 3), ("(Dphi - I)@(Dphi - I) = 0@Dphi", 4),
                       ("-Phi = Psi +", 2)):
        r = CliRunner().invoke(cli, ["prove", stmt])
        assert r.exit_code == code, (stmt, r.output)
        assert "Traceback" not in r.output
