"""Block-level proofs for every N: an operator equation block by block, and the statements with
explicit block indices by induction over an index.

Two kinds of proof, both ending in certificates the checker reads (:mod:`.certificate`):

* **block by block** (:func:`prove_by_blocks`): an operator equation whose operators are all
  block-sparse (shifts, block-diagonal operators, B, E, vectors; the defined symbols replaced
  by their definitions) holds for every N when every block does: the positions are grouped by
  the shift col - row of the words, each group's rows split into cases at the boundary (the
  first or last link), and in each case block k of both sides (:func:`soagen.symbolic.engines.indexed.expand`)
  is shown equal with the block relations and the loop the equation reads.  This proves the
  reading of every printed loop (:data:`soagen.symbolic.engines.loops.LOOPS`) and the chain-shape
  statements of `soagen prove` (E_phi S^T S = E_phi, ...);
* **by index** (:class:`Lemma`): a statement about blocks with symbolic indices, directly or
  by induction over one index (the telescoping sums of Part I (a.19)-(a.31), Lemma A.1's sum,
  Part II (6.9)-(6.10)), each step the papers' own (split off the last term of a sum, the
  semigroup rule, psi(k+1, k) = phi(k+1, k) - L(k) H(k)).

Each step is an identity among letters: the target is written as ``sum c u relation v`` by
the traced rewriting of :mod:`soagen.symbolic.kernel.rewriting`, with the relation instances of the
step (the ones a proof names, plus the definitions and units its letters need) as rules,
weighted so that each rewrites its left side to smaller words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from soagen.symbolic.engines import loops as LP
from soagen.symbolic.engines import nfree
from soagen.symbolic.engines.indexed import (
    LINK_SPACES,
    SINGLE,
    BlockStatementError,
    Context,
    Ix,
    Letters,
    expand,
    ix,
    parse_facts,
    word_shift,
)
from soagen.symbolic.kernel import statement
from soagen.symbolic.kernel.rewriting import Order, Rule, acc, complete, padd


class BlockProofError(ValueError):
    """A block-level step that the named relations do not prove."""


# ----------------------------------------------------------------------------- the world
class World:
    """The families, patterns and relations of one proof: the pinned ones, the declared loops
    (each state possibly renamed) and the record's unknowns."""

    def __init__(self, loops=(), rename=None):
        alg = nfree.algebra("chain")
        self.alg = alg
        self.rename = dict(rename or {})
        fams = dict(LP.FAMILIES)
        self.loops = [LP.BY_ID[i] for i in loops]
        self.equations = {}
        for lp in self.loops:                  # each state defined once (another loop may read it)
            name = self.rename.get(lp.id, lp.state)
            if name in fams and fams[name].meaning != "computed by another loop":
                raise BlockProofError(f"family {name} defined twice")
            fams[name] = LP.loop_family(lp, name)
            for eq in lp.equations:
                lhs = eq.lhs.replace(f"{lp.state}(", f"{name}(")
                rhs = re.sub(rf"\b{lp.state}\(", f"{name}(", eq.rhs)
                self.equations[eq.id] = LP.BlockRelation(eq.id, eq.params, eq.where, lhs, rhs, lp.printed)
            for t in lp.inputs:
                f = LP.input_family(t)
                fams.setdefault(f.name, f)                                  # a state declared later replaces it
        self.families = fams
        self.transpose_of = dict(alg.transpose_of)
        self.op_types = dict(alg.types)
        self.patterns = dict(LP.PATTERNS)
        for f in fams.values():
            if f.meaning.startswith("computed by"):
                self.patterns[f.name] = LP.Pattern("diag" if f.dom == "6" else "vector", f"{f.name}(k)")
                sp, dom = operator_space(f.cod), operator_space(f.dom)
                self.op_types[f.name], self.op_types[f.name + "^T"] = (sp, dom), (dom, sp)
                self.transpose_of.setdefault(f.name, f.name + "^T")
                self.transpose_of.setdefault(f.name + "^T", f.name)
        self.letters = Letters(fams, self.op_types)
        self.relations = {r.id: r for r in LP.RELATIONS} | self.equations
        self.definitions = _definitions(alg)

    # -- operator side -----------------------------------------------------------------------
    def primitive(self, poly: dict) -> dict:
        """The polynomial with every generator that has no block pattern but a definition
        replaced by its definition (transposed for a transpose), until none is left."""
        out = dict(poly)
        for _ in range(50):
            nxt: dict = {}
            changed = False
            for w, c in out.items():
                parts = [{(): Fraction(1)}]
                for g in w:
                    rep = self._definition_of(g)
                    changed |= rep is not None
                    q = rep if rep is not None else {(g,): Fraction(1)}
                    parts = [_pmul(parts[0], q)]
                acc(nxt, parts[0], c)
            out = nxt
            if not changed:
                return out
        raise BlockProofError("definitions do not terminate")

    def _definition_of(self, g):
        if g in self.patterns or self.transpose_of.get(g) in self.patterns:
            return None
        if g in self.definitions:
            return self.definitions[g]
        t = self.transpose_of.get(g)
        if t in self.definitions:
            return {tuple(self.transpose_of[x] for x in reversed(w)): c for w, c in self.definitions[t].items()}
        return None

    def op_poly(self, text: str, given=()) -> tuple:
        """(polynomial, type) of an operator expression over the chain algebra and the unknowns."""
        alg = self.alg.extended(tuple(given))
        op = alg.op(text)
        return op.poly, op.typ

    def expand(self, poly, row, col, ctx) -> dict:
        return expand(poly, self.patterns, self.letters, row, col, ctx, self.transpose_of)

    # -- relation instances --------------------------------------------------------------------
    def instance(self, label: str, ctx: Context) -> tuple:
        """(label, polynomial lhs - rhs) of `name(args)` or `name(args)^T`, its conditions
        following from ctx; sums: sum-first[...], sum-last[...], sum-empty[...]."""
        m = re.match(r"^(sum-first|sum-last|sum-empty)\[(.*)\]$", label)
        if m:
            return f"{m.group(1)}[{self.letters.canon(m.group(2))}]", self.sum_instance(m.group(1), m.group(2), ctx)
        tr = label.endswith("^T")
        core = label[:-2] if tr else label
        name, _, args = core.partition("(")
        rel = self.relations.get(name)
        if rel is None:
            raise BlockProofError(f"unknown block relation {name}")
        args = [ix(a) for a in args.rstrip(")").split(",")] if args else []
        if len(args) != len(rel.params):
            raise BlockProofError(f"{name} takes {len(rel.params)} indices")
        env = dict(zip(rel.params, args))
        for a, b in parse_facts(rel.where):
            if not ctx.le(ix(a).subst(env), ix(b).subst(env)):
                raise BlockProofError(f"{label}: {ix(a).subst(env)} <= {ix(b).subst(env)} does not follow")
        p = padd(self.letters.poly(rel.lhs, env), self.letters.poly(rel.rhs, env), -1)
        canon = f"{name}({','.join(map(str, args))})" if rel.params else name
        return canon + ("^T" if tr else ""), (self.letters.ptranspose(p) if tr else p)

    def sum_instance(self, kind: str, letter: str, ctx: Context) -> dict:
        letter = self.letters.canon(letter)
        m = re.match(r"^sum\(([A-Za-z_]\w*)=([^.]+)\.\.([^)]+)\)\{(.*)\}$", letter)
        var, lo, hi, body = m.group(1), ix(m.group(2)), ix(m.group(3)), m.group(4)
        out = {(letter,): Fraction(1)}
        if kind == "sum-empty":
            if not ctx.le(hi + 1, lo):
                raise BlockProofError(f"{letter} is not empty")
            return out
        if not ctx.le(lo, hi):
            raise BlockProofError(f"{letter} may be empty")
        at, rest = (lo, (lo + 1, hi)) if kind == "sum-first" else (hi, (lo, hi + (-1)))
        term = self.letters.poly(body, {var: at}, compact=True)
        restl = self.letters.sum_text(var, rest[0], rest[1], self.letters.poly(body, compact=True))
        acc(out, term, -1)
        acc(out, {(restl,): Fraction(1)}, -1)
        return out

    def auto(self, poly: dict, ctx: Context, skip=()) -> list:
        """Labels of the units and definitions the letters of `poly` need (closed under the
        letters they bring in): phi(a,a) = I, psi(a+1,a) = phi(a+1,a) - L(a) H(a), L, G."""
        seen, todo, out = set(), [poly], []
        while todo:
            p = todo.pop()
            for w in p:
                for x in w:
                    lab = self._auto_label(x, ctx)
                    if lab and lab not in seen and lab.split("(")[0] not in skip:
                        seen.add(lab)
                        out.append(lab)
                        todo.append(self.instance(lab, ctx)[1])
        return out

    def _auto_label(self, letter: str, ctx: Context):
        tr = letter.endswith("^T") and not letter.startswith("sum(")
        core = letter[:-2] if tr else letter
        m = re.match(r"^(phi|psi|chi|L|G)\(([^()]*)\)$", core)
        if not m:
            return None
        name, args = m.group(1), [ix(a) for a in m.group(2).split(",")]
        sfx = "^T" if tr else ""
        if name in ("phi", "psi", "chi") and args[0] == args[1]:
            return f"{name}-unit({args[0]}){sfx}"
        if name == "psi" and args[0] == args[1] + 1:
            if args[1] == Ix(None, 0):
                return "psi-tip" + sfx
            if ctx.le(Ix(None, 1), args[1]) and ctx.le(args[1], Ix("N")):
                return f"psi-step({args[1]}){sfx}"
        if name in ("L", "G") and ctx.le(Ix(None, 1), args[0]) and ctx.le(args[0], Ix("N")):
            return f"{name}-def({args[0]}){sfx}"
        return None

    # -- finding the terms -----------------------------------------------------------------------
    def terms(self, target: dict, labels, ctx: Context, extra=()) -> list:
        """[(c, u, label, v)] with target = sum c u instance v, from the named instances, the
        `extra` (label, polynomial) ones (lemmas, the induction hypothesis) and what :meth:`auto`
        adds; raises BlockProofError when they do not prove it."""
        inst = dict(extra)
        for lab in labels:
            k, p = self.instance(lab, ctx)
            inst[k] = p
        for lab in self.auto(target, ctx):
            inst.setdefault(*self.instance(lab, ctx))
        for k, p in list(inst.items()):
            for lab in self.auto(p, ctx):
                inst.setdefault(*self.instance(lab, ctx))
        for w in target:
            self.letters.word_type(w)
        return find_terms(target, inst)


