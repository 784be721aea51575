"""Thresholded projections of a surface: F1, point-adjusted F1, event recall at a false-alarm rate.

Each metric needs a threshold. Choosing it on the data being scored lets the
score see its own labels, so every metric here comes as two functions: one
that picks the threshold (call it on validation data) and one that scores at
a given threshold (call it on test data).

These pick a threshold for a fixed criterion (the best F1, a largest share
of event-free windows that alarm) on one validation set. For a threshold
that weighs the cost of a missed event against a false alarm, or keeps to
an alarm budget, tuned on cross-validation folds, wrap the surface
estimator in :class:`~hepa_sklearn.HorizonClassifier` and tune it with
scikit-learn's ``TunedThresholdClassifierCV`` and
:func:`make_alarm_cost_scorer` or :func:`make_alarm_budget_scorer`.
"""

from numbers import Real

import numpy as np

from .._validation import POSITIVE_INT, Interval, check_event_indicator, real_numbers, validate_params
from ..surface import check_survival_y

__all__ = ["best_f1_threshold", "event_recall", "f1_at_threshold", "false_alarm_threshold", "point_adjust"]


# the parameters every thresholded metric checks alike
_THRESHOLD = {"threshold": [Real], "point_adjusted": ["boolean"]}
_HORIZON = {"horizon": [POSITIVE_INT]}


def _checked_groups(groups, shape):
    if groups is None:
        return None
    groups = np.asarray(groups)
    if groups.shape != shape:
        raise ValueError(f"groups must hold one label per point, shape {shape}; got {groups.shape}.")
    return groups


def _labels_scores(labels, scores, groups, what="scores"):
    labels = np.asarray(labels)
    scores = real_numbers(scores, what) if np.asarray(scores).dtype.kind != "b" else np.asarray(scores, dtype=float)
    if labels.ndim != 1 or scores.shape != labels.shape:
        raise ValueError(
            f"labels and {what} must be 1-D of the same length; got shapes {labels.shape} and {scores.shape}."
        )
    labels = check_event_indicator(labels, "labels")
    if np.isnan(scores).any():
        raise ValueError(f"{what} contain NaN.")
    return labels, scores, _checked_groups(groups, labels.shape)


def _segments(labels, groups):
    """Segment id of each positive point (-1 for negatives): runs of consecutive positives within a group."""
    starts = labels.copy()
    starts[1:] &= ~labels[:-1] | (False if groups is None else groups[1:] != groups[:-1])
    segment = np.cumsum(starts) - 1
    return np.where(labels, segment, -1)


def point_adjust(labels, predictions, *, groups=None):
    """Point-adjusted predictions: every point of a positive segment is flagged once any point of it is.

    A segment is a run of consecutive positive labels (within one group
    when ``groups`` is given; points are taken in input order). Negative
    points keep their predictions.

    This is the adjustment behind "point-adjusted F1" (PA-F1; Xu et al.,
    "Anomaly Transformer", ICLR 2022). It inflates F1: one alarm anywhere
    in a segment of length ``L`` is credited as ``L`` true positives, so
    on data with long segments a detector that fires rarely and at random
    scores a high recall, and with it a high F1 (Kim et al., "Towards a
    Rigorous Evaluation of Time-Series Anomaly Detection", AAAI 2022). Read
    PA-F1 beside the plain F1 of the same predictions.

    Parameters
    ----------
    labels : array-like of shape (n_points,)
        Binary labels.
    predictions : array-like of shape (n_points,)
        Binary predictions.
    groups : array-like of shape (n_points,), default=None
        Series of each point; a segment never spans two series.

    Returns
    -------
    adjusted : ndarray of shape (n_points,), dtype bool

    Examples
    --------
    >>> point_adjust([0, 1, 1, 1, 0, 1], [0, 0, 1, 0, 1, 0]).astype(int).tolist()
    [0, 1, 1, 1, 1, 0]
    """
    labels, predictions, groups = _labels_scores(labels, predictions, groups, "predictions")
    predictions = check_event_indicator(predictions, "predictions")
    segment = _segments(labels, groups)
    hit = np.zeros(segment.max() + 1, dtype=bool)
    np.logical_or.at(hit, segment[labels & predictions], True)
    return predictions | (labels & hit[np.maximum(segment, 0)])


def _f1(tp, fp, fn):
    denominator = 2 * tp + fp + fn
    return np.where(denominator > 0, 2 * tp / np.maximum(denominator, 1), np.nan)


