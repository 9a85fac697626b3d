"""Random numeric instances of the N-free operator algebra: chains, trees, several arms.

One builder for every topology: links are numbered as in the papers (tip = 1, parent(k)
> k, the base is n + 1); a chain has parent(k) = k + 1, a tree any parents, l arms a
forest (several links on the base, one tip each).  The primitive operators are random
but rigid-body shaped (phi(parent(k), k) = [[I, l~], [0, I]], H(k) random r_k x 6, M(k)
SPD); P and D^-1 come from the Riccati recursion on the topology (framework (A.1)); every
other operator is obtained by evaluating the algebra's own *definitions*
(:data:`soagen.symbolic.engines.nfree.RELATIONS`) on these matrices, so the numbers and the
symbols mean the same thing.  Upsilon is the block-diagonal solution of the recursion
(A.5), which solves (A.3) on chains and not on branching trees.  The operators of the
derivatives (docs/derivatives.md) are rigid-body shaped too: Mdot, B, Sdot, Psidot, Psiddot,
fbar from link velocities V = phi^T H^T thd and forces, the composites R, B_c by the loop
(a.44) over the tree.

Values are :class:`~soagen.symbolic.models.dense.Dense` operators with block labels ("6" per
link, "r<k>" per joint), so an ill-typed product fails here as in the algebra.
:func:`solve_unknowns` gives a record's unknowns (sweep states, Lemma A.1's r) their
values from its hypotheses, so operator-form statements can be checked numerically too.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

import numpy as np

from soagen.symbolic.engines.nfree import RELATIONS, evaluate_definitions
from soagen.symbolic.kernel import exact, statement
from soagen.symbolic.kernel.blocks import I
from soagen.symbolic.models import nodes
from soagen.symbolic.models.dense import Dense


def chain_parents(n: int) -> dict:
    return {k: k + 1 for k in range(1, n + 1)}


def arms_parents(sizes) -> tuple[dict, list]:
    """l serial arms side by side (a forest on the base): parents and the tip links."""
    parents, tips, k0 = {}, [], 0
    n = sum(sizes)
    for m in sizes:
        tips.append(k0 + 1)
        for k in range(k0 + 1, k0 + m + 1):
            parents[k] = k + 1 if k < k0 + m else n + 1
        k0 += m
    return parents, tips


def random_tree_parents(n: int, rng) -> dict:
    """A random tree with at least one branching (n >= 3): parent(k) in k+1 .. n+1."""
    while True:
        parents = {k: int(rng.integers(k + 1, n + 2)) for k in range(1, n + 1)}
        parents[n] = n + 1
        kids: dict = {}
        for k, p in parents.items():
            kids.setdefault(p, []).append(k)
        if n < 3 or any(len(v) > 1 for p, v in kids.items() if p <= n):
            return parents


def _skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


class Reals:
    """Random real instances: numpy floats (the numeric cross-checks)."""

    def __init__(self, rng):
        self.rng = rng

    def normal(self, shape):
        return self.rng.normal(size=shape)

    def array(self, x):
        return np.asarray(x, float)

    inv = staticmethod(np.linalg.inv)


class Integers(Reals):
    """Random small-integer instances computed modulo a prime (:mod:`soagen.symbolic.kernel.exact`):
    the same construction, in exact arithmetic."""

    def normal(self, shape):
        return exact.zp(self.rng.integers(-4, 5, size=shape))

    def array(self, x):
        return exact.zp(x)

    inv = staticmethod(exact.inv)


def instance(parents: dict, rng, dofs=None, tips=(1,), exact_arithmetic: bool = False) -> dict:
    """Namespace of Dense operators for one random instance of the given topology (in exact
    arithmetic modulo a prime if asked: :class:`Integers`)."""
    ar = Integers(rng) if exact_arithmetic else Reals(rng)
    n = len(parents)
    dofs = dofs or [1 + 2 * (k % 3 == 2) for k in range(1, n + 1)]
    S_ = ["6"] * n
    R_ = [f"r{d}" for d in dofs]
    one = ["1"]
    r0 = np.concatenate([[0], np.cumsum(dofs)]).astype(int)

    def sl(k):
        return slice(6 * (k - 1), 6 * k)

    def rj(k):
        return slice(r0[k - 1], r0[k])

    def zeros(shape):
        return ar.array(np.zeros(shape))

    def rigid():
        m = ar.array(np.eye(6))
        m[:3, 3:] = _skew(ar.normal(3))
        return m

    S = zeros((6 * n, 6 * n))
    Dphi = zeros((6 * n, 6 * n))
    Dchi = zeros((6 * n, 6 * n))
    for k in range(1, n + 1):
        Dphi[sl(k), sl(k)] = rigid()                  # phi(parent(k), k)
        Dchi[sl(k), sl(k)] = ar.normal((6, 6))
        if parents[k] <= n:
            S[sl(parents[k]), sl(k)] = np.eye(6)
    H = zeros((r0[-1], 6 * n))
    M = zeros((6 * n, 6 * n))
    for k in range(1, n + 1):
        H[rj(k), sl(k)] = ar.normal((dofs[k - 1], 6))
        A = ar.normal((6, 6))
        M[sl(k), sl(k)] = A @ A.T + 6 * np.eye(6)
    # Riccati recursion on the topology, tip to base (children have smaller numbers), (A.1)
    P = zeros(M.shape)
    Dinv = zeros((r0[-1], r0[-1]))
    for k in range(1, n + 1):
        Pk = M[sl(k), sl(k)].copy()
        for c in range(1, k):
            if parents[c] == k:
                Pc, Hc, Dc = P[sl(c), sl(c)], H[rj(c), sl(c)], Dinv[rj(c), rj(c)]
                phic = Dphi[sl(c), sl(c)]
                Pk = Pk + phic @ (Pc - Pc @ Hc.T @ Dc @ Hc @ Pc) @ phic.T
        P[sl(k), sl(k)] = Pk
        Dinv[rj(k), rj(k)] = ar.inv(H[rj(k), sl(k)] @ Pk @ H[rj(k), sl(k)].T)
    B = zeros((6 * n, 6 * len(tips)))
    for i, t in enumerate(tips):
        B[sl(t), 6 * i:6 * i + 6] = rigid()           # phi(1, 0) of each tip
    E = zeros((6 * n, 6))
    for k in range(1, n + 1):
        if parents[k] == n + 1:
            E[sl(k), :] = Dphi[sl(k), sl(k)].T       # phi^T(base, k)
    six = ["6"] * len(tips)
    ns = {"I": I}

    def put(name, x, rd, cd):
        ns[name] = Dense(ar.array(x), rd, cd)
    put("S", S, S_, S_)
    put("Dphi", Dphi, S_, S_)
    put("Dchi", Dchi, S_, S_)
    put("H", H, R_, S_)
    put("M", M, S_, S_)
    put("P", P, S_, S_)
    put("Dinv", Dinv, R_, R_)
    put("B", B, S_, six)
    put("E", E, S_, ["6"])
    for name in ("a", "b", "y"):
        put(name, ar.normal((6 * n, 1)), S_, one)
    for name in ("T", "Tp", "thd", "thdd"):
        put(name, ar.normal((r0[-1], 1)), R_, one)
    for name in ("f0", "a0", "apC"):
        put(name, ar.normal((6 * len(tips), 1)), six, one)
    put("g", ar.normal((6, 1)), ["6"], one)
    put("At", ar.normal((6 * len(tips), 3)), six, ["e"])
    X = ar.normal((3, 3))
    put("Xinv", X + X.T, ["e"], ["e"])
    Om = ar.normal((6 * len(tips), 6 * len(tips)))
    put("Ominv", Om + Om.T, six, six)
    # definitions of the algebra, in order; phi, psi, chi as the inverses they are defined as
    ns.update(evaluate_definitions(ns, _SHIFTS))
    Id = np.eye(6 * n)
    put("phi", ar.inv(Id - ns["Ephi"].a), S_, S_)
    put("psi", ar.inv(Id - ns["Epsi"].a), S_, S_)
    put("chi", ar.inv(Id - S @ Dchi), S_, S_)
    _rates(ns, parents, rj, put)
    _derived(ns)
    # Upsilon by the base-to-tip recursion (A.5), block diagonal
    U = zeros(M.shape)
    psi1 = ns["Epsi"].a                              # block (parent(k), k) is psi(parent(k), k)
    HDH = H.T @ Dinv @ H
    for k in range(n, 0, -1):
        Uk = HDH[sl(k), sl(k)].copy()
        p = parents[k]
        if p <= n:
            ps = psi1[sl(p), sl(k)]
            Uk = Uk + ps.T @ U[sl(p), sl(p)] @ ps
        U[sl(k), sl(k)] = Uk
    put("U", U, S_, S_)
    _flexible(ns, parents, ar, put)
    _structure(ns, parents, tips, dofs, ar, put)
    return ns


def _structure(ns: dict, parents: dict, tips, dofs, ar, put) -> None:
    """The operators of the block structure (:data:`soagen.symbolic.engines.nfree.STRUCTURE`) from their
    definitions: e1, e1j select the tip links (the links B acts on) and their joints, eN, eNj the
    links on the base; phi10 = e1^T B and phiN^T = eN^T E; Nc = S S^T and Ncj its child counts on
    the joints, Ncp, Ncpj those of each link's parent; X_1 = e1^T X e1 and X_N = eN^T X eN for
    every block-diagonal X."""
    from soagen.symbolic.engines.nfree import DIAGONAL, PORTS

    n = len(parents)
    r0 = np.concatenate([[0], np.cumsum(dofs)]).astype(int)
    roots = [k for k in range(1, n + 1) if parents[k] == n + 1]
    S_, R_ = ns["S"].rdims, ns["H"].rdims
    for (e, ej, *_), links in zip(PORTS.values(), (tips, roots)):
        sel = np.zeros((6 * n, 6 * len(links)))
        selj = np.zeros((r0[-1], sum(dofs[k - 1] for k in links)))
        c = 0
        for i, k in enumerate(links):
            sel[6 * (k - 1):6 * k, 6 * i:6 * i + 6] = np.eye(6)
            selj[r0[k - 1]:r0[k], c:c + dofs[k - 1]] = np.eye(dofs[k - 1])
            c += dofs[k - 1]
        put(e, sel, S_, ["6"] * len(links))
        put(ej, selj, R_, [R_[k - 1] for k in links])
    put("phi10", (ns["e1"].T @ ns["B"]).a, ns["e1"].cdims, ns["B"].cdims)
    put("phiN", (ns["eN"].T @ ns["E"]).a.T, ns["E"].cdims, ns["eN"].cdims)
    put("Nc", (ns["S"] @ ns["S"].T).a, S_, S_)
    kids = [sum(1 for c in parents if parents[c] == k) for k in range(1, n + 1)]
    put("Ncj", np.diag(np.repeat(kids, dofs).astype(float)), R_, R_)
    up = [kids[parents[k] - 1] if parents[k] <= n else 0 for k in range(1, n + 1)]
    put("Ncp", np.diag(np.repeat(up, 6).astype(float)), S_, S_)
    put("Ncpj", np.diag(np.repeat(up, dofs).astype(float)), R_, R_)
    sel = {"1": {"s": ns["e1"], "j": ns["e1j"]}, "N": {"s": ns["eN"], "j": ns["eNj"]}}
    for x in DIAGONAL + ("Nc", "Ncj", "Ncp", "Ncpj"):
        X = ns[x]
        rows = "j" if X.rdims == R_ else "s"
        cols = "j" if X.cdims == R_ else "s"
        for where, e in sel.items():
            ns[f"{x}_{where}"] = e[rows].T @ X @ e[cols]


def _flexible(ns: dict, parents: dict, ar, put) -> None:
    """The nodal operators of framework Section 4 from their definitions
    (:mod:`soagen.symbolic.models.nodes`): link k has n_k nodes; on a chain the child k-1 is attached at
    node 1 of link k, as in (4.1)-(4.2); on a tree the first child of a link at node 1, the others
    at random nodes.  Drawn after everything else, so the rest of the instance does not change."""
    n = len(parents)
    counts = nodes.node_counts(n)
    r = {k: nodes.offsets(ar, counts[k - 1]) for k in range(1, n + 1)}
    F_ = [f"n{6 * c}" for c in counts]
    U_ = [f"u{6 * (c - 1)}" for c in counts]
    f0 = np.concatenate([[0], np.cumsum([6 * c for c in counts])]).astype(int)
    u0 = np.concatenate([[0], np.cumsum([6 * (c - 1) for c in counts])]).astype(int)
    Bf = ar.array(np.zeros((6 * n, f0[-1])))
    Cf = ar.array(np.zeros((f0[-1], 6 * n)))
    h = ar.array(np.zeros((u0[-1], f0[-1])))
    m = ar.array(np.zeros((f0[-1], f0[-1])))
    Dphi = ns["Dphi"].a
    for k in range(1, n + 1):
        fk, uk = slice(f0[k - 1], f0[k]), slice(u0[k - 1], u0[k])
        Bf[6 * (k - 1):6 * k, fk] = nodes.B_block(ar, r[k])
        h[uk, fk] = nodes.h_block(ar, counts[k - 1])
        m[fk, fk] = nodes.m_block(ar, counts[k - 1])
    for p in range(1, n + 1):
        children = sorted(c for c in parents if parents[c] == p)
        for i, c in enumerate(children):
            j = 1 if i == 0 else int(ar.rng.integers(1, counts[p - 1] + 1))
            phi_pc = Dphi[6 * (c - 1):6 * c, 6 * (c - 1):6 * c]            # phi(parent(c), c)
            Cf[f0[p - 1]:f0[p], 6 * (c - 1):6 * c] = nodes.C_block(ar, r[p], j, phi_pc)
    S_ = ["6"] * n
    put("Bf", Bf, S_, F_)
    put("Cf", Cf, F_, S_)
    put("h", h, U_, F_)
    put("m", m, F_, F_)
    put("u", ar.normal((u0[-1], 1)), U_, ["1"])


def _rates(ns: dict, parents: dict, rj, put) -> None:
    """The derivative operators of docs/derivatives.md on one instance, rigid-body shaped: link
    velocities V = phi^T H^T thd (3.12), Mdot(k) = V x* M - M V x, B = (Mdot + (M V) xbar*) / 2
    (D.2), Sdot, Psidot, Psiddot (D.4)-(D.6) with the parent's V_p(k) = V(k) - H^T(k) thd(k)
    and, for A_p, alpha = phi^T (H^T thdd + a) less H^T thdd (any motion vector will do),
    fbar from f = phi (M alpha + b); the composites R and B_c by the recursion (a.44) over
    the tree (children first).  The same code runs on floats and on residues modulo a prime."""
    from soagen.operators.chain import block_diag, rate_blocks

    n = len(parents)
    S_, R_ = ["6"] * n, ns["H"].rdims
    phi, H, M, Dphi = ns["phi"].a, ns["H"].a, ns["M"].a, ns["Dphi"].a
    thd, thdd = ns["thd"].a[:, 0], ns["thdd"].a[:, 0]
    V = phi.T @ H.T @ thd                                                               # (3.12)
    alpha = phi.T @ (H.T @ thdd + ns["a"].a[:, 0])
    f = phi @ (M @ alpha + ns["b"].a[:, 0])
    out = {name: [] for name in ("Mdot", "Bcor", "fbar", "Sdot", "Psidot", "Psiddot")}
    for k in range(1, n + 1):
        sl = slice(6 * (k - 1), 6 * k)
        Vk, Mk, HT = V[sl], M[sl, sl], H[rj(k), sl].T
        Vp, Ap = Vk - HT @ thd[rj(k)], alpha[sl] - HT @ thdd[rj(k)]
        for name, X in rate_blocks(Mk, Vk, Vp, Ap, HT, f[sl]).items():
            out[name].append(X)
    for name, blocks in out.items():
        put(name, block_diag(blocks), S_, R_ if name in ("Sdot", "Psidot", "Psiddot") else S_)
    for name, X in (("R", M), ("Bcor_c", ns["Bcor"].a)):
        r = X * 0
        for k in range(1, n + 1):                            # (a.44) on the tree: children have smaller numbers
            sl = slice(6 * (k - 1), 6 * k)
            r[sl, sl] = X[sl, sl]
            for c in (c for c in range(1, k) if parents[c] == k):
                sc = slice(6 * (c - 1), 6 * c)
                r[sl, sl] = r[sl, sl] + Dphi[sc, sc] @ r[sc, sc] @ Dphi[sc, sc].T
        put(name, r, S_, S_)


# the definitions phi, psi are built from; the Riccati equation defines M, a given here
_SHIFTS = ("def-Ephi", "def-G", "def-L", "def-K", "def-D", "def-tau", "def-taub", "def-Dpsi", "def-Epsi")
_DERIVED = tuple(r.id for r in RELATIONS if r.kind == "definition" and r.id not in ("riccati", "def-B", "def-E", *_SHIFTS))


def _derived(ns: dict) -> None:
    """Evaluate the algebra's definitions of the symbols built on phi, psi and the rates."""
    ns.update(evaluate_definitions(ns, _DERIVED))


