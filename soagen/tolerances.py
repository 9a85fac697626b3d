"""Named tolerances: every threshold at which soagen decides something numerically
(snap a constant, call a matrix rank deficient, accept a closure, refuse an input) is one
constant here, with the reason for its value. Code imports the constant; no such decision
is a bare literal.

Not here: the switch points of series expansions (the small-angle branches of
:mod:`soagen.spatial` and :mod:`soagen.quaternion`), which belong to their formula and are
commented there; and the tests' acceptance bounds, which state what each test claims.

One section per part of soagen, so each part's constants can be read (and changed) together.
"""

# =====================================================================================
# Code generation (soagen.codegen)
# =====================================================================================

SNAP = 1e-14
"""While unrolling, a model constant within SNAP of 0 or of +-1 becomes exactly 0 or +-1,
so structural zeros and ones fold away (cos(pi/2) from a URDF rpy is 6e-17, not 0).
Round-off in such constants is a few ulp (1 ulp of 1.0 is 2.2e-16); 1e-14 is ~50 ulp,
far above that and many orders below any link length, mass or inertia that matters."""

# =====================================================================================
# Robot files (soagen.loaders) and the model (soagen.model)
# =====================================================================================
# The loader snaps placements and joint axes with SNAP above, like the unroller.

INERTIA_NOISE = 1e-6
"""Rounding noise in a body's inertial data, relative to its own inertia scale (half the
trace of its rotational inertia about the link frame origin, tr(I_c)/2 + m |c|^2, so a
near-point mass away from the origin has the scale m |c|^2). A principal moment down to
-INERTIA_NOISE * scale counts as zero, and the triangle inequality may fail by as much:
URDF files print inertias to about six significant digits, which moves the principal
moments by up to ~1e-6 of the largest. iCub's -2.4e-35 moments (scale 0.017) and a
triangle inequality off by 1e-21 (scale 2.4e-4) are far inside it."""

MAX_MAGNITUDE = 1e30
"""A number in a robot file (mass, inertia, length, gravity) may not exceed this in
magnitude: the dynamics multiply up to five such numbers (m |r|^2 qd^2), and (1e30)^5 =
1e150 stays far from the double-precision overflow at 1.8e308. No physical robot comes
near it in any unit system (the Sun's mass is 2e30 kg). Joint axes are directions and are
exempt (scaled before use)."""

ROTATION_ORTHONORMAL = 1e-9
"""A rotation matrix written in a robot or system file must satisfy |R R^T - I| <= this
entrywise: nine entries printed to ~9 digits."""

AXIS_ZERO = 1e-9
"""A joint axis shorter than this is zero (refused): axes are written as directions of
order 1; anything this short is a typo or a placeholder, not a direction."""

SINGULAR_D = 1e-12
"""D(k) = H(k) P(k) H^T(k) (Part I (4.6)) is singular when its smallest eigenvalue, after
scaling each joint coordinate by the articulated inertia it moves against (the trace of
the angular or linear block of P(k)), is at most this. The example-robot-data robots stay
above 1e-3 at random configurations (a 1 mm thick, 1 m long rod spun about its own axis:
1e-6); a massless leaf or a point mass on its joint axis gives 0 or round-off (~1e-17).
Below it M^-1 would amplify round-off by more than 1e12."""

# =====================================================================================
# Identification: base inertial parameters (soagen.dynamics.base_parameters)
# =====================================================================================

REGROUP_ZERO = 1e-12
"""A regrouping coefficient (a sum of products of the model's lengths, rotations and
unit numbers) below REGROUP_ZERO in magnitude is a rounding residue and is set to 0:
cos(pi/2) from a URDF rpy is 6e-17 and products of such residues with lengths of
order 1 m stay below 1e-15, while a real coefficient is a length or squared length of
the robot (a 1 mm offset squared is 1e-6), many orders above."""

BASE_RANK = 1e-8
"""Step 2 of the base parameters (the rank of a stacked random regressor): a column whose
Gram-Schmidt residual, relative to its own norm, is below BASE_RANK depends on the
columns before it. Dependent columns come out at round-off, ~1e-15; independent ones of
the robots tested at 1e-2 .. 1 (the gap is reported as BaseParameters.gap)."""

