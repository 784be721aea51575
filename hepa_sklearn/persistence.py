"""Save fitted estimators as tensors and plain values, and load them without unpickling code.

Fitted estimators also round-trip through ``pickle`` and ``joblib``, but
unpickling runs whatever code the file names, so a pickle from an untrusted
source can do anything on the machine that opens it. :func:`save` writes a
single ``torch.save`` file that holds only tensors and plain Python values
(dicts, lists, str, int, float, bool, None): the constructor parameters,
the fitted attributes, the network weights on the CPU and the training
history. :func:`load` reads it with ``torch.load(..., weights_only=True)``,
which refuses any other object instead of running its code, and rebuilds the
estimator by the same code path as ``fit`` without training.

Supported: :class:`~hepa_sklearn.HEPAPretrainer`,
:class:`~hepa_sklearn.HEPAEventPredictor` and
:class:`~hepa_sklearn.finetune.HEPAFinetuner` (whose fitted ``pretrainer``
is stored inside the same file and loaded with it). ``init_from`` is not
stored (its contribution is already in the fitted weights); the loaded
estimator has ``init_from=None``.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> import numpy as np
>>> from hepa_sklearn import HEPAPretrainer
>>> from hepa_sklearn.persistence import load, save
>>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
>>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, max_horizon=16,
...                      random_state=0).fit(X)
>>> path = Path(tempfile.mkdtemp()) / "pretrainer.pt"
>>> save(pre, path)
>>> bool(np.array_equal(load(path).transform(X), pre.transform(X)))
True
"""

import pickle

import numpy as np
import torch

from ._base import TorchEstimator, registered_estimator

__all__ = ["save", "load"]

FORMAT = "hepa_sklearn.persistence"
FORMAT_VERSION = 2


def _plain(value, where):
    """``value`` as nested dicts, lists and Python scalars; TypeError naming ``where`` otherwise."""
    if isinstance(value, dict):
        return {str(key): _plain(item, f"{where}[{key!r}]") for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or type(value) in (bool, int, float, str):
        return value
    raise TypeError(
        f"cannot save {where}: a {type(value).__name__} is not a plain value "
        "(None, bool, int, float, str, list or dict)."
    )


def _fitted_value(value):
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    return _plain(value, "fitted attribute")


def save(estimator, path):
    """Write a fitted estimator to ``path`` as tensors and plain values.

    Parameters
    ----------
    estimator : HEPAPretrainer, HEPAEventPredictor or HEPAFinetuner
        A fitted torch-backed estimator of this package.
    path : str or path-like
        The file to write (conventionally ``*.pt``).

    Raises
    ------
    TypeError
        For another class, or a parameter that is not a plain value (for
        example a ``RandomState`` instance as ``random_state``).
    sklearn.exceptions.NotFittedError
        For an unfitted estimator.
    """
    torch.save(_content(estimator), path)


def _content(estimator):
    """The file's content for one fitted estimator; nested estimators become nested contents."""
    if not isinstance(estimator, TorchEstimator):
        raise TypeError(
            f"save supports the torch-backed estimators of hepa_sklearn, got {type(estimator).__name__}. "
            "Other estimators can be written with pickle or joblib (open such files only from "
            "trusted sources)."
        )
    state = estimator._get_persistent_state()
    params, nested = {}, {}
    for key, value in estimator.get_params(deep=False).items():
        if key in estimator._nested_parameters:
            nested[key] = _content(value)
        elif key not in estimator._transient_parameters:
            params[key] = _plain(value, f"parameter {key}")
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "class": type(estimator).__name__,
        "params": params,
        "nested": nested,
        "fitted": {key: _fitted_value(value) for key, value in state.pop("fitted").items()},
        "network": {**state, "history": _plain(state["history"], "history")},
    }


def _upgrade(content):
    """Content of a version-1 file in the version-2 layout (the event predictor's Δt scale became a fitted attribute)."""
    if content["format_version"] < 2 and "horizon_scale" in content["network"]:
        content["fitted"]["horizon_scale_"] = content["network"].pop("horizon_scale")
    return content


def _read(path):
    try:
        content = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as exc:
        raise ValueError(
            f"{path} holds objects other than tensors and plain values, so it was not written "
            "by hepa_sklearn.persistence.save; it was not opened (weights_only=True)."
        ) from exc
    if not isinstance(content, dict) or content.get("format") != FORMAT:
        raise ValueError(f"{path} was not written by hepa_sklearn.persistence.save.")
    if content.get("format_version", 0) > FORMAT_VERSION:
        raise ValueError(
            f"{path} has format version {content['format_version']}; this version of "
            f"hepa_sklearn reads up to {FORMAT_VERSION}."
        )
    try:
        registered_estimator(content["class"])
    except ValueError as exc:
        raise ValueError(f"{path} holds an unknown estimator class {content['class']!r}.") from exc
    return _upgrade(content)


def load(path, *, device="cpu"):
    """Read an estimator written by :func:`save`, without running code from the file.

    Parameters
    ----------
    path : str or path-like
    device : str, default="cpu"
        Device of the loaded network, stored as its ``device`` parameter; a
        model trained on a GPU loads on the CPU by default.

    Returns
    -------
    estimator : HEPAPretrainer, HEPAEventPredictor or HEPAFinetuner
        Fitted, with the saved parameters (``device`` replaced, also in a
        finetuner's ``pretrainer``) and ``init_from=None``; ``transform`` /
        ``predict_proba`` give the outputs the saved estimator gave on the
        same device and precision.

    Raises
    ------
    ValueError
        When the file holds anything but tensors and plain values, or was
        not written by :func:`save`.
    """
    return _rebuild(_read(path), device)


def _rebuild(content, device):
    nested = {key: _rebuild(value, device) for key, value in content.get("nested", {}).items()}
    estimator = registered_estimator(content["class"])(**{**content["params"], **nested, "device": device})
    fitted = {
        key: value.numpy() if isinstance(value, torch.Tensor) else value
        for key, value in content["fitted"].items()
    }
    return estimator._set_persistent_state({**content["network"], "fitted": fitted}, device)
