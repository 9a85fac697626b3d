"""Identification at scale: the UR5's base regressor over many random states, evaluated by
the compiled module of `soagen build`, and the base parameters solved by least squares
accumulated chunk by chunk (soagen.codegen.scale), in three ways on the same work:

* single: one process, one thread, a plain loop over chunks (numpy draws the states, the
  module evaluates the regressor and the joint forces, numpy adds the chunk's normal
  equations);
* dask threads: dask.array (random states drawn chunk by chunk, ``scale.evaluate``,
  ``scale.lstsq``) on Dask's threaded scheduler, one thread per core (the module and
  numpy release the GIL);
* dask cluster: the same graph on a dask.distributed LocalCluster, one single-threaded
  worker process per core (the workers load the module from its file).

The joint forces are the generated inverse dynamics plus Gaussian noise (``--sigma``
N m), so the identified base parameters approach the model's K pi as n grows. States per
second for each, and how many cores the run got (a fixed BLAS loop alone against one
copy per worker at once: on a shared machine fewer than it has); ``--big N`` then runs N states (1e8 for docs/scale.md) on the threads
and reports time, throughput, peak memory of the process (out of core: the regressor of
1e8 states would take 173 GB) and the identification error.

    python benchmarks/dask_regressor.py [--n 4000000] [--chunk 50000] [--big 100000000]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")     # one BLAS thread per Dask thread/worker

import numpy as np  # noqa: E402

import soagen  # noqa: E402
from soagen import algorithms as A  # noqa: E402
from soagen.codegen import scale  # noqa: E402
from soagen.codegen.extension import build  # noqa: E402
from soagen.codegen.robot import render  # noqa: E402
from soagen.dynamics.base_parameters import base_parameters  # noqa: E402
from soagen.oracles.pinocchio import example_robot_data_dir  # noqa: E402


def states(rng, n, nv, chunks=None):
    """q uniform in [-pi, pi], qd ~ N(0, 1), qdd ~ N(0, 4): numpy (chunks None) or Dask."""
    kw = {} if chunks is None else {"chunks": (chunks, -1)}
    return (rng.uniform(-np.pi, np.pi, size=(n, nv), **kw), rng.normal(size=(n, nv), **kw),
            2 * rng.normal(size=(n, nv), **kw))


def single(Yb, ID, n, chunk, nv, sigma):
    """The plain loop: x, seconds."""
    rng = np.random.default_rng(0)
    G = 0.0
    t = time.perf_counter()
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        q, qd, qdd = states(rng, m, nv)
        tau = ID(q, qd, qdd) + sigma * rng.normal(size=(m, nv))
        G = G + scale._gram(Yb(q, qd, qdd), tau)
    x, _ = scale.solve_normal_equations(G)
    return x, time.perf_counter() - t


def with_dask(Yb, ID, n, chunk, nv, sigma):
    """The Dask graph on the current scheduler: x, seconds."""
    import dask.array as da

    t = time.perf_counter()
    rng = da.random.default_rng(0)
    q, qd, qdd = states(rng, n, nv, chunk)
    tau = scale.evaluate(ID, q, qd, qdd) + sigma * rng.normal(size=(n, nv), chunks=(chunk, -1))
    x, _ = scale.lstsq(scale.evaluate(Yb, q, qd, qdd), tau)
    return x, time.perf_counter() - t


def _burn(_):
    """A fixed numpy workload (BLAS, one thread): its seconds."""
    a = np.random.default_rng(0).random((60_000, 37))
    t = time.perf_counter()
    for _ in range(40):
        a.T @ a
    return time.perf_counter() - t


def free_cores(workers):
    """How many cores this run gets: ``workers`` x (time of one workload alone) / (time of
    each of ``workers`` copies run at once in separate processes). 2.0 on an idle 2-core
    machine; on a shared one, less."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        alone = min(pool.map(_burn, [0]))
        together = max(pool.map(_burn, range(workers)))
    return workers * alone / together


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=float, default=4e6, help="states for the three-way comparison")
    ap.add_argument("--chunk", type=int, default=50_000, help="states per chunk")
    ap.add_argument("--big", type=float, default=0, help="then this many states on Dask's threads")
    ap.add_argument("--sigma", type=float, default=0.1, help="noise on the joint forces [N m]")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    opts = ap.parse_args()
    import dask
    import distributed

    path = example_robot_data_dir() / "ur_description/urdf/ur5_robot.urdf"
    robot = soagen.load(path)
    pi_b = base_parameters(robot).K @ A.inertial_parameters(robot)
    tmp = tempfile.mkdtemp(prefix="soagen-dask-")
    res = render(robot, path, algorithms=["inverse_dynamics", "base_regressor"], langs=("c", "python_ext"),
                 prefix="ur5", batch=True)
    module = build(res, tmp)[-1]
    Yb, ID = scale.CompiledFunction(module, "base_regressor"), scale.CompiledFunction(module, "inverse_dynamics")
    nv, n = robot.nv, int(opts.n)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; "
          f"dask {dask.__version__}; UR5, {Yb.shapes[0][1]} base parameters, chunks of {opts.chunk} states, "
          f"noise {opts.sigma} N m")

    def report(what, x, seconds, states):
        err = np.abs(x - pi_b).max() / np.abs(pi_b).max()
        print(f"| {what} | {states:.0e} | {seconds:.1f} | {states / seconds:,.0f} | {err:.1e} |")

    print(f"cores free for this run (a BLAS loop alone vs {opts.workers} at once): {free_cores(opts.workers):.2f}")
    print("| run | states | s | states/s | max rel. error of pi_b |\n|---|---|---|---|---|")
    report("single process, one thread", *single(Yb, ID, n, opts.chunk, nv, opts.sigma), n)
    with dask.config.set(scheduler="threads", num_workers=opts.workers):
        report(f"dask threads ({opts.workers})", *with_dask(Yb, ID, n, opts.chunk, nv, opts.sigma), n)
    with distributed.LocalCluster(n_workers=opts.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with_dask(Yb, ID, opts.chunk * opts.workers, opts.chunk, nv, opts.sigma)   # warm-up: workers load the module
        report(f"dask LocalCluster ({opts.workers} processes)", *with_dask(Yb, ID, n, opts.chunk, nv, opts.sigma), n)
    if opts.big:
        big = int(opts.big)
        with dask.config.set(scheduler="threads", num_workers=opts.workers):
            report(f"dask threads ({opts.workers})", *with_dask(Yb, ID, big, opts.chunk, nv, opts.sigma), big)
        print(f"cores free after the run: {free_cores(opts.workers):.2f}")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of the process: {rss:.0f} MB (the regressor alone: {big * nv * Yb.shapes[0][1] * 8 / 1e9:.0f} GB)")


if __name__ == "__main__":
    main()
