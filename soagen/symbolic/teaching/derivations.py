"""The bundled derivation topics, as data: paragraphs, equality chains and sweeps.

Each topic function returns (title, items); every equality in a chain and every sweep
is checked in the proof layer when it is rendered (:func:`soagen.symbolic.teaching.derive.render`).
"""

from __future__ import annotations

from soagen.symbolic.teaching.steps import Chain, Para, Rec, Step


def _fact41():
    return "Fact 4.1: M = (I + H Phi L) D (I + H Phi L)^T", [
        Para("Part I (4.11), proved as in Appendix A. Symbols: $\\tilde\\phi = \\phi - I$ (a.3), "
             "$G = PH^TD^{-1}$ (5.12), $D = HPH^T$ (a.1), $L = \\Delta_\\phi G$ (a.12)."),
        Chain("(I + H\\Phi L) D (I + H\\Phi L)^T",
              lhs_expr="(I + H@Phi@L)@D@(I + H@Phi@L).T", steps=(
                  Step("(I + H\\tilde\\phi G) D (I + H\\tilde\\phi G)^T",
                       why="(a.13): $\\tilde\\phi G = \\Phi L$", expr="(I + H@phi_t@G)@D@(I + H@phi_t@G).T"),
                  Step("HPH^T + H\\tilde\\phi PH^T + HP\\tilde\\phi^TH^T + H\\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^TH^T",
                       why="expand; $GD = PH^T$, $GDG^T = PH^TD^{-1}HP$",
                       expr="H@P@H.T + H@phi_t@P@H.T + H@P@phi_t.T@H.T + H@phi_t@P@H.T@Dinv@H@P@phi_t.T@H.T"),
                  Step("H\\left(P + \\tilde\\phi P + P\\tilde\\phi^T + \\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^T\\right)H^T", why="collect",
                       expr="H@(P + phi_t@P + P@phi_t.T + phi_t@P@H.T@Dinv@H@P@phi_t.T)@H.T"),
                  Step("H\\phi M\\phi^TH^T = \\mathcal{M}",
                       why="Identity A.6 (a.48)", expr="Mcal"))),
        Para("Identity A.6 (a.48) itself: split $M = \\pi + \\Theta$ with "
             "$\\Theta = \\mathcal{E}_\\phi PH^TD^{-1}HP\\mathcal{E}_\\phi^T$. The Riccati recursion (a.49) says "
             "$\\pi = P - \\mathcal{E}_\\phi P\\mathcal{E}_\\phi^T$, and Corollary A.1 turns that into:"),
        Chain("\\phi\\pi\\phi^T", lhs_expr="phi@(M - Theta)@phi.T", steps=(
            Step("\\phi(P - \\mathcal{E}_\\phi P\\mathcal{E}_\\phi^T)\\phi^T",
                 why="(a.49)", expr="phi@(P - Ephi@P@Ephi.T)@phi.T"),
            Step("\\phi P\\phi^T - (\\phi - I)P(\\phi - I)^T",
                 why="framework (2.4): $\\phi\\mathcal{E}_\\phi = \\phi - I$",
                 expr="phi@P@phi.T - (phi - I)@P@(phi - I).T"),
            Step("P + \\tilde\\phi P + P\\tilde\\phi^T", why="expand; (a.3)",
                 expr="P + phi_t@P + P@phi_t.T")),
              let=(("Theta", "Ephi@P@H.T@Dinv@H@P@Ephi.T"),)),
        Para("The paper's \"algebraic manipulations show\" that the remainder is the last term of (a.48):"),
        Chain("\\phi\\Theta\\phi^T", lhs_expr="phi@Theta@phi.T", steps=(
            Step("(\\phi\\mathcal{E}_\\phi) PH^TD^{-1}HP (\\phi\\mathcal{E}_\\phi)^T",
                 why="regroup the definition of $\\Theta$",
                 expr="(phi@Ephi)@P@H.T@Dinv@H@P@(phi@Ephi).T"),
            Step("(\\phi - I) PH^TD^{-1}HP (\\phi - I)^T",
                 why="framework (2.4): $\\phi\\mathcal{E}_\\phi = \\phi - I$",
                 expr="(phi - I)@P@H.T@Dinv@H@P@(phi - I).T"),
            Step("\\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^T", why="(a.3)",
                 expr="phi_t@P@H.T@Dinv@H@P@phi_t.T")),
              let=(("Theta", "Ephi@P@H.T@Dinv@H@P@Ephi.T"),)),
        Chain("\\phi M\\phi^T", lhs_expr="phi@M@phi.T", steps=(
            Step("\\phi\\pi\\phi^T + \\phi\\Theta\\phi^T", why="$M = \\pi + \\Theta$",
                 expr="phi@(M - Theta)@phi.T + phi@Theta@phi.T"),
            Step("P + \\tilde\\phi P + P\\tilde\\phi^T + \\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^T",
                 why="the two chains above: (a.48)",
                 expr="P + phi_t@P + P@phi_t.T + phi_t@P@H.T@Dinv@H@P@phi_t.T")),
              let=(("Theta", "Ephi@P@H.T@Dinv@H@P@Ephi.T"),)),
    ]


def _fact42():
    return "Fact 4.2: (I + H Phi L)^-1 = I - H Psi L", [
        Para("Part I (4.14), Appendix A."),
        Chain("(I + H\\Phi L)(I - H\\Psi L)", lhs_expr="(I + H@Phi@L)@(I - H@Psi@L)", steps=(
            Step("I + H(\\Phi - \\Psi - \\Phi LH\\Psi)L", why="expand",
                 expr="I + H@(Phi - Psi - Phi@L@H@Psi)@L"),
            Step("I + H(\\Phi - \\Psi - \\Psi LH\\Phi)L",
                 why="(a.27): $\\Phi LH\\Psi = \\Psi LH\\Phi$", expr="I + H@(Phi - Psi - Psi@L@H@Phi)@L"),
            Step("I", why="(a.16): $\\Phi = \\Psi(I + LH\\Phi)$", expr="I"))),
        Para("Both factors are lower block-triangular with identity diagonal blocks, so a one-sided "
             "inverse is two-sided; the proof layer also checks $(I - H\\Psi L)(I + H\\Phi L) = I$ "
             "(`soagen verify --only I-4.14`)."),
    ]


