"""Maintenance alarm objectives for binary predictions at a horizon: the cost of misses and false alarms, recall within
an alarm budget; their scorers.

The scorers are built with ``sklearn.metrics.make_scorer`` on the
predicted classes, so ``TunedThresholdClassifierCV(scoring=...)`` tunes a
classifier's threshold for them, as :class:`~hepa_sklearn.HorizonClassifier`'s.
Every count is a count of windows: a failure is seen by each window within
the horizon before it, so it counts once per such window.
"""

from numbers import Real

import numpy as np
from sklearn.metrics import make_scorer

from .._validation import POSITIVE_REAL, Interval, check_event_indicator, validate_params

__all__ = ["alarm_budget_score", "alarm_cost", "make_alarm_budget_scorer", "make_alarm_cost_scorer"]

_COSTS = {
    "missed_failure_cost": [Interval(Real, 0, None, closed="left")],
    "false_alarm_cost": [Interval(Real, 0, None, closed="left")],
}
_BUDGET = {"alarms": [POSITIVE_REAL], "per_steps": [POSITIVE_REAL], "steps_per_window": [POSITIVE_REAL]}


def _labels_predictions(y_true, y_pred):
    y_true = check_event_indicator(np.asarray(y_true).ravel(), "y_true")
    y_pred = check_event_indicator(np.asarray(y_pred).ravel(), "y_pred")
    if y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(
            f"y_true and y_pred must be non-empty and of the same length, got {y_true.size} and {y_pred.size}."
        )
    return y_true, y_pred


@validate_params(_COSTS, prefer_skip_nested_validation=True)
def alarm_cost(y_true, y_pred, *, missed_failure_cost, false_alarm_cost):
    """Mean cost per window of a set of alarms: missed failures and false alarms, each at its price.

    ``(missed_failure_cost * FN + false_alarm_cost * FP) / n_windows``,
    where a false negative is a window whose failure comes within the
    horizon and that raises no alarm, and a false positive a window that
    alarms with no failure within the horizon. Only the ratio of the two
    costs moves the best threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_windows,)
        Binary labels at the horizon (see :func:`~hepa_sklearn.classifier.label_at_horizon`).
    y_pred : array-like of shape (n_windows,)
        Alarms: True (or 1) where the window raises one.
    missed_failure_cost : float >= 0
        Cost of a positive window without an alarm.
    false_alarm_cost : float >= 0
        Cost of an alarm in a negative window.

    Returns
    -------
    cost : float

    Examples
    --------
    >>> alarm_cost([1, 1, 0, 0], [1, 0, 1, 0], missed_failure_cost=10, false_alarm_cost=1)  # one miss, one false alarm
    2.75
    """
    y_true, y_pred = _labels_predictions(y_true, y_pred)
    misses = np.sum(y_true & ~y_pred)
    false_alarms = np.sum(~y_true & y_pred)
    return float((missed_failure_cost * misses + false_alarm_cost * false_alarms) / y_true.size)


@validate_params(_BUDGET, prefer_skip_nested_validation=True)
def alarm_budget_score(y_true, y_pred, *, alarms, per_steps, steps_per_window=1):
    """Recall of the positive windows when the alarms keep to a budget; below 0 when they exceed it.

    Each window stands for ``steps_per_window`` steps of its unit (the
    stride of the windowing), so the alarm rate is ``a = (alarming
    windows / n_windows) * per_steps / steps_per_window`` alarms per unit
    per ``per_steps`` steps. Within the budget (``a <= alarms``) the score
    is the recall ``TP / (TP + FN)`` (0 without positives); over it, the
    score is ``alarms / a - 1``, in (-1, 0), so any alarm set within the
    budget beats any over it, and among those over it the one nearest the
    budget scores highest. Maximising it (``TunedThresholdClassifierCV``)
    finds the threshold that catches most failures within the budget.

    Parameters
    ----------
    y_true : array-like of shape (n_windows,)
        Binary labels at the horizon.
    y_pred : array-like of shape (n_windows,)
        Alarms.
    alarms : float > 0
        Alarms allowed per unit per ``per_steps`` steps.
    per_steps : float > 0
        The period of the budget, in steps.
    steps_per_window : float > 0, default=1
        Steps between consecutive windows of a unit.

    Returns
    -------
    score : float in (-1, 1]

    Examples
    --------
    >>> y_true, y_pred = [1, 1, 0, 0, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0, 0, 0]  # 2 alarms in 8 windows
    >>> alarm_budget_score(y_true, y_pred, alarms=1, per_steps=4)  # 1 alarm per 4 steps: within, recall 1/2
    0.5
    >>> alarm_budget_score(y_true, y_pred, alarms=1, per_steps=8)  # 2 alarms per 8 steps: twice the budget
    -0.5
    """
    y_true, y_pred = _labels_predictions(y_true, y_pred)
    rate = y_pred.mean() * per_steps / steps_per_window
    if rate > alarms:
        return float(alarms / rate - 1.0)
    positives = y_true.sum()
    return float((y_true & y_pred).sum() / positives) if positives else 0.0


@validate_params(_COSTS, prefer_skip_nested_validation=True)
def make_alarm_cost_scorer(*, missed_failure_cost, false_alarm_cost):
    """Scorer of :func:`alarm_cost` on a classifier's ``predict``, negated so that higher is better.

    Pass it to ``TunedThresholdClassifierCV(scoring=...)`` to pick the
    threshold of least cost, on grouped folds (``cv=GroupKFold(...)``).

    Parameters
    ----------
    missed_failure_cost, false_alarm_cost : float >= 0
        As in :func:`alarm_cost`.

    Returns
    -------
    scorer : callable ``(estimator, X, y) -> -cost``

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> scorer = make_alarm_cost_scorer(missed_failure_cost=10, false_alarm_cost=1)
    >>> always = DummyClassifier(strategy="constant", constant=1).fit([[0]] * 4, [0, 0, 1, 1])
    >>> scorer(always, [[0]] * 4, [0, 0, 1, 1])  # two false alarms in four windows
    -0.5
    """
    return make_scorer(
        alarm_cost,
        greater_is_better=False,
        response_method="predict",
        missed_failure_cost=missed_failure_cost,
        false_alarm_cost=false_alarm_cost,
    )


@validate_params(_BUDGET, prefer_skip_nested_validation=True)
def make_alarm_budget_scorer(*, alarms, per_steps, steps_per_window=1):
    """Scorer of :func:`alarm_budget_score` on a classifier's ``predict``.

    Pass it to ``TunedThresholdClassifierCV(scoring=...)`` to pick the
    threshold that recalls most failure windows within ``alarms`` alarms
    per unit per ``per_steps`` steps.

    Parameters
    ----------
    alarms, per_steps, steps_per_window : float > 0
        As in :func:`alarm_budget_score`.

    Returns
    -------
    scorer : callable ``(estimator, X, y) -> score``

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> scorer = make_alarm_budget_scorer(alarms=1, per_steps=2)
    >>> always = DummyClassifier(strategy="constant", constant=1).fit([[0]] * 4, [0, 0, 1, 1])
    >>> scorer(always, [[0]] * 4, [0, 0, 1, 1])  # 2 alarms per 2 steps, twice the budget
    -0.5
    """
    return make_scorer(
        alarm_budget_score,
        response_method="predict",
        alarms=alarms,
        per_steps=per_steps,
        steps_per_window=steps_per_window,
    )
