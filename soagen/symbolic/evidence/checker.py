"""Independent checker of soagen certificates: parse, expand, compare.  No rewriting.

This module deliberately shares no code with the proof engine (it imports only the
standard library): its own parser of the expression syntax, its own noncommutative
polynomial arithmetic, typing, index bounds and blocks of operators.  What it trusts:

* the **axioms files**, each pinned by its SHA-256 in :data:`PINNED` (a copy with one more
  relation is refused): the generators, types and relations of an algebra
  (``axioms-<name>.txt``) and the block level of a chain (``axioms-blocks.txt``: block
  families, how each operator is laid out in blocks, the relations between blocks with the
  index ranges where they hold, the printed loops with their equations and the operator
  equations they are read as, and the conditions);
* nothing a certificate declares about itself: an ``assume`` line must be a pinned loop's
  reading and a ``condition`` line a pinned condition, word for word; a ``let`` may not rebind
  a generator; a block statement must list each of its blocks once.

Given a certificate it checks, in order, every proof in it:

1. an **operator claim** or lemma ``lhs = rhs``: the polynomial lhs - rhs computed from the
   text equals ``sum_i c_i u_i (rel_i.lhs - rel_i.rhs) v_i``, every term a well-typed operator
   of the claim's type, every relation in the axioms (on the certificate's topology), a
   pinned hypothesis, or a lemma proved above it;
2. a claim **by blocks**: the words of lhs - rhs (defined symbols replaced by their
   definitions) are grouped by their shift col - row; for each shift the listed cases tile
   the rows 1..N where that shift has a block; in each case the block of lhs - rhs (block k
   of an operator product over the shift structure, each boundary condition decided by the
   case's bounds) is a sum of block-relation instances, each instance's index conditions
   following from the bounds;
3. an **index lemma**: the same, over block letters with symbolic indices and finite sums
   (split off the first or last term, the empty sum); or by induction over an index: the
   base at the start, the step with the lemma one index nearer the start (``ih``), the range
   closed under that step;
4. a **block claim**: block (r, c) of an operator (or of the right side of an operator
   lemma it names) equals a polynomial over block letters.

If all agree, every claim is a consequence of the pinned relations and loops for every chain
length N (for every tree, where the topology says so and no block-level step is used) and
every joint dimension: the certificate is a proof.
"""

from __future__ import annotations

import hashlib
import re
from fractions import Fraction


class CertificateError(Exception):
    """A certificate that does not check."""


# ----------------------------------------------------------------------------- polynomials
def _acc(out, q, c=1):
    """out += c q in place, dropping zero coefficients."""
    for w, x in q.items():
        v = out.get(w, 0) + c * x
        if v:
            out[w] = v
        else:
            out.pop(w, None)
    return out


def _add(p, q, c=1):
    return _acc(dict(p), q, c)


def _mul(p, q):
    out = {}
    for w1, c1 in p.items():
        for w2, c2 in q.items():
            _acc(out, {w1 + w2: c2}, c1)
    return out


class _Scalar:
    """c I: an integer multiple of the identity, of any size."""

    def __init__(self, c):
        self.c = Fraction(c)


class _Grid:
    """A block operator: entries[i][j] polynomials, block row types and block column types.
    A single operator is a 1 x 1 grid."""

    def __init__(self, entries, rtypes, ctypes):
        self.e, self.r, self.c = entries, list(rtypes), list(ctypes)


def _op(poly, typ) -> _Grid:
    return _Grid([[poly]], [typ[0]], [typ[1]])


def _neg(v):
    if isinstance(v, _Scalar):
        return _Scalar(-v.c)
    return _Grid([[{w: -x for w, x in p.items()} for p in row] for row in v.e], v.r, v.c)


def _plus(a, b):
    if isinstance(a, _Scalar) and isinstance(b, _Scalar):
        return _Scalar(a.c + b.c)
    if isinstance(a, _Scalar):
        a, b = b, a
    if isinstance(b, _Scalar):
        if not b.c:
            return a
        if a.r != a.c:
            raise CertificateError("identity added to a non-square operator")
        e = [[dict(p) for p in row] for row in a.e]
        for i in range(len(e)):
            e[i][i] = _add(e[i][i], {(): b.c})
        return _Grid(e, a.r, a.c)
    if a.r != b.r or a.c != b.c:
        raise CertificateError(f"sum of operators of types {a.r} <- {a.c} and {b.r} <- {b.c}")
    return _Grid([[_add(x, y) for x, y in zip(ra, rb)] for ra, rb in zip(a.e, b.e)], a.r, a.c)


def _times(a, b):
    if isinstance(a, _Scalar) and isinstance(b, _Scalar):
        return _Scalar(a.c * b.c)
    if isinstance(a, _Scalar) or isinstance(b, _Scalar):
        k, g = (a, b) if isinstance(a, _Scalar) else (b, a)
        return _Grid([[{w: k.c * x for w, x in p.items()} if k.c else {} for p in row] for row in g.e], g.r, g.c)
    if a.c != b.r:
        raise CertificateError(f"product of operators of types {a.r} <- {a.c} and {b.r} <- {b.c}")
    e = []
    for i in range(len(a.r)):
        row = []
        for j in range(len(b.c)):
            acc: dict = {}
            for k in range(len(a.c)):
                acc = _add(acc, _mul(a.e[i][k], b.e[k][j]))
            row.append(acc)
        e.append(row)
    return _Grid(e, a.r, b.c)


def _transpose(v, tr):
    if isinstance(v, _Scalar):
        return v
    e = [[{tuple(tr[g] for g in reversed(w)): x for w, x in v.e[i][j].items()} for i in range(len(v.r))]
         for j in range(len(v.c))]
    return _Grid(e, v.c, v.r)


def _single(x, fn):
    if not isinstance(x, _Grid) or len(x.r) != 1 or len(x.c) != 1:
        raise CertificateError(f"{fn} takes single operators")
    return x


def _blk2(A, B, C, D):
    A, B, C, D = (_single(x, "blk2") for x in (A, B, C, D))
    if B.r != A.r or D.r != C.r or C.c != A.c or D.c != B.c:
        raise CertificateError("blk2 of blocks that do not conform")
    return _Grid([[A.e[0][0], B.e[0][0]], [C.e[0][0], D.e[0][0]]], A.r + C.r, A.c + B.c)


def _vcat(A, B):
    A, B = _single(A, "vcat"), _single(B, "vcat")
    if A.c != B.c:
        raise CertificateError("vcat of blocks with different domains")
    return _Grid([[A.e[0][0]], [B.e[0][0]]], A.r + B.r, A.c)


_FUNCTIONS = {"blk2": (_blk2, 4), "vcat": (_vcat, 2)}


# ----------------------------------------------------------------------------- expressions
_TOK = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|\.T|[-+@*(),])")


