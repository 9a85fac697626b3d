"""The emitter's interface (soagen.codegen.emit): languages are data, bad requests are
refused, and a language's extras reach its templates."""

import re
from dataclasses import replace

import pytest

import soagen
from soagen.codegen import emit
from soagen.codegen.functions import generate_function
from soagen.codegen.languages import Language
from soagen.codegen.python_printers import PyPrinter
from soagen.errors import SoagenError
from tests.support.codegen import ROBOTS


@pytest.fixture(scope="module")
def planar2():
    robot = soagen.load(ROBOTS / "planar2.yaml")
    header = emit.Header(prefix="p2", model=robot.name, kind="robot", source="planar2.yaml",
                      sha256=emit.file_digest(None), nq=robot.nq, nv=robot.nv, joints=("0  j1", "1  j2"),
                      conventions=("a convention",), references=("a reference",), command="regen")
    return [generate_function(robot, "mass_matrix")], header


@pytest.fixture(scope="module")
def planar2_fd():
    return generate_function(soagen.load(ROBOTS / "planar2.yaml"), "forward_dynamics")


def _recount(py_text, function):
    """Operation counts of one function of generated stdlib Python, read off its text (not
    by count_ops, which made the manifest's): each * a mul (x*x is how x^2 prints), each
    binary + or - an add (printed with spaces; a sign has none), each / a div, each
    math.sin/cos call a trig."""
    body = py_text[py_text.index(f"def {function}("):].split("\n\n\ndef ")[0]
    counts = {"mul": 0, "add": 0, "div": 0, "trig": 0, "sqrt": 0}
    for rhs in re.findall(r"^    \S+ = (.+)$", body, re.M):
        if "for _ in" in rhs:                           # an output's list of rows
            continue
        if "**" in rhs:
            raise AssertionError(f"a power the recount does not read: {rhs}")
        counts["mul"] += rhs.count("*")
        counts["add"] += rhs.count(" + ") + rhs.count(" - ")
        counts["div"] += rhs.count("/")
        counts["trig"] += rhs.count("math.sin(") + rhs.count("math.cos(")
        counts["sqrt"] += rhs.count("math.sqrt(")
    return counts


def test_files_and_manifest(planar2, planar2_fd):
    functions, header = planar2
    out = emit.emit(functions + [planar2_fd], header, ("c", "python"))
    assert sorted(out.files) == ["p2.c", "p2.h", "p2.py", "p2_manifest.json"]
    assert out.manifest["robot"] == "planar2" and out.manifest["files"] == ["p2.c", "p2.h", "p2.py"]
    fn = out.manifest["functions"]["mass_matrix"]
    assert fn["shape"] == [2, 2] and fn["inputs"] == ["q"]
    for name, record in out.manifest["functions"].items():       # FD has a division
        assert record["ops"] == _recount(out.files["p2.py"], name), name
    assert out.manifest["functions"]["forward_dynamics"]["ops"]["div"] == 1
    assert "// a reference" in out.files["p2.h"] and "regen" in out.files["p2.c"]


def test_python_several_outputs_of_one_and_two_dimensions(planar2):
    """The stdlib Python module returns each of several outputs as a list (1-D) or as a
    list of rows (2-D): the mass matrix split into its first row and a 1 x 2 second row."""
    (fn,), header = planar2
    split = replace(fn, name="split", output="a", shape=(2,), more_outputs=(("b", (1, 2)),))
    ns = {}
    exec(emit.emit([fn, split], header, ("python",)).files["p2.py"], ns)
    q = [0.3, -0.7]
    m = ns["mass_matrix"](q)
    assert ns["split"](q) == (m[0], [m[1]])


def test_unknown_language_and_clashing_files_are_refused(planar2):
    functions, header = planar2
    with pytest.raises(SoagenError, match="unknown language 'fortran'"):
        emit.emit(functions, header, ("c", "fortran"))
    with pytest.raises(SoagenError, match="more than one writes p2.py"):
        emit.emit(functions, header, ("python", "numpy"))


def test_a_new_language_is_one_table_entry(planar2, monkeypatch):
    """A language registered in LANGUAGES is emitted, and its extras reach the template."""
    functions, header = planar2
    extra = Language("shout", PyPrinter, (("python/module.py.j2", "{prefix}_shout.py"),),
                       extras=lambda fn, printer, rec: {"summary": fn.summary.upper()})
    monkeypatch.setitem(emit.LANGUAGES, "shout", extra)
    out = emit.emit(functions, header, ("shout",))
    assert sorted(out.files) == ["p2_manifest.json", "p2_shout.py"]
    assert "MASS MATRIX M(Q)" in out.files["p2_shout.py"]
