"""The numpy side of the event surface: survival labels, label cells with their known mask, training targets, and the
survival quantities a surface implies.

A surface ``P`` of shape (n_samples, K) holds ``P[i, k-1]`` = P(event within
``k`` steps of window ``i``'s end). The labels ``y`` are right-censored
times in the layout of scikit-survival's ``Surv``: fields ``("event",
bool)`` and ``("time", float)``; any other two fields of these dtypes are
read by position (see :func:`check_survival_y`).
"""

import numpy as np
import pandas as pd

from ._docs import fill_doc
from ._interval_labels import interval_label_surface, is_interval_y
from ._survival_fields import (
    CAUSE_FIELD,
    check_cause_codes,
    check_times,
    event_indicator,
    frame_records,
    survival_fields,
)
from ._validation import NON_NEGATIVE_INT, POSITIVE_INT, check_event_indicator, real_numbers, validate_params

__all__ = [
    "CAUSE_DTYPE",
    "SURVIVAL_DTYPE",
    "make_survival_y",
    "check_survival_y",
    "label_surface",
    "check_surface",
    "surface_targets",
    "survival_function",
    "cumulative_hazard",
    "expected_time_to_event",
    "restricted_mean_time_lost",
]

SURVIVAL_DTYPE = np.dtype([("event", bool), ("time", float)])
#: ``y`` with the type of each event: 1, 2, ... (0 where there is none), for competing risks
CAUSE_DTYPE = np.dtype([("event", bool), ("time", float), (CAUSE_FIELD, np.int64)])


def make_survival_y(event, time, cause=None):
    """Build the structured ``y`` of ``("event", bool), ("time", float)`` records, with ``("cause", int)`` when given.

    Parameters
    ----------
    event : array-like of bool, shape (n_samples,)
        True where the event was observed ``time`` steps after the window's
        end: booleans, or numbers that are exactly 0 and 1. Strings and
        other values are refused, never read by truthiness.
    time : array-like of float, shape (n_samples,)
        Steps to the event, or to the end of observation when ``event`` is
        False: numbers (text is refused, not parsed); the estimators and
        metrics refuse negative and non-finite times
        (:func:`check_survival_y`).
    cause : array-like of int, shape (n_samples,), default=None
        The type of each event, for competing risks: 1, 2, ... where
        ``event`` is True, 0 where it is False. None builds ``y`` without
        a cause field, which the estimators read as a single event type.

    Returns
    -------
    y : structured ndarray of shape (n_samples,)
        Of dtype :data:`SURVIVAL_DTYPE`, or :data:`CAUSE_DTYPE` with ``cause``.

    Raises
    ------
    TypeError
        When ``event`` holds other than booleans or numbers, ``time``
        other than numbers, or ``cause`` other than integer codes.
    ValueError
        When ``event`` holds missing values or numbers other than 0 and 1,
        the lengths differ, or ``cause`` gives an event no cause or a
        censored sample a cause.

    Examples
    --------
    >>> make_survival_y([True, False, True], [3, 8, 5], cause=[2, 0, 1]).tolist()
    [(True, 3.0, 2), (False, 8.0, 0), (True, 5.0, 1)]
    """
    event = check_event_indicator(np.asarray(event).ravel(), "event")
    time = real_numbers(np.asarray(time).ravel(), "time")
    if event.shape != time.shape:
        raise ValueError(f"event and time must have the same length, got {event.shape[0]} and {time.shape[0]}.")
    if cause is not None:
        cause = check_cause_codes(np.asarray(cause).ravel(), event)
    y = np.empty(event.shape[0], dtype=SURVIVAL_DTYPE if cause is None else CAUSE_DTYPE)
    y["event"] = event
    y["time"] = time
    if cause is not None:
        y[CAUSE_FIELD] = cause
    return y


