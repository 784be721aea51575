"""Interval-censored event labels: the event is known to come after ``lower`` and at most ``upper`` steps after a
window's end.

A binary label "event within ``H`` steps?" is such a label: a positive says
the event came in ``(0, H]`` without saying when, a negative says it comes
in ``(H, inf)``. A right-censored ``(event, time)`` record cannot say the
first exactly (``(True, H)`` claims the event at step ``H`` and makes every
horizon before ``H`` a negative), so the surface estimators read this form
as ``y`` too and train on exactly the cells it determines.
"""

import numpy as np

INTERVAL_DTYPE = np.dtype([("lower", float), ("upper", float)])


def make_interval_y(lower, upper):
    """Structured labels of ``("lower", float), ("upper", float)`` records: the event time T lies in ``(lower, upper]``.

    ``upper = inf`` says no event was seen before the end of the interval's
    knowledge (right censoring at ``lower``).

    Examples
    --------
    >>> make_interval_y([0, 30], [30, np.inf]).tolist()
    [(0.0, 30.0), (30.0, inf)]
    """
    lower = np.asarray(lower, dtype=float).ravel()
    upper = np.asarray(upper, dtype=float).ravel()
    if lower.shape != upper.shape:
        raise ValueError(f"lower and upper must have the same length, got {lower.size} and {upper.size}.")
    y = np.empty(lower.shape[0], dtype=INTERVAL_DTYPE)
    y["lower"] = lower
    y["upper"] = upper
    return y


def is_interval_y(y):
    """Whether ``y`` is a structured array of the fields ``lower`` and ``upper``."""
    return isinstance(y, np.ndarray) and y.dtype.names == INTERVAL_DTYPE.names


def interval_label_surface(y, K, n_samples=None):
    """Labels and known mask (n_samples, K) of interval labels: cell k positive if ``upper <= k``, negative if
    ``lower >= k``.

    Every other cell is unknown: the event may come before or after step k.

    Raises
    ------
    ValueError
        When a bound is NaN, ``lower`` is negative or infinite, ``upper <= lower``,
        or ``y`` has other than ``n_samples`` records.

    Examples
    --------
    >>> labels, known = interval_label_surface(make_interval_y([0, 2], [2, np.inf]), 3)
    >>> labels.tolist(), known.tolist()
    ([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [[False, True, True], [True, True, False]])
    """
    lower, upper = y["lower"].astype(float), y["upper"].astype(float)
    if np.isnan(lower).any() or np.isnan(upper).any():
        raise ValueError("interval labels contain NaN bounds.")
    if not np.all(np.isfinite(lower)) or np.any(lower < 0):
        raise ValueError("interval labels need finite, non-negative lower bounds.")
    if np.any(upper <= lower):
        raise ValueError("interval labels need upper > lower: the event lies in (lower, upper].")
    if n_samples is not None and lower.shape[0] != n_samples:
        raise ValueError(f"y has {lower.shape[0]} samples but X has {n_samples}; they must match.")
    horizons = np.arange(1, K + 1, dtype=float)[None, :]
    positive = upper[:, None] <= horizons
    negative = lower[:, None] >= horizons
    return positive.astype(np.float32), positive | negative
