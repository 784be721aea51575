"""Metrics on event probability surfaces p(t, Δt): per-horizon AUROC and h-AUROC."""

import numpy as np
from sklearn.metrics import roc_auc_score

from .windows import label_surface

__all__ = ["label_surface", "per_horizon_auroc", "h_auroc", "h_auroc_scorer"]

# Paper §4 and App. "Horizon Interval Design": horizons whose event prevalence
# among known cells lies outside this range are skipped as degenerate.
MIN_PREVALENCE = 0.001
MAX_PREVALENCE = 0.999


def _check_proba(proba, n_samples):
    proba = np.asarray(proba, dtype=float)
    if proba.ndim != 2:
        raise ValueError(f"proba must be 2-D (n_samples, K), got shape {proba.shape}.")
    if proba.shape[0] != n_samples:
        raise ValueError(
            f"proba has {proba.shape[0]} rows but y has {n_samples} samples; they must match."
        )
    if not np.all(np.isfinite(proba)):
        raise ValueError("proba contains NaN or infinite values.")
    return proba


def per_horizon_auroc(y_true, proba, *, horizons=None):
    """AUROC of each surface column against its horizon's labels.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        ``proba[i, k-1]`` scores "event within ``k`` steps" for window ``i``.
    horizons : array-like of int, default=None
        1-based horizons to evaluate; None means ``1..K``.

    Returns
    -------
    auroc : ndarray of shape (n_horizons,)
        NaN where the horizon is degenerate (fewer than two classes among the
        known cells, or prevalence outside [0.001, 0.999]).
    """
    y_true = np.asarray(y_true)
    proba = _check_proba(proba, y_true.shape[0])
    K = proba.shape[1]
    labels, known = label_surface(y_true, K)
    if horizons is None:
        horizons = np.arange(1, K + 1)
    horizons = np.asarray(horizons).ravel()
    if horizons.size and not np.all(np.mod(horizons, 1) == 0):
        raise ValueError(f"horizons must be integers, got {horizons.tolist()}.")
    horizons = horizons.astype(int)
    if horizons.size and (horizons.min() < 1 or horizons.max() > K):
        raise ValueError(f"horizons must lie in [1, {K}], got {horizons.min()}..{horizons.max()}.")
    scores = np.full(horizons.shape[0], np.nan)
    for j, horizon in enumerate(horizons):
        column = horizon - 1
        mask = known[:, column]
        target = labels[mask, column]
        if target.size == 0:
            continue
        prevalence = target.mean()
        if not MIN_PREVALENCE <= prevalence <= MAX_PREVALENCE or np.unique(target).size < 2:
            continue
        scores[j] = roc_auc_score(target, proba[mask, column])
    return scores


def h_auroc(y_true, proba, *, horizons=None):
    """Horizon-averaged AUROC: the mean of per-horizon AUROC over non-degenerate horizons.

    Returns NaN when every horizon is degenerate.

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn.windows import make_survival_y, label_surface
    >>> y = make_survival_y([True, True, False], [1, 3, 5])
    >>> labels, _ = label_surface(y, 4)
    >>> float(h_auroc(y, labels))
    1.0
    """
    scores = per_horizon_auroc(y_true, proba, horizons=horizons)
    if np.all(np.isnan(scores)):
        return float("nan")
    return float(np.nanmean(scores))


def h_auroc_scorer(estimator, X, y):
    """Scorer ``(estimator, X, y) -> h-AUROC`` for ``cross_val_score`` and ``GridSearchCV``.

    Calls ``estimator.predict_proba(X)`` and compares the surface with ``y``.
    """
    return h_auroc(y, estimator.predict_proba(X))
