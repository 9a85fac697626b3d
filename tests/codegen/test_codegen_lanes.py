"""The scalar C's columns computed four at a time (soagen.codegen.c.lanes): every function
whose recursions go through ``xp.columns`` (the derivative, Coriolis and regressor column
walks, the L^T D L solves of M^-1, J M^-1 J^T and the forward-dynamics derivatives),
compiled with vector extensions and as plain C99 loops (-DSOAGEN_NO_VECTOR), against the
generic implementation at random states: relative error <= 1e-12.

Robots: a tree on a free joint with a spherical joint (column blocks of 12 and 24
columns: full chunks and a partial one), the PUMA 560 and the two-link planar arm; and a
program built to have a step that must stay scalar (a temporary of the step stands for a
subexpression of its own inputs)."""

from types import SimpleNamespace

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.codegen.c import lanes
from soagen.codegen.c.printers import ScheduledCPrinter
from soagen.codegen.compile import load_c
from soagen.codegen.emit import write
from soagen.codegen.functions import generate_function
from soagen.codegen.robot import render
from soagen.codegen.unroll import LANES, MIN_LANES, lane_chunks, unrolled
from soagen.loaders.random_robots import random_chain
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, random_states

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
    body = lanes.lane_body(fn, ScheduledCPrinter())
    mapped = {name for step in fn.program.lanes for name in step.lanes}
    printed = {s["target"] for s in body["statements"] if s["kind"] == "scalar"}
    assert mapped and not mapped & printed
    assert sum(s["kind"] == "lanes" for s in body["statements"]) > 0
    assert len(body["statements"]) < len(fn.program.statements)


def test_a_step_that_needs_its_own_lanes_stays_scalar():
    """A step whose vectors would need themselves stays scalar. Built here as the
    common-subexpression pass can make it: a packed entry of the step's first block (column
    0) contains the whole expression of a lane of the same vector (column 1), so the pass
    makes that lane's temporary a term of the entry. The other step of the program, which
    does not read itself, is printed as lanes. (The planar arm's FD derivatives had such a
    step while they computed the composite inertias twice.)"""
    def build(xp):
        q, qd = xp.symbols("q", 4), xp.symbols("qd", 4)
        c, s = xp.cos(q[0]), xp.sin(q[0])
        B1, C = xp.name(q * qd + 1, "B1"), xp.name(qd * qd + q, "C")
        B2 = np.array([c * B1[1] + s * C[1] + q[1] + qd[0], q[1], q[2], q[3]], dtype=object)
        W = xp.columns(lambda B, D: c * B[0] + s * D[0] + B[1], [np.array([B1, B2]), np.array([C])], "W",
                       name_inputs=True)
        E = xp.columns(lambda B: s * B[0] + c * B[1], [np.array([C, qd])], "E")
        return np.concatenate([W, E])

    fn = SimpleNamespace(program=unrolled(build), results=[("out", (8,))])
    entry = next(st for st in fn.program.statements if st.target.name == "W_in0_1_0")
    assert "W_1" in {s.name for s in entry.expr.free_symbols}      # the pack reads a lane
    with lanes.nodes.use(fn.program.arena):
        walk = lanes._Lanes(fn, ScheduledCPrinter())
        live = walk.live()
        assert len(walk.order(live)) < len(live)                 # as lanes, the step needs itself
        assert walk.cyclic(live - set(walk.order(live))) == {0}
    vectors = [st["target"] for st in lanes.lane_body(fn, ScheduledCPrinter())["statements"]
               if st["kind"] == lanes.LOOP]
    assert vectors and all(v.startswith("E") for v in vectors)


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


def test_lane_chunks_cover_the_columns_in_order():
    """Chunks are consecutive columns, 4 each but the last, which has at least 3 (else its
    columns stay scalar: 6 columns are a chunk of 4 and 2 scalar ones)."""
    for m in range(41):
        chunks = lane_chunks(m)
        cols = [j for c in chunks for j in c]
        assert cols == list(range(len(cols))), m
        assert all(len(c) == LANES for c in chunks[:-1]) and all(len(c) >= MIN_LANES for c in chunks), m
        assert m - len(cols) == (m % LANES if m % LANES < MIN_LANES else 0), m


def test_columns_zero_by_construction_are_not_solved():
    """On a free joint, gravity does not see the base's position: the three translation
    columns of dT/dq are the number 0, so the solve of (D.19) takes the others only (its
    lanes span 2 nv - 3 columns), and dqdd/dq has exact zeros there, as the generic
    implementation has."""
    robot = _tree()
    fn = generate_function(robot, "forward_dynamics_derivatives")
    nv = robot.nv
    with lanes.nodes.use(fn.program.arena):
        dq = np.reshape(fn.program.outputs[:nv * nv], (nv, nv))
        zero = [j for j in range(nv) if all(e.is_Number and e.value == 0 for e in dq[:, j])]
    assert zero == [3, 4, 5]
    last = next(st for st in fn.program.lanes if st.label == f"ltdl_dxy{nv - 1}")    # one row, 2 nv - 3 columns
    assert [len(row[2]) for row in last.rows] == [len(c) for c in lane_chunks(2 * nv - len(zero))]
    for x in random_states(robot, 3, seed=9):
        want = A.forward_dynamics_derivatives(robot, x["q"], x["qd"], x["tau"])[0]
        assert np.all(want[:, zero] == 0)
