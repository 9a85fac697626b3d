"""Flexible links in robot files (docs/robot-format.md, "Flexible links"): beams, modal
data (.npz, YAML), overlays on a URDF, spring-damper joints; every bad input is one line
naming the file and the link, exit code 2 from the CLI, no traceback."""

import numpy as np
import pytest
from click.testing import CliRunner

import soagen
from soagen.cli.main import cli
from soagen.errors import RobotFileError, RobotFileWarning

BEAM = "{length: 1.0, EIz: 9.45, rhoA: 0.471, elements: 6}"


def robot_yaml(flexible, extra_link="", joint_extra=""):
    return f"""name: beam_test
gravity: [0, -9.81, 0]
links:
  - name: base
  - name: beam
    flexible: {flexible}
{extra_link}joints:
  - {{name: hinge, type: revolute, parent: base, child: beam, axis: [0, 0, 1]{joint_extra}}}
"""


def info(path):
    result = CliRunner().invoke(cli, ["info", str(path)])
    return result.exit_code, result.output.strip()


def modal_data(n=4, m=2, rng=None):
    rng = rng or np.random.default_rng(0)
    nodes = np.outer(np.arange(1, n + 1) / n, [1.0, 0, 0])
    mass = np.full(n, 0.25)
    S = np.zeros((m, n, 6))
    for j in range(m):                          # bending shapes along y, with their slopes
        x = nodes[:, 0]
        S[j, :, 1] = x ** (j + 2)
        S[j, :, 5] = (j + 2) * x ** (j + 1)
    Mm = np.einsum("anl,n,bnl->ab", S[:, :, :3], mass, S[:, :, :3])
    S = np.einsum("ab,bnk->ank", np.linalg.inv(np.linalg.cholesky(Mm)), S)
    return {"nodes": nodes, "mass": mass, "shapes": S, "frequencies": np.array([2.0, 12.0][:m])}


def test_beam_link_from_yaml(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml(f"{{beam: {BEAM}, modes: 2, damping: 0.02, stiffening: false}}"))
    r = soagen.load(p)
    b = r.bodies[0]
    assert (r.nq, r.nv, b.m, b.flex.names, b.flex.stiffening) == (3, 3, 2, ("y1", "y2"), False)
    assert np.allclose(np.diag(b.flex.C), 2 * 0.02 * b.flex.frequencies)
    assert r.tip.node == 0                      # the default tip (the last link's frame) sits on the
    code, out = info(p)                         # nearest node: the clamp, node 0
    assert code == 0 and "clamped" in out and "pinned" in out


def test_modal_data_npz_and_inline(tmp_path):
    data = modal_data()
    np.savez(tmp_path / "modes.npz", **data)
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml("{modal: modes.npz, modes: 2}"))
    r = soagen.load(p)
    assert r.bodies[0].m == 2 and r.bodies[0].flex.kind == "modal"
    assert np.allclose(r.bodies[0].flex.frequencies, 2 * np.pi * data["frequencies"])
    inline = "{modal: {nodes: %s, mass: %s, shapes: %s, frequencies: [2.0, 12.0]}}" % (
        data["nodes"].tolist(), data["mass"].tolist(), data["shapes"].tolist())
    p.write_text(robot_yaml(inline))
    assert np.allclose(soagen.load(p).bodies[0].flex.K, r.bodies[0].flex.K)


def test_urdf_overlay_and_bundled_robots():
    r = soagen.load("arm3_flexlink")
    assert [b.m for b in r.bodies] == [0, 4, 0] and r.bodies[2].attach == 8
    assert r.bodies[1].flex.summary.startswith("beam L=0.6 m, 8 elements")
    assert soagen.load("flexbeam").nq == 5 and soagen.load("flexarm2").nq == 8


def test_spring_damper_joint_in_yaml(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml(f"{{beam: {BEAM}, modes: 1}}", joint_extra=", stiffness: 5.0, damping: 0.1, rest: 0.2"))
    j = soagen.load(p).bodies[0].joint
    assert (j.stiffness, j.damping, j.rest) == (5.0, 0.1, 0.2)


