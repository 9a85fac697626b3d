"""LaTeX of a derivation as plain text for the terminal (`soagen derive` without --format).

A derivation is written once, in LaTeX; the plain text is generated from it by
:func:`tex_to_plain` and written by hand only where the generated form is not what a
reader should see (see :mod:`soagen.symbolic.teaching.steps`). The plain text keeps the papers'
symbols as words with a space between factors (`\\Phi LH\\Psi` -> `Phi L H Psi`), glues
block indices and differentials to their symbol (`\\phi(k,k-1)` -> `phi(k,k-1)`,
`\\partial T/\\partial\\theta` -> `dT/dtheta`), and spells accents the way the code names
them (`\\ddot\\theta` -> `thdd`, `\\dot S` -> `Sdot`, `\\tilde\\phi` -> `phi~`).
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"\\dot\{\\mathcal\{[A-Za-z]\}\}"                          # \dot{\mathcal{M}}
    r"|\\partial\\dot\\theta"
    r"|\\bar\\times\^\*|\\times\^\*"
    r"|\\bar\s*(?:\\[A-Za-z]+|[A-Za-z])"                       # \bar f
    r"|\\tilde\\[A-Za-z]+"
    r"|\\(?:hat|ddot|dot)\s*(?:\\[A-Za-z]+|[A-Za-z])"          # the accent covers one symbol
    r"|\\mathcal\{[A-Za-z]\}(?:_\\[A-Za-z]+)?|\\mathrm\{[^}]*\}"
    r"|\\Delta_\\[A-Za-z]+"
    r"|[A-Za-z0-9]+(?:[+-][A-Za-z0-9]+)?\.\.[A-Za-z0-9]+(?:[+-][A-Za-z0-9]+)?"   # a range 1..N, l+1..N
    r"|\([ijklnN0-9+\-, ]+\)"                                  # block indices (k,k-1), (N+1), (0)
    r"|\\[A-Za-z]+|\\[,;]"
    r"|\^\{[^}]*\}|\^[A-Za-z0-9*]|_\{[^}]*\}|_[A-Za-z0-9]"
    r"|[A-Za-z]|[0-9]+|\S")

_WORD = {"\\tilde\\phi": "phi~", "\\tilde\\psi": "psi~", "\\Delta_\\phi": "Delta_phi", "\\Delta_\\psi": "Delta_psi",
         "\\ddot\\theta": "thdd", "\\dot\\theta": "thd", "\\partial\\dot\\theta": "dtheta_dot",
         "\\bar\\times^*": "xbar*", "\\times^*": "x*", "\\times": "x", "\\iff": "<=>", "\\leftarrow": "<-",
         "\\epsilon": "eps", "\\partial": "d"}
_SPACE = {"\\,": " ", "\\;": " ", "\\quad": "  ", "\\qquad": "    "}    # spacing LaTeX asks for
_SKIP = ("\\left", "\\right")                                             # \left( is just (
_CLOSE = (")", "]", ",", "'", ":", ";")
_OPS = ("+", "=", "<=>", "<-")


def _word(tok: str) -> str:
    """The plain spelling of one token."""
    if tok in _WORD:
        return _WORD[tok]
    if tok.startswith("\\dot{\\mathcal{"):                # the rate of the mass matrix, not Mdot
        return "d/dt " + tok[len("\\dot{\\mathcal{")]
    if tok.startswith(("\\dot", "\\ddot")):               # \dot M -> Mdot, \dot\Psi -> Psi_dot
        mark, base = ("ddot", tok[5:]) if tok.startswith("\\ddot") else ("dot", tok[4:])
        base = base.strip()
        return f"{base[1:]}_{mark}" if base.startswith("\\") else f"{base}{mark}"
    if tok.startswith("\\bar"):                           # \bar f -> fbar
        return tok[4:].strip().lstrip("\\") + "bar"
    if tok.startswith("\\hat"):                           # \hat z -> z
        return tok[4:].strip().lstrip("\\")
    if tok.startswith("\\tilde"):
        return tok[7:] + "~"
    if tok.startswith("\\mathcal{"):                      # \mathcal{E}_\phi -> E_phi
        return tok[9] + ("_" + tok[13:] if len(tok) > 11 else "")
    if tok.startswith("\\mathrm{"):
        return tok[8:-1]
    if tok.startswith("\\Delta_"):
        return "Delta_" + tok[8:]
    if tok.startswith("\\"):
        return tok[1:]
    return tok


def tex_to_plain(tex: str) -> str:
    """Inline TeX math as plain text: `\\Phi LH\\Psi` -> `Phi L H Psi`, `L(k-1)T'(k-1)` ->
    `L(k-1) T'(k-1)`, `\\partial T(k)/\\partial\\theta(l)` -> `dT(k)/dtheta(l)`."""
    out: list = []
    prev = ""          # the previous token: sym | open | op | glue (/ and the differential d) | ""
    force = ""         # a space LaTeX asked for (\, \; \quad \qquad) before the next token
    after_index = after_name = False     # block indices / a function name (diag, T_ID) just written
    for tok in _TOKEN.findall(tex):
        if tok in _SPACE:
            force = max(force, _SPACE[tok], key=len)
            continue
        if tok in _SKIP:
            continue
        if tok.startswith("^"):
            out.append("^" + tok[1:].strip("{}"))
            prev, force, after_index, after_name = "sym", "", False, False
            continue
        if tok.startswith("_"):
            out.append("_" + tok[1:].strip("{}"))
            after_name = len(out[-1]) > 2                 # T_{ID}(theta, ...): a named function
            continue
        word = _word(tok)
        index = tok.startswith("(") and len(tok) > 1
        if index:                                         # block indices stick to their symbol
            kind, sep = "sym", " " if prev == "op" else ""
        elif word in ("(", "["):
            last = out[-1].strip() if out else ""
            kind = "open"
            spaced = after_index or len(last) > 1 or last.isupper()
            sep = " " if prev == "op" or (prev == "sym" and spaced and not after_name) else ""
        elif word in _CLOSE:
            kind, sep, force = "sym", "", ""
        elif word in _OPS or (word == "-" and prev == "sym"):
            kind, sep = "op", " "
        elif word == "-":                                 # a sign
            kind, sep = "open", " " if prev == "op" else ""
        elif word in ("/", "d"):                          # a quotient or a differential: dT/dtheta
            kind, sep = "glue", " " if word == "d" and prev in ("sym", "op") else ""
        else:
            kind, sep = "sym", " " if prev in ("sym", "op") else ""
        if force and prev:
            sep = force
        out.append(sep + word)
        prev, force, after_index, after_name = kind, "", index, tok.startswith("\\mathrm")
    return "".join(out).strip()


def markdown_to_plain(text: str) -> str:
    """A Markdown paragraph with inline $...$ math as plain text (math converted, bold dropped)."""
    return re.sub(r"\$([^$]*)\$", lambda m: tex_to_plain(m.group(1)), text).replace("**", "")
