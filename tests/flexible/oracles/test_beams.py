"""The case data (soagen.oracles.beams): derived values and refusals of unphysical input,
and the comparison metric on trajectories built by hand."""

import numpy as np
import pytest

from soagen.oracles import beams


def test_case_data_refuse_unphysical_values():
    b = beams.aluminium_strip()
    assert b.load == pytest.approx(0.5045, abs=1e-4)         # the benchmark's rho A g L^3 / EI
    with pytest.raises(ValueError, match="Beam.EIz"):
        beams.Beam(length=1, EA=1, EIy=1, EIz=0, GJ=1, rhoA=1, rhoJ=1)
    with pytest.raises(ValueError, match="Link.hub_mass"):
        beams.Link(b, hub_mass=-1.0)
    with pytest.raises(ValueError, match="theta0"):
        beams.Arm(links=(beams.Link(b),), theta0=(0.0, 0.0))


def test_compare_measures_the_acceptance_terms():
    t = np.arange(3) * 0.01
    hub = np.zeros((3, 1))
    root = np.zeros((3, 1, 2))
    tip = np.array([[[1.0, 0.0]], [[1.0, 0.02]], [[1.0, 0.01]]])
    ref = beams.Trajectory(t, hub, hub, root, tip, beams.hub_frame_deflection(hub, root, tip))
    assert ref.deflection[:, 0] == pytest.approx([0.0, 0.02, 0.01])
    # the same tip seen from a hub turned by 1e-3 rad: deflection -1e-3 m, tip unchanged
    got = beams.Trajectory(t, hub + 1e-3, hub, root, tip, beams.hub_frame_deflection(hub + 1e-3, root, tip))
    e = beams.compare(got, ref, reach=2.0)
    assert e.hub_angle[0] == pytest.approx(1e-3)
    assert e.deflection[0] == pytest.approx(1e-3 / 0.02, rel=1e-3)
    assert e.tip[0] == 0 and e.tip_rel[0] == 0
    with pytest.raises(ValueError, match="same times"):
        beams.compare(got, beams.Trajectory(t + 1, hub, hub, root, tip, ref.deflection), 2.0)
