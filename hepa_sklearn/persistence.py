"""Save fitted estimators and pipelines, and load them without running code from the file.

Security model
--------------
Fitted estimators also round-trip through ``pickle`` and ``joblib``, but
unpickling runs whatever code the file names, so a pickle from an untrusted
source can do anything on the machine that opens it. :func:`save` writes a
single ``torch.save`` file that holds only tensors and plain Python values
(dicts, lists, str, int, float, bool, None), and :func:`load` reads it with
``torch.load(..., weights_only=True)``, which refuses any other object
instead of running its code. Inside that file:

- a torch-backed estimator (:class:`~hepa_sklearn.HEPAPretrainer`,
  :class:`~hepa_sklearn.HEPAEventPredictor`,
  :class:`~hepa_sklearn.finetune.HEPAFinetuner`) is its constructor
  parameters, fitted attributes, CPU weights and training history; ``load``
  rebuilds it by the same code path as ``fit``, without training. Only the
  classes of this package can be named, and nothing from the file is called.
- any other estimator (a scaler, :class:`~hepa_sklearn.RegimeNormalizer`,
  :class:`~hepa_sklearn.GradientBoostingEventPredictor`, a
  ``FunctionTransformer`` ...) is stored as the bytes of a ``skops.io``
  file (a tensor of bytes). skops rebuilds objects only of types it trusts:
  its default list (scikit-learn's estimators, numpy, builtins and a few
  others) plus the type names passed as ``load(..., trusted=[...])``. A
  part that names any other type is refused before any object is built.
  :func:`get_untrusted_types` lists the types a file would need trusted,
  so they can be reviewed first. Trust only types whose code you trust
  (the classes of this package, scikit-learn's tree predictors, your own
  functions), never a name you do not recognise.
- a :class:`~sklearn.pipeline.Pipeline` is its parameters and its steps,
  each stored as above (``"passthrough"`` and None steps as themselves).

The skops parts need the optional dependency skops
(``pip install "hepa-sklearn[persist]"``); files of torch-backed estimators
alone do not.

Writing and damage
------------------
:func:`save` writes the file under a temporary name in the same folder,
flushes it to disk and renames it over the target in one step, so the
target always holds a whole file, the previous one or the new one, even
when the process is killed halfway. Each file holds the SHA-256 of its
content; :func:`load` refuses a truncated or damaged file with a
``ValueError`` saying it is not a complete file written by :func:`save`.

Versions
--------
Each file records the format version and the versions of hepa_sklearn,
torch, scikit-learn, skorch and numpy (and skops when it holds skops parts).
:func:`load` emits a :class:`VersionMismatchWarning` when the file was
written by another major.minor version of hepa_sklearn or torch, whose
code or kernels may give other outputs, and is silent otherwise (the
other versions are recorded for inspection, see :func:`saved_versions`).
A file of another format version is refused with a ``ValueError``. A
parameter renamed since a file was written loads under its current name
(``max_horizon`` of a 0.2.0 pretrainer as ``K``, for example), and one
added since takes the value the file's estimator was fitted with.

``init_from`` of :class:`~hepa_sklearn.HEPAEventPredictor` is not stored
(its contribution is already in the fitted weights); the loaded estimator
has ``init_from=None``.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import numpy as np
>>> from hepa_sklearn import HEPAPretrainer
>>> from hepa_sklearn.persistence import load, save
>>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
>>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, K=16,
...                      random_state=0).fit(X)
>>> path = Path(tempfile.mkdtemp()) / "pretrainer.pt"
>>> save(pre, path)
>>> bool(np.array_equal(load(path).transform(X), pre.transform(X)))
True
"""

import warnings

import numpy as np
import torch
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline

from ._persistence_format import (
    checked_trusted,
    content_digest,
    header,
    plain,
    read,
    refuse_untrusted,
    replacing,
    skops_bytes,
    skops_io,
    skops_parts,
    storable_skops_bytes,
    version_mismatches,
)
from ._torch_estimator import TorchEstimator, registered_estimator

__all__ = ["VersionMismatchWarning", "get_untrusted_types", "load", "save", "saved_versions"]


class VersionMismatchWarning(UserWarning):
    """A file written by another major.minor version of hepa_sklearn or torch was loaded.

    Attributes
    ----------
    package : str
        ``"hepa_sklearn"`` or ``"torch"``.
    saved_version, current_version : str
        The version that wrote the file and the one that read it.
    """

    def __init__(self, package, saved_version, current_version, path):
        self.package = package
        self.saved_version = saved_version
        self.current_version = current_version
        super().__init__(
            f"{path} was written with {package} {saved_version} and is loaded with {package} "
            f"{current_version}; outputs may differ between these versions. Check the loaded model "
            "on known data, or refit it and save it again."
        )