def _thm41():
    return "Theorem 4.1: M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L)", [
        Para("Part I (4.16). From Fact 4.1, $\\mathcal{M} = (I + H\\Phi L)D(I + H\\Phi L)^T$ with all three "
             "factors invertible; inverting factor by factor and using Fact 4.2:"),
        Chain("\\mathcal{M}^{-1}", steps=(
            Step("(I + H\\Phi L)^{-T} D^{-1} (I + H\\Phi L)^{-1}",
                 why="Fact 4.1"),
            Step("(I - H\\Psi L)^T D^{-1} (I - H\\Psi L)", why="Fact 4.2"))),
        Para("Check in the proof layer: the product with $\\mathcal{M}$ is the identity."),
        Chain("\\mathcal{M}\\,(I - H\\Psi L)^T D^{-1} (I - H\\Psi L)",
              lhs_expr="Mcal@(I - H@Psi@L).T@Dinv@(I - H@Psi@L)", steps=(Step("I", why="", expr="I"),)),
        Para("The abstract of Part I prints $(I - H\\Phi L)^T D^{-1} (I - H\\Phi L)$; with $\\Phi$ in place of "
             "$\\Psi$ the product is not the identity from N = 3 on (see docs/misprints.md)."),
    ]


def _minv():
    return "From the operator expression of M^-1 to the recursions (4.19)-(4.22)", [
        Para("Start from FD1 (4.18): $\\ddot\\theta = (I - H\\Psi L)^T D^{-1} (I - H\\Psi L) T'$. "
             "Read the factors right to left; each becomes one sweep or a memoryless step."),
        Para("**1. Causal factor** $\\epsilon = (I - H\\Psi L)T'$. With $\\Psi = \\psi S$ (5.3), put "
             "$\\hat z = \\psi S L T'$, so $\\epsilon = T' - H\\hat z$. Since $\\psi^{-1} = I - S\\Delta_\\psi$ (a.10), "
             "$\\hat z = S\\Delta_\\psi \\hat z + SLT'$: block $k$ of $S x$ is $x(k-1)$, hence a tip-to-base sweep."),
        Chain("\\hat z", lhs_expr="psi@S@L@Tp", steps=(
            Step("S\\Delta_\\psi\\hat z + SLT'", why="(a.10)",
                 expr="S@Dpsi@psi@S@L@Tp + S@L@Tp"),)),
        Rec("sweep (4.19)-(4.20)",
            ("\\hat z(0) = 0,\\; T'(0) = 0",
             "\\hat z(k) = [\\phi(k,k-1) - L(k-1)H(k-1)]\\,\\hat z(k-1) + L(k-1)T'(k-1)",
             "\\epsilon(k) = T'(k) - H(k)\\hat z(k),\\quad \\nu(k) = D^{-1}(k)\\epsilon(k)\\qquad k = 1..N"),
            check=("causal_filter(Tp)", "Dinv@(I - H@Psi@L)@Tp"), record="I-4.20"),
        Para("**2. Memoryless factor** $\\nu = D^{-1}\\epsilon$: block by block (inside the same sweep). "
             "Note (4.20) prints $T(k)$ where $T'(k)$ is meant."),
        Para("**3. Anticausal factor** $\\ddot\\theta = (I - H\\Psi L)^T\\nu = \\nu - L^TS^T\\psi^TH^T\\nu$. "
             "Put $\\lambda = \\psi^TH^T\\nu$; from $\\psi^{-T} = I - \\Delta_\\psi^TS^T$, "
             "$\\lambda = \\Delta_\\psi^T S^T\\lambda + H^T\\nu$: block $k$ of $S^Tx$ is $x(k+1)$, a base-to-tip sweep."),
        Chain("(I - H\\Psi L)^T\\nu", lhs_expr="(I - H@Psi@L).T@T", steps=(
            Step("\\nu - L^T S^T \\lambda,\\quad \\lambda = \\psi^T H^T \\nu",
                 why="(5.3)", expr="T - L.T@S.T@psi.T@H.T@T"),
            Step("\\nu - L^T S^T (\\Delta_\\psi^T S^T\\lambda + H^T\\nu)",
                 why="(a.10) transposed", expr="T - L.T@S.T@(Dpsi.T@S.T@psi.T@H.T@T + H.T@T)"))),
        Rec("sweep (4.21)-(4.22)",
            ("\\lambda(N+1) = 0",
             "\\lambda(k) = [\\phi(k+1,k) - L(k)H(k)]^T\\lambda(k+1) + H^T(k)\\nu(k)",
             "\\ddot\\theta(k) = \\nu(k) - L^T(k)\\lambda(k+1)\\qquad k = N..1"),
            check=("anticausal_smoother(T)[0]", "(I - H@Psi@L).T@T"), record="I-4.22"),
        Para("Together: $\\ddot\\theta = \\mathcal{M}^{-1}T'$ in two O(N) sweeps (each recursion checked "
             "against its operator expression, on symbols)."),
        Rec("all of FD1", ("\\ddot\\theta = \\text{(4.21)-(4.22)} \\circ \\text{(4.19)-(4.20)}\\,(T')",),
            lines_text=("thdd = (4.21)-(4.22) applied to (4.19)-(4.20) applied to T'",),
            check=("Mcal@anticausal_smoother(causal_filter(Tp))[0]", "Tp"), record="FW-A.2-rec"),
    ]


