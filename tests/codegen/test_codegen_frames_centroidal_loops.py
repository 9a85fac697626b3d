"""Generated frame functions (frame_placement, frame_velocity, frame_acceleration: at the
tip, at each leaf frame of a branching robot or at the frames of --frames), centroidal
functions (center_of_mass, com_jacobian, centroidal_momentum_matrix, centroidal_bias) and
the closed system's loop_forward_dynamics, C and Python, against the generic algorithms.

Measured: frames and centroidal within 7e-16 relative; loop forward dynamics of the
four-bar within 1e-15, of the welded spatial chain within 3e-12: there A Lambda A^T has
condition number 1.5e4, and the generic (eigen-decomposition) and the generated (LDL of
the independent rows) solves of (3.11) differ by round-off times it."""

from __future__ import annotations

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.errors import SoagenError
from tests.support.accuracy import rel_err
from tests.support.codegen import REPO, build
from tests.support.erd import erd_path
from tests.support.loops import DATA, closed_state

FRAMES = ["frame_placement", "frame_velocity", "frame_acceleration"]
CENTROIDAL = ["center_of_mass", "com_jacobian", "centroidal_momentum_matrix", "centroidal_bias"]


def generic(robot, name, frame, x):
    q, qd, qdd = x["q"], x["qd"], x["qdd"]
    return {"frame_placement": lambda: A.frame_placements(robot, q, [frame])[frame.name],
            "frame_velocity": lambda: A.frame_velocities(robot, q, qd, [frame])[frame.name],
            "frame_acceleration": lambda: A.frame_accelerations(robot, q, qd, qdd, [frame])[frame.name],
            "center_of_mass": lambda: A.center_of_mass(robot, q),
            "com_jacobian": lambda: A.com_jacobian(robot, q),
            "centroidal_momentum_matrix": lambda: A.centroidal_momentum_matrix(robot, q),
            "centroidal_bias": lambda: A.centroidal_bias(robot, q, qd)}[name]()


def check(robot, path, tmp_path, states=4, **kw):
    manifest, lib, py = build(robot, path, tmp_path, algorithms=FRAMES + CENTROIDAL, **kw)
    rng = np.random.default_rng(0)
    worst = {}
    for _ in range(states):
        x = {"q": robot.random_configuration(rng), "qd": rng.normal(size=robot.nv), "qdd": rng.normal(size=robot.nv)}
        for fn, rec in manifest["functions"].items():
            base = rec.get("function", fn)
            frame = robot.frame(rec["frame"]) if "frame" in rec else robot.tip
            want = generic(robot, base, frame, x)
            args = [x[i] for i in rec["inputs"]]
            for got in (lib(fn, *args), np.array(getattr(py, fn)(*args), dtype=float)):
                worst[fn] = max(worst.get(fn, 0.0), rel_err(np.reshape(got, np.shape(want)), want))
    assert max(worst.values()) < 1e-12, worst
    return manifest


def test_tip_frame_and_centroidal_functions(tmp_path):
    robot = soagen.load(REPO / "robots" / "stanford.yaml")
    manifest = check(robot, REPO / "robots" / "stanford.yaml", tmp_path)
    assert set(manifest["functions"]) == set(FRAMES + CENTROIDAL)


def test_named_frames_of_a_floating_quadruped(tmp_path):
    path = erd_path("solo_description/robots/solo12.urdf")
    robot = soagen.load(path, floating_base=True)
    manifest = check(robot, path, tmp_path, states=2, frames=["FL_FOOT", "base_link"])
    assert {"frame_velocity_FL_FOOT", "frame_placement_base_link", "centroidal_bias"} <= set(manifest["functions"])


def test_flexible_robots_get_frames_but_no_centroidal_functions():
    from soagen.codegen.robot import render

    robot = soagen.load(REPO / "robots" / "flexarm2.yaml")
    with pytest.raises(SoagenError, match="center_of_mass not available for flexible bodies"):
        render(robot, None, algorithms=["center_of_mass"], langs=("python",))


LOOPS = {"fourbar": (DATA / "fourbar.yaml", 1e-12),       # closed at q = [1.0, -0.526.., 1.438..]
         "welded": (DATA / "welded.xml", 1e-10)}          # closed at MuJoCo's qpos0 (q = 0)
CLOSED = {"fourbar": [1.0, -0.5260888249335929, 1.4380176710407746]}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_loop_forward_dynamics(tmp_path, name):
    path, tol = LOOPS[name]
    if path.suffix == ".xml":
        pytest.importorskip("mujoco", reason="MJCF files are read with MuJoCo (optional 'mjcf' extra)")
    robot = soagen.load(path)
    manifest, lib, py = build(robot, path, tmp_path, algorithms=["loop_forward_dynamics"])
    assert manifest["functions"]["loop_forward_dynamics"]["inputs"] == ["q", "qd", "tau"]
    q0 = np.array(CLOSED[name]) if name in CLOSED else robot.neutral_configuration()
    assert np.abs(A.closure_errors(robot, q0)).max() < 1e-12
    for seed in range(3):
        q, qd, tau = closed_state(robot, q0, seed, spread=0.1)
        want = A.loop_forward_dynamics(robot, q, qd, tau)
        for got in (lib("loop_forward_dynamics", q, qd, tau), np.array(py.loop_forward_dynamics(q, qd, tau))):
            assert rel_err(got, want) < tol
            assert np.abs(A.closure_acceleration(robot, q, qd, got)).max() < 1e-9


def test_loop_forward_dynamics_of_a_tree_is_its_forward_dynamics(tmp_path):
    """Without loop closures the function is the tree's forward dynamics (so that it can be
    generated for any robot, as every named function)."""
    robot = soagen.load(REPO / "robots" / "planar2.yaml")
    manifest, lib, py = build(robot, REPO / "robots" / "planar2.yaml", tmp_path, algorithms=["loop_forward_dynamics"])
    rng = np.random.default_rng(1)
    q, qd, tau = robot.random_configuration(rng), rng.normal(size=2), rng.normal(size=2)
    assert rel_err(lib("loop_forward_dynamics", q, qd, tau), A.forward_dynamics(robot, q, qd, tau)) < 1e-12
