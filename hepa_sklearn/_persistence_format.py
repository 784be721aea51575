"""The file format of :mod:`hepa_sklearn.persistence`: header, checks on reading, skops parts.

A file is one ``torch.save`` dict read back with ``weights_only=True``: the
header (``format``, ``format_version``, ``versions``) beside the stored
estimator, a node with a ``kind``: ``"torch"`` (parameters, fitted
attributes and network of a torch-backed estimator), ``"pipeline"``
(parameters and steps, each a node or ``"passthrough"``) or ``"skops"``
(the bytes of a ``skops.io`` file as a uint8 tensor).
"""

import pickle
import re

import numpy as np
import sklearn
import skorch
import torch

from ._version import __version__

FORMAT = "hepa_sklearn.persistence"
# the only layout written and read; a file of any other number is refused
FORMAT_VERSION = 3

# a file written by another major.minor of these may give other outputs
CHECKED_VERSIONS = ("hepa_sklearn", "torch")

SKOPS_MISSING = (
    "{what} needs the optional dependency skops (estimators without a torch network are stored "
    'with skops.io); install it with: pip install "hepa-sklearn[persist]"'
)


def skops_io(what):
    """``skops.io``, imported on first use; ImportError naming the extra when it is missing."""
    try:
        import skops.io
    except ImportError as exc:
        raise ImportError(SKOPS_MISSING.format(what=what)) from exc
    return skops.io


# -- header --------------------------------------------------------------------


def current_versions(with_skops=False):
    """The versions of the packages that write a file now, as plain str."""
    versions = {
        "hepa_sklearn": __version__,
        "torch": torch.__version__,
        "scikit-learn": sklearn.__version__,
        "skorch": skorch.__version__,
        "numpy": np.__version__,
    }
    if with_skops:
        import skops

        versions["skops"] = skops.__version__
    # torch.__version__ is a str subclass that weights-only loading refuses
    return {package: str(version) for package, version in versions.items()}


def header(with_skops):
    """What every file holds beside the stored estimator."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "versions": current_versions(with_skops=with_skops),
    }


def _major_minor(version):
    match = re.match(r"(\d+)\.(\d+)", str(version))
    return (int(match[1]), int(match[2])) if match else str(version)


def version_mismatches(content):
    """``(package, saved, current)`` for each checked package whose major.minor differs from the file's."""
    saved, current = content["versions"], current_versions()
    return [
        (package, saved[package], current[package])
        for package in CHECKED_VERSIONS
        if _major_minor(saved[package]) != _major_minor(current[package])
    ]


def plain(value, where):
    """``value`` as nested dicts, lists and Python scalars; TypeError naming ``where`` otherwise."""
    if isinstance(value, dict):
        return {str(key): plain(item, f"{where}[{key!r}]") for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or type(value) in (bool, int, float, str):
        return value
    raise TypeError(
        f"cannot save {where}: a {type(value).__name__} is not a plain value "
        "(None, bool, int, float, str, list or dict)."
    )


# -- checks on reading ---------------------------------------------------------


def read(path):
    """The checked content of a file written by :func:`~hepa_sklearn.persistence.save` (no version warning)."""
    try:
        content = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        raise ValueError(
            f"{path} holds objects other than tensors and plain values, so it was not written "
            "by hepa_sklearn.persistence.save; it was not opened (weights_only=True)."
        ) from exc
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{path} was not written by hepa_sklearn.persistence.save.")
    if content.get("format_version") != FORMAT_VERSION:
        raise ValueError(
            f"{path} has format version {content.get('format_version')!r}; this version of "
            f"hepa_sklearn writes and reads format version {FORMAT_VERSION} only, so this is not "
            "a file it writes and it was not loaded."
        )
    return content


def checked_trusted(trusted):
    """``trusted`` as a list of type names; TypeError for anything else."""
    if trusted is None:
        return []
    if isinstance(trusted, str) or not isinstance(trusted, (list, tuple)) or not all(
        isinstance(name, str) for name in trusted
    ):
        raise TypeError(
            f"trusted must be None or a list of type names (str), as get_untrusted_types returns; "
            f"got {trusted!r}."
        )
    return list(trusted)


# -- skops parts ---------------------------------------------------------------


def skops_parts(node, where="the estimator"):
    """``(where, node)`` for every skops part of a file's content, in step order."""
    if node["kind"] == "skops":
        yield where, node
    elif node["kind"] == "pipeline":
        for name, step in node["steps"]:
            label = f"Pipeline step {name!r}" if where == "the estimator" else f"{where} step {name!r}"
            yield from skops_parts(step, label)


def skops_bytes(node):
    return node["data"].numpy().tobytes()


def refuse_untrusted(content, trusted, path):
    """TypeError naming every part of ``content`` that holds a type neither skops nor ``trusted`` trusts."""
    refused = []
    for where, node in skops_parts(content):
        io = skops_io(f"loading {where} ({node['class']}) of {path}")
        names = [name for name in io.get_untrusted_types(data=skops_bytes(node)) if name not in trusted]
        if names:
            refused.append(f"{where} ({node['class']}): {names}")
    if refused:
        raise TypeError(
            f"{path} holds types that are not trusted, so nothing was loaded; "
            + "; ".join(refused)
            + ". If you trust their code, pass them as load(path, trusted=[...]); "
            "get_untrusted_types(path) lists them."
        )