def _rne():
    return "The RNE recursions from the operator form (3.17)", [
        Para("(3.17): $f = \\phi(M\\alpha + b + Bf(0))$, $\\alpha = \\phi^T(H^T\\ddot\\theta + a)$, $T = Hf$. "
             "Use $\\phi^{-1} = I - \\mathcal{E}_\\phi$ (framework (2.4); Part I (a.11): $I - S\\Delta_\\phi$)."),
        Chain("\\alpha", lhs_expr="phi.T@(H.T@thdd + a)", steps=(
            Step("\\mathcal{E}_\\phi^T\\alpha + H^T\\ddot\\theta + a",
                 why="$\\alpha = \\phi^T y \\iff (I - \\mathcal{E}_\\phi^T)\\alpha = y$",
                 expr="Ephi.T@phi.T@(H.T@thdd + a) + H.T@thdd + a"),)),
        Rec("base-to-tip sweep (2.24)-(2.26)",
            ("\\alpha(N+1) = 0", "\\alpha(k) = \\phi^T(k+1,k)\\alpha(k+1) + H^T(k)\\ddot\\theta(k) + a(k)\\qquad k = N..1"),
            check=("accelerations(thdd, a)", "phi.T@(H.T@thdd + a)"), record="I-3.15"),
        Chain("f", lhs_expr="phi@(M@alpha + b + B@f0)", steps=(
            Step("\\mathcal{E}_\\phi f + M\\alpha + b + Bf(0)",
                 why="$(I - \\mathcal{E}_\\phi) f = M\\alpha + b + Bf(0)$",
                 expr="Ephi@phi@(M@alpha + b + B@f0) + M@alpha + b + B@f0"),), let=(("alpha", "phi.T@(H.T@thdd + a)"),)),
        Rec("tip-to-base sweep (2.28)-(2.30)",
            ("f(0) = f_{ext}", "f(k) = \\phi(k,k-1)f(k-1) + M(k)\\alpha(k) + b(k),\\quad T(k) = H(k)f(k)\\qquad k = 1..N"),
            check=("rne(thdd, f0)", "H@phi@(M@phi.T@(H.T@thdd + a) + b + B@f0)"), record="I-3.17"),
        Para("The block $B f(0)$ only enters $k = 1$ as $\\phi(1,0)f(0)$: starting the sweep at $f(0)$ does it. "
             "The framework paper's (2.1) prints $\\phi(k+1,k)f(k-1)$, which is refuted from N = 2 (FW-2.1)."),
        Rec("the whole RNE is (3.20)", ("T = \\mathcal{M}\\ddot\\theta + C + J^Tf(0)",),
            check=("rne(thdd, f0)", "Mcal@thdd + C + J.T@f0"), record="I-3.20"),
    ]


def _fd4():
    W = "(I - H\\Psi L)"
    return "Algorithm FD4 (5.13)-(5.17) from (3.19), Theorem 4.1, (a.35) and (a.50)", [
        Para("Part I, Appendix A, proof of FD4. Start from (3.19) with $\\mathcal{M}^{-1}$ of Theorem 4.1 "
             "(written $\\mathcal{M}^{-1}$ below; the proof layer uses the factored form)."),
        Chain("\\ddot\\theta", lhs_expr="Minv@(T - H@phi@(M@phi.T@a + b + B@f0))", steps=(
            Step(f"{W}^TD^{{-1}}{W}T - {W}^TD^{{-1}}{W}H\\phi[b + Bf(0)] - {W}^TD^{{-1}}{W}H\\phi M\\phi^Ta",
                 text="(I - H Psi L)^T D^-1 (I - H Psi L) [T - H phi (b + B f(0)) - H phi M phi^T a]",
                 why="Theorem 4.1",
                 expr="Minv@T - Minv@H@phi@(b + B@f0) - Minv@H@phi@M@phi.T@a"),
            Step(f"{W}^TD^{{-1}}{W}T - {W}^TD^{{-1}}H\\psi[b + Bf(0)] - {W}^TD^{{-1}}H\\psi M\\phi^Ta",
                 text="... - (I - H Psi L)^T D^-1 H psi [b + B f(0)] - (I - H Psi L)^T D^-1 H psi M phi^T a",
                 why="(a.35): $(I - H\\Psi L)H\\phi = H\\psi$",
                 expr="Minv@T - W.T@Dinv@H@psi@(b + B@f0) - W.T@Dinv@H@psi@M@phi.T@a"),
            Step(f"{W}^TD^{{-1}}{W}T - {W}^TD^{{-1}}H\\psi[b + Bf(0)] - [{W}^TD^{{-1}}H\\tilde\\psi P + L^T\\Psi^T(I - GH)^T + G^T]a",
                 text="... - [(I - H Psi L)^T D^-1 H psi~ P + L^T Psi^T (I - G H)^T + G^T] a",
                 why="(a.50)",
                 expr="Minv@T - W.T@Dinv@H@psi@(b + B@f0) - (W.T@Dinv@H@psi_t@P + L.T@Psi.T@(I - G@H).T + G.T)@a"),
            Step(f"{W}^T\\nu - L^T\\Psi^T(I - GH)^Ta - G^Ta",
                 why="(5.14)-(5.15) with $\\nu = D^{-1}(I - H\\Psi L)T - D^{-1}H\\tilde\\psi Pa - D^{-1}H\\psi[b + Bf(0)]$",
                 expr="W.T@nu4 - L.T@Psi.T@(I - G@H).T@a - G.T@a")),
              let=(("W", "(I - H@Psi@L)"), ("Minv", "W.T@Dinv@W"),
                   ("nu4", "Dinv@W@T - Dinv@H@psi_t@P@a - Dinv@H@psi@(b + B@f0)"))),
        Para("The printed proof has $H\\tilde\\phi P$ in the bracket where (a.50) has $H\\tilde\\psi P$; with "
             "$\\tilde\\phi$ the step fails from N = 2 (I-FD4-proof in docs/misprints.md)."),
        Rec("the 3-sweep recursion (5.16)-(5.17)",
            ("z(0) = f(0),\\; P(0) = 0,\\; T(0) = 0",
             "z(k) = \\psi(k,k-1)z(k-1) + L(k-1)T(k-1) + \\psi(k,k-1)P(k-1)a(k-1) + b(k)",
             "\\epsilon(k) = T(k) - H(k)z(k),\\quad \\nu(k) = D^{-1}(k)\\epsilon(k)\\qquad k = 1..N",
             "\\lambda(k) = \\psi^T(k+1,k)\\lambda(k+1) + H^T(k)\\nu(k) + [I - G(k)H(k)]^Ta(k)",
             "\\ddot\\theta(k) = \\nu(k) - L^T(k)\\lambda(k+1) - G^T(k)a(k)\\qquad k = N..1"),
            check=("Mcal@fd4(T, f0)[0]", "T - H@phi@(M@phi.T@a + b + B@f0)"), record="I-FD4-rec"),
    ]