def _eval(text: str, ns: dict):
    return statement.evaluate(statement.parse_expr(text), ns)


def solve_unknowns(given, assume, ns: dict) -> dict:
    """Values of a record's unknowns from its hypotheses (each linear in its unknown).

    An assumption defines the last declared unknown it mentions; that unknown is found by
    probing the (affine) residual lhs - rhs on a basis and solving the linear system.  An
    assumption that mentions no unknown and states a generator (``Psidot -> Sdot``: 1-dof
    joints) gives the generator that value, and the defined symbols are derived again."""
    from soagen.symbolic.engines.nfree import parse_given

    ns = dict(ns)
    gens = [parse_given(g) for g in given]
    names = [g.name for g in gens]
    dims = {}
    for g in gens:                                    # row/column labels of each unknown
        dims[g.name] = (_labels(g.cod, ns), _labels(g.dom, ns))
    for rid, lhs, rhs, _ in assume:
        used = statement.names(statement.parse_expr(lhs)) | statement.names(statement.parse_expr(rhs))
        mine = [x for x in names if x in used]
        if not mine:
            if statement.parse_expr(lhs)[0] == "name" and lhs in ns:
                ns[lhs] = _eval(rhs, ns)
                _derived(ns)
            continue
        x = mine[-1]
        rd, cd = dims[x]
        nr, nc = _size(rd), _size(cd)

        def residual(val, x=x, rd=rd, cd=cd, lhs=lhs, rhs=rhs):
            env = dict(ns)
            env[x] = Dense(val.reshape(nr, nc), rd, cd)
            return (_eval(lhs, env) - _eval(rhs, env)).dense().ravel()
        r0 = residual(np.zeros(nr * nc))
        A = np.empty((r0.size, nr * nc))
        for i in range(nr * nc):
            e = np.zeros(nr * nc)
            e[i] = 1.0
            A[:, i] = residual(e) - r0
        sol = np.linalg.lstsq(A, -r0, rcond=None)[0]
        ns[x] = Dense(sol.reshape(nr, nc), rd, cd)
    return ns


