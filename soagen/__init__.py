"""soagen: the Spatial Operator Algebra of multibody dynamics as a toolchain.

``soagen.load(path)`` reads a robot file into a validated model; ``soagen.algorithms``
holds the generic (numpy) algorithms of the papers.
"""

from soagen.closed_chain.loader import load_system
from soagen.loaders import load

__all__ = ["load", "load_system"]
__version__ = "0.1.0"
