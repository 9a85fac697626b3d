"""Closed chains: l serial chains coupled through a reference member (Part II, Lilly-Orin,
framework paper Sec. 3), forward dynamics in O(n) + O(l^3).

``soagen.load_system(path)`` (:mod:`soagen.loaders.closed_chain`) reads a system file
(docs/closed-chains.md); ``forward_dynamics(system, q, qd, tau, method=...)`` runs one of :data:`METHODS` (name -> method);
``System.consistent_state(rng)`` finds a state satisfying the loop closures."""

from soagen.closed_chain.forward import METHODS, forward_dynamics
from soagen.closed_chain.result import Result

__all__ = ["METHODS", "Result", "forward_dynamics"]
