"""Designs for the defaults that put something beside an untrained encoder's embedding before the event head.

Four families of the method table, each a screen of the default selection
(``benchmarks/decisions/default_selection.md``); every entry fits its encoders (never
pretrained) and its event head on the cell's labelled training windows
alone, with the estimators' own early stopping, as ``hepa-default`` does,
and the event head at the pinned defaults of release 0.2.0 (every horizon):

- ``hepa-level-*``: a level-free embedding with the window's level beside
  it, the four statistics of :func:`~hepa_sklearn.preprocessing.window_level`
  standardised by a scaler fitted on the training windows, or the level's
  recent change instead (``hepa-level-shift``);
- ``hepa-spread-*``: the first form of the window level of ``norm="auto"``
  (``hepa-default-auto0-spread``) with another event head, or with the head
  choosing by its own held-out loss whether to read the level;
- ``hepa-beside-*``: the headline line's embedding (``hepa-default-auto0``)
  with gradient boosting's window features beside it;
- ``hepa-views-*``: the window embedded under the global z-score, alone or
  beside the headline line's embedding.

The entries these designs were measured against are ``hepa-default``,
``hepa-default-auto0`` and ``hepa-default-auto0-spread``.
"""

import functools

import numpy as np
from sklearn.preprocessing import StandardScaler

from hepa_sklearn.baselines import multiscale_feature_names, multiscale_features
from hepa_sklearn.preprocessing import RegimeNormalizer, nan_mean_std, window_level

from ..protocols import SpreadLevelPretrainer, default_pipeline, plain_pipeline
from .parts import Method

__all__ = ["BESIDE_METHODS", "Beside", "beside", "boosting_features", "level_shift", "selected_level"]

# release 0.2.0's headline pretrainer (norm="auto", never pretrained): regimes found, RevIN, the two means beside
HEADLINE = {"norm": "revin", "regimes": "auto", "window_level": True, "max_epochs": 0}
# release 0.2.0's norm values, each as today's parameters, without the level the pretrainer would append itself
NORMS = {
    "revin": {"norm": "revin", "regimes": None, "window_level": False, "max_epochs": 0},
    "regime": {"norm": "global", "regimes": "auto", "window_level": False, "max_epochs": 0},
    "global": {"norm": "global", "regimes": None, "window_level": False, "max_epochs": 0},
    "auto": HEADLINE,
}
RECENT = 30  # the recent steps of the level's change


def level_shift(X):
    """Per channel: the last 30 steps' mean less the window's in units of the window's standard deviation, then the
    log ratio of the two standard deviations; a summary that a drifting level does not move."""
    X = np.asarray(X, dtype=np.float64)
    mean, std, _ = nan_mean_std(X, axis=-1)
    recent_mean, recent_std, _ = nan_mean_std(X[..., -RECENT:], axis=-1)
    std = np.where(std > 0, std, 1.0)
    return np.concatenate([(recent_mean - mean) / std, np.log(np.where(recent_std > 0, recent_std, 1e-3) / std)], 1)


def boosting_features(X, kinds=None):
    """Gradient boosting's window features (:func:`~hepa_sklearn.baselines.multiscale_features`) without the window's
    age; with ``kinds``, only the features of those kinds (``"mean"``, ``"slope"``, ...)."""
    names = multiscale_feature_names(np.shape(X)[1])
    keep = np.array([name != "age" and (kinds is None or name.split("_")[0] in kinds) for name in names])
    return multiscale_features(X)[:, keep]


class Beside:
    """``predict_proba(X)``: the event head on the encoders' embeddings of ``X``, the scaled summary beside them.

    ``regimes`` (a fitted RegimeNormalizer or None) standardises the
    windows first; ``summary`` is a function of the windows whose columns
    ``scaler`` standardises (0 where undefined).
    """

    def __init__(self, encoders, *, regimes=None, summary=None, scaler=None):
        self.encoders, self.regimes, self.summary, self.scaler = encoders, regimes, summary, scaler
        self.head = None

    def embed(self, windows):
        """The head's input from windows already standardised by ``regimes``."""
        parts = [encoder.transform(windows) for encoder in self.encoders]
        if self.summary is not None:
            parts.append(np.nan_to_num(self.scaler.transform(np.nan_to_num(self.summary(windows)))))
        return np.hstack(parts)

    def predict_proba(self, X):
        return self.head.predict_proba(self.embed(X if self.regimes is None else self.regimes.transform(X)))


def beside(entry, data, mask, *, epochs, device, seed, encoder=None, views=("auto",), summary=None, regimes=False):
    """Untrained encoders of the 0.2.0 ``norm`` values ``views`` and, beside their embeddings, ``summary`` of the
    windows standardised on the training windows; the event head on all of them.

    ``regimes`` standardises the windows per operating regime first
    (``RegimeNormalizer(None, n_regimes="auto")`` fitted on the training
    windows) where it finds more than one regime.
    """
    windows, y_train = data.X_train[mask], data.y_train[mask]
    normalizer = RegimeNormalizer(None, n_regimes="auto", random_state=seed).fit(windows) if regimes else None
    if normalizer is not None and normalizer.n_regimes_ > 1:
        windows = normalizer.transform(windows)
    else:
        normalizer = None
    scaler = None if summary is None else StandardScaler().fit(np.nan_to_num(summary(windows)))
    encoders = [default_pipeline(entry.K, seed=seed, device=device, **NORMS[view])[0].fit(windows) for view in views]
    model = Beside(encoders, regimes=normalizer, summary=summary, scaler=scaler)
    E = model.embed(windows)
    model.head = default_pipeline(entry.K, seed=seed, device=device)[-1].fit(E, y_train)
    info = {
        "n_features": E.shape[1],
        "regimes_found": normalizer is not None,
        "finetune_epochs_run": model.head.n_epochs_,
    }
    return model, info


