"""Tests for competing-risks labels: the cause field of y, its label surfaces, incidences, windows with event types,
per-cause metrics."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn import h_auroc
from hepa_sklearn.causes import (
    any_event_y,
    cause_event_y,
    cause_label_surface,
    check_cause_y,
    cumulative_incidence,
    fitted_causes,
)
from hepa_sklearn.datasets import make_fleet
from hepa_sklearn.metrics import cause_calibration_error, cause_h_auroc, expected_calibration_error
from hepa_sklearn.surface import CAUSE_DTYPE, check_survival_y, label_surface, make_survival_y
from hepa_sklearn.windows import make_windows


@st.composite
def cause_labels(draw, max_samples=30, max_causes=4):
    """A y with causes: events of random causes at random times, some windows censored."""
    n = draw(st.integers(1, max_samples))
    n_causes = draw(st.integers(1, max_causes))
    event = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    time = np.array(draw(st.lists(st.integers(0, 15), min_size=n, max_size=n)), dtype=float)
    cause = np.array(draw(st.lists(st.integers(1, n_causes), min_size=n, max_size=n)))
    return make_survival_y(event, time, cause=np.where(event, cause, 0))


def test_make_survival_y_with_causes_has_the_cause_field():
    y = make_survival_y([True, False, True], [3, 8, 5], cause=[2, 0, 1])
    assert y.dtype == CAUSE_DTYPE
    event, time = check_survival_y(y)
    assert event.tolist() == [True, False, True] and time.tolist() == [3.0, 8.0, 5.0]
    assert check_cause_y(y).tolist() == [2, 0, 1]
    assert any_event_y(y).dtype.names == ("event", "time")


def test_a_frame_with_a_cause_column_is_read_by_name():
    y = pd.DataFrame({"cause": [1, 0], "time": [2.0, 4.0], "event": [True, False]})
    assert check_cause_y(y).tolist() == [1, 0]
    assert check_survival_y(y)[1].tolist() == [2.0, 4.0]


@pytest.mark.parametrize(
    "event, cause, error, match",
    [
        ([True, True], [1, 0], ValueError, "an event without a cause at 1 sample.*position 1"),
        ([True, False], [1, 2], ValueError, "a cause without an event at 1 sample.*position 1"),
        ([True, True], [1.5, 1], ValueError, "whole numbers >= 0"),
        ([True, True], [-1, 1], ValueError, "whole numbers >= 0"),
        ([True, True], ["a", "b"], TypeError, "integer codes.*factorize"),
        ([True, True], [True, True], TypeError, "integer codes"),
    ],
    ids=["event-without-cause", "cause-without-event", "fraction", "negative", "text", "bool"],
)
def test_bad_causes_are_named(event, cause, error, match):
    with pytest.raises(error, match=match):
        make_survival_y(event, [1, 2], cause=cause)


def test_a_structured_y_with_an_event_without_a_cause_is_refused_by_every_reader():
    y = np.array([(True, 2.0, 0)], dtype=CAUSE_DTYPE)
    with pytest.raises(ValueError, match="y\\['cause'\\] holds an event without a cause"):
        check_survival_y(y)
    with pytest.raises(ValueError, match="event without a cause"):
        label_surface(y, 3)


def test_unnamed_three_fields_are_refused_with_the_names_that_work():
    y = np.array([(True, 2.0, 1)], dtype=[("status", bool), ("t", float), ("kind", int)])
    with pytest.raises(ValueError, match="exactly two fields.*'event', 'time' and 'cause'"):
        check_survival_y(y)


@settings(max_examples=60, deadline=None)
@given(y=cause_labels(), K=st.integers(1, 12))
def test_cause_label_surfaces_sum_to_the_any_event_surface(y, K):
    labels, known = cause_label_surface(y, K)
    any_labels, any_known = label_surface(y, K)
    np.testing.assert_array_equal(labels.sum(axis=1), any_labels)
    np.testing.assert_array_equal(known, any_known)
    # each cause's labels are those of its survival view, where other causes' events are known negatives
    for c in range(1, labels.shape[1] + 1):
        own, own_known = label_surface(cause_event_y(y, c, K), K)
        np.testing.assert_array_equal(own, labels[:, c - 1])
        np.testing.assert_array_equal(own_known, known)


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(st.lists(st.floats(0, 1), min_size=6, max_size=6), min_size=1, max_size=8),
    logits=st.lists(st.lists(st.floats(-5, 5), min_size=3 * 6, max_size=3 * 6), min_size=8, max_size=8),
)
def test_incidences_are_monotone_and_sum_to_the_surface(steps, logits):
    increments = np.array(steps)
    proba = np.cumsum(increments, axis=1) / max(1.0, increments.sum(axis=1).max())  # monotone, in [0, 1]
    raw = np.exp(np.array(logits[: len(proba)]).reshape(len(proba), 3, 6))
    shares = raw / raw.sum(axis=1, keepdims=True)
    F = cumulative_incidence(proba, shares)
    assert F.shape == (len(proba), 3, 6)
    assert (np.diff(F, axis=2) >= -1e-15).all() and (F >= 0).all()
    np.testing.assert_allclose(F.sum(axis=1), proba, rtol=0, atol=1e-12)


def test_cumulative_incidence_refuses_shares_of_another_shape():
    with pytest.raises(ValueError, match="shares must be"):
        cumulative_incidence([[0.1, 0.2]], np.ones((2, 2, 2)))


def test_a_cause_that_never_occurs_in_training_is_named_in_a_warning():
    y = make_survival_y([True, True, False], [2, 3, 9], cause=[1, 3, 0])
    with pytest.warns(UserWarning, match="cause\\(s\\) \\[2\\] never occur"):
        assert fitted_causes(y, 5, "Model")[1] == 3
    with pytest.warns(UserWarning, match="\\[2, 3\\] never occur within K=2"):
        fitted_causes(y, 2, "Model")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fitted_causes(make_survival_y([True], [2]), 5, "Model") == (None, 1)


def test_the_unseen_cause_warning_names_where_the_number_of_causes_comes_from():
    y = make_survival_y([True, True, False], [2, 3, 9], cause=[1, 1, 0])
    with pytest.warns(UserWarning) as caught:
        assert fitted_causes(y, 5, "Model", n_causes=3)[1] == 3
    (message,) = [str(w.message) for w in caught]
    assert "learns 3 causes (its n_causes=3 setting)" in message and "largest in y" not in message
    assert "never seen in y" in message and "not learned from data" in message and "near 0" not in message
    with pytest.warns(UserWarning, match=r"learns 3 causes \(the largest cause in y\), but cause\(s\) \[2\]"):
        fitted_causes(make_survival_y([True, True], [2, 3], cause=[1, 3]), 5, "Model")


# -- make_windows with event types -----------------------------------------------------------------

FRAME = pd.DataFrame(
    {
        "unit": [0] * 6 + [1] * 5,
        "x": np.arange(11.0),
        "kind": [None, None, "bearing", None, None, "seal", None, None, None, "seal", None],
    }
)


def test_make_windows_reads_type_labels_as_causes():
    _, y, groups = make_windows(
        FRAME, feature_cols=["x"], event_col="kind", event_types=["bearing", "seal"], unit_col="unit", context_length=3
    )
    assert y.dtype.names == ("event", "time", "cause")
    # unit 0: steps 0-1 wait for the bearing at step 2, steps 2-4 for the seal at 5; step 5 is censored
    assert y["cause"][groups == 0].tolist() == [1, 1, 2, 2, 2, 0]
    assert y["time"][groups == 0].tolist() == [2.0, 1.0, 3.0, 2.0, 1.0, 0.0]
    assert y["cause"][groups == 1].tolist() == [2, 2, 2, 0, 0]


def test_make_windows_reads_one_indicator_column_per_type():
    frame = FRAME.assign(bearing=FRAME["kind"] == "bearing", seal=(FRAME["kind"] == "seal").astype(int))
    _, by_label, _ = make_windows(
        FRAME, feature_cols=["x"], event_col="kind", event_types=["bearing", "seal"], unit_col="unit", context_length=3
    )
    X, by_column, _ = make_windows(
        frame, feature_cols=["x"], event_col=["bearing", "seal"], unit_col="unit", context_length=3
    )
    np.testing.assert_array_equal(by_column, by_label)
    assert X.shape == (11, 1, 3)  # the type columns are not channels


def test_make_windows_reads_numeric_type_codes_in_arrays():
    series = [np.array([[0.0, 1, 2, 3], [np.nan, 7, np.nan, 9]])]
    _, y, _ = make_windows(
        series, feature_cols=[0], event_col=1, event_types=[9, 7], context_length=2, layout="np-list"
    )
    assert y["cause"].tolist() == [2, 1, 1, 0]


def test_make_windows_without_types_gives_the_two_fields_of_before():
    frame = FRAME.assign(failure=FRAME["kind"].notna())
    _, y, _ = make_windows(frame, feature_cols=["x"], event_col="failure", unit_col="unit", context_length=3)
    assert y.dtype.names == ("event", "time")


@pytest.mark.parametrize(
    "params, error, match",
    [
        (dict(event_col="kind", event_types=["bearing"]), ValueError, "unknown event type label.*'seal'"),
        (dict(event_col="kind", event_types="bearing"), TypeError, "non-empty list"),
        (dict(event_col="kind", event_types=["seal", "seal"]), ValueError, "distinct labels"),
        (dict(event_col=["a", "b"], event_types=["a"]), ValueError, "leave event_types=None"),
        (dict(event_col=[]), ValueError, "empty list"),
        (dict(event_col=["a", "a"]), ValueError, "more than once"),
        (dict(event_col=["a", "both"]), ValueError, "several types at 1 step"),
    ],
)
def test_bad_event_types_are_named(params, error, match):
    frame = FRAME.assign(a=FRAME["kind"] == "bearing", both=FRAME["kind"] == "bearing")
    with pytest.raises(error, match=match):
        make_windows(frame, feature_cols=["x"], unit_col="unit", context_length=3, **params)


def test_make_fleet_gives_each_window_its_failure_mode_as_cause():
    fleet = make_fleet(12, n_modes=2, stride=8, K=20, random_state=1)
    expected = np.where(fleet.y["event"], fleet.units["failure_mode"].to_numpy()[fleet.groups] + 1, 0)
    np.testing.assert_array_equal(fleet.cause, expected)
    assert set(np.unique(fleet.cause)) == {0, 1, 2}
    y = make_survival_y(fleet.y["event"], fleet.y["time"], cause=fleet.cause)
    assert np.isfinite(cause_h_auroc(y, fleet.oracle_by_mode)).any()


# -- per-cause metrics ---------------------------------------------------------------------------


def test_cause_h_auroc_of_one_cause_is_the_h_auroc():
    rng = np.random.default_rng(0)
    y = make_survival_y(rng.random(50) < 0.7, rng.integers(1, 10, 50))
    P = np.sort(rng.random((50, 6)), axis=1)
    assert cause_h_auroc(y, P[:, None, :]).tolist() == [h_auroc(y, P)]
    assert cause_calibration_error(y, P[:, None, :]).tolist() == [expected_calibration_error(y, P)]


def test_cause_h_auroc_scores_each_cause_against_its_own_events():
    y = make_survival_y([True, True, True, True], [1, 1, 2, 2], cause=[1, 2, 1, 2])
    right = cause_label_surface(y, 2)[0]
    assert cause_h_auroc(y, right).tolist() == [1.0, 1.0]
    assert cause_h_auroc(y, 1 - right).tolist() == [0.0, 0.0]


def test_cause_metrics_refuse_fewer_incidences_than_causes():
    y = make_survival_y([True, True], [1, 2], cause=[1, 3])
    with pytest.raises(ValueError, match="holds cause 3 but incidence has 2"):
        cause_h_auroc(y, np.zeros((2, 2, 4)))
    with pytest.raises(ValueError, match="3-D"):
        cause_h_auroc(y, np.zeros((2, 4)))


def test_scikit_survival_reads_the_causes_and_scores_each_cause():
    nonparametric = pytest.importorskip("sksurv.nonparametric")
    metrics = pytest.importorskip("sksurv.metrics")
    fleet = make_fleet(60, n_modes=2, stride=4, K=50, random_state=2)
    y = make_survival_y(fleet.y["event"], fleet.y["time"], cause=fleet.cause)
    # the Aalen-Johansen estimator reads y's cause and time as they are: one curve per cause and their total
    _, incidence = nonparametric.cumulative_incidence_competing_risks(y["cause"], y["time"])
    assert incidence.shape[0] == 3
    np.testing.assert_allclose(incidence[1:].sum(axis=0), incidence[0])
    # each cause's survival view is an ordinary (event, time) y for its IPCW metrics
    times = np.array([8.0, 20.0, 40.0])
    for c in (1, 2):
        y_c = cause_event_y(y, c, 50)
        auc = metrics.cumulative_dynamic_auc(y_c, y_c, fleet.oracle_by_mode[:, c - 1, times.astype(int) - 1], times)[1]
        assert auc > 0.7  # the exact incidence ranks its own cause's events first
