"""The papers' recursions, written block by block on a :class:`ChainOps` instance.

Each function runs a sweep exactly as printed (equation numbers in comments) and
returns the stacked result as an N x 1 (or block-diagonal) operator, so that an
identity "recursion == operator expression" can be checked like any other.  The
`printed=True` variants reproduce a misprinted line of a paper so the verifier can
refute it.
"""

from __future__ import annotations

from soagen.symbolic.blocks import BM, IllTyped


def _add(x, y):
    if x is None:
        return y
    if y is None:
        return x
    return x + y


def _mul(*xs):
    out = xs[0]
    for x in xs[1:]:
        if out is None or x is None:
            return None
        out = out @ x
    return out


def _neg(x):
    return None if x is None else x * -1


def _col(v: BM, k: int):
    return v.b[k - 1][0]


def rec_alpha(o, thdd: BM, a: BM, base: BM | None = None) -> BM:
    """(2.24)-(2.26): alpha(N+1) = 0 (or the base acceleration `base`, e.g. gravity g (3.21));
    alpha(k) = phi^T(k+1,k) alpha(k+1) + H^T(k) thdd(k) + a(k)."""
    pr, out = o.pr, {}
    nxt = None if base is None else base.b[0][0]
    for k in range(o.N, 0, -1):
        nxt = _add(_add(_mul(pr.phi1[k].T, nxt), _mul(pr.H[k].T, _col(thdd, k))), _col(a, k))
        out[k] = nxt
    return o.stack(out, o.S_dims)


def rec_f(o, y: BM, f0: BM | None = None, printed: bool = False) -> BM:
    """(2.29) f(k) = phi(k,k-1) f(k-1) + y(k), f(0) = f0.

    printed=True uses the framework paper's (2.1) line f(k) = phi(k+1,k) f(k-1) + ...
    """
    pr, out = o.pr, {}
    prev = None if f0 is None else f0.b[0][0]
    for k in range(1, o.N + 1):
        step = pr.phi1[k] if printed else pr.phi1[k - 1]
        prev = _add(_mul(step, prev), _col(y, k))
        out[k] = prev
    return o.stack(out, o.S_dims)


def rec_rne(o, thdd: BM, a: BM, b: BM, f0: BM) -> BM:
    """The RSD/RNE sweeps (2.24)-(2.30): T(k) = H(k) f(k)."""
    alpha = rec_alpha(o, thdd, a)
    f = rec_f(o, o.M @ alpha + b, f0)
    return o.H @ f


def rec_filter(o, Tp: BM, T_printed: BM | None = None) -> BM:
    """(4.19)-(4.20): causal filtering; returns nu.

    z(0) = 0, T'(0) = 0; z(k) = [phi(k,k-1) - L(k-1)H(k-1)] z(k-1) + L(k-1) T'(k-1);
    eps(k) = T'(k) - H(k) z(k); nu(k) = D^-1(k) eps(k).  With T_printed, eps(k) uses
    T(k) as printed in (4.20).
    """
    z, out = None, {}
    for k in range(1, o.N + 1):
        if k > 1:
            z = _add(_mul(o.psi1[k - 1], z), _mul(o.L[k - 1, k - 1], _col(Tp, k - 1)))
        src = T_printed if T_printed is not None else Tp
        eps = _add(_col(src, k), _neg(_mul(o.pr.H[k], z)))
        out[k] = _mul(o.pr.Dinv[k], eps)
    return o.stack(out, o.R_dims)


def rec_smooth(o, nu: BM) -> BM:
    """(4.21)-(4.22): lambda(N+1) = 0; lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k);
    thdd(k) = nu(k) - L^T(k) lambda(k+1).  Returns thdd."""
    lam, out = None, {}
    for k in range(o.N, 0, -1):
        out[k] = _add(_col(nu, k), _neg(_mul(o.L[k, k].T, lam)))
        lam = _add(_mul(o.psi1[k].T, lam), _mul(o.pr.H[k].T, _col(nu, k)))
    return o.stack(out, o.R_dims)


