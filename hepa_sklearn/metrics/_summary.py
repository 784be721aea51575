"""Consistency and time-to-event metrics of event surfaces, and every surface metric in one dict."""

import numpy as np

from .._validation import NON_NEGATIVE_REAL, POSITIVE_REAL, real_numbers, validate_params
from ..surface import check_surface, check_survival_y, expected_time_to_event
from ._calibration import brier_decomposition, expected_calibration_error
from ._ranking import mean_of_valid, per_horizon_auroc, pooled_auprc, pooled_auroc

# The default cap of rul_rmse: remaining useful life is capped at 125 cycles in the C-MAPSS protocol (paper App.
# "Preprocessing", following STAR, Fan et al., 2024); hepa_sklearn.cmapss_protocol.RUL_CAP names it.
RUL_CAP = 125


@validate_params({"tol": [NON_NEGATIVE_REAL]}, prefer_skip_nested_validation=True)
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
    proba = check_surface(proba)
    steps = np.diff(proba, axis=1)  # (n_samples, K - 1)
    if steps.size == 0:
        return float("nan")
    return float(np.mean(steps < -tol))


@validate_params({"cap": [POSITIVE_REAL]}, prefer_skip_nested_validation=True)
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
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, False], [10, 200, 3])
    >>> rul_rmse(y, [13, 121, 50])  # third window unknown; errors 3 and 4
    3.5355339059327378
    """
    event, time = check_survival_y(y_true)
    predicted_time = real_numbers(predicted_time, "predicted_time")
    if predicted_time.ndim != 1:
        raise ValueError(f"predicted_time must be 1-D (n_samples,), got shape {predicted_time.shape}.")
    if predicted_time.shape[0] != time.shape[0]:
        raise ValueError(
            f"predicted_time has {predicted_time.shape[0]} values but y has {time.shape[0]} samples; they must match."
        )
    if not np.all(np.isfinite(predicted_time)):
        raise ValueError("predicted_time contains NaN or infinite values.")
    known = event | (time >= cap)
    if not known.any():
        raise ValueError(
            f"no window has a known time to event up to cap={cap}: every window is censored before the cap."
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
    proba = check_surface(proba, event.shape[0], probabilities=True)
    per_horizon = per_horizon_auroc(y_true, proba)
    metrics = {
        "h_auroc": mean_of_valid(per_horizon),
        "pooled_auroc": pooled_auroc(y_true, proba),
        "pooled_auprc": pooled_auprc(y_true, proba),
        "ece": expected_calibration_error(y_true, proba),
        **brier_decomposition(y_true, proba),
        "monotonicity_violation_rate": monotonicity_violation_rate(proba),
        "rul_rmse": rul_rmse(y_true, expected_time_to_event(proba), cap=cap),
    }
    metrics["per_horizon_auroc"] = [float(score) for score in per_horizon]
    return metrics