class _Expr:
    """Recursive-descent evaluation of the expression syntax over the generators."""

    def __init__(self, text: str, gens: dict, tr: dict, env: dict):
        self.toks, pos, text = [], 0, text.strip()
        while pos < len(text):
            m = _TOK.match(text, pos)
            if not m:
                raise CertificateError(f"cannot read expression {text!r} at {text[pos:pos + 10]!r}")
            self.toks.append(m.group(1))
            pos = m.end()
        self.i, self.gens, self.tr, self.env = 0, gens, tr, env

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def run(self):
        v = self.sum()
        if self.peek() is not None:
            raise CertificateError(f"unexpected {self.peek()!r} in expression")
        return v

    def sum(self):
        neg = False
        if self.peek() in ("+", "-"):
            neg = self.take() == "-"
        v = self.prod()
        if neg:
            v = _neg(v)
        while self.peek() in ("+", "-"):
            op = self.take()
            w = self.prod()
            v = _plus(v, w if op == "+" else _neg(w))
        return v

    def prod(self):
        v = self.post()
        while self.peek() in ("@", "*"):
            self.take()
            v = _times(v, self.post())
        return v

    def post(self):
        v = self.atom()
        while self.peek() == ".T":
            self.take()
            v = _transpose(v, self.tr)
        return v

    def atom(self):
        t = self.take()
        if t is None:
            raise CertificateError("expression ends too early")
        if t == "(":
            v = self.sum()
            if self.take() != ")":
                raise CertificateError("missing )")
            return v
        if t.isdigit():
            return _Scalar(int(t))
        if t == "I":
            return _Scalar(1)
        if t in _FUNCTIONS and self.peek() == "(":
            fn, n = _FUNCTIONS[t]
            self.take()
            args = [self.sum()]
            while self.peek() == ",":
                self.take()
                args.append(self.sum())
            if self.take() != ")" or len(args) != n:
                raise CertificateError(f"{t} takes {n} arguments")
            return fn(*args)
        if t in self.env:
            return self.env[t]
        if t in self.gens:
            return _op({(t,): Fraction(1)}, self.gens[t])
        raise CertificateError(f"unknown name {t!r}")


# ----------------------------------------------------------------------------- axioms
# SHA-256 of the axioms files this checker accepts (docs/certificates/axioms-<name>.txt): a
# certificate is checked against these relations only.  A changed relation list must be pinned
# here again, on purpose.
PINNED = {
    "chain": "296c01e6f707e1d5c4044c22f2d8816fc18cb10796b74a5420715d3f88afea47",
    "closed": "868e8d6e79d1440c3709731d281feb450b081cf2dcf54c8e168b8ac84aa22587",
    "closure": "7a26656331d07001135f425479c53a9a7d0c60600ccee43d3510d2d7fbcddb63",
    "fdderiv": "4449863700896501b239e5021e96103c579364f162e6ad6eccb2465126e833f0",
    "grasp": "06acbb084b4ba7e8e7b389259d91481a87bf3e95cc390c9116d311e16cb8c52b",
    "swain": "280ddbbcd74c574abfafee96ecc3c8e337993ba9d32639984fa6de35a33b1c7f",
    "blocks": "f7ade1bb9302464fe5d2e27b0e7787d67935e7629d88a1a721a5092ef905131b",
}


def _pin(name: str, text: str) -> None:
    digest = hashlib.sha256(text.encode()).hexdigest()
    if PINNED.get(name) != digest:
        raise CertificateError(f"the axioms of {name!r} are not the pinned ones (sha256 {digest[:16]}...): "
                               "a changed relation list must be pinned in soagen/symbolic/evidence/checker.py")


class Axioms:
    """The generators and relations of one algebra, read from its axioms file (pinned)."""

    def __init__(self, text: str):
        lines = text.splitlines()
        if not lines or lines[0].strip() != "soagen axioms 1":
            raise CertificateError("not a soagen axioms file")
        self.name = ""
        self.types: dict = {}
        self.tr: dict = {}
        self.rel_text: dict = {}
        for ln in lines[1:]:
            if ln.startswith("algebra "):
                self.name = ln.split(None, 1)[1].strip()
            elif ln.startswith("gen "):
                self._gen(ln[4:])
            elif ln.startswith("rel "):
                m = re.match(r"rel (\S+) \[(\w+); ([\w,]+)\] : (.+?) -> (.+?) \|", ln)
                if not m:
                    raise CertificateError(f"bad relation line {ln!r}")
                rid, kind, tops, lhs, rhs = m.groups()
                self.rel_text[rid] = (kind, tuple(tops.split(",")), lhs, rhs)
        _pin(self.name, text)

    def _gen(self, text: str):
        m = re.match(r"(\S+) : (\S+) <- (\S+) \| (\S+)", text)
        if not m:
            raise CertificateError(f"bad generator declaration {text!r}")
        name, cod, dom, t = m.groups()
        if name in self.types or (t != name and t in self.types) or name in _RESERVED or t in _RESERVED:
            raise CertificateError(f"generator {name} declared twice")
        self.types[name], self.types[t] = (cod, dom), (dom, cod)
        self.tr[name], self.tr[t] = t, name

    def with_record(self, given, assume) -> "Axioms":
        """A copy with a certificate's own unknowns and hypotheses."""
        out = Axioms.__new__(Axioms)
        out.name, out.types, out.tr = self.name, dict(self.types), dict(self.tr)
        out.rel_text = dict(self.rel_text)
        for g in given:
            out._gen(g)
        for rid, lhs, rhs in assume:
            if rid in out.rel_text:
                raise CertificateError(f"hypothesis {rid} clashes with a relation of the axioms")
            out.rel_text[rid] = ("hypothesis", ("chain", "tree"), lhs, rhs)
        return out

    def expr(self, text: str, env=None):
        return _Expr(text, self.types, self.tr, env or {}).run()

    def single(self, text: str):
        """(polynomial, type) of an expression that is one operator (type None: a multiple of I)."""
        v = self.expr(text)
        if isinstance(v, _Scalar):
            return ({(): v.c} if v.c else {}), None
        if len(v.r) != 1 or len(v.c) != 1:
            raise CertificateError(f"{text} is not a single operator")
        return v.e[0][0], (v.r[0], v.c[0])

    def relation(self, rid: str):
        """(topologies, polynomial, type) of relation `rid` (or of its transpose, rid^T)."""
        base = rid[:-2] if rid.endswith("^T") else rid
        if base not in self.rel_text:
            raise CertificateError(f"relation {rid} is neither in the axioms of {self.name} nor assumed")
        _, tops, lhs, rhs = self.rel_text[base]
        d = _plus(self.expr(lhs), _neg(self.expr(rhs)))
        if not isinstance(d, _Grid) or len(d.r) != 1 or len(d.c) != 1:
            raise CertificateError(f"relation {base} is not a single typed operator")
        poly, typ = d.e[0][0], (d.r[0], d.c[0])
        if rid.endswith("^T"):
            poly, typ = self.ptr(poly), (typ[1], typ[0])
        return tops, poly, typ

    def ptr(self, poly):
        return {tuple(self.tr[g] for g in reversed(w)): c for w, c in poly.items()}

    def word_type(self, w: tuple):
        for g in w:
            if g not in self.types:
                raise CertificateError(f"unknown generator {g!r} in a cofactor")
        for g1, g2 in zip(w, w[1:]):
            if self.types[g1][1] != self.types[g2][0]:
                raise CertificateError(f"cofactor {' '.join(w)} is not a product of conforming operators")
        return (self.types[w[0]][0], self.types[w[-1]][1])

    def definitions(self) -> dict:
        """{generator: polynomial} of the definitions of a symbol."""
        out = {}
        for rid, (kind, _, lhs, rhs) in self.rel_text.items():
            if kind == "definition" and re.fullmatch(r"[A-Za-z_]\w*", lhs.strip()):
                out[lhs.strip()] = self.single(rhs)[0]
        return out


