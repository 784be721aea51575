"""The package's own namespace holds the estimators and the Quickstart's functions; every other name that 0.2.0
exported there still works, with a FutureWarning naming its module, and nothing in the repository uses it so."""

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

import hepa_sklearn

REPOSITORY = Path(__file__).resolve().parents[1]
KEPT = {
    "ElapsedTimeEventPredictor",
    "GradientBoostingEventPredictor",
    "HEPAEventPredictor",
    "HEPAFinetuner",
    "HEPAPretrainer",
    "HorizonClassifier",
    "ITransformerEncoder",
    "MAEPretrainer",
    "MatchedHeadPredictor",
    "PatchTSTEncoder",
    "RegimeNormalizer",
    "StackedSurfaces",
    "SurfaceCalibrator",
    "h_auroc",
    "h_auroc_scorer",
    "__version__",
}
# the Quickstart's functions (README.md, docs/index.rst); the other kept names are estimators
QUICKSTART = {"h_auroc", "h_auroc_scorer"}
MOVED = hepa_sklearn._MOVED
# where the repository's files are read, and the generated folders left out
SCANNED = ["README.md", "hepa_sklearn", "tests", "docs", "examples", "benchmarks"]
GENERATED = {"_build", "generated", "auto_examples", "__pycache__"}


def test_all_is_the_estimators_and_the_quickstart_functions():
    assert set(hepa_sklearn.__all__) == KEPT
    assert len(hepa_sklearn.__all__) == len(KEPT)
    for name in KEPT - QUICKSTART - {"__version__"}:
        obj = getattr(hepa_sklearn, name)
        assert isinstance(obj, type) and issubclass(obj, BaseEstimator), name


def test_dir_lists_only_the_kept_names():
    assert dir(hepa_sklearn) == sorted(KEPT)


def test_no_moved_name_is_kept():
    assert not set(MOVED) & KEPT
    assert not set(MOVED) & set(vars(hepa_sklearn))  # reached only through __getattr__


@pytest.mark.parametrize("name", sorted(MOVED))
def test_a_moved_name_warns_and_is_its_modules_object(name):
    module = importlib.import_module(f"hepa_sklearn.{MOVED[name]}")
    assert name in module.__all__
    with pytest.warns(FutureWarning, match=rf"hepa_sklearn\.{name} is deprecated.* hepa_sklearn\.{MOVED[name]}\b"):
        obj = getattr(hepa_sklearn, name)
    assert obj is getattr(module, name)


def test_importing_a_moved_name_from_the_package_warns():
    namespace = {}
    with pytest.warns(FutureWarning, match=r"from hepa_sklearn\.windows import make_windows"):
        exec("from hepa_sklearn import make_windows", namespace)
    assert namespace["make_windows"] is importlib.import_module("hepa_sklearn.windows").make_windows


def test_an_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        hepa_sklearn.no_such_name  # noqa: B018


def test_the_package_and_its_names_import_without_a_warning():
    code = "import hepa_sklearn\nfrom hepa_sklearn import *\nfrom hepa_sklearn import HEPAPretrainer, h_auroc\n"
    result = subprocess.run(
        [sys.executable, "-W", "error::FutureWarning", "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def repository_files():
    """The repository's Python, Markdown and reStructuredText files, without generated ones and without this test."""
    paths = []
    for entry in SCANNED:
        root = REPOSITORY / entry
        candidates = [root] if root.is_file() else root.rglob("*")
        for path in candidates:
            relative = path.relative_to(REPOSITORY)
            if path.suffix in {".py", ".md", ".rst"} and not GENERATED & set(relative.parts):
                paths.append(path)
    return [path for path in paths if path != Path(__file__).resolve()]


def moved_imports(text):
    """The moved names that ``text`` imports from the package: in code, in doctests and in Markdown or
    reStructuredText code blocks."""
    found = []
    for statement in re.finditer(r"from hepa_sklearn import (\([^)]*\)|[^\n]*)", text):
        names = re.findall(r"\w+", re.sub(r"#[^\n]*", "", statement.group(1)))
        found += [name for name in names if name in MOVED]
    return found


def moved_attributes(source):
    """The moved names that Python ``source`` reads as attributes of the package (``hepa_sklearn.make_windows``,
    or through ``import hepa_sklearn as alias``)."""
    tree = ast.parse(source)
    aliases = {
        alias.asname or "hepa_sklearn"
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "hepa_sklearn" or (alias.asname is None and alias.name.startswith("hepa_sklearn."))
    }
    return [
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and node.attr in MOVED
    ]


def test_the_scan_finds_imports_and_attributes():
    assert moved_imports("from hepa_sklearn import (\n    HEPAPretrainer,\n    make_windows,\n)") == ["make_windows"]
    assert moved_imports(">>> from hepa_sklearn import h_auroc, pooled_auroc") == ["pooled_auroc"]
    assert moved_imports("from hepa_sklearn.metrics import pooled_auroc") == []
    assert moved_attributes("import hepa_sklearn as hs\nhs.label_surface(y, 3)\nhs.h_auroc") == ["label_surface"]
    assert moved_attributes("import hepa_sklearn.surface\nhepa_sklearn.surface.label_surface(y, 3)") == []
    assert moved_attributes("import hepa_sklearn.surface\nhepa_sklearn.make_windows(frame)") == ["make_windows"]


def test_the_repository_uses_no_moved_name():
    files = repository_files()
    assert any(path.name == "user_guide.md" for path in files)
    uses = {}
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        found = moved_imports(text) + (moved_attributes(text) if path.suffix == ".py" else [])
        if found:
            uses[str(path.relative_to(REPOSITORY))] = sorted(set(found))
    assert not uses, f"import these from their module (hepa_sklearn._MOVED names it): {uses}"


def test_the_quickstarts_import_only_kept_names():
    for page in ("README.md", "docs/index.rst"):
        text = (REPOSITORY / page).read_text(encoding="utf-8")
        statements = re.findall(r"^ *from hepa_sklearn import [^\n]+$", text, flags=re.MULTILINE)
        assert statements, page
        for statement in statements:
            names = {alias.name for alias in ast.parse(statement.strip()).body[0].names}
            assert names <= KEPT, (page, names - KEPT)