# the operator expressions of docs/derivatives.md (catalogue syntax)
D10 = "H@(R@phi.T@Psiddot + 2*Bcor_c@phi.T@Psidot) + H@phi_t@(R@Psiddot + 2*Bcor_c@Psidot + fbar@H.T)"
D12 = "H@(R@phi.T@(Psidot + Sdot) + 2*Bcor_c@phi.T@H.T) + H@phi_t@(R@(Psidot + Sdot) + 2*Bcor_c@H.T)"
D16 = "H@(R@phi.T@Sdot + Bcor_c@phi.T@H.T) + H@phi_t@(R@Sdot + Bcor_c@H.T)"
J_LET = (("Jb", "phi.T@H.T"), ("Jd", "phi.T@Sdot"))


def _derivatives():
    Pdd, Pd, Sd, fb = "\\ddot\\Psi", "\\dot\\Psi", "\\dot S", "\\bar f"
    return "Derivatives of the dynamics in operator form: (D.10)-(D.19)", [
        Para("docs/derivatives.md perturbs the Newton-Euler operators (the linearization of Jain and Rodriguez, "
             "\"Linearization of manipulator dynamics using spatial operators\", IEEE Trans. SMC 1993). Its "
             "rigid-motion steps (D.7)-(D.9), (D.12) need the rules of the cross products, which the algebra "
             "does not have; they are checked by finite differences (tests/dynamics/test_derivatives_operators.py). "
             "Every operator step from there on is below, each proved for every N on every tree ((D.19) for "
             "matrices of every size). The operators, "
             "all block diagonal: $\\dot M = \\mathrm{diag}(V\\times^* M - MV\\times)$, the body Coriolis "
             "operator $B$ with $B + B^T = \\dot M$ (relation `coriolis-sym`: $2B = \\dot M + (MV)\\bar\\times^*$, "
             "the last term skew), $\\dot S = V\\times H^T$, $\\dot\\Psi = V_p\\times H^T$, "
             "$\\ddot\\Psi = A_p\\times H^T + V_p\\times\\dot\\Psi$ (D.4)-(D.6), $\\bar f = f\\bar\\times^*$, and the "
             "composites $R$, $B_c$ of $M$ and $B$:"),
        Rec("composite sweeps (a.44) with psi = phi, tip to base",
            ("R(0) = 0,\\; B_c(0) = 0",
             "R(k) = \\phi(k,k-1)R(k-1)\\phi^T(k,k-1) + M(k)",
             "B_c(k) = \\phi(k,k-1)B_c(k-1)\\phi^T(k,k-1) + B(k)\\qquad k = 1..N"),
            check=("Bcor_c - Ephi@Bcor_c@Ephi.T", "Bcor"), record="D-a.44"),
        Para("Read as operators: $M = R - \\mathcal{E}_\\phi R\\mathcal{E}_\\phi^T$ and "
             "$B = B_c - \\mathcal{E}_\\phi B_c\\mathcal{E}_\\phi^T$ ($\\mathcal{E}_\\phi X\\mathcal{E}_\\phi^T$ "
             "is block diagonal for block-diagonal $X$, on every tree). **Corollary A.1** then holds for "
             "$X = B$, which is not symmetric:"),
        Chain("\\phi B\\phi^T", lhs_expr="phi@Bcor@phi.T", steps=(
            Step("\\phi(B_c - \\mathcal{E}_\\phi B_c\\mathcal{E}_\\phi^T)\\phi^T",
                 why="(a.44)", expr="phi@(Bcor_c - Ephi@Bcor_c@Ephi.T)@phi.T", record="D-a.44"),
            Step("\\phi B_c\\phi^T - (\\phi - I)B_c(\\phi - I)^T",
                 why="framework (2.4): $\\phi\\mathcal{E}_\\phi = \\phi - I$",
                 expr="phi@Bcor_c@phi.T - (phi - I)@Bcor_c@(phi - I).T"),
            Step("B_c + \\tilde\\phi B_c + B_c\\tilde\\phi^T", why="expand; (a.3)",
                 expr="Bcor_c + phi_t@Bcor_c + Bcor_c@phi_t.T", record="D-corA.1"))),
        Para("The proof never uses $X = X^T$; with $X = M$ it is $\\phi M\\phi^T = R + \\tilde\\phi R + R\\tilde\\phi^T$. "
             "Moved around, it is the step that merges the two triangular parts of (D.10), (D.12) and (D.16):"),
        Chain("B_c\\phi^T + \\tilde\\phi B_c", lhs_expr="Bcor_c@phi.T + phi_t@Bcor_c", steps=(
            Step("B_c + B_c\\tilde\\phi^T + \\tilde\\phi B_c",
                 why="(a.3): $\\phi = I + \\tilde\\phi$", expr="Bcor_c + Bcor_c@phi_t.T + phi_t@Bcor_c"),
            Step("\\phi B\\phi^T", why="Corollary A.1 above", expr="phi@Bcor@phi.T", record="D-merge"))),
        Chain("R\\phi^T + \\tilde\\phi R", lhs_expr="R@phi.T + phi_t@R", steps=(
            Step("\\phi M\\phi^T", why="the same, $X = M$", expr="phi@M@phi.T", record="D-merge"),)),
        Para("**dT/dtheta.** In (D.10) the blocks $(i, j)$ with $i$ in the subtree of $j$ form the lower part, "
             "those with $i$ inboard of $j$ reach $j$ through $\\phi(i, j)$: the strictly causal $\\tilde\\phi$."),
        Chain("\\partial T/\\partial\\theta", steps=(
            Step(f"H(R\\phi^T{Pdd} + 2B_c\\phi^T{Pd}) + H\\tilde\\phi(R{Pdd} + 2B_c{Pd} + {fb}H^T)",
                 why="(D.10)", expr=D10),
            Step(f"H(R\\phi^T + \\tilde\\phi R){Pdd} + 2H(B_c\\phi^T + \\tilde\\phi B_c){Pd} + H\\tilde\\phi{fb}H^T",
                 why="regroup",
                 expr="H@(R@phi.T + phi_t@R)@Psiddot + 2*H@(Bcor_c@phi.T + phi_t@Bcor_c)@Psidot + H@phi_t@fbar@H.T"),
            Step(f"H\\phi[M\\phi^T{Pdd} + 2B\\phi^T{Pd}] + H\\tilde\\phi{fb}H^T", why="the merge, twice: (D.11)",
                 expr="dTdth", record="D-11"))),
        Rec("the walk (D.14) computes the blocks of (D.10)",
            (f"U = R(l)H^T(l),\\; W = 2B_c^T(l)H^T(l),\\; Q = R(l){Pdd}(l) + 2B_c(l){Pd}(l) + {fb}(l)H^T(l)"
             "\\qquad l = 1..N",
             "k = l+1..N:\\; (U, W, Q) \\leftarrow \\phi(k,k-1)(U, W, Q),\\; "
             "\\partial T(k)/\\partial\\theta(l) = H(k)Q",
             f"k = l..N:\\; \\partial T(l)/\\partial\\theta(k) = U^T{Pdd}(k) + W^T{Pd}(k)"),
            check=("id_derivatives(thdd)[0]", "dTdth"), record="D-11"),
        Para("**dT/dtheta_dot** (D.12): no rigid part, and the same merge. The walk with "
             f"$({Pd} + {Sd}, 2B_c, H^T, 0)$ computes it (D-13, per N)."),
        Chain("\\partial T/\\partial\\dot\\theta", steps=(
            Step(f"H(R\\phi^T({Pd} + {Sd}) + 2B_c\\phi^TH^T) + H\\tilde\\phi(R({Pd} + {Sd}) + 2B_cH^T)",
                 why="(D.12)", expr=D12),
            Step(f"H\\phi[M\\phi^T({Pd} + {Sd}) + 2B\\phi^TH^T]",
                 why="the merge: (D.13)", expr="dTdthd", record="D-13"))),
        Para("**The Coriolis matrix** (D.16), the walk with $(\\dot S, B_c, H^T, 0)$:"),
        Chain("C", steps=(
            Step(f"H(R\\phi^T{Sd} + B_c\\phi^TH^T) + H\\tilde\\phi(R{Sd} + B_cH^T)", why="(D.16)", expr=D16),
            Step(f"H\\phi[M\\phi^T{Sd} + B\\phi^TH^T]", why="the merge: (D.15)",
                 expr="Ccor", record="D-15"))),
        Rec("the walk (D.16)",
            (f"U = R(l)H^T(l),\\; W = B_c^T(l)H^T(l),\\; Q = R(l){Sd}(l) + B_c(l)H^T(l)\\qquad l = 1..N",
             "k = l+1..N:\\; (U, W, Q) \\leftarrow \\phi(k,k-1)(U, W, Q),\\; C(k, l) = H(k)Q",
             f"k = l..N:\\; C(l, k) = U^T{Sd}(k) + W^TH^T(k)"),
            check=("coriolis_matrix()", "Ccor"), record="D-15"),
        Para("**Mdot - 2C is skew-symmetric.** With the body Jacobians $J = \\phi^TH^T$ (3.12) and their rates "
             f"$\\dot J = \\phi^T{Sd}$, (D.15) is $C = J^T(M\\dot J + BJ)$ and $\\dot{{\\mathcal{{M}}}}$ follows from "
             "$\\mathcal{M} = J^TMJ$:"),
        Chain("\\dot{\\mathcal{M}}", lhs_expr="Mcaldot", steps=(
            Step("\\dot J^TMJ + J^TM\\dot J + J^T\\dot MJ",
                 why="the product rule", expr="Jd.T@M@Jb + Jb.T@M@Jd + Jb.T@Mdot@Jb"),
            Step("C + C^T + J^T(\\dot M - B - B^T)J",
                 why="(D.15)", expr="Ccor + Ccor.T + Jb.T@(Mdot - Bcor - Bcor.T)@Jb"),
            Step("C + C^T", why="$B + B^T = \\dot M$", expr="Ccor + Ccor.T", record="D-skew")), let=J_LET),
        Para("so $\\dot{\\mathcal{M}} - 2C = C^T - C$ is skew-symmetric. For revolute and prismatic joints "
             f"$\\dot\\Psi = {Sd}$ (the joint's own rate $H^T\\dot\\theta\\times H^T$ vanishes), and (D.13) is twice C, "
             "the Christoffel matrix:"),
        Chain("\\partial T/\\partial\\dot\\theta",
              lhs_expr="H@phi@(M@phi.T@(Psidot + Sdot) + 2*Bcor@phi.T@H.T)", steps=(
                  Step(f"H\\phi[2M\\phi^T{Sd} + 2B\\phi^TH^T]",
                       why=f"1-dof joints: ${Pd} = {Sd}$", expr="H@phi@(2*M@phi.T@Sdot + 2*Bcor@phi.T@H.T)"),
                  Step("2C", why="(D.15)", expr="2*Ccor", record="D-2C")), let=(("Psidot", "Sdot"),)),
        Para("**Forward dynamics** (D.19). $\\ddot\\theta = \\mathcal{M}^{-1}(T - C)$ solves "
             "$T_{ID}(\\theta, \\dot\\theta, \\ddot\\theta) = T$; differentiate along any direction (a joint position "
             "or rate), with $d(\\mathcal{M}\\mathcal{M}^{-1}) = 0$:"),
        Chain("\\mathcal{M}\\,d\\ddot\\theta", lhs_expr="M@(dMinv@(T - Cb) - Minv@dCb)", steps=(
            Step("\\mathcal{M}\\,d(\\mathcal{M}^{-1})(T - C) - dC",
                 why="$\\mathcal{M}\\mathcal{M}^{-1} = I$", expr="M@dMinv@(T - Cb) - dCb"),
            Step("-d\\mathcal{M}\\,\\mathcal{M}^{-1}(T - C) - dC",
                 why="$\\mathcal{M}\\,d(\\mathcal{M}^{-1}) = -d\\mathcal{M}\\,\\mathcal{M}^{-1}$",
                 expr="-dM@Minv@(T - Cb) - dCb"),
            Step("-(d\\mathcal{M}\\,\\ddot\\theta + dC) = -dT_{ID}", why="(D.19)",
                 expr="-(dM@Minv@(T - Cb) + dCb)", record="D-19")), algebra="fdderiv"),
        Para("so $d\\ddot\\theta = -\\mathcal{M}^{-1}dT_{ID}$: the derivatives of forward dynamics are those of "
             "inverse dynamics above, at the forward-dynamics $\\ddot\\theta$, times $-\\mathcal{M}^{-1}$, and "
             "$\\partial\\ddot\\theta/\\partial T = \\mathcal{M}^{-1}$, with the one $\\mathcal{M}^{-1}$ of Theorem 4.1 "
             "(fd_derivatives.py):"),
        Chain("\\mathcal{M}(I - H\\Psi L)^TD^{-1}(I - H\\Psi L)",
              lhs_expr="Mcal@(I - H@Psi@L).T@Dinv@(I - H@Psi@L)",
              steps=(Step("I", why="Theorem 4.1 (4.16)", expr="I", record="I-4.16"),)),
    ]