_RESERVED = {"I", "blk2", "vcat", "N", "ih"}


# ----------------------------------------------------------------------------- the block level
class Blocks:
    """The block level of a serial chain (``axioms-blocks.txt``, pinned): block families, the
    operators in blocks, the relations between blocks, the printed loops with their equations
    and the operator equations they are read as, and the conditions."""

    def __init__(self, text: str):
        lines = text.splitlines()
        if not lines or lines[0].strip() != "soagen axioms 1" or "algebra blocks" not in lines[:3]:
            raise CertificateError("not the block axioms file")
        _pin("blocks", text)
        self.families, self.patterns, self.rels, self.loops, self.conditions = {}, {}, {}, {}, {}
        loop = None
        for ln in lines:
            if ln.startswith("family "):
                m = re.match(r"family (\w+)(?:\(([\w,]*)\))? : (\S+) <- (\S+) \| (\w*) \|", ln)
                self.families[m.group(1)] = (tuple(m.group(2).split(",")) if m.group(2) else (), m.group(3),
                                             m.group(4), m.group(5) == "sym")
            elif ln.startswith("pattern "):
                m = re.match(r"pattern (\w+) : (\w+) (\S+)", ln)
                kind, arg = m.group(2), m.group(3)
                self.patterns[m.group(1)] = (kind, int(arg)) if kind == "shift" else (kind, arg)
            elif ln.startswith("brel "):
                rid, rel = _block_relation(ln[5:])
                self.rels[rid] = rel
            elif ln.startswith("loop "):
                m = re.match(r"loop (\S+) : (.+?) \| (.+?) -> (.+?) \| (.*?) \|", ln)
                loop = {"family": _family_decl(m.group(2)), "inputs": [], "eqs": {}, "reading": (m.group(3), m.group(4))}
                self.loops[m.group(1)] = loop
            elif ln.startswith("  input "):
                loop["inputs"].append(_family_decl(ln[8:]))
            elif ln.startswith("  eq "):
                rid, rel = _block_relation(ln[5:])
                loop["eqs"][rid] = rel
            elif ln.startswith("condition "):
                m = re.match(r"condition (\S+) : (.+?) -> (.+?) \|", ln)
                self.conditions[m.group(1)] = (m.group(2), m.group(3))


def _block_relation(text: str):
    m = re.match(r"(\S+) \(([\w,]*)\) \[(.*?)\] : (.+?) -> (.+?)(?: \| .*)?$", text)
    if not m:
        raise CertificateError(f"bad block relation {text!r}")
    rid, params, where, lhs, rhs = m.groups()
    return rid, (tuple(p for p in params.split(",") if p), where, lhs, rhs)


def _family_decl(text: str):
    m = re.match(r"(\w+)\((\w+)\) : (\S+) <- (\S+)", text.strip())
    return m.group(1), (m.group(2),), m.group(3).replace("(k)", f"({m.group(2)})"), m.group(4)


# -- indices: a variable plus an integer, or an integer ---------------------------------------
_IXRE = re.compile(r"^\s*(?:([A-Za-z_]\w*)\s*(?:([+-])\s*(\d+))?|(-?\d+))\s*$")


def _ix(text):
    if isinstance(text, tuple):
        return text
    m = _IXRE.match(str(text))
    if not m:
        raise CertificateError(f"bad index {text!r}")
    if m.group(4) is not None:
        return (None, int(m.group(4)))
    return (m.group(1), int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1))


def _ixt(i) -> str:
    v, c = i
    return str(c) if v is None else v if not c else f"{v}{c:+d}"


def _ixsub(i, env):
    v, c = i
    if v in env:
        w, d = env[v]
        return (w, d + c)
    return i


class _Ctx:
    """Bounds a <= b between indices (and 1 <= N); decides what follows (difference constraints)."""

    def __init__(self, facts):
        self.facts = [(_ix(a), _ix(b)) for a, b in facts] + [((None, 1), ("N", 0))]
        nodes = {"0"} | {x[0] or "0" for f in self.facts for x in f}
        big = 10 ** 9
        d = {(x, y): 0 if x == y else big for x in nodes for y in nodes}
        for (av, ac), (bv, bc) in self.facts:
            x, y = av or "0", bv or "0"
            d[(y, x)] = min(d[(y, x)], bc - ac)
        for k in nodes:
            for i in nodes:
                for j in nodes:
                    if d[(i, k)] + d[(k, j)] < d[(i, j)]:
                        d[(i, j)] = d[(i, k)] + d[(k, j)]
        self.d, self.nodes = d, nodes
        self.empty = any(d[(x, x)] < 0 for x in nodes)

    def le(self, a, b) -> bool:
        (av, ac), (bv, bc) = _ix(a), _ix(b)
        x, y = av or "0", bv or "0"
        if self.empty:
            return True
        if x == y:
            return ac <= bc
        return x in self.nodes and y in self.nodes and self.d[(y, x)] <= bc - ac

    def decide(self, kind, a, b):
        a, b = _ix(a), _ix(b)
        if kind == "le":
            return True if self.le(a, b) else False if self.le((b[0], b[1] + 1), a) else None
        if self.le(a, b) and self.le(b, a):
            return True
        return False if self.le((a[0], a[1] + 1), b) or self.le((b[0], b[1] + 1), a) else None


def _facts(text: str) -> list:
    out = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        if "<=" in part:
            a, b = part.split("<=")
            out.append((_ix(a), _ix(b)))
        elif "=" in part:
            a, b = part.split("=")
            out += [(_ix(a), _ix(b)), (_ix(b), _ix(a))]
        else:
            raise CertificateError(f"bad condition {part!r}")
    return out


def _split(text: str, seps: str) -> list:
    """[(separator before, piece)] split at `seps` outside brackets."""
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


_LFAM = re.compile(r"^([A-Za-z_]\w*)(?:\(([^()]*)\))?(\^T)?$")
_LOPQ = re.compile(r"^\[([^\[\]]*)\]\(([^()]*)\)(\^T)?$")
_LSUM = re.compile(r"^sum\(([A-Za-z_]\w*)=([^.]+)\.\.([^)]+)\)\{(.*)\}$")


