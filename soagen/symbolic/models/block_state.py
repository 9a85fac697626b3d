"""The recursions of :mod:`soagen.dynamics` run on the blocks of a chain: what is proved is
the code that runs.

The same functions that compute the numbers and that the code generator unrolls
(:func:`~soagen.dynamics.innovations.riccati`, the filter and smoother, Newton-Euler, the
composite bodies, FD1-FD4, the Upsilon sweep, the derivative walks) run here on a
:class:`BlockState` whose per-body quantities are the blocks of one chain instance
(:class:`~soagen.symbolic.models.chain.ChainOps`): the free block symbols of the per-N engine
(H(k), P(k), phi(k+1, k), ...), or numbers for the random and robot instances. What a
recursion does between link frames or with a body's own numbers is a
:class:`~soagen.dynamics.sweeps.State` method, and here each such method is the operator
it implements: ``up`` is phi(k+1, k), ``down`` is phi^T(k+1, k), the 10-parameter shift of
an inertia is phi X phi^T, ``tip_force`` is B, the joint rates are the free rates S_dot(k),
Psi_dot(k), ... of the algebra (docs/derivatives.md). The backend inverts only the D(k) =
H(k) P(k) H^T(k) of the Riccati sweep (4.6), so a Riccati sweep that does not give P(k)
stops with :class:`BlockRunError`.

:func:`bind` gives the catalogue's namespace one entry per recursion, named as in
:mod:`soagen.dynamics`: the arguments are operators of the chain (vectors N x 1, block
diagonal operators), the result the recursion's output stacked as an operator, so that a
check ``causal_filter(Tp) = Dinv@(I - H@Psi@L)@Tp`` compares the code with the operator
expression whose reading the catalogue proves for every N.

Numbering: the dynamics code numbers bodies base = 0 outwards, the papers links tip = 1 ..
base = N; body i is link k = N - i, and its parent body i - 1 is link k + 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from soagen.backend import quantity_label
from soagen.dynamics import (
    composite,
    coriolis,
    correction,
    filtering,
    forward,
    id_derivatives,
    innovations,
    mass_matrix,
    omega,
    rne,
)
from soagen.dynamics.sweeps import State
from soagen.symbolic.kernel.blocks import BM, IllTyped


class BlockRunError(Exception):
    """A recursion asked the block backend for a step that is not a block operation (an
    element of a block, the inverse of anything but a D(k) of the Riccati sweep)."""


class NotComputed:
    """An operator the code could not compute on the blocks (a chain's U, R, B_c, which its
    constructor takes from the code): every use raises the :class:`BlockRunError`, so the
    checks that use it fail with its message and the others run."""

    __array_ufunc__ = None

    def __init__(self, err: Exception):
        self.err = err

    def _raise(self, *args, **kwargs):
        raise BlockRunError(str(self.err))

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __matmul__ = __rmatmul__ = _raise
    __neg__ = __getitem__ = nonzero_blocks = dense = _raise

    @property
    def T(self):
        self._raise()


def computed(run):
    """run(), or a :class:`NotComputed` if the code does not run on the blocks."""
    try:
        return run()
    except (BlockRunError, IllTyped) as err:
        return NotComputed(err)


JOINTS = "joint space"       # robot.nv of a chain: the stacked joint space, one block per joint


# ----------------------------------------------------------------------------- blocks
class Blk:
    """A row of blocks of one chain instance: one block (a per-body quantity of the
    recursions: H(k), P(k), z(k), ...) or several side by side (the columns of a walk,
    a block row of the identity); entries are field elements (NCPoly or numpy arrays) or
    None for a structural zero, with the row space and the column spaces (the chain's
    dimension labels). Sums and products check the spaces (:class:`IllTyped`)."""

    __array_ufunc__ = None
    __slots__ = ("rows", "cols", "xs")

    def __init__(self, rows, cols: tuple, xs: tuple):
        self.rows, self.cols, self.xs = rows, tuple(cols), tuple(xs)

    @classmethod
    def one(cls, x, rows, col) -> Blk:
        return cls(rows, (col,), (x,))

    @property
    def x(self):
        if len(self.xs) != 1:
            raise BlockRunError("a row of several blocks used as one block")
        return self.xs[0]

    @property
    def shape(self) -> tuple:
        return (self.rows,) + self.cols

    @property
    def T(self) -> Blk:
        x = self.x
        return Blk.one(None if x is None else x.T, self.cols[0], self.rows)

    def _same(self, other, what):
        if not isinstance(other, Blk):
            raise BlockRunError(f"{what} of a block and {type(other).__name__}")
        if self.rows != other.rows or self.cols != other.cols:
            raise IllTyped(f"{what} of a {self.rows} x {self.cols} and a {other.rows} x {other.cols} block")

    def __add__(self, other):
        self._same(other, "sum")
        return Blk(self.rows, self.cols, tuple(y if x is None else x if y is None else x + y
                                               for x, y in zip(self.xs, other.xs)))

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __mul__(self, k):
        if isinstance(k, Blk | np.ndarray):
            return NotImplemented
        return Blk(self.rows, self.cols, tuple(None if x is None else x * k for x in self.xs))

    __rmul__ = __mul__

    def __truediv__(self, k):
        return Blk(self.rows, self.cols, tuple(None if x is None else x / k if isinstance(x, np.ndarray)
                                               else x * Fraction(1, k) for x in self.xs))

    def __matmul__(self, other):
        if not isinstance(other, Blk):
            return NotImplemented
        if self.cols != (other.rows,):
            raise IllTyped(f"product of a {self.rows} x {self.cols} and a {other.rows} x {other.cols} block")
        a = self.x
        return Blk(self.rows, other.cols, tuple(None if a is None or y is None else a @ y for y in other.xs))

    def __getitem__(self, key):
        """``B[:, a:b]``: the blocks a..b-1 of a row (each joint counts one block column)."""
        rows, cols = key
        if rows != slice(None) or not isinstance(cols, slice):
            raise BlockRunError(f"element-level indexing {key!r} of a block")
        return Blk(self.rows, self.cols[cols], self.xs[cols])

    def __array_function__(self, func, types, args, kwargs):
        if func is not np.concatenate:
            raise BlockRunError(f"numpy.{func.__name__} is not a block operation")
        parts, axis = list(args[0]), kwargs.get("axis", args[1] if len(args) > 1 else 0)
        if axis == 1:                        # side by side: the columns of a walk
            if len({p.rows for p in parts}) != 1:
                raise IllTyped("blocks side by side with different row spaces")
            return Blk(parts[0].rows, sum((p.cols for p in parts), ()), sum((p.xs for p in parts), ()))
        return Stacked(parts)                # one per body, stacked: a joint vector or matrix


class Stacked:
    """The joint space of the chain stacked over the bodies (body order): a joint vector
    (each row one block) or a joint matrix (each row a block row over the joints).
    ``x[robot.v_slice(i)]`` is body i's row, ``x[v_slice(i), v_slice(j)] = B`` sets a block."""

    def __init__(self, rows: list):
        self.rows = list(rows)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self.rows[key.start]
        i, j = (k.start for k in key)
        return Blk(self.rows[i].rows, (self.rows[i].cols[j],), (self.rows[i].xs[j],))

    def __setitem__(self, key, value: Blk):
        i, j = (k.start for k in key)
        row = self.rows[i]
        if (value.rows, value.cols) != (row.rows, (row.cols[j],)):
            raise IllTyped(f"a {value.rows} x {value.cols} block set at ({row.rows}, {row.cols[j]})")
        self.rows[i] = Blk(row.rows, row.cols, row.xs[:j] + (value.x,) + row.xs[j + 1:])


