"""Natural frequencies of one flexible link: Euler-Bernoulli's closed form against
Exudyn's ANCF eigen-analysis (mesh convergence) and against the floating-frame
reference's linearization on a free joint (mode convergence).

* clamped-free (the link on a locked joint): beta_i L = 1.8751, 4.6941, 7.8548;
* pinned-free (the link on a free revolute joint, no hub): tan(bL) = tanh(bL),
  beta_i L = 3.9266, 7.0686, 10.2102.

Prints the relative errors of the first three frequencies. Seconds.

    python benchmarks/flexible/frequencies.py
"""

from __future__ import annotations

import numpy as np

from soagen.oracles import beams, ffr
from soagen.oracles import exudyn as exu
from soagen.oracles.euler_bernoulli import (
    bending_frequencies,
    clamped_free_betaL,
    pinned_free_betaL,
)


def cells(got, want):
    return " | ".join(f"{100 * (g / w - 1):+.2g}%" for g, w in zip(got, want))


def main():
    link = beams.flexible_pendulum().links[0]
    b = link.beam
    clamped = bending_frequencies(clamped_free_betaL(3), b.length, b.EIz, b.rhoA)
    pinned = bending_frequencies(pinned_free_betaL(3), b.length, b.EIz, b.rhoA)
    hz = " / ".join(f"{w / (2 * np.pi):.3f}" for w in clamped)
    print(f"aluminium strip: L = {b.length} m, EI = {b.EIz:.4g} N m^2, rho A = {b.rhoA:.4g} kg/m")
    print(f"Euler-Bernoulli clamped-free: {hz} Hz; pinned-free: "
          + " / ".join(f"{w / (2 * np.pi):.3f}" for w in pinned) + " Hz\n")
    print("| model | clamped-free 1 | 2 | 3 | pinned-free 1 | 2 | 3 |")
    print("|---|---|---|---|---|---|---|")
    for n in (2, 4, 8, 16, 32):
        c = exu.clamped_free_frequencies(b, n)
        p = exu.pinned_free_frequencies(b, n)
        print(f"| Exudyn ANCF, {n} elements | {cells(c, clamped)} | {cells(p, pinned)} |")
    for m in (1, 2, 3, 4, 6, 8):
        p = ffr.pinned_frequencies(link, m)[1:4]
        print(f"| floating frame, {m} clamped-free mode{'s' if m > 1 else ''} | (exact by construction) | | | "
              f"{cells(p, pinned)}{' | -' * (3 - len(p))} |")


if __name__ == "__main__":
    main()