# -- writing -------------------------------------------------------------------


def save(estimator, path):
    """Write a fitted estimator or Pipeline to ``path`` as tensors and plain values.

    Parameters
    ----------
    estimator : estimator or Pipeline
        A fitted :class:`~hepa_sklearn.HEPAPretrainer`,
        :class:`~hepa_sklearn.HEPAEventPredictor` or
        :class:`~hepa_sklearn.finetune.HEPAFinetuner` (stored as weights);
        a :class:`~sklearn.pipeline.Pipeline` whose steps are those, other
        scikit-learn estimators, nested Pipelines, ``"passthrough"`` or
        None; or another scikit-learn estimator. Estimators without a torch
        network are stored with ``skops.io`` (the ``persist`` extra).
    path : str or path-like
        The file to write (conventionally ``*.pt``). It is written under a
        temporary name in the same folder, flushed to disk and then renamed
        over ``path`` in one step, so ``path`` always holds a whole file: a
        save that fails or is killed halfway leaves the previous file (or
        none) in place, never half a file.

    Raises
    ------
    TypeError
        For a ``path`` that is not a file name (an open file object, for
        example), an object that is not a scikit-learn estimator, a torch-backed
        estimator nested inside another estimator (other than as a Pipeline
        step), a parameter that is not a plain value (for example a
        ``RandomState`` instance as ``random_state``), or a part that
        :func:`load` could not read back (a lambda, a function defined inside
        another one or in ``__main__``), all before anything is written.
    sklearn.exceptions.NotFittedError
        For an unfitted torch-backed estimator.
    ImportError
        When the object holds an estimator without a torch network and
        skops is not installed.
    """
    node = _node(estimator, type(estimator).__name__)
    with_skops = any(True for _ in skops_parts(node))
    content = {**header(with_skops), **node}
    with replacing(path) as temporary:
        torch.save({**content, "digest": content_digest(content)}, temporary)


def _fitted_value(value):
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    return plain(value, "fitted attribute")


def _node(estimator, where):
    """The stored form of one estimator: a dict with its ``kind`` and what rebuilds it."""
    if isinstance(estimator, TorchEstimator):
        return {"kind": "torch", **_torch_content(estimator)}
    if type(estimator) is Pipeline:
        return _pipeline_node(estimator, where)
    if isinstance(estimator, BaseEstimator) or hasattr(estimator, "get_params"):
        return _skops_node(estimator, where)
    raise TypeError(f"save supports scikit-learn estimators and Pipelines, got {type(estimator).__name__}.")


def _torch_content(estimator):
    """Parameters, fitted attributes and network of a torch-backed estimator; nested ones nest."""
    state = estimator._get_persistent_state()
    params, nested = {}, {}
    # under the current names: a parameter given by its former name is stored under its new one
    for key, value in estimator._current_parameters(estimator.get_params(deep=False)).items():
        if key in estimator._nested_parameters:
            nested[key] = _torch_content(value)
        elif key not in estimator._transient_parameters:
            params[key] = plain(value, f"parameter {key}")
    return {
        "class": type(estimator).__name__,
        "params": params,
        "nested": nested,
        "fitted": {key: _fitted_value(value) for key, value in state.pop("fitted").items()},
        "network": {**state, "history": plain(state["history"], "history")},
    }


def _pipeline_node(pipeline, where):
    steps = []
    for name, step in pipeline.steps:
        if step is None or (isinstance(step, str) and step == "passthrough"):
            steps.append([name, {"kind": "passthrough", "value": step}])
        else:
            steps.append([name, _node(step, f"{where} step {name!r}")])
    params = {
        key: plain(value, f"{where} parameter {key}")
        for key, value in pipeline.get_params(deep=False).items()
        if key != "steps"
    }
    return {"kind": "pipeline", "params": params, "steps": steps}


def _torch_estimator_inside(value, trail, depth=0):
    """Where inside ``value`` a torch-backed estimator sits (a trail of names), or None."""
    if isinstance(value, TorchEstimator):
        return trail
    if depth > 8:  # estimators nest a few levels deep; deeper values are data
        return None
    if isinstance(value, BaseEstimator):
        items = vars(value).items()
    elif isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _torch_estimator_inside(
            item, f"{trail}.{key}" if isinstance(key, str) else f"{trail}[{key}]", depth + 1
        )
        if found is not None:
            return found
    return None


def _skops_node(estimator, where):
    inside = _torch_estimator_inside(estimator, type(estimator).__name__)
    if inside is not None:
        raise TypeError(
            f"cannot save {where}: it holds a torch-backed estimator at {inside}. Torch-backed "
            "estimators are saved as the saved object itself or as Pipeline steps, not inside "
            "another estimator."
        )
    data = storable_skops_bytes(estimator, where)
    return {
        "kind": "skops",
        "class": f"{type(estimator).__module__}.{type(estimator).__qualname__}",
        "data": torch.frombuffer(bytearray(data), dtype=torch.uint8),
    }