BAD = [
    ("{beam: {length: 0.0, EIz: 9.45, rhoA: 0.471}}", "flexible.beam.length: a beam needs a positive length"),
    ("{beam: {length: 1.0, EIz: -9.45, rhoA: 0.471}}", "flexible.beam.EIz: a stiffness cannot be negative"),
    ("{beam: {length: 1.0, EA: -1.0, EIz: 9.45, rhoA: 0.471}}", "flexible.beam.EA: a stiffness cannot be negative"),
    ("{beam: {length: 1.0, EA: .nan, EIz: 9.45, rhoA: 0.471}}", "flexible.beam.EA: expected a finite number"),
    ("{beam: {length: 1.0, rhoA: 0.471}}", "flexible.beam: no stiffness given"),
    ("{beam: {length: 1.0, EIz: 9.45, rhoA: 0.0}}", "flexible.beam.rhoA: the mass per length rhoA must be positive"),
    (f"{{beam: {BEAM}, modes: 30}}", "flexible.modes: 30 modes asked, the model has 12"),
    (f"{{beam: {BEAM}, shapes: [z]}}", "flexible.beam: shapes z need their stiffness"),
    (f"{{beam: {BEAM}, modal: x.npz}}", "flexible: give exactly one of 'beam' and 'modal'"),
    (f"{{beam: {BEAM}, damping: -0.1}}", "flexible.damping: a damping ratio cannot be negative"),
    (f"{{beam: {BEAM}, stiffening: 1}}", "flexible.stiffening: expected true or false"),
    (f"{{beam: {BEAM}, size: 1}}", "flexible: unknown key 'size'"),
]


@pytest.mark.parametrize("flexible,message", BAD)
def test_bad_flexible_link_one_line_exit_2(tmp_path, flexible, message):
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml(flexible))
    code, out = info(p)
    assert code == 2 and "\n" not in out and "Traceback" not in out, out
    assert out == f"error: {p}: link 'beam'.{message}" or out.startswith(f"error: {p}: link 'beam'.{message}"), out


MODAL_BAD = [
    (lambda d: d.update(shapes=d["shapes"][:, :3]), "the mode shapes do not match the 4 nodes"),
    (lambda d: d.update(modal_mass=np.array([[1.0, 0.0], [0.0, -1.0]])), "the modal mass is not symmetric positive definite"),
    (lambda d: d.update(frequencies=np.array([2.0, -12.0])), "a negative frequency (negative stiffness)"),
    (lambda d: d.update(foreshortening=np.zeros((4, 3, 2, 3))), "geometric-stiffness (foreshortening) data of the wrong size"),
    (lambda d: d.update(mass=np.array([0.25, np.inf, 0.25, 0.25])), "expected finite numbers"),
    (lambda d: d.pop("mass"), "missing required key 'mass'"),
]


@pytest.mark.parametrize("edit,message", MODAL_BAD)
def test_bad_modal_data_one_line_exit_2(tmp_path, edit, message):
    data = modal_data()
    edit(data)
    np.savez(tmp_path / "modes.npz", **data)
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml("{modal: modes.npz}"))
    code, out = info(p)
    assert code == 2 and "\n" not in out and out.startswith(f"error: {p}: link 'beam'.flexible.modal (modes.npz)"), out
    assert message in out, out


def test_modal_mass_mismatch_is_a_warning(tmp_path):
    data = modal_data()
    data["shapes"] = data["shapes"] * 1.2
    np.savez(tmp_path / "modes.npz", **data)
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml("{modal: modes.npz}"))
    with pytest.warns(RobotFileWarning, match="lumped masses give a modal mass that differs"):
        soagen.load(p)


def test_bad_placements_and_overlays(tmp_path):
    p = tmp_path / "r.yaml"
    p.write_text(robot_yaml(f"{{beam: {BEAM}}}").replace("type: revolute", "type: fixed"))
    with pytest.raises(RobotFileError, match="link 'beam': a flexible link is clamped at its inbound joint, "
                                             "which must move: joint 'hinge' is fixed"):
        soagen.load(p)
    p.write_text(robot_yaml(f"{{beam: {BEAM}}}", joint_extra=", stiffness: -1.0"))
    with pytest.raises(RobotFileError, match=r"joint 'hinge'.stiffness: cannot be negative"):
        soagen.load(p)
    o = tmp_path / "overlay.yaml"
    o.write_text("overlay: nothere.urdf\n")
    with pytest.raises(RobotFileError, match="overlay: no such robot file 'nothere.urdf'"):
        soagen.load(o)
    from soagen.loaders.bundled import robots_dir

    o.write_text(f"overlay: {robots_dir() / 'urdf' / 'arm3.urdf'}\nflexible: {{link9: {{beam: {BEAM}}}}}\n")
    with pytest.raises(RobotFileError, match="flexible: unknown key 'link9'"):
        soagen.load(o)


def test_generate_refuses_what_flexible_bodies_do_not_have(tmp_path):
    result = CliRunner().invoke(cli, ["generate", "flexbeam", "--algorithms", "coriolis_matrix",
                                      "--out", str(tmp_path / "g")])
    assert result.exit_code == 2 and "coriolis_matrix not available for flexible bodies" in result.output
    assert not (tmp_path / "g").exists()
