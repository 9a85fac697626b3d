"""The public API (soagen.algorithms): the data positional, ``method``, ``frame``, ``xp``
keyword-only in that order (issue 36); the old positional calls still work for one release
and warn."""

import inspect
import warnings

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.backend import NUMPY
from tests.support.accuracy import rel_err

ORDER = ("base_params", "f_tip", "method", "frame", "xp")
PUBLIC = [n for n in dir(A) if not n.startswith("_") and inspect.isfunction(getattr(A, n))
          and getattr(A, n).__module__ == "soagen.algorithms"]


@pytest.mark.parametrize("name", PUBLIC)
def test_method_frame_xp_are_keyword_only_in_one_order(name):
    params = inspect.signature(getattr(A, name)).parameters
    for key in ("method", "frame", "xp"):
        if key in params:
            assert params[key].kind is inspect.Parameter.KEYWORD_ONLY, f"{name}: {key} is not keyword-only"
    kw = [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert kw == sorted(kw, key=ORDER.index), f"{name}: keyword-only {kw} not in the order {ORDER}"


@pytest.fixture(scope="module")
def arm():
    robot = soagen.load("robots/puma560.yaml")
    rng = np.random.default_rng(3)
    return robot, robot.random_configuration(rng), *(rng.normal(size=robot.nv) for _ in range(3))


# (function, data, the old positional tail, the same by keyword)
def _legacy(robot, q, qd, qdd, tau):
    f0 = np.arange(6.0)
    return [
        ("inverse_dynamics", (robot, q, qd, qdd), (f0, NUMPY), {"f_tip": f0, "xp": NUMPY}),
        ("bias_forces", (robot, q, qd), (None, NUMPY), {"xp": NUMPY}),
        ("mass_matrix", (robot, q), (NUMPY,), {"xp": NUMPY}),
        ("inverse_mass_matrix", (robot, q), (NUMPY, "ldl"), {"method": "ldl"}),
        ("forward_dynamics", (robot, q, qd, tau), ("fd3", f0), {"method": "fd3", "f_tip": f0}),
        ("jacobian", (robot, q), (NUMPY, robot.tip.name), {"frame": robot.tip.name}),
        ("jacobian_dot_qd", (robot, q, qd), (NUMPY,), {"xp": NUMPY}),
        ("op_space_inverse_inertia", (robot, q), (NUMPY, None, "ldl"), {"method": "ldl"}),
        ("forward_dynamics_derivatives", (robot, q, qd, tau), (NUMPY, "ldl"), {"method": "ldl"}),
        ("coriolis_matrix", (robot, q, qd), (NUMPY,), {}),
        ("regressor", (robot, q, qd, qdd), (NUMPY,), {}),
    ]


def test_positional_use_still_works_and_warns(arm):
    for name, data, tail, kw in _legacy(*arm):
        fn = getattr(A, name)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            want = fn(*data, **kw)                                       # the keywords: no warning
        with pytest.warns(DeprecationWarning, match=rf"soagen.algorithms.{name}: pass .* by keyword"):
            got = fn(*data, *tail)
        assert rel_err(np.asarray(got), np.asarray(want)) == 0, name


def test_a_new_style_positional_f_tip_is_not_a_deprecated_call(arm):
    robot, q, qd, qdd, _ = arm
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        A.inverse_dynamics(robot, q, qd, qdd, np.ones(6))


def test_too_many_or_repeated_arguments_are_a_type_error(arm):
    robot, q, *_ = arm
    with pytest.raises(TypeError):
        A.mass_matrix(robot, q, NUMPY, "extra")
    with pytest.raises(TypeError):
        A.jacobian(robot, q, NUMPY, xp=NUMPY)
