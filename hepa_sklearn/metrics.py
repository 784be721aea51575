"""Metrics on event probability surfaces p(t, Δt): ranking, calibration, consistency, RUL."""

import numpy as np
from sklearn.metrics import average_precision_score, roc_auc_score

from ._validation import integer, real
from .windows import check_survival_y, label_surface

__all__ = [
    "label_surface",
    "per_horizon_auroc",
    "h_auroc",
    "h_auroc_scorer",
    "pooled_auroc",
    "pooled_auprc",
    "expected_calibration_error",
    "brier_decomposition",
    "monotonicity_violation_rate",
    "expected_time_to_event",
    "rul_rmse",
    "surface_metrics",
]

# Paper §4 and App. "Horizon Interval Design": horizons whose event prevalence
# among known cells lies outside this range are skipped as degenerate.
MIN_PREVALENCE = 0.001
MAX_PREVALENCE = 0.999

# Paper App. "Calibration": ECE and the Murphy decomposition use 10 equal-width bins.
CALIBRATION_BINS = 10

# Paper App. "Preprocessing": C-MAPSS remaining useful life is capped at 125
# cycles, following STAR (Fan et al., 2024).
RUL_CAP = 125


def _check_proba(proba, n_samples=None, *, probabilities=False):
    """Validate a surface: 2-D with at least one column, finite, ``n_samples`` rows.

    With ``probabilities`` the values must also lie in [0, 1].
    """
    proba = np.asarray(proba, dtype=float)
    if proba.ndim != 2:
        raise ValueError(f"proba must be 2-D (n_samples, K), got shape {proba.shape}.")
    if proba.shape[1] < 1:
        raise ValueError(f"proba must have at least one column (horizon), got shape {proba.shape}.")
    if n_samples is not None and proba.shape[0] != n_samples:
        raise ValueError(
            f"proba has {proba.shape[0]} rows but y has {n_samples} samples; they must match."
        )
    if not np.all(np.isfinite(proba)):
        raise ValueError("proba contains NaN or infinite values.")
    if probabilities and proba.size and (proba.min() < 0 or proba.max() > 1):
        raise ValueError(
            f"proba must hold probabilities in [0, 1], found values from {proba.min()} "
            f"to {proba.max()}."
        )
    return proba


def _known_cells(y_true, proba, *, probabilities=False):
    """Labels and scores of the known cells of the surface, flattened, as float64."""
    event, _ = check_survival_y(y_true)
    proba = _check_proba(proba, event.shape[0], probabilities=probabilities)
    labels, known = label_surface(y_true, proba.shape[1])
    return labels[known].astype(float), proba[known]


def _check_argument(name, value, rule):
    """Raise ValueError naming ``name`` when ``value`` breaks a ``_validation`` rule."""
    predicate, description = rule
    if not predicate(value):
        raise ValueError(f"{name} must be {description}, got {value!r}.")


def _binned_forecasts(labels, scores, n_bins):
    """Cell count, forecast sum and outcome sum of each equal-width bin on [0, 1].

    Bin ``b`` holds ``b / n_bins <= p < (b + 1) / n_bins``; ``p = 1`` goes in
    the last bin. ``floor(p * n_bins)`` puts 0.3 in bin 3 of 10, where edges
    from ``linspace`` would put it in bin 2 (``linspace(0, 1, 11)[3]`` rounds
    up to 0.30000000000000004).
    """
    bins = np.minimum((scores * n_bins).astype(int), n_bins - 1)
    count = np.bincount(bins, minlength=n_bins).astype(float)
    forecast = np.bincount(bins, weights=scores, minlength=n_bins)
    outcome = np.bincount(bins, weights=labels, minlength=n_bins)
    return count, forecast, outcome


def _mean_of_valid(scores):
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
    return _mean_of_valid(per_horizon_auroc(y_true, proba, horizons=horizons))


def h_auroc_scorer(estimator, X, y):
    """Scorer ``(estimator, X, y) -> h-AUROC`` for ``cross_val_score`` and ``GridSearchCV``.

    Calls ``estimator.predict_proba(X)`` and compares the surface with ``y``.
    """
    return h_auroc(y, estimator.predict_proba(X))


class SurfaceScoreMixin:
    """``score(X, y)``: the h-AUROC of ``self.predict_proba(X)`` against ``y``, for surface estimators."""

    def score(self, X, y):
        """h-AUROC of the predicted surface against ``y``."""
        return h_auroc(y, self.predict_proba(X))


