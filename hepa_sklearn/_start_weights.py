"""Starting a net from the weights of a fitted pretrainer: ``init_from``, read alike wherever it appears.

What ``init_from`` names is the same for :class:`~hepa_sklearn.HEPAPretrainer`
and :class:`~hepa_sklearn.HEPAEventPredictor` (:func:`init_from_pretrainer`):
a fitted :class:`~hepa_sklearn.HEPAPretrainer`, one wrapped in
``sklearn.frozen.FrozenEstimator``, or the path of one written by
:func:`hepa_sklearn.persistence.save`, with the same errors for anything
else. The event predictor copies the source's horizon predictor; a
pretrainer copies every tensor of its net (encoder,
target path, predictor) is copied into the new net after that net is built
for the new data, except the per-channel statistics buffers, which describe
the new data (``channel_loc`` and ``channel_scale``, used by
``norm="global"``). The architecture parameters must agree, and so must
every copied tensor's shape: with ``tokens="patch"`` or ``"channel"`` that
means the same number of channels, with ``tokens="univariate"`` any number.
"""

import os

from sklearn.frozen import FrozenEstimator
from sklearn.utils.validation import check_is_fitted

from ._torch_estimator import registered_estimator
from .persistence import load

__all__ = ["ARCHITECTURE", "init_from_pretrainer", "source_pretrainer", "start_from_source", "start_weights"]

# the parameters that fix the shapes and the meaning of the net's tensors
ARCHITECTURE = ("d_model", "n_layers", "n_heads", "patch_size", "tokens", "K", "target_weights")
# buffers that hold statistics of the data the net is fitted on, never copied
DATA_BUFFERS = ("channel_loc", "channel_scale")


def init_from_pretrainer(given):
    """The fitted HEPAPretrainer that an ``init_from`` value ``given`` names.

    ``given`` is a fitted :class:`~hepa_sklearn.HEPAPretrainer`, one in a
    ``sklearn.frozen.FrozenEstimator``, or the path of one written by
    :func:`hepa_sklearn.persistence.save`. TypeError for anything else,
    ValueError for a file holding another estimator (an ``OSError`` where
    the file cannot be read), NotFittedError for an unfitted pretrainer.
    """
    pretrainer_class = registered_estimator("HEPAPretrainer")
    if isinstance(given, (str, os.PathLike)):
        source = load(given)
        if not isinstance(source, pretrainer_class):
            raise ValueError(f"init_from={str(given)!r} holds a {type(source).__name__}, not a HEPAPretrainer.")
        return source
    source = given.estimator if isinstance(given, FrozenEstimator) else given
    if not isinstance(source, pretrainer_class):
        raise TypeError(
            "init_from must be None, a fitted HEPAPretrainer (or one in a FrozenEstimator) or the path of "
            f"one saved with hepa_sklearn.persistence.save, got {type(given).__name__}."
        )
    check_is_fitted(source, "net_", msg="init_from must be a fitted HEPAPretrainer; this one is not fitted.")
    return source


def source_pretrainer(estimator):
    """The fitted pretrainer that ``estimator.init_from`` names, checked against ``estimator``'s architecture."""
    source = init_from_pretrainer(estimator.init_from)
    differ = {name: (source._parameter(name), estimator._parameter(name)) for name in ARCHITECTURE}
    differ = {name: pair for name, pair in differ.items() if pair[0] != pair[1]}
    if differ:
        listed = ", ".join(f"{name}={theirs!r} (here {ours!r})" for name, (theirs, ours) in differ.items())
        raise ValueError(f"init_from's pretrainer has another architecture: {listed}; set them as it has them.")
    return source


def start_weights(net, source):
    """Copy ``source``'s net into the initialised ``net``; ValueError naming the tensors whose shapes differ."""
    theirs = source.net_.module_.state_dict()
    ours = net.module_.state_dict()
    kept = {key for key in ours if key.rsplit(".", 1)[-1] in DATA_BUFFERS}
    missing = sorted(set(ours) - set(theirs) - kept)
    unlike = sorted(key for key in set(ours) & set(theirs) - kept if ours[key].shape != theirs[key].shape)
    if missing or unlike:
        shapes = ", ".join(f"{key} {tuple(theirs[key].shape)} (here {tuple(ours[key].shape)})" for key in unlike[:3])
        raise ValueError(
            "init_from's net does not fit this data"
            + (f"; it lacks {missing[:3]}" if missing else "")
            + (f"; shapes differ: {shapes}" if unlike else "")
            + f" (its windows had {source.n_features_in_} channels). tokens='univariate' reads any number of "
            "channels with the same weights."
        )
    net.module_.load_state_dict({key: ours[key] if key in kept else theirs[key] for key in ours})


def start_from_source(net, estimator):
    """Read ``estimator.init_from`` and copy its weights into the initialised ``net`` (the ``prepare`` of ``fit``).

    The source is read here, when the net exists, rather than when the fit is
    planned, so that ``training_data`` and other callers of the plan never
    read the file.
    """
    start_weights(net, source_pretrainer(estimator))
