"""Thresholded metrics: F1, point adjustment, thresholds chosen on validation data, event recall."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score

from hepa_sklearn.metrics import best_f1_threshold, event_recall, f1_at_threshold, false_alarm_threshold, point_adjust
from hepa_sklearn.surface import make_survival_y

# Two positive segments: points 1-3 and 6-7; point 8 starts a third segment in group "b".
LABELS = np.array([0, 1, 1, 1, 0, 0, 1, 1, 1, 0])
GROUPS = np.array(["a"] * 8 + ["b"] * 2)
SCORES = np.array([0.1, 0.2, 0.7, 0.3, 0.8, 0.4, 0.35, 0.1, 0.1, 0.5])


def test_point_adjust_fills_detected_segments_only():
    predictions = SCORES >= 0.5  # flags points 2, 4, 9
    adjusted = point_adjust(LABELS, predictions, groups=GROUPS)
    # segment 1-3 detected at 2: all three; segment 6-7 missed; point 8 (group b) missed; negatives kept
    np.testing.assert_array_equal(adjusted, [0, 1, 1, 1, 1, 0, 0, 0, 0, 1])
    # without groups, points 6-8 are one segment, still missed
    np.testing.assert_array_equal(point_adjust(LABELS, predictions), adjusted)
    # a detection at 8 fills 6-8 without groups but only 8 with them
    predictions[8] = True
    assert point_adjust(LABELS, predictions)[6:9].all()
    np.testing.assert_array_equal(point_adjust(LABELS, predictions, groups=GROUPS)[6:9], [0, 0, 1])


def test_f1_at_threshold_hand_computed():
    # threshold 0.5 flags 2, 4, 9: TP 1 (point 2), FP 2, FN 5 -> 2 / (2 + 2 + 5)
    assert f1_at_threshold(LABELS, SCORES, 0.5) == pytest.approx(2 / 9)
    # adjusted: TP 3 (points 1-3), FP 2, FN 3 -> 6 / 11
    assert f1_at_threshold(LABELS, SCORES, 0.5, point_adjusted=True, groups=GROUPS) == pytest.approx(6 / 11)
    assert f1_at_threshold(LABELS, SCORES, 0.5) == pytest.approx(f1_score(LABELS, SCORES >= 0.5))
    assert np.isnan(f1_at_threshold([0, 0], [0.1, 0.2], 0.5))  # nothing positive, nothing flagged


def test_point_adjustment_inflates_a_rare_random_detector():
    labels = np.zeros(1000, int)
    labels[100:400] = 1  # one long segment
    predictions = np.zeros(1000)
    predictions[[250, 700]] = 1  # two alarms, one inside the segment
    assert f1_at_threshold(labels, predictions, 1) == pytest.approx(2 / (2 + 1 + 299))
    assert f1_at_threshold(labels, predictions, 1, point_adjusted=True) == pytest.approx(600 / 601)


def test_best_f1_threshold_hand_computed():
    # six positives, four negatives: at .1 TP 6 FP 4 -> 12/16 (best); at .2 TP 4 FP 3 FN 2 -> 8/13;
    # at .3 TP 3 FP 3 FN 3 -> 6/12
    assert best_f1_threshold(LABELS, SCORES) == pytest.approx(0.1)
    assert f1_at_threshold(LABELS, SCORES, 0.1) == pytest.approx(12 / 16)
    # adjusted with groups (segment maxima .7, .35, .1): at .2 segments 1-3 and 6-7, TP 5 FP 3 FN 1
    # -> 10/14; at .7 TP 3 FP 1 FN 3 -> 6/10; at .1 everything -> 12/16 (best)
    assert best_f1_threshold(LABELS, SCORES, point_adjusted=True, groups=GROUPS) == pytest.approx(0.1)
    labels, scores = [0, 1, 1, 1, 0], [0.1, 0.2, 0.9, 0.3, 0.6]
    assert best_f1_threshold(labels, scores, point_adjusted=True) == 0.9
    assert np.isnan(best_f1_threshold([0, 0, 0], [0.1, 0.2, 0.3]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6)), min_size=2, max_size=30), st.booleans())
def test_best_threshold_matches_a_brute_force_search(points, adjusted):
    labels = np.array([p[0] for p in points], int)
    scores = np.array([p[1] for p in points], float) / 6
    if not labels.any():
        return
    f1 = {t: f1_at_threshold(labels, scores, t, point_adjusted=adjusted) for t in np.unique(scores)}
    best = max(f1.values())
    chosen = best_f1_threshold(labels, scores, point_adjusted=adjusted)
    assert f1[chosen] == pytest.approx(best)
    assert chosen == max(t for t, v in f1.items() if v == pytest.approx(best))


# Six windows: four event-free over horizon 5 (times 9, 9, 9 and censored at 7), one event at 2, one
# censored at 3 (unknown over 5).
Y = make_survival_y([False, False, True, False, True, False], [9, 9, 9, 7, 2, 3])
ALARM = np.array([0.1, 0.4, 0.3, 0.2, 0.35, 0.99])


def test_false_alarm_threshold_hand_computed():
    # event-free scores .4 .3 .2 .1: rate .25 allows 1 alarm, so just above the second highest (.3)
    threshold = false_alarm_threshold(Y, ALARM, rate=0.25, horizon=5)
    assert 0.3 < threshold < 0.3 + 1e-12
    assert 0.4 < false_alarm_threshold(Y, ALARM, rate=0.2, horizon=5) < 0.4 + 1e-12  # no alarm allowed
    assert false_alarm_threshold(Y, ALARM, rate=1.0, horizon=5) == -np.inf
    # every allowed share holds: the flagged event-free windows never exceed the rate
    for rate in (0.0, 0.25, 0.5, 0.75):
        t = false_alarm_threshold(Y, ALARM, rate=rate, horizon=5)
        assert np.mean(ALARM[[0, 1, 2, 3]] >= t) <= rate
    assert np.isnan(false_alarm_threshold(make_survival_y([True], [1]), [0.5], rate=0.1, horizon=5))
    with pytest.raises(ValueError, match="rate.*range \\[0.0, 1.0\\]"):
        false_alarm_threshold(Y, ALARM, rate=1.5, horizon=5)


def test_event_recall_counts_events_not_windows():
    # group a: event 1 seen at times 3, 2, 1; a window 9 away; event 2 seen at 3, 1; group b: event 3 at 2
    y = make_survival_y([True] * 7, [3, 2, 1, 9, 3, 1, 2])
    groups = np.array(["a"] * 6 + ["b"])
    scores = np.array([0.0, 0.9, 0.0, 0.0, 0.1, 0.2, 0.6])
    assert event_recall(y, scores, 0.5, horizon=3, groups=groups) == pytest.approx(2 / 3)
    assert event_recall(y, scores, 0.95, horizon=3, groups=groups) == 0.0
    # a rise of time inside consecutive windows starts a new event even without the gap
    y = make_survival_y([True] * 4, [2, 1, 2, 1])
    assert event_recall(y, [0.9, 0.0, 0.0, 0.0], 0.5, horizon=3) == 0.5
    assert np.isnan(event_recall(make_survival_y([True], [9]), [0.9], 0.5, horizon=3))


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="same length"):
        f1_at_threshold([0, 1], [0.5], 0.5)
    with pytest.raises(ValueError, match="0 and 1 only"):
        best_f1_threshold([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="NaN"):
        f1_at_threshold([0, 1], [0.5, np.nan], 0.5)
    with pytest.raises(ValueError, match="one score per window"):
        event_recall(Y, [0.1], 0.5, horizon=5)
