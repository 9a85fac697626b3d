"""Code generation tests: the helper module of this directory (codegen_util) is put on
sys.path."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
