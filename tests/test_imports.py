"""Layering evidence: the import graph of soagen has no cycle (every import counted,
including those inside functions, which is how cycles hide), and every module imports
on its own in a fresh interpreter, whatever was imported before it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

from tests.support.installed import child_env, package_root

ROOT = package_root()          # the soagen under test: the checkout's, or the installed wheel's
OPTIONAL = ("pinocchio", "example_robot_data", "mujoco", "jax", "torch", "xacro", "cffi", "symengine", "exudyn")


def modules():
    """soagen's modules: dotted name -> file."""
    out = {}
    for p in sorted((ROOT / "soagen").rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def import_graph(mods):
    """module -> the soagen modules it imports (``from pkg import sub`` counts as sub)."""
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                edges.update(f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names)
        graph[name] = sorted(e for e in edges if e in mods and e != name)
    return graph


def cycles(graph):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycle():
    graph = import_graph(modules())
    assert len(graph) > 50 and "soagen.codegen.records" in graph["soagen.codegen.emit"]
    assert cycles(graph) == []


def test_the_codegen_layers():
    """The SymPy-compatible core (codegen/graph/) imports nothing of soagen but the
    errors; the C backend (codegen/c/) is reached only through the language table (and
    its own tests); the engine knows nothing of robots (docs/architecture.md)."""
    graph = import_graph(modules())
    for name, edges in graph.items():
        if name.startswith("soagen.codegen.graph"):
            assert all(e.startswith("soagen.codegen.graph") or e == "soagen.errors" for e in edges), (name, edges)
        if not name.startswith(("soagen.codegen.c", "soagen.codegen.languages")):
            assert not [e for e in edges if e.startswith("soagen.codegen.c.")], (name, edges)
    engine = ("graph", "graph.expr", "graph.cse", "graph.order", "unroll", "printing", "python_printers",
              "records", "languages", "emit", "c", "c.body", "c.printers", "c.lanes", "c.sum_order",
              "c.statement_order")
    for short in engine:
        edges = graph[f"soagen.codegen.{short}"]
        assert not [e for e in edges if e.startswith(("soagen.model", "soagen.dynamics", "soagen.algorithms",
                                                      "soagen.loaders"))], (short, edges)


def test_the_symbolic_layers():
    """soagen/symbolic/ by role (docs/architecture.md): the kernel imports nothing of soagen
    but itself and the errors; engines and models nothing of evidence or teaching; evidence
    nothing of teaching."""
    rank = {"kernel": 0, "engines": 1, "models": 1, "evidence": 2, "teaching": 3}
    graph = import_graph(modules())
    roles = {n.split(".")[2] for n in graph if n.startswith("soagen.symbolic.")}
    assert roles == set(rank)
    for name, edges in graph.items():
        if not name.startswith("soagen.symbolic."):
            continue
        role = name.split(".")[2]
        for e in edges:
            if role == "kernel":
                assert e.startswith("soagen.symbolic.kernel") or e == "soagen.errors", (name, e)
            elif e.startswith("soagen.symbolic."):
                assert rank[e.split(".")[2]] <= rank[role], (name, e)


def test_the_cycle_check_can_fail():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]


SCRIPT = """
import importlib, json, sys
results = {}
for name in json.loads(sys.argv[1]):
    for m in [m for m in sys.modules if m == "soagen" or m.startswith("soagen.")]:
        del sys.modules[m]
    try:
        importlib.import_module(name)
        results[name] = "ok"
    except ModuleNotFoundError as err:
        results[name] = f"missing {err.name}"
    except Exception as err:
        results[name] = f"{type(err).__name__}: {err}"
print(json.dumps(results))
"""


def test_every_module_imports_on_its_own_in_a_fresh_interpreter():
    names = sorted(modules())
    run = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(names)], capture_output=True,
                         text=True, cwd=ROOT, env=child_env({"PATH": ""}))
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    bad = {n: r for n, r in results.items()
           if r != "ok" and not (r.startswith("missing ") and r.split()[1].split(".")[0] in OPTIONAL)}
    assert not bad, bad
    assert sum(r == "ok" for r in results.values()) >= len(names) - 2
