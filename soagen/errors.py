"""User-facing errors: one line naming the file, the element and the problem.

Everything a user can get wrong (a malformed robot file, an unknown algorithm, an
unwritable output path) raises a :class:`SoagenError`; the CLI prints its message on one
line and exits with status 2, with no traceback.
"""

from __future__ import annotations


class SoagenError(Exception):
    """An error caused by the user's input, reported on one line."""


class RobotFileError(SoagenError):
    """A robot or system description that cannot be turned into a valid model."""

    def __init__(self, path: str, element: str, problem: str):
        self.path, self.element, self.problem = str(path), element, problem
        super().__init__(f"{self.path}: {element}: {problem}")


class RobotFileWarning(UserWarning):
    """Something dubious in a robot file that still gives finite, correct dynamics (an
    inertia violating the triangle inequality, rotational inertia without mass): one line
    naming the file, the element and the problem. ``strict=True`` (``--strict``) makes
    each of these a :class:`RobotFileError`."""

    def __init__(self, path: str, element: str, problem: str):
        self.path, self.element, self.problem = str(path), element, problem
        super().__init__(f"{self.path}: {element}: {problem}")


class SingularMassMatrixError(SoagenError):
    """D(k) = H(k) P(k) H^T(k) is singular: the mass matrix cannot be inverted (nothing
    beyond joint ``joint`` has inertia along its motion at this configuration)."""

    def __init__(self, source: str, joint: str, detail: str):
        self.source, self.joint = source, joint
        super().__init__(f"{source}: joint {joint!r}: the mass matrix is singular here ({detail}): "
                         "nothing beyond the joint has inertia along its motion (to make it a fixed "
                         f"joint: --lock {joint})")
