"""The soagen under test, for child Pythons: the checkout's, or the installed wheel's when
the suite runs with SOAGEN_TEST_INSTALLED=1 (tests/conftest.py, docs/testing.md)."""

import os
from pathlib import Path


def package_root() -> Path:
    """The folder that holds the soagen package these tests import: the checkout, or
    site-packages when they run against the installed wheel."""
    import soagen

    return Path(soagen.__file__).resolve().parents[1]


def child_env(base=None, **extra):
    """The environment of a child Python that must import the same soagen as the tests:
    its folder on PYTHONPATH and PYTHONSAFEPATH=1 (no current directory or script folder
    first on its path). ``base``: the variables to start from (default os.environ)."""
    return dict(os.environ if base is None else base, PYTHONPATH=str(package_root()), PYTHONSAFEPATH="1", **extra)
