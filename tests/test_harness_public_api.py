"""The benchmark harness uses the library's public API only: no private module, name or attribute of hepa_sklearn.

Every ``.py`` file under ``benchmarks/`` (the harness, its tests, the
experiments) is parsed with :mod:`ast` and checked for

- an import of a ``hepa_sklearn`` module path with a private component
  (``hepa_sklearn._stats``, ``hepa_sklearn.datasets._cmapss``);
- a private name imported from ``hepa_sklearn`` (``from hepa_sklearn.x import _y``);
- a private attribute of an object obtained from ``hepa_sklearn``: of an
  imported module, class or function, of what a call, attribute or item of
  one returns and is assigned to a name, or of a subclass of a library
  class (its own private members and ``self._x`` that the library's class
  defines);
- an attribute ``._x`` whose name is private to the library (defined there
  and nowhere in ``benchmarks/``), whatever the object;
- ``getattr(obj, "_x")`` under the same rules.

A private name starts with one underscore; dunder names (``__file__``,
``__version__``) are not private.
"""

import ast
import importlib
from pathlib import Path
from typing import NamedTuple

REPOSITORY = Path(__file__).resolve().parents[1]
LIBRARY = REPOSITORY / "hepa_sklearn"
BENCHMARKS = REPOSITORY / "benchmarks"
PACKAGE = "hepa_sklearn"


class Finding(NamedTuple):
    path: str
    line: int
    message: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.message}"


def is_private(name):
    """One leading underscore; a dunder name is public."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_names(tree):
    """Names that a module defines: functions, classes, assigned names and ``self.<name>`` attributes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


def private_names_of(files):
    """The private names that the Python ``files`` define."""
    names = set()
    for path in files:
        names |= {name for name in defined_names(ast.parse(path.read_text())) if is_private(name)}
    return names


def root_name(node):
    """The name an attribute, call or item chain starts from (``a`` of ``a.b(c)[0].d``), or None."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript, ast.Starred)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def target_names(target):
    """The names bound by an assignment target (tuples unpacked)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in target_names(element)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def resolve(dotted):
    """The object that the dotted path of a ``hepa_sklearn`` name stands for, or None where it cannot be imported."""
    module, _, rest = dotted.partition(".")
    obj = importlib.import_module(module)
    for part in rest.split(".") if rest else []:
        try:
            obj = getattr(obj, part) if hasattr(obj, part) else importlib.import_module(f"{obj.__name__}.{part}")
        except Exception:
            return None
    return obj