class _Columns:
    """``predict_proba(X)``: the event head on some columns of a fitted pretrainer's output."""

    def __init__(self, pretrainer, head, columns):
        self.pretrainer, self.head, self.columns = pretrainer, head, columns

    def predict_proba(self, X):
        return self.head.predict_proba(self.pretrainer.transform(X)[:, self.columns])


def selected_level(entry, data, mask, *, epochs, device, seed, encoder=None):
    """``hepa-default-auto0-spread``'s event head fitted with and without the window level beside the embedding, the
    one of lower held-out loss kept (the last tenth of the training windows; no validation window is read)."""
    pretrainer = default_pipeline(entry.K, seed=seed, device=device, pretrainer=SpreadLevelPretrainer, **HEADLINE)[0]
    X_train, y_train = data.X_train[mask], data.y_train[mask]
    E = pretrainer.fit(X_train).transform(X_train)
    fitted = {}
    for name, columns in (("level", np.arange(E.shape[1])), ("embedding", np.arange(pretrainer.d_model))):
        head = default_pipeline(entry.K, seed=seed, device=device)[-1].fit(E[:, columns], y_train)
        fitted[name] = (min(epoch["valid_loss"] for epoch in head.history_ if "valid_loss" in epoch), head, columns)
    chosen = "level" if fitted["level"][0] <= fitted["embedding"][0] else "embedding"
    _, head, columns = fitted[chosen]
    info = {
        "chose": chosen,
        "loss_level": fitted["level"][0],
        "loss_embedding": fitted["embedding"][0],
        "finetune_epochs_run": head.n_epochs_,
    }
    return _Columns(pretrainer, head, columns), info


def _candidate(description, surface, **params):
    return Method(description, family="candidate", surface=functools.partial(surface, **params))


def _spread(description, **predictor):
    return _candidate(description, plain_pipeline, **HEADLINE, pretrainer=SpreadLevelPretrainer, predictor=predictor)


BESIDE_METHODS = {
    "hepa-level-revin": _candidate(
        'the RevIN encoder never pretrained (0.2.0\'s norm="revin") with the window level beside its embedding: each '
        "channel's mean and standard deviation over the window and over its last 30 steps, standardised on the "
        "training windows",
        beside,
        views=("revin",),
        summary=window_level,
    ),
    "hepa-level-regime": _candidate(
        'hepa-level-revin with the encoder of 0.2.0\'s norm="regime" (regimes found, then the global z-score)',
        beside,
        views=("regime",),
        summary=window_level,
    ),
    "hepa-level-regime-revin": _candidate(
        'hepa-level-revin on windows standardised per operating regime (RegimeNormalizer(None, n_regimes="auto") '
        "fitted on the training windows), the level of the standardised windows; with one regime hepa-level-revin",
        beside,
        views=("revin",),
        summary=window_level,
        regimes=True,
    ),
    "hepa-level-shift": _candidate(
        "hepa-level-regime-revin with the level's recent change instead of the level: per channel the last 30 steps' "
        "mean less the window's in units of the window's standard deviation, and the log ratio of the two",
        beside,
        views=("revin",),
        summary=level_shift,
        regimes=True,
    ),
    "hepa-spread-wd": _spread(
        "hepa-default-auto0-spread with ten times the event head's weight decay (0.1)", weight_decay=0.1
    ),
    "hepa-spread-small": _spread("hepa-default-auto0-spread with an event head of hidden width 64", hidden=64),
    "hepa-spread-select": Method(
        "hepa-default-auto0-spread's event head fitted with and without the window level, the one of lower loss on "
        "the last tenth of the training windows kept",
        family="candidate",
        surface=selected_level,
    ),
    "hepa-beside-multiscale": _candidate(
        "hepa-default-auto0 with gradient boosting's window features (multiscale_features without the window's age) "
        "beside the embedding, standardised on the training windows",
        beside,
        summary=boosting_features,
    ),
    "hepa-beside-trend": _candidate(
        "hepa-beside-multiscale with only each channel's mean and slope over the last 10, 30, 100 steps and the window",
        beside,
        summary=functools.partial(boosting_features, kinds=("mean", "slope")),
    ),
    "hepa-views-global": _candidate(
        'the encoder never pretrained on globally z-scored windows (0.2.0\'s norm="global": no regimes, no level)',
        beside,
        views=("global",),
    ),
    "hepa-views-both": _candidate(
        "hepa-default-auto0's embedding and hepa-views-global's side by side (the same initial weights, two "
        "normalisations of the input)",
        beside,
        views=("auto", "global"),
    ),
}