def operator_space(block_space: str) -> str:
    """The operator space whose block at link k is `block_space`: 6 -> s, j(k) -> j, f(k) -> f,
    u(k) -> u; 1 stays."""
    return "s" if block_space == "6" else block_space.split("(")[0]


def _definitions(alg) -> dict:
    """{generator: polynomial} of the chain algebra's definitions of a symbol."""
    out = {}
    for r in alg.relation_list:
        if r.kind == "definition" and statement.parse_expr(r.lhs)[0] == "name":
            out[r.lhs] = alg.op(r.rhs).poly
    return out


def _pmul(p, q):
    out: dict = {}
    for w1, c1 in p.items():
        for w2, c2 in q.items():
            acc(out, {w1 + w2: c1 * c2})
    return out


def find_terms(target: dict, instances: dict) -> list:
    """Write `target` as sum c u p v over the instance polynomials p (each oriented from its
    heaviest word), by completion and traced reduction; raises BlockProofError if it does not
    reduce to 0."""
    if not target:
        return []
    letters = sorted({x for p in list(instances.values()) + [target] for w in p for x in w})
    weights = {x: 1 for x in letters}
    for _ in range(60):                                       # a single-letter head outweighs its rest
        changed = False
        for lab, p in instances.items():
            h = _head(p)
            if len(h) == 1:
                need = 1 + max((sum(weights[x] for x in w) for w in p if w != h), default=0)
                if weights[h[0]] < need:
                    weights[h[0]] = need
                    changed = True
        if not changed:
            break
    else:
        raise BlockProofError("the relations of the step rewrite in a cycle")
    order = Order(letters, weights)
    rules = []
    for lab, p in sorted(instances.items()):
        if not p:
            continue
        lead = order.lead(p)
        c = p[lead]
        rules.append(Rule(lead, {w: -x / c for w, x in p.items() if w != lead}, {((), lab, ()): 1 / c}, lab))
    comp = complete(rules, order, max_rules=200, max_rounds=8)
    nf, tr = comp.system.traced_normal_form(target)
    if nf:
        from soagen.symbolic.kernel.rewriting import format_poly
        raise BlockProofError(f"not proved: {format_poly(nf, order, 4)} is left")
    return sorted(((c, u, lab, v) for (u, lab, v), c in tr.items()), key=lambda t: (t[2], len(t[1]), t[1], len(t[3]), t[3]))


