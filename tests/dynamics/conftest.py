"""The random chains the operator-vs-recursion tests of this directory share: each test runs
on N = 1, 2, 3, 7, 20, 50 links (mixed revolute and prismatic joints), with the dense
world-frame operators of soagen.operators.chain at a random state."""

import numpy as np
import pytest

from soagen.loaders.random_robots import random_chain
from soagen.operators.chain import chain_operators

CASES = [(1, 0), (2, 1), (3, 2), (7, 3), (20, 4), (50, 5)]


@pytest.fixture(scope="module", params=CASES, ids=[f"N{n}" for n, _ in CASES])
def chain(request):
    n, seed = request.param
    rng = np.random.default_rng(seed)
    robot = random_chain(n, rng)
    q = robot.random_configuration(rng)
    qd = rng.normal(size=robot.nv)
    ops = chain_operators(robot, q, qd)
    return robot, q, qd, ops, rng