def _labels(space: str, ns: dict) -> list:
    return {"s": ns["S"].rdims, "j": ns["H"].rdims, "6": ns["f0"].rdims, "1": ["1"], "e": ["e"],
            "f": ns["Bf"].cdims, "u": ns["h"].rdims, "t": ns["e1"].cdims, "tj": ns["e1j"].cdims,
            "r": ns["eN"].cdims, "rj": ns["eNj"].cdims}[space]


def _size(labels) -> int:
    return sum(1 if lab in ("1",) else 3 if lab == "e" else 6 if lab == "6" else int(lab[1:]) for lab in labels)


def topology_instance(kind: str, n: int, seed: int = 0, exact_arithmetic: bool = False) -> dict:
    """A chain of n links, a random branching tree of n links, or two arms (n links in all);
    with `exact_arithmetic`, small integers and everything modulo a prime (:class:`Integers`).

    Seeded, so built once per (kind, n, seed) and handed out as a fresh namespace (the
    operators themselves are never changed in place)."""
    return dict(_topology_instance(kind, n, seed, exact_arithmetic))


@functools.lru_cache(maxsize=256)
def _topology_instance(kind: str, n: int, seed: int, exact_arithmetic: bool) -> MappingProxyType:
    rng = np.random.default_rng(seed)
    if kind == "chain":
        parents, tips = chain_parents(n), (1,)
    elif kind == "tree":
        parents, tips = random_tree_parents(n, rng), (1,)
    elif kind == "arms":
        m = max(1, n // 2)
        parents, tips = arms_parents([m, max(1, n - m)])
    else:
        raise ValueError(f"unknown instance kind {kind}")
    return MappingProxyType(instance(parents, rng, tips=tips, exact_arithmetic=exact_arithmetic))