def _head(p: dict):
    """The word an instance is stated to rewrite: its single letter if it has exactly one that
    the other words do not contain (a definition, a loop step, a lemma), else its longest word."""
    singles = [w for w in p if len(w) == 1]
    if len(singles) == 1 and not any(singles[0][0] in w for w in p if w != singles[0]):
        return singles[0]
    return max(p, key=lambda w: (len(w), w))


# ----------------------------------------------------------------------------- block by block
@dataclass
class Case:
    d: int | None               # col - row (None: a vector or a single block)
    lo: Ix
    hi: Ix
    terms: list = field(default_factory=list)

    @property
    def header(self) -> str:
        if self.d is None and self.lo == self.hi == Ix(None, 0):
            return "case single"
        return f"case {'.' if self.d is None else self.d} {self.lo}..{self.hi}"


def shifts(world: World, poly: dict, typ) -> list:
    """The shifts col - row of the words of a two-index statement ([None] for a vector)."""
    if typ[1] not in LINK_SPACES:
        return [None]
    ds = {word_shift(w, world.patterns, world.transpose_of) for w in poly}
    if None in ds:
        raise BlockStatementError("a word of a two-index block statement is not made of shifts and diagonals")
    return sorted(ds) or [0]


def case_splits(d) -> list:
    """Ways to cut the rows where column row + d exists (all rows for a vector) into cases, the
    simplest first: one range; the first row and the rest; the rest and the last row; the first
    two rows and the rest; the rest and the last two rows."""
    lo = Ix(None, 1) if d is None or d >= 0 else Ix(None, 1 - d)
    hi = Ix("N") if d is None or d <= 0 else Ix("N", -d)
    return [[Case(d, lo, hi)],
            [Case(d, lo, lo), Case(d, lo + 1, hi)],
            [Case(d, lo, hi + -1), Case(d, hi, hi)],
            [Case(d, lo, lo), Case(d, lo + 1, lo + 1), Case(d, lo + 2, hi)],
            [Case(d, lo, hi + -2), Case(d, hi + -1, hi + -1), Case(d, hi, hi)]]


