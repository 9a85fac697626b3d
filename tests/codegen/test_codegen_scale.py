"""soagen.codegen.scale: the compiled module of `soagen build` over chunked Dask arrays,
on Dask's threads and on a dask.distributed LocalCluster of two worker processes, and the
base parameters identified from it by chunk-wise least squares."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import soagen
from soagen import algorithms as A
from soagen.codegen import scale
from soagen.codegen.extension import build
from soagen.codegen.robot import render
from soagen.dynamics.base_parameters import base_parameters
from soagen.errors import SoagenError
from tests.support.accuracy import rel_err
from tests.support.codegen import ROBOTS, batch_states

pytestmark = pytest.mark.cc
# The module runs W states at a time on vectors and the remaining n mod W states with the
# scalar function, so where a chunk boundary falls can change the last bits of a state's
# result (the batch tests bound vector against scalar by 1e-13, docs/codegen.md).
CHUNKED = 1e-13
# Noise-free joint forces: the base parameters are determined exactly; the normal
# equations square the regressor's condition (~1e2 here), so ~1e-12 is expected.
IDENTIFIED = 1e-9
# The residual norm from the normal equations is the square root of a difference of
# squares: accurate to about sqrt(eps) = 1.5e-8 of |b|.
RESIDUAL = 3e-8


@pytest.fixture(scope="module")
def puma(tmp_path_factory):
    """PUMA 560's module with inverse dynamics, its derivatives and the base regressor."""
    pytest.importorskip("dask.array", reason="the Dask evaluation is tested where dask is installed (test extra)")
    robot = soagen.load(ROBOTS / "puma560.yaml")
    out = tmp_path_factory.mktemp("puma_module")
    res = render(robot, ROBOTS / "puma560.yaml", algorithms=["inverse_dynamics", "inverse_dynamics_derivatives",
                                                           "base_regressor"],
                 langs=("c", "python_ext"), prefix="puma_dask", batch=True)
    return robot, build(res, out)[-1]


def test_evaluate_over_chunks_equals_the_module(puma):
    import dask.array as da

    robot, path = puma
    ID = scale.CompiledFunction(path, "inverse_dynamics")
    dID = pickle.loads(pickle.dumps(scale.CompiledFunction(path, "inverse_dynamics_derivatives")))
    assert ID.inputs == ("q", "qd", "qdd") and ID.shapes == ((robot.nv,),)
    x = batch_states(robot, (10, 37), np.random.default_rng(0))
    lazy = [da.from_array(x[a], chunks=(3, 11, -1)) for a in ID.inputs]
    tau = scale.evaluate(ID, *lazy)
    assert tau.shape == (10, 37, robot.nv) and tau.numblocks == (4, 4, 1)
    assert rel_err(tau.compute(), ID(*(x[a] for a in ID.inputs))) <= CHUNKED
    dqd = scale.evaluate(dID, *lazy, output=1).compute()
    assert dqd.shape == (10, 37, robot.nv, robot.nv)
    want = A.inverse_dynamics_derivatives(robot, x["q"][4, 5], x["qd"][4, 5], x["qdd"][4, 5])[1]
    assert rel_err(dqd[4, 5], want) <= 1e-12
    with pytest.raises(SoagenError, match="takes 3 inputs"):
        scale.evaluate(ID, *lazy[:2])


def test_identification_on_a_local_cluster(puma):
    """The base parameters of the PUMA 560 from 40,000 random states, generated chunk by
    chunk in two worker processes (dask.distributed), the regressor and the joint forces
    evaluated there by the module loaded from its file: they are the model's K pi."""
    distributed = pytest.importorskip("dask.distributed", reason="needs dask.distributed (test extra)")
    import dask.array as da

    robot, path = puma
    Yb, ID = scale.CompiledFunction(path, "base_regressor"), scale.CompiledFunction(path, "inverse_dynamics")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        rng = da.random.default_rng(7)
        n, chunk = 40_000, 5_000
        q = rng.uniform(-np.pi, np.pi, size=(n, robot.nq), chunks=(chunk, -1))
        qd = rng.normal(size=(n, robot.nv), chunks=(chunk, -1))
        qdd = 2 * rng.normal(size=(n, robot.nv), chunks=(chunk, -1))
        tau = scale.evaluate(ID, q, qd, qdd)
        x, residual = scale.lstsq(scale.evaluate(Yb, q, qd, qdd), tau)
        tau_norm = float(np.sqrt((tau ** 2).sum().compute()))
        loaded = client.run(lambda: Yb.path in scale._MODULES)
    assert len(loaded) == 2 and any(loaded.values())         # the work ran in the worker processes
    pi_b = base_parameters(robot).K @ A.inertial_parameters(robot)
    assert rel_err(x, pi_b) <= IDENTIFIED
    assert residual <= RESIDUAL * tau_norm


def test_lstsq_refuses_what_it_cannot_solve():
    da = pytest.importorskip("dask.array", reason="needs dask (test extra)")
    rng = np.random.default_rng(1)
    A_ = rng.normal(size=(600, 3, 4))
    x_true = np.array([1.0, -2.0, 0.5, 3.0])
    b = A_ @ x_true
    x, residual = scale.lstsq(da.from_array(A_, chunks=(100, 3, 4)), da.from_array(b, chunks=100))
    assert rel_err(x, x_true) <= 1e-13 and residual <= RESIDUAL * np.linalg.norm(b)
    noise = 1e-3 * rng.normal(size=b.shape)
    x, residual = scale.lstsq(da.from_array(A_, chunks=(100, 3, 4)), da.from_array(b + noise, chunks=100))
    want = np.linalg.lstsq(A_.reshape(-1, 4), (b + noise).ravel(), rcond=None)
    assert rel_err(x, want[0]) <= 1e-12 and abs(residual - np.sqrt(want[1][0])) <= RESIDUAL * np.linalg.norm(b)
    A_[..., 3] = 2 * A_[..., 1]
    with pytest.raises(SoagenError, match="depends on the ones before it"):
        scale.lstsq(da.from_array(A_, chunks=(100, 3, 4)), da.from_array(A_ @ x_true, chunks=100))
    with pytest.raises(SoagenError, match="do not match"):
        scale.lstsq(da.from_array(A_, chunks=(100, 3, 4)), da.from_array(A_[:, 0, 0], chunks=100))


def test_compiled_function_errors(puma, tmp_path):
    _, path = puma
    with pytest.raises(SoagenError, match="no function 'mass_matrix'"):
        scale.CompiledFunction(path, "mass_matrix")
    lonely = tmp_path / path.name
    lonely.write_bytes(path.read_bytes())
    with pytest.raises(SoagenError, match="no puma_dask_manifest.json beside the module"):
        scale.CompiledFunction(lonely, "inverse_dynamics")
