"""The `soagen` command line: a thin shell over the library (see main.py)."""