def case_context(case: Case, base: Context) -> tuple:
    """(row, col, context) of a case: a single row is substituted, a range is assumed."""
    if case.d is None and case.lo == case.hi == Ix(None, 0):
        return SINGLE, SINGLE, base
    if case.lo == case.hi:
        row, ctx = case.lo, base
    else:
        row = Ix("k")
        ctx = base.with_facts([(str(case.lo), "k"), ("k", str(case.hi))])
    col = SINGLE if case.d is None else row + case.d
    return row, col, ctx


def prove_by_blocks(world: World, lhs: str, rhs: str, given=(), at_row=()) -> list:
    """The cases (with their terms) of `lhs = rhs` block by block, each from the loops' equations
    at its row, the block relations named in `at_row` instantiated at its row (where their
    conditions hold: ``BC`` gives B_k C_k = phi(k, k-1) at row k) and the definitions and units
    its letters need."""
    base = Context()
    p, typ = world.op_poly(f"({lhs}) - ({rhs})", given)
    prim = world.primitive(p)
    if typ is None:
        raise BlockProofError("a multiple of the identity has no blocks to compare")
    if typ[0] not in LINK_SPACES:
        if typ[1] in LINK_SPACES:
            raise BlockProofError("a row of blocks: state its transpose, a column")
        return [_prove_case(world, prim, Case(None, Ix(None, 0), Ix(None, 0)), base, at_row)]
    out = []
    for d in shifts(world, prim, typ):
        last = None
        for split in case_splits(d):
            try:
                out += [_prove_case(world, prim, case, base, at_row) for case in split]
                break
            except BlockStatementError as err:
                if "does not decide" not in str(err):
                    raise
                last = err
        else:
            raise last
    return out