def rec_fd4(o, T: BM, a: BM, b: BM, f0: BM) -> BM:
    """(5.16)-(5.17): the 3-sweep algorithm FD4 (after V, a are known); returns thdd.

    z(0) = f(0), P(0) = 0, T(0) = 0;
    z(k) = psi(k,k-1) z(k-1) + L(k-1) T(k-1) + psi(k,k-1) P(k-1) a(k-1) + b(k)
    eps(k) = T(k) - H(k) z(k); nu(k) = D^-1(k) eps(k)
    lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k) + [I - G(k)H(k)]^T a(k)
    thdd(k) = nu(k) - L^T(k) lambda(k+1) - G^T(k) a(k)
    """
    pr = o.pr
    z, nu = f0.b[0][0], {}
    for k in range(1, o.N + 1):
        if k == 1:
            z = _add(_mul(o.psi1[0], z), _col(b, 1))
        else:
            z = _add(_add(_add(_mul(o.psi1[k - 1], z), _mul(o.L[k - 1, k - 1], _col(T, k - 1))),
                          _mul(o.psi1[k - 1], pr.P[k - 1], _col(a, k - 1))), _col(b, k))
        nu[k] = _mul(pr.Dinv[k], _add(_col(T, k), _neg(_mul(pr.H[k], z))))
    lam, out = None, {}
    for k in range(o.N, 0, -1):
        Gk = o.G[k, k]
        out[k] = _add(_add(nu[k], _neg(_mul(o.L[k, k].T, lam))), _neg(_mul(Gk.T, _col(a, k))))
        taub = o.taub[k, k]
        lam = _add(_add(_mul(o.psi1[k].T, lam), _mul(pr.H[k].T, nu[k])), _mul(taub.T, _col(a, k)))
    return o.stack(out, o.R_dims)


def _left_steps(o, left: str):
    return {"psi": o.psi1, "phi": o.pr.phi1, "chi": o.pr.chi1}[left]


def rec_r(o, left: str = "psi", middle: BM | None = None) -> BM:
    """Lemma A.1 (a.44): r(0) = 0, r(k+1) = psi(k+1,k) r(k) phi^T(k+1,k) + M(k+1).

    left="phi" is Corollary A.1 (psi replaced by phi); left="chi" uses a free causal
    semigroup chi, the generality in which Lemma A.1 is stated.  `middle`, a block-diagonal
    operator, replaces M (the composite Coriolis operators: middle = B, not symmetric).
    """
    pr, r, out = o.pr, None, []
    steps = _left_steps(o, left)
    X = pr.M if middle is None else {k: middle[k, k] for k in range(1, o.N + 1)}
    for k in range(1, o.N + 1):
        r = _add(_mul(steps[k - 1], r, pr.phi1[k - 1].T), X[k]) if k > 1 else X[k]
        out.append(r)
    return BM.diag(pr.field, o.S_dims, o.S_dims, out)


def sum_r(o, printed: bool = False, left: str = "psi") -> BM:
    """Lemma A.1 proof: r(k) = sum_j psi(k,j) M(j) phi^T(k,j) (printed: phi(k,j) M(j) psi^T(k,j))."""
    pr, out = o.pr, []
    lop = {"psi": o.psi, "phi": o.phi, "chi": o.chi}[left]
    for k in range(1, o.N + 1):
        acc = None
        for j in range(1, k + 1):
            ps, ph = lop[k, j], o.phi[k, j]
            term = _mul(ph, pr.M[j], ps.T) if printed else _mul(ps, pr.M[j], ph.T)
            acc = _add(acc, term)
        out.append(acc)
    return BM.diag(pr.field, o.S_dims, o.S_dims, out)