class _Index:
    """The letters of one certificate: families (pinned and of its loops), polynomials over them,
    their types, the blocks of operators, and the instances of block relations."""

    def __init__(self, blocks: Blocks, ax: Axioms, loops: dict):
        self.ax, self.blocks = ax, blocks
        self.families = dict(blocks.families)
        self.patterns = dict(blocks.patterns)
        self.rels = dict(blocks.rels)
        for lid, name in loops.items():
            if lid not in blocks.loops:
                raise CertificateError(f"loop {lid} is not a pinned loop")
            lp = blocks.loops[lid]
            state, params, cod, dom = lp["family"]
            name = name or state
            old = self.families.get(name)
            if old is not None and not (len(old) == 5 and old[4] == "input"):
                raise CertificateError(f"family {name} is defined twice")
            self.families[name] = (params, cod, dom, False, "state")
            for fam in lp["inputs"]:
                if fam[0] not in self.families:
                    self.families[fam[0]] = (fam[1], fam[2], fam[3], False, "input")
            for eid, (ps, where, lhs, rhs) in lp["eqs"].items():
                ren = (lambda t: re.sub(rf"\b{state}\(", f"{name}(", t))
                self.rels[eid] = (ps, where, ren(lhs), ren(rhs))
        for name, fam in self.families.items():
            if len(fam) == 5 and name in ax.types:
                self.patterns[name] = ("diag" if fam[2] == "6" else "vector", f"{name}(k)")
        self.defs = ax.definitions()

    # -- letters -------------------------------------------------------------------------------
    def canon(self, text: str, env=None) -> str:
        env, text = env or {}, text.strip()
        m = _LSUM.match(text)
        if m:
            var, lo, hi, body = m.groups()
            if var in env or any(v[0] == var for v in env.values()) or var == "N":
                raise CertificateError(f"bound index {var} of {text} is captured")
            return self.sum_letter(var, _ixsub(_ix(lo), env), _ixsub(_ix(hi), env), self.poly(body, env, True))
        m = _LOPQ.match(text)
        if m:
            for g in m.group(1).split("*"):
                if g not in self.ax.types:
                    raise CertificateError(f"unknown operator {g} in {text}")
            return f"[{m.group(1)}]({_ixt(_ixsub(_ix(m.group(2)), env))})" + (m.group(3) or "")
        m = _LFAM.match(text)
        if not m or m.group(1) not in self.families:
            raise CertificateError(f"unknown block {text!r}")
        params, _, _, sym = self.families[m.group(1)][:4]
        args = [_ixsub(_ix(a), env) for a in m.group(2).split(",")] if m.group(2) is not None else []
        if len(args) != len(params):
            raise CertificateError(f"{text}: {m.group(1)} takes {len(params)} indices")
        t = "^T" if m.group(3) and not sym else ""
        return m.group(1) + (f"({','.join(_ixt(a) for a in args)})" if args else "") + t

    def sum_letter(self, var, lo, hi, body) -> str:
        terms = ";".join(f"{c}*{'*'.join(w) or 'I'}" for w, c in sorted(body.items()))
        return f"sum({var}={_ixt(lo)}..{_ixt(hi)}){{{terms}}}"

    def poly(self, text: str, env=None, compact=False) -> dict:
        text = text.strip()
        out: dict = {}
        if text in ("", "0"):
            return out
        for part in ([p for _, p in _split(text, ";")] if compact else [text]):   # ';': this checker's own bodies
            self._terms_into(out, part, env, compact)
        return out

    def _terms_into(self, out: dict, text: str, env, compact: bool) -> None:
        for sign, piece in _split(text, "+-"):
            piece = piece.strip()
            if not piece:
                if sign:
                    raise CertificateError(f"bad polynomial {text!r}")
                continue
            toks = [t.strip() for _, t in _split(piece, "*" if compact else " ") if t.strip()]
            c = Fraction(1)
            if toks and re.fullmatch(r"\d+(/\d+)?", toks[0]):
                c = Fraction(toks.pop(0))
            word = tuple(self.canon(t, env) for t in toks if t != "I")
            _acc(out, {word: -c if sign == "-" else c})

    def psub(self, p: dict, env: dict) -> dict:
        out: dict = {}
        for w, c in p.items():
            _acc(out, {tuple(self.canon(x, env) for x in w): c})
        return out

    def tr(self, letter: str) -> str:
        m = _LSUM.match(letter)
        if m:
            var, lo, hi, body = m.groups()
            return self.sum_letter(var, _ix(lo), _ix(hi), self.ptr(self.poly(body, None, True)))
        if letter.endswith("^T"):
            return letter[:-2]
        m = _LFAM.match(letter)
        if m and m.group(1) in self.families and self.families[m.group(1)][3]:
            return letter
        return letter + "^T"

    def ptr(self, p: dict) -> dict:
        return {tuple(self.tr(x) for x in reversed(w)): c for w, c in p.items()}

    def type(self, letter: str):
        m = _LSUM.match(letter)
        if m:
            types = {self.wtype(w) for w in self.poly(m.group(4), None, True)}
            if len(types) != 1 or None in types:
                raise CertificateError(f"{letter} is not a sum of one typed block")
            (t,) = types
            if any(re.search(rf"\b{m.group(1)}\b", s) for s in t):
                raise CertificateError(f"the type of {letter} depends on its bound index")
            return t
        m = _LOPQ.match(letter)
        if m:
            gens, at = m.group(1).split("*"), _ix(m.group(2))
            cod, dom = self.ax.types[gens[0]][0], self.ax.types[gens[-1]][1]
            t = (_space_at(cod, at), _space_at(dom, at))
            return (t[1], t[0]) if m.group(3) else t
        m = _LFAM.match(letter)
        params, cod, dom = self.families[m.group(1)][:3]
        env = dict(zip(params, [_ix(a) for a in m.group(2).split(",")] if m.group(2) else []))
        t = (_fam_space(cod, env), _fam_space(dom, env))
        return (t[1], t[0]) if m.group(3) else t

    def wtype(self, w):
        if not w:
            return None
        ts = [self.type(x) for x in w]
        for a, b in zip(ts, ts[1:]):
            if a[1] != b[0]:
                raise CertificateError(f"{' '.join(w)} is not a product of conforming blocks")
        return ts[0][0], ts[-1][1]

    # -- blocks of operators -------------------------------------------------------------------------
    def primitive(self, poly: dict) -> dict:
        """Definitions of symbols without a block pattern substituted until none is left."""
        for _ in range(60):
            out, changed = {}, False
            for w, c in poly.items():
                acc = {(): Fraction(1)}
                for g in w:
                    rep = self._def(g)
                    changed |= rep is not None
                    acc = _mul(acc, rep if rep is not None else {(g,): Fraction(1)})
                _acc(out, acc, c)
            poly = out
            if not changed:
                return poly
        raise CertificateError("the definitions do not terminate")

    def _def(self, g):
        if g in self.patterns or self.ax.tr.get(g) in self.patterns:
            return None
        if g in self.defs:
            return self.defs[g]
        t = self.ax.tr.get(g)
        return self.ax.ptr(self.defs[t]) if t in self.defs else None

    def _pat(self, g):
        if g in self.patterns:
            return self.patterns[g], False
        t = self.ax.tr.get(g)
        return (self.patterns[t], True) if t in self.patterns else (None, False)

    def shift(self, w):
        d = 0
        for g in w:
            (pat, tr) = self._pat(g)
            if pat is None or pat[0] not in ("diag", "shift", "lower"):
                return None
            if pat[0] == "shift":
                d += -pat[1] if tr else pat[1]
            elif pat[0] == "lower":
                d += 1 if tr else -1
        return d

    def block(self, poly: dict, row, col, ctx: _Ctx) -> dict:
        """Block (row, col) of an operator polynomial of block-sparse words ('.' = a single block)."""
        out: dict = {}
        for w, c in poly.items():
            b = self._block_word(w, row, col, ctx)
            if b is not None:
                _acc(out, {b: c})
        return out

    def _block_word(self, w, row, col, ctx):
        cur, word = row, []
        for pos, g in enumerate(w):
            pat, tr = self._pat(g)
            if pat is None or (pat[0] == "vector" and tr):
                dom = self.ax.types[w[-1]][1]
                if col != "." or cur == "." or dom not in ("1", "6", "e"):
                    raise CertificateError(f"block of {' '.join(w)}: {g} is not block-sparse")
                word.append(f"[{'*'.join(w[pos:])}]({_ixt(cur)})")
                return tuple(word)
            kind, arg = pat
            conds, letter = [], ""
            if kind == "diag":
                nxt, letter = cur, (_ltr(arg) if tr else arg)
            elif kind == "shift":
                nxt = (cur[0], cur[1] + (-arg if tr else arg))
                conds = [("le", (None, 1), nxt), ("le", nxt, ("N", 0))]
            elif kind == "lower":           # block (k, k-1) is the letter at k; of the transpose, (k, k+1) at k+1
                nxt = (cur[0], cur[1] + (1 if tr else -1))
                conds = [("le", (None, 1), nxt), ("le", nxt, ("N", 0))]
                letter = _ltr(re.sub(r"\bk\b", "k+1", arg)) if tr else arg
            elif kind == "vector":
                nxt, letter = ".", arg
            elif kind == "single":
                nxt, letter = ".", (_ltr(arg) if tr else arg)
            else:
                at = (None, 1) if kind == "tip" else ("N", 0)
                if tr:
                    nxt, letter = at, _ltr(arg)
                else:
                    nxt, letter, conds = ".", arg, [("eq", cur, at)]
            for kd, a, b in conds:
                ok = ctx.decide(kd, a, b)
                if ok is None:
                    raise CertificateError(f"block of {' '.join(w)}: the case does not decide {_ixt(a)} vs {_ixt(b)}")
                if not ok:
                    return None
            if letter:
                word.append(self.canon(letter, {"k": cur} if cur != "." else {}))
            cur = nxt
        if col == "." or cur == ".":
            if col != cur:
                raise CertificateError(f"block of {' '.join(w)}: ends at the wrong kind of block")
            return tuple(word)
        ok = ctx.decide("eq", cur, col)
        if ok is None:
            raise CertificateError(f"block of {' '.join(w)}: the case does not decide its column")
        return tuple(word) if ok else None

    # -- instances -----------------------------------------------------------------------------------
    def instance(self, label: str, ctx: _Ctx, lemmas: dict, ih=None):
        """The polynomial (lhs - rhs) of a relation instance; its conditions must follow from ctx."""
        m = re.match(r"^(sum-first|sum-last|sum-empty)\[(.*)\]$", label)
        if m:
            return self._sum(m.group(1), self.canon(m.group(2)), ctx)
        if label == "ih":
            if ih is None:
                raise CertificateError("ih outside an induction step")
            return ih
        tr = label.endswith("^T")
        core = label[:-2] if tr else label
        m = re.match(r"^([\w.-]+?)(?:\(([^()]*)\))?$", core)
        if not m:
            raise CertificateError(f"bad relation instance {label!r}")
        name = m.group(1)
        rel = lemmas.get(name) or self.rels.get(name)
        if rel is None:
            raise CertificateError(f"{name} is not a block relation, a loop equation or a lemma here")
        params, where, lhs, rhs = rel
        args = [_ix(a) for a in m.group(2).split(",")] if m.group(2) else []
        if len(args) != len(params):
            raise CertificateError(f"{label}: {name} takes {len(params)} indices")
        env = dict(zip(params, args))
        for a, b in _facts(where):
            if not ctx.le(_ixsub(a, env), _ixsub(b, env)):
                raise CertificateError(f"{label}: {_ixt(_ixsub(a, env))} <= {_ixt(_ixsub(b, env))} does not follow")
        p = _add(self.poly(lhs, env), self.poly(rhs, env), -1)
        return self.ptr(p) if tr else p

    def _sum(self, kind, letter, ctx):
        var, lo, hi, body = _LSUM.match(letter).groups()
        lo, hi = _ix(lo), _ix(hi)
        out = {(letter,): Fraction(1)}
        if kind == "sum-empty":
            if not ctx.le((hi[0], hi[1] + 1), lo):
                raise CertificateError(f"{letter} need not be empty")
            return out
        if not ctx.le(lo, hi):
            raise CertificateError(f"{letter} may be empty")
        b = self.poly(body, None, True)
        at, rest = (lo, ((lo[0], lo[1] + 1), hi)) if kind == "sum-first" else (hi, (lo, (hi[0], hi[1] - 1)))
        _acc(out, self.psub(b, {var: at}), -1)
        _acc(out, {(self.sum_letter(var, rest[0], rest[1], b),): Fraction(1)}, -1)
        return out

    def check_terms(self, target: dict, terms, ctx: _Ctx, lemmas: dict, what: str, ih=None) -> int:
        """Check target = sum c u instance v, every term a typed product of the target's type."""
        typs = {self.wtype(w) for w in target} - {None}
        if len(typs) > 1:
            raise CertificateError(f"{what}: the two sides are not one typed block")
        total: dict = {}
        for c, u, label, v in terms:
            p = self.instance(label, ctx, lemmas, ih)
            u = tuple(self.canon(x) for x in u)
            v = tuple(self.canon(x) for x in v)
            q = _mul(_mul({u: Fraction(1)}, p), {v: Fraction(1)})
            for w in q:
                t = self.wtype(w)
                if typs and t is not None and t not in typs:
                    raise CertificateError(f"{what}: a term of type {t} in a statement of type {typs}")
            total = _add(total, q, c)
        if total != target:
            diff = _add(target, total, -1)
            w = sorted(diff, key=lambda x: (len(x), x))[0]
            raise CertificateError(f"{what}: the terms do not add up (they differ in {len(diff)} words, e.g. "
                                   f"{' '.join(w) or 'I'})")
        return len(terms)


