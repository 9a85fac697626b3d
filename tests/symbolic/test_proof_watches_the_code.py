"""The proof watches the code: scaling any single term of any recursion of soagen.dynamics by
1.001 (a 0.1% change, as in issue 36) makes the per-N engine of `soagen verify` fail.

Each mutant is made in memory: the recursion's source is parsed, one operand of a sum or
product (or one quantity the recursion names, the first argument of ``xp.name``) is wrapped
in ``__mutant__``, which scales a block by 1.001, and the function's code object is replaced
for the duration of the check. Only the records that run the mutated function are checked
(those whose checks call a recursion of :mod:`soagen.symbolic.models.block_state` that reaches it),
on fresh symbolic chains of N = 2, 3, 1 links, through the same check verify runs
(:func:`soagen.symbolic.evidence.verify.valid_checks`, :func:`~soagen.symbolic.evidence.verify.check_symbolic`).

A site whose value is not a block (an integer shape, ``[None] * robot.nb``) is not a term;
a site that no chain runs at all would be a term verify cannot watch, and fails the test.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import textwrap
from pathlib import Path

import pytest

import soagen.dynamics
from soagen.symbolic.evidence.catalogue import CATALOGUE
from soagen.symbolic.evidence.verify import check_symbolic, valid_checks
from soagen.symbolic.models import block_state
from soagen.symbolic.models.block_state import Blk
from soagen.symbolic.models.chain import chain_namespace, symbolic_chain

SCALE = 1.001
ORDER = (2, 3, 1)                  # chain lengths tried, the most telling first

# the recursion files verify proves, and the functions in them whose terms it must watch
WATCHED = {
    "innovations.py": ("riccati",),
    "filtering.py": ("causal_filter", "anticausal_smoother"),
    "rne.py": ("newton_euler", "accelerations"),
    "composite.py": ("composite_inertias", "composite_forces"),
    "sweeps.py": ("anticausal_propagate",),
    "forward.py": ("_with_tip_force", "fd1", "link_accelerations", "fd3", "fd4", "inverse_mass_matrix"),
    "mass_matrix.py": ("mass_matrix",),
    "omega.py": ("psi_step", "upsilon"),
    "coriolis.py": ("coriolis_matrix",),
    "id_derivatives.py": ("id_derivatives",),
}
# the other files of soagen.dynamics, and why verify does not watch their terms
NOT_WATCHED = {
    "__init__.py": "no code",
    "correction.py": "a composition of the Riccati sweep, the forces at frames and the filter and smoother, without "
                     "terms of its own (II-6.4 and FW-A.6 check it)",
    "kinematics.py": "link transforms, velocities and bias accelerations: element-level physics (rotations, cross "
                     "products), checked against Pinocchio and the dense operators",
    "inertia.py": "spatial inertias and their 10-parameter shift: element level (tests/dynamics/test_ldl.py)",
    "tip.py": "forces at frames carried to the bodies: element level (the B of the blocks is State.tip_force)",
    "rates.py": "the cross products of the joint and composite rates: element level, finite differences and Pinocchio",
    "jacobian.py": "the Jacobian in world axes: element level, checked against Pinocchio",
    "ldl.py": "the LDL^T factors of M: linear algebra, not a sweep of the papers",
    "fd_derivatives.py": "a composition of M^-1, RNE and the ID derivatives (D.19), a matrix theory (D-19)",
    "energy.py": "the kinetic and potential energy, checked by the Lagrange equations",
    "regressor.py": "the regressor of the inertial parameters, checked against RNE",
    "base_parameters.py": "the base parameters, numerical rank, checked against the regressor",
    "elastic.py": "the joint-space elastic forces of flexible bodies",
    "armature.py": "the rotors' J_m added to the joint-space blocks D(k) and M(k, k): not in the papers, zero on "
                   "their chains (docs/derivations/armature.md proves the factorization with it for every N; the "
                   "dense operators and Pinocchio check it)",
    "flexible.py": "the modal kinematics of flexible bodies (framework Section 4 is the nodal form, proved apart)",
    "frames.py": "frame placements, velocities and classical accelerations from the link poses, V and alpha: element "
                 "level (shifts, cross products), checked against Pinocchio, the dense operators, central differences",
    "centroidal.py": "the composite inertias and RNE forces (watched in composite.py, rne.py) shifted to the centre of "
                     "mass: element level, checked against Pinocchio and the dense operators (soagen derive centroidal)",
    "loops.py": "a composition of FD2, the frame accelerations, Lambda at the frames and the correction (framework steps "
                "(A)-(F)) with a dense solve of (3.11): checked against the KKT system, the corrected (3.13) on the "
                "dense operators and Pinocchio's constraintDynamics",
    "newton.py": "Gauss-Newton and the velocity projection onto closures: numerics, not a sweep of the papers",
}
# ChainOps operators the constructor computes with the code (soagen.symbolic.models.chain)
BUILT_BY_CODE = {"U": "upsilon", "R": "composite_inertias", "Bcor_c": "composite_inertias"}

DYNAMICS = Path(soagen.dynamics.__file__).parent


def test_every_dynamics_file_is_watched_or_excused():
    files = {p.name for p in DYNAMICS.glob("*.py")}
    assert files == set(WATCHED) | set(NOT_WATCHED), \
        f"new or removed files of soagen.dynamics: {sorted(files ^ (set(WATCHED) | set(NOT_WATCHED)))}"


# ----------------------------------------------------------------------------- which records run what
def _names(expr: str) -> set:
    return {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}


def _called(binding: str) -> set:
    """(module, function) of soagen.dynamics that one binding runs on a chain of 2 links."""
    ns = chain_namespace(symbolic_chain(2))
    seen = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(str(DYNAMICS)):
            seen.add((Path(frame.f_code.co_filename).name, frame.f_code.co_name))
    args = {"riccati": (), "inverse_mass_matrix": (), "mass_matrix": (), "upsilon": (), "coriolis_matrix": (),
            "composite_inertias": (ns["M"],), "correction": (ns["f0"],), "id_derivatives": (ns["thdd"],),
            "accelerations": (ns["thdd"], ns["a"]), "rne": (ns["thdd"], ns["f0"]),
            "link_accelerations": (ns["a"],)}.get(binding)
    if args is None:
        args = (ns["T"], ns["f0"]) if binding.startswith("fd") else (ns["T"] if binding in ("causal_filter",
                                                                                       "anticausal_smoother")
                                                                         else ns["y"],)
    sys.setprofile(profile)
    try:
        ns[binding](*args)
    finally:
        sys.setprofile(None)
    return seen


@pytest.fixture(scope="module")
def runs_of():
    """(file, function) -> the chain records whose per-N checks run it."""
    called = {b: _called(b) for b in block_state.CODE}
    out: dict = {}
    for rec in CATALOGUE:
        if rec.theory != "chain":
            continue
        names = set()
        for lhs, rhs in valid_checks(rec) + tuple((n, e) for n, e in rec.let):
            names |= _names(lhs) | _names(rhs)
        bindings = {n for n in names if n in block_state.CODE} | {BUILT_BY_CODE[n] for n in names & set(BUILT_BY_CODE)}
        for b in bindings:
            for site in called[b]:
                out.setdefault(site, []).append(rec)
    return out


# ----------------------------------------------------------------------------- mutants
class _Sites(ast.NodeTransformer):
    """Wrap the `target`-th site (operand of + - @ * /, or the value named by xp.name) in __mutant__;
    count the sites."""

    def __init__(self, target=-1):
        self.target, self.n = target, 0

    def _site(self, node):
        i, self.n = self.n, self.n + 1
        if i == self.target:
            return ast.Call(ast.Name("__mutant__", ast.Load()), [node], [])
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Add | ast.Sub | ast.MatMult | ast.Mult):
            node.left, node.right = self._site(node.left), self._site(node.right)
        elif isinstance(node.op, ast.Div):
            node.left = self._site(node.left)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "name" and node.args:
            node.args[0] = self._site(node.args[0])
        return node


def _function(module, name):
    fn = getattr(module, name)
    src = textwrap.dedent(inspect.getsource(fn))
    return fn, ast.parse(src)


def _sites(module, name) -> int:
    _, tree = _function(module, name)
    t = _Sites()
    t.visit(tree)
    return t.n


class _Mutant:
    def __init__(self):
        self.ran = self.reached = False

    def __call__(self, x):
        self.ran = True
        if isinstance(x, Blk):
            self.reached = True
            return x * SCALE
        return x


def _caught(module, name, site, records):
    """(ran, reached, caught, where) of one mutant, checked on the records that run the function:
    whether the site ran, whether it was a block, whether a check failed and which."""
    fn, tree = _function(module, name)
    _Sites(site).visit(tree)
    ast.fix_missing_locations(tree)
    scratch = dict(vars(module))
    exec(compile(tree, inspect.getsourcefile(module), "exec"), scratch)     # noqa: S102 - our own source
    mutant, saved = _Mutant(), fn.__code__
    module.__dict__["__mutant__"] = mutant
    fn.__code__ = scratch[name].__code__
    try:
        for N in ORDER:
            ns = chain_namespace(symbolic_chain(N))          # fresh: the constructor runs the code too
            for rec in records:
                if N < rec.nmin:
                    continue
                r = check_symbolic(valid_checks(rec), rec.let, ns)
                if not r.ok:
                    return mutant.ran, mutant.reached, True, f"{rec.id} at N={N}"
        return mutant.ran, mutant.reached, False, ""
    finally:
        fn.__code__ = saved
        del module.__dict__["__mutant__"]


def _unmutated_hold(records):
    for N in ORDER:
        ns = chain_namespace(symbolic_chain(N))
        for rec in records:
            if N >= rec.nmin:
                assert check_symbolic(valid_checks(rec), rec.let, ns).ok, rec.id


@pytest.mark.parametrize("file", sorted(WATCHED))
def test_every_term_is_watched(file, runs_of):
    module = importlib.import_module(f"soagen.dynamics.{file[:-3]}")
    missed, unrun, reached_total = [], [], 0
    for name in WATCHED[file]:
        records = runs_of.get((file, name), [])
        assert records, f"no record of the catalogue runs {file}:{name}"
        _unmutated_hold(records)
        for site in range(_sites(module, name)):
            ran, reached, caught, _ = _caught(module, name, site, records)
            reached_total += reached
            if not ran:
                unrun.append(f"{name} site {site}")
            elif reached and not caught:
                missed.append(f"{name} site {site}")
    assert reached_total > 0, f"{file}: no term of its recursions runs on the blocks"
    assert not unrun, f"{file}: terms no chain of the catalogue runs: {unrun}"
    assert not missed, f"{file}: terms scaled by {SCALE} and not caught by verify: {missed}"


# ----------------------------------------------------------------------------- equation labels
# a quantity the code names (its label without the body index) -> the pinned loop that prints its
# recursion; the code's note (the comment of the generated code) must cite that loop's equation
CITES = {"z": "loop-4.20", "nu": "loop-4.20", "lam": "loop-4.22", "qdd": "loop-4.22", "alpha": "loop-2.26",
         "f": "loop-2.29", "zeta": "loop-4.22b-zeta", "Ups": "loop-A.5"}


def test_the_code_cites_the_loops_it_is_proved_by():
    """One source for an equation number: the label the code prints for a quantity is the number of
    the pinned loop (soagen.symbolic.engines.loops) whose reading verify proves it by (the smoother's
    lambda(k) is (4.22); (4.21) is lambda(N+1) = 0)."""
    import re

    from soagen.dynamics import filtering, forward, innovations, omega, rne
    from soagen.symbolic.models.block_state import BlockBackend, BlockState, joints

    ops = symbolic_chain(3)
    xp = BlockBackend(ops)
    s = BlockState(ops, xp)
    inn = innovations.riccati(s)
    nu = filtering.causal_filter(s, inn, joints(ops.T).rows)
    _, lam = filtering.anticausal_smoother(s, inn, nu)
    forward.link_accelerations(s, lam)
    rne.newton_euler(s, joints(ops.thdd))
    omega.upsilon(s, inn)
    notes = {re.sub(r"\d+$", "", label): note for label, note in xp.notes.items()}
    for quantity, loop_id in CITES.items():
        number = loop_id.split("-", 1)[1].split("-")[0]
        assert f"({number})" in notes[quantity], f"{quantity}: '{notes[quantity]}' does not cite ({number}) of {loop_id}"
