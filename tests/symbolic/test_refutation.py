"""The verifier can fail: perturbed identities (dropped transpose, swapped factors, wrong
sign) are not proved by either engine, and a random numeric instance gives a residual
far from zero (a real residual, not an evaluation error)."""

import pytest

from soagen.symbolic.engines import nfree
from soagen.symbolic.evidence.catalogue import BY_ID
from soagen.symbolic.evidence.verify import (
    check_numeric,
    check_symbolic,
    numeric_ns,
)
from soagen.symbolic.models.chain import symbolic_chain_namespace

# (identity, perturbed lhs, rhs, kind of perturbation)
PERTURBED = [
    ("I-4.11", "(I + H@Phi@L)@D@(I + H@Phi@L)", "Mcal", "dropped transpose"),
    ("I-4.11", "(I + H@Phi@L).T@D@(I + H@Phi@L)", "Mcal", "swapped factors"),
    ("I-4.11", "(I - H@Phi@L)@D@(I - H@Phi@L).T", "Mcal", "wrong sign"),
    ("I-4.16", "Mcal@(I - H@Psi@L)@Dinv@(I - H@Psi@L).T", "I", "swapped factors"),
    ("I-4.16", "Mcal@(I + H@Psi@L).T@Dinv@(I + H@Psi@L)", "I", "wrong sign"),
    ("I-5.4", "(I - H@Psi@L)@H@phi", "H@psi.T", "added transpose"),
    ("I-5.4", "(I - H@Psi@L)@H@psi", "H@phi", "swapped symbols"),
    ("I-a.46", "psi@M@phi.T", "P + psi_t@P + P@phi_t", "dropped transpose"),
    ("I-a.46", "phi@M@psi.T", "P + psi_t@P + P@phi_t.T", "swapped factors"),
    ("I-a.48", "phi@M@phi.T", "P + phi_t@P + P@phi_t.T - phi_t@P@H.T@Dinv@H@P@phi_t.T", "wrong sign"),
    ("I-a.50", "(I - H@Psi@L).T@Dinv@H@psi@M@phi.T",
     "(I - H@Psi@L).T@Dinv@H@psi_t@P + L.T@Psi.T@(I - G@H) + G.T", "dropped transpose"),
    ("I-a.25", "Psi", "(I - L@H@Psi)@Phi", "swapped factors"),
    ("I-a.16", "Phi", "Psi@(I - L@H@Phi)", "wrong sign"),
    ("FW-L5", "psi.T@H.T@Dinv@H@psi", "upsilon() + psi_t@upsilon() + upsilon()@psi_t.T",
     "transpose on the wrong factor"),
]


@pytest.mark.parametrize("ident,lhs,rhs,kind", PERTURBED, ids=[f"{p[0]}-{p[3]}" for p in PERTURBED])
def test_perturbed_identity_is_refuted(ident, lhs, rhs, kind):
    rec = BY_ID[ident]
    refuted_at = None
    for N in range(1, 5):
        r = check_symbolic(((lhs, rhs),), rec.let, symbolic_chain_namespace(N))
        if not r.ok:
            assert "has block" in r.detail          # normal forms differ (not an evaluation error)
            refuted_at = N
            break
    assert refuted_at is not None, f"{kind} of {ident} not refuted for N <= 4"
    num = check_numeric(((lhs, rhs),), rec.let, numeric_ns(rec, refuted_at))
    assert not num.ok and num.detail == "" and num.residual > 1e-3
    if "upsilon()" not in rhs:                  # the N-free algebra has U, not the code that computes it
        proof = nfree.prove_checks(((lhs, rhs),), rec.let, "chain", "chain", traced=False)
        assert not proof.proved


def test_unperturbed_versions_hold():
    for ident in {p[0] for p in PERTURBED}:
        rec = BY_ID[ident]
        for N in range(1, 4):
            assert check_symbolic(rec.checks, rec.let, symbolic_chain_namespace(N)).ok, ident


def test_ill_typed_refutation_names_the_clash():
    rec = BY_ID["II-6.5a"]
    r = check_numeric(rec.checks, rec.let, numeric_ns(rec, 3))
    assert not r.ok and "do not conform" in r.detail
