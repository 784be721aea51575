"""The numpy side of the event surface: survival labels, label cells with their known mask, training targets, expected time, survival function.

A surface ``P`` of shape (n_samples, K) holds ``P[i, k-1]`` = P(event within
``k`` steps of window ``i``'s end). The labels ``y`` are right-censored
times in the layout of scikit-survival's ``Surv``: fields ``("event",
bool)`` and ``("time", float)``.
"""

import numpy as np

from ._validation import POSITIVE_INT, validate_params

__all__ = [
    "SURVIVAL_DTYPE",
    "make_survival_y",
    "check_survival_y",
    "label_surface",
    "check_surface",
    "surface_targets",
    "survival_function",
    "expected_time_to_event",
]

SURVIVAL_DTYPE = np.dtype([("event", bool), ("time", float)])


def make_survival_y(event, time):
    """Build the structured ``y`` of ``("event", bool), ("time", float)`` records.

    Parameters
    ----------
    event : array-like of bool, shape (n_samples,)
        True where the event was observed ``time`` steps after the window's end.
    time : array-like of float, shape (n_samples,)
        Steps to the event, or to the end of observation when ``event`` is False.

    Returns
    -------
    y : structured ndarray of shape (n_samples,)
    """
    event = np.asarray(event, dtype=bool).ravel()
    time = np.asarray(time, dtype=float).ravel()
    if event.shape != time.shape:
        raise ValueError(
            f"event and time must have the same length, got {event.shape[0]} and {time.shape[0]}."
        )
    y = np.empty(event.shape[0], dtype=SURVIVAL_DTYPE)
    y["event"] = event
    y["time"] = time
    return y


def check_survival_y(y, n_samples=None):
    """Validate a survival target and return it as ``(event, time)`` arrays.

    Accepts a structured array with fields ``event`` and ``time`` (the layout
    of scikit-survival's ``Surv``). Raises ``TypeError`` or ``ValueError``
    naming the problem otherwise.
    """
    if y is None:
        raise ValueError(
            "y is required: a structured array with fields ('event', bool) and ('time', float)."
        )
    y = np.asarray(y)
    names = y.dtype.names
    if names is None:
        raise TypeError(
            "y must be a structured array with fields ('event', bool) and ('time', float), "
            f"got an array of dtype {y.dtype}. Build one with hepa_sklearn.windows.make_survival_y."
        )
    missing = [field for field in ("event", "time") if field not in names]
    if missing:
        raise ValueError(f"y is missing the field(s) {missing}; it has {list(names)}.")
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}.")
    event = np.asarray(y["event"]).astype(bool)
    try:
        time = np.asarray(y["time"], dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"y['time'] must be numeric, got dtype {y['time'].dtype}.") from exc
    if not np.all(np.isfinite(time)):
        raise ValueError("y['time'] contains NaN or infinite values.")
    if np.any(time < 0):
        raise ValueError(f"y['time'] must be non-negative, found minimum {time.min()}.")
    if n_samples is not None and time.shape[0] != n_samples:
        raise ValueError(
            f"y has {time.shape[0]} samples but X has {n_samples}; they must match."
        )
    return event, time


@validate_params({"K": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
def label_surface(y, K):
    """Binary event surface and mask of known cells for horizons ``1..K``.

    Cell ``(i, k-1)`` answers "does the event happen within ``k`` steps of
    window ``i``'s end". It is positive when ``event`` and ``time <= k``,
    negative when ``time > k`` (or censored exactly at ``k``), and unknown
    when the window is censored before ``k`` (``not event and time < k``).

    Parameters
    ----------
    y : structured ndarray with fields ``event`` and ``time``
    K : int
        Number of unit-step horizons.

    Returns
    -------
    labels : ndarray of shape (n_samples, K), dtype float32
        1.0 for positive cells, 0.0 otherwise (including unknown cells).
    known : ndarray of shape (n_samples, K), dtype bool
        False for unknown (censored) cells, which losses and metrics ignore.

    Examples
    --------
    >>> labels, known = label_surface(make_survival_y([True, False], [2, 1]), 3)
    >>> labels.tolist(), known.tolist()
    ([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [[True, True, True], [True, False, False]])
    """
    event, time = check_survival_y(y)
    horizons = np.arange(1, K + 1, dtype=float)[None, :]
    time = time[:, None]
    event = event[:, None]
    labels = (event & (time <= horizons)).astype(np.float32)
    known = event | (time >= horizons)
    return labels, known


def check_surface(proba, n_samples=None, *, probabilities=False):
    """Validate a surface: 2-D with at least one column, finite, ``n_samples`` rows; float64.

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


def surface_targets(y, K, n_samples):
    """Labels and known-cell mask of ``y`` packed as (n, 2, K) float32, with the counts of positive and negative known cells.

    Raises ValueError when the known cells hold only one class: nothing to learn from.
    """
    check_survival_y(y, n_samples=n_samples)
    labels, known = label_surface(y, K)
    n_pos = float((labels * known).sum())
    n_neg = float(known.sum()) - n_pos
    if n_pos == 0:
        raise ValueError(
            f"y has no event within K={K} steps of any window: every known cell is "
            "negative, so there is nothing to learn from."
        )
    if n_neg == 0:
        raise ValueError(
            f"y has no known negative cell within K={K} steps: every window has its "
            "event at horizon 1 or is censored, so there is nothing to learn from."
        )
    return np.stack([labels, known.astype(np.float32)], axis=1), n_pos, n_neg


def survival_function(proba):
    """P(T > k) for k = 1..K: one minus the surface, non-increasing in k when the surface is monotone.

    Examples
    --------
    >>> survival_function([[0.25, 1.0]])
    array([[0.75, 0.  ]])
    """
    return 1.0 - check_surface(proba, probabilities=True)


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
    return 1.0 + np.sum(survival_function(proba)[:, :-1], axis=1)
