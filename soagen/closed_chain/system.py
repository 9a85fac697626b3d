"""The closed-chain system model: l arms (open chains with fixed bases) whose tips hold
one rigid reference member (Part II Fig. 2.1, Lilly-Orin Type 0), or legs whose feet
stand on the ground and whose hips carry a body (Lilly-Orin Type 1, modelled the same
way: each leg is a chain from the ground, the support, to its hip, the "grasp").

Conventions (one for the whole package, see docs/closed-chains.md):

* everything at system level is world-aligned; spatial vectors angular first;
  accelerations classical (the derivative of the velocity of a point), as in Part II;
* V(C) = (omega, v_C): the object's spatial velocity at the point C (origin of the object
  frame), alpha(C) its derivative; M(C) the object's spatial inertia about C (2.4);
* f_i(0) = f(0) of arm i: the force the tip exerts ON the object, moment about the grasp
  point O_i then force (Table 2.1), so T = M qdd + C + J^T f(0) (2.3a), f(C) = A^T f(0) (2.9);
* a grasp is a "general joint" (Lilly-Orin Sec. II) between the arm tip and the object:
  motion space phi (6 x n, the free relative motions, Part II's H^T(0) of (a.6)) and
  constraint space phi^c (6 x (6-n)), both orthonormal and fixed in the grasp frame on the
  object; the grasp force is f(0) = phi^c h^c (a.7), (33).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

GRASP_KINDS = ("rigid", "revolute", "soft_finger", "spherical", "general")


@dataclass(frozen=True)
class Grasp:
    """Grasp i: where the arm tip holds the object and which relative motions it allows."""

    kind: str                 # one of GRASP_KINDS
    frame: str                # name of the grasp frame on the object (point O_i)
    R: np.ndarray             # grasp frame in the object frame C
    r: np.ndarray             # O_i in the object frame C
    phi: np.ndarray           # 6 x n motion space, grasp frame (Appendix A: H^T(0))
    phic: np.ndarray          # 6 x (6-n) constraint space, grasp frame
    holonomic: np.ndarray     # 6 x k columns of phic also constrained in position

    @property
    def n_c(self) -> int:
        return self.phic.shape[1]


@dataclass(frozen=True)
class Arm:
    """One chain: a robot whose base is fixed in the world and whose tip is the grasp."""

    name: str
    robot: object             # soagen.model.Robot, gravity expressed in the arm base frame
    base_R: np.ndarray        # arm base frame in the world
    base_r: np.ndarray
    q0: np.ndarray            # nominal configuration (start of consistent_state)
    grasp: Grasp

    @property
    def n(self) -> int:
        return self.robot.nv


@dataclass(frozen=True)
class HeldObject:
    """The reference member: mass properties about its centre of mass in frame C."""

    name: str
    mass: float
    com: np.ndarray           # p_C: from C to the centre of mass, frame C
    inertia: np.ndarray       # about the centre of mass, frame C
    R0: np.ndarray            # nominal pose of frame C in the world
    p0: np.ndarray
    frames: dict = field(default_factory=dict)   # name -> (R, r) in frame C


@dataclass(frozen=True)
class System:
    """A validated closed-chain system (built by :func:`soagen.load_system`)."""

    name: str
    source: str
    kind: int                 # Lilly-Orin type: 0 arms holding an object, 1 legs carrying a body
    gravity: np.ndarray       # world
    obj: HeldObject
    arms: tuple

    @property
    def l(self) -> int:
        return len(self.arms)

    @property
    def n(self) -> int:
        """Total number of arm joints, n = sum N_i (2.2)."""
        return sum(a.n for a in self.arms)

    def offsets(self):
        out, k = [], 0
        for a in self.arms:
            out.append(k)
            k += a.n
        return out

    def split(self, x, dtype=float):
        """A vector over all arm joints -> one vector per arm."""
        x = np.asarray(x, dtype=dtype)
        if x.shape != (self.n,):
            from soagen.errors import SoagenError
            raise SoagenError(f"{self.name}: expected a vector of {self.n} arm joint values, got shape {x.shape}")
        return [x[k:k + a.n] for k, a in zip(self.offsets(), self.arms)]

    def q0(self):
        return np.concatenate([a.q0 for a in self.arms])

    def consistent_state(self, rng=None, spread=0.05, speed=0.5, torque=1.0):
        """(q, qd, tau) satisfying the loop closures in position and velocity; see
        :func:`soagen.closed_chain.consistent.consistent_state`."""
        from soagen.closed_chain.consistent import consistent_state
        return consistent_state(self, rng, spread=spread, speed=speed, torque=torque)