# rotor inertia: the operators of the factorization with D = H P H^T + J_m (the hypotheses of the
# chains below; P, D^-1, E_psi, psi are those of the Riccati recursion with this D)
ARMATURE_GIVEN = ("Jm : j <- j sym", "Pm : s <- s sym", "Dminv : j <- j sym", "psim : s <- s", "Epsim : s <- s")
ARMATURE_ASSUME = (
    ("arm-D-left", "Dminv@H@Pm@H.T", "I - Dminv@Jm", "D = H P H^T + J_m invertible"),
    ("arm-D-right", "H@Pm@H.T@Dminv", "I - Jm@Dminv", "D = H P H^T + J_m invertible"),
    ("arm-riccati", "M", "Pm - Ephi@(Pm - Pm@H.T@Dminv@H@Pm)@Ephi.T", "P by (4.4)-(4.5) with G = P H^T D^-1"),
    ("arm-Epsi", "Epsim", "Ephi - Ephi@Pm@H.T@Dminv@H", "E_psi = E_phi (I - G H) (4.7)"),
    ("arm-psi-left", "psim@Epsim", "psim - I", "psi = (I - E_psi)^-1"),
    ("arm-psi-right", "Epsim@psim", "psim - I", "psi = (I - E_psi)^-1"))
ARMATURE_LET = (("Dm", "H@Pm@H.T + Jm"), ("Gm", "Pm@H.T@Dminv"), ("Lm", "Dphi@Gm"), ("Psim", "psim@S"))


