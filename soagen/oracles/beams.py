"""Flexible-arm test cases as physical data, and the quantities every flexible model is
compared on. Shared by the two independent references (:mod:`soagen.oracles.exudyn`, a
converged geometrically nonlinear finite-element model in Exudyn, and
:mod:`soagen.oracles.ffr`, a floating-frame modal model written here from the equations)
and by whatever is checked against them (soagen's flexible links).

Geometry and conventions (all cases are planar):

* The motion is in the world x-y plane; gravity acts along -y; joint axes are z.
* Links are numbered from the base, k = 1..n (``links[0]`` is link 1).
* Link k is a straight uniform beam clamped to its *hub* at its root: the hub frame has its
  origin at joint k and its x axis along the beam's root tangent. Its in-plane bending
  stiffness is ``Beam.EIz`` (bending about z); ``EIy``, ``GJ`` and ``rhoJ`` do not enter a
  planar motion and are carried so the same data describe the 3D link.
* Joint k is a revolute joint at the root of link k; joint 1 is fixed to the ground at the
  origin, joint k > 1 sits at the tip of link k - 1 and connects the tip cross-section of
  link k - 1 to the hub of link k. ``Arm.theta0`` gives the initial joint angles: theta_1
  absolute from world x, theta_k relative to the tip cross-section of link k - 1 (for an
  undeformed beam, relative to link k - 1's axis). The joints are passive (no torque, no
  friction) unless a profile is prescribed (:class:`SpinUp`).
* A hub may carry a point mass ``hub_mass`` at the joint and a rotational inertia
  ``hub_inertia`` about the joint axis, rigidly attached to the beam's root.

Compared quantities (:class:`Trajectory`), sampled every ``Arm.sample`` seconds:

* ``hub_angle[:, k]``: the absolute angle (rad, from world x, counter-clockwise) of hub
  frame k, i.e. of link k's root tangent. Continuous in time (not wrapped to (-pi, pi]).
* ``joint_angle[:, k]``: hub_angle of link k minus the absolute angle of the tip tangent
  of link k - 1 (for k = 1: hub_angle of link 1).
* ``root[:, k]`` and ``tip[:, k]``: world positions (m) of link k's root (joint k) and of
  its tip (the end of its centre line).
* ``deflection[:, k]``: the elastic tip deflection of link k in its hub frame: the tip's
  displacement normal to the undeformed axis in the rotating frame attached at the joint,
  ``e_y(hub_angle_k) . (tip_k - root_k)`` with ``e_y(a) = (-sin a, cos a)``. A rigid link
  has zero deflection. (The component along the axis, L minus the foreshortening, is not
  compared: it is second order in the deflection.)

:func:`compare` gives the errors of one trajectory against another in the terms of the
acceptance criteria (deflection error relative to the peak deflection, hub angle error in
rad, tip error relative to the arm length).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Beam:
    """A straight uniform beam: length (m), stiffnesses E A (N), E I_y, E I_z (N m^2),
    G J (N m^2), mass per length rho A (kg/m) and polar mass moment per length rho J
    (kg m). Bending in the plane of motion uses EIz."""

    length: float
    EA: float
    EIy: float
    EIz: float
    GJ: float
    rhoA: float
    rhoJ: float

    def __post_init__(self):
        for name in ("length", "EA", "EIy", "EIz", "GJ", "rhoA", "rhoJ"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"Beam.{name} must be positive and finite, got {value!r}")

    @classmethod
    def rectangular(cls, length, width, height, E, G, rho):
        """A solid rectangular section: ``height`` in the plane of motion (y), ``width``
        out of it (z). G J uses the thin-strip torsion constant b t^3 / 3 * (1 - 0.63 t/b)
        (Roark) with t the smaller side."""
        A = width * height
        b, t = max(width, height), min(width, height)
        J = b * t ** 3 / 3 * (1 - 0.63 * t / b)
        return cls(length=length, EA=E * A, EIy=E * height * width ** 3 / 12,
                   EIz=E * width * height ** 3 / 12, GJ=G * J, rhoA=rho * A,
                   rhoJ=rho * A * (width ** 2 + height ** 2) / 12)

    @property
    def load(self):
        """rho A g L^3 / EI with g = 9.81: the dimensionless gravity load of the link."""
        return self.rhoA * 9.81 * self.length ** 3 / self.EIz


@dataclass(frozen=True)
class Link:
    """A beam on a revolute joint at its root, with an optional hub (point mass at the
    joint, kg, and rotational inertia about the joint axis, kg m^2, clamped to the root)."""

    beam: Beam
    hub_mass: float = 0.0
    hub_inertia: float = 0.0

    def __post_init__(self):
        for name in ("hub_mass", "hub_inertia"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"Link.{name} must be non-negative and finite, got {value!r}")


@dataclass(frozen=True)
class Arm:
    """A planar chain of flexible links on passive revolute joints, released from rest,
    undeformed, at joint angles ``theta0`` under gravity ``gravity`` (m/s^2, along -y);
    simulated for ``duration`` s and sampled every ``sample`` s."""

    links: tuple
    theta0: tuple = None
    gravity: float = 9.81
    duration: float = 1.0
    sample: float = 0.01

    def __post_init__(self):
        object.__setattr__(self, "links", tuple(self.links))
        if self.theta0 is None:
            object.__setattr__(self, "theta0", (0.0,) * len(self.links))
        if len(self.theta0) != len(self.links):
            raise ValueError("Arm.theta0 needs one angle per link")

    @property
    def reach(self):
        return sum(link.beam.length for link in self.links)

    def times(self):
        n = int(round(self.duration / self.sample))
        return np.arange(n + 1) * self.sample


@dataclass(frozen=True)
class SpinUp:
    """Kane, Ryan and Banerjee's spin-up (J. Guidance 10(2), 1987): a beam clamped to a
    hub on the z axis whose angle follows

        theta(t) = (omega_s / T) (t^2 / 2 + (T / (2 pi))^2 (cos(2 pi t / T) - 1)),  t < T
        theta(t) = omega_s (t - T / 2),                                            t >= T

    in a horizontal plane (no gravity). Defaults: the paper's beam and manoeuvre as
    reproduced in the literature (L = 10 m, E = 7e10 Pa, A = 4e-4 m^2, I = 2e-7 m^4,
    rho = 3000 kg/m^3, so E A = 2.8e7 N, E I = 1.4e4 N m^2, rho A = 1.2 kg/m; T = 15 s,
    omega_s = 6 rad/s, above the first clamped-free frequency 3.8 rad/s, where the linear
    model diverges)."""

    beam: Beam = field(default_factory=lambda: Beam(length=10.0, EA=2.8e7, EIy=1.4e4, EIz=1.4e4,
                                                    GJ=1.4e4, rhoA=1.2, rhoJ=1.2e-3))
    omega_s: float = 6.0
    T: float = 15.0
    duration: float = 20.0
    sample: float = 0.05

    def profile(self, t):
        """(theta, theta_dot, theta_ddot) of the hub at time t (scalars or arrays)."""
        t = np.asarray(t, dtype=float)
        w, T = self.omega_s, self.T
        c = 2 * math.pi / T
        during = t < T
        theta = np.where(during, w / T * (t ** 2 / 2 + (np.cos(c * t) - 1) / c ** 2), w * (t - T / 2))
        theta_d = np.where(during, w / T * (t - np.sin(c * t) / c), w)
        theta_dd = np.where(during, w / T * (1 - np.cos(c * t)), 0.0)
        return theta, theta_d, theta_dd

    def times(self):
        n = int(round(self.duration / self.sample))
        return np.arange(n + 1) * self.sample


@dataclass(frozen=True)
class Trajectory:
    """Sampled outputs of one model (see the module docstring for the definitions).
    Arrays are indexed [sample, link] (and [..., xy] for positions)."""

    t: np.ndarray
    hub_angle: np.ndarray
    joint_angle: np.ndarray
    root: np.ndarray
    tip: np.ndarray
    deflection: np.ndarray
    label: str = ""


def hub_frame_deflection(hub_angle, root, tip):
    """e_y(hub_angle) . (tip - root), elementwise over samples and links."""
    d = tip - root
    return -np.sin(hub_angle) * d[..., 0] + np.cos(hub_angle) * d[..., 1]


@dataclass(frozen=True)
class Errors:
    """Errors of a trajectory against a reference, per link (max over the samples):
    ``deflection`` relative to the reference's peak |deflection| of that link, ``hub_angle``
    in rad, ``tip`` in m and ``tip_rel`` relative to the arm's reach."""

    deflection: np.ndarray
    hub_angle: np.ndarray
    tip: np.ndarray
    tip_rel: np.ndarray


