"""The docstring fragments of ``hepa_sklearn._docs`` are each shared by three or more public objects; text that fewer
objects share is written out in their docstrings, with defaults that match the signatures."""

import ast
import importlib
import inspect
import pkgutil
import re
import textwrap

import pytest

import hepa_sklearn
from hepa_sklearn._docs import DOCS, _placeholder

MIN_USERS = 3
# modules kept only as a former path of another module, each of their names read with a FutureWarning
DEPRECATED_MODULES = {"hepa_sklearn.protocol"}


def public_modules():
    """The package and each of its modules whose dotted name has no part starting with an underscore (former paths
    of modules left out)."""
    names = [info.name for info in pkgutil.walk_packages(hepa_sklearn.__path__, "hepa_sklearn.")]
    public = [
        name
        for name in names
        if not any(part.startswith("_") for part in name.split(".")) and name not in DEPRECATED_MODULES
    ]
    return [hepa_sklearn] + [importlib.import_module(name) for name in public]


def _own(obj):
    return (getattr(obj, "__module__", None) or "").startswith("hepa_sklearn")


def public_objects():
    """``{id: (name, object)}`` of the public classes and functions, and the public methods of the public classes
    (inherited ones included), each unwrapped from its decorators; an object reached under several names counts
    once."""
    objects = {}

    def add(name, obj):
        obj = inspect.unwrap(obj)
        if _own(obj):
            objects.setdefault(id(obj), (name, obj))

    for module in public_modules():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            label = f"{module.__name__}.{name}"
            if inspect.isclass(obj):
                add(label, obj)
                for attribute in dir(obj):
                    if attribute.startswith("_"):
                        continue
                    raw = inspect.getattr_static(obj, attribute)
                    raw = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
                    raw = raw.fget if isinstance(raw, property) else raw
                    if inspect.isfunction(raw):
                        add(f"{label}.{attribute}", raw)
            elif inspect.isfunction(obj):
                add(label, obj)
    return objects


def source_docstring(obj):
    """The docstring of ``obj`` as written in its source, before any fragment is filled in."""
    node = ast.parse(textwrap.dedent(inspect.getsource(obj))).body[0]
    return ast.get_docstring(node, clean=False) or ""


def fragments_named(text):
    """The fragments that ``text`` names, directly or inside another fragment."""
    names = set()
    for line in text.splitlines():
        name = _placeholder(line)
        if name is not None:
            names |= {name} | fragments_named(DOCS[name])
    return names


@pytest.fixture(scope="module")
def users():
    """``{fragment: [names of the public objects whose docstring includes it]}``."""
    found = {name: [] for name in DOCS}
    for label, obj in public_objects().values():
        for name in fragments_named(source_docstring(obj)):
            found[name].append(label)
    return found


def test_no_fragment_is_unused(users):
    unused = sorted(name for name, labels in users.items() if not labels)
    assert not unused, f"fragments no public docstring names: {unused}"


def test_every_fragment_has_three_public_users(users):
    few = {name: labels for name, labels in users.items() if 0 < len(labels) < MIN_USERS}
    assert not few, f"fragments with fewer than {MIN_USERS} public users, to write out where they are used: {few}"


def test_every_placeholder_names_a_fragment():
    unknown = []
    for label, obj in public_objects().values():
        for line in source_docstring(obj).splitlines():
            name = _placeholder(line)
            if name is not None and name not in DOCS:
                unknown.append((label, name))
    assert not unknown


def _matches(written, default, module):
    """Whether the default written in a docstring, ``written``, names ``default``."""
    if written in (repr(default), str(default)):
        return True
    if len(written) > 1 and written[0] == written[-1] and written[0] in "\"'" and written[1:-1] == str(default):
        return True
    try:
        if ast.literal_eval(written) == default:  # 200_000
            return True
    except (ValueError, SyntaxError):
        pass
    named = getattr(module, written, None)  # a constant or a function of the module
    return named is not None and named is default


def test_written_defaults_match_the_signatures():
    wrong = []
    for label, obj in public_objects().values():
        if not inspect.isclass(obj):
            continue
        parameters = inspect.signature(obj.__init__).parameters
        module = inspect.getmodule(obj)
        for match in re.finditer(r"^\s*(\w+) : .*?, default=(.+)$", obj.__doc__ or "", re.MULTILINE):
            name, written = match.group(1), match.group(2).strip()
            parameter = parameters.get(name)
            if parameter is None or parameter.default is inspect.Parameter.empty:
                continue
            if not _matches(written, parameter.default, module):
                wrong.append(f"{label}.{name}: documented {written}, is {parameter.default!r}")
    assert not wrong, wrong