# ----------------------------------------------------------------------------- the chain
class _Joint:
    nv = 1                   # a joint is one block column: the walks slice their columns by it
    armature = ()            # no rotor inertia: D(k) = H(k) P(k) H^T(k), the papers' recursions


@dataclass
class _Body:
    parent: int
    nv: object               # the joint's dimension label (for xp.zeros(body.nv))
    m: int = 0
    flex: object = None
    joint: _Joint = _Joint()


@dataclass
class _Tip:
    body: int


class ChainRobot:
    """What the recursions read of a robot, for a serial chain of N links: body i has parent
    i - 1, its joint space is one block (``v_slice(i)`` picks it), the tip frame sits on the
    tip body N - 1."""

    def __init__(self, labels: list):
        self.bodies = [_Body(i - 1, lab) for i, lab in enumerate(labels)]
        self.nb, self.nv, self.tip = len(labels), JOINTS, _Tip(len(labels) - 1)

    def v_slice(self, i: int) -> slice:
        return slice(i, i + 1)


class BlockBackend:
    """The ``xp`` of the recursions on blocks: zeros of the chain's spaces, the inverse of a
    D(k), names ignored (their notes kept, :attr:`notes`), columns transformed together."""

    def __init__(self, ops):
        pr = ops.pr
        self.ops, self.field, self.sdim = ops, pr.field, pr.sdim
        self.one_col = 1 if isinstance(pr.sdim, int) else "1"
        self.joint_labels = tuple(pr.rdim[ops.N - i] for i in range(ops.N))       # body order
        self._D = None
        self.notes: dict = {}

    def _label(self, d):
        return self.sdim if d == 6 else d

    def zeros(self, shape):
        if shape == JOINTS:
            return Stacked([Blk.one(None, r, self.one_col) for r in self.joint_labels])
        if shape == (JOINTS, JOINTS):
            n = len(self.joint_labels)
            return Stacked([Blk(r, self.joint_labels, (None,) * n) for r in self.joint_labels])
        shape = shape if isinstance(shape, tuple) else (shape,)
        cols = tuple(self._label(c) for c in shape[1:]) or (self.one_col,)
        return Blk(self._label(shape[0]), cols, (None,) * len(cols))

    def eye(self, n):
        if n != JOINTS:
            raise BlockRunError(f"an identity of {n} elements is not a block operator")
        labels = self.joint_labels
        return Stacked([Blk(r, labels, tuple(self.field.one(r) if j == i else None for j in range(len(labels))))
                        for i, r in enumerate(labels)])

    def inv(self, D: Blk) -> Blk:
        """D^-1(k) for the D(k) = H(k) P(k) H^T(k) of a joint (4.6); numbers: the inverse."""
        if isinstance(D.x, np.ndarray):
            return Blk.one(np.linalg.inv(D.x), D.rows, D.cols[0])
        pr = self.ops.pr
        if self._D is None:
            self._D = {k: pr.H[k] @ pr.P[k] @ pr.H[k].T for k in range(1, self.ops.N + 1)}
        for k, Dk in self._D.items():
            if D.x is not None and D.x.terms == Dk.terms:
                return Blk.one(pr.Dinv[k], D.rows, D.cols[0])
        raise BlockRunError(f"{D.x!r} is not D(k) = H(k) P(k) H^T(k) of a joint (4.6): the Riccati sweep "
                            "does not give P(k)")

    def solve(self, A, b):
        return self.inv(A) @ b

    def name(self, x, label, body=None, symmetric=False, note=None):
        label = quantity_label(label, body)
        if note:
            self.notes[label] = note
        return x

    def columns(self, f, blocks, label, note=None, name_inputs=False, body=None):
        return self.name(f(*blocks), label, note=note)

    def _element(self, *args, **kwargs):
        raise BlockRunError("an element-level step (constants, sin, cos) in a recursion run on blocks: "
                            "it belongs behind a State method")

    constant = asarray = sin = cos = sqrt = _element


