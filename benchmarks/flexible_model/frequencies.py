"""Natural frequencies of one beam link against Euler-Bernoulli (docs/flexible.md,
"Frequencies"): clamped-free bending (beta_i L = 1.8751, 4.6941, 7.8548) as the element
count grows; pinned-free (the link on a passive joint, beta L = 3.9266, 7.0686) with
every mode and with 1, 2, 3, 4, 6 clamped modes; and the lumped beam of Swain-Morris C.2
(rigid segments on virtual elastic joints).

    python benchmarks/flexible_model/frequencies.py
"""

import numpy as np

from soagen import algorithms as A
from soagen.loaders.beam import Beam, generalized_eigh
from soagen.loaders.flexible import beam_robot, lumped_beam_robot, pinned_frequencies

STRIP = Beam(length=1.0, EIz=9.45, rhoA=0.471)
C = np.sqrt(STRIP.EIz / (STRIP.rhoA * STRIP.length**4))
CLAMPED = np.array([1.8751040687, 4.6940911330, 7.8547574382])**2 * C
PINNED = np.array([3.9266023120, 7.0685827560])**2 * C


def main():
    print("clamped-free bending, relative error of the FE frequencies (consistent mass, 3 modes)")
    print(f"{'elements':>9s} {'mode 1':>10s} {'mode 2':>10s} {'mode 3':>10s}")
    for n in (1, 2, 4, 6, 10, 20, 40):
        w = beam_robot(STRIP, modes=min(3, 2 * n), elements=n, shapes=("y",)).bodies[0].flex.frequencies
        err = np.full(3, np.nan)
        err[:len(w)] = w / CLAMPED[:len(w)] - 1
        print(f"{n:9d} " + " ".join(f"{e:10.2e}" for e in err))

    print("\npinned-free (passive joint, no hub), relative error of the first two elastic frequencies")
    _, full = pinned_frequencies(beam_robot(STRIP, modes=1, elements=10, shapes=("y",)).bodies[0])
    print(f"{'every mode (10 elements)':28s} " + " ".join(f"{e:10.2e}" for e in full[:2] / PINNED - 1))
    for m in (1, 2, 3, 4, 6):
        modal, _ = pinned_frequencies(beam_robot(STRIP, modes=m, elements=10, shapes=("y",)).bodies[0])
        err = np.full(2, np.nan)
        err[:len(modal[:2])] = modal[:2] / PINNED[:len(modal[:2])] - 1
        print(f"{f'{m} clamped mode(s)':28s} " + " ".join(f"{e:10.2e}" for e in err))

    print("\nlumped beam (Swain-Morris C.2), clamped, relative error of the first three frequencies")
    for n in (5, 10, 20, 40, 80):
        r = lumped_beam_robot(STRIP, segments=n, hub_inertia=1.0)
        M = A.mass_matrix(r, np.zeros(r.nq))[1:, 1:]
        w2, _ = generalized_eigh(np.diag([b.joint.stiffness for b in r.bodies[1:]]), M)
        print(f"{n:9d} " + " ".join(f"{e:10.2e}" for e in np.sqrt(w2[:3]) / CLAMPED - 1))


if __name__ == "__main__":
    main()
