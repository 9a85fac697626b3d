"""Numeric cross-check of the catalogue on random robots (dense operator builder),
scalar joints and multi-dof (spherical) joints, N up to 50."""

import numpy as np
import pytest

from soagen.symbolic.evidence.catalogue import CATALOGUE
from soagen.symbolic.evidence.numeric import cross_check, robot_namespace
from soagen.symbolic.evidence.verify import check_numeric


@pytest.mark.parametrize("joint_types,Ns", [
    (("revolute", "prismatic"), (1, 2, 5, 12)),
    pytest.param(("revolute", "prismatic"), (25, 50), marks=pytest.mark.slow),
    (("revolute", "prismatic", "spherical"), (1, 3, 8)),
    (("spherical",), (2, 4)),
])
def test_catalogue_holds_on_random_robots(joint_types, Ns):
    res = cross_check(CATALOGUE, Ns=Ns, joint_types=joint_types, seed=len(joint_types))
    assert res, "no identity was cross-checked"
    bad = {k: v for k, v in res.items() if v[2] or v[0] > 1e-9}
    assert not bad


def test_printed_misprints_fail_on_a_robot():
    """The numeric layer is not vacuous: printed misprints give O(1) residuals on a robot."""
    from soagen.loaders.random_robots import random_chain

    rng = np.random.default_rng(4)
    robot = random_chain(6, rng)
    ns = robot_namespace(robot, robot.random_configuration(rng), rng.normal(size=robot.nv), rng)
    for rid in ("I-abstract", "I-FD4-proof", "I-a.50-proof", "II-6.18e", "FW-3.13"):
        rec = next(r for r in CATALOGUE if r.id == rid)
        r = check_numeric(rec.checks, rec.let, ns)
        assert not r.ok and r.residual > 1e-4, rid
    for rid in ("II-6.5a", "FW-A.2"):   # ill-typed as printed
        rec = next(r for r in CATALOGUE if r.id == rid)
        assert "do not conform" in check_numeric(rec.checks, rec.let, ns).detail