def _ltr(letter: str) -> str:
    return letter[:-2] if letter.endswith("^T") else letter + "^T"


_LINK_SPACES = ("s", "j", "f", "u")     # operator spaces with one block per link


def _space_at(space: str, at) -> str:
    return "6" if space == "s" else f"{space}({_ixt(at)})" if space in _LINK_SPACES else space


def _fam_space(s: str, env: dict) -> str:
    m = re.match(r"^([jfu])\((.+)\)$", s)
    return f"{m.group(1)}({_ixt(_ixsub(_ix(m.group(2)), env))})" if m else s


# ----------------------------------------------------------------------------- certificates
def _words(s: str) -> tuple:
    s = s.strip()
    return () if s == "." else tuple(s.split())


def _term_lines(lines, i, n, what):
    out = []
    for ln in lines[i:i + n]:
        parts = [p.strip() for p in ln.split("|")]
        if len(parts) != 4 or not ln.startswith("  "):
            raise CertificateError(f"bad term line {ln!r} in {what}")
        out.append((Fraction(parts[0]), _words(parts[1]), parts[2], _words(parts[3])))
    if len(out) != n:
        raise CertificateError(f"{what}: {n} terms announced, {len(out)} given")
    return out


def _read(cert_text: str):
    """(head, given, assume, conditions, lets, loops, items); an item is a dict with its kind."""
    lines = cert_text.splitlines()
    if not lines or lines[0].strip() != "soagen certificate 1":
        raise CertificateError("not a soagen certificate")
    head, given, assume, conds, lets, loops, items = {}, [], [], [], [], {}, []
    i = 1

    def terms(head_re):
        nonlocal i
        if i >= len(lines):
            raise CertificateError("certificate ends inside a proof")
        m = re.match(head_re + r": (\d+)$", lines[i])
        if not m:
            raise CertificateError(f"expected {head_re!r}, read {lines[i]!r}")
        n = int(m.group(m.lastindex))
        out = _term_lines(lines, i + 1, n, lines[i])
        i += 1 + n
        return out

    def cases():
        nonlocal i
        out = []
        while i < len(lines) and lines[i].startswith("case "):
            m = re.match(r"case (single|\.|-?\d+) (\S+)\.\.(\S+)$", lines[i]) or re.match(r"case (single)$", lines[i])
            if not m:
                raise CertificateError(f"bad case line {lines[i]!r}")
            i += 1
            d = m.group(1)
            rng = None if d == "single" else (_ix(m.group(2)), _ix(m.group(3)))
            out.append((d, rng, terms(r"terms")))
        return out

    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln == "end":
            return head, given, assume, conds, lets, loops, items
        key, _, rest = ln.partition(" ")
        if key in ("identity", "source", "algebra", "topology"):
            head[key] = rest.strip()
        elif key == "given":
            given.append(rest.strip())
        elif key in ("assume", "condition"):
            m = re.match(r"(\S+) : (.+?) -> (.+?)(?: \| |$)", rest)
            if not m:
                raise CertificateError(f"bad {key} line {ln!r}")
            (assume if key == "assume" else conds).append(m.groups())
        elif key == "let":
            name, _, expr = rest.partition("=")
            lets.append((name.strip(), expr.strip()))
        elif key == "loop":
            m = re.match(r"(\S+)(?: as (\w+))?$", rest)
            if m.group(1) in loops:
                raise CertificateError(f"loop {m.group(1)} declared twice")
            loops[m.group(1)] = m.group(2)
        elif key == "lemma":
            m = re.match(r"([\w.-]+)( by blocks)?: (.+) = (.+)$", rest)
            if not m:
                raise CertificateError(f"bad lemma line {ln!r}")
            if m.group(2):
                items.append({"kind": "blocks", "name": m.group(1), "lhs": m.group(3), "rhs": m.group(4), "cases": cases()})
            else:
                items.append({"kind": "op", "name": m.group(1), "lhs": m.group(3), "rhs": m.group(4), "terms": terms("terms")})
        elif key == "index-lemma":
            m = re.match(r"([\w.-]+) \(([\w,]*)\) \[(.*?)\]: (.+) = (.+)$", rest)
            if not m:
                raise CertificateError(f"bad index-lemma line {ln!r}")
            it = {"kind": "index-lemma", "name": m.group(1), "params": tuple(p for p in m.group(2).split(",") if p),
                  "where": m.group(3), "lhs": m.group(4), "rhs": m.group(5)}
            if i < len(lines) and lines[i].startswith("induction "):
                mi = re.match(r"induction (\w+) (up|down) (\S+)$", lines[i])
                if not mi:
                    raise CertificateError(f"bad induction line {lines[i]!r}")
                i += 1
                it["induction"] = mi.groups()
                it["base"], it["step"] = terms("base terms"), terms("step terms")
            else:
                it["terms"] = terms("terms")
            items.append(it)
        elif key == "claim":
            items.append(_claim(rest, ln, terms, cases))
        else:
            raise CertificateError(f"unexpected line {ln!r}")
    raise CertificateError("certificate has no 'end' line")


