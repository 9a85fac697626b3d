"""Reading a YAML document strictly: duplicate keys refused, YAML 1.2 numbers, and any
problem reading or parsing the file as one :class:`~soagen.errors.RobotFileError` line
(robot files, system files, modal data)."""

from __future__ import annotations

import re

import yaml

from soagen.errors import RobotFileError


class UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a key that appears twice in one mapping (YAML 1.2
    requires unique keys; PyYAML keeps the last silently), and reading ``1e-3`` and
    ``2E5`` as numbers, as YAML 1.2 does (PyYAML's YAML 1.1 rules make them strings)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:            # an unhashable key: the base class says so
                continue
            if duplicate:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}",
                                                        key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                UniqueKeyLoader.construct_mapping)
UniqueKeyLoader.add_implicit_resolver("tag:yaml.org,2002:float",
                                      re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
                                      list("-+0123456789"))


def read_yaml(path):
    """The YAML document of ``path`` (robot or system file); any problem reading or
    parsing it is a one-line :class:`RobotFileError` with the line number."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise RobotFileError(path, "file", f"cannot read: {err}") from None
    try:
        return yaml.load(text, Loader=UniqueKeyLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "file"
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise RobotFileError(path, where, f"malformed YAML: {problem}") from None
    except (ValueError, RecursionError) as err:     # an integer of over 4300 digits; deep nesting
        raise RobotFileError(path, "file", f"malformed YAML: {str(err).splitlines()[0][:120]}") from None
