"""The scalar C's columns computed four at a time (soagen.codegen.lanes): every function
whose recursions go through ``xp.columns`` (the derivative, Coriolis and regressor column
walks, the L^T D L solves of M^-1, J M^-1 J^T and the forward-dynamics derivatives),
compiled with vector extensions and as plain C99 loops (-DSOAGEN_NO_VECTOR), against the
generic implementation at random states: relative error <= 1e-12.

Robots: a tree on a free joint with a spherical joint (column blocks of 12 and 24
columns: full chunks and a partial one), the PUMA 560, and the two-link planar arm, whose
forward-dynamics derivatives have a step that must stay scalar (a temporary of the step
stands for a subexpression of its own inputs)."""

import numpy as np
import pytest
from codegen_util import ROBOTS, random_states

import soagen
from soagen import algorithms as A
from soagen.codegen import lanes
from soagen.codegen.compile import load_c
from soagen.codegen.emit import comment, write
from soagen.codegen.functions import generate_function
from soagen.codegen.printers import ScheduledCPrinter
from soagen.codegen.robot import render
from soagen.loaders.random_robots import random_chain
from tests.helpers import rel_err

pytestmark = pytest.mark.cc

GENERIC = {
    "inverse_dynamics_derivatives": lambda r, x: A.inverse_dynamics_derivatives(r, x["q"], x["qd"], x["qdd"]),
    "forward_dynamics_derivatives": lambda r, x: A.forward_dynamics_derivatives(r, x["q"], x["qd"], x["tau"]),
    "coriolis_matrix": lambda r, x: A.coriolis_matrix(r, x["q"], x["qd"]),
    "regressor": lambda r, x: A.regressor(r, x["q"], x["qd"], x["qdd"]),
    "inverse_mass_matrix": lambda r, x: A.inverse_mass_matrix(r, x["q"]),
    "op_space_inverse_inertia": lambda r, x: A.op_space_inverse_inertia(r, x["q"]),
}


def _tree():
    return random_chain(4, np.random.default_rng(5), parents=[-1, 0, 1, 1],
                        kinds=["free", "spherical", "revolute", "revolute"])


ROBOT_CASES = {   # robot, functions, what the C must use (the 2 x 2 solves of planar2 stay scalar)
    "tree": (_tree, [n for n in GENERIC if n != "op_space_inverse_inertia"],     # no tip: frames per leaf
             ("SOAGEN_LANES(", "SOAGEN_PACK(", "SOAGEN_STORE(")),
    "puma560": (lambda: soagen.load(ROBOTS / "puma560.yaml"), list(GENERIC),
                ("SOAGEN_LANES(", "SOAGEN_PACK(", "SOAGEN_STORE(")),
    "planar2": (lambda: soagen.load(ROBOTS / "planar2.yaml"),
                ["inverse_dynamics_derivatives", "forward_dynamics_derivatives"], ("SOAGEN_LANES(", "SOAGEN_PACK(")),
}


@pytest.mark.parametrize("case", sorted(ROBOT_CASES))
def test_lanes_match_the_generic_implementation(case, tmp_path):
    make, names, uses = ROBOT_CASES[case]
    robot = make()
    res = render(robot, None, algorithms=names, langs=("c",), prefix="lanes")
    write(res, tmp_path)
    body = (tmp_path / "lanes.c").read_text().split("#endif /* SOAGEN_VECTOR_PRELUDE */")[1]
    assert all(use in body for use in uses)
    for flags in (("-O2",), ("-O2", "-DSOAGEN_NO_VECTOR")):
        lib = load_c(tmp_path, "lanes", res.manifest, build_dir=tmp_path, flags=flags)
        worst = {}
        for x in random_states(robot, 8, seed=3):
            for name in names:
                fn = res.manifest["functions"][name]
                got = lib(name, *[x[i] for i in fn["inputs"]])
                want = GENERIC[name](robot, x)
                got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
                worst[name] = max([worst.get(name, 0.0)] + [rel_err(g, w) for g, w in zip(got, want)])
        assert all(e <= 1e-12 for e in worst.values()), (case, flags, worst)


def test_every_lane_step_of_the_derivatives_is_printed_as_lanes():
    """On the PUMA 560 every column step of the derivatives of inverse dynamics becomes
    lanes: each of its temporaries is read from a lane or dropped, none is left as a
    scalar statement, and the C is shorter in statements than the scalar program."""
    robot = soagen.load(ROBOTS / "puma560.yaml")
    fn = generate_function(robot, "inverse_dynamics_derivatives")
    assert fn.program.lanes
    body = lanes.lane_body(fn, ScheduledCPrinter(), comment)
    mapped = {name for step in fn.program.lanes for name in step.lanes}
    printed = {s["target"] for s in body["statements"] if s["kind"] == "scalar"}
    assert mapped and not mapped & printed
    assert sum(s["kind"] == "lanes" for s in body["statements"]) > 0
    assert len(body["statements"]) < len(fn.program.statements)


def test_a_step_that_needs_its_own_lanes_stays_scalar():
    """The planar arm's forward-dynamics derivatives: the common-subexpression pass made
    a temporary of the derivative walk (its only column step: the solves have 2 columns)
    stand for a subexpression that the walk's own first block reads, so the step cannot
    be lanes (it would need itself). It stays scalar, and with no other step the function
    is printed as without lanes."""
    robot = soagen.load(ROBOTS / "planar2.yaml")
    fn = generate_function(robot, "forward_dynamics_derivatives")
    assert [step.label for step in fn.program.lanes] == ["dF0_1"]
    with lanes.nodes.use(fn.program.arena):
        walk = lanes._Lanes(fn, ScheduledCPrinter())
        live = walk.live()
        assert len(walk.order(live)) < len(live)                 # as lanes, it needs itself
        assert walk.cyclic(live - set(walk.order(live))) == {0}
    assert lanes.lane_body(fn, ScheduledCPrinter(), comment) == {}


def test_lanes_with_the_parameters_as_inputs(tmp_path):
    """With --symbolic-params the walks and solves carry the parameters' symbols: the
    PUMA 560's derivatives, given its own dynamic parameters, against the generic ones."""
    robot = soagen.load(ROBOTS / "puma560.yaml")
    names = ["inverse_dynamics_derivatives", "forward_dynamics_derivatives"]
    res = render(robot, None, algorithms=names, langs=("c",), prefix="lanes", symbolic_params=True)
    write(res, tmp_path)
    assert "SOAGEN_LANES(" in (tmp_path / "lanes.c").read_text().split("SOAGEN_VECTOR_PRELUDE */")[1]
    lib = load_c(tmp_path, "lanes", res.manifest, build_dir=tmp_path)
    pi = A.inertial_parameters(robot)
    for x in random_states(robot, 5, seed=4):
        for name in names:
            fn = res.manifest["functions"][name]
            got = lib(name, *[x[i] for i in fn["inputs"] if i != "params"], pi)
            want = GENERIC[name](robot, x)
            assert max(rel_err(g, w) for g, w in zip(got, want)) <= 1e-12, name
