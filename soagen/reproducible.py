"""Float arithmetic whose bits do not depend on the machine, for the numbers that are
baked into generated code (docs/codegen.md, "The same bytes on every machine").

numpy's ``@``, ``dot``, ``einsum`` and ``linalg`` hand float arrays to BLAS and LAPACK
(or to multiply-add kernels), whose order of summation and use of fused multiply-add
depend on the CPU, on the BLAS kernel that OpenBLAS picks (``OPENBLAS_CORETYPE``) and on
the thread count: a constant folded by them changes in its last digits from one machine
to another, and with it the generated code. The C library's ``sin`` and ``cos`` have FMA
and non-FMA variants that glibc picks by CPU (measured with glibc 2.36: 265 of 400,000
arguments differ in the last bit), and Python 3.12's built-in ``sum`` of floats is
compensated where 3.11's is not.

What is here uses only operations that IEEE 754 rounds once, exactly (elementwise +, -,
*, /, sqrt, which numpy applies one array operation at a time, so none is fused with
another), in an order fixed by the array shapes alone; ``sin`` and ``cos`` correctly
rounded (computed with 113 bits by mpmath, SymPy's own dependency, then rounded to the
nearest double); sums of Python floats by :func:`math.fsum` (correctly rounded). The
symmetric eigenproblem is solved by Jacobi rotations in a fixed (round-robin) order,
which need nothing else. On object arrays (SymPy or the code generator's symbols) the
products are numpy's own ``@``, whose order is fixed too, so the same helpers serve the
recursions' constants and their symbols.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from soagen.backend import NumpyBackend

_MP = mpmath.MPContext()
_MP.prec = 113                       # quadruple precision: rounding it to 53 bits is correct


def matmul(A, B):
    """``A @ B`` (1-d, 2-d, or stacks of matrices, numpy's rules) summed in a fixed
    order: the elementwise products, then numpy's add reduction over the shared index."""
    A, B = np.asarray(A), np.asarray(B)
    if A.dtype == object or B.dtype == object:
        return A @ B
    a = A[None, :] if A.ndim == 1 else A
    b = B[:, None] if B.ndim == 1 else B
    out = (a[..., :, :, None] * b[..., None, :, :]).sum(axis=-2)
    if B.ndim == 1:
        out = out[..., 0]
    if A.ndim == 1:
        out = out[..., 0, :] if B.ndim > 1 else out[..., 0]
    return out


def dot(a, b):
    """a . b of two vectors, summed in a fixed order."""
    return matmul(np.asarray(a).ravel(), np.asarray(b).ravel())


def norm(v):
    """The Euclidean norm of a vector (no BLAS: ``np.linalg.norm`` calls ``ddot``)."""
    return float(np.sqrt(dot(v, v)))


def congruence(R, S):
    """R S R^T: a tensor (inertia) turned into another frame."""
    return matmul(matmul(R, S), np.swapaxes(np.asarray(R), -1, -2))


def fsum(values):
    """The correctly rounded sum of Python numbers (the same on every Python version)."""
    return math.fsum(values)


def cos(x):
    """cos(x) correctly rounded."""
    return float(_MP.cos(_MP.mpf(float(x))))


def sin(x):
    """sin(x) correctly rounded."""
    return float(_MP.sin(_MP.mpf(float(x))))


class _Constants(NumpyBackend):
    """The numpy backend with correctly rounded ``sin`` and ``cos``: for rotations by a
    fixed angle that a loader folds into the model (:func:`soagen.spatial.axis_rotation`)."""

    def sin(self, x):
        return sin(x)

    def cos(self, x):
        return cos(x)


CONSTANTS = _Constants()


# ---------------------------------------------------------------------------------------
# The symmetric (generalized) eigenproblem

def cholesky(M):
    """The lower-triangular L with M = L L^T, M symmetric positive definite (column by
    column, each dot product in a fixed order); raises numpy's LinAlgError otherwise."""
    M = np.asarray(M, dtype=float)
    n = len(M)
    L = np.zeros((n, n))
    for j in range(n):
        d = M[j, j] - dot(L[j, :j], L[j, :j])
        if not d > 0:
            raise np.linalg.LinAlgError("matrix is not positive definite")
        L[j, j] = math.sqrt(d)
        L[j + 1:, j] = (M[j + 1:, j] - (L[j + 1:, :j] * L[j, :j]).sum(axis=1)) / L[j, j]
    return L


def solve_lower(L, B):
    """L^-1 B for lower-triangular L (forward substitution, B a matrix)."""
    X = np.zeros(np.shape(B))
    for i in range(len(L)):
        X[i] = (B[i] - (L[i, :i, None] * X[:i]).sum(axis=0)) / L[i, i]
    return X


def solve_upper(U, B):
    """U^-1 B for upper-triangular U (back substitution, B a matrix)."""
    n = len(U)
    X = np.zeros(np.shape(B))
    for i in reversed(range(n)):
        X[i] = (B[i] - (U[i, i + 1:, None] * X[i + 1:]).sum(axis=0)) / U[i, i]
    return X


def _round_robin(n):
    """The n - 1 rounds (n even) of disjoint index pairs (p < q) that together meet every
    pair once: the circle method (Brent and Luk's parallel Jacobi ordering)."""
    players = list(range(n))
    rounds = []
    for _ in range(n - 1):
        pairs = sorted(tuple(sorted((players[i], players[n - 1 - i]))) for i in range(n // 2))
        rounds.append((np.array([p for p, _ in pairs]), np.array([q for _, q in pairs])))
        players = [players[0], players[-1]] + players[1:-1]
    return rounds


JACOBI_TOL = 4 * np.finfo(float).eps     # rotate while |a_pq| > tol sqrt(|a_pp a_qq|)
JACOBI_SWEEPS = 60


def eigh(A):
    """(w, V): the eigenvalues of the symmetric A in ascending order (ties in index
    order) and orthonormal eigenvectors (columns), by cyclic Jacobi rotations (Demmel and
    Veselic's relative stopping rule, which gives the small eigenvalues to high relative
    accuracy), a round of disjoint rotations at a time."""
    A = np.array(A, dtype=float)
    n = len(A)
    V = np.eye(n)
    if n > 1:
        m = n + n % 2                                   # an odd size: one pair per round idles
        rounds = [(P[Q < n], Q[Q < n]) for P, Q in _round_robin(m)]
        for _ in range(JACOBI_SWEEPS):
            if not any([_rotate(A, V, P, Q) for P, Q in rounds]):
                break
        else:
            raise np.linalg.LinAlgError(f"Jacobi eigenvalues did not converge in {JACOBI_SWEEPS} sweeps")
    w = A.diagonal().copy()
    order = np.argsort(w, kind="stable")
    return w[order], V[:, order]


def _rotate(A, V, P, Q):
    """One round: the rotations that zero A[p, q] for the pairs (P, Q) still above the
    tolerance, A <- J^T A J, V <- V J. Whether any was applied."""
    apq, app, aqq = A[P, Q], A[P, P], A[Q, Q]
    act = np.abs(apq) > JACOBI_TOL * np.sqrt(np.abs(app * aqq))
    if not act.any():
        return False
    P, Q, apq, app, aqq = P[act], Q[act], apq[act], app[act], aqq[act]
    tau = (aqq - app) / (2 * apq)
    with np.errstate(over="ignore"):
        big = np.abs(tau) > 1e150
        t = np.where(big, 0.5 / np.where(big, tau, 1.0),
                     np.where(tau >= 0, 1.0, -1.0) / (np.abs(tau) + np.sqrt(1 + np.where(big, 0.0, tau * tau))))
    c = 1 / np.sqrt(1 + t * t)
    s = t * c
    rows_p, rows_q = A[P].copy(), A[Q].copy()
    A[P] = c[:, None] * rows_p - s[:, None] * rows_q
    A[Q] = s[:, None] * rows_p + c[:, None] * rows_q
    for X in (A, V):
        cols_p, cols_q = X[:, P].copy(), X[:, Q].copy()
        X[:, P] = cols_p * c - cols_q * s
        X[:, Q] = cols_p * s + cols_q * c
    A[P, Q] = A[Q, P] = 0.0
    return True


def generalized_eigh(K, M):
    """(w, X): the eigenvalues (ascending) and M-orthonormal eigenvectors (columns) of
    K x = w M x, K symmetric, M symmetric positive definite: M = L L^T, the standard
    problem C = L^-1 K L^-T (symmetrized) by :func:`eigh`, X = L^-T Y."""
    L = cholesky(M)
    W = solve_lower(L, np.asarray(K, dtype=float))          # L^-1 K
    C = solve_lower(L, W.T)                                   # L^-1 K L^-T
    w, Y = eigh((C + C.T) / 2)
    return w, solve_upper(L.T, Y)
