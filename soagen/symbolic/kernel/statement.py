"""The statement language of `soagen prove`, of the relation list and of the catalogue.

    statement  := expr '=' expr
    expr       := ['+'|'-'] product (('+'|'-') product)*
    product    := postfix (('@'|'*') postfix)*
    postfix    := atom ('.T')*
                | atom ('.T' | '[' INTEGER ']' | '.' NAME)*  (catalogue expressions only: calls=True)
    atom       := NAME | INTEGER | '(' expr ')'
                | NAME '(' [arg (',' arg)*] ')'         (catalogue expressions only)
    arg        := expr | STRING | NAME '=' (expr | STRING | 'True' | 'False')

A catalogue expression may also call what its namespace binds (the per-N engine's block
accessors ``block(L,1,1)``, ``phi_(2,1)``, the printed recursions ``rec_f(y, printed=True)``,
``blk2``, ``vcat``), with integer, string and keyword arguments; a statement a user types may
not.  Names are the operator names of docs/identities.md (``phi psi Phi Psi S Dphi Dpsi Ephi
Epsi H M P D Dinv G L K Mcal I`` ...), ``.T`` is the transpose, ``@`` (or ``*``) the
product, integers are scalar multiples of the identity.  The parser returns a small
tree that :func:`evaluate` runs over any namespace whose values support ``+ - @ .T`` and
multiplication by an integer (the N-free algebra, block operators, dense matrices), so
one statement is checked the same way by every engine.  Nothing is passed to ``eval``:
:func:`catalogue_expr` reads the catalogue's expressions the same way.

Errors are :class:`StatementError` (a :class:`~soagen.errors.SoagenError`): one line
naming the offending token and its column.
"""

from __future__ import annotations

import functools
import re

from soagen.errors import SoagenError


class StatementError(SoagenError):
    """A statement that cannot be parsed, or names an unknown operator."""


_TOKEN = re.compile(r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<str>'[^']*')"
                    r"|(?P<op>->|\.T(?![A-Za-z0-9_])|[-+@*()=,.\[\]])|(?P<bad>\S))")

_HINTS = {
    "^": " (write X.T for the transpose; inverses are not in the language: state A^-1 = B as A@B = I)",
    "/": " (only integer scalars; state A^-1 = B as A@B = I)",
    "[": " (use parentheses)",
    ".": " (the only postfix is .T)",
}


def tokenize(text: str) -> list[tuple[str, str, int]]:
    """[(kind, text, column)], column 1-based; kind in int, name, op."""
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m.group("bad") is not None:
            ch = m.group("bad")
            raise StatementError(f"syntax error at column {m.start('bad') + 1}: unexpected `{ch}`"
                                 + _HINTS.get(ch, ""))
        kind = m.lastgroup
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, calls: bool = False):
        self.toks = tokenize(text)
        self.i = 0
        self.text = text
        self.calls = calls

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "", len(self.text.rstrip()) + 1)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def fail(self, tok, expected: str):
        what = "end of statement" if tok[0] == "end" else f"`{tok[1]}`"
        raise StatementError(f"syntax error at column {tok[2]}: unexpected {what}"
                             + (_HINTS.get(tok[1]) or f" (expected {expected})"))

    def expr(self):
        sign = None
        if self.peek()[1] in ("+", "-"):
            sign = self.take()[1]
        node = self.product()
        if sign == "-":
            node = ("neg", node)
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            node = ("add" if op == "+" else "sub", node, self.product())
        return node

    def product(self):
        node = self.postfix()
        while self.peek()[1] in ("@", "*"):
            self.take()
            node = ("mul", node, self.postfix())
        return node

    def postfix(self):
        node = self.atom()
        while self.peek()[1] == ".T" or self.calls and self.peek()[1] in ("[", "."):
            op = self.take()[1]
            if op == ".T":
                node = ("T", node)
            elif op == "[":                        # one result of a recursion that returns several
                tok = self.take()
                if tok[0] != "int" or self.take()[1] != "]":
                    self.fail(tok, "an index and `]`")
                node = ("index", node, int(tok[1]))
            else:                                  # one field of what a recursion returns
                tok = self.take()
                if tok[0] != "name":
                    self.fail(tok, "a field name")
                node = ("attr", node, tok[1])
        return node

    def atom(self):
        tok = self.take()
        kind, text, _ = tok
        if kind == "int":
            return ("int", int(text))
        if kind == "name":
            if self.calls and self.peek()[1] == "(":
                return self.call(tok)
            return ("name", text, tok[2])
        if text == "(":
            node = self.expr()
            close = self.take()
            if close[1] != ")":
                self.fail(close, "`)`")
            return node
        self.fail(tok, "an operator name, an integer or `(`")

    def call(self, name_tok):
        """NAME '(' [arg (',' arg)*] ')' -> ('call', name, args, keywords, column)."""
        self.take()
        args, kwargs = [], []
        while self.peek()[1] != ")":
            if args or kwargs:
                if self.take()[1] != ",":
                    self.fail(self.toks[self.i - 1], "`,` or `)`")
            tok = self.peek()
            nxt = self.toks[self.i + 1] if self.i + 1 < len(self.toks) else ("end", "", 0)
            if tok[0] == "name" and nxt[1] == "=":
                self.i += 2
                kwargs.append((tok[1], self.argument()))
            elif kwargs:
                self.fail(tok, "a keyword argument")
            else:
                args.append(self.argument())
        self.take()
        return ("call", name_tok[1], tuple(args), tuple(kwargs), name_tok[2])

    def argument(self):
        tok = self.peek()
        if tok[0] == "str":
            self.take()
            return ("str", tok[1][1:-1])
        if tok[0] == "name" and tok[1] in ("True", "False"):
            self.take()
            return ("bool", tok[1] == "True")
        return self.expr()