@validate_params(_THRESHOLD, prefer_skip_nested_validation=True)
def f1_at_threshold(labels, scores, threshold, *, point_adjusted=False, groups=None):
    """F1 of the predictions ``scores >= threshold``, optionally point-adjusted.

    Parameters
    ----------
    labels : array-like of shape (n_points,)
        Binary labels.
    scores : array-like of shape (n_points,)
        Scores, for example the surface's first column ``p(t, Δt=1)``.
    threshold : float
        Points with a score at or above it are flagged; pick it on
        validation data with :func:`best_f1_threshold`.
    point_adjusted : bool, default=False
        Score the predictions after :func:`point_adjust` (PA-F1), which
        inflates F1 where positive segments are long (see there).
    groups : array-like of shape (n_points,), default=None
        Series of each point, for the segments of the point adjustment.

    Returns
    -------
    f1 : float
        ``2 TP / (2 TP + FP + FN)``; NaN when there is neither a positive
        label nor a flagged point.

    Examples
    --------
    >>> labels, scores = [0, 1, 1, 1, 0], [0.1, 0.2, 0.9, 0.3, 0.6]
    >>> f1_at_threshold(labels, scores, 0.5)  # TP 1, FP 1, FN 2
    0.4
    >>> f1_at_threshold(labels, scores, 0.5, point_adjusted=True)  # TP 3, FP 1
    0.8571428571428571
    """
    labels, scores, groups = _labels_scores(labels, scores, groups)
    predictions = scores >= threshold
    if point_adjusted:
        predictions = point_adjust(labels, predictions, groups=groups)
    tp = np.sum(labels & predictions)
    return float(_f1(tp, np.sum(~labels & predictions), np.sum(labels & ~predictions)))


@validate_params({"point_adjusted": ["boolean"]}, prefer_skip_nested_validation=True)
def best_f1_threshold(labels, scores, *, point_adjusted=False, groups=None):
    """The threshold that maximises (point-adjusted) F1 on these points; call it on validation data.

    The candidates are the distinct scores (flag every point at or above
    one); among thresholds with equal F1 the highest is returned, which
    flags the fewest points. Score test data at the returned threshold
    with :func:`f1_at_threshold`: the F1 of the data the threshold was
    chosen on overstates what it reaches on new data.

    Parameters
    ----------
    labels, scores, point_adjusted, groups
        As in :func:`f1_at_threshold`.

    Returns
    -------
    threshold : float
        NaN when ``labels`` holds no positive (F1 is then undefined at
        every threshold).

    Examples
    --------
    >>> labels, scores = [0, 1, 1, 1, 0], [0.1, 0.2, 0.9, 0.3, 0.6]
    >>> best_f1_threshold(labels, scores)  # flags .2, .3, .6, .9: F1 6/7
    0.2
    >>> best_f1_threshold(labels, scores, point_adjusted=True)  # flags .9 alone: F1 1
    0.9
    """
    labels, scores, groups = _labels_scores(labels, scores, groups)
    if not labels.any():
        return float("nan")
    candidates = np.unique(scores)  # ascending
    negatives = np.sort(scores[~labels])
    fp = negatives.size - np.searchsorted(negatives, candidates, side="left")  # negatives at or above each candidate
    if point_adjusted:
        # a segment counts whole once its best score reaches the threshold
        segment = _segments(labels, groups)[labels]
        best = np.full(segment.max() + 1, -np.inf)
        np.maximum.at(best, segment, scores[labels])
        length = np.bincount(segment)
        order = np.argsort(best)
        cumulative = np.concatenate([[0], np.cumsum(length[order])])
        tp = length.sum() - cumulative[np.searchsorted(best[order], candidates, side="left")]
    else:
        positives = np.sort(scores[labels])
        tp = positives.size - np.searchsorted(positives, candidates, side="left")
    f1 = _f1(tp, fp, labels.sum() - tp)
    return float(candidates[len(f1) - 1 - np.nanargmax(f1[::-1])])


def _window_scores(scores, shape):
    """One finite-or-infinite, never NaN, score per window, as float64."""
    scores = real_numbers(scores, "scores")
    if scores.shape != shape:
        raise ValueError(f"scores must hold one score per window, shape {shape}; got {scores.shape}.")
    if np.isnan(scores).any():
        raise ValueError("scores contain NaN.")
    return scores