@dataclass
class BlockJointRates:
    """The joint rates of docs/derivatives.md as the algebra's free blocks: S(k) = H^T(k),
    S_dot(k), Psi_dot(k), Psi_ddot(k) (D.4)-(D.6), and f(k) xbar* H^T(k) = fbar(k) H^T(k)."""

    S: list
    S_dot: list
    Psi_dot: list
    Psi_ddot: list
    fbars: list

    def fbar(self, k, f):
        return self.fbars[k] @ self.S[k]


@dataclass
class BlockCompositeRates:
    """R(k) and the composite Coriolis operator B_c(k), both by the composite sweep (a.44) of
    the code (:func:`~soagen.dynamics.composite.composite_inertias`), of M(k) and of the
    algebra's free body Coriolis operator B(k) (D.2)-(D.3)."""

    R: list
    Bc: list

    def twice_B(self, k, x):
        return (self.Bc[k] @ x) * 2

    def twice_BT(self, k, y):
        return (self.Bc[k].T @ y) * 2


class BlockState(State):
    """A :class:`~soagen.dynamics.sweeps.State` of blocks: H(k), M(k), a(k), b(k) and
    X[i] = phi(k+1, k) of one chain instance; each State method is the operator it implements."""

    def __init__(self, ops, xp: BlockBackend, a=None, b=None):
        N, pr = ops.N, ops.pr
        link = [N - i for i in range(N)]              # body i -> link k
        S = pr.sdim
        blk = Blk.one
        super().__init__(X=[blk(pr.phi1[k], S, S) for k in link],
                         H=[blk(pr.H[k], pr.rdim[k], S) for k in link],
                         M=[blk(pr.M[k], S, S) for k in link],
                         V=[None] * N, a=bodies(ops.a if a is None else a), robot=ChainRobot(list(xp.joint_labels)),
                         xp=xp)
        self.ops, self.link = ops, link
        self.bias = bodies(ops.b if b is None else b)
        self.B = blk(pr.phi1[0], S, S)                # phi(1, 0): B (3.7)

    def b(self, i):
        return self.bias[i]

    def up(self, i, f):
        return self.X[i] @ f

    def down(self, i, x):
        return self.X[i].T @ x

    def phi(self, i):
        return self.X[i]

    def shift_inertia(self, i, X, rigid):
        return self.X[i] @ X @ self.X[i].T

    def named_inertia(self, i, X, label, note, rigid):
        return self.xp.name(X, label, body=i, note=note)

    def tip_force(self, f0):
        return self.B @ f0

    def frame_forces(self, frames, f):
        if [fr.body for fr in frames] != [self.robot.tip.body]:
            raise BlockRunError("on a chain of blocks the only frame is the tip O(0)")
        x = [self.xp.zeros(6) for _ in range(self.robot.nb)]
        x[self.robot.tip.body] = self.tip_force(f)
        return x

    def _rate(self, name, cols):
        pr, S = self.ops.pr, self.ops.pr.sdim
        return [Blk.one(pr.rates[name][k], S, cols(k)) for k in self.link]

    def joint_rates(self, qd, alpha=None, qdd=None):
        pr = self.ops.pr
        joint = pr.rdim.__getitem__
        return BlockJointRates([h.T for h in self.H], self._rate("Sdot", joint), self._rate("Psidot", joint),
                               self._rate("Psiddot", joint) if alpha is not None else None,
                               self._rate("fbar", lambda k: pr.sdim))

    def composite_rates(self):
        Bcor = self._rate("Bcor", lambda k: self.ops.pr.sdim)
        return BlockCompositeRates(
            composite.composite_inertias(self, self.M, "Rc", composite.COMPOSITE_INERTIA),
            composite.composite_inertias(self, Bcor, "Bc", "composite Coriolis operator B_c(k)"))