def _prove_case(world, prim, case, base, at_row=()):
    row, col, ctx = case_context(case, base)
    if ctx.consistent:
        target = world.expand(prim, row, col, ctx)
        labels = _loop_labels(world, target, ctx) + _row_labels(world, at_row, row, ctx)
        case.terms = world.terms(target, labels, ctx)
    return case


def _row_labels(world: World, names, row, ctx: Context) -> list:
    """The one-index block relations `names` at the case's row, where their conditions hold."""
    out = []
    for name in names:
        rel = world.relations[name]
        env = {rel.params[0]: row}
        if all(ctx.le(ix(a).subst(env), ix(b).subst(env)) for a, b in parse_facts(rel.where)):
            out.append(f"{name}({row})")
    return out


def _loop_labels(world: World, target: dict, ctx: Context) -> list:
    """The loop equation for every state letter of the target (the one whose range the
    context implies), closed under the letters they bring in."""
    out, seen, todo = [], set(), [target]
    states = {world.rename.get(lp.id, lp.state): lp for lp in world.loops}
    while todo:
        p = todo.pop()
        for w in p:
            for x in w:
                m = re.match(r"^(\w+)\(([^()]*)\)(\^T)?$", x)
                if not m or m.group(1) not in states:
                    continue
                lp, at = states[m.group(1)], ix(m.group(2))
                for eq in lp.equations:
                    env = {eq.params[0]: at}
                    if all(ctx.le(ix(a).subst(env), ix(b).subst(env)) for a, b in parse_facts(eq.where)):
                        lab = f"{eq.id}({at})" + (m.group(3) or "")
                        if lab not in seen:
                            seen.add(lab)
                            out.append(lab)
                            todo.append(world.instance(lab, ctx)[1])
                        break
    return out


# ----------------------------------------------------------------------------- by index
@dataclass
class Lemma:
    """An identity between letters for the indices `params` satisfying `where`: proved directly
    (`hints`) or by induction over `induction` = (index, "up" | "down", start): the base at
    index = start, the step from index -+ 1 (the hypothesis is the instance `ih`)."""

    name: str
    params: tuple
    where: str
    lhs: str
    rhs: str
    hints: tuple = ()
    induction: tuple | None = None
    base: tuple = ()
    step: tuple = ()
    terms: list = field(default_factory=list)
    base_terms: list = field(default_factory=list)
    step_terms: list = field(default_factory=list)

    def relation(self) -> LP.BlockRelation:
        return LP.BlockRelation(self.name, tuple(self.params), self.where, self.lhs, self.rhs, "lemma")

    @property
    def header(self) -> str:
        return f"index-lemma {self.name} ({','.join(self.params)}) [{self.where}]: {self.lhs} = {self.rhs}"


def prove_lemma(world: World, lem: Lemma) -> Lemma:
    """Prove `lem` in `world` (its hints name instances with the lemma's own index names) and
    add it to the world's relations."""
    L = world.letters
    facts = parse_facts(lem.where)
    ctx = Context(facts)
    target = padd(L.poly(lem.lhs), L.poly(lem.rhs), -1)
    if lem.induction is None:
        lem.terms = world.terms(target, lem.hints, ctx)
    else:
        var, way, start = lem.induction
        start = ix(start)
        env = {var: start}
        base_ctx = Context([(str(ix(a).subst(env)), str(ix(b).subst(env))) for a, b in facts])
        lem.base_terms = world.terms(L.psubst(target, env), lem.base, base_ctx)
        bound = (var, str(start + -1)) if way == "down" else (str(start + 1), var)
        step_ctx = ctx.with_facts([bound])
        nxt = {var: ix(var) + (1 if way == "down" else -1)}
        for a, b in facts:                   # the hypothesis holds one index nearer the start
            if not step_ctx.le(ix(a).subst(nxt), ix(b).subst(nxt)):
                raise BlockProofError(f"{lem.name}: the hypothesis at {nxt[var]} leaves {a} <= {b}")
        ih = L.psubst(target, nxt)
        lem.step_terms = world.terms(target, lem.step, step_ctx, extra=[("ih", ih)])
    world.relations[lem.name] = lem.relation()
    return lem