def _armature():
    kw = dict(given=ARMATURE_GIVEN, assume=ARMATURE_ASSUME, let=ARMATURE_LET)
    return "Rotor inertia (armature): where J_m enters the factorization", [
        Para("A geared joint's motor rotor turns with the joint rate times its gear ratio; reflected to the "
             "joint, it adds the kinetic energy $J_m(k)\\dot\\theta(k)^2/2$ ($J_m$: the rotor inertia "
             "times the squared ratio, MuJoCo's and Pinocchio's *armature*). With $J_m$ the joint-space "
             "block-diagonal operator of these, the mass matrix is $\\mathcal{M} + J_m$, "
             "$\\mathcal{M} = H\\phi M\\phi^TH^T$ (3.20). The claim: the factorization of Part I holds with "
             "the one change $D(k) = H(k)P(k)H^T(k) + J_m(k)$ in (4.6), where $G = PH^TD^{-1}$ (5.12), the Riccati "
             "recursion (4.4)-(4.5), $\\psi$ (4.7) and the sweeps use that $D$. The chains below are proved "
             "for every N on every tree with exactly these hypotheses (and nothing of the rigid $D = HPH^T$)."),
        Para("**Fact 4.1 with armature.** As in `soagen derive fact-4.1`, but $GD = PH^T$ now uses "
             "$D = HPH^T + J_m$, and the leftover of $D$ is $J_m$ itself:"),
        Chain("(I + H\\Phi L) D (I + H\\Phi L)^T", lhs_expr="(I + H@Phi@Lm)@Dm@(I + H@Phi@Lm).T", steps=(
            Step("(I + H\\tilde\\phi G) D (I + H\\tilde\\phi G)^T",
                 why="(a.13): $\\tilde\\phi G = \\Phi L$", expr="(I + H@phi_t@Gm)@Dm@(I + H@phi_t@Gm).T"),
            Step("D + H\\tilde\\phi PH^T + HP\\tilde\\phi^TH^T + H\\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^TH^T",
                 why="expand; $GD = PH^T$, $GDG^T = PH^TD^{-1}HP$",
                 expr="Dm + H@phi_t@Pm@H.T + H@Pm@phi_t.T@H.T + H@phi_t@Pm@H.T@Dminv@H@Pm@phi_t.T@H.T"),
            Step("J_m + H\\left(P + \\tilde\\phi P + P\\tilde\\phi^T + \\tilde\\phi PH^TD^{-1}HP\\tilde\\phi^T\\right)H^T",
                 why="$D = HPH^T + J_m$; collect",
                 expr="Jm + H@(Pm + phi_t@Pm + Pm@phi_t.T + phi_t@Pm@H.T@Dminv@H@Pm@phi_t.T)@H.T"),
            Step("J_m + H\\phi M\\phi^TH^T", why="Identity A.6 (a.48): its proof uses only (4.5) and $G = PH^TD^{-1}$",
                 expr="Jm + H@phi@M@phi.T@H.T"),
            Step("\\mathcal{M} + J_m", why="(3.20)", expr="Mcal + Jm")), **kw),
        Para("**Fact 4.2 and Theorem 4.1 with armature.** The inverse of the factor and the factorization of "
             "the inverse keep their form ($\\Psi = \\psi S$ with the $\\psi$ of this $G$):"),
        Chain("(I + H\\Phi L)(I - H\\Psi L)", lhs_expr="(I + H@Phi@Lm)@(I - H@Psim@Lm)", steps=(
            Step("I", why="(a.16), (a.27), as in Fact 4.2", expr="I"),), **kw),
        Chain("(\\mathcal{M} + J_m)(I - H\\Psi L)^TD^{-1}(I - H\\Psi L)",
              lhs_expr="(Mcal + Jm)@(I - H@Psim@Lm).T@Dminv@(I - H@Psim@Lm)", steps=(
                  Step("I", why="Theorem 4.1 (4.16)", expr="I"),), **kw),
        Para("So the recursions of `soagen derive minv-recursions` (the filter (4.19)-(4.20) and the smoother "
             "(4.21)-(4.22)), FD1-FD4 and the explicit $\\mathcal{M}^{-1}$ compute $(\\mathcal{M} + J_m)^{-1}$ when "
             "the Riccati sweep forms $D(k) = H(k)P(k)H^T(k) + J_m(k)$: that one line "
             "(soagen/dynamics/innovations.py) is the whole change to forward dynamics. The rest: the composite "
             "mass matrix adds $J_m(k)$ to its diagonal blocks, inverse dynamics adds $J_m\\ddot\\theta$ "
             "(the rotor's own inertial torque), the bias forces and the Jacobians do not change, the "
             "derivatives of inverse dynamics in $\\theta$ and $\\dot\\theta$ do not change (their "
             "$\\partial T/\\partial\\ddot\\theta$ is the new mass matrix), those of forward dynamics change "
             "through $(\\mathcal{M} + J_m)^{-1}$ (D.19), and the regressor gains the known term $J_m\\ddot\\theta$."),
        Para("**Not every form survives.** Where the papers use $D = HPH^T$ for more than $D^{-1}D = I$, "
             "the armature leaves a term. The symmetric form of the Riccati recursion, framework (A.1) "
             "$P(k) = \\sum_c \\psi(k,c)P(c)\\psi^T(k,c) + M(k)$, i.e. $M = P - \\mathcal{E}_\\psi P\\mathcal{E}_\\psi^T$, "
             "gains $\\mathcal{E}_\\phi GJ_mG^T\\mathcal{E}_\\phi^T$ (the Joseph form of a Kalman update with "
             "measurement noise $J_m$):"),
        Chain("P - \\mathcal{E}_\\psi P\\mathcal{E}_\\psi^T", lhs_expr="Pm - Epsim@Pm@Epsim.T", steps=(
            Step("P - \\mathcal{E}_\\phi(P - GHP - PH^TG^T + GHPH^TG^T)\\mathcal{E}_\\phi^T",
                 why="$\\mathcal{E}_\\psi = \\mathcal{E}_\\phi(I - GH)$ (4.7); expand",
                 expr="Pm - Ephi@(Pm - Gm@H@Pm - Pm@H.T@Gm.T + Gm@H@Pm@H.T@Gm.T)@Ephi.T"),
            Step("P - \\mathcal{E}_\\phi(P - PH^TD^{-1}HP)\\mathcal{E}_\\phi^T + \\mathcal{E}_\\phi GJ_mG^T\\mathcal{E}_\\phi^T",
                 why="$GHPH^TG^T = G(D - J_m)G^T = PH^TD^{-1}HP - GJ_mG^T$",
                 expr="Pm - Ephi@(Pm - Pm@H.T@Dminv@H@Pm)@Ephi.T + Ephi@Gm@Jm@Gm.T@Ephi.T"),
            Step("M + \\mathcal{E}_\\phi GJ_mG^T\\mathcal{E}_\\phi^T", why="(4.5)",
                 expr="M + Ephi@Gm@Jm@Gm.T@Ephi.T")), **kw),
        Para("So with armature $P(k) = \\sum_c [\\psi(k,c)P(c)\\psi^T(k,c) + \\phi(k,c)G(c)J_m(c)G^T(c)\\phi^T(k,c)] + M(k)$; "
             "soagen's recursion uses (4.5), $P(k) = \\sum_c \\phi(k,c)[P(c) - G(c)H(c)P(c)]\\phi^T(k,c) + M(k)$, which "
             "holds as printed, and its dense operator builder (operators/tree.py) the corrected (A.1). Why the "
             "factorization itself keeps its form: give each link a rotor coordinate of its own, "
             "$H'(k) = [H(k), I]$, $M'(k) = \\mathrm{diag}(M(k), J_m(k))$, the rotor carried by nothing outboard. "
             "That is a system of the papers' kind with $H'P'H'^T = HPH^T + J_m$, and the chains above are its "
             "Fact 4.1, Fact 4.2 and Theorem 4.1 on the original operators. Without armature nothing is added to "
             "$D(k)$, so `soagen verify` checks the papers' recursions unchanged."),
    ]