# ----------------------------------------------------------------------------- operators <-> bodies
def bodies(op: BM) -> list:
    """The per-body blocks of an N x 1 vector or of a block-diagonal operator (body order)."""
    N = len(op.rdims)
    if len(op.cdims) == 1:
        return [Blk.one(op.b[N - 1 - i][0], op.rdims[N - 1 - i], op.cdims[0]) for i in range(N)]
    return [Blk.one(op.b[N - 1 - i][N - 1 - i], op.rdims[N - 1 - i], op.cdims[N - 1 - i]) for i in range(N)]


def single(op: BM) -> Blk:
    """A 1 x 1 operator (f(0), g) as one block."""
    return Blk.one(op.b[0][0], op.rdims[0], op.cdims[0])


def vector(ops, xs: list) -> BM:
    """Per-body blocks (body order) stacked as an N x 1 operator (link order)."""
    N = len(xs)
    ks = range(N - 1, -1, -1)
    return BM(ops.pr.field, [xs[i].rows for i in ks], list(xs[0].cols), [[xs[i].x] for i in ks])


def diagonal(ops, xs: list) -> BM:
    """Per-body square blocks (body order) as a block-diagonal operator (link order)."""
    ks = range(len(xs) - 1, -1, -1)
    return BM.diag(ops.pr.field, [xs[i].rows for i in ks], [xs[i].cols[0] for i in ks], [xs[i].x for i in ks])


def matrix(ops, m: Stacked) -> BM:
    """A joint matrix (body order) as an N x N operator (link order)."""
    ks = range(len(m.rows) - 1, -1, -1)
    rows = [m.rows[i] for i in ks]
    return BM(ops.pr.field, [r.rows for r in rows], [rows[0].cols[j] for j in ks], [[r.xs[j] for j in ks] for r in rows])


def joints(x: BM) -> Stacked:
    return Stacked(bodies(x))


@dataclass
class Innovations:
    """The Riccati sweep's output as block-diagonal operators (P, D, D^-1, G)."""

    P: BM
    D: BM
    Dinv: BM
    G: BM


