"""Calibration metrics of event surfaces over their known cells: expected calibration error and the Brier
decomposition."""

import numpy as np

from .._validation import POSITIVE_INT, validate_params
from ._ranking import known_cells

# Paper App. "Calibration": ECE and the Murphy decomposition use 10 equal-width bins.
CALIBRATION_BINS = 10


def binned_forecasts(labels, scores, n_bins):
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


@validate_params({"n_bins": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
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
        Equal-width bins on [0, 1].

    Returns
    -------
    ece : float
        In [0, 1]; NaN when no cell is known.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, False], [1, 5])
    >>> round(expected_calibration_error(y, [[0.9], [0.3]]), 6)  # (|0.9 - 1| + |0.3 - 0|) / 2
    0.2
    """
    labels, scores = known_cells(y_true, proba, probabilities=True)
    if labels.size == 0:
        return float("nan")
    # n_b |p̄_b - ō_b| = |Σ p - Σ o| within each bin
    _, forecast, outcome = binned_forecasts(labels, scores, n_bins)
    return float(np.abs(forecast - outcome).sum() / labels.size)


@validate_params({"n_bins": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
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
        Equal-width bins on [0, 1].

    Returns
    -------
    scores : dict
        ``brier``, ``reliability``, ``resolution`` and ``uncertainty`` as
        floats; all NaN when no cell is known.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, False, True, False], [1, 5, 1, 5])
    >>> parts = brier_decomposition(y, [[0.75], [0.25], [0.75], [0.75]])
    >>> {name: round(value, 6) for name, value in parts.items()}
    {'brier': 0.1875, 'reliability': 0.020833, 'resolution': 0.083333, 'uncertainty': 0.25}
    >>> round(parts["reliability"] - parts["resolution"] + parts["uncertainty"], 6)
    0.1875
    """
    labels, scores = known_cells(y_true, proba, probabilities=True)
    names = ("brier", "reliability", "resolution", "uncertainty")
    if labels.size == 0:
        return dict.fromkeys(names, float("nan"))
    n_cells = labels.size
    count, forecast, outcome = binned_forecasts(labels, scores, n_bins)
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
    return {name: float(value) for name, value in zip(names, values, strict=True)}