def parse_expr(text: str, calls: bool = False):
    """An expression (`calls`: a catalogue expression, which may call its namespace's functions)."""
    p = _Parser(text, calls)
    node = p.expr()
    if p.peek()[0] != "end":
        p.fail(p.peek(), "an operator `+ - @ *`, `.T` or the end")
    return node


def parse(text: str):
    """`lhs = rhs` -> (lhs tree, rhs tree)."""
    p = _Parser(text)
    if not p.toks:
        raise StatementError("empty statement (write LHS = RHS)")
    lhs = p.expr()
    tok = p.take()
    if tok[1] != "=":
        p.fail(tok, "`=`" if tok[0] == "end" else "`=` or an operator")
    rhs = p.expr()
    if p.peek()[0] != "end":
        p.fail(p.peek(), "an operator `+ - @ *`, `.T` or the end")
    return lhs, rhs


def names(node) -> set:
    """Operator names used in a tree (and the functions it calls)."""
    return set(ordered_names(node))


def ordered_names(node) -> list:
    """The names a tree uses, in the order :func:`evaluate` looks them up (a function before
    its arguments)."""
    kind = node[0]
    if kind == "name":
        return [node[1]]
    if kind in ("int", "str", "bool"):
        return []
    if kind == "call":
        out = [node[1]]
        for a in list(node[2]) + [v for _, v in node[3]]:
            out += ordered_names(a)
        return out
    if kind in ("index", "attr"):
        return ordered_names(node[1])
    return [n for c in node[1:] if isinstance(c, tuple) for n in ordered_names(c)]


def evaluate(node, ns: dict):
    """Evaluate a tree over namespace `ns`; ns['I'] is the identity, integers are k * I."""
    kind = node[0]
    if kind == "name":
        try:
            return ns[node[1]]
        except KeyError:
            known = ", ".join(sorted(k for k in ns if not k.startswith("_")))
            raise StatementError(f"unknown operator `{node[1]}` at column {node[2]} (known: {known})") from None
    if kind == "int":
        return node[1] * ns["I"]
    if kind in ("str", "bool"):
        return node[1]
    if kind == "call":              # an integer argument is a number (a block index), not a multiple of I
        fn = evaluate(("name", node[1], node[4]), ns)
        args = [a[1] if a[0] == "int" else evaluate(a, ns) for a in node[2]]
        return fn(*args, **{k: v[1] if v[0] == "int" else evaluate(v, ns) for k, v in node[3]})
    if kind == "index":
        return evaluate(node[1], ns)[node[2]]
    if kind == "attr":
        return getattr(evaluate(node[1], ns), node[2])
    if kind == "neg":
        return -evaluate(node[1], ns)
    if kind == "T":
        return evaluate(node[1], ns).T
    a, b = evaluate(node[1], ns), evaluate(node[2], ns)
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    return a @ b


def unparse(node) -> str:
    """Canonical text of a tree (fully parenthesised where needed)."""
    kind = node[0]
    if kind == "name":
        return node[1]
    if kind == "int":
        return str(node[1])
    if kind == "str":
        return f"'{node[1]}'"
    if kind == "bool":
        return str(node[1])
    if kind == "call":
        args = [unparse(a) for a in node[2]] + [f"{k}={unparse(v)}" for k, v in node[3]]
        return f"{node[1]}({', '.join(args)})"
    if kind == "index":
        return f"{_wrap(node[1], 'T')}[{node[2]}]"
    if kind == "attr":
        return f"{_wrap(node[1], 'T')}.{node[2]}"
    if kind == "neg":
        return f"-{_wrap(node[1], 'neg')}"
    if kind == "T":
        return f"{_wrap(node[1], 'T')}.T"
    op = {"add": " + ", "sub": " - ", "mul": "@"}[kind]
    return f"{_wrap(node[1], kind, left=True)}{op}{_wrap(node[2], kind)}"


_PREC = {"add": 1, "sub": 1, "neg": 2, "mul": 3, "T": 4, "name": 5, "int": 5, "str": 5, "bool": 5, "call": 5, "index": 4, "attr": 4}


def _wrap(node, parent: str, left: bool = False) -> str:
    """Parenthesise a child where the grammar needs it; a negation only stands bare as the
    first operand of a sum (`-X + Y`), the only place the grammar has a sign."""
    s = unparse(node)
    p, c = _PREC[parent], _PREC[node[0]]
    if node[0] == "neg" and not (left and parent in ("add", "sub")):
        return f"({s})"
    if c < p or (c == p and not left and parent in ("sub", "mul")) or (parent == "T" and c < 5):
        return f"({s})"
    return s


@functools.lru_cache(maxsize=None)
def catalogue_expr(text: str):
    """A catalogue expression as a tree (parsed once per text; calls allowed)."""
    return parse_expr(text, calls=True)
