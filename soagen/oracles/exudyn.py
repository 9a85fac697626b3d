"""Exudyn models of the flexible-arm cases, built from physical data only: the first,
independent reference for soagen's flexible links (Exudyn, pip ``exudyn``, J. Gerstmayr's
flexible multibody code; the second reference is :mod:`soagen.oracles.ffr`).

Every beam is a chain of ``ObjectANCFCable2D`` elements (absolute nodal coordinates:
position and slope vector at each node, cubic Hermite interpolation, the Euler-Bernoulli
bending energy 1/2 EI int kappa^2 with the exact curvature and the axial energy
1/2 EA int eps^2 with eps = |r'| - 1): geometrically exact for large rotations and large
deflections, so the geometric stiffening that the linear floating-frame model misses is
simply there. Joints and hubs:

* joint 1: the root node's position is held at the origin (two coordinate constraints);
  its slope, i.e. the hub angle, is free (a pin) or, for the spin-up, tied to the ground
  by an ``ObjectJointGeneric`` whose rotation offset is the prescribed hub angle;
* joint k > 1: the root node of link k and the tip node of link k - 1 share their
  position (coordinate constraints), their slopes are independent (a pin);
* a hub (``Link.hub_mass`` / ``hub_inertia``): an ``ObjectRigidBody2D`` on its own node at
  the joint, clamped to the root of the beam by an ``ObjectJointGeneric`` (x, y and the
  rotation about z), so it turns with the root tangent.

Integration: Exudyn's implicit generalized-alpha solver with a fixed step, full Newton,
spectral radius ``SPECTRAL_RADIUS`` (a little numerical damping of the stiff axial modes,
which an undamped trapezoidal rule lets ring and which then spoil the convergence in the
step; the scheme stays second-order accurate). The mesh and step convergence of the
defaults is measured in docs/flexible-oracles.md.

Outputs are read from sensors on the root and tip nodes every ``sample`` seconds and
converted to the quantities of :mod:`soagen.oracles.beams` (hub angle = angle of the root
slope vector; deflection from the tip and root positions).

Exudyn is optional (``pip install soagen[flexible-oracle]``): import this module only
where it is installed. Note the module's name: inside it, ``import exudyn`` is the
package (absolute imports), not this file.
"""

from __future__ import annotations

import exudyn as exu
import numpy as np
from exudyn.itemInterface import (
    CoordinateConstraint,
    LoadMassProportional,
    MarkerBodyMass,
    MarkerBodyRigid,
    MarkerNodeCoordinate,
    NodePoint2DSlope1,
    NodePointGround,
    NodeRigidBody2D,
    ObjectANCFCable2D,
    ObjectGround,
    ObjectJointGeneric,
    ObjectRigidBody2D,
    SensorNode,
)

from soagen.oracles.beams import Link, Trajectory, hub_frame_deflection

SPECTRAL_RADIUS = 0.8
"""Generalized-alpha spectral radius at infinite frequency: 1 is the undamped trapezoidal
rule, lower values damp what the step cannot resolve (the axial modes, ~1e4 rad/s here)."""

NEWTON_FORCE = 1e3 * np.finfo(float).eps
"""Newton's absolute residual tolerance, times the largest E A of the model (a force):
the residual cannot fall below round-off of the axial forces (measured ~7e-15 E A with
full Newton), so 1e3 ulp of E A is reachable; its effect on positions per step is
~ residual * h^2 / node mass, far below 1e-10 m for the cases here."""


def _new_system():
    SC = exu.SystemContainer()
    return SC, SC.AddSystem()


def _add_beam(mbs, beam, root, angle, elements, gravity):
    """ANCF cable elements of ``beam`` from ``root`` along ``angle``: (nodes, elements)."""
    e = np.array([np.cos(angle), np.sin(angle)])
    h = beam.length / elements
    nodes = [mbs.AddNode(NodePoint2DSlope1(referenceCoordinates=[*(root + i * h * e), *e]))
             for i in range(elements + 1)]
    objects = []
    for i in range(elements):
        o = mbs.AddObject(ObjectANCFCable2D(length=h, massPerLength=beam.rhoA,
                                            bendingStiffness=beam.EIz, axialStiffness=beam.EA,
                                            nodeNumbers=[nodes[i], nodes[i + 1]]))
        objects.append(o)
        if gravity:
            m = mbs.AddMarker(MarkerBodyMass(bodyNumber=o))
            mbs.AddLoad(LoadMassProportional(markerNumber=m, loadVector=[0, -gravity, 0]))
    return nodes, objects


