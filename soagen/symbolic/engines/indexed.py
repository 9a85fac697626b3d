"""Block-level statements of a serial chain for every N: indices, block letters, sums, and the
blocks of an operator product.

The statements with explicit block indices (Part I (4.4), the telescoping sums (a.19)-(a.31),
Lemma A.1's sum, Part II (6.9)-(6.10), ...) and the printed loops are about single blocks:
phi(k, m), L(i), z(k), ... with *symbolic* indices.  This module is their language:

* an **index** (:class:`Ix`) is a variable plus an integer (``k``, ``k+1``, ``N+1``) or an
  integer; a **context** (:class:`Context`) is a conjunction of bounds ``a <= b`` between
  indices (difference constraints), and decides whether an inequality follows from it;
* a **letter** is a block with its indices, ``phi(k,i+1)``, ``H(k)^T``, ``U(1)``, a **sum**
  ``sum(i=m..k-1){psi(k,i+1)*L(i)*H(i)*phi(i,m)}`` (its body a polynomial in the bound
  index), or an **opaque block** ``[Psi*L*Tp](k)``: block k of a vector that is not
  expanded further;
* a **polynomial** over letters is a dict {word: Fraction}, a word a tuple of letter texts
  (the polynomials of :mod:`soagen.symbolic.kernel.rewriting`, so the same rewriting finds the
  certificates);
* :func:`expand` takes an operator polynomial of the chain algebra (:mod:`.nfree`) and a block
  position (k, or k and l = k + d) and writes that block as a polynomial over letters: block k
  of an operator product over the shift structure, where S shifts the index by one, a
  block-diagonal operator keeps it, the C of flexible links shifts it with the letter C_k
  (pattern ``lower``), B and E pin it to the tip and the base, and each
  boundary condition (k - 1 >= 1, ...) is decided by the context.

Texts are canonical (one spelling per letter), so letters compare as strings.  The checker
(:mod:`.checker`) reads the same syntax with its own code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from soagen.symbolic.kernel.rewriting import acc

Word = tuple
Poly = dict


class BlockStatementError(ValueError):
    """A block statement that cannot be read, or a case the context does not decide."""


# ----------------------------------------------------------------------------- indices
@dataclass(frozen=True)
class Ix:
    """var + c, or the integer c (var None)."""

    var: str | None
    c: int = 0

    def __str__(self) -> str:
        if self.var is None:
            return str(self.c)
        return self.var if not self.c else f"{self.var}{self.c:+d}"

    def __add__(self, d: int) -> "Ix":
        return Ix(self.var, self.c + d)

    def subst(self, env: dict) -> "Ix":
        if self.var in env:
            return env[self.var] + self.c
        return self


_IX = re.compile(r"^\s*(?:([A-Za-z_]\w*)\s*(?:([+-])\s*(\d+))?|(-?\d+))\s*$")


def ix(text) -> Ix:
    if isinstance(text, Ix):
        return text
    if isinstance(text, int):
        return Ix(None, text)
    m = _IX.match(str(text))
    if not m:
        raise BlockStatementError(f"bad index {text!r}")
    if m.group(4) is not None:
        return Ix(None, int(m.group(4)))
    c = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    return Ix(m.group(1), c)


class Context:
    """A conjunction of bounds between indices; `1 <= N` always holds."""

    def __init__(self, facts=()):
        self.facts = [(ix(a), ix(b)) for a, b in facts] + [(Ix(None, 1), Ix("N"))]
        nodes = {"0"}
        for a, b in self.facts:
            nodes |= {a.var or "0", b.var or "0"}
        self.nodes = sorted(nodes)
        inf = float("inf")
        d = {(x, y): (0 if x == y else inf) for x in self.nodes for y in self.nodes}
        for a, b in self.facts:       # a <= b: av - bv <= b.c - a.c, an edge b -> a
            x, y = a.var or "0", b.var or "0"
            d[(y, x)] = min(d[(y, x)], b.c - a.c)
        for k in self.nodes:
            for i in self.nodes:
                for j in self.nodes:
                    if d[(i, k)] + d[(k, j)] < d[(i, j)]:
                        d[(i, j)] = d[(i, k)] + d[(k, j)]
        self.dist = d
        self.consistent = all(d[(x, x)] >= 0 for x in self.nodes)

    def with_facts(self, facts) -> "Context":
        return Context([(str(a), str(b)) for a, b in self.facts[:-1]] + list(facts))

    def le(self, a, b) -> bool:
        """Does a <= b follow?"""
        a, b = ix(a), ix(b)
        x, y = a.var or "0", b.var or "0"
        if not self.consistent:
            return True
        if x not in self.nodes or y not in self.nodes:
            return x == y and a.c <= b.c
        return self.dist[(y, x)] <= b.c - a.c

    def decide_le(self, a, b):
        """True or False if a <= b or b < a follows, None if neither."""
        if self.le(a, b):
            return True
        if self.le(ix(b) + 1, a):
            return False
        return None

    def decide_eq(self, a, b):
        if self.le(a, b) and self.le(b, a):
            return True
        if self.le(ix(a) + 1, b) or self.le(ix(b) + 1, a):
            return False
        return None


def parse_facts(text: str) -> list:
    """'1 <= m; m+1 <= k; k = N' -> [(a, b)] meaning a <= b (an equation gives two)."""
    out = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        if "<=" in part:
            a, b = part.split("<=")
            out.append((str(ix(a)), str(ix(b))))
        elif "=" in part:
            a, b = part.split("=")
            out += [(str(ix(a)), str(ix(b))), (str(ix(b)), str(ix(a)))]
        else:
            raise BlockStatementError(f"bad condition {part!r}")
    return out


# ----------------------------------------------------------------------------- letters
@dataclass(frozen=True)
class Family:
    """A block family: name(params) : cod <- dom, e.g. H(a) : j(a) <- 6."""

    name: str
    params: tuple
    cod: str
    dom: str
    symmetric: bool = False
    meaning: str = ""

    def type_at(self, args) -> tuple:
        env = dict(zip(self.params, args))
        return _space(self.cod, env), _space(self.dom, env)


def _space(s: str, env: dict) -> str:
    m = re.match(r"^([jfu])\((.+)\)$", s)
    return f"{m.group(1)}({ix(m.group(2)).subst(env)})" if m else s


_FAM = re.compile(r"^([A-Za-z_]\w*)(?:\(([^()]*)\))?(\^T)?$")
_OPQ = re.compile(r"^\[([^\[\]]*)\]\(([^()]*)\)(\^T)?$")
_SUM = re.compile(r"^sum\(([A-Za-z_]\w*)=([^.]+)\.\.([^)]+)\)\{(.*)\}$")


def split_top(text: str, seps: str) -> list:
    """Split at the separator characters outside (), [], {}; returns [(sep before, piece)]."""
    out, depth, start, sep = [], 0, 0, ""
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch in seps:
            out.append((sep, text[start:i]))
            sep, start = ch, i + 1
    out.append((sep, text[start:]))
    return out


class Letters:
    """Parse, print, substitute, transpose and type letters, given the block families."""

    def __init__(self, families: dict, op_types: dict):
        self.families = families          # name -> Family
        self.op_types = op_types          # operator generator (and transpose) name -> (cod, dom)

    # -- canonical text ------------------------------------------------------------------
    def canon(self, text: str, env=None) -> str:
        """The canonical text of a letter, with the index substitution `env` applied."""
        env = env or {}
        text = text.strip()
        m = _SUM.match(text)
        if m:
            var, lo, hi, body = m.groups()
            if var in env or any(var == (x.var if isinstance(x, Ix) else None) for x in env.values()):
                raise BlockStatementError(f"bound index {var} captured in {text}")
            return self.sum_text(var, ix(lo).subst(env), ix(hi).subst(env), self.poly(body, env, compact=True))
        m = _OPQ.match(text)
        if m:
            word, idx, t = m.groups()
            return f"[{word}]({ix(idx).subst(env)})" + (t or "")
        m = _FAM.match(text)
        if not m or m.group(1) not in self.families:
            raise BlockStatementError(f"unknown block letter {text!r}")
        fam = self.families[m.group(1)]
        args = [ix(a).subst(env) for a in (m.group(2).split(",") if m.group(2) is not None else [])]
        if len(args) != len(fam.params):
            raise BlockStatementError(f"{fam.name} takes {len(fam.params)} indices: {text!r}")
        t = "^T" if m.group(3) and not fam.symmetric else ""
        return fam.name + (f"({','.join(map(str, args))})" if args else "") + t

    def sum_text(self, var, lo, hi, body: Poly) -> str:
        return f"sum({var}={lo}..{hi}){{{self.poly_text(body, compact=True)}}}"

    def transpose(self, letter: str) -> str:
        m = _SUM.match(letter)
        if m:
            var, lo, hi, body = m.groups()
            return self.sum_text(var, lo, hi, self.ptranspose(self.poly(body, compact=True)))
        if letter.endswith("^T"):
            return letter[:-2]
        m = _FAM.match(letter)
        if m and self.families[m.group(1)].symmetric:
            return letter
        return letter + "^T"

    def ptranspose(self, p: Poly) -> Poly:
        return {tuple(self.transpose(x) for x in reversed(w)): c for w, c in p.items()}

    # -- polynomials ----------------------------------------------------------------------
    def poly(self, text: str, env=None, compact: bool = False) -> Poly:
        """Read 'c w + c w - ...' (letters separated by spaces; in a sum body by '*', and the
        terms by + and - without spaces); 'I' is the empty word, '0' the zero polynomial."""
        text = text.strip()
        out: Poly = {}
        if text in ("0", ""):
            return out
        terms = split_top(text, "+-")
        if terms and terms[0][1].strip() == "" and terms[0][0] == "":
            terms = terms[1:]
        for sign, piece in terms:
            piece = piece.strip()
            toks = [t for _, t in split_top(piece, "*" if compact else " ") if t.strip()]
            c = Fraction(1)
            if toks and re.match(r"^\d+(/\d+)?$", toks[0]):
                c = Fraction(toks.pop(0))
            word = tuple(self.canon(t, env) for t in toks if t != "I")
            acc(out, {word: c if sign != "-" else -c})
        return out

    def poly_text(self, p: Poly, compact: bool = False) -> str:
        if not p:
            return "0"
        join = "*" if compact else " "
        parts = []
        for w in sorted(p, key=lambda w: (len(w), w)):
            c = p[w]
            mag = abs(c)
            body = join.join(w) if w else "I"
            coeff = "" if mag == 1 else (f"{mag}{join}" if w else f"{mag}")
            if not w and mag != 1:
                body = ""
            parts.append(("-" if c < 0 else "+", coeff + body))
        s = ""
        for i, (sg, t) in enumerate(parts):
            if compact:
                s += (sg if i or sg == "-" else "") + t
            else:
                s += (("- " if sg == "-" else "") if i == 0 else f" {sg} ") + t
        return s

    def psubst(self, p: Poly, env: dict) -> Poly:
        out: Poly = {}
        for w, c in p.items():
            acc(out, {tuple(self.canon(x, env) for x in w): c})
        return out

    # -- types -------------------------------------------------------------------------------
    def type_of(self, letter: str) -> tuple:
        m = _SUM.match(letter)
        if m:
            var, lo, hi, body = m.groups()
            types = {self.word_type(w) for w in self.poly(body, compact=True)}
            if len(types) != 1 or None in types:
                raise BlockStatementError(f"the body of {letter} is not one typed operator")
            (t,) = types
            if any(re.search(rf"\b{var}\b", s) for s in t):
                raise BlockStatementError(f"the type of {letter} depends on its bound index")
            return t
        m = _OPQ.match(letter)
        if m:
            word, idx, tr = m.groups()
            gens = word.split("*")
            cod, dom = self.op_types[gens[0]][0], self.op_types[gens[-1]][1]
            t = (_block_space(cod, ix(idx)), _block_space(dom, ix(idx)))
            return (t[1], t[0]) if tr else t
        m = _FAM.match(letter)
        fam = self.families[m.group(1)]
        args = [ix(a) for a in (m.group(2).split(",") if m.group(2) is not None else [])]
        t = fam.type_at(args)
        return (t[1], t[0]) if m.group(3) else t

    def word_type(self, w: Word):
        """(cod, dom) of a product of letters, None for the empty word; raises if they do not conform."""
        if not w:
            return None
        types = [self.type_of(x) for x in w]
        for (a, b), (c, d) in zip(types, types[1:]):
            if b != c:
                raise BlockStatementError(f"{' '.join(w)}: a {a} <- {b} block times a {c} <- {d} block")
        return types[0][0], types[-1][1]


LINK_SPACES = ("s", "j", "f", "u")   # spaces stacked over the links: one block per link


def _block_space(space: str, at: Ix) -> str:
    """The space of one block of an operator space: s -> 6, j -> j(k) (and the nodal f -> f(k),
    the flexible dofs u -> u(k) of link k), 6/1/e stay."""
    return "6" if space == "s" else f"{space}({at})" if space in LINK_SPACES else space


# ----------------------------------------------------------------------------- blocks of operators
@dataclass(frozen=True)
class Pattern:
    """How an operator of the chain algebra is laid out in blocks (k the block row):
    diag (block (k, k) is the letter), shift (block (k, k + d) is the identity), lower (block
    (k, k - 1) is the letter at k: the C of framework (4.2)), tip (block (1, .): B), base
    (block (N, .): E), vector (block (k, .)), single (one block)."""

    kind: str
    letter: str = ""          # template with k
    d: int = 0                # the shift: column = row + d


SINGLE = "."                  # the index of a space with one block (6, 1, e)


def expand(poly: Poly, patterns: dict, letters: Letters, row, col, ctx: Context, transpose_of: dict) -> Poly:
    """Block (row, col) of an operator polynomial whose generators all have patterns or are not
    expandable (phi, psi, ...: what follows them becomes an opaque block of a vector).
    row/col are indices or SINGLE; every boundary condition must be decided by `ctx`."""
    out: Poly = {}
    for w, c in poly.items():
        blk = _expand_word(w, patterns, letters, row, col, ctx, transpose_of)
        if blk is not None:
            acc(out, {blk: c})
    return out


def _pattern(g, patterns, transpose_of):
    """(pattern, transposed?) of a generator name, or (None, False)."""
    if g in patterns:
        return patterns[g], False
    t = transpose_of.get(g)
    if t in patterns:
        return patterns[t], True
    return None, False


def _expand_word(w, patterns, letters, row, col, ctx, transpose_of):
    cur, word = (SINGLE if row == SINGLE else ix(row)), []
    for pos, g in enumerate(w):
        pat, tr = _pattern(g, patterns, transpose_of)
        if pat is None or (pat.kind == "vector" and tr):
            rest = w[pos:]
            dom = letters.op_types[rest[-1]][1]
            if col != SINGLE or dom not in ("1", "6", "e") or cur == SINGLE:
                raise BlockStatementError(f"block of {' '.join(w)}: {g} is not block-sparse")
            word.append(f"[{'*'.join(rest)}]({cur})")
            return tuple(word)
        nxt, letter, conds = _step(pat, tr, cur)
        for kind, a, b in conds:
            ok = ctx.decide_le(a, b) if kind == "le" else ctx.decide_eq(a, b)
            if ok is None:
                raise BlockStatementError(f"block of {' '.join(w)} at {row}: the case does not decide {a} {kind} {b}")
            if not ok:
                return None
        if letter:
            word.append(letters.canon(letter, {"k": cur} if cur != SINGLE else {}))
        cur = nxt
    if col == SINGLE:
        return tuple(word) if cur == SINGLE else _fail(w, "ends at a block row, not a single block")
    if cur == SINGLE:
        return _fail(w, "ends at a single block, not a block column")
    ok = ctx.decide_eq(cur, col)
    if ok is None:
        raise BlockStatementError(f"block of {' '.join(w)}: the case does not decide {cur} = {col}")
    return tuple(word) if ok else None


def _fail(w, why):
    raise BlockStatementError(f"block of {' '.join(w)}: {why}")


def _step(pat: Pattern, tr: bool, cur):
    """(next index, letter template in k, conditions) of one factor from block row `cur`."""
    one, N = Ix(None, 1), Ix("N")
    if pat.kind == "diag":
        return cur, (_t(pat.letter) if tr else pat.letter), []
    if pat.kind == "shift":
        d = -pat.d if tr else pat.d
        nxt = cur + d
        return nxt, "", [("le", one, nxt), ("le", nxt, N)]
    if pat.kind == "lower":              # block (k, k-1) is the letter at k; of the transpose, (k, k+1) at k+1
        if not tr:
            nxt = cur + -1
            return nxt, pat.letter, [("le", one, nxt)]
        nxt = cur + 1
        return nxt, _t(re.sub(r"\bk\b", "k+1", pat.letter)), [("le", nxt, N)]
    if pat.kind == "vector":
        return SINGLE, pat.letter, []
    if pat.kind == "single":
        return SINGLE, (_t(pat.letter) if tr else pat.letter), []
    if pat.kind in ("tip", "base"):
        at = one if pat.kind == "tip" else N
        if not tr:
            return SINGLE, pat.letter, [("eq", cur, at)]
        return at, _t(pat.letter), []
    raise BlockStatementError(f"unknown pattern {pat.kind}")


def _t(letter: str) -> str:
    return letter[:-2] if letter.endswith("^T") else letter + "^T"


def word_shift(w, patterns, transpose_of) -> int | None:
    """Column minus row of every nonzero block of a word of diag, shift and lower factors (None
    if it has another kind of factor)."""
    d = 0
    for g in w:
        pat, tr = _pattern(g, patterns, transpose_of)
        if pat is None or pat.kind not in ("diag", "shift", "lower"):
            return None
        if pat.kind == "shift":
            d += -pat.d if tr else pat.d
        elif pat.kind == "lower":
            d += 1 if tr else -1
    return d