# ----------------------------------------------------------------------------- the namespace
CODE = {"riccati": innovations.riccati, "accelerations": rne.accelerations,
        "composite_forces": composite.composite_forces, "rne": rne.rne, "causal_filter": filtering.causal_filter,
        "anticausal_smoother": filtering.anticausal_smoother, "link_accelerations": forward.link_accelerations,
        "fd1": forward.fd1, "fd2": forward.fd2, "fd3": forward.fd3, "fd4": forward.fd4,
        "inverse_mass_matrix": forward.inverse_mass_matrix, "mass_matrix": mass_matrix.mass_matrix,
        "composite_inertias": composite.composite_inertias, "upsilon": omega.upsilon,
        "correction": correction.correction, "coriolis_matrix": coriolis.coriolis_matrix,
        "id_derivatives": id_derivatives.id_derivatives}
"""The namespace name of each recursion and the function of soagen.dynamics it runs."""


def describe(name: str) -> str:
    """'soagen.dynamics.filtering.causal_filter on the blocks: <first line of its docstring>'."""
    fn = CODE[name]
    return f"{fn.__module__}.{fn.__name__} on the blocks: {(fn.__doc__ or '').strip().splitlines()[0]}"


def bind(ops) -> dict:
    """The recursions of soagen.dynamics as namespace entries on one chain instance
    (see the module docstring); each runs on a fresh :class:`BlockState`."""
    def state(a=None, b=None):
        xp = BlockBackend(ops)
        return BlockState(ops, xp, a, b)

    def riccati():
        s = state()
        inn = innovations.riccati(s)
        return Innovations(*(diagonal(ops, x) for x in (inn.P, inn.D, inn.Dinv, inn.G)))

    def filter_smoother(fn):
        def go(x, *extra):
            s = state()
            inn = innovations.riccati(s)
            return fn(s, inn, bodies(x), *extra)
        return go

    def accelerations(thdd, a):
        s = state(a=a)
        return vector(ops, rne.accelerations(s, joints(thdd)))

    def composite_forces(x):
        s = state()
        return vector(ops, composite.composite_forces(s, bodies(x), "f", ""))

    def rne_(thdd, f0):
        s = state()
        return vector(ops, rne.rne(s, joints(thdd), single(f0)))

    def causal_filter(T):
        return vector(ops, filter_smoother(filtering.causal_filter)(T))

    def anticausal_smoother(nu):
        qdd, lam = filter_smoother(filtering.anticausal_smoother)(nu)
        return vector(ops, qdd), vector(ops, lam)

    def link_accelerations(lam):
        s = state()
        return vector(ops, forward.link_accelerations(s, bodies(lam)))

    def fd(fn):
        def go(T, f0):
            s = state()
            qdd, second = fn(s, joints(T), single(f0))
            return vector(ops, qdd), vector(ops, second)
        return go

    def inverse_mass_matrix():
        s = state()
        return matrix(ops, forward.inverse_mass_matrix(s))

    def mass_matrix_():
        s = state()
        return matrix(ops, mass_matrix.mass_matrix(s))

    def composite_inertias(X):
        s = state()
        return diagonal(ops, composite.composite_inertias(s, bodies(X), "R", composite.COMPOSITE_INERTIA))

    def upsilon():
        s = state()
        return diagonal(ops, omega.upsilon(s, innovations.riccati(s)))

    def correction_(f0):
        s = state()
        return vector(ops, correction.correction(s, [s.robot.tip], single(f0)).rows)

    def coriolis_matrix():
        s = state()
        return matrix(ops, coriolis.coriolis_matrix(s, None))

    def id_derivatives_(thdd):
        s = state()
        dq, dqd = id_derivatives.id_derivatives(s, None, joints(thdd))
        return matrix(ops, dq), matrix(ops, dqd)

    out = {"riccati": riccati, "accelerations": accelerations, "composite_forces": composite_forces,
           "rne": rne_, "causal_filter": causal_filter, "anticausal_smoother": anticausal_smoother,
           "link_accelerations": link_accelerations, "fd1": fd(forward.fd1), "fd2": fd(forward.fd2),
           "fd3": fd(forward.fd3), "fd4": fd(forward.fd4), "inverse_mass_matrix": inverse_mass_matrix,
           "mass_matrix": mass_matrix_, "composite_inertias": composite_inertias, "upsilon": upsilon,
           "correction": correction_, "coriolis_matrix": coriolis_matrix, "id_derivatives": id_derivatives_}
    assert out.keys() == CODE.keys()
    return out
