"""The Swain-Morris unified model (seed 002): m serial arms on a base that is fixed,
free-floating, free-flying or flexible, holding a common object.

* :mod:`.operators` builds the paper's operators (7)-(21) in link frames from a soagen
  model whose root joint is free (the base) and whose other bodies form m serial arms:
  X, X_b, Phi, B, D = B^T, M_q, M_b, b, b_b and the time derivatives X_dot, X_b_dot.
* :mod:`.unified` forms the generalized quantities of (28) / Lemma B1 (M, J, C, T_hat),
  the disturbance Jacobian (38) / (B14), H (48) and the forward dynamics of Table I, with
  the special cases of Section 8 and the flexible base of Appendix C.

Conventions (docs/swain-morris.md): spatial vectors angular first; every velocity is in
its own link frame and every "V_dot" is the time derivative of those link-frame
components (so the base's V_b, V_b_dot are soagen's free-joint v, qdd); no gravity (the
paper's space setting); f_e is the force the end-effectors exert on the object.
"""