def pooled_auroc(y_true, proba):
    """ROC AUC over all known cells of the surface pooled across horizons.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Scores; any finite values (only their order matters).

    Returns
    -------
    auroc : float
        NaN when the known cells hold fewer than two classes.

    Examples
    --------
    >>> from hepa_sklearn.windows import make_survival_y
    >>> y = make_survival_y([True, False], [1, 5])
    >>> pooled_auroc(y, [[0.6, 0.8], [0.7, 0.2]])  # 0.6 ranks below the negative 0.7
    0.75
    """
    labels, scores = _known_cells(y_true, proba)
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
    auprc : float
        NaN when the known cells hold fewer than two classes.
    """
    labels, scores = _known_cells(y_true, proba)
    if np.unique(labels).size < 2:
        return float("nan")
    return float(average_precision_score(labels, scores))


def expected_calibration_error(y_true, proba, *, n_bins=CALIBRATION_BINS):
    """Expected calibration error over the known cells, with equal-width bins on [0, 1].

    ``ECE = Σ_b (n_b / N) |mean(p in b) - mean(label in b)|``, where ``N`` is
    the number of known cells and bin ``b`` holds ``b / n_bins <= p <
    (b + 1) / n_bins`` (``p = 1`` goes in the last bin).

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Probabilities in [0, 1].
    n_bins : int, default=10

    Returns
    -------
    ece : float
        In [0, 1]; NaN when no cell is known.

    Examples
    --------
    >>> from hepa_sklearn.windows import make_survival_y
    >>> y = make_survival_y([True, False], [1, 5])
    >>> round(expected_calibration_error(y, [[0.9], [0.3]]), 6)  # (|0.9 - 1| + |0.3 - 0|) / 2
    0.2
    """
    _check_argument("n_bins", n_bins, integer(1))
    labels, scores = _known_cells(y_true, proba, probabilities=True)
    if labels.size == 0:
        return float("nan")
    # n_b |p̄_b - ō_b| = |Σ p - Σ o| within each bin
    _, forecast, outcome = _binned_forecasts(labels, scores, n_bins)
    return float(np.abs(forecast - outcome).sum() / labels.size)


def brier_decomposition(y_true, proba, *, n_bins=CALIBRATION_BINS):
    """Brier score over the known cells and its binned Murphy decomposition.

    With ``N`` known cells, bins as in :func:`expected_calibration_error`,
    ``n_b`` cells in bin ``b``, mean forecast ``p̄_b``, event rate ``ō_b`` and
    overall event rate ``ō``:

    - ``brier = (1 / N) Σ_cells (p - label)²``
    - ``reliability = Σ_b (n_b / N) (p̄_b - ō_b)²``
    - ``resolution = Σ_b (n_b / N) (ō_b - ō)²``
    - ``uncertainty = ō (1 - ō)``

    ``brier ≈ reliability - resolution + uncertainty``, exactly when every
    bin holds a single distinct forecast value. Otherwise the gap is the
    within-bin forecast variance minus twice the within-bin covariance of
    forecast and label, averaged over bins; with bins of width
    ``w = 1 / n_bins`` it is at most ``w / 2 + w² / 4`` in absolute value.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Probabilities in [0, 1].
    n_bins : int, default=10

    Returns
    -------
    scores : dict
        ``brier``, ``reliability``, ``resolution`` and ``uncertainty`` as
        floats; all NaN when no cell is known.

    Examples
    --------
    >>> from hepa_sklearn.windows import make_survival_y
    >>> y = make_survival_y([True, False, True, False], [1, 5, 1, 5])
    >>> parts = brier_decomposition(y, [[0.75], [0.25], [0.75], [0.75]])
    >>> {name: round(value, 6) for name, value in parts.items()}
    {'brier': 0.1875, 'reliability': 0.020833, 'resolution': 0.083333, 'uncertainty': 0.25}
    >>> round(parts["reliability"] - parts["resolution"] + parts["uncertainty"], 6)
    0.1875
    """
    _check_argument("n_bins", n_bins, integer(1))
    labels, scores = _known_cells(y_true, proba, probabilities=True)
    names = ("brier", "reliability", "resolution", "uncertainty")
    if labels.size == 0:
        return dict.fromkeys(names, float("nan"))
    n_cells = labels.size
    count, forecast, outcome = _binned_forecasts(labels, scores, n_bins)
    filled = count > 0
    count, forecast, outcome = count[filled], forecast[filled], outcome[filled]
    mean_forecast = forecast / count
    event_rate = outcome / count
    base_rate = labels.mean()
    values = (
        np.mean((scores - labels) ** 2),
        np.sum(count * (mean_forecast - event_rate) ** 2) / n_cells,
        np.sum(count * (event_rate - base_rate) ** 2) / n_cells,
        base_rate * (1.0 - base_rate),
    )
    return {name: float(value) for name, value in zip(names, values)}


def monotonicity_violation_rate(proba, *, tol=0.0):
    """Fraction of adjacent horizon pairs where the surface decreases by more than ``tol``.

    Counts pairs ``(i, k)`` with ``proba[i, k+1] < proba[i, k] - tol`` among
    all ``n_samples * (K - 1)`` pairs. A cumulative event probability cannot
    decrease with the horizon, so any violation is an inconsistency.

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
    tol : float, default=0.0
        Decreases up to ``tol`` are not counted.

    Returns
    -------
    rate : float
        In [0, 1]; NaN when there is no pair (``K = 1`` or no rows).

    Examples
    --------
    >>> monotonicity_violation_rate([[0.1, 0.3, 0.2], [0.1, 0.2, 0.2]])
    0.25
    """
    _check_argument("tol", tol, real(0.0))
    proba = _check_proba(proba)
    steps = np.diff(proba, axis=1)  # (n_samples, K - 1)
    if steps.size == 0:
        return float("nan")
    return float(np.mean(steps < -tol))


def expected_time_to_event(proba):
    """Expected time to event truncated at K: ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``.

    With ``P(T > 0) = 1`` and ``P(T > k) = 1 - proba[:, k-1]`` this is
    ``1 + Σ_{k=1}^{K-1} (1 - proba[:, k-1])``, in [1, K].

    Parameters
    ----------
    proba : array-like of shape (n_samples, K)
        Probabilities in [0, 1], ``proba[i, k-1]`` = P(event within k steps).

    Returns
    -------
    time : ndarray of shape (n_samples,), float64

    Examples
    --------
    >>> expected_time_to_event([[0.5, 1.0, 1.0], [0.0, 0.0, 0.0]])
    array([1.5, 3. ])
    """
    proba = _check_proba(proba, probabilities=True)
    return 1.0 + np.sum(1.0 - proba[:, :-1], axis=1)


def rul_rmse(y_true, predicted_time, *, cap=RUL_CAP):
    """Root mean squared error of the time to event, both sides capped at ``cap``.

    Compares ``min(predicted_time, cap)`` with ``min(time, cap)`` over the
    windows whose capped truth is known: those with an observed event, and
    censored ones observed for at least ``cap`` steps.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    predicted_time : array-like of shape (n_samples,)
    cap : float, default=125
        The remaining-useful-life cap of the C-MAPSS protocol.

    Returns
    -------
    rmse : float

    Raises
    ------
    ValueError
        When no window has a known capped truth (every window is censored
        before ``cap``).

    Examples
    --------
    >>> from hepa_sklearn.windows import make_survival_y
    >>> y = make_survival_y([True, True, False], [10, 200, 3])
    >>> rul_rmse(y, [13, 121, 50])  # third window unknown; errors 3 and 4
    3.5355339059327378
    """
    _check_argument("cap", cap, real(0.0, low_open=True))
    event, time = check_survival_y(y_true)
    predicted_time = np.asarray(predicted_time, dtype=float)
    if predicted_time.ndim != 1:
        raise ValueError(
            f"predicted_time must be 1-D (n_samples,), got shape {predicted_time.shape}."
        )
    if predicted_time.shape[0] != time.shape[0]:
        raise ValueError(
            f"predicted_time has {predicted_time.shape[0]} values but y has {time.shape[0]} "
            "samples; they must match."
        )
    if not np.all(np.isfinite(predicted_time)):
        raise ValueError("predicted_time contains NaN or infinite values.")
    known = event | (time >= cap)
    if not known.any():
        raise ValueError(
            f"no window has a known time to event up to cap={cap}: every window is censored "
            "before the cap."
        )
    error = np.minimum(predicted_time[known], cap) - np.minimum(time[known], cap)
    return float(np.sqrt(np.mean(error**2)))


def surface_metrics(y_true, proba, *, cap=RUL_CAP):
    """Every surface metric in one dict of plain floats, for benchmark tables.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    proba : array-like of shape (n_samples, K)
        Probabilities in [0, 1].
    cap : float, default=125
        Cap of :func:`rul_rmse`, which scores :func:`expected_time_to_event`;
        that prediction is truncated at K, so with ``K < cap`` it never
        reaches the cap.

    Returns
    -------
    metrics : dict
        ``h_auroc``, ``pooled_auroc``, ``pooled_auprc``, ``ece``, ``brier``,
        ``reliability``, ``resolution``, ``uncertainty``,
        ``monotonicity_violation_rate``, ``rul_rmse`` (floats, NaN where
        undefined) and ``per_horizon_auroc`` (list of K floats, NaN for
        degenerate horizons). ECE and the Brier decomposition use 10 bins.

    Raises
    ------
    ValueError
        For invalid input, and where :func:`rul_rmse` raises.
    """
    event, _ = check_survival_y(y_true)
    proba = _check_proba(proba, event.shape[0], probabilities=True)
    per_horizon = per_horizon_auroc(y_true, proba)
    metrics = {
        "h_auroc": _mean_of_valid(per_horizon),
        "pooled_auroc": pooled_auroc(y_true, proba),
        "pooled_auprc": pooled_auprc(y_true, proba),
        "ece": expected_calibration_error(y_true, proba),
        **brier_decomposition(y_true, proba),
        "monotonicity_violation_rate": monotonicity_violation_rate(proba),
        "rul_rmse": rul_rmse(y_true, expected_time_to_event(proba), cap=cap),
    }
    metrics["per_horizon_auroc"] = [float(score) for score in per_horizon]
    return metrics
