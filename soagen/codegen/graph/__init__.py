"""The SymPy-compatible core of the code generator, fenced off from the rest.

:mod:`~soagen.codegen.graph.expr` is a hash-consed expression graph that reproduces SymPy
1.14's canonical forms (automatic evaluation, term and factor order), :mod:`~.order` SymPy's
orderings on it and :mod:`~.cse` SymPy's common-subexpression algorithm. Together they give
the programs SymPy would give, byte for byte, whatever SymPy is installed, without SymPy's
per-operation cost. They know nothing of robots, languages or printing; the unroller
(:mod:`soagen.codegen.unroll`) and the printers build on them, and tests compare them with
SymPy itself (tests/codegen/test_codegen_expr.py)."""