def _tie_coordinates(mbs, node_a, node_b, coordinates=(0, 1)):
    """Coordinate constraints q_b[c] = q_a[c] (displacements; the reference positions of
    the two nodes coincide); node_a None means the ground."""
    if node_a is None:
        node_a = mbs.AddNode(NodePointGround())
        coordinates_a = [0] * len(coordinates)
    else:
        coordinates_a = coordinates
    for ca, cb in zip(coordinates_a, coordinates):
        ma = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=node_a, coordinate=ca))
        mb = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=node_b, coordinate=cb))
        mbs.AddObject(CoordinateConstraint(markerNumbers=[ma, mb]))


def _add_hub(mbs, link, root, angle, first_element, gravity):
    """A rigid hub at the joint carrying link.hub_mass (under gravity) and link.hub_inertia,
    clamped to the beam's root (position and rotation about z)."""
    node = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[root[0], root[1], angle]))
    body = mbs.AddObject(ObjectRigidBody2D(mass=link.hub_mass, inertia=link.hub_inertia, nodeNumber=node))
    if gravity and link.hub_mass:
        m = mbs.AddMarker(MarkerBodyMass(bodyNumber=body))
        mbs.AddLoad(LoadMassProportional(markerNumber=m, loadVector=[0, -gravity, 0]))
    m_hub = mbs.AddMarker(MarkerBodyRigid(bodyNumber=body, localPosition=[0, 0, 0]))
    m_root = mbs.AddMarker(MarkerBodyRigid(bodyNumber=first_element, localPosition=[0, 0, 0]))
    mbs.AddObject(ObjectJointGeneric(markerNumbers=[m_hub, m_root], constrainedAxes=[1, 1, 0, 0, 0, 1]))


def _sensor(mbs, node):
    return mbs.AddSensor(SensorNode(nodeNumber=node, storeInternal=True, writeToFile=False,
                                    outputVariableType=exu.OutputVariableType.Coordinates))


def _solve(mbs, duration, step, sample, max_EA, spectral_radius):
    mbs.Assemble()
    ss = exu.SimulationSettings()
    ti = ss.timeIntegration
    ti.endTime = duration
    ti.numberOfSteps = int(round(duration / step))
    ti.adaptiveStep = False
    ti.verboseMode = 0
    ti.generalizedAlpha.spectralRadius = spectral_radius
    ti.newton.useModifiedNewton = False
    ti.newton.relativeTolerance = 1e-10
    ti.newton.absoluteTolerance = NEWTON_FORCE * max_EA
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = sample
    if not mbs.SolveDynamic(ss):
        raise RuntimeError("Exudyn: the dynamic solver failed")


def _stored(mbs, sensor, reference, times):
    """(times, absolute nodal coordinates x, y, slope x, slope y) of a node sensor, the
    samples matched to ``times``."""
    data = mbs.GetSensorStoredData(sensor)
    t = data[:, 0]
    idx = np.searchsorted(t, times - 1e-9)
    if len(t) < len(times) or np.abs(t[np.minimum(idx, len(t) - 1)] - times).max() > 1e-7:
        raise RuntimeError("Exudyn: sensor samples do not match the requested times")
    return data[idx, 1:] + np.asarray(reference)


def _trajectory(times, roots, tips, label):
    """Trajectory from per-link root and tip nodal coordinates (x, y, slope x, slope y)."""
    hub = np.unwrap(np.stack([np.arctan2(r[:, 3], r[:, 2]) for r in roots], axis=1), axis=0)
    tip_angle = np.unwrap(np.stack([np.arctan2(t[:, 3], t[:, 2]) for t in tips], axis=1), axis=0)
    root = np.stack([r[:, :2] for r in roots], axis=1)
    tip = np.stack([t[:, :2] for t in tips], axis=1)
    joint = hub.copy()
    joint[:, 1:] -= tip_angle[:, :-1]
    return Trajectory(t=times, hub_angle=hub, joint_angle=joint, root=root, tip=tip,
                      deflection=hub_frame_deflection(hub, root, tip), label=label)


def _build_chain(mbs, links, angles, gravity, elements, prescribed=None):
    """The chain's beams, joints and hubs (initial absolute angles ``angles``); returns
    per link (root node, tip node, root position, initial angle)."""
    ends, root, tip_node = [], np.zeros(2), None
    for k, (link, angle) in enumerate(zip(links, angles)):
        nodes, objects = _add_beam(mbs, link.beam, root, angle, elements, gravity)
        _tie_coordinates(mbs, tip_node, nodes[0])
        if k == 0 and prescribed is not None:
            ground = mbs.AddObject(ObjectGround())
            m_ground = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
            m_root = mbs.AddMarker(MarkerBodyRigid(bodyNumber=objects[0], localPosition=[0, 0, 0]))
            mbs.AddObject(ObjectJointGeneric(markerNumbers=[m_ground, m_root],
                                             constrainedAxes=[0, 0, 0, 0, 0, 1],
                                             offsetUserFunction=prescribed))
        if link.hub_mass or link.hub_inertia:
            _add_hub(mbs, link, root, angle, objects[0], gravity)
        ends.append((nodes[0], nodes[-1], root.copy(), angle))
        root = root + link.beam.length * np.array([np.cos(angle), np.sin(angle)])
        tip_node = nodes[-1]
    return ends