def compare(got, ref, reach):
    """The errors of ``got`` against ``ref`` (two Trajectory objects sampled at the same
    times) in the terms of the acceptance criteria."""
    if got.t.shape != ref.t.shape or np.abs(got.t - ref.t).max() > 1e-9:
        raise ValueError("trajectories are not sampled at the same times")
    peak = np.abs(ref.deflection).max(axis=0)
    defl = np.abs(got.deflection - ref.deflection).max(axis=0)
    tip = np.linalg.norm(got.tip - ref.tip, axis=-1).max(axis=0)
    return Errors(deflection=defl / np.where(peak > 0, peak, 1.0),
                  hub_angle=np.abs(got.hub_angle - ref.hub_angle).max(axis=0),
                  tip=tip, tip_rel=tip / reach)


# ---------------------------------------------------------------------------------------
# The benchmark cases
# ---------------------------------------------------------------------------------------

def aluminium_strip(length=1.0, width=0.12, height=0.003):
    """A 120 mm x 3 mm aluminium strip (E = 70 GPa, G = 26 GPa, rho = 2700 kg/m^3), bending
    in the plane of its 3 mm side: 1 m long, rho A = 0.972 kg/m and EIz = 18.9 N m^2, so
    rho A g L^3 / EI = 0.50; first clamped-free frequency 2.5 Hz."""
    return Beam.rectangular(length, width, height, E=70e9, G=26e9, rho=2700.0)


def flexible_pendulum():
    """One aluminium strip on a revolute joint, released horizontal under gravity, 1 s."""
    return Arm(links=(Link(aluminium_strip()),))


def two_link_arm():
    """Two aluminium strips (the inner one 4 mm thick, the outer 3 mm) on passive revolute
    joints, released horizontal and straight under gravity, 1 s."""
    return Arm(links=(Link(aluminium_strip(height=0.004)), Link(aluminium_strip())))
