"""Independent checker of soagen certificates: parse, expand, compare.  No rewriting.

This module deliberately shares no code with the proof engine (it imports only the
standard library): it has its own parser for the expression syntax, its own
noncommutative polynomial arithmetic and its own typing.  Given an axioms file and a
certificate (formats in :mod:`soagen.symbolic.certificate`) it

1. reads the generators (with their types and transposes) and the relations;
2. for each claim ``lhs = rhs`` of the certificate, computes the polynomial lhs - rhs
   from the claim text itself (with the certificate's ``let`` bindings) and its type;
3. expands ``sum_i c_i u_i (rel_i.lhs - rel_i.rhs) v_i`` over the listed terms, checking
   that every term is a well-typed operator (u_i and v_i are products of generators that
   conform with the relation), that every relation exists in the axioms, holds on the
   certificate's topology, and, if it is a record-specific hypothesis, is declared;
4. compares the two polynomials word by word (exact rationals).

If all agree, lhs - rhs is a sum of well-typed operators each of which is zero whenever
the relations hold, so lhs = rhs holds for every chain length N (for every tree, if the
topology says so) and every joint dimension: the certificate is a proof.
"""

from __future__ import annotations

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
class Axioms:
    """The generators and relations of one algebra, read from its axioms file."""

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

    def _gen(self, text: str):
        m = re.match(r"(\S+) : (\S+) <- (\S+) \| (\S+)", text)
        if not m:
            raise CertificateError(f"bad generator declaration {text!r}")
        name, cod, dom, t = m.groups()
        if name in self.types or (t != name and t in self.types):
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
            poly = {tuple(self.tr[g] for g in reversed(w)): c for w, c in poly.items()}
            typ = (typ[1], typ[0])
        return tops, poly, typ

    def word_type(self, w: tuple):
        for g in w:
            if g not in self.types:
                raise CertificateError(f"unknown generator {g!r} in a cofactor")
        for g1, g2 in zip(w, w[1:]):
            if self.types[g1][1] != self.types[g2][0]:
                raise CertificateError(f"cofactor {' '.join(w)} is not a product of conforming operators")
        return (self.types[w[0]][0], self.types[w[-1]][1])


# ----------------------------------------------------------------------------- certificates
def _words(s: str) -> tuple:
    s = s.strip()
    return () if s == "." else tuple(s.split())


def _read(cert_text: str):
    lines = cert_text.splitlines()
    if not lines or lines[0].strip() != "soagen certificate 1":
        raise CertificateError("not a soagen certificate")
    head, given, assume, lets, claims = {}, [], [], [], []
    i = 1
    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln == "end":
            return head, given, assume, lets, claims
        key, _, rest = ln.partition(" ")
        if key in ("identity", "source", "algebra", "topology"):
            head[key] = rest.strip()
        elif key == "given":
            given.append(rest.strip())
        elif key == "assume":
            m = re.match(r"(\S+) : (.+?) -> (.+?) \|", rest)
            if not m:
                raise CertificateError(f"bad assume line {ln!r}")
            assume.append(m.groups())
        elif key == "let":
            name, _, expr = rest.partition("=")
            lets.append((name.strip(), expr.strip()))
        elif key == "claim":
            m = re.match(r"(\d+)(?: block (\d+),(\d+))?: (.+)$", rest)
            if not m:
                raise CertificateError(f"bad claim line {ln!r}")
            lhs, sep, rhs = m.group(4).partition(" = ")
            if not sep:
                raise CertificateError(f"claim without ' = ': {ln!r}")
            blk = (int(m.group(2)) - 1, int(m.group(3)) - 1) if m.group(2) else None
            claims.append([lhs, rhs, blk, []])
        elif key == "terms":
            m = re.match(r"(\d+): (\d+)$", rest)
            if not m or not claims:
                raise CertificateError(f"bad terms line {ln!r}")
            n = int(m.group(2))
            for ln2 in lines[i:i + n]:
                parts = [p.strip() for p in ln2.split("|")]
                if len(parts) != 4:
                    raise CertificateError(f"bad term line {ln2!r}")
                claims[-1][3].append((Fraction(parts[0]), _words(parts[1]), parts[2], _words(parts[3])))
            i += n
        else:
            raise CertificateError(f"unexpected line {ln!r}")
    raise CertificateError("certificate has no 'end' line")


