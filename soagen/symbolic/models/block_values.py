"""The block language of :mod:`soagen.symbolic.engines.indexed` evaluated on one chain instance: block
letters, the sums of the papers' proofs and the printed loops of :mod:`soagen.symbolic.engines.loops`.

A printed loop has one text, its equations in :data:`~soagen.symbolic.engines.loops.LOOPS`: its
reading is proved from them for every N (:mod:`soagen.symbolic.evidence.block_records`, the checker
trusts them), and the per-N engine and the numeric instances run the same equations here,
block by block for N = 1..k (:func:`loop`). So do the printed loops that no operator
equation reads (:data:`~soagen.symbolic.engines.loops.MISPRINTED`: ill-typed, or skipping an index),
which the catalogue refutes, and the sums of the proofs (:func:`lower`, :func:`diagonal`,
:func:`single`), written as :mod:`soagen.symbolic.evidence.block_records` proves them.

A word of letters is typed by the block families (:meth:`~soagen.symbolic.engines.indexed.Letters.word_type`),
so a printed loop whose product does not conform raises :class:`IllTyped` at the first N
where the product occurs. The code that runs has no text here:
:mod:`soagen.symbolic.models.block_state` runs :mod:`soagen.dynamics` itself on the blocks.
"""

from __future__ import annotations

import re

import numpy as np

from soagen.symbolic.engines import loops as LP
from soagen.symbolic.engines import nfree
from soagen.symbolic.engines.indexed import (
    _FAM,
    _OPQ,
    _SUM,
    BlockStatementError,
    Ix,
    Letters,
    ix,
    parse_facts,
)
from soagen.symbolic.kernel.blocks import BM, IllTyped


def _letters(loops) -> Letters:
    fams = dict(LP.FAMILIES)
    for lp in loops:
        for t in lp.inputs:
            f = LP.input_family(t)
            fams.setdefault(f.name, f)
        fams[lp.state] = LP.loop_family(lp)
    return Letters(fams, dict(nfree.algebra("chain").types))


def _scaled(x, c):
    if c == 1:
        return x
    return x * (float(c) if isinstance(x, np.ndarray) else c)


