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
# The Pinocchio oracle (soagen.closed_chain.pinocchio_model)
# =====================================================================================

PIN_PROXIMAL_ACCURACY = 1e-14
"""Absolute accuracy asked of Pinocchio's proximal constraint solver (constraintDynamics,
mu = 0, one iteration suffices for a consistent rigid problem): near double-precision
round-off, so the oracle's own tolerance does not enter a 1e-8 comparison."""
