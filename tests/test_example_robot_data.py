"""Every URDF of example-robot-data (the robots people use): `soagen info` gives the
outcome docs/robot-format.md documents for it (loads / warning / refused, with the
message), and every robot that loads (with the documented option where it is refused
without one) agrees with Pinocchio: RNEA, CRBA, M^-1 and ABA (against each of FD1-FD4)
at random states, with a fixed and with a floating base. A representative subset runs by default, the whole sweep with
--runslow."""

import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from soagen import algorithms as A
from soagen.cli.main import cli
from soagen.oracles.pinocchio import Converter, example_robot_data_dir
from tests.support.oracles import joint_space_errors

pin = pytest.importorskip("pinocchio", reason="the oracle needs the optional 'pin' package (pip install soagen[test])")
ROOT = example_robot_data_dir()
if ROOT is None:
    pytest.skip("the optional 'example-robot-data' package is not installed", allow_module_level=True)
pytestmark = pytest.mark.oracle

DOC = Path(__file__).resolve().parents[1] / "docs" / "robot-format.md"
HEADING = "## Every URDF of example-robot-data"
# the representative subset of the default run: humanoids with rounding noise, massless
# fingers, a massless welded foot, triangle-inequality warnings, a mimic warning, the refusals
DEFAULT = {"romeo_description/urdf/romeo.urdf", "icub_description/robots/icub.urdf",
           "icub_description/robots/icub_reduced.urdf", "bolt_description/robots/bolt.urdf",
           "romeo_description/urdf/romeo_small.urdf", "romeo_description/urdf/romeo_laas_small.urdf",
           "alex_description/urdf/alex_psyonic_hands.urdf", "hector_description/robots/quadrotor_base.urdf",
           "ur_description/urdf/ur3.urdf", "solo_description/robots/solo12.urdf"}


def documented():
    """{file: (nv, outcome)} from the table of docs/robot-format.md."""
    text = DOC.read_text()
    section = text[text.index(HEADING):]
    rows = {}
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        m = re.match(r"\| `([^`]+\.urdf)` \| ([^|]+) \| (.+) \|$", line)
        if m:
            rows[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return rows


ROWS = documented()


def cases(floating=(False,)):
    return [pytest.param(rel, f, marks=() if rel in DEFAULT else pytest.mark.slow, id=f"{rel}{'-floating' if f else ''}")
            for rel in sorted(ROWS) for f in floating]


def fix_options(outcome):
    """The command-line options a refused robot loads with ("loads with `--lock X`")."""
    m = re.search(r"loads with `([^`]+)`", outcome)
    return m.group(1).split() if m else []


def test_every_urdf_is_documented():
    found = {str(p.relative_to(ROOT)) for p in ROOT.rglob("*.urdf")}
    assert found == set(ROWS) and len(found) == 69
    assert DEFAULT <= found


@pytest.mark.parametrize("rel,_", cases())
def test_info_gives_the_documented_outcome(rel, _):
    nv, outcome = ROWS[rel]
    path = str(ROOT / rel)
    r = CliRunner().invoke(cli, ["info", path])
    lines = r.output.splitlines()
    warned = [line for line in lines if line.startswith("warning: ")]
    if outcome.startswith("refused"):
        message = re.search(r"`([^`]+)`", outcome).group(1)
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith(f"error: {path}: ") and message in lines[0], r.output
        if fix_options(outcome):
            r = CliRunner().invoke(cli, ["info", path, *fix_options(outcome)])
            assert r.exit_code == 0 and f"nv {nv}" in r.output, r.output
        return
    assert r.exit_code == 0 and f"nv {nv}," in r.output, r.output
    if outcome.startswith("loads"):
        assert not warned, warned
    else:
        count, message = re.match(r"warning \((\d+)\): `([^`]+)`", outcome).groups()
        assert len(warned) == int(count) and all(message in w for w in warned[:1]), warned
        strict = CliRunner().invoke(cli, ["info", path, "--strict"])
        assert strict.exit_code == 2 and "(refused: strict)" in strict.output


def load(rel, floating):
    """soagen's model (with the documented options) and Pinocchio's model of the same file
    (locked joints removed by buildReducedModel at the neutral configuration)."""
    import soagen

    options = fix_options(ROWS[rel][1])
    lock = options[options.index("--lock") + 1].split(",") if "--lock" in options else []
    floating = floating or "--floating-base" in options
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", soagen.errors.RobotFileWarning)
        robot = soagen.load(ROOT / rel, floating_base=floating, lock=lock)
    model = pin.buildModelFromUrdf(str(ROOT / rel), *([pin.JointModelFreeFlyer()] if floating else []))
    from fnmatch import fnmatchcase

    locked = [model.getJointId(n) for n in model.names[1:] if any(fnmatchcase(n, p) for p in lock)]
    if locked:
        model = pin.buildReducedModel(model, locked, pin.neutral(model))
    return robot, model


@pytest.mark.parametrize("rel,floating", [c for c in cases((False, True))
                                          if not ROWS[c.values[0]][1].startswith("refused")
                                          or fix_options(ROWS[c.values[0]][1])])
def test_generic_algorithms_agree_with_pinocchio(rel, floating):
    robot, model = load(rel, floating)
    data, conv = model.createData(), Converter(robot, model)
    rng = np.random.default_rng(11)
    with np.errstate(all="raise"):                       # no inf/NaN on the way
        for _ in range(2):
            q = robot.random_configuration(rng)
            errs = joint_space_errors(robot, model, data, conv, q, *(rng.normal(size=robot.nv) for _ in range(3)))
            # an inverse is only as accurate as eps cond(M): iCub floating has cond(M) 1.5e8,
            # where Pinocchio's computeMinverse is 2e-9 from numpy's inv(M) (soagen's 2e-13)
            tol = {"minv": max(1e-9, 10 * np.finfo(float).eps * np.linalg.cond(A.mass_matrix(robot, q)))}
            assert all(e < tol.get(k, 1e-9) for k, e in errs.items()), errs
