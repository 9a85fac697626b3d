"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

from soagen.algorithms import FD_METHODS

robot_argument = click.argument("robot", type=click.Path(dir_okay=False, path_type=str))
tip_option = click.option("--tip", metavar="LINK", default=None,
                          help="Link whose frame is the tip frame O(0) (default: the file's "
                               "tip, or a serial chain's last link).")
floating_base_option = click.option("--floating-base", is_flag=True,
                                    help="Put a free (6-dof) joint between the world and the "
                                         "file's root link: q starts with (x, y, z, qx, qy, qz, "
                                         "qw), v with (omega, v) in the root body frame.")

fd_variant_option = click.option("--fd-variant", type=click.Choice(("best",) + FD_METHODS), default="best",
                                 show_default=True,
                                 help="Forward dynamics variant of Part I; 'best' keeps the one whose "
                                      "unrolled code has the fewest operations.")


def refuse_robot_options(path, robot_only):
    """A system file takes none of the robot-only options: name those that were given
    (``robot_only``: option -> its value, truthy when given) in one error."""
    from soagen.errors import SoagenError

    used = [name for name, value in robot_only.items() if value]
    if used:
        raise SoagenError(f"{path}: {', '.join(used)}: only for robot files, not for a system file")