def rec_riccati_psi(o) -> BM:
    """Framework (A.1) / Part I (a.47) proof: P(k) = psi(k,k-1) P(k-1) psi^T(k,k-1) + M(k)."""
    pr, out = o.pr, []
    for k in range(1, o.N + 1):
        out.append(pr.M[k] if k == 1 else _add(_mul(o.psi1[k - 1], pr.P[k - 1], o.psi1[k - 1].T), pr.M[k]))
    return BM.diag(pr.field, o.S_dims, o.S_dims, out)


def rec_upsilon(o) -> BM:
    """Framework (A.5) first line / Part II (6.10b): Upsilon(N+1) = 0,
    Upsilon(k) = psi^T(k+1,k) Upsilon(k+1) psi(k+1,k) + H^T(k) D^-1(k) H(k)."""
    pr, U, out = o.pr, None, {}
    for k in range(o.N, 0, -1):
        U = _add(_mul(o.psi1[k].T, U, o.psi1[k]), _mul(pr.H[k].T, pr.Dinv[k], pr.H[k]))
        out[k] = U
    return BM.diag(pr.field, o.S_dims, o.S_dims, [out[k] for k in range(1, o.N + 1)])


def lambda1_sum(o, printed: bool = False) -> BM:
    """Part II (6.9b): Lambda(1) = sum_k psi^T(k,1) H^T(k) D^-1(k) H(k) psi(k,1)
    (printed: ... D^-1(k) H^T(k) ..., which does not conform), as a 1 x 1 operator.
    Built from 1 x 1 block operators so that dimensions are checked."""
    acc = None
    for k in range(1, o.N + 1):
        ps, Hk, Dk = o.block(o.psi, k, 1), o.block(o.H, k, k), o.block(o.Dinv, k, k)
        term = ps.T @ Hk.T @ Dk @ (Hk.T if printed else Hk) @ ps
        acc = term if acc is None else acc + term
    return acc


def rec_innovations(o, eps: BM) -> BM:
    """(4.13): z(0) = 0, eps(0) = 0; z(k) = phi(k,k-1) z(k-1) + L(k-1) eps(k-1);
    y(k) = H(k) z(k) + eps(k).  Returns y (the innovations model Y = (I + H Phi L) eps)."""
    z, out = None, {}
    for k in range(1, o.N + 1):
        if k > 1:
            z = _add(_mul(o.pr.phi1[k - 1], z), _mul(o.L[k - 1, k - 1], _col(eps, k - 1)))
        out[k] = _add(_mul(o.pr.H[k], z), _col(eps, k))
    return o.stack(out, o.R_dims)


def rec_fd2_alpha(o, nu: BM, a: BM) -> BM:
    """(4.21b)-(4.22b): lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T(k) nu(k);
    zeta(k) = phi^T(k+1,k) zeta(k+1) + a(k); alpha(k) = lambda(k) + zeta(k).  Returns alpha."""
    lam, zeta, out = None, None, {}
    for k in range(o.N, 0, -1):
        lam = _add(_mul(o.psi1[k].T, lam), _mul(o.pr.H[k].T, _col(nu, k)))
        zeta = _add(_mul(o.pr.phi1[k].T, zeta), _col(a, k))
        out[k] = _add(lam, zeta)
    return o.stack(out, o.S_dims)


def rec_6_4(o, f0: BM, printed: bool = False) -> BM:
    """Part II (6.4a)-(6.4f) for one arm; returns Delta thdd.

    Printed: z(1) = phi(1,0) f(0); for k = 2..N: z(k) = psi(k,k-1) z(k-1), nu(k) = D^-1 H z(k);
    then lambda(k) = psi^T(k+1,k) lambda(k+1) + H^T nu(k), Delta thdd(k) = nu(k) - L^T(k) lambda(k+1)
    (nu(1) is never computed: taken as 0).  Corrected: nu(k) for k = 1..N and the result negated.
    """
    z, nu = None, {}
    for k in range(1, o.N + 1):
        z = _mul(o.pr.phi1[0], f0.b[0][0]) if k == 1 else _mul(o.psi1[k - 1], z)
        if k >= 2 or not printed:
            nu[k] = _mul(o.pr.Dinv[k], o.pr.H[k], z)
    lam, out = None, {}
    for k in range(o.N, 0, -1):
        val = _add(nu.get(k), _neg(_mul(o.L[k, k].T, lam)))
        out[k] = val if printed else _neg(val)
        lam = _add(_mul(o.psi1[k].T, lam), _mul(o.pr.H[k].T, nu.get(k)))
    return o.stack(out, o.R_dims)


