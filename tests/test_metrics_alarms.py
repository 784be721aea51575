"""Alarm objectives: the cost of misses and false alarms, recall within an alarm budget, and their scorers in threshold
tuning."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold, TunedThresholdClassifierCV

from hepa_sklearn.metrics import alarm_budget_score, alarm_cost, make_alarm_budget_scorer, make_alarm_cost_scorer

pairs = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=40)


def test_alarm_cost_hand_computed():
    # 2 misses at 10, 1 false alarm at 3, over 6 windows
    assert alarm_cost([1, 1, 1, 0, 0, 0], [0, 0, 1, 1, 0, 0], missed_failure_cost=10, false_alarm_cost=3) == 23 / 6


@settings(max_examples=60, deadline=None)
@given(pairs, st.floats(0, 100), st.floats(0, 100))
def test_alarm_cost_is_the_mean_of_the_window_costs(pairs, miss, false_alarm):
    y_true, y_pred = np.array(pairs).T
    each = [miss if t and not p else false_alarm if p and not t else 0.0 for t, p in pairs]
    cost = alarm_cost(y_true, y_pred, missed_failure_cost=miss, false_alarm_cost=false_alarm)
    assert cost == pytest.approx(np.mean(each))


def test_alarm_budget_score_hand_computed():
    y_true = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    y_pred = [1, 1, 1, 0, 1, 0, 0, 0, 0, 0]  # 4 alarms in 10 windows, 3 of 4 positives caught
    # stride 5: 4 alarms per 50 steps = 8 per 100 steps
    assert alarm_budget_score(y_true, y_pred, alarms=8, per_steps=100, steps_per_window=5) == 0.75
    assert alarm_budget_score(y_true, y_pred, alarms=2, per_steps=100, steps_per_window=5) == 2 / 8 - 1


@settings(max_examples=60, deadline=None)
@given(pairs, st.floats(0.01, 10), st.floats(1, 100))
def test_alarm_budget_score_orders_within_above_over(pairs, alarms, per_steps):
    y_true, y_pred = np.array(pairs).T
    score = alarm_budget_score(y_true, y_pred, alarms=alarms, per_steps=per_steps)
    rate = y_pred.mean() * per_steps
    if rate <= alarms:
        recall = (y_true & y_pred).sum() / y_true.sum() if y_true.any() else 0.0
        assert score == pytest.approx(recall) and 0 <= score <= 1
    else:
        assert -1 < score < 0


def test_scorers_are_tuned_by_threshold_search():
    """A dearer miss moves the least-cost threshold down; a tighter budget moves it up."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 1))
    y = rng.random(600) < 1 / (1 + np.exp(-2 * X[:, 0] + 1))
    groups = np.arange(600) // 20

    folds = list(GroupKFold(3).split(X, y, groups))

    def tuned_on(scoring):
        search = TunedThresholdClassifierCV(LogisticRegression(), scoring=scoring, cv=folds, thresholds=50)
        return search.fit(X, y).best_threshold_

    cheap_miss = tuned_on(make_alarm_cost_scorer(missed_failure_cost=1, false_alarm_cost=5))
    dear_miss = tuned_on(make_alarm_cost_scorer(missed_failure_cost=5, false_alarm_cost=1))
    assert dear_miss < cheap_miss
    loose = tuned_on(make_alarm_budget_scorer(alarms=50, per_steps=100))
    tight = tuned_on(make_alarm_budget_scorer(alarms=10, per_steps=100))
    assert loose < tight


def test_scorer_parameters_are_checked():
    with pytest.raises(ValueError, match="missed_failure_cost"):
        make_alarm_cost_scorer(missed_failure_cost=-1, false_alarm_cost=1)
    with pytest.raises(ValueError, match="alarms"):
        make_alarm_budget_scorer(alarms=0, per_steps=10)
