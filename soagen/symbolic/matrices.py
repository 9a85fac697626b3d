"""Matrix-expression theories that do not depend on a chain length N.

Part II's closed-chain block inverse (3.5), the non-rigid grasp solution (b.4)-(b.8),
and the Swain-Morris Lemmas B1/B2 are identities between products of a few named
matrices.  Each theory lists its matrices (name, row label, column label, kind) and its
rewriting rules; :func:`build` makes either a symbolic namespace (free noncommutative
generators, 1 x 1 block operators with dimension labels) or a numeric one (random
matrices of conforming sizes; SPD where the kind says so; inverses computed).

Rules used (all length-decreasing, overlaps checked confluent by a test):

* an invertible X with inverse Xinv:  X Xinv -> I,  Xinv X -> I;
* Part II grasps: Omega = J M^-1 J^T + A M^-1(C) A^T, oriented A Mcinv A^T -> Om - J Minv J^T
  (A ranked above J, so the rule decreases words);
* Swain-Morris M_p = M_b + X_b^T M_q X_b with inverse Mpinv:
  Mpinv X_b^T M_q X_b -> I - Mpinv M_b  (and its transpose);
  this single oriented relation carries the matrix inversion lemma.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from soagen.symbolic.blocks import BM, NumericField, SymbolicField
from soagen.symbolic.ncpoly import Theory


@dataclass(frozen=True)
class Mat:
    name: str
    rows: str
    cols: str
    kind: str = "free"        # free | sym | spd
    inverse: str | None = None  # name of its inverse generator (same kind)


# dims used by the numeric instances
_SIZES = {"n": 7, "c": 12, "o": 6, "w": 4, "1": 1,
          "q": 5, "x": 18, "y": 18, "b": 6, "e": 6}


THEORIES: dict[str, dict] = {
    # Part II (2.14), (3.1)-(3.5): M (n x n) mass matrix, J (c x n), Omega (c x c)
    "closed": {
        "mats": [Mat("M", "n", "n", "spd", "Minv"), Mat("J", "c", "n"),
                 Mat("Om", "c", "c", "spd", "Ominv"), Mat("v", "n", "1"), Mat("w", "c", "1")],
        "derived": {"K": "Om - J@Minv@J.T"},   # A M^-1(C) A^T, from (3.1)
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
        "pattern_inverse": [("Xinv", ("H0", "Ominv", "H0^T"))],
        "omega_rule": True,
        "derived": {},
    },
    # Swain-Morris Appendix B
    "swain": {
        "mats": [Mat("Phi", "y", "q"), Mat("X", "x", "y"), Mat("Mq", "x", "x", "spd", "Mqinv"),
                 Mat("Xb", "x", "b"), Mat("Mb", "b", "b", "spd", "Mbinv"),
                 Mat("Mpinv", "b", "b", "spd"), Mat("D", "x", "e"), Mat("bv", "x", "1"),
                 Mat("Xd", "x", "y"), Mat("Xbd", "x", "b"), Mat("Vb", "b", "1"),
                 Mat("bb", "b", "1"), Mat("fb", "b", "1"), Mat("f", "y", "1"), Mat("qd", "q", "1"),
                 Mat("Xbinv", "b", "x"), Mat("Mainv", "q", "q", "sym")],
        "swain_rule": True,
        "derived": {"Mp": "Mb + Xb.T@Mq@Xb"},
    },
}


def theory(name: str) -> Theory:
    spec = THEORIES[name]
    th = Theory(name)
    for m in spec["mats"]:
        th.gen(m.name, symmetric=m.kind in ("sym", "spd"))
        if m.inverse:
            th.gen(m.inverse, symmetric=m.kind in ("sym", "spd"))
    for m in spec["mats"]:
        if m.inverse:
            th.add_rule((m.name, m.inverse), 1)
            th.add_rule((m.inverse, m.name), 1)
    for inv, word in spec.get("pattern_inverse", []):
        th.add_rule((inv,) + word, 1)
    if spec.get("omega_rule"):
        # Omega = J M^-1 J^T + A M^-1(C) A^T (b.4a corrected, (b.9b)): eliminate A M^-1(C) A^T
        th.rank.update({"A": 1, "A^T": 1})
        Om, J, Minv = th.gen("Om", symmetric=True), th.gen("J"), th.gen("Minv", symmetric=True)
        th.add_rule(("A", "Mcinv", "A^T"), Om - J @ Minv @ J.T)
    if spec.get("swain_rule"):
        # Mpinv (Mp - Mb) = I - Mpinv Mb with Mp = Mb + Xb^T Mq Xb
        th.add_rule(("Mpinv", "Xb^T", "Mq", "Xb"), 1 - th.gen("Mpinv", symmetric=True) @ th.gen("Mb", symmetric=True))
    return th


def build(name: str, numeric: bool = False, seed: int = 0, sizes: dict | None = None) -> dict:
    """Namespace of 1 x 1 block operators for theory `name`."""
    spec = THEORIES[name]
    sizes = {**_SIZES, **(sizes or {})}
    ns: dict = {}
    if not numeric:
        th = theory(name)
        f = SymbolicField(th)

        def wrap(poly, r, c):
            return BM(f, [r], [c], [[poly]])
        for m in spec["mats"]:
            sym = m.kind in ("sym", "spd")
            ns[m.name] = wrap(th.gen(m.name, symmetric=sym), m.rows, m.cols)
            if m.inverse:
                ns[m.inverse] = wrap(th.gen(m.inverse, symmetric=sym), m.cols, m.rows)
    else:
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
        if name == "swain":
            vals["Mpinv"] = np.linalg.inv(vals["Mb"] + vals["Xb"].T @ vals["Mq"] @ vals["Xb"])
            vals["Xbinv"] = np.linalg.pinv(vals["Xb"])   # the only inverse a 6nm x 6 matrix has: a left inverse
        for m in spec["mats"]:
            ns[m.name] = BM(f, [sizes[m.rows]], [sizes[m.cols]], [[vals[m.name]]])
            if m.inverse:
                ns[m.inverse] = BM(f, [sizes[m.cols]], [sizes[m.rows]], [[vals[m.inverse]]])
    from soagen.symbolic.blocks import I
    ns["I"] = I
    for k, expr in spec.get("derived", {}).items():
        ns[k] = eval(expr, {}, ns)  # noqa: S307 - expressions are ours, see THEORIES
    return ns
