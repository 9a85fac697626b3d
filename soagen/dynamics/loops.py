"""Loops inside one robot: the forward dynamics of the closed system by the framework
paper's steps (A)-(F) (Section 3, (3.7)-(3.12); its closed form is (3.13), corrected in
docs/misprints-trees-swain-morris.md), with the robot's tree as the primary system and no
secondary one.

The closures (:class:`~soagen.model.Closure`) cut joints of the loops; their two sides are
frames C_1, C_2 on the tree (or on the fixed base). With the frames' classical
accelerations alpha~ = J qdd + Jdot qd (world-aligned at the frame origins, the closure
points of (2.16)) the constraints at the acceleration level are

    A alpha~ = U,   row block of closure c:  Q_c^T (alpha~(C_1) - alpha~(C_2)),

Q_c the linear rows for a ``connect`` (the two points stay together: 3 constraints), all
six for a ``weld`` (6); U = 0 on the constraint manifold, a Baumgarte term to hold a
numerical solution on it. A frame on the fixed base has alpha~ = 0 and drops out. Then

  (A) qdd_f = M^-1 (T - C)                         tree forward dynamics (FD2, (3.7))
  (B) alpha~_f = J qdd_f + Jdot qd                 the frames' accelerations (3.8), FD2's alpha
  (C) Lambda = J M^-1 J^T                          B^T Omega B at the frames (3.10), (A.5)
  (D) (A Lambda A^T) f~ = A alpha~_f - U           (3.11), rank-revealing
  (E) qdd_e = -M^-1 J^T A^T f~                     (3.12), (A.6)
  (F) qdd = qdd_f + qdd_e

A^T f~ are the constraint forces, world-aligned at the frames: on C_1, and minus them on
C_2. Redundant closures (a planar four-bar closed by a ball joint, coupled fingers, a
closure given twice) make A Lambda A^T singular but leave (D) consistent: its
minimum-norm solution (:func:`closure_forces`) gives the one qdd of the constrained
motion (the forces are then not unique; the accelerations are)."""

from __future__ import annotations

import numpy as np

from soagen.dynamics import frames as fr
from soagen.dynamics.correction import correction
from soagen.dynamics.forward import fd2
from soagen.dynamics.kinematics import frame_pose, world_poses
from soagen.dynamics.newton import gauss_newton, project_velocity
from soagen.dynamics.omega import inverse_inertia_at_frames
from soagen.spatial import rotation_error
from soagen.tolerances import CLOSURE, RANK


def moving_frames(robot):
    """The closure frames on moving bodies, in closure order (frame1, then frame2): the
    columns of A."""
    return [f for c in robot.closures for f in (c.frame1, c.frame2) if f.body >= 0]


def constraint_map(robot):
    """A (m x 6 n_F): per closure Q_c^T on frame 1's columns and -Q_c^T on frame 2's (a
    frame on the fixed base has no column), m the number of constraints."""
    frames = moving_frames(robot)
    A = np.zeros((sum(c.rows for c in robot.closures), 6 * len(frames)))
    row, col = 0, 0
    for c in robot.closures:
        lo = 6 - c.rows                                  # connect: the linear rows 3:6
        for f, sign in ((c.frame1, 1.0), (c.frame2, -1.0)):
            if f.body >= 0:
                A[row:row + c.rows, col + lo:col + 6] = sign * np.eye(c.rows)
                col += 6
        row += c.rows
    return A


def closure_errors(s):
    """The position-level closure errors e (m): per closure the orientation error of
    frame 1 against frame 2 (weld) and the difference of their origins, world axes; zero
    on the constraint manifold, with e-dot = A alpha~ when differentiated (rows in the
    order of :func:`constraint_map`)."""
    robot, xp = s.robot, s.xp
    poses = world_poses(robot, s.X, xp)
    out = []
    for c in robot.closures:
        (R1, p1), (R2, p2) = (frame_pose(robot, poses, f, s.q, xp) for f in (c.frame1, c.frame2))
        out += ([rotation_error(R1, R2)] if c.kind == "weld" else []) + [p1 - p2]
    return np.concatenate(out) if out else xp.zeros(0)


def closure_velocities(s):
    """A V~: the relative velocities of the closures' frames (m), the rate of the errors."""
    robot, xp = s.robot, s.xp
    frames = moving_frames(robot)
    if not frames:
        return xp.zeros(constraint_map(robot).shape[0])
    return xp.constant(constraint_map(robot)) @ np.concatenate(fr.velocities(s, frames))


def closure_jacobian(s):
    """G = A J (m x nv): the rows of the velocity constraints G qd = A V~ = 0 (the frames'
    Jacobians (3.13) stacked)."""
    from soagen.dynamics.jacobian import jacobian

    robot, xp = s.robot, s.xp
    frames = moving_frames(robot)
    if not frames:
        return xp.zeros((0, robot.nv))
    return xp.constant(constraint_map(robot)) @ np.concatenate([jacobian(s, f) for f in frames])