def _claim(rest, ln, terms, cases):
    m = re.match(r"(\d+) by blocks: (.+) = (.+)$", rest)
    if m:
        return {"kind": "claim-blocks", "n": int(m.group(1)), "lhs": m.group(2), "rhs": m.group(3), "cases": cases()}
    m = re.match(r"(\d+) index \[(.*?)\]: (.+) = (.+)$", rest)
    if m:
        return {"kind": "claim-index", "n": int(m.group(1)), "where": m.group(2), "lhs": m.group(3), "rhs": m.group(4),
                "terms": terms(rf"terms {m.group(1)}")}
    m = re.match(r"(\d+) block (\S+),(\S+) \[(.*?)\] of (.+?)(?: via ([\w.-]+))?: (.+)$", rest)
    if m:
        return {"kind": "claim-block", "n": int(m.group(1)), "row": m.group(2), "col": m.group(3), "where": m.group(4),
                "op": m.group(5), "via": m.group(6), "rhs": m.group(7), "terms": terms(rf"terms {m.group(1)}")}
    m = re.match(r"(\d+)(?: block (\d+),(\d+))?: (.+)$", rest)
    if not m:
        raise CertificateError(f"bad claim line {ln!r}")
    lhs, sep, rhs = m.group(4).partition(" = ")
    if not sep:
        raise CertificateError(f"claim without ' = ': {ln!r}")
    blk = (int(m.group(2)) - 1, int(m.group(3)) - 1) if m.group(2) else None
    return {"kind": "claim", "n": int(m.group(1)), "lhs": lhs, "rhs": rhs, "block": blk,
            "terms": terms(rf"terms {m.group(1)}")}


