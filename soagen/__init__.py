"""soagen: the Spatial Operator Algebra of multibody dynamics as a toolchain.

``soagen.load(path)`` reads a robot file into a validated model; ``soagen.algorithms``
holds the generic (numpy) algorithms of the papers.
"""

from soagen.loaders import load
from soagen.loaders.closed_chain import load_system

__all__ = ["load", "load_system"]
__version__ = "0.1.0"
