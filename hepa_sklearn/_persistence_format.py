"""The file format of :mod:`hepa_sklearn.persistence`: header, digest, atomic writing, checks on reading, skops parts.

A file is one ``torch.save`` dict read back with ``weights_only=True``: the
header (``format``, ``format_version``, ``versions``) beside the stored
estimator, a node with a ``kind``: ``"torch"`` (parameters, fitted
attributes and network of a torch-backed estimator), ``"pipeline"``
(parameters and steps, each a node or ``"passthrough"``) or ``"skops"``
(the bytes of a ``skops.io`` file as a uint8 tensor); and ``digest``, the
SHA-256 of everything else (every key, value and tensor byte), so that a
damaged file is refused rather than loaded with other weights.
"""

import contextlib
import hashlib
import io
import os
import pickle
import re
import secrets

import numpy as np
import sklearn
import skorch
import torch

from ._version import __version__

FORMAT = "hepa_sklearn.persistence"
# the only layout written and read; a file of any other number is refused
# (4: the content's digest, ``digest``, was added)
FORMAT_VERSION = 4

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
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "versions": current_versions(with_skops=with_skops)}


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


# -- digest and writing --------------------------------------------------------


def _feed(digest, value):
    """Add ``value`` (nested dicts, lists, tensors and plain values) to ``digest``, its structure included."""
    if isinstance(value, torch.Tensor):
        data = value.detach().cpu().contiguous().reshape(-1)
        digest.update(f"tensor {data.dtype} {tuple(value.shape)} ".encode())
        digest.update(data.view(torch.uint8).numpy().tobytes())
    elif isinstance(value, dict):
        digest.update(f"dict {len(value)} ".encode())
        for key, item in value.items():
            _feed(digest, key)
            _feed(digest, item)
    elif isinstance(value, list):
        digest.update(f"list {len(value)} ".encode())
        for item in value:
            _feed(digest, item)
    elif value is None or type(value) in (bool, int, float, str):
        text = repr(value)  # exact for floats, NaN and infinities included
        digest.update(f"{type(value).__name__} {len(text)} {text} ".encode())
    else:
        raise TypeError(f"a {type(value).__name__} is not part of a saved file's content.")


def content_digest(content):
    """SHA-256 (hex) of a file's content, every entry but ``digest`` itself."""
    digest = hashlib.sha256()
    _feed(digest, {key: value for key, value in content.items() if key != "digest"})
    return digest.hexdigest()


@contextlib.contextmanager
def replacing(path, what="save"):
    """Yield a temporary file name beside ``path``; on leaving the block, put that file in place of ``path``.

    What the block writes there is flushed to disk and renamed over
    ``path`` in one step (``os.replace``), so ``path`` always holds a whole
    file, the old or the new: a write that fails or is killed halfway leaves
    ``path`` as it was (and, when killed, the temporary
    ``.<name>.<random>.part`` file beside it). ``what`` names the writer in
    messages.
    """
    try:
        path = os.fspath(path)
    except TypeError:
        raise TypeError(
            f"path must be a file name (str or path-like), got {type(path).__name__}: {what} writes a new file "
            "beside it and renames it over path, so that a write cut short never leaves half a file."
        ) from None
    folder, name = os.path.split(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{what} cannot write {path}: the folder {folder} does not exist.")
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(8)}.part")
    # created as open() would create it (the umask applies), unlike tempfile's private 0o600
    os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        yield temporary
        with open(temporary, "rb+") as file:
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    if hasattr(os, "O_DIRECTORY"):  # the rename itself reaches the disk with the folder's entry
        folder_handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder_handle)
        finally:
            os.close(folder_handle)


# -- checks on reading ---------------------------------------------------------


def _not_complete(path, why):
    return ValueError(
        f"{path} is not a complete file written by hepa_sklearn.persistence.save: {why}. It was not loaded; "
        "save the estimator again, or restore the file from a copy."
    )


def read(path):
    """The checked content of a file written by :func:`~hepa_sklearn.persistence.save` (no version warning).

    OSError when the file cannot be opened; ValueError for a file that is
    truncated or damaged, holds other objects or was written otherwise.
    """
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        content = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        raise ValueError(
            f"{path} holds objects other than tensors and plain values (or is damaged), so it is not a "
            "complete file written by hepa_sklearn.persistence.save; it was not opened (weights_only=True)."
        ) from exc
    except Exception as exc:  # torch's zip reader and unpickler on cut or altered bytes
        raise _not_complete(path, f"it is truncated or damaged ({type(exc).__name__}: {str(exc)[:200]})") from exc
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{path} was not written by hepa_sklearn.persistence.save (or is damaged).")
    if type(content.get("format_version")) is not int:
        raise _not_complete(path, "it has no format version")
    if content["format_version"] != FORMAT_VERSION:
        raise ValueError(
            f"{path} has format version {content.get('format_version')!r}; this version of "
            f"hepa_sklearn writes and reads format version {FORMAT_VERSION} only, so this is not "
            "a file it writes and it was not loaded."
        )
    try:
        intact = content.get("digest") == content_digest(content)
    except (TypeError, ValueError, RuntimeError):  # a value no saved file holds
        intact = False
    if not intact:
        raise _not_complete(path, "its content differs from the digest it was saved with, so it is damaged")
    return content


def checked_trusted(trusted):
    """``trusted`` as a list of type names; TypeError for anything else."""
    if trusted is None:
        return []
    if (
        isinstance(trusted, str)
        or not isinstance(trusted, (list, tuple))
        or not all(isinstance(name, str) for name in trusted)
    ):
        raise TypeError(
            f"trusted must be None or a list of type names (str), as get_untrusted_types returns; got {trusted!r}."
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


def storable_skops_bytes(estimator, where):
    """The ``skops.io`` bytes of ``estimator``, read back once; TypeError naming ``where`` when load could not.

    skops stores a function by its module and name, so a lambda, a
    function defined inside another one or in ``__main__`` (a script or
    notebook) would save but not load: such parts are refused before
    anything is written.
    """
    io = skops_io(f"saving {where}")
    data = io.dumps(estimator)
    names = io.get_untrusted_types(data=data)
    fix = (
        "Define each function the estimator holds at the top level of an importable module (not as a lambda, "
        "inside another function or in a script or notebook), or leave the step out of the saved object."
    )
    unimportable = [name for name in names if name.startswith("__main__.") or "<lambda>" in name]
    if unimportable:
        raise TypeError(
            f"cannot save {where}: it holds {unimportable}, which another process cannot import, so "
            f"load could not read the file back. {fix}"
        )
    try:
        io.loads(data, trusted=names)
    except Exception as exc:  # whatever skops raises on an object it cannot rebuild
        raise TypeError(
            f"cannot save {where}: skops.io cannot read it back ({type(exc).__name__}: "
            f"{str(exc)[:200]}), so load could not either. {fix}"
        ) from exc
    return data


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