def check(cert_text: str, axioms: Axioms, blocks: Blocks | None = None) -> dict:
    """Check a certificate; return {'identity', 'claims', 'terms', 'conditions'} or raise CertificateError."""
    head, given, assume, conds, lets, loops, items = _read(cert_text)
    for key in ("identity", "algebra", "topology"):
        if key not in head:
            raise CertificateError(f"certificate without '{key}'")
    if head["algebra"] != axioms.name:
        raise CertificateError(f"certificate for algebra {head['algebra']}, axioms of {axioms.name}")
    if not any(it["kind"].startswith("claim") for it in items):
        raise CertificateError("certificate without claims")
    for kind, lines in (("reading", assume), ("condition", conds)):
        for rid, lhs, rhs in lines:
            table = {} if blocks is None else {lid: lp["reading"] for lid, lp in blocks.loops.items()} \
                if kind == "reading" else blocks.conditions
            if _norm(table.get(rid, ("", ""))) != _norm((lhs, rhs)):
                raise CertificateError(f"hypothesis {rid} : {lhs} -> {rhs} is not a pinned {kind} "
                                       "(axioms-blocks.txt, soagen/symbolic/engines/loops.py)")
    ax = axioms.with_record(given, list(assume) + list(conds))
    topo = head["topology"]
    env: dict = {}
    for name, expr in lets:
        if name in ax.types or name in _RESERVED or name in env:
            raise CertificateError(f"let {name}: the name is a generator or already bound")
        env[name] = ax.expr(expr, env)
    index = None
    if loops or any(it["kind"] in ("blocks", "index-lemma", "claim-blocks", "claim-index", "claim-block") for it in items):
        if blocks is None:
            raise CertificateError("a block-level certificate needs the block axioms (axioms-blocks.txt)")
        if topo != "chain":
            raise CertificateError("block-level proofs hold on chains; the topology must be chain")
        index = _Index(blocks, ax, loops)
    oplemmas, ixlemmas = {}, {}
    nterms = nclaims = 0
    block_claims: dict = {}
    for it in items:
        kind = it["kind"]
        what = f"{head['identity']}: {kind} {it.get('name', it.get('n'))}"
        if "name" in it and (it["name"] in ax.rel_text or it["name"] in oplemmas or it["name"] in ixlemmas
                             or (index and it["name"] in index.rels)):
            raise CertificateError(f"{what}: the name is taken")
        if kind in ("op", "claim"):
            nterms += _check_operator(ax, topo, oplemmas, env, it, what, block_claims)
            if kind == "op":
                poly, typ = _claim_poly(ax, env, it["lhs"], it["rhs"], None)
                oplemmas[it["name"]] = (poly, typ)
        elif kind in ("blocks", "claim-blocks"):
            nterms += _check_by_blocks(index, ax, it, ixlemmas, what)
            if kind == "blocks":
                oplemmas[it["name"]] = _claim_poly(ax, env, it["lhs"], it["rhs"], None)
        elif kind == "index-lemma":
            nterms += _check_index_lemma(index, it, ixlemmas, what)
            ixlemmas[it["name"]] = (it["params"], it["where"], it["lhs"], it["rhs"])
        elif kind == "claim-index":
            ctx = _Ctx(_facts(it["where"]))
            target = _add(index.poly(it["lhs"]), index.poly(it["rhs"]), -1)
            nterms += index.check_terms(target, it["terms"], ctx, ixlemmas, what)
        elif kind == "claim-block":
            ctx = _Ctx(_facts(it["where"]))
            src = it["op"]
            poly, _ = ax.single(src)
            if it["via"]:
                lem = next((x for x in items if x.get("name") == it["via"] and x["kind"] == "op"), None)
                if lem is None or it["via"] not in oplemmas or ax.single(lem["lhs"])[0] != poly:
                    raise CertificateError(f"{what}: via {it['via']}: no earlier operator lemma with left side {src}")
                poly = ax.single(lem["rhs"])[0]
            row = "." if it["row"] == "." else _ix(it["row"])
            col = "." if it["col"] == "." else _ix(it["col"])
            blk = index.block(index.primitive(poly), row, col, ctx)
            nterms += index.check_terms(_add(blk, index.poly(it["rhs"]), -1), it["terms"], ctx, ixlemmas, what)
        nclaims += kind.startswith("claim")
    for (lhs, rhs), (shape, seen) in block_claims.items():
        if len(seen) != shape[0] * shape[1] or len(set(seen)) != len(seen):
            raise CertificateError(f"{head['identity']}: the block claim {lhs} = {rhs} does not list each of its "
                                   f"{shape[0] * shape[1]} blocks once")
    return {"identity": head["identity"], "claims": nclaims, "terms": nterms,
            "conditions": [c[0] for c in conds]}


def _norm(pair) -> tuple:
    return tuple(" ".join(x.split()) for x in pair)


def _claim_poly(ax, env, lhs, rhs, blk):
    d = _plus(ax.expr(lhs, env), _neg(ax.expr(rhs, env)))
    if isinstance(d, _Scalar):
        if d.c:
            raise CertificateError(f"{lhs} = {rhs} is a false statement about the identity")
        return {}, None
    i, j = blk if blk is not None else (0, 0)
    if blk is None and (len(d.r), len(d.c)) != (1, 1):
        raise CertificateError(f"{lhs} = {rhs} is a block statement; certify it block by block")
    if i >= len(d.r) or j >= len(d.c):
        raise CertificateError(f"{lhs} = {rhs}: no block {i + 1},{j + 1}")
    return d.e[i][j], (d.r[i], d.c[j])


def _check_operator(ax, topo, oplemmas, env, it, what, block_claims) -> int:
    blk = it.get("block")
    target, typ = _claim_poly(ax, env, it["lhs"], it["rhs"], blk)
    if blk is not None:
        d = _plus(ax.expr(it["lhs"], env), _neg(ax.expr(it["rhs"], env)))
        block_claims.setdefault((it["lhs"], it["rhs"]), ((len(d.r), len(d.c)), []))[1].append(blk)
    total: dict = {}
    for c, u, rid, v in it["terms"]:
        base = rid[:-2] if rid.endswith("^T") else rid
        if base in oplemmas:
            poly, rtyp = oplemmas[base]
            if rid.endswith("^T"):
                poly, rtyp = ax.ptr(poly), (rtyp[1], rtyp[0]) if rtyp else None
        else:
            tops, poly, rtyp = ax.relation(rid)
            if topo not in tops:
                raise CertificateError(f"{what}: relation {rid} does not hold on topology {topo}")
        cod, dom = rtyp if rtyp else (None, None)
        if u:
            ut = ax.word_type(u)
            if cod is not None and ut[1] != cod:
                raise CertificateError(f"{what}: term {' '.join(u)} * {rid} does not conform")
            cod = ut[0]
        if v:
            vt = ax.word_type(v)
            if dom is not None and vt[0] != dom:
                raise CertificateError(f"{what}: term {rid} * {' '.join(v)} does not conform")
            dom = vt[1]
        if typ is not None and cod is not None and (cod, dom) != typ:
            raise CertificateError(f"{what}: a term of type {cod} <- {dom} in a claim of type {typ[0]} <- {typ[1]}")
        total = _add(total, _mul(_mul({u: Fraction(1)}, poly), {v: Fraction(1)}), c)
    if total != target:
        diff = _add(target, total, -1)
        w = sorted(diff, key=lambda x: (len(x), x))[0]
        raise CertificateError(f"{what}: the terms do not add up to lhs - rhs "
                               f"(they differ in {len(diff)} words, e.g. {' '.join(w) or 'I'})")
    return len(it["terms"])


