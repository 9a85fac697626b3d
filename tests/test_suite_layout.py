"""The test suite's own layout (issue 36): what tests share lives in one package,
tests/support; no test module imports another and nothing edits sys.path."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _modules():
    return sorted(p for p in TESTS.rglob("*.py") if "data" not in p.relative_to(TESTS).parts)


def test_helpers_live_in_tests_support():
    stray = [str(p.relative_to(TESTS)) for p in _modules()
             if p.parent.name != "support" and not p.name.startswith("test_") and p.name != "conftest.py"]
    assert not stray, f"helper modules outside tests/support: {stray}"


def test_no_test_module_imports_another_and_nothing_edits_sys_path():
    bad = []
    for p in _modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                names = []
            for n in names:
                if n.split(".")[-1].startswith("test_") or (n.startswith("tests.") and not n.startswith("tests.support")):
                    bad.append(f"{p.relative_to(TESTS)} imports {n}")
            if isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name) \
                    and node.value.id == "sys":
                bad.append(f"{p.relative_to(TESTS)} uses sys.path (monkeypatch.syspath_prepend for a built module)")
    assert not bad, bad


def test_rel_err_names_the_worst_entry():
    from tests.support.accuracy import rel_err

    e = rel_err([[1.0, 2.0], [3.0, 4.4]], [[1.0, 2.0], [3.1, 4.0]])
    assert abs(e - 0.1) < 1e-15 and repr(e) == f"{float(e)!r} (worst at [1, 1]: got 4.4, want 4.0)"
    assert repr(rel_err([1.0, float("nan")], [1.0, 2.0])).endswith("(worst at 1: got nan, want 2.0)")
    assert repr(rel_err([1.0], [1.0])) == "0.0"
