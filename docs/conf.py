"""Sphinx configuration of the hepa_sklearn documentation site.

Build with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
from the repository root. The gallery's source is the repository's ``examples/``
folder: its ``plot_*.py`` scripts run during the build, the others are shown
without running.
"""

import os
import sys
from pathlib import Path

# the checkout's package, also when it is not installed, and the helpers in sphinxext/
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE / "sphinxext"))

import hepa_sklearn  # noqa: E402

project = "hepa-sklearn"
author = "the hepa-sklearn authors"
copyright = "the hepa-sklearn authors, BSD-3-Clause"
release = hepa_sklearn.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "data_comments",
    "sklearn_inherited",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# -- API reference -------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"
# numpydoc renders the docstrings; the class template lists methods itself
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False
# scikit-learn's inherited docstrings (get_params, set_output, ...) are not
# numpydoc-validated here; only this package's own text is
numpydoc_validation_checks = set()

# -- Markdown pages ------------------------------------------------------------
myst_enable_extensions = ["dollarmath"]
# the pages link to their own sections as [text](#heading-anchor)
myst_heading_anchors = 3

# -- Gallery -------------------------------------------------------------------


sphinx_gallery_conf = {
    # the repository's examples/: only plot_*.py run at build time, the longer jobs are shown as they are
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"/plot_",
    "within_subsection_order": "gallery_setup.executed_first",
    "reset_modules": ("matplotlib", "gallery_setup.one_torch_thread"),
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    "matplotlib_animations": False,
    "capture_repr": ("_repr_html_", "__repr__"),
    "min_reported_time": 1,
}

# -- HTML ----------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"hepa-sklearn {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2, "secondary_sidebar_items": ["page-toc"]}
html_static_path = []
html_show_sourcelink = False

# matplotlib draws to files only
os.environ.setdefault("MPLBACKEND", "Agg")
