"""Robot files the tests write: a small YAML robot and URDF (loaded by several loader tests),
and the pieces of a URDF (links, joints) for the loader's policy tests."""

import textwrap

GOOD = textwrap.dedent("""\
    name: two
    gravity: [0, 0, -9.81]
    links:
      - name: base
      - name: a
        mass: 1.0
        com: [0.1, 0, 0]
        inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1, ixy: 0, ixz: 0, iyz: 0}
      - name: b
        mass: 2.0
        inertia: {ixx: 0.2, iyy: 0.2, izz: 0.2, ixy: 0, ixz: 0, iyz: 0}
      - name: tool
        mass: 0.5
        inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01, ixy: 0, ixz: 0, iyz: 0}
    joints:
      - {name: j1, type: revolute, parent: base, child: a, axis: [0, 0, 1]}
      - {name: j2, type: prismatic, parent: a, child: b, axis: [1, 1, 0], xyz: [0.5, 0, 0]}
      - {name: j3, type: fixed, parent: b, child: tool, xyz: [0, 0, 0.2]}
    """)


def write(tmp_path, text, name="robot.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def load_quietly(path, **kw):
    """soagen.load, failing on any robot-file warning."""
    import warnings

    import soagen
    from soagen.errors import RobotFileWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", RobotFileWarning)
        return soagen.load(path, **kw)


URDF = """<robot name="r">
  <link name="world"/>
  <link name="l1"><inertial><origin xyz="0.1 0 0" rpy="0 0 0.3"/><mass value="1.5"/>
    <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><mass value="0.5"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="ee"/>
  <joint name="a" type="continuous"><parent link="world"/><child link="l1"/>
    <axis xyz="0 0.6 0.8"/></joint>
  <joint name="b" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.3 0 0" rpy="0.1 0.2 0.3"/><axis xyz="1 0 0"/><limit effort="1" velocity="1"/></joint>
  <joint name="c" type="fixed"><parent link="l2"/><child link="ee"/><origin xyz="0 0 0.1"/></joint>
</robot>
"""

TYPO = URDF.replace('<axis xyz="1 0 0"/>', '<axiss xyz="0 1 0"/>')
"""URDF with a typo in joint b (``<axiss>``: URDF's default axis x, not the y meant)."""


def link(name, mass, inertia, com="0 0 0"):
    ixx, iyy, izz, ixy, ixz, iyz = inertia
    return (f'<link name="{name}"><inertial><origin xyz="{com}"/><mass value="{mass}"/>'
            f'<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{ixy}" ixz="{ixz}" iyz="{iyz}"/></inertial></link>')


def joint(name, parent, child, kind="revolute", xyz="0 0 0", axis="0 0 1"):
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{xyz}"/><axis xyz="{axis}"/></joint>')


def urdf(*elements):
    return '<robot name="r"><link name="base"/>' + "".join(elements) + "</robot>"


BOX = (0.01, 0.02, 0.025, 0, 0, 0)


FINGERS = urdf(link("palm", 1.0, BOX, "0.02 0 0"), link("f1", 0, (0,) * 6), link("f2", 0, (0,) * 6),
               link("thumb", 0, (0,) * 6),
               joint("wrist", "base", "palm"), joint("finger1", "palm", "f1", xyz="0.1 0 0", axis="0 1 0"),
               joint("finger2", "f1", "f2", xyz="0.03 0 0", axis="0 1 0"),
               joint("thumb_joint", "palm", "thumb", xyz="0.05 0.03 0", axis="1 0 0"))
