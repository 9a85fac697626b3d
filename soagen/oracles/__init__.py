"""Bridges to codes nobody here wrote, for the oracle tests and benchmarks: conventions
converted, models rebuilt in the other code (:mod:`.pinocchio` for robots,
:mod:`.pinocchio_closed_chain` for closed-chain systems, :mod:`.exudyn` for flexible
links), and the independent references for flexible links written here from textbook
equations (:mod:`.euler_bernoulli`, the floating-frame model :mod:`.ffr`, the shared case
data and compared quantities :mod:`.beams`; docs/flexible-oracles.md). The packages they
need are optional; nothing in the algorithms imports this package."""
