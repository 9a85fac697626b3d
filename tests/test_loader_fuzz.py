"""Property tests: any malformed robot description gives a clean one-line
RobotFileError (or loads), never another exception or a traceback."""

import copy
import xml.etree.ElementTree as ET

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import soagen
from soagen.errors import RobotFileError
from tests.test_loaders import GOOD, URDF

junk = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                 st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                 st.lists(st.floats(-2, 2), max_size=4), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def paths(node, prefix=()):
    """All paths to values inside a nested dict/list document."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def mutate(doc, path, action, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if action == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


def check_loads_or_clean_error(path):
    try:
        soagen.load(path)
    except RobotFileError as err:
        msg = str(err)
        assert "\n" not in msg and msg.startswith(str(path)), msg


BASE = yaml.safe_load(GOOD)
ALL_PATHS = list(paths(BASE))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALL_PATHS), st.sampled_from(["replace", "delete"]), junk)
def test_mutated_yaml(tmp_path, path, action, value):
    doc = mutate(BASE, path, action, value)
    p = tmp_path / "fuzz.yaml"
    p.write_text(yaml.safe_dump(doc))
    check_loads_or_clean_error(p)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(GOOD)), st.text(max_size=5))
def test_corrupted_yaml_text(tmp_path, cut, insert):
    p = tmp_path / "fuzz.yaml"
    p.write_text(GOOD[:cut] + insert + GOOD[cut:])
    check_loads_or_clean_error(p)


def attributes(root):
    return [(i, name) for i, e in enumerate(root.iter()) for name in e.attrib]


URDF_ROOT = ET.fromstring(URDF)
URDF_ATTRS = attributes(URDF_ROOT)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(URDF_ATTRS), st.one_of(st.text(max_size=10), st.floats().map(repr),
                                              st.lists(st.floats(), max_size=4).map(lambda v: " ".join(map(repr, v)))))
def test_mutated_urdf_attribute(tmp_path, attr, value):
    root = copy.deepcopy(URDF_ROOT)
    index, name = attr
    element = list(root.iter())[index]
    element.set(name, value)
    p = tmp_path / "fuzz.urdf"
    p.write_text(ET.tostring(root, encoding="unicode"))
    check_loads_or_clean_error(p)