def _centroidal():
    Et = "\\mathcal{E}^T"
    return "The centroidal momentum matrix A_G from the composite-body recursion (a.44)", [
        Para("Orin and Goswami's centroidal momentum matrix $A_G$ (\"Centroidal momentum matrix of a humanoid "
             "robot\", IROS 2008) in operator form. The spatial momentum of all links about the base point "
             "$O = O(N+1)$ is $h_O = \\sum_k \\phi(N+1,k)M(k)V(k)$; with $V = \\phi^TH^T\\dot\\theta$ (2.11) and "
             f"${Et}$, whose only block is $\\phi(N+1,N)$ (Part I (3.8)), so that ${Et}\\phi$ has the blocks "
             "$\\phi(N+1,k)$, it is $h_O = \\mathcal{E}^T\\phi M\\phi^TH^T\\dot\\theta$. The composite inertias "
             "come from one sweep:"),
        Rec("composite sweep (a.44) with psi = phi, tip to base",
            ("R(0) = 0,\\; R(k) = \\phi(k,k-1)R(k-1)\\phi^T(k,k-1) + M(k)\\qquad k = 1..N",),
            check=("R - Ephi@R@Ephi.T", "M"), record="D-a.44"),
        Chain("h_O", lhs_expr="E.T@phi@M@phi.T@H.T@thd", steps=(
            Step(f"{Et}\\phi(R - \\mathcal{{E}}_\\phi R\\mathcal{{E}}_\\phi^T)\\phi^TH^T\\dot\\theta",
                 why="(a.44) read as $M = R - \\mathcal{E}_\\phi R\\mathcal{E}_\\phi^T$",
                 expr="E.T@phi@(R - Ephi@R@Ephi.T)@phi.T@H.T@thd", record="D-a.44"),
            Step(f"{Et}[\\phi R\\phi^T - (\\phi - I)R(\\phi - I)^T]H^T\\dot\\theta",
                 why="framework (2.4): $\\phi\\mathcal{E}_\\phi = \\phi - I$",
                 expr="E.T@(phi@R@phi.T - (phi - I)@R@(phi - I).T)@H.T@thd"),
            Step(f"{Et}\\phi RH^T\\dot\\theta + {Et}R\\tilde\\phi^TH^T\\dot\\theta",
                 why="expand; (a.3): $\\tilde\\phi = \\phi - I$",
                 expr="E.T@phi@R@H.T@thd + E.T@R@phi_t.T@H.T@thd"))),
        Para(f"The second term vanishes: ${Et}$ reads the rows of the links on the base, and row $k$ of "
             "$R\\tilde\\phi^T$ holds $R(k)\\phi^T(l,k)$ for the links $l$ strictly inboard of $k$, which a "
             "link on the base does not have. (This is a fact about the shape of $\\mathcal{E}$, not one of the "
             "relations of the N-free algebra; the tests check it block by block for N = 1..4 and, on trees, "
             "against the dense operators.) So the momentum about $O$ is read off the composite inertias, one "
             "block per joint, $A_O = \\mathcal{E}^T\\phi RH^T$:\n\n"
             "$$A_O(l) = \\phi(N+1,l)R(l)H^T(l),\\qquad l = 1..N,$$\n\n"
             "and the whole robot's inertia about $O$ likewise, $\\mathcal{E}^T\\phi M\\phi^T\\mathcal{E} = "
             "\\phi(N+1,N)R(N)\\phi^T(N+1,N)$ (on a tree the sum over the links on the base): its mass $m$ and "
             "first moment $h = mc$ give the centre of mass $c$. Shifted to the centre of mass $G$ by "
             "$\\phi(G,O)$, the shift (3.1) with $l(G,O) = O - G$, world-aligned: $A_G = \\phi(G,O)A_O$, "
             "column block $l$ is $\\phi(G,l)R(l)H^T(l)$, and the linear rows of $A_G$ are $mJ_{com}$ (the "
             "linear momentum is $m\\dot c$). Every column costs one shift: $O(N)$ in all, against the "
             "$O(N^2)$ walk of the mass matrix (Corollary A.1) that this replaces."),
        Para("**The rate** $\\dot A_G\\dot\\theta$. The RNE's forces (3.17), without gravity and $f(0) = 0$:"),
        Rec("the force sweep (2.28)-(2.29), tip to base",
            ("f(0) = 0,\\; f(k) = \\phi(k,k-1)f(k-1) + M(k)\\alpha(k) + b(k)\\qquad k = 1..N",),
            check=("composite_forces(M@alpha + b + B@f0)", "phi@(M@alpha + b + B@f0)"),
            let=(("alpha", "accelerations(thdd, a)"),), record="I-3.17"),
        Para(f"The force at the base, ${Et}f = \\phi(N+1,N)f(N)$, is the rate of the momentum about the fixed "
             "point $O$; with $\\alpha = \\phi^T(H^T\\ddot\\theta + a)$ (3.15) the same step as above splits it:"),
        Chain(f"{Et}\\phi(M\\phi^T(H^T\\ddot\\theta + a) + b)",
              lhs_expr="E.T@phi@(M@phi.T@(H.T@thdd + a) + b)", steps=(
                  Step(f"{Et}\\phi M\\phi^TH^T\\ddot\\theta + {Et}\\phi(M\\phi^Ta + b)", why="expand",
                       expr="E.T@phi@M@phi.T@H.T@thdd + E.T@phi@(M@phi.T@a + b)"),
                  Step(f"{Et}\\phi RH^T\\ddot\\theta + {Et}R\\tilde\\phi^TH^T\\ddot\\theta + "
                       f"{Et}\\phi(M\\phi^Ta + b)",
                       why="the chain above, with $\\ddot\\theta$ for $\\dot\\theta$",
                       expr="E.T@phi@R@H.T@thdd + E.T@R@phi_t.T@H.T@thdd + E.T@phi@(M@phi.T@a + b)"))),
        Para("so $\\dot h_O = A_O\\ddot\\theta + \\mathcal{E}^T\\phi(M\\phi^Ta + b)$. About the moving centre of "
             "mass, $\\dot h_G = \\phi(G,O)\\dot h_O$ (the extra term $-\\dot c\\times m\\dot c$ vanishes), so "
             f"$\\dot A_G\\dot\\theta = \\phi(G,O)\\,{Et}\\phi(M\\phi^Ta + b)$: the RNE's base force at "
             "$\\ddot\\theta = 0$ without gravity, shifted to $G$ (soagen.dynamics.centroidal; checked against "
             "Pinocchio's computeCentroidalMap and computeCentroidalMapTimeVariation on TALOS, G1, ANYmal, Solo12, "
             "UR5 and Panda)."),
    ]


