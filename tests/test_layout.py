"""Limits of the repository's layout: the pretrainer's parameter count, the wheel holds the library alone, no import
circle. Modules are split by concept, never to meet a count of lines."""

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hepa_sklearn import HEPAPretrainer

REPOSITORY = Path(__file__).resolve().parents[1]
LIBRARY = REPOSITORY / "hepa_sklearn"
HARNESS = REPOSITORY / "benchmarks" / "hepa_bench"
# 24 until norm's three effects became three parameters (norm, regimes, window_level): the two added
# parameters each name an effect that norm="auto" hid, not a new option
# 27 with init_from, where the weights start (as HEPAEventPredictor's init_from): a capability, not an option
# 28 with validation_metric, what early stopping watches: the second meaning early_stopping had, as its own
# parameter. The former names of renamed parameters (default "deprecated") are not counted.
MAX_PRETRAINER_PARAMETERS = 28


def python_modules(root):
    """``{dotted name: (path, is_package)}`` of the Python files below ``root`` (a package folder)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


def import_graph(modules):
    """Edges module -> the modules of ``modules`` it imports (at any depth of its code)."""

    def known(name):
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        base = name if is_package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                package = node.module or ""
                if node.level:
                    parent = base
                    for _ in range(node.level - 1):
                        parent = parent.rpartition(".")[0]
                    package = ".".join(filter(None, [parent, node.module]))
                targets = [
                    f"{package}.{alias.name}" if f"{package}.{alias.name}" in modules else known(package)
                    for alias in node.names
                ]
            else:
                continue
            edges[name].update(t for t in targets if t and t != name)
    return edges


def find_cycle(edges):
    """One import circle as a list of modules, or None."""
    state, path = {}, []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


ALL_MODULES = {**python_modules(LIBRARY), **python_modules(HARNESS)}


def test_find_cycle_on_hand_made_graphs():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_circle():
    cycle = find_cycle(import_graph(ALL_MODULES))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_library_never_imports_the_harness():
    edges = import_graph(ALL_MODULES)
    offenders = sorted(
        name
        for name in edges
        if name.startswith("hepa_sklearn")
        for target in edges[name]
        if target.startswith("hepa_bench")
    )
    assert offenders == []
    # importing every library module leaves the harness unimported
    code = (
        "import importlib, pkgutil, sys, hepa_sklearn\n"
        "for info in pkgutil.walk_packages(hepa_sklearn.__path__, 'hepa_sklearn.'):\n"
        "    if not info.name.endswith('conftest'):\n"
        "        importlib.import_module(info.name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'hepa_bench'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPOSITORY)
    assert out.stdout.strip() == "[]"


def test_pretrainer_parameter_count():
    names = [name for name, value in HEPAPretrainer().get_params().items() if value != "deprecated"]
    assert len(names) <= MAX_PRETRAINER_PARAMETERS, sorted(names)


def test_wheel_holds_the_library_alone(tmp_path):
    pytest.importorskip("wheel")
    source = tmp_path / "source"
    source.mkdir()
    for item in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPOSITORY / item, source / item)
    shutil.copytree(LIBRARY, source / "hepa_sklearn", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(source),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"hepa_sklearn", wheel.name.split("-py3")[0] + ".dist-info"}
    modules = {name for name in zipfile.ZipFile(wheel).namelist() if name.endswith(".py")}
    assert modules == {f"hepa_sklearn/{p.relative_to(LIBRARY).as_posix()}" for p in LIBRARY.rglob("*.py")}
