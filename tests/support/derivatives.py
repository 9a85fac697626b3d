"""Shared helpers of the derivative, Coriolis and regressor tests: random trees and states,
central finite differences in the tangent space, and the generated code of the named
functions against the generic ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from soagen import algorithms as A
from soagen.codegen.compile import load_c, load_python
from soagen.codegen.emit import write
from soagen.codegen.robot import render
from soagen.loaders.random_robots import random_chain
from soagen.quaternion import integrate
from tests.support.accuracy import rel_err

ALL_JOINTS = ("revolute", "prismatic", "spherical", "free", "planar")


def random_tree(seed, n=7, joint_types=ALL_JOINTS):
    """A random tree mixing the given joint types (free and spherical joints deep in it too)."""
    rng = np.random.default_rng(seed)
    parents = [-1] + [int(rng.integers(-1, i)) for i in range(1, n)]
    return random_chain(n, rng, joint_types=joint_types, parents=parents), rng


def random_state(robot, rng):
    """q (quaternions unit, free-joint positions of order 1 m), qd, qdd, tau."""
    q = robot.random_configuration(rng)
    for b in robot.bodies:
        if b.joint.kind == "free":
            q[b.q_index:b.q_index + 3] = rng.normal(size=3)
    return (q, *(rng.normal(size=robot.nv) for _ in range(3)))


def tangent_fd(f, robot, q, h=1e-6):
    """Central differences of f(q) along q (+) h e_j (soagen.quaternion.integrate): the
    tangent-space derivative, one column per velocity coordinate."""
    cols = []
    for j in range(robot.nv):
        e = np.zeros(robot.nv)
        e[j] = h
        cols.append((np.asarray(f(integrate(robot, q, e))) - np.asarray(f(integrate(robot, q, -e)))) / (2 * h))
    return np.stack(cols, axis=-1)


def vector_fd(f, x, h=1e-6):
    """Central differences of f(x) in the coordinates of the vector x."""
    cols = []
    for j in range(len(x)):
        e = np.zeros(len(x))
        e[j] = h
        cols.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * h))
    return np.stack(cols, axis=-1)


TOL = 1e-12


def reference(robot, name, q, qd, x, bp):
    return {
        "inverse_dynamics_derivatives": lambda: A.inverse_dynamics_derivatives(robot, q, qd, x),
        "forward_dynamics_derivatives": lambda: A.forward_dynamics_derivatives(robot, q, qd, x),
        "coriolis_matrix": lambda: A.coriolis_matrix(robot, q, qd),
        "regressor": lambda: A.regressor(robot, q, qd, x),
        "base_regressor": lambda: A.base_regressor(robot, q, qd, x, base_params=bp),
        "passive_forces": lambda: A.passive_forces(robot, q, qd),
    }[name]()


DERIVATIVES = ("inverse_dynamics_derivatives", "forward_dynamics_derivatives", "coriolis_matrix", "regressor",
               "base_regressor", "passive_forces")
"""The named generated functions of docs/derivatives.md and the passive forces (:func:`reference`
knows them; the frame, centroidal and loop ones, named too, have their own tests)."""


def generated(robot, path, tmp, numpy=False, names=DERIVATIVES):
    res = render(robot, path, algorithms=list(names), numpy=numpy)
    write(res, tmp)
    prefix = res.manifest["prefix"]
    py = load_python(Path(tmp) / f"{prefix}.py", f"gen_{prefix}_derivs_{'np' if numpy else 'math'}")
    return res.manifest, load_c(tmp, prefix, res.manifest), py


def check(robot, manifest, lib, py, states=5, seed=0):
    """Every output of every function, C and Python, at random states."""
    bp, rng = A.base_parameters(robot), np.random.default_rng(seed)
    for _ in range(states):
        q, qd, qdd, tau = random_state(robot, rng)
        for name, rec in manifest["functions"].items():
            x = tau if rec["inputs"][-1] == "tau" else qdd
            args = (q, qd, x)[:len(rec["inputs"])]
            want = reference(robot, name, q, qd, x, bp)
            want = want if isinstance(want, tuple) else (want,)
            got_c, got_py = lib(name, *args), py.__dict__[name](*[list(a) for a in args])
            got_c = got_c if isinstance(got_c, tuple) else (got_c,)
            got_py = got_py if isinstance(got_py, tuple) else (got_py,)
            assert len(got_c) == len(got_py) == len(want), name
            for w, c, p in zip(want, got_c, got_py):
                assert rel_err(c, w) < TOL and rel_err(np.array(p, dtype=float), w) < TOL, name
