"""Derivations for teaching (``soagen derive``): each step proved for every N as it is printed.
A new derivation is a topic in :mod:`.derivations`.

* :mod:`.derivations`  the bundled topics, as data
* :mod:`.steps`        the items a derivation is made of
* :mod:`.derive`       rendering (Markdown/LaTeX), proving every step
* :mod:`.plain`, :mod:`.notebook`  the plain-text and Jupyter renderers
* :mod:`.closed_form`  closed-form M(q), C(q, qd), g(q) of a small robot
"""
