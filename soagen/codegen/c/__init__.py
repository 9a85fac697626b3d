"""The C backend: its printers (:mod:`~.printers`), the sum association by readiness
(:mod:`~.sum_order`), the statement order for the registers (:mod:`~.statement_order`),
the columns computed four at a time (:mod:`~.lanes`) and the function body that puts
them together for the scalar and batch C (:mod:`~.body`). Templates: ``templates/c/``."""