def telescope(o, kind: str) -> BM:
    """Part I's telescoping sums block by block, for k > m (zero on and above the diagonal):
    (a.19): sum_{i=m}^{k-1} [psi(k,i+1) phi(i+1,m) - psi(k,i) phi(i,m)];
    (a.21): sum psi(k,i+1) L(i) H(i) phi(i,m);
    (a.29): sum [phi(k,i+1) psi(i+1,m) - phi(k,i) psi(i,m)];
    (a.31): sum phi(k,i+1) L(i) H(i) psi(i,m)."""
    A, B = (o.psi, o.phi) if kind in ("a.19", "a.21") else (o.phi, o.psi)
    m_ = BM.zeros(o.pr.field, o.S_dims, o.S_dims)
    for k in range(1, o.N + 1):
        for m in range(1, k):
            acc = None
            for i in range(m, k):
                if kind in ("a.19", "a.29"):
                    term = _add(_mul(A[k, i + 1], B[i + 1, m]), _neg(_mul(A[k, i], B[i, m])))
                else:
                    term = _mul(A[k, i + 1], o.L[i, i], o.pr.H[i], B[i, m])
                acc = _add(acc, term)
            m_.b[k - 1][m - 1] = acc
    return m_


def rec_A6(o, x: BM, printed: bool = False) -> BM:
    """Framework (A.6) for a serial chain, input x = -B A^* f~ (spatial, N x 1); returns beta-delta.

    Printed: z(k) = psi(k,k-1) z(k-1) + K(k,k-1) x(k-1); eps(k) = -H(k) z(k) -- K(k,k-1) is
    6 x r, x(k-1) a 6-vector, so the product does not conform (raised as IllTyped here).
    Corrected: z(k) = psi(k,k-1) z(k-1) + x(k); eps(k) = +H(k) z(k); nu = D^-1 eps; then the
    smoother alpha(k) = psi^*(k+1,k) alpha(k+1) + H^* nu(k), beta(k) = nu(k) - K^*(k+1,k) alpha(k+1).
    """
    z, nu = None, {}
    for k in range(1, o.N + 1):
        if printed:
            if k > 1:
                K = BM(o.pr.field, [o.pr.sdim], [o.R_dims[k - 2]], [[o.L[k - 1, k - 1]]])   # K(k,k-1) = L(k-1)
                xk = BM(o.pr.field, [o.pr.sdim], x.cdims, [[_col(x, k - 1)]])
                z = _add(_mul(o.psi1[k - 1], z), (K @ xk).b[0][0])
            nu[k] = _mul(o.pr.Dinv[k], _neg(_mul(o.pr.H[k], z)))
        else:
            z = _add(_mul(o.psi1[k - 1], z) if k > 1 else None, _col(x, k))
            nu[k] = _mul(o.pr.Dinv[k], o.pr.H[k], z)
    lam, out = None, {}
    for k in range(o.N, 0, -1):
        out[k] = _add(nu[k], _neg(_mul(o.L[k, k].T, lam)))
        lam = _add(_mul(o.psi1[k].T, lam), _mul(o.pr.H[k].T, nu[k]))
    return o.stack(out, o.R_dims)