BASE_COEFFICIENT_ZERO = 1e-10
"""A least-squares regrouping coefficient of step 2 below this is round-off (~1e-14 for
well-scaled robots) and is set to 0 so that the printed expressions hold no noise terms."""

NORMAL_EQUATIONS_RANK = 1e-6
"""Least squares accumulated chunk by chunk as normal equations (soagen.codegen.scale.lstsq):
a column of the regressor whose residual against the columns before it, relative to its
own norm, is below this is refused as dependent. The normal equations square the
condition number: they resolve such a residual only down to sqrt(eps) ~ 1.5e-8, and at
1e-6 (condition ~1e6) a solution keeps about four correct digits. The base regressor of
the UR5 at random states has condition 15 (4.5 with its columns scaled to unit norm)."""

# =====================================================================================
# The proof layer's numeric checks (soagen.symbolic)
# =====================================================================================
# A numeric check never proves anything there; it refutes a statement (with a
# counterexample) or cross-checks a proof against an independent evaluation.

IDENTITY_RESIDUAL = 1e-8
"""An identity evaluated on random instances of a few links (N <= 8, entries O(1), the
operators well conditioned) holds when max |lhs - rhs| / max |rhs| stays below this. True
identities leave round-off of 1e-14..1e-12 there; the papers' misprints leave O(1)
residuals (0.2 for (a.16) with one letter changed at N = 4), so 1e-8 separates the two
with four orders to spare on either side."""

ROBOT_RESIDUAL = 1e-6
"""The same check on robot-shaped instances, where ill-conditioning grows with the chain
(the cross-check of `soagen verify` runs chains up to N = 50 and products such as
(I - H Phi L)^T D^-1 (I - H Phi L) lose digits with cond(M)), and `soagen prove`'s
counterexample search: a relative residual above 1e-6 refutes. Measured: the catalogue's
true identities on robots up to N = 50 leave at most 4e-13; the 31 false statements of the
`soagen prove` tests leave 0.016 and more."""

# =====================================================================================
# Closed chains (soagen.closed_chain)
# =====================================================================================

GRASP_SPACE = 1e-9
"""Decisions on a grasp's motion and constraint spaces (Part II Appendix A): columns
linearly dependent (rank), motion and constraint spaces not orthogonal, a constraint
direction purely translational, a grasp axis or normal too short to normalize. The
columns are unit-scale directions written in a system file: 1e-9 accepts decimals
written to 9 digits and round-off (1e-16), and refuses what is geometrically wrong."""

RANK = 1e-9
"""A singular value below RANK times the largest one (J M^-1 J^T of an arm: a singular
configuration, where methods needing J full rank are refused) or below RANK absolutely
(the grasp geometry in metres and unit-direction constraint Jacobians, whose largest
singular values are O(1): collinear grasp points, an object pose or twist the tips do not
determine) counts as zero. Round-off in these small products is ~1e-15 relative; 1e-9
keeps six orders of margin while still flagging structural rank loss."""

CLOSURE = 1e-12
"""Gauss-Newton on the loop-closure equations (consistent states, projection after each
simulation step, the object pose from the tips) stops when the largest residual is below
CLOSURE, in metres and radians: 1e-12 m is ~1e4 ulp of a 1 m position, reachable in a few
quadratically converging steps, and far below anything a simulation or a test can see."""

CLOSURE_ACCEPT = 1e-8
"""When Gauss-Newton for the object pose stalls (its Jacobian loses rank) the pose is
still accepted if the largest closure residual is below CLOSURE_ACCEPT (metres,
radians): the remaining error is then below what the dynamics (and the 1e-8-relative
oracle comparisons) resolve; above it the pose is not determined and is refused."""

# =====================================================================================
# The Pinocchio oracle (soagen.oracles.pinocchio_closed_chain)
# =====================================================================================

PIN_PROXIMAL_ACCURACY = 1e-14
"""Absolute accuracy asked of Pinocchio's proximal constraint solver (constraintDynamics,
mu = 0, one iteration suffices for a consistent rigid problem): near double-precision
round-off, so the oracle's own tolerance does not enter a 1e-8 comparison."""
