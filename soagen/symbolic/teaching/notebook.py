"""A derivation as a Jupyter notebook: `soagen derive TOPIC --format ipynb`.

Each step of a bundled topic becomes a Markdown cell (the equality in LaTeX, and why it
holds: the rule or identity with its equation number, the catalogue record and a link to
its certificate) and a code cell that evaluates both sides with soagen on a random robot and
checks that they agree. The derivation is proved for every N before the notebook is written
(:func:`soagen.symbolic.teaching.derive.verified`); the numbers are a second look a student can
change (another seed, more links) and run again.

The code cells use the public numeric instances of the proof layer: the robot is
:func:`soagen.loaders.random_robots.random_chain`, its operators at a random state are
:func:`soagen.symbolic.evidence.numeric.robot_chain_ops` (the papers' operators as N x N arrays of
blocks built from the world-frame operator builder :func:`soagen.operators.chain.chain_operators`,
with the recursions of :mod:`soagen.dynamics` run on them, :mod:`soagen.symbolic.models.block_state`), evaluated in the
catalogue's own syntax (``@`` a product, ``.T`` a transpose, ``I`` the identity of any
size). The closed-form topic checks the printed formulas against :mod:`soagen.algorithms`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from soagen.errors import SoagenError
from soagen.symbolic.engines.nfree import GENERATORS
from soagen.symbolic.models import block_state
from soagen.symbolic.teaching.derive import (
    item_note,
    record_link,
    record_ref,
    sweep_latex,
    verified,
)
from soagen.symbolic.teaching.plain import markdown_to_plain
from soagen.symbolic.teaching.steps import Chain, Para, Rec

SEED = 2026
LINKS = 4          # links of the random chain: enough for every block pattern of a chain
FD_STEP = 1e-6     # central differences of (D.19): truncation ~h^2 and round-off ~1e-16/h, both < 1e-9

SETUP = f'''\
import numpy as np

from soagen.loaders.random_robots import random_chain
from soagen.symbolic.evidence.numeric import random_state, robot_chain_ops
from soagen.symbolic.models.chain import chain_namespace
from soagen.tolerances import ROBOT_RESIDUAL

rng = np.random.default_rng({SEED})
robot = random_chain({LINKS}, rng)   # revolute and prismatic joints, random axes, placements, masses
q, qd = random_state(robot, rng)   # a random state
ops = chain_namespace(robot_chain_ops(robot, q, qd, rng))   # the operators and sweeps at (q, qd)


def matrix(x):
    """An operator (an N x N array of blocks) as one matrix."""
    return np.asarray(x.dense() if hasattr(x, "dense") else x, dtype=float)


def check(lhs, rhs):
    """lhs = rhs up to round-off: |lhs - rhs| relative to the larger side (at least 1)."""
    sides = [np.linalg.norm(matrix(x)) for x in (lhs, rhs) if x is not ops["I"]]
    diff = np.linalg.norm(matrix(lhs - rhs)) / max(1.0, *sides)
    assert diff < ROBOT_RESIDUAL, f"the two sides differ: relative difference {{diff:.1e}}"
    print(f"equal (relative difference {{diff:.1e}})")'''

INTRO = (f"Every step below was proved for every chain length N by soagen's proof layer before this "
         f"notebook was written (the note after each chain or sweep says how). The code cells check each "
         f"step again with numbers: both sides evaluated on a random {LINKS}-link robot (links numbered "
         f"from the tip, k = 1, to the base, k = N, as in the papers). Run all cells from the top; change "
         f"the seed or the number of links and run again. The vectors in the code (`T`, `Tp`, `thdd`, "
         f"`a`, `b`, `f0`) are random: the steps hold for any.")

# The N-independent matrix algebras a chain may live in: their instance on the same robot,
# as code, and the operator names the instance redefines for that chain.
MATRIX_SETUP = {
    "fdderiv": (f'''\
# (D.19) holds for plain matrices of every size: here M is the robot's mass matrix, C(q, qd)
# its bias forces, T any joint forces, and d the derivative along the first joint position
# (central differences of soagen.algorithms, step {FD_STEP}).
from soagen import algorithms


def d(f, h={FD_STEP}):
    e = np.eye(robot.nv)[0] * h
    return (f(q + e) - f(q - e)) / (2 * h)


M = algorithms.mass_matrix(robot, q)
Minv = algorithms.inverse_mass_matrix(robot, q)
T = rng.normal(size=robot.nv)
Cb = algorithms.bias_forces(robot, q, qd)
dM = d(lambda x: algorithms.mass_matrix(robot, x))
dMinv = d(lambda x: algorithms.inverse_mass_matrix(robot, x))
dCb = d(lambda x: algorithms.bias_forces(robot, x, qd))''', ("M", "T")),
}


# the numbers behind a chain's own operators (Chain.given), by their names
GIVEN_SETUP = {
    ("Jm", "Pm", "Dminv", "psim", "Epsim"): '''\
# the chain's own operators: the same robot with a random rotor inertia (armature) J_m on every
# joint; its dense Riccati recursion forms D = H P H^T + J_m, and P, D^-1, psi, E_psi follow from it
from soagen.model import with_armature

armed = with_armature(robot, {b.joint_name: float(rng.uniform(0.05, 0.5)) for b in robot.bodies})
arm = chain_namespace(robot_chain_ops(armed, q, qd, rng))
Pm, Dminv, psim, Epsim = arm["P"], arm["Dinv"], arm["psi"], arm["Epsi"]
Jm = 0 * arm["D"]                          # J_m = D - H P H^T, block by block
for k in range(len(Jm.b)):
    Jm.b[k][k] = np.linalg.inv(Dminv.b[k][k]) - arm["D"].b[k][k]
print("J_m on the diagonal:", np.round(np.diag(matrix(Jm)), 12))''',
}


def notebook(topic: str, robot_path: str | None = None, links: str | None = None) -> str:
    """The notebook of a topic as JSON text (nbformat 4); ``links``: the prefix of the
    certificate links as seen from the notebook (:func:`soagen.symbolic.teaching.derive.certificate_link`)."""
    if topic == "planar2":
        cells = _closed_form_cells(robot_path)
    else:
        cells = _derivation_cells(topic, links)
    return _write(cells)


# ----------------------------------------------------------------------------- derivations
def _derivation_cells(topic: str, links: str | None) -> list:
    title, items = verified(topic)
    cells = [("markdown", f"# {title}\n\n*Generated by `soagen derive {topic} --format ipynb`.* {INTRO}"),
             ("code", SETUP), ("markdown", "The operators and sweeps this derivation uses, by their names "
                                          "in soagen (the glossary: docs/conventions.md):"),
             ("code", _bindings(items))]
    for item, note in items:
        cells += _item_cells(item, note, links)
    return cells


def _item_cells(item, note: str, links: str | None) -> list:
    if isinstance(item, Para):
        return [("markdown", item.markdown)]
    if isinstance(item, Chain):
        return _chain_cells(item, links) + ([("markdown", f"*({item_note(item, note, links)})*")] if note else [])
    code = f"# {item.title}: the loop (left) against the operator expression it computes (right)\n"
    code += "".join(f"{name} = {expr}\n" for name, expr in item.let)
    code += f"loop = {item.check[0]}\ncheck(loop, {item.check[1]})"
    return [("markdown", f"**{item.title}**\n\n{sweep_latex(item)}\n\nRead as operators, the loop computes "
                         f"`{item.check[1]}`; *({record_link(note, item.record, links)})*"),
            ("code", code)]


def _chain_cells(item, links: str | None) -> list:
    cells, shadowed = [], ()
    if item.given:
        names = tuple(g.partition(":")[0].strip() for g in item.given)
        if names not in GIVEN_SETUP:
            raise SoagenError(f"no numeric instance of the operators {', '.join(names)} for notebooks")
        cells.append(("code", GIVEN_SETUP[names]))
    if item.algebra != "chain":
        if item.algebra not in MATRIX_SETUP:
            raise SoagenError(f"no numeric instance of the matrix algebra {item.algebra!r} for notebooks")
        setup, shadowed = MATRIX_SETUP[item.algebra]
        cells.append(("code", setup))
    if item.let:
        cells.append(("code", _let_code(item.let)))
    prev_latex, prev_var = item.lhs_latex, None
    if item.lhs_expr is not None:
        prev_var = "lhs"
    for n, step in enumerate(item.steps, start=1):
        why = " ".join(filter(None, [f"**Why:** {step.why}." if step.why else "",
                                     f"This step is the catalogue record {record_ref(step.record, links)}."
                                     if step.record else ""]))
        text = f"$$\n\\begin{{aligned}}\n&{prev_latex} \\\\\n&= {step.latex}\n\\end{{aligned}}\n$$"
        if step.expr is None:
            text += "\n\n*(no operator expression: not checked with numbers here)*"
        cells.append(("markdown", f"{text}\n\n{why}".rstrip()))
        if step.expr is not None:
            var = f"step{n}"
            lines = [f"# {markdown_to_plain(step.why)}"] if step.why else []
            if prev_var == "lhs" and n == 1:
                lines.append(f"lhs = {item.lhs_expr}")
            lines.append(f"{var} = {step.expr}")
            lines.append(f"check({prev_var}, {var})" if prev_var else
                         "# the starting point: the next steps are checked against it")
            cells.append(("code", "\n".join(lines)))
            prev_var = var
        prev_latex = step.latex
    if shadowed:
        cells.append(("code", "# back to the operators\n" + "\n".join(f'{n} = ops["{n}"]' for n in shadowed)))
    return cells


def _let_code(let) -> str:
    """The chain's abbreviations; one that renames an operator (a hypothesis such as
    Psidot = Sdot) is checked on this robot instead of assigned."""
    known = {g.name for g in GENERATORS}
    lines = ["# the names this chain uses"]
    for name, expr in let:
        if name in known:
            lines.append(f"check({name}, {expr})   # the chain assumes {name} = {expr}: true on this robot")
        else:
            lines.append(f"{name} = {expr}")
    return "\n".join(lines)


def _bindings(items) -> str:
    """One line per operator name the topic's expressions use, with its meaning and source."""
    meaning = {g.name: f"{g.meaning}; {g.source}" if g.meaning else g.source for g in GENERATORS}
    exprs, local = [], set()
    for item, _ in items:
        if isinstance(item, Chain):
            if item.algebra != "chain":
                continue
            exprs += [item.lhs_expr] + [s.expr for s in item.steps]
        elif isinstance(item, Rec):
            exprs += list(item.check)
        else:
            continue
        exprs += [e for _, e in item.let]
        local |= {name for name, _ in item.let if name not in meaning}
        if isinstance(item, Chain):
            local |= {g.partition(":")[0].strip() for g in item.given}
    names = []
    for e in filter(None, exprs):
        for node in ast.walk(ast.parse(e, mode="eval")):
            if isinstance(node, ast.Name) and node.id not in local and node.id not in names:
                names.append(node.id)
    lines = []
    for name in sorted(names, key=lambda n: (n in block_state.CODE, n != "I", n.lower(), n)):
        if name == "I":
            note = "the identity, of whatever size the product needs"
        elif name in block_state.CODE:
            note = block_state.describe(name)
        else:
            note = meaning[name]
        lines.append(f'{name} = ops["{name}"]'.ljust(24) + f"# {note}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- closed forms
def _closed_form_cells(robot_path: str | None) -> list:
    import sympy as sp

    from soagen.loaders import load
    from soagen.model import symbolic_parameters
    from soagen.symbolic.teaching.closed_form import closed_form

    if robot_path is None:
        source, label = "planar2", "the bundled robot planar2"
    else:
        source = str(Path(robot_path).resolve())
        label = f"`{robot_path}`"
    robot = load(source)
    numeric = closed_form(robot, numeric=True)
    symbolic = closed_form(symbolic_parameters(robot), numeric=False)
    title = f"Closed-form dynamics of {robot.name}: T = M(q) qdd + C(q, qd) + g(q)"
    cells = [("markdown", f"# {title}\n\n*Generated by `soagen derive planar2"
                          f"{'' if robot_path is None else ' --robot ' + robot_path} --format ipynb`.* "
                          f"Robot: {label}, {robot.nv} joints (numbered as in the robot file: joint 1 at the "
                          "base). The formulas come from running soagen's O(N) algorithms (composite-body mass "
                          "matrix, recursive Newton-Euler) on SymPy symbols; the code below evaluates the printed "
                          "formulas at random states and compares them with the same algorithms run on numbers.")]
    for label, (_, _, M, C, g) in (("With the file's masses and inertias (6 significant digits)", numeric),
                                   ("With symbolic masses $m_i$, centres of mass $c_i$ and inertias $I_i$ "
                                    "(about the centre of mass), the file's geometry", symbolic)):
        cells.append(("markdown", f"## {label}\n\n" + "\n\n".join(
            f"$$\n{name} = {sp.latex(X)}\n$$" for name, X in (("M(q)", M), ("C(q, \\dot q)", C), ("g(q)", g)))))
    _, _, M, C, g = symbolic
    cells += [
        ("markdown", "The symbolic formulas, as SymPy expressions, with the robot file's values for the mass "
                     "properties (the names of `soagen.model.symbolic_parameters`):"),
        ("code", f'''\
import numpy as np
import sympy as sp

from soagen import algorithms
from soagen.loaders import load
from soagen.tolerances import ROBOT_RESIDUAL

robot = load({source!r})
M = sp.Matrix(sp.sympify({_rows(M)}))
C = sp.Matrix(sp.sympify({_rows(C)}))
g = sp.Matrix(sp.sympify({_rows(g)}))

values = {{}}
for i, body in enumerate(robot.bodies, start=1):
    values[f"m{{i}}"] = body.mass
    values.update({{f"c{{i}}_{{x}}": c for x, c in zip("xyz", body.com)}})
    values.update({{f"I{{i}}_{{a}}{{b}}": body.inertia["xyz".index(a), "xyz".index(b)]
                   for a, b in ("xx", "yy", "zz", "xy", "xz", "yz")}})
M, C, g = (X.subs(values) for X in (M, C, g))'''),
        ("markdown", "At random states, the formulas against `soagen.algorithms` (mass matrix; bias forces "
                     "C + g; gravity alone, the bias forces at rest):"),
        ("code", f'''\
def check(formula, reference):
    diff = np.linalg.norm(formula - reference) / max(1.0, np.linalg.norm(reference))
    assert diff < ROBOT_RESIDUAL, f"the formula differs: relative difference {{diff:.1e}}"
    print(f"equal (relative difference {{diff:.1e}})")


rng = np.random.default_rng({SEED})
for _ in range(3):
    qv, qdv = rng.uniform(-np.pi, np.pi, robot.nv), rng.normal(size=robot.nv)
    at = {{f"q{{i}}": x for i, x in enumerate(qv, 1)}} | {{f"qd{{i}}": x for i, x in enumerate(qdv, 1)}}
    check(np.array(M.subs(at), dtype=float), algorithms.mass_matrix(robot, qv))
    check(np.array((C + g).subs(at), dtype=float).ravel(), algorithms.bias_forces(robot, qv, qdv))
    check(np.array(g.subs(at), dtype=float).ravel(), algorithms.bias_forces(robot, qv, 0 * qdv))'''),
    ]
    return cells


def _rows(X) -> str:
    """A SymPy matrix as a list of rows of strings, one row per line."""
    import sympy as sp

    rows = "".join(f"    {[sp.sstr(e) for e in row]!r},\n" for row in X.tolist())
    return f"[\n{rows}]"


# ----------------------------------------------------------------------------- writing
def _write(cells) -> str:
    """The notebook as JSON: nbformat 4, Python 3 kernel, cell ids numbered (not random), so
    that the same topic gives the same bytes."""
    try:
        import nbformat
    except ImportError:
        raise SoagenError("--format ipynb needs nbformat: pip install 'soagen[notebooks]'") from None
    v4 = nbformat.v4
    nb = v4.new_notebook(metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    make = {"markdown": v4.new_markdown_cell, "code": v4.new_code_cell}
    nb.cells = [make[kind](source, id=f"cell-{n:03d}") for n, (kind, source) in enumerate(cells, start=1)]
    nbformat.validate(nb)
    return nbformat.writes(nb) + "\n"
