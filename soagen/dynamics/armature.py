"""Rotor inertia (armature) in the joint-space blocks: J_m(k) added to D(k) = H P H^T in the
Riccati recursion (Part I (4.6)) and to the mass matrix's diagonal block (3.20), nothing
added without it, so the papers' recursions run unchanged (docs/derivations/armature.md:
Fact 4.1, Fact 4.2 and Theorem 4.1 with D(k) = H P H^T + J_m, proved for every N)."""

from __future__ import annotations

from soagen.model import armature_block

NOTE = ", with the joint's rotor inertia J_m"


def plus_armature(A, body, xp):
    """A + J_m(k) for a joint-space block A of ``body`` (its nv x nv); A itself without armature."""
    J_m = armature_block(body)
    return A if J_m is None else A + xp.constant(J_m)


def note(text, body):
    """The note of a quantity that includes the rotor inertia of ``body`` (when it has one)."""
    return text if armature_block(body) is None else text.replace("H P H^T", "H P H^T + J_m") + NOTE