def check_survival_y(y, n_samples=None, *, events_within=None):
    """Validate a survival target and return it as ``(event, time)`` arrays.

    ``y`` is a 1-D structured array of two fields, the event indicator and
    the time to the event or to censoring, or a DataFrame of two columns,
    read as the same fields. Fields named ``event`` and ``time`` are read
    by name, in either order, and ``event`` may then also hold numbers that
    are exactly 0 and 1 (strings and other values are refused, never read
    by truthiness). A third field named ``cause`` (the type of each event,
    see :func:`make_survival_y`) is checked here and read by
    :func:`hepa_sklearn.causes.check_cause_y`. Any other two fields are read by
    position, as scikit-survival reads them: the first must be boolean (the
    event indicator) and the second numeric (the time), so scikit-survival's
    ``Surv`` arrays and the targets of its datasets (``("Status",
    "Survival_in_days")``, ``("fstat", "lenfol")``, ...) work as they are.

    Parameters
    ----------
    y : structured ndarray of shape (n_samples,) or DataFrame of two (or three) columns
    n_samples : int, default=None
        The number of samples ``y`` must have; None checks nothing.
    events_within : int, default=None
        A surface estimator's ``K``: ``y`` must then hold an event at most
        this many steps after a window's end, else every cell of the surface
        it learns is negative and the estimator refuses to fit. None checks
        nothing.

    Returns
    -------
    event : ndarray of shape (n_samples,), bool
    time : ndarray of shape (n_samples,), float64

    Raises
    ------
    TypeError
        When ``y`` is not structured (a plain array, a list, a Series) or a
        field has the wrong dtype.
    ValueError
        When ``y`` has other than two fields (or the three named ones), is
        not 1-D, or holds times that are negative or not finite, an event
        without a cause or a cause without an event, or the wrong number of
        samples, or no event within ``events_within`` steps.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([(True, 12.0), (False, 30.0)], dtype=[("Status", bool), ("Survival_in_days", float)])
    >>> event, time = check_survival_y(y)
    >>> event.tolist(), time.tolist()
    ([True, False], [12.0, 30.0])
    """
    if y is None:
        raise ValueError("y is required: a structured array with fields ('event', bool) and ('time', float).")
    if isinstance(y, pd.Series):
        raise TypeError(
            f"y is a pandas Series{f' named {y.name!r}' if y.name is not None else ''}: one column, but y needs "
            "two, the event indicator and the time. Build it with hepa_sklearn.surface.make_survival_y(event, time), "
            "or pass a DataFrame with the columns 'event' and 'time'."
        )
    y = frame_records(y) if isinstance(y, pd.DataFrame) else np.asarray(y)
    names = y.dtype.names
    if names is None:
        raise TypeError(
            "y must be a structured array of two fields, the event indicator (bool) and the time "
            f"(float), got an array of dtype {y.dtype}. Build one with hepa_sklearn.surface.make_survival_y."
        )
    event_name, time_name, cause_name, by_position = survival_fields(names)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}.")
    for name in names:
        if y[name].shape != y.shape:
            raise ValueError(
                f"y's field {name!r} must hold one value per sample, got shape {y[name].shape[1:]} per sample."
            )
    event = event_indicator(np.asarray(y[event_name]), event_name, by_position)
    time = real_numbers(np.asarray(y[time_name]), f"y[{time_name!r}] (the time)")
    check_times(time, f"y[{time_name!r}]")
    if cause_name is not None:
        check_cause_codes(np.asarray(y[cause_name]), event, f"y[{cause_name!r}]")
    if n_samples is not None and time.shape[0] != n_samples:
        raise ValueError(f"y has {time.shape[0]} samples but X has {n_samples}; they must match.")
    if events_within is not None and not (event & (time <= events_within)).any():
        raise ValueError(
            f"y has no event within K={events_within} steps of any window ({int(event.sum())} of its "
            f"{event.size} windows end in an event, none within {events_within} steps): every known cell of "
            "the surface is negative, so there is nothing to learn from. Fit on windows that include the "
            "steps before events, or choose a larger K."
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
    proba = np.asarray(proba)
    if proba.dtype.kind != "b":
        proba = real_numbers(proba, "proba")
    proba = proba.astype(float)
    if proba.ndim != 2:
        raise ValueError(f"proba must be 2-D (n_samples, K), got shape {proba.shape}.")
    if proba.shape[1] < 1:
        raise ValueError(f"proba must have at least one column (horizon), got shape {proba.shape}.")
    if n_samples is not None and proba.shape[0] != n_samples:
        raise ValueError(f"proba has {proba.shape[0]} rows but y has {n_samples} samples; they must match.")
    if not np.all(np.isfinite(proba)):
        raise ValueError("proba contains NaN or infinite values.")
    if probabilities and proba.size and (proba.min() < 0 or proba.max() > 1):
        raise ValueError(f"proba must hold probabilities in [0, 1], found values from {proba.min()} to {proba.max()}.")
    return proba


@validate_params({"K": [POSITIVE_INT], "n_samples": [NON_NEGATIVE_INT]}, prefer_skip_nested_validation=True)
def surface_targets(y, K, n_samples):
    """Labels and known-cell mask of ``y`` packed as (n, 2, K) float32, with the counts of positive and negative known
    cells.

    ``y`` is a survival ``y`` or interval labels (``lower``, ``upper``; see
    :mod:`hepa_sklearn._interval_labels`).

    Raises ValueError when the known cells hold only one class: nothing to learn from.
    """
    if is_interval_y(y):  # a label known only up to an interval, as HorizonClassifier's binary labels
        labels, known = interval_label_surface(y, K, n_samples)
    else:
        check_survival_y(y, n_samples=n_samples, events_within=K)
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


@fill_doc
def cumulative_hazard(proba):
    """Cumulative hazard ``H(k) = -log P(T > k)`` for k = 1..K; ``inf`` where the surface reaches 1.

    This is the continuous-time cumulative hazard of the survival function
    :func:`survival_function`. For the discrete model behind the surface,
    with conditional hazards ``λ_j``, it equals ``Σ_{j<=k} -log(1 - λ_j)``,
    which is at least the sum of the hazards ``Σ_{j<=k} λ_j``.

    %(surface_proba_parameters)s

    Returns
    -------
    hazard : ndarray of shape (n_samples, K), float64
        Non-decreasing in ``k`` when the surface is.

    Examples
    --------
    >>> cumulative_hazard([[0.0, 0.5, 1.0]]).round(4)
    array([[0.    , 0.6931,    inf]])
    """
    survival = survival_function(proba)
    with np.errstate(divide="ignore"):  # a surface at exactly 1 is a certain event: H = inf
        return 0.0 - np.log(survival)  # 0.0 - rather than unary minus: H(k) = 0, not -0


@fill_doc
def expected_time_to_event(proba):
    """Expected time to event truncated at K: ``E[min(T, K)] = Σ_{k=0}^{K-1} P(T > k)``.

    With ``P(T > 0) = 1`` and ``P(T > k) = 1 - proba[:, k-1]`` this is
    ``1 + Σ_{k=1}^{K-1} (1 - proba[:, k-1])``, in [1, K].

    %(surface_proba_parameters)s

    Returns
    -------
    time : ndarray of shape (n_samples,), float64

    Examples
    --------
    >>> expected_time_to_event([[0.5, 1.0, 1.0], [0.0, 0.0, 0.0]])
    array([1.5, 3. ])
    """
    return 1.0 + np.sum(survival_function(proba)[:, :-1], axis=1)


@fill_doc
def restricted_mean_time_lost(proba):
    """Restricted mean time lost within the horizon, ``E[K - min(T, K)] = Σ_{k=1}^{K-1} P(T <= k)``: a risk score.

    ``K`` minus :func:`expected_time_to_event`, in [0, K - 1]: higher means
    an earlier expected event, which is the order scikit-survival's risk
    scores follow, and the ranking is exactly the reverse of the expected
    time's.

    %(surface_proba_parameters)s

    Returns
    -------
    risk : ndarray of shape (n_samples,), float64

    References
    ----------
    Andersen, P. K. (2013). Decomposition of number of life years lost
    according to causes of death. Statistics in Medicine, 32(30), 5278-5285.

    Examples
    --------
    >>> restricted_mean_time_lost([[0.5, 1.0, 1.0], [0.0, 0.0, 0.0]])
    array([1.5, 0. ])
    """
    proba = check_surface(proba, probabilities=True)
    return np.sum(proba[:, :-1], axis=1)