# -- reading -------------------------------------------------------------------


def saved_versions(path):
    """The versions recorded in a file written by :func:`save`.

    Returns
    -------
    versions : dict
        ``"format_version"`` and the versions of hepa_sklearn, torch,
        scikit-learn, skorch, numpy (and skops when the file holds skops
        parts) that wrote it.
    """
    content = read(path)
    return {"format_version": content["format_version"], **content["versions"]}


def _warn_on_version_mismatch(content, path):
    for package, saved, current in version_mismatches(content):
        # stacklevel 3: the caller of load
        warnings.warn(VersionMismatchWarning(package, saved, current, path), stacklevel=3)


def load(path, *, device="cpu", trusted=None):
    """Read an estimator or Pipeline written by :func:`save`, without running code from the file.

    Parameters
    ----------
    path : str or path-like
    device : str, default="cpu"
        Device of the loaded networks, stored as each torch-backed
        estimator's ``device`` parameter; a model trained on a GPU loads on
        the CPU by default.
    trusted : list of str or None, default=None
        Type names that the skops parts may hold besides skops' default
        trusted types, passed through to ``skops.io.loads``. None trusts
        only skops' defaults. See :func:`get_untrusted_types`.

    Returns
    -------
    estimator : estimator or Pipeline
        Fitted, with the saved parameters (``device`` replaced in every
        torch-backed estimator, also in a finetuner's ``pretrainer``) and
        ``init_from=None``; ``transform`` / ``predict_proba`` give the
        outputs the saved estimator gave on the same device and precision.

    Raises
    ------
    ValueError
        When the file is not a complete file written by :func:`save`
        (truncated or damaged: every file holds the SHA-256 of its content,
        checked on reading), holds anything but tensors and plain values,
        was not written by :func:`save`, or has another format version than
        the one this version of hepa_sklearn writes.
    OSError
        When the file cannot be opened (``FileNotFoundError`` for a path
        that does not exist).
    TypeError
        When a skops part holds a type that is neither trusted by default
        nor named in ``trusted`` (checked before anything is built), or when
        ``trusted`` is not a list of str.
    ImportError
        When the file holds skops parts and skops is not installed.

    Warns
    -----
    VersionMismatchWarning
        When the file was written with another major.minor version of
        hepa_sklearn or torch.
    """
    trusted = checked_trusted(trusted)
    content = read(path)
    refuse_untrusted(content, trusted, path)
    _warn_on_version_mismatch(content, path)
    return _rebuild(content, device, trusted, path)


def _rebuild(node, device, trusted, path):
    kind = node.get("kind")
    if kind == "torch":
        return _rebuild_torch(node, device, path)
    if kind == "pipeline":
        steps = [
            (name, step["value"] if step["kind"] == "passthrough" else _rebuild(step, device, trusted, path))
            for name, step in node["steps"]
        ]
        return Pipeline(steps, **node["params"])
    if kind == "skops":
        # refuse_untrusted has checked every part; skops checks again
        return skops_io(f"loading {path}").loads(skops_bytes(node), trusted=trusted)
    raise ValueError(f"{path} holds a part of unknown kind {kind!r}.")


def _rebuild_torch(content, device, path):
    try:
        cls = registered_estimator(content["class"])
    except ValueError as exc:
        raise ValueError(f"{path} holds an unknown estimator class {content['class']!r}.") from exc
    nested = {key: _rebuild_torch(value, device, path) for key, value in content["nested"].items()}
    # a parameter added after the file was written takes the value that the file's estimator was fitted with,
    # and one renamed since is read under its current name
    earlier = getattr(cls, "_parameters_before_stored", {})
    estimator = cls(**{**earlier, **cls._current_parameters(content["params"]), **nested, "device": device})
    fitted = {
        key: value.numpy() if isinstance(value, torch.Tensor) else value for key, value in content["fitted"].items()
    }
    return estimator._set_persistent_state({**content["network"], "fitted": fitted}, device)


def get_untrusted_types(path):
    """Type names in the skops parts of ``path`` that skops does not trust by default.

    Review them, then pass those whose code you trust as
    ``load(path, trusted=[...])``. Reading the names builds no object.

    Returns
    -------
    names : list of str
        Sorted, without repeats; empty for a file without skops parts.
    """
    names = set()
    for where, node in skops_parts(read(path)):
        names.update(skops_io(f"reading {where} of {path}").get_untrusted_types(data=skops_bytes(node)))
    return sorted(names)