def private_uses(source, path="<string>", library_private=frozenset(), own_names=frozenset()):
    """Findings of ``source`` (one Python file) that reach a private module, name or attribute of hepa_sklearn.

    ``library_private``: the private names the library defines; an
    attribute of one of them is reported whatever its object unless
    ``own_names`` (the names the harness defines itself) holds it too.
    """
    tree = ast.parse(source)
    findings = []
    origin = {}  # name bound by an import -> the dotted path of what it stands for

    def report(node, message):
        findings.append(Finding(str(path), node.lineno, message))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != PACKAGE:
                    continue
                if any(is_private(part) for part in alias.name.split(".")):
                    report(node, f"imports the private module {alias.name}")
                bound = alias.asname or PACKAGE
                origin[bound] = alias.name if alias.asname else PACKAGE
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != PACKAGE:
                continue
            if any(is_private(part) for part in node.module.split(".")):
                report(node, f"imports from the private module {node.module}")
            for alias in node.names:
                if is_private(alias.name):
                    report(node, f"imports the private name {alias.name} from {node.module}")
                origin[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    # names holding library objects: imported ones, and (to a fixed point) those assigned from them
    tainted = set(origin)
    bindings = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bindings.append((node.value, [name for target in targets for name in target_names(target)]))
        elif isinstance(node, ast.NamedExpr):
            bindings.append((node.value, target_names(node.target)))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            bindings.append((node.iter, target_names(node.target)))
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            bindings.append((node.context_expr, target_names(node.optional_vars)))
        elif isinstance(node, ast.ClassDef):
            bindings.append((ast.Tuple([*node.bases], ast.Load()), [node.name]))
    grown = True
    while grown:
        grown = False
        for value, names in bindings:
            roots = [root_name(e) for e in (value.elts if isinstance(value, ast.Tuple) else [value])]
            if any(r in tainted for r in roots) and not set(names) <= tainted:
                tainted |= set(names)
                grown = True

    def check_attribute(node, obj, attr):
        if not is_private(attr):
            return
        root = root_name(obj)
        if root in tainted:
            report(node, f"uses the private attribute {attr} of {root}, which comes from {PACKAGE}")
        elif attr in library_private and attr not in own_names:
            report(node, f"uses {attr}, a private name of {PACKAGE}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            check_attribute(node, node.value, node.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            check_attribute(node, node.args[0], node.args[1].value)
        elif isinstance(node, ast.ClassDef):
            findings += subclass_uses(node, path, origin)
    return sorted(set(findings), key=lambda f: (f.line, f.message))


def subclass_uses(node, path, origin):
    """A subclass of a library class that overrides or reads a private member of its library base."""
    bases = [resolve(origin[base.id]) for base in node.bases if isinstance(base, ast.Name) and base.id in origin]
    bases = [base for base in bases if isinstance(base, type)]
    if not bases:
        return []
    findings = []

    def inherited(name):
        return any(hasattr(base, name) for base in bases)

    for item in node.body:
        names = []
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = [item.name]
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            names = [name for target in targets for name in target_names(target)]
        for name in names:
            if is_private(name) and inherited(name):
                findings.append(Finding(str(path), item.lineno, f"{node.name} overrides {name}, private to {PACKAGE}"))
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and is_private(sub.attr) and inherited(sub.attr):
            base = sub.value
            if (isinstance(base, ast.Name) and base.id in ("self", "cls")) or (
                isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super"
            ):
                findings.append(Finding(str(path), sub.lineno, f"{node.name} uses {sub.attr}, private to {PACKAGE}"))
    return findings


def harness_files():
    return sorted(p for p in BENCHMARKS.rglob("*.py") if ".egg-info" not in str(p))


def test_the_checker_reports_private_imports_and_attributes():
    source = (
        "import hepa_sklearn._stats\n"
        "import hepa_sklearn.datasets._cmapss as cm\n"
        "from hepa_sklearn.datasets._cmapss import K\n"
        "from hepa_sklearn.datasets import _cmapss, load_cmapss\n"
        "from hepa_sklearn import HEPAPretrainer, __version__\n"
        "import numpy as np\n"
        "model = HEPAPretrainer(max_epochs=1)\n"
        "net = model._build_net(None, 'cpu', 0)\n"
        "fitted = model.fit(np.zeros((2, 1, 8)))\n"
        "print(fitted._level(0), np.zeros(1)._secret, getattr(model, '_torch_seed'))\n"
        "class Sub(HEPAPretrainer):\n"
        "    _fitted_attributes = ()\n"
        "    def _training_config(self):\n"
        "        return self._torch_seed()\n"
        "    def _own_helper(self):\n"
        "        return self.max_epochs\n"
    )
    found = [f"{f.line}: {f.message}" for f in private_uses(source)]
    assert found == [
        "1: imports the private module hepa_sklearn._stats",
        "2: imports the private module hepa_sklearn.datasets._cmapss",
        "3: imports from the private module hepa_sklearn.datasets._cmapss",
        "4: imports the private name _cmapss from hepa_sklearn.datasets",
        "8: uses the private attribute _build_net of model, which comes from hepa_sklearn",
        "10: uses the private attribute _level of fitted, which comes from hepa_sklearn",
        "10: uses the private attribute _torch_seed of model, which comes from hepa_sklearn",
        "12: Sub overrides _fitted_attributes, private to hepa_sklearn",
        "13: Sub overrides _training_config, private to hepa_sklearn",
        "14: Sub uses _torch_seed, private to hepa_sklearn",
    ]
    # a name private to the library is reported on any object unless the harness defines it too
    assert [f.message for f in private_uses("x = make()\nx._hub_id\n", library_private={"_hub_id"})] == [
        "uses _hub_id, a private name of hepa_sklearn"
    ]
    assert private_uses("x = make()\nx._hub_id\n", library_private={"_hub_id"}, own_names={"_hub_id"}) == []
    # public names, dunders and other packages' private names are fine
    assert private_uses("import torch._dynamo\nimport hepa_sklearn\nprint(hepa_sklearn.__file__)\n") == []


def test_the_harness_uses_only_the_public_api():
    files = harness_files()
    library_private = private_names_of(LIBRARY.rglob("*.py"))
    own = private_names_of(files)
    findings = []
    for path in files:
        relative = path.relative_to(REPOSITORY)
        findings += private_uses(path.read_text(), relative, library_private, own)
    assert not findings, "private hepa_sklearn names used under benchmarks/:\n" + "\n".join(map(str, findings))
