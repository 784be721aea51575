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
from skorch.history import History
from sklearn.utils.validation import check_is_fitted

from ._training import resolve_device
from ._validation import seeded_torch
from .event_predictor import HEPAEventPredictor
from .finetune import HEPAFinetuner
from .pretrainer import HEPAPretrainer

__all__ = ["save", "load"]

FORMAT = "hepa_sklearn.persistence"
FORMAT_VERSION = 1

# the fitted attributes each class stores, besides its network
FITTED_ATTRIBUTES = {
    "HEPAPretrainer": ("n_epochs_", "n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_"),
    "HEPAEventPredictor": ("n_epochs_", "n_features_in_", "pos_weight_", "horizons_"),
    "HEPAFinetuner": ("n_epochs_", "n_features_in_", "n_timepoints_in_", "pos_weight_"),
}
CLASSES = {"HEPAPretrainer": HEPAPretrainer, "HEPAEventPredictor": HEPAEventPredictor, "HEPAFinetuner": HEPAFinetuner}

# parameters whose value may be an estimator; they only matter when fit starts
DROPPED_PARAMETERS = ("init_from",)
# parameters holding a fitted estimator the fitted model needs; stored nested
NESTED_PARAMETERS = ("pretrainer",)


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
        A fitted estimator.
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
    name = type(estimator).__name__
    if type(estimator) not in CLASSES.values():
        raise TypeError(
            f"save supports {', '.join(CLASSES)}, got {name}. Other estimators can be "
            "written with pickle or joblib (open such files only from trusted sources)."
        )
    check_is_fitted(estimator, "net_")
    params, nested = {}, {}
    for key, value in estimator.get_params(deep=False).items():
        if key in NESTED_PARAMETERS:
            nested[key] = _content(value)
        elif key not in DROPPED_PARAMETERS:
            params[key] = _plain(value, f"parameter {key}")
    module = estimator.net_.module_
    network = {
        "state_dict": {key: tensor.detach().cpu() for key, tensor in module.state_dict().items()},
        "history": _plain(list(estimator.net_.history), "history"),
        "device": str(next(module.parameters()).device),
    }
    if isinstance(estimator, HEPAEventPredictor):
        network["horizon_scale"] = module.predictor.horizon_scale if module.kind == "mlp" else float(estimator.K)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "class": name,
        "params": params,
        "nested": nested,
        "fitted": {key: _fitted_value(getattr(estimator, key)) for key in FITTED_ATTRIBUTES[name]},
        "network": network,
    }


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
    if content["class"] not in CLASSES:
        raise ValueError(f"{path} holds an unknown estimator class {content['class']!r}.")
    return content


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
    estimator = CLASSES[content["class"]](**{**content["params"], **nested, "device": device})
    device = resolve_device(device)
    fitted = {
        key: value.numpy() if isinstance(value, torch.Tensor) else value
        for key, value in content["fitted"].items()
    }
    network = content["network"]
    if isinstance(estimator, HEPAPretrainer):
        net = estimator._build_net(
            fitted["n_features_in_"], fitted["channel_loc_"], fitted["channel_scale_"], seed=0, device=device
        )
    elif isinstance(estimator, HEPAFinetuner):
        net = estimator._build_net(estimator.pretrainer.encoder_, fitted["pos_weight_"], device=device)
    else:
        net = estimator._build_net(
            fitted["n_features_in_"], network["horizon_scale"], fitted["pos_weight_"], device=device
        )
    with seeded_torch(0, device):  # the random initial weights are overwritten just below
        net.initialize()
    net.module_.load_state_dict(network["state_dict"])
    net.history_ = History(network["history"])
    for key, value in fitted.items():
        setattr(estimator, key, value)
    estimator.net_ = net
    return estimator