def _check_by_blocks(index, ax, it, ixlemmas, what) -> int:
    """An operator equation block by block: every shift of its words gets cases that tile the
    rows where that shift has a block, and each case's block is proved."""
    poly, typ = ax.single(f"({it['lhs']}) - ({it['rhs']})")
    if typ is None:
        raise CertificateError(f"{what}: a multiple of the identity has no blocks")
    prim = index.primitive(poly)
    cases = it["cases"]
    if typ[0] not in _LINK_SPACES:
        if typ[1] in _LINK_SPACES or [c[0] for c in cases] != ["single"]:
            raise CertificateError(f"{what}: a single-block statement has one case, 'single'")
        ctx = _Ctx([])
        return index.check_terms(index.block(prim, ".", ".", ctx), cases[0][2], ctx, ixlemmas, what)
    if typ[1] in _LINK_SPACES:
        shifts = {index.shift(w) for w in prim}
        if None in shifts:
            raise CertificateError(f"{what}: a word is not made of shifts and block-diagonal operators")
        shifts = {str(d) for d in shifts} or {"0"}
    else:
        shifts = {"."}
    if {c[0] for c in cases} != shifts:
        raise CertificateError(f"{what}: cases for the shifts {sorted({c[0] for c in cases})}, the words have {sorted(shifts)}")
    n = 0
    for d in shifts:
        dd = None if d == "." else int(d)
        lo = (None, 1) if dd is None or dd >= 0 else (None, 1 - dd)
        hi = ("N", 0) if dd is None or dd <= 0 else ("N", -dd)
        mine = [c for c in cases if c[0] == d]
        nxt = lo
        for _, (a, b), _ in mine:
            if a != nxt:
                raise CertificateError(f"{what}: the cases of shift {d} do not tile the rows {_ixt(lo)}..{_ixt(hi)}")
            nxt = (b[0], b[1] + 1)
        if nxt != (hi[0], hi[1] + 1):
            raise CertificateError(f"{what}: the cases of shift {d} do not reach row {_ixt(hi)}")
        for _, (a, b), terms in mine:
            if a == b:
                row, ctx = a, _Ctx([])
            else:
                row, ctx = ("k", 0), _Ctx([(a, ("k", 0)), (("k", 0), b)])
            col = "." if dd is None else (row[0], row[1] + dd)
            n += index.check_terms(index.block(prim, row, col, ctx), terms, ctx, ixlemmas, f"{what} case {_ixt(a)}..{_ixt(b)}")
    return n


def _check_index_lemma(index, it, ixlemmas, what) -> int:
    facts = _facts(it["where"])
    target = _add(index.poly(it["lhs"]), index.poly(it["rhs"]), -1)
    if "induction" not in it:
        return index.check_terms(target, it["terms"], _Ctx(facts), ixlemmas, what)
    var, way, start = it["induction"]
    start = _ix(start)
    if var not in it["params"]:
        raise CertificateError(f"{what}: induction over {var}, not a parameter")
    ctx = _Ctx(facts)
    if not (ctx.le((var, 0), start) if way == "down" else ctx.le(start, (var, 0))):
        raise CertificateError(f"{what}: {var} does not stay {'below' if way == 'down' else 'above'} {_ixt(start)}")
    env = {var: start}
    base_ctx = _Ctx([(_ixsub(a, env), _ixsub(b, env)) for a, b in facts])
    n = index.check_terms(index.psub(target, env), it["base"], base_ctx, ixlemmas, what + " base")
    one = 1 if way == "down" else -1
    step_ctx = _Ctx(facts + [((var, 0), (start[0], start[1] - 1)) if way == "down" else ((start[0], start[1] + 1), (var, 0))])
    nxt = {var: (var, one)}
    for a, b in facts:                        # the hypothesis holds at the neighbour
        if not step_ctx.le(_ixsub(a, nxt), _ixsub(b, nxt)):
            raise CertificateError(f"{what}: the induction hypothesis leaves its range")
    n += index.check_terms(target, it["step"], step_ctx, ixlemmas, what + " step", ih=index.psub(target, nxt))
    return n


def check_file(path, axioms_dir=None) -> dict:
    """Check one certificate file against the axioms next to it (or in `axioms_dir`)."""
    from pathlib import Path

    path = Path(path)
    text = path.read_text()
    m = re.search(r"^algebra (\S+)$", text, re.M)
    if not m:
        raise CertificateError(f"{path.name}: no algebra line")
    d = Path(axioms_dir) if axioms_dir else path.parent
    ax_path = d / f"axioms-{m.group(1)}.txt"
    if not ax_path.is_file():
        raise CertificateError(f"{path.name}: no {ax_path.name} in {d}")
    bl = d / "axioms-blocks.txt"
    blocks = Blocks(bl.read_text()) if bl.is_file() else None
    try:
        return check(text, Axioms(ax_path.read_text()), blocks)
    except CertificateError as err:
        raise CertificateError(f"{path.name}: {err}") from None


def check_dir(directory, axioms_dir=None) -> list:
    """Check every certificate in `directory` against the axioms there (or in
    `axioms_dir`); [(file name, result)], raises on the first failure."""
    from pathlib import Path

    d = Path(directory)
    out = []
    for path in sorted(d.glob("*.txt")):
        if path.read_text().startswith("soagen certificate 1"):
            out.append((path.name, check_file(path, axioms_dir)))
    return out


def shipped_certificates():
    """The certificates soagen carries: their copy in the installed wheel
    (soagen/certificates), else docs/certificates of the repository; else that path
    relative to the current directory."""
    from pathlib import Path

    here = Path(__file__).resolve().parents[2]
    for d in (here / "certificates", here.parent / "docs" / "certificates"):
        if d.is_dir():
            return d
    return Path("docs/certificates")


def main(argv) -> int:
    """python -m soagen.symbolic.evidence.checker [PATH] [--axioms DIR]: PATH a certificate or a
    directory of them (default: the certificates soagen carries); exit 0 when all are
    valid, 1 when one is not, 2 for a command-line error."""
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(
        prog="python -m soagen.symbolic.evidence.checker",
        description="Check soagen certificates against their pinned axioms, with nothing of the proof engine.")
    parser.add_argument("path", nargs="?", default=shipped_certificates(), type=Path,
                        help="a certificate file, or a directory of them (default: %(default)s, the "
                             "certificates soagen carries)")
    parser.add_argument("--axioms", metavar="DIR", type=Path, default=None,
                        help="the directory of the axioms files (default: the certificates' own)")
    args = parser.parse_args(argv)
    if args.axioms is not None and not args.axioms.is_dir():
        parser.error(f"--axioms {args.axioms}: not a directory")
    if not args.path.exists():
        parser.error(f"{args.path}: no such file or directory")
    try:
        if args.path.is_dir():
            res = check_dir(args.path, args.axioms)
        else:
            res = [(args.path.name, check_file(args.path, args.axioms))]
    except (CertificateError, OSError) as err:
        print(f"FAILED: {err}")
        return 1
    if not res:
        print(f"FAILED: no certificates in {args.path}")
        return 1
    conds = sorted({c for _, r in res for c in r["conditions"]})
    print(f"{len(res)} certificates checked, {sum(r['claims'] for _, r in res)} claims, "
          f"{sum(r['terms'] for _, r in res)} terms: all valid"
          + (f" (under the conditions {', '.join(conds)})" if conds else ""))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