def solve_loops(robot, q, tol=CLOSURE, max_iter=60):
    """A configuration near q that closes the robot's loops: Gauss-Newton with minimum-norm
    steps on :func:`closure_errors` (its Jacobian G = :func:`closure_jacobian`), moving on
    the joints' manifold (quaternions stay unit). Redundant closures make G rank-deficient:
    singular values below RANK times the largest count as zero. SoagenError when it does
    not converge."""
    from soagen.backend import NUMPY
    from soagen.dynamics.sweeps import prepare
    from soagen.errors import SoagenError
    from soagen.quaternion import integrate

    def residual(q):
        s = prepare(robot, q, np.zeros(robot.nv), NUMPY, gravity=False)
        return closure_errors(s), closure_jacobian(s)
    x, e = gauss_newton(residual, q, lambda q, dq: integrate(robot, q, dq), tol, max_iter, RANK)
    if x is None:
        raise SoagenError(f"{robot.name}: the loop closures did not converge (residual {np.abs(e).max():.2e}); "
                          "start nearer a closed configuration")
    return x


def structural_rows(robot):
    """The constraints that are independent at a generic closed configuration (rows of A,
    greedy in closure order): a planar loop closed by a point has one dependent row, the
    same closure twice three, Cassie's two planar knee linkages one each. Decided on the
    numbers of a closed configuration found from the neutral one (or a seeded random one)
    and moved at random along the closures, so that it is generic (seeded: the same rows
    every run), for the code generator, whose unrolled (D) needs an invertible
    A Lambda A^T; SoagenError when no closed configuration is found."""
    from soagen.backend import NUMPY
    from soagen.dynamics.sweeps import prepare
    from soagen.errors import SoagenError
    from soagen.quaternion import integrate

    def G(q):
        return closure_jacobian(prepare(robot, q, np.zeros(robot.nv), NUMPY, gravity=False))

    rng = np.random.default_rng(0)
    starts = [robot.neutral_configuration()] + [robot.random_configuration(rng) for _ in range(8)]
    for q in starts:
        try:
            q = solve_loops(robot, q)
            q = solve_loops(robot, integrate(robot, q, project_velocity(G(q), 0.1 * rng.normal(size=robot.nv), RANK)))
            break
        except SoagenError:
            continue
    else:
        raise SoagenError(f"{robot.name}: no closed configuration found near the neutral one, so the independent "
                          "loop-closure constraints cannot be chosen for the generated code")
    rows = G(q)
    kept, basis = [], np.zeros((0, robot.nv))
    scale = max(float(np.abs(rows).max()), 1.0)
    for i, g in enumerate(rows):
        rest = g - basis.T @ (basis @ g)                # Gram-Schmidt against the rows kept
        if np.linalg.norm(rest) > RANK * scale:
            kept.append(i)
            basis = np.vstack([basis, rest / np.linalg.norm(rest)])
    return kept


def closure_forces(K, r, xp, robot=None):
    """The minimum-norm f~ of K f~ = r (D) for K = A Lambda A^T symmetric positive
    semidefinite: eigenvalues below RANK times the largest are dropped (redundant
    constraints; a consistent r has no part there). On a symbolic backend (the code
    generator) the rows of :func:`structural_rows` of ``robot`` (all rows without one) are
    solved with xp.solve, the others' forces are zero: the same accelerations on a
    closed state, except at configurations where the closures lose rank."""
    if not (isinstance(K, np.ndarray) and K.dtype.kind == "f"):
        rows = structural_rows(robot) if robot is not None else list(range(len(r)))
        f = xp.zeros(len(r))
        f[rows] = xp.solve(K[np.ix_(rows, rows)], r[rows])
        return f
    w, V = np.linalg.eigh(K)
    keep = w > RANK * max(float(w[-1]), 0.0) if len(w) else w > 0
    return V[:, keep] @ ((V[:, keep].T @ r) / w[keep])


def forward_dynamics(s, tau, U=None):
    """(qdd, f~, alpha~_f): the closed system's joint accelerations, the constraint force
    parameters f~ (A^T f~ are the forces at the frames) and the free frame accelerations,
    by steps (A)-(F); ``s`` prepared with gravity, ``tau`` the joint forces less the elastic
    ones, ``U`` the desired A alpha~ (default 0; Baumgarte: -2 w e-dot - w^2 e)."""
    robot, xp = s.robot, s.xp
    frames = moving_frames(robot)
    qdd_f, alpha = fd2(s, tau)                                                      # (A)
    qdd_f = np.concatenate(qdd_f)
    if not frames:
        return qdd_f, xp.zeros(0), xp.zeros(0)
    # (B): FD2's alpha has gravity as the base acceleration, (0, -g) at every point (3.21)
    g = np.concatenate([xp.zeros(3), xp.constant(robot.gravity)])
    acc_f = np.concatenate([a + g for a in fr.accelerations(s, alpha, frames)])
    Lam = inverse_inertia_at_frames(s, frames)                                      # (C) (3.10)
    A = xp.constant(constraint_map(robot))
    r = A @ acc_f if U is None else A @ acc_f - U
    f = closure_forces(A @ Lam @ A.T, r, xp, robot)                                 # (D) (3.11)
    qdd_e = correction(s, frames, A.T @ f)                                          # (E) (3.12)
    return qdd_f + qdd_e, f, acc_f                                                  # (F)
