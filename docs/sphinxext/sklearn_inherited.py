"""Methods the estimators inherit from scikit-learn, as this site shows them.

The class pages list inherited methods (``get_params``, ``set_output``, ...)
with scikit-learn's own docstrings. Those cross-reference scikit-learn's user
guide and glossary, which this site does not have: the references are kept as
plain text. The ``set_*_request`` methods of metadata routing are left out;
scikit-learn's documentation describes them.
"""

import re

# :ref:`text <label>`, :ref:`label`, :term:`text <entry>` and :term:`entry`
_CROSS_REFERENCE = re.compile(r":(?:ref|term):`(?:([^`<]*?)\s*<[^`>]*>|([^`]*))`")


def _plain(match):
    return match.group(1) if match.group(1) is not None else match.group(2)


def unlink_sklearn_references(app, what, name, obj, options, lines):
    """Replace scikit-learn's ``:ref:`` and ``:term:`` roles by their text in its docstrings."""
    if not getattr(obj, "__module__", "").startswith("sklearn."):
        return
    lines[:] = [_CROSS_REFERENCE.sub(_plain, line) for line in lines]


def skip_request_setters(app, what, name, obj, skip, options):
    """Leave out the ``set_*_request`` methods scikit-learn generates for metadata routing."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-process-docstring", unlink_sklearn_references, priority=400)  # before numpydoc
    app.connect("autodoc-skip-member", skip_request_setters)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
