"""The robot files shipped with soagen (``robots/`` of the repository, ``soagen/robots``
inside the installed wheel): a bundled robot can be named without a path, from any
directory (``soagen info puma560``, ``soagen derive planar2``), and so can a bundled
closed-chain system file (``robots/systems/``: ``soagen simulate dual_arm_box``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from soagen.errors import RobotFileError


def robots_dir() -> Path | None:
    """The bundled robot files: inside the installed package (wheel), else the repository's."""
    pkg = resources.files("soagen") / "robots"
    if pkg.is_dir():
        return Path(str(pkg))
    repo = Path(__file__).resolve().parents[2] / "robots"
    return repo if repo.is_dir() else None


def names() -> list[str]:
    """The names of the bundled robots (file stems)."""
    folder = robots_dir()
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder else []


def system_names() -> list[str]:
    """The names of the bundled closed-chain system files (file stems of ``systems/``)."""
    folder = robots_dir()
    return sorted(p.stem for p in (folder / "systems").glob("*.yaml")) if folder else []


def resolve(path) -> Path:
    """``path`` if it is a file, else the bundled robot or system file of that name;
    otherwise a one-line error (a directory, or no such file)."""
    p = Path(path)
    if p.is_file():
        return p
    if p.is_dir():
        raise RobotFileError(p, "file", "is a directory, not a robot file")
    bare = p.name == str(path) and not p.suffix
    if bare and p.name in names():
        return robots_dir() / f"{p.name}.yaml"
    if bare and p.name in system_names():
        return robots_dir() / "systems" / f"{p.name}.yaml"
    hint = f" (nor a bundled robot: {', '.join(names())}; or system: {', '.join(system_names())})" if bare else ""
    raise RobotFileError(p, "file", f"no such file{hint}")
