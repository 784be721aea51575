"""Candidate designs for release 0.4.0's headline line, structurally unlike the head and level variations before them.

Each fits on the cell's labelled training windows alone, as the headline line does; the rule that
chooses among them is ``benchmarks/decisions/default_040.md``, committed before their records:

- ``hepa-gbhead``: a gradient-boosted event head. The boosting baseline
  (:class:`~hepa_sklearn.baselines.GradientBoostingEventPredictor`, its search and its surface
  contract: monotone in Δt, censored windows handled as it handles them) reads the headline
  pretrainer's embedding beside its own window features; ``hepa-gbhead-regime`` on
  per-operating-condition z-scores, as ``gbm-regime``.
- ``hepa-ensemble5``: five untrained encoders of different initial weights, their embeddings side by
  side (the window level once), one event head on all of them; the remedy for the seed spread.
- ``hepa-stacked``: :class:`~hepa_sklearn.stacking.StackedSurfaces` of the headline line and the
  boosting baseline, weights chosen on three-fold out-of-fold surfaces over units.
"""

import functools

import numpy as np

from hepa_sklearn.baselines import GradientBoostingEventPredictor, multiscale_features
from hepa_sklearn.stacking import StackedSurfaces

from ..protocols import default_pipeline
from .beside import Beside
from .parts import Method
from .surfaces import gradient_boosting

__all__ = [
    "DESIGN_METHODS",
    "boosted_head",
    "embedding_beside_windows",
    "encoder_ensemble",
    "headline",
    "stacked_surfaces",
]

ENSEMBLE_SEED_STRIDE = 1000  # the k-th encoder of a cell of seed s starts from seed s * 1000 + k
# the headline line as the harness runs it (hepa-default-auto0-knots12): untrained, regimes where found, RevIN, the
# window level beside the embedding, the event head at 12 horizon knots
HEADLINE_PRETRAINER = {"norm": "revin", "regimes": "auto", "window_level": True, "max_epochs": 0}
HEADLINE_PREDICTOR = {"horizon_knots": 12}


def headline(K, *, seed, device="cpu", **pretrainer):
    """The headline line's unfitted pipeline (``hepa-default-auto0-knots12``), ``pretrainer`` changing its
    pretrainer's parameters."""
    return default_pipeline(
        K, seed=seed, device=device, predictor=HEADLINE_PREDICTOR, **{**HEADLINE_PRETRAINER, **pretrainer}
    )


def embedding_beside_windows(embedder, X):
    """Boosting's multiscale window features of ``X`` with the fitted ``embedder``'s embedding beside them."""
    return np.hstack([multiscale_features(X), embedder.transform(X)])


def boosted_head(entry, data, mask, *, epochs, device, seed, encoder=None):
    """The boosting baseline (:func:`~hepa_bench.methods.surfaces.gradient_boosting`: its search, its surface) on
    ``features=``:func:`embedding_beside_windows`, the headline pretrainer fitted on the cell's labelled training
    windows."""
    embedder = headline(entry.K, seed=seed, device=device)[0].fit(data.X_train[mask])
    features = functools.partial(embedding_beside_windows, embedder)
    model, info = gradient_boosting(entry, data, mask, epochs=epochs, device=device, seed=seed, features=features)
    if "gbm_features" in info:
        info["gbm_features"] = "multiscale and the embedding"
    return model, {**info, "n_features": model.regressor_.n_features_in_}


def encoder_ensemble(entry, data, mask, *, epochs, device, seed, encoder=None, n_encoders=5):
    """``n_encoders`` untrained headline pretrainers of different initial weights side by side, the window level
    appended by the first alone, and the headline event head on all their columns."""
    windows, y_train = data.X_train[mask], data.y_train[mask]
    encoders = [
        headline(
            entry.K, seed=seed * ENSEMBLE_SEED_STRIDE + k, device=device, **({"window_level": False} if k else {})
        )[0].fit(windows)
        for k in range(n_encoders)
    ]
    model = Beside(encoders)
    E = model.embed(windows)
    model.head = headline(entry.K, seed=seed, device=device)[-1].fit(E, y_train)
    return model, {"n_features": E.shape[1], "finetune_epochs_run": model.head.n_epochs_}


def stacked_surfaces(entry, data, mask, *, epochs, device, seed, encoder=None, cv=3):
    """The headline line and the boosting baseline mixed by :class:`StackedSurfaces`, its folds over units."""
    X, y, groups = data.X_train[mask], data.y_train[mask], data.g_train[mask]
    estimators = [
        ("hepa", headline(entry.K, seed=seed, device=device)),
        ("gbm", GradientBoostingEventPredictor(K=entry.K, random_state=seed)),
    ]
    model = StackedSurfaces(estimators, cv=cv, random_state=seed).fit(X, y, groups=groups)
    return model, {"stack_weights": [float(w) for w in model.weights_], "stack_oof_score": float(model.oof_score_)}


def _design(description, surface, regime=False, **params):
    return Method(description, family="candidate", surface=functools.partial(surface, **params), regime=regime)


DESIGN_METHODS = {
    "hepa-gbhead": _design(
        "gradient-boosted event head: the boosting baseline (its search, its surface) on the headline pretrainer's "
        "embedding beside its multiscale window features",
        boosted_head,
    ),
    "hepa-gbhead-regime": _design("hepa-gbhead on per-operating-condition z-scores", boosted_head, regime=True),
    "hepa-ensemble5": _design(
        "five untrained headline encoders of different initial weights side by side (the window level once), one "
        "headline event head on all their columns",
        encoder_ensemble,
    ),
    "hepa-stacked": _design(
        "StackedSurfaces of the headline line and the boosting baseline (gbm), weights on 3-fold out-of-fold "
        "surfaces over units",
        stacked_surfaces,
    ),
}
