"""Flexible robots through the code generator and the CLI: the generated C and Python
against the generic recursions (the same code, unrolled on symbols), `soagen simulate`
with its flexible-body report."""

import numpy as np
import pytest
from click.testing import CliRunner

from soagen.cli.main import cli
from soagen.loaders.beam import Beam
from soagen.loaders.flexible import beam_robot
from soagen.loaders.random_robots import random_flexible_chain
from tests.support.codegen import build, compare


@pytest.mark.cc
def test_random_flexible_chain(tmp_path):
    """A chain mixing rigid and flexible links (foreshortening, rotations at the nodes,
    prismatic joints): 1e-10 relative, FD losing a few digits to D(k) inverted by an
    unrolled LDL^T vs numpy's inv."""
    robot = random_flexible_chain(2, np.random.default_rng(8), flexible=0.7, modes=(1, 2))
    assert robot.is_flexible
    compare(robot, *build(robot, None, tmp_path, algorithms=["inverse_dynamics", "forward_dynamics",
                                                              "jacobian_dot_qd"]), states=10, tol=1e-10)


@pytest.mark.cc
@pytest.mark.slow
def test_random_flexible_chain_all_functions(tmp_path):
    robot = random_flexible_chain(3, np.random.default_rng(8), flexible=0.7)
    compare(robot, *build(robot, None, tmp_path), states=10, tol=1e-10)


@pytest.mark.cc
def test_3d_beam_arm_with_torsion(tmp_path):
    """Two 3D beams (bending both ways and torsion, 3 modes each) on tilted axes."""
    b = Beam(length=1.0, EA=1.26e7, EIy=420.0, EIz=9.45, GJ=14.6, rhoA=0.471, rhoJ=1.6e-5)
    robot = beam_robot([b, b], modes=3, elements=4, shapes=("y", "z", "torsion"), joint_axis=(0.3, 0.2, 1.0),
                       hub_inertia=0.01)
    compare(robot, *build(robot, None, tmp_path, algorithms=["inverse_dynamics", "mass_matrix",
                                                               "forward_dynamics", "jacobian"]), states=10, tol=1e-10)


def test_simulate_reports_energy_and_deflection(tmp_path):
    out = tmp_path / "sim"
    result = CliRunner().invoke(cli, ["simulate", "flexbeam", "--backend", "numpy", "--controller", "zero",
                                      "-T", "0.02", "--dt", "1e-3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "energy balance" in result.output and "beam: transverse tip deflection at most" in result.output
    closes = float(result.output.split("J, ")[-1].split(" of the")[0])     # zero torques, no damping: E conserved
    assert closes < 1e-4            # 1.2e-5 of the energy exchanged in 20 steps of 1 ms (RK4's error)
    for f in ("modal_coordinates.png", "tip_deflection.png", "energy.png", "trajectory.csv"):
        assert (out / f).is_file()
    header = (out / "trajectory.csv").read_text().splitlines()[0]
    assert "q[beam.eta[y1]]" in header


def test_simulate_refuses_an_unstable_step(tmp_path):
    result = CliRunner().invoke(cli, ["simulate", "flexbeam", "--backend", "numpy", "--dt", "0.05",
                                      "--out", str(tmp_path / "s")])
    assert result.exit_code == 2 and "beyond RK4's stable step" in result.output
