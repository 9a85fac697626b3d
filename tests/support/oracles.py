"""The oracles' side of the comparisons, shared by the oracle tests: the joint-space errors
against Pinocchio (MuJoCo's side is soagen.oracles.mujoco). The oracle packages are
optional; the tests that use these import them first (pytest.importorskip)."""


from soagen import algorithms as A
from soagen.oracles.pinocchio import symmetrized
from tests.support.accuracy import rel_err


def joint_space_errors(robot, model, data, conv, q, qd, qdd, tau):
    """Relative errors against Pinocchio of RNEA, CRBA, M^-1 and each of FD1-FD4 (ABA)."""
    import pinocchio as pin

    qp, vp = conv.q_to_pin(q), conv.v_to_pin(qd)
    errs = {
        "rnea": rel_err(A.inverse_dynamics(robot, q, qd, qdd),
                        conv.v_from_pin(pin.rnea(model, data, qp, vp, conv.v_to_pin(qdd)))),
        "crba": rel_err(A.mass_matrix(robot, q), conv.matrix_from_pin(symmetrized(pin.crba(model, data, qp)))),
        "minv": rel_err(A.inverse_mass_matrix(robot, q),
                        conv.matrix_from_pin(symmetrized(pin.computeMinverse(model, data, qp)))),
    }
    aba = conv.v_from_pin(pin.aba(model, data, qp, vp, conv.v_to_pin(tau)))
    for method in A.FD_METHODS:
        errs[method] = rel_err(A.forward_dynamics(robot, q, qd, tau, method=method), aba)
    return errs
