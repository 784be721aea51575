"""Ranking metrics of event surfaces: per-horizon and horizon-averaged AUROC, pooled AUROC and AUPRC, the scorer."""

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

from ..surface import check_surface, check_survival_y, label_surface

# Paper §4 and App. "Horizon Interval Design": horizons whose event prevalence
# among known cells lies outside this range are skipped as degenerate.
MIN_PREVALENCE = 0.001
MAX_PREVALENCE = 0.999


def known_cells(y_true, proba, *, probabilities=False):
    """Labels and scores of the known cells of the surface, flattened, as float64."""
    event, _ = check_survival_y(y_true)
    proba = check_surface(proba, event.shape[0], probabilities=probabilities)
    labels, known = label_surface(y_true, proba.shape[1])
    return labels[known].astype(float), proba[known]


def mean_of_valid(scores):
    if np.all(np.isnan(scores)):
        return float("nan")
    return float(np.nanmean(scores))


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
    event, _ = check_survival_y(y_true)
    proba = check_surface(proba, event.shape[0])
    K = proba.shape[1]
    labels, known = label_surface(y_true, K)
    if horizons is None:
        horizons = np.arange(1, K + 1)
    horizons = np.asarray(horizons).ravel()
    if horizons.dtype.kind not in "iuf":
        raise TypeError(f"horizons must be integers, got {horizons.tolist()} (dtype {horizons.dtype}).")
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
    >>> from hepa_sklearn.surface import label_surface, make_survival_y
    >>> y = make_survival_y([True, True, False], [1, 3, 5])
    >>> labels, _ = label_surface(y, 4)
    >>> float(h_auroc(y, labels))
    1.0
    """
    return mean_of_valid(per_horizon_auroc(y_true, proba, horizons=horizons))


def h_auroc_scorer(estimator, X, y):
    """Scorer ``(estimator, X, y) -> h-AUROC`` for ``cross_val_score`` and ``GridSearchCV``.

    Calls ``estimator.predict_proba(X)`` and compares the surface with ``y``.
    """
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(
            f"h_auroc_scorer needs an estimator whose predict_proba returns the surface (n_samples, K); "
            f"{type(estimator).__name__} has no predict_proba."
        )
    return h_auroc(y, estimator.predict_proba(X))


def pooled_auroc(y_true, proba):
    """ROC AUC over all known cells of the surface pooled across horizons.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Scores; any finite values (only their order matters).

    Returns
    -------
    score : float
        NaN when the known cells hold fewer than two classes.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, False], [1, 5])
    >>> pooled_auroc(y, [[0.6, 0.8], [0.7, 0.2]])  # 0.6 ranks below the negative 0.7
    0.75
    """
    labels, scores = known_cells(y_true, proba)
    if np.unique(labels).size < 2:
        return float("nan")
    return float(roc_auc_score(labels, scores))


def pooled_auprc(y_true, proba):
    """Average precision over all known cells of the surface pooled across horizons.

    Uses ``sklearn.metrics.average_precision_score``: the mean of the precision
    at each positive's threshold, weighted by the recall gained there.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Scores; any finite values (only their order matters).

    Returns
    -------
    score : float
        NaN when the known cells hold fewer than two classes.
    """
    labels, scores = known_cells(y_true, proba)
    if np.unique(labels).size < 2:
        return float("nan")
    return float(average_precision_score(labels, scores))
