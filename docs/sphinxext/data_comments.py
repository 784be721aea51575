"""Document re-exported constants by the ``#:`` comment where they are defined.

A constant such as ``hepa_sklearn.datasets.CMAPSS_SENSORS`` is defined, with
its ``#:`` comment, in a private module and re-exported by the public one.
autodoc looks for the comment in the public module only and falls back to the
docstring of the value's type (``tuple``); this handler swaps that for the
comment from the defining module.
"""

import importlib
import pkgutil

from sphinx.pycode import ModuleAnalyzer


def _defining_comment(fullname):
    """The ``#:`` comment of ``fullname`` in the submodule that defines it, or None."""
    package_name, _, name = fullname.rpartition(".")
    package = importlib.import_module(package_name)
    value = getattr(package, name)
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        module_name = f"{package_name}.{info.name}"
        module = importlib.import_module(module_name)
        if getattr(module, name, None) is not value:
            continue
        comments = ModuleAnalyzer.for_module(module_name).find_attr_docs()
        if ("", name) in comments:
            return list(comments[("", name)])
    return None


def replace_type_docstring(app, what, name, obj, options, lines):
    """Put the defining module's comment in place of the docstring of ``type(obj)``."""
    if what != "data" or type(obj).__doc__ is None:
        return
    type_doc = [line.strip() for line in type(obj).__doc__.splitlines() if line.strip()]
    if [line.strip() for line in lines if line.strip()] == type_doc:
        lines[:] = _defining_comment(name) or []


def setup(app):
    app.connect("autodoc-process-docstring", replace_type_docstring, priority=400)  # before numpydoc
    return {"parallel_read_safe": True, "parallel_write_safe": True}