def rec_walk(o, a: BM, Bb: BM, b: BM, c: BM | None = None) -> BM:
    """The walk (D.14)/(D.16) of docs/derivatives.md on a chain: for each link l, towards the
    base, carry U = phi(k,l) R(l) H^T(l), W = phi(k,l) Bb^T(l) H^T(l) and
    Q = phi(k,l) [R a + Bb b + c](l); block (l, k) is U^T a(k) + W^T b(k) for k = l..N, and
    block (k, l) is H(k) Q for k > l.  With (a, Bb, b, c) = (Psiddot, 2 B_c, Psidot, fbar H^T)
    it is dT/dtheta (D.14), with (Psidot + Sdot, 2 B_c, H^T, 0) dT/dtheta_dot, with
    (Sdot, B_c, H^T, 0) the Coriolis matrix (D.16)."""
    pr, N = o.pr, o.N
    out = BM.zeros(pr.field, o.R_dims, o.R_dims)
    for l in range(1, N + 1):
        HT = pr.H[l].T
        U, W = _mul(o.R[l, l], HT), _mul(Bb[l, l].T, HT)
        Q = _add(_add(_mul(o.R[l, l], a[l, l]), _mul(Bb[l, l], b[l, l])), None if c is None else c[l, l])
        for k in range(l, N + 1):
            if k > l:
                step = pr.phi1[k - 1]                             # phi(k, k-1)
                U, W, Q = _mul(step, U), _mul(step, W), _mul(step, Q)
                out.b[k - 1][l - 1] = _mul(pr.H[k], Q)
            out.b[l - 1][k - 1] = _add(_mul(U.T, a[k, k]), _mul(W.T, b[k, k]))
    return out


def rec_v41(o, thd: BM, u: BM, printed: bool = False) -> BM:
    """Framework (4.1): V(N+1) = 0; V(k) = phi^*(k+1,k) V(k+1) + H^*(k) beta(k) + C^*_{k+1} h^*_{k+1} u_{k+1}
    (the velocity sweep of a chain of flexible links).  printed=True uses h^*_k, as printed."""
    pr, fl, out, nxt = o.pr, o.pr.flex, {}, None
    for k in range(o.N, 0, -1):
        V = _add(_mul(pr.phi1[k].T, nxt), _mul(pr.H[k].T, _col(thd, k)))
        if k < o.N:
            j = k if printed else k + 1
            if fl["free"][j] != fl["free"][k + 1]:     # the blocks are untyped: check that h_j^* u_{k+1} conforms
                raise IllTyped(f"h^*({j}) u({k + 1}) does not conform: h({j}) has {fl['free'][j]} rows, "
                               f"u({k + 1}) has {fl['free'][k + 1]}")
            V = _add(V, _mul(fl["Cf"][k + 1].T, fl["h"][j].T, _col(u, k + 1)))
        out[k] = nxt = V
    return o.stack(out, o.S_dims)


def rec_vf(o, thd: BM, u: BM) -> BM:
    """Framework (4.3): V_k^f = B_k^* V(k) + h_k^* u_k, the spatial velocities at the nodes of link k,
    with V from the sweep (4.1)."""
    fl, V = o.pr.flex, rec_v41(o, thd, u)
    out = {k: _add(_mul(fl["Bf"][k].T, _col(V, k)), _mul(fl["h"][k].T, _col(u, k))) for k in range(1, o.N + 1)}
    return o.stack(out, o.F_dims)


def bind(o) -> dict:
    """Namespace entries binding these recursions to one chain instance."""
    def b(fn):
        return lambda *args, **kw: fn(o, *args, **kw)
    return {name: b(fn) for name, fn in {
        "rec_alpha": rec_alpha, "rec_f": rec_f, "rec_rne": rec_rne, "rec_filter": rec_filter,
        "rec_smooth": rec_smooth, "rec_fd4": rec_fd4, "rec_r": rec_r, "sum_r": sum_r,
        "rec_riccati_psi": rec_riccati_psi, "rec_upsilon": rec_upsilon,
        "lambda1_sum": lambda1_sum, "rec_innovations": rec_innovations, "rec_fd2_alpha": rec_fd2_alpha,
        "rec_6_4": rec_6_4, "telescope": telescope, "rec_A6": rec_A6, "rec_walk": rec_walk,
        "rec_v41": rec_v41, "rec_vf": rec_vf}.items()}