def _horizon_labels(y_true, horizon):
    """Per window: ``event within horizon``, and ``known to be event-free over horizon`` (censored later)."""
    event, time = check_survival_y(y_true)
    positive = event & (time <= horizon)
    negative = (time > horizon) | (~event & (time >= horizon))
    return positive, negative, time


@validate_params({"rate": [Interval(Real, 0, 1, closed="both")], **_HORIZON}, prefer_skip_nested_validation=True)
def false_alarm_threshold(y_true, scores, *, rate, horizon):
    """The lowest threshold at which at most ``rate`` of the event-free windows raise an alarm.

    A window is event-free when it is known that no event comes within
    ``horizon`` steps of its end (``time > horizon``, or censored at
    ``time >= horizon``). An alarm is ``score >= threshold``. Call it on
    validation data and count events on test data with :func:`event_recall`.

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    scores : array-like of shape (n_windows,)
        Alarm score of each window, for example the surface's column
        ``p(t, Δt=horizon)``.
    rate : float in [0, 1]
        Largest share of event-free windows allowed to raise an alarm.
    horizon : int
        Steps ahead an alarm looks.

    Returns
    -------
    threshold : float
        With ``n`` event-free windows and ``m = floor(rate * n)`` alarms
        allowed among them: the next float above the ``(m + 1)``-th highest
        event-free score, so exactly the event-free windows scoring above
        it are flagged (ties at it are not); ``-inf`` when ``m = n``
        (every window may be flagged), and NaN when no window is known to
        be event-free.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([False] * 4 + [True], [9, 9, 9, 9, 2])
    >>> threshold = false_alarm_threshold(y, [0.1, 0.2, 0.3, 0.4, 0.35], rate=0.25, horizon=5)
    >>> bool(0.3 < threshold < 0.3 + 1e-12)  # flags 0.4 (1 of 4 event-free) and the event's 0.35
    True
    """
    _, negative, _ = _horizon_labels(y_true, horizon)
    scores = _window_scores(scores, negative.shape)
    free = np.sort(scores[negative])[::-1]  # descending
    if free.size == 0:
        return float("nan")
    allowed = int(np.floor(rate * free.size + 1e-9))  # alarms allowed among the event-free windows
    if allowed >= free.size:
        return float("-inf")
    return float(np.nextafter(free[allowed], np.inf))


@validate_params({"threshold": [Real], **_HORIZON}, prefer_skip_nested_validation=True)
def event_recall(y_true, scores, threshold, *, horizon, groups=None):
    """Share of events with at least one alarm in the ``horizon`` steps before they happen.

    The windows whose next event comes within ``horizon`` steps
    (``event`` and ``1 <= time <= horizon``) are the chances to warn of it.
    Windows are taken in input order, one series (``groups``) at a time;
    consecutive such windows whose ``time`` falls belong to one event, and
    a rise in ``time`` starts the next. An event is recalled when any of
    its windows scores at or above ``threshold`` (pick it on validation
    data with :func:`false_alarm_threshold`).

    Parameters
    ----------
    y_true : structured ndarray with fields ``event`` and ``time``
    scores : array-like of shape (n_windows,)
    threshold : float
    horizon : int
    groups : array-like of shape (n_windows,), default=None
        Series of each window.

    Returns
    -------
    recall : float
        NaN when no window lies within ``horizon`` steps of an event.

    Examples
    --------
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True] * 6, [3, 2, 1, 9, 3, 1])  # two events within 3 steps
    >>> event_recall(y, [0, 0.8, 0, 0, 0.2, 0.3], 0.5, horizon=3)
    0.5
    """
    positive, _, time = _horizon_labels(y_true, horizon)
    scores = _window_scores(scores, positive.shape)
    groups = _checked_groups(groups, positive.shape)
    positive &= time >= 1
    if not positive.any():
        return float("nan")
    index = np.flatnonzero(positive)
    new = np.ones(index.size, dtype=bool)
    new[1:] = (index[1:] != index[:-1] + 1) | (time[index[1:]] >= time[index[:-1]])
    if groups is not None:
        new[1:] |= groups[index[1:]] != groups[index[:-1]]
    event_id = np.cumsum(new) - 1
    recalled = np.zeros(event_id[-1] + 1, dtype=bool)
    np.logical_or.at(recalled, event_id, scores[index] >= threshold)
    return float(recalled.mean())