def check(cert_text: str, axioms: Axioms) -> dict:
    """Check a certificate; return {'identity', 'claims', 'terms'} or raise CertificateError."""
    head, given, assume, lets, claims = _read(cert_text)
    for key in ("identity", "algebra", "topology"):
        if key not in head:
            raise CertificateError(f"certificate without '{key}'")
    if head["algebra"] != axioms.name:
        raise CertificateError(f"certificate for algebra {head['algebra']}, axioms of {axioms.name}")
    if not claims:
        raise CertificateError("certificate without claims")
    ax = axioms.with_record(given, assume)
    topo = head["topology"]
    env: dict = {}
    for name, expr in lets:
        env[name] = ax.expr(expr, env)
    nterms = 0
    for k, (lhs, rhs, blk, terms) in enumerate(claims, start=1):
        d = _plus(ax.expr(lhs, env), _neg(ax.expr(rhs, env)))
        if isinstance(d, _Scalar):
            if d.c:
                raise CertificateError(f"claim {k} is a false statement about the identity")
            target, typ = {}, None
        else:
            i, j = blk if blk is not None else (0, 0)
            if blk is None and (len(d.r), len(d.c)) != (1, 1):
                raise CertificateError(f"claim {k} is a block statement; certify it block by block")
            if i >= len(d.r) or j >= len(d.c):
                raise CertificateError(f"claim {k}: no block {i + 1},{j + 1}")
            target, typ = d.e[i][j], (d.r[i], d.c[j])
        total: dict = {}
        for c, u, rid, v in terms:
            tops, poly, rtyp = ax.relation(rid)
            if topo not in tops:
                raise CertificateError(f"claim {k}: relation {rid} does not hold on topology {topo}")
            cod, dom = rtyp
            if u:
                ut = ax.word_type(u)
                if ut[1] != rtyp[0]:
                    raise CertificateError(f"claim {k}: term {' '.join(u)} * {rid} does not conform")
                cod = ut[0]
            if v:
                vt = ax.word_type(v)
                if vt[0] != rtyp[1]:
                    raise CertificateError(f"claim {k}: term {rid} * {' '.join(v)} does not conform")
                dom = vt[1]
            if typ is not None and (cod, dom) != typ:
                raise CertificateError(f"claim {k}: a term of type {cod} <- {dom} in a claim of type {typ[0]} <- {typ[1]}")
            total = _add(total, _mul(_mul({u: Fraction(1)}, poly), {v: Fraction(1)}), c)
        if total != target:
            diff = _add(target, total, -1)
            w = sorted(diff, key=lambda x: (len(x), x))[0]
            raise CertificateError(f"claim {k} of {head['identity']}: the terms do not add up to lhs - rhs "
                                   f"(they differ in {len(diff)} words, e.g. {' '.join(w) or 'I'})")
        nterms += len(terms)
    return {"identity": head["identity"], "claims": len(claims), "terms": nterms}


def check_dir(directory) -> list:
    """Check every certificate in `directory` against the axioms file of its algebra there
    (``axioms-<algebra>.txt``); returns [(file name, result)], raises on the first failure."""
    from pathlib import Path

    d = Path(directory)
    axioms = {}
    out = []
    for path in sorted(d.glob("*.txt")):
        text = path.read_text()
        if not text.startswith("soagen certificate 1"):
            continue
        m = re.search(r"^algebra (\S+)$", text, re.M)
        if not m:
            raise CertificateError(f"{path.name}: no algebra line")
        name = m.group(1)
        if name not in axioms:
            ax = d / f"axioms-{name}.txt"
            if not ax.is_file():
                raise CertificateError(f"{path.name}: no {ax.name} next to it")
            axioms[name] = Axioms(ax.read_text())
        try:
            out.append((path.name, check(text, axioms[name])))
        except CertificateError as err:
            raise CertificateError(f"{path.name}: {err}") from None
    return out


if __name__ == "__main__":  # python -m soagen.symbolic.checker DIR
    import sys

    try:
        res = check_dir(sys.argv[1] if len(sys.argv) > 1 else "docs/certificates")
    except CertificateError as err:
        print(f"FAILED: {err}")
        sys.exit(1)
    print(f"{len(res)} certificates checked, {sum(r['claims'] for _, r in res)} claims, "
          f"{sum(r['terms'] for _, r in res)} terms: all valid")
