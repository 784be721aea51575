"""The documentation stays true to the code: the API reference names every public object, the architecture page every
module."""

import importlib
import re
from pathlib import Path

import pytest

import hepa_sklearn

REPOSITORY = Path(__file__).resolve().parents[1]
API_PAGE = REPOSITORY / "docs" / "api.rst"
ARCHITECTURE_PAGE = REPOSITORY / "docs" / "architecture.md"

# modules whose __all__ the reference must cover
PUBLIC_MODULES = [
    "hepa_sklearn",
    "hepa_sklearn.baselines",
    "hepa_sklearn.causes",
    "hepa_sklearn.datasets",
    "hepa_sklearn.metrics",
    "hepa_sklearn.persistence",
    "hepa_sklearn.plotting",
    "hepa_sklearn.cmapss_protocol",
    "hepa_sklearn.training",
]


def _resolve(module_name, dotted):
    obj = importlib.import_module(module_name)
    for part in dotted.split("."):
        if not hasattr(obj, part):  # a submodule not imported yet
            importlib.import_module(f"{obj.__name__}.{part}")
        obj = getattr(obj, part)
    return obj


def documented_entries():
    """``(current module, name)`` of each entry in the autosummary tables of ``docs/api.rst``."""
    entries = []
    module = None
    in_table = False
    for line in API_PAGE.read_text().splitlines():
        current = re.match(r"\.\. currentmodule:: (\S+)", line)
        if current:
            module = current.group(1)
        elif line.startswith(".. autosummary::"):
            in_table = True
        elif in_table and line.startswith("   ") and not line.strip().startswith(":"):
            if line.strip():
                entries.append((module, line.strip()))
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
    return entries


def documented_objects():
    """The objects listed in the autosummary tables of ``docs/api.rst``."""
    return [_resolve(module, name) for module, name in documented_entries()]


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_api_page_lists_every_public_name(module_name):
    documented = {id(obj) for obj in documented_objects()}
    module = importlib.import_module(module_name)
    missing = [name for name in module.__all__ if name != "__version__" and id(getattr(module, name)) not in documented]
    assert not missing, f"docs/api.rst does not list {module_name}.{missing}"


def test_api_page_lists_each_moved_name_under_its_module():
    """The names the package exported in 0.2.0 and now only warns about are documented under their module alone."""
    entries = documented_entries()
    for name, module in hepa_sklearn._MOVED.items():
        modules = [m for m, entry in entries if entry.rpartition(".")[2] == name]
        assert modules == [f"hepa_sklearn.{module}"], (name, modules)


def package_modules():
    """Every Python file of the library and of the harness, as the architecture page names it."""
    library = REPOSITORY / "hepa_sklearn"
    harness = REPOSITORY / "benchmarks" / "hepa_bench"
    names = [f"hepa_sklearn/{p.relative_to(library).as_posix()}" for p in library.rglob("*.py")]
    names += [f"hepa_bench/{p.relative_to(harness).as_posix()}" for p in harness.rglob("*.py")]
    return sorted(names)


def test_architecture_page_names_every_module():
    page = ARCHITECTURE_PAGE.read_text()
    missing = [name for name in package_modules() if f"`{name}`" not in page]
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_architecture_page_names_no_missing_module():
    page = ARCHITECTURE_PAGE.read_text()
    named = set(re.findall(r"`((?:hepa_sklearn|hepa_bench)/[\w/]+\.py)`", page))
    assert named - set(package_modules()) == set()
