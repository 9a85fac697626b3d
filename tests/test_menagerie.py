"""MuJoCo Menagerie as it is: every model file of the ``mujoco-menagerie`` package's registry
(each robot's top-level XMLs), loaded through soagen's MJCF loader with armature and passive
forces, against MuJoCo's own dynamics of the same file: the mass matrix with armature
(mj_fullM), the bias forces (qfrc_bias - qfrc_passive), the passive forces (qfrc_passive),
inverse dynamics (mj_inverse) and forward dynamics (mj_forward's qacc, zero ctrl), within
1e-8 relative, with what soagen names in a warning as not modelled switched off in MuJoCo's
model (:func:`soagen.oracles.mujoco.modelled_only`).

The package ships the registry only; the model files come from its cache (downloaded on first
use) or from a checkout named by MENAGERIE_ROOT, so without either (no network, as in CI) these
tests skip. A Panda, UR5e, a quadruped (Unitree Go2) and a humanoid (Unitree H1) run by
default; every file with --runslow (benchmarks/menagerie.py prints the whole table)."""

import warnings

import pytest

import soagen

mm = pytest.importorskip("mujoco_menagerie", reason="needs the optional 'mujoco-menagerie' package")
pytest.importorskip("mujoco", reason="MJCF is read with the optional 'mujoco' package")
pytestmark = pytest.mark.oracle

TOL = 1e-8
DEFAULT = [("franka_emika_panda", "panda"), ("universal_robots_ur5e", "ur5e"), ("unitree_go2", "go2"),
           ("unitree_h1", "h1")]


UNAVAILABLE = []       # the first download that failed: the others are not tried (no network)


class Unavailable(Exception):
    """A registry entry whose file this machine does not have."""


def path_of(robot, entry):
    """The file of a registry entry, or Unavailable with the reason (no cache and no network,
    an entry this copy of the Menagerie does not have)."""
    if UNAVAILABLE and not mm.Cache().root:
        raise Unavailable(UNAVAILABLE[0])
    try:
        path = mm.get(robot).xml(entry)
    except mm.MenagerieError as err:
        UNAVAILABLE.append(f"MuJoCo Menagerie's files are not available here ({type(err).__name__}: set "
                           "MENAGERIE_ROOT to a checkout, or let the package download them)")
        raise Unavailable(UNAVAILABLE[-1]) from None
    if not path.is_file():
        raise Unavailable(f"{path} is not in this copy of the Menagerie")
    return path


def check(robot_name, entry):
    """(robot, agreement) of one file; Unavailable when the file is not here or MuJoCo cannot
    compile this copy of it."""
    from soagen.errors import RobotFileError
    from soagen.oracles.mujoco import compare

    path = path_of(robot_name, entry)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            robot = soagen.load(path)
        except RobotFileError as err:
            if "MuJoCo cannot compile it" in str(err):
                raise Unavailable(f"MuJoCo cannot compile this copy: {err}") from None
            raise
    texts = [str(w.message) for w in rec]
    assert not any("armature is not modelled" in t for t in texts)
    kinds = [t.split(": ", 2)[-1] for t in texts]
    assert len(kinds) == len(set(kinds)), "one warning line per kind"
    agreement = compare(robot, path, states=2)
    assert agreement.worst < TOL, f"{robot_name}/{entry}: {agreement}"
    return robot, agreement


def checked(robot_name, entry):
    try:
        return check(robot_name, entry)
    except Unavailable as why:
        pytest.skip(str(why))


@pytest.mark.parametrize("robot_name, entry", DEFAULT, ids=[r for r, _ in DEFAULT])
def test_representative_models_agree_with_mujoco(robot_name, entry):
    robot, _ = checked(robot_name, entry)
    assert robot.has_armature or any(b.joint.damping for b in robot.bodies)


def test_passive_forces_are_compared_where_a_model_has_them():
    """Go2's legs are damped: soagen's passive forces are MuJoCo's qfrc_passive, not zero."""
    import numpy as np

    from soagen import algorithms as A

    robot, _ = checked("unitree_go2", "go2")
    rng = np.random.default_rng(0)
    q, v = robot.random_configuration(rng), rng.normal(size=robot.nv)
    assert np.abs(A.passive_forces(robot, q, v)).max() > 0.1


@pytest.mark.slow
def test_every_menagerie_file_agrees_with_mujoco():
    """Every registry entry that is here and that MuJoCo compiles agrees (the measured sweep:
    docs/robot-format.md, "MuJoCo Menagerie")."""
    compared, missing = [], []
    for name in mm.names():
        for entry in mm.get(name).entry_names:
            try:
                compared.append(check(name, entry)[1].worst)
            except Unavailable as why:
                missing.append(str(why))
    if not compared:
        pytest.skip(missing[0] if missing else "no Menagerie files")
    assert max(compared) < TOL
