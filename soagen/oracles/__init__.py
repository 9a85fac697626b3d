"""Bridges to codes nobody here wrote, for the oracle tests and benchmarks: conventions
converted, models rebuilt in the other code (:mod:`.pinocchio` for robots,
:mod:`.pinocchio_closed_chain` for closed-chain systems). The packages they need are
optional; nothing in the algorithms imports this package."""
