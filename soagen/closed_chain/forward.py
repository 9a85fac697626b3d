"""``forward_dynamics(system, q, qd, tau, method=...)``: one entry point for every
closed-chain method; all return the same :class:`~soagen.closed_chain.result.Result`."""

from __future__ import annotations

from soagen.closed_chain import framework, lilly_orin, nonrigid, rccfd
from soagen.closed_chain.context import Context
from soagen.errors import SoagenError
from soagen.operators import closed_chain as dense

# The methods, in the order the docs and `soagen simulate --method` list them.
METHODS = {"rccfd1": rccfd.rccfd1, "rccfd2": rccfd.rccfd2, "rccfd3": rccfd.rccfd3, "ccfd": rccfd.ccfd,
           "lilly_orin": lilly_orin.lilly_orin, "framework": framework.framework,
           "nonrigid": nonrigid.nonrigid, "schur": dense.schur, "dense": dense.dense}
# methods built on Omega^-1 with Omega = J M^-1 J^T + A M^-1(C) A^T need J full rank
NEEDS_FULL_RANK = ("rccfd1", "rccfd2", "rccfd3", "ccfd", "nonrigid", "schur")


def forward_dynamics(system, q, qd, tau, method="rccfd1", obj_pose=None, obj_twist=None,
                     correction=None):
    """Closed-chain forward dynamics: (qdd per arm, alpha(C), f(0)) from the arm state.

    ``q, qd, tau`` are over all arm joints (arms in file order). The object's pose and
    velocity follow from the arm tips (a rigid grasp or a fit of the grasp points; V(C) by
    (2.8a) on the constrained directions) unless given as ``obj_pose=(R, p)`` and
    ``obj_twist=(omega, v_C)``. The state must satisfy the closure constraints
    (see :meth:`System.consistent_state`). ``correction`` (one vector per grasp, on its
    constraint space) is added to the acceleration-level closure gamma: Baumgarte
    stabilization uses it (:mod:`soagen.simulation.closed_chain`)."""
    if method not in METHODS:
        raise SoagenError(f"unknown closed-chain method {method!r} (choose from {', '.join(METHODS)})")
    ctx = Context(system, q, qd, tau, obj_pose, obj_twist)
    if correction is not None:
        if method == "nonrigid":
            raise SoagenError("method 'nonrigid' evaluates (b.9) literally and takes no stabilization term")
        ctx.gamma = [g + c for g, c in zip(ctx.gamma, correction)]
    if method in NEEDS_FULL_RANK:
        ctx.check_full_rank(method)
    return METHODS[method](ctx)
