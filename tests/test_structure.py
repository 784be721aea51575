"""The package's structure: each headline estimator is read in its own module over a shallow class
hierarchy, no code asks whether a method was overridden, the metrics depend on no dataset, and each
class is imported from the module that defines it or from a package's public namespace."""

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer

REPOSITORY = Path(__file__).resolve().parents[1]
LIBRARY = REPOSITORY / "hepa_sklearn"
HARNESS = REPOSITORY / "benchmarks" / "hepa_bench"
# the headline estimators, the module each is defined in and the methods a reader finds there
HEADLINE = [
    (HEPAPretrainer, "hepa_sklearn.pretrainer", ("fit", "fit_transform", "transform", "_prepare_fit")),
    (HEPAEventPredictor, "hepa_sklearn.event_predictor", ("fit", "predict_proba", "_prepare_fit")),
]
# package classes besides the estimator itself in its method resolution order (scikit-learn's do not count)
MAX_PACKAGE_BASES = 3
# methods that a class and its base may both define: fit, the four steps of TorchEstimator that each
# estimator documents for its input and calls, and scikit-learn's tags, which each class extends
SHARED_PROTOCOL = {"fit", "__sklearn_tags__"}
# the former path of a module, whose names are read with a FutureWarning
DEPRECATED_MODULES = {"hepa_sklearn.protocol"}


def package_bases(cls):
    return [base for base in cls.__mro__[1:] if base.__module__.partition(".")[0] == "hepa_sklearn"]


def python_files(*roots):
    return sorted(path for root in roots for path in root.rglob("*.py") if "__pycache__" not in path.parts)


@pytest.mark.parametrize(("estimator", "module", "methods"), HEADLINE, ids=["pretrainer", "event_predictor"])
def test_fit_and_its_helpers_are_defined_in_the_estimators_module(estimator, module, methods):
    assert estimator.__module__ == module
    for name in methods:
        assert name in estimator.__dict__, name
        assert inspect.unwrap(estimator.__dict__[name]).__module__ == module, name


@pytest.mark.parametrize("estimator", [HEPAPretrainer, HEPAEventPredictor], ids=lambda cls: cls.__name__)
def test_at_most_three_package_classes_in_the_method_resolution_order(estimator):
    bases = package_bases(estimator)
    assert len(bases) <= MAX_PACKAGE_BASES, [base.__name__ for base in bases]


@pytest.mark.parametrize("estimator", [HEPAPretrainer, HEPAEventPredictor], ids=lambda cls: cls.__name__)
def test_no_method_is_defined_in_two_package_classes_of_the_order(estimator):
    defined = {}
    for cls in (estimator, *package_bases(estimator)):
        for name, value in vars(cls).items():
            if isinstance(value, (staticmethod, classmethod, property)) or inspect.isfunction(value):
                defined.setdefault(name, []).append(cls.__name__)
    twice = {name: classes for name, classes in defined.items() if len(classes) > 1}
    assert not {name: classes for name, classes in twice.items() if name not in SHARED_PROTOCOL}


def test_the_checks_see_a_deep_order_and_a_method_defined_twice():
    class Base:
        __module__ = "hepa_sklearn.example"

        def transform(self, X):
            return X

    class A(Base):
        __module__ = "hepa_sklearn.example"

        def transform(self, X):
            return X

    deepest = A
    for name in ("B", "C", "D"):
        deepest = type(name, (deepest,), {"__module__": "hepa_sklearn.example"})
    assert len(package_bases(deepest)) == 4 > MAX_PACKAGE_BASES
    with pytest.raises(AssertionError):
        test_no_method_is_defined_in_two_package_classes_of_the_order(deepest)


def override_checks(source):
    """Lines of ``source`` asking whether a method was overridden: ``.__func__``, ``a.f is (not) b.f``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "__func__":
            found.append(node.lineno)
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            operands = [node.left, *node.comparators]
            if all(isinstance(operand, ast.Attribute) for operand in operands):
                if len({operand.attr for operand in operands}) == 1:  # the same name on two objects
                    found.append(node.lineno)
    return found


def test_the_override_scan_finds_both_forms():
    assert override_checks("if type(self).transform is not Mixin.transform:\n    pass\n") == [1]
    assert override_checks("x = 1\nf = cls.level_features.__func__\n") == [2]
    unrelated = "if self.init_from is None or a is b or p.default is not p.empty:\n    pass\n"
    assert override_checks(unrelated) == []


def test_no_code_asks_whether_a_method_was_overridden():
    found = {}
    for path in python_files(LIBRARY, HARNESS):
        lines = override_checks(path.read_text(encoding="utf-8"))
        if lines:
            found[str(path.relative_to(REPOSITORY))] = lines
    assert not found


def imported_modules(path, package):
    """The absolute names of the modules that the file ``path`` of the dotted ``package`` imports from."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join(parts + ([node.module] if node.module else [])))
            else:
                names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return names


def test_the_metrics_import_nothing_from_the_datasets():
    found = []
    for path in python_files(LIBRARY / "metrics"):
        found += [
            (path.name, name)
            for name in imported_modules(path, "hepa_sklearn.metrics")
            if name.startswith("hepa_sklearn.datasets")
        ]
    assert not found


def test_the_metrics_hold_no_estimator_method():
    """Estimators define their own ``score`` (calling a metric); the metrics define no mixin for them."""
    for path in python_files(LIBRARY / "metrics"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert not node.name.endswith("Mixin"), (path.name, node.name)
    assert HEPAEventPredictor.score.__module__ == "hepa_sklearn.survival"


def class_imports(path, package):
    """``(module, name)`` of each ``from hepa_sklearn... import name`` in ``path``, relative ones resolved."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            if package is None:
                continue
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join(parts + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        if module.partition(".")[0] == "hepa_sklearn" and module not in DEPRECATED_MODULES:
            found += [(module, alias.name) for alias in node.names]
    return found


def test_each_class_is_imported_from_its_module_or_a_public_namespace():
    """A private module re-exports no class defined elsewhere: one import path per class."""
    tests = [REPOSITORY / "tests", REPOSITORY / "benchmarks" / "tests"]
    roots = [LIBRARY, HARNESS, *tests, REPOSITORY / "examples"]
    found = []
    for path in python_files(*roots):
        relative = path.relative_to(REPOSITORY)
        package = ".".join(relative.parent.parts) if relative.parts[0] == "hepa_sklearn" else None
        for module_name, name in class_imports(path, package):
            module = importlib.import_module(module_name)
            obj = getattr(module, name, None)
            own = inspect.isclass(obj) and obj.__module__.partition(".")[0] == "hepa_sklearn"
            if own and obj.__module__ != module_name and not hasattr(module, "__path__"):
                found.append(f"{relative}: {name} from {module_name}, defined in {obj.__module__}")
    assert not found