class Blocks:
    """Letters of one chain instance (:class:`~soagen.symbolic.models.chain.ChainOps`) and the states
    of the loops run on it so far."""

    def __init__(self, ops, loops=()):
        self.ops, self.pr, self.N = ops, ops.pr, ops.N
        self.letters = _letters(loops)
        self.states: dict = {}

    # -- spaces ------------------------------------------------------------------------------
    def label(self, space: str):
        """The chain's dimension label of a block space: 6, 1, j(k), f(k), u(k)."""
        pr = self.pr
        m = re.match(r"^([jfu])\((\d+)\)$", space)
        if m:
            k = int(m.group(2))
            return {"j": pr.rdim, "f": pr.flex.get("nodes", {}), "u": pr.flex.get("free", {})}[m.group(1)][k]
        return {"6": pr.sdim, "1": 1 if isinstance(pr.sdim, int) else "1"}[space]

    def env(self, **idx) -> dict:
        return {"N": Ix(None, self.N), **{v: Ix(None, k) for v, k in idx.items()}}

    # -- values ------------------------------------------------------------------------------
    def poly(self, p: dict):
        """The value of a polynomial over letters with integer indices (None: zero)."""
        out = None
        for w, c in p.items():
            try:
                self.letters.word_type(w)
            except BlockStatementError as err:
                raise IllTyped(str(err)) from None
            x = self.word(w)
            if x is not None:
                x = _scaled(x, c)
                out = x if out is None else out + x
        return out

    def word(self, w):
        if not w:
            raise BlockStatementError("a bare scalar is not a block")
        out = None
        for letter in w:
            x = self.letter(letter)
            if x is None:
                return None
            out = x if out is None else out @ x
        return out

    def letter(self, text: str):
        m = _SUM.match(text)
        if m:
            var, lo, hi, body = m.groups()
            out = None
            for v in range(ix(lo).c, ix(hi).c + 1):
                x = self.poly(self.letters.poly(body, self.env(**{var: v}), compact=True))
                if x is not None:
                    out = x if out is None else out + x
            return out
        m = _OPQ.match(text)
        if m:
            word, k, t = m.groups()
            op = None
            for g in word.split("*"):
                x = getattr(self.ops, g[:-2]).T if g.endswith("^T") else getattr(self.ops, g)
                op = x if op is None else op @ x
            x = op.b[ix(k).c - 1][0]
            return None if x is None else (x.T if t else x)
        m = _FAM.match(text)
        name, args, t = m.group(1), [ix(a).c for a in (m.group(2) or "").split(",") if a], m.group(3)
        x = self._family(name, args)
        return None if x is None else (x.T if t else x)

    def _family(self, name, args):
        ops, pr = self.ops, self.pr
        if name in self.states:
            return self.states[name][args[0]]
        if name in ("phi", "psi", "chi"):
            steps = {"phi": pr.phi1, "psi": ops.psi1, "chi": pr.chi1}[name]
            return ops._blk(steps, *args)
        if name in ("H", "P", "M", "Dinv"):
            return getattr(pr, name)[args[0]]
        if name in ("G", "L"):
            return getattr(ops, name)[args[0], args[0]]
        if name in ("Bf", "Cf", "h", "m", "u"):
            return pr.flex[name][args[0]]
        if name == "apC":
            return pr.extra["apC"][0]
        if name in pr.vec:
            return pr.vec[name][args[0] if args else 0]
        raise BlockStatementError(f"no value for the block letter {name}")

    # -- the printed loops ---------------------------------------------------------------------
    def run(self, lp: LP.Loop) -> None:
        """Run a printed loop from its equations: block k of its state, in the order the
        equations allow (tip to base, base to tip, or each k alone)."""
        order = range(self.N, 0, -1) if any(e.id.endswith(".last") for e in lp.equations) else range(1, self.N + 1)
        self.states[lp.state] = out = {}
        for k in order:
            eq = self._equation(lp, k)
            out[k] = self.poly(self.letters.poly(eq.rhs, self.env(k=k)))

    def _equation(self, lp, k):
        for eq in lp.equations:
            env = self.env(k=k)
            if all(ix(a).subst(env).c <= ix(b).subst(env).c for a, b in parse_facts(eq.where)):
                return eq
        raise BlockStatementError(f"{lp.id}: no equation for k = {k}")

    def operator(self, name: str, family: str) -> BM:
        """The state `name` as an operator: an N x 1 vector, or block diagonal."""
        f = LP.input_family(family)
        rows = [self.label(f.type_at((Ix(None, k),))[0]) for k in range(1, self.N + 1)]
        entries = [self.states[name][k] for k in range(1, self.N + 1)]
        if f.dom == "1":
            return BM(self.pr.field, rows, [self.label("1")], [[x] for x in entries])
        return BM.diag(self.pr.field, rows, rows, entries)

    # -- the sums of the proofs -----------------------------------------------------------------
    def at(self, text: str, **idx):
        """(value, (cod, dom) labels) of one letter at integer indices."""
        letter = self.letters.canon(text, self.env(**idx))
        try:
            cod, dom = self.letters.type_of(letter)
        except BlockStatementError as err:
            raise IllTyped(str(err)) from None
        return self.letter(letter), (self.label(cod), self.label(dom))


BY_ID = {lp.id: lp for lp in LP.LOOPS + LP.MISPRINTED}


def loop(ops, *ids) -> BM:
    """The state of the last of the loops `ids` (each reading the states of those before it)."""
    loops = [BY_ID[i] for i in ids]
    b = Blocks(ops, loops)
    for lp in loops:
        b.run(lp)
    return b.operator(loops[-1].state, loops[-1].family)


def lower(ops, text: str) -> BM:
    """The strictly lower block-triangular operator whose block (k, m), m < k, is the letter
    `text` (in the indices k and m), e.g. a telescoping sum of Part I (a.19)-(a.31)."""
    b = Blocks(ops)
    out = BM.zeros(ops.pr.field, ops.S_dims, ops.S_dims)
    for k in range(1, ops.N + 1):
        for m in range(1, k):
            out.b[k - 1][m - 1] = b.at(text, k=k, m=m)[0]
    return out


def diagonal(ops, text: str) -> BM:
    """The block-diagonal operator whose block (k, k) is the letter `text` (in k)."""
    b = Blocks(ops)
    vals = [b.at(text, k=k) for k in range(1, ops.N + 1)]
    return BM.diag(ops.pr.field, [t[0] for _, t in vals], [t[1] for _, t in vals], [x for x, _ in vals])


def single(ops, text: str) -> BM:
    """The letter `text` (no free index but N) as a 1 x 1 operator."""
    x, (cod, dom) = Blocks(ops).at(text)
    return BM(ops.pr.field, [cod], [dom], [[x]])


def bind(ops) -> dict:
    """Namespace entries on one chain instance: loop(id, ...), lower(text), diagonal(text), single(text)."""
    return {"loop": lambda *ids: loop(ops, *ids), "lower": lambda text: lower(ops, text),
            "diagonal": lambda text: diagonal(ops, text), "single": lambda text: single(ops, text)}

