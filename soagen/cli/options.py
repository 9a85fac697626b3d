"""Options shared by several commands, defined once."""

from __future__ import annotations

import click

robot_argument = click.argument("robot", type=click.Path(dir_okay=False, path_type=str))
tip_option = click.option("--tip", metavar="LINK", default=None,
                          help="Link whose frame is the tip frame O(0) (default: the file's "
                               "tip, or a serial chain's last link).")
floating_base_option = click.option("--floating-base", is_flag=True,
                                    help="Put a free (6-dof) joint between the world and the "
                                         "file's root link: q starts with (x, y, z, qx, qy, qz, "
                                         "qw), v with (omega, v) in the root body frame.")
