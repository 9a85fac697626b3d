"""Matrix-expression theories that do not depend on a chain length N.

Part II's closed-chain block inverse (3.5), the non-rigid grasp solution (b.4)-(b.8),
the framework paper's closure constraints (2.16)-(2.17), (3.11), the Swain-Morris
Lemmas B1/B2 and the derivative of forward dynamics (docs/derivatives.md (D.19)) are identities between products of a few named matrices.  Each theory lists
its matrices (name, row label, column label, kind) and its relations, as data: the
N-free engine (:mod:`soagen.symbolic.engines.nfree`) proves them for every size, and
:func:`build` makes a numeric namespace (random matrices of conforming sizes; SPD where
the kind says so; inverses computed) for counterexamples and cross-checks.

Relations (each an oriented rule, decreasing in the theory's order):

* an invertible X with inverse Xinv:  X Xinv -> I,  Xinv X -> I;
* a named inverse of a product (``inverse_of``), e.g. Xinv = [H(0) Omega^-1 H^T(0)]^-1:
  Xinv H0 Ominv H0^T -> I (its transpose is the right inverse);
* ``rules``: Part II grasps: Omega = J M^-1 J^T + A M^-1(C) A^T, oriented
  A Mcinv A^T -> Om - J Minv J^T (A ranked above J); Swain-Morris M_p = M_b + X_b^T M_q X_b
  with inverse Mpinv: Mpinv X_b^T M_q X_b -> I - Mpinv M_b, which carries the matrix
  inversion lemma.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.symbolic.kernel.blocks import BM, NumericField


@dataclass(frozen=True)
class Mat:
    name: str
    rows: str
    cols: str
    kind: str = "free"        # free | sym | spd
    inverse: str | None = None  # name of its inverse generator (same kind)


# dims used by the numeric instances
_SIZES = {"n": 7, "c": 12, "o": 6, "w": 4, "1": 1,
          "q": 5, "x": 18, "y": 18, "b": 6, "e": 6,
          "nP": 9, "nS": 6, "cP": 12, "cS": 12, "k": 5}


THEORIES: dict[str, dict] = {
    # Part II (2.14), (3.1)-(3.5): M (n x n) mass matrix, J (c x n), Omega (c x c)
    "closed": {
        "mats": [Mat("M", "n", "n", "spd", "Minv"), Mat("J", "c", "n"),
                 Mat("Om", "c", "c", "spd", "Ominv"), Mat("v", "n", "1"), Mat("w", "c", "1")],
        "derived": {"K": ("Om - J@Minv@J.T", "Part II (3.1): A M^-1(C) A^T = Omega - J M^-1 J^T")},
    },
    # Part II Appendix B: non-rigid grasps
    "grasp": {
        "mats": [Mat("M", "n", "n", "spd", "Minv"), Mat("J", "c", "n"),
                 Mat("Om", "c", "c", "spd", "Ominv"), Mat("H0", "w", "c"),
                 Mat("Xinv", "w", "w", "spd"),  # [H(0) Omega^-1 H^T(0)]^-1, rule below
                 Mat("A", "c", "o"), Mat("Mcinv", "o", "o", "spd"),
                 Mat("T", "n", "1"), Mat("Cb", "n", "1"), Mat("G1", "c", "1"),
                 Mat("f", "c", "1"), Mat("Wd", "w", "1"), Mat("W", "w", "1"),
                 Mat("H0d", "w", "c"), Mat("Jdqd", "c", "1"), Mat("qd", "n", "1"),
                 Mat("aC", "c", "1"), Mat("bC", "o", "1")],
        "inverse_of": [("Xinv", "H0@Ominv@H0.T", "Part II (b.5b): H(0) Omega^-1 H^T(0) invertible")],
        "rules": [("omega", "A@Mcinv@A.T", "Om - J@Minv@J.T",
                   "Part II (b.9b): Omega = J M^-1 J^T + A M^-1(C) A^T")],
        "ranks": ["A", "Mcinv"],
    },
    # framework (2.15)-(2.17), (3.11): primary and secondary trees (mass matrices MP, MS, Jacobians JP, JS)
    # coupled by closure constraints A_P, A_S with k constraint rows
    "closure": {
        "mats": [Mat("MP", "nP", "nP", "spd", "MPinv"), Mat("MS", "nS", "nS", "spd", "MSinv"),
                 Mat("JP", "cP", "nP"), Mat("JS", "cS", "nS"), Mat("AP", "k", "cP"), Mat("AS", "k", "cS"),
                 Mat("TP", "nP", "1"), Mat("TS", "nS", "1"), Mat("U", "k", "1"), Mat("ft", "k", "1"),
                 Mat("Winv", "k", "k", "sym"), Mat("XPinv", "k", "k", "sym"), Mat("Qinv", "nS", "nS", "sym")],
        "inverse_of": [("XPinv", "AP@JP@MPinv@JP.T@AP.T", "framework Step (D): A_P Lambda_P A_P^* invertible")],
        "rules": [("W-inverse", "Winv@AP@JP@MPinv@JP.T@AP.T", "I - Winv@AS@JS@MSinv@JS.T@AS.T",
                   "framework (3.11): A_P Lambda_P A_P^* + A_S Lambda_S A_S^* invertible, inverse Winv"),
                  ("Q-inverse", "Qinv@JS.T@AS.T@XPinv@AS@JS", "I - Qinv@MS",
                   "framework Step (D): M_S + J_S^* A_S^* (A_P Lambda_P A_P^*)^-1 A_S J_S invertible, inverse Qinv")],
        "ranks": ["AS", "AP"],
    },
    # docs/derivatives.md (D.19): the derivatives of forward dynamics. M the mass matrix with inverse Minv
    # (Part I Theorem 4.1: (I - H Psi L)^T D^-1 (I - H Psi L)), dM, dMinv their differentials along one
    # direction (a joint position or rate), T the joint forces, Cb the bias and dCb its differential
    "fdderiv": {
        "mats": [Mat("M", "n", "n", "spd", "Minv"), Mat("dM", "n", "n"), Mat("dMinv", "n", "n"),
                 Mat("T", "n", "1"), Mat("Cb", "n", "1"), Mat("dCb", "n", "1")],
        "rules": [("diff-inverse", "M@dMinv", "-dM@Minv",
                   "docs/derivatives.md (D.19): d(M M^-1) = dM M^-1 + M d(M^-1) = 0 (product rule)")],
        "ranks": ["M", "dMinv"],
    },
    # Swain-Morris Appendix B
    "swain": {
        "mats": [Mat("Phi", "y", "q"), Mat("X", "x", "y"), Mat("Mq", "x", "x", "spd", "Mqinv"),
                 Mat("Xb", "x", "b"), Mat("Mb", "b", "b", "spd", "Mbinv"),
                 Mat("Mpinv", "b", "b", "spd"), Mat("D", "x", "e"), Mat("bv", "x", "1"),
                 Mat("Xd", "x", "y"), Mat("Xbd", "x", "b"), Mat("Vb", "b", "1"),
                 Mat("bb", "b", "1"), Mat("fb", "b", "1"), Mat("f", "y", "1"), Mat("qd", "q", "1"),
                 Mat("Xbinv", "b", "x"), Mat("Mainv", "q", "q", "sym"),
                 Mat("fe", "e", "1"), Mat("qdd", "q", "1")],
        "rules": [("Mp-inverse", "Mpinv@Xb.T@Mq@Xb", "I - Mpinv@Mb",
                   "Swain-Morris (B3), Lemma B1: M_p = M_b + X_b^T M_q X_b with inverse M_p^-1")],
        "ranks": ["Mpinv"],
        "derived": {"Mp": ("Mb + Xb.T@Mq@Xb", "Swain-Morris Lemma B1: M_p = M_b + X_b^T M_q X_b")},
    },
}


def build(name: str, seed: int = 0, sizes: dict | None = None) -> dict:
    """Numeric namespace of 1 x 1 block operators for theory `name` (random, seeded)."""
    from soagen.symbolic.kernel import statement
    from soagen.symbolic.kernel.blocks import I

    spec = THEORIES[name]
    sizes = {**_SIZES, **(sizes or {})}
    rng = np.random.default_rng(seed)
    f = NumericField()
    vals = {}
    for m in spec["mats"]:
        r, c = sizes[m.rows], sizes[m.cols]
        A = rng.normal(size=(r, c))
        if m.kind == "sym":
            A = A + A.T
        elif m.kind == "spd":
            A = A @ A.T + r * np.eye(r)
        vals[m.name] = A
        if m.inverse:
            vals[m.inverse] = np.linalg.inv(A)
    if name == "grasp":
        vals["Om"] = vals["J"] @ vals["Minv"] @ vals["J"].T + vals["A"] @ vals["Mcinv"] @ vals["A"].T
        vals["Ominv"] = np.linalg.inv(vals["Om"])
        vals["Xinv"] = np.linalg.inv(vals["H0"] @ vals["Ominv"] @ vals["H0"].T)
    if name == "closure":
        LP = vals["JP"] @ vals["MPinv"] @ vals["JP"].T
        LS = vals["JS"] @ vals["MSinv"] @ vals["JS"].T
        XP = vals["AP"] @ LP @ vals["AP"].T
        vals["Winv"] = np.linalg.inv(XP + vals["AS"] @ LS @ vals["AS"].T)
        vals["XPinv"] = np.linalg.inv(XP)
        vals["Qinv"] = np.linalg.inv(vals["MS"] + vals["JS"].T @ vals["AS"].T @ vals["XPinv"] @ vals["AS"] @ vals["JS"])
    if name == "fdderiv":
        vals["dMinv"] = -vals["Minv"] @ vals["dM"] @ vals["Minv"]
    if name == "swain":
        vals["Mpinv"] = np.linalg.inv(vals["Mb"] + vals["Xb"].T @ vals["Mq"] @ vals["Xb"])
        vals["Xbinv"] = np.linalg.pinv(vals["Xb"])   # the only inverse a 6nm x 6 matrix has: a left inverse
    ns: dict = {"I": I}
    for m in spec["mats"]:
        ns[m.name] = BM(f, [sizes[m.rows]], [sizes[m.cols]], [[vals[m.name]]])
        if m.inverse:
            ns[m.inverse] = BM(f, [sizes[m.cols]], [sizes[m.rows]], [[vals[m.inverse]]])
    for k, (expr, _) in spec.get("derived", {}).items():
        ns[k] = statement.evaluate(statement.parse_expr(expr), ns)
    return ns
