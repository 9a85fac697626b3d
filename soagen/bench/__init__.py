"""``soagen bench``: timings of the generated code against the numpy reference and the
peers, and exact operation counts, one module per system kind (:mod:`.robot`,
:mod:`.closed_chain`) and the array backends' throughput (:mod:`.throughput`)."""