def simulate(arm, elements=16, step=6.25e-5, spectral_radius=SPECTRAL_RADIUS):
    """The trajectory of ``arm`` (a :class:`~soagen.oracles.beams.Arm`) with ``elements``
    ANCF elements per link and time step ``step``. The defaults are within 0.15% of the
    peak deflection, 2e-5 rad and 2e-6 m of the finest run measured (docs/flexible-oracles.md)."""
    SC, mbs = _new_system()
    angles = np.cumsum(arm.theta0)
    ends = _build_chain(mbs, arm.links, angles, arm.gravity, elements)
    sensors = [(_sensor(mbs, r), _sensor(mbs, t)) for r, t, _, _ in ends]
    _solve(mbs, arm.duration, step, arm.sample, max(link.beam.EA for link in arm.links),
           spectral_radius)
    times = arm.times()
    roots, tips = [], []
    for (s_root, s_tip), (_, _, o, angle), link in zip(sensors, ends, arm.links):
        e = np.array([np.cos(angle), np.sin(angle)])
        roots.append(_stored(mbs, s_root, [*o, *e], times))
        tips.append(_stored(mbs, s_tip, [*(o + link.beam.length * e), *e], times))
    return _trajectory(times, roots, tips, f"Exudyn ANCF, {elements} elements/link, h = {step:g} s")


def spin_up(spec, elements=8, step=2e-3, spectral_radius=SPECTRAL_RADIUS):
    """The Kane-Ryan-Banerjee spin-up (a :class:`~soagen.oracles.beams.SpinUp`): the root
    is pinned at the origin and its slope turned by the prescribed hub angle. The defaults
    differ from 16 elements and h = 5e-4 s by 0.003% of the peak deflection."""
    SC, mbs = _new_system()

    def offset(mbs, t, itemNumber, parameters):
        return [0, 0, 0, 0, 0, float(spec.profile(t)[0])]

    ends = _build_chain(mbs, [Link(spec.beam)], [0.0], 0.0, elements, prescribed=offset)
    r, t, o, _ = ends[0]
    s_root, s_tip = _sensor(mbs, r), _sensor(mbs, t)
    _solve(mbs, spec.duration, step, spec.sample, spec.beam.EA, spectral_radius)
    times = spec.times()
    root = _stored(mbs, s_root, [0, 0, 1, 0], times)
    tip = _stored(mbs, s_tip, [spec.beam.length, 0, 1, 0], times)
    return _trajectory(times, [root], [tip], f"Exudyn ANCF, {elements} elements, h = {step:g} s")


def _eigen(beam, elements, n, clamped):
    """The first n in-plane bending frequencies (rad/s) of one beam with its root node
    pinned (position held) or clamped (position and the slope's y component held).
    Linearized about the straight beam, the axial coordinates (x and slope x of every
    node) decouple from the bending ones (y and slope y), so they are held too and every
    eigenvalue left is a bending one."""
    SC, mbs = _new_system()
    nodes, _ = _add_beam(mbs, beam, np.zeros(2), 0.0, elements, 0.0)
    mbs.Assemble()
    i = np.array([mbs.GetNodeODE2Index(k) for k in nodes])
    fixed = sorted({*i, *(i + 2), i[0] + 1} | ({i[0] + 3} if clamped else set()))
    w2 = mbs.ComputeODE2Eigenvalues(constrainedCoordinates=[int(c) for c in fixed])[0]
    w = np.sqrt(np.abs(np.sort(w2)))
    if not clamped:
        w = w[1:]                    # the rigid rotation about the pin
    return w[:n]


def clamped_free_frequencies(beam, elements=16, n=3):
    """In-plane bending frequencies (rad/s) of a clamped-free beam (Exudyn eigen-analysis)."""
    return _eigen(beam, elements, n, clamped=True)


def pinned_free_frequencies(beam, elements=16, n=3):
    """In-plane bending frequencies (rad/s) of a beam pinned at its root (a free revolute
    joint without hub), after the rigid rotation."""
    return _eigen(beam, elements, n, clamped=False)