TOPICS = {"fact-4.1": _fact41, "fact-4.2": _fact42, "theorem-4.1": _thm41,
          "minv-recursions": _minv, "rne": _rne, "fd4": _fd4, "derivatives": _derivatives, "armature": _armature,
          "centroidal": _centroidal, "planar2": None}
TOPIC_HELP = {
    "fact-4.1": "Part I Fact 4.1 (4.11): M = (I + H Phi L) D (I + H Phi L)^T, via (a.13) and (a.48)",
    "fact-4.2": "Part I Fact 4.2 (4.14): (I + H Phi L)^-1 = I - H Psi L, via (a.27), (a.16)",
    "theorem-4.1": "Part I Theorem 4.1 (4.16): the factorization of M^-1",
    "minv-recursions": "from M^-1 = (I - H Psi L)^T D^-1 (I - H Psi L) to the sweeps (4.19)-(4.22)",
    "rne": "the recursive Newton-Euler sweeps from the operator form (3.17)",
    "fd4": "Algorithm FD4: from (3.19), Theorem 4.1, (a.35), (a.50) to the 3-sweep recursion (5.16)-(5.17)",
    "derivatives": "derivatives of inverse/forward dynamics and the Coriolis matrix (D.10)-(D.19), each step proved",
    "armature": "rotor inertia: D(k) = H P H^T + J_m, and Fact 4.1, Fact 4.2, Theorem 4.1 with it (M + J_m)",
    "centroidal": "the centroidal momentum matrix A_G and A_G-dot qd from the composite-body recursion (a.44)",
    "planar2": "closed-form M(q), C(q, qd), gravity of a 2-link planar arm (robot file, default robots/planar2.yaml)",
}
