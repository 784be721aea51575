"""ElapsedTimeEventPredictor: the left-truncated product-limit surface of the visible age, checked by hand."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import NotFittedError

from hepa_sklearn import ElapsedTimeEventPredictor, h_auroc
from hepa_sklearn.baselines import window_age
from hepa_sklearn.surface import make_survival_y


def windows_of_age(ages, length=6, n_channels=2):
    """Windows of ``length`` steps whose units were seen for ``ages`` steps (left padding with NaN)."""
    X = np.ones((len(ages), n_channels, length))
    for i, age in enumerate(ages):
        X[i, :, : length - age] = np.nan
    return X


def test_window_age_counts_steps_from_the_first_observed_value():
    X = windows_of_age([1, 3, 6])
    X[1, 0, 3] = np.nan  # a gap after the first observation does not change the age
    X = np.concatenate([X, np.full((1, 2, 6), np.nan)])
    X[0, 1, :] = np.nan  # one channel never observed
    assert window_age(X).tolist() == [1.0, 3.0, 6.0, 0.0]
    # the age reads the padding only: a window of another length keeps its own
    assert window_age(windows_of_age([2], length=9)).tolist() == [2.0]


def test_surface_is_the_left_truncated_kaplan_meier_by_hand():
    # lifetimes: 3 (event, entered at age 1), 4 (event, entered at 2), censored at 6 (entered at 1)
    X = windows_of_age([1, 2, 1])
    y = make_survival_y([True, True, False], [2, 2, 5])
    model = ElapsedTimeEventPredictor(K=3).fit(X, y)
    # t = 3: at risk 3 (all entered before 3, none left), 1 event: S = 2/3
    # t = 4: at risk 2 (the lifetime 3 has left), 1 event: S = 1/3
    np.testing.assert_allclose(model.hazard_, [1 / 3, 1 / 2])
    assert model.event_times_.tolist() == [3.0, 4.0]
    expected = np.array(
        [
            [0.0, 1 / 3, 2 / 3],  # age 1: S(2)/S(1) = 1, S(3) = 2/3, S(4) = 1/3
            [1 / 3, 2 / 3, 2 / 3],  # age 2: S(3), S(4), S(5) = S(4)
        ]
    )
    np.testing.assert_allclose(model.predict_proba(X[:2]), expected)
    np.testing.assert_allclose(model.predict(X[:2]), 1.0 + (1.0 - expected[:, :-1]).sum(axis=1))


def test_a_window_entered_after_the_event_time_is_not_at_risk():
    # the second window enters at age 5, after the first lifetime's event at 3: it does not dilute it
    X = windows_of_age([1, 5])
    y = make_survival_y([True, False], [2, 10])
    model = ElapsedTimeEventPredictor(K=4).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X[:1]), [[0.0, 1.0, 1.0, 1.0]])
    # past the last event time nothing more happens
    np.testing.assert_allclose(model.predict_proba(X[1:]), [[0.0, 0.0, 0.0, 0.0]])


def test_a_certain_event_ahead_makes_the_surface_one_from_there():
    # every unit seen for 1 step fails at age 2; the unit seen for 5 steps fails at 7, alone at risk
    X = windows_of_age([1, 1, 5])
    y = make_survival_y([True, True, True], [1, 1, 2])
    model = ElapsedTimeEventPredictor(K=3).fit(X, y)
    np.testing.assert_allclose(model.hazard_, [1.0, 1.0])
    np.testing.assert_allclose(
        model.predict_proba(windows_of_age([1, 4, 5])), [[1.0, 1.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1.0, 1.0]]
    )


def test_full_windows_give_the_training_time_distribution():
    rng = np.random.default_rng(0)
    X = windows_of_age([6] * 200)
    time = rng.integers(1, 30, size=200).astype(float)
    y = make_survival_y(np.ones(200, bool), time)
    P = ElapsedTimeEventPredictor(K=30).fit(X, y).predict_proba(X[:1])[0]
    empirical = [(time <= k).mean() for k in range(1, 31)]
    np.testing.assert_allclose(P, empirical)


def test_age_alone_ranks_a_fleet_with_a_common_lifetime():
    # every unit fails at 40 steps of age: the age gives the time to the event exactly
    ages = np.arange(1, 40)
    X = windows_of_age(ages.tolist(), length=48)
    y = make_survival_y(np.ones(ages.size, bool), 40 - ages)
    model = ElapsedTimeEventPredictor(K=20).fit(X, y)
    assert h_auroc(y, model.predict_proba(X)) == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(ages=st.lists(st.integers(1, 8), min_size=1, max_size=25), data=st.data())
def test_surface_rows_are_probabilities_non_decreasing_in_the_horizon(ages, data):
    n = len(ages)
    events = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    times = data.draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    X = windows_of_age(ages, length=8)
    if not any(event and time <= 12 for event, time in zip(events, times, strict=True)):  # nothing to learn: refused
        with pytest.raises(ValueError, match="no event within K=12 steps"):
            ElapsedTimeEventPredictor(K=12).fit(X, make_survival_y(events, times))
        return
    model = ElapsedTimeEventPredictor(K=12).fit(X, make_survival_y(events, times))
    P = model.predict_proba(X)
    assert P.shape == (n, 12)
    assert np.all((P >= 0) & (P <= 1))
    assert np.all(np.diff(P, axis=1) >= -1e-12)


def test_errors_name_the_problem():
    X, y = windows_of_age([1, 2]), make_survival_y([True, False], [1, 3])
    with pytest.raises(NotFittedError):
        ElapsedTimeEventPredictor().predict_proba(X)
    with pytest.raises(ValueError, match="K"):
        ElapsedTimeEventPredictor(K=0).fit(X, y)
    with pytest.raises(ValueError):
        ElapsedTimeEventPredictor().fit(X, y[:1])
    model = ElapsedTimeEventPredictor(K=3).fit(X, y)
    with pytest.raises(ValueError):
        model.predict_proba(windows_of_age([1], n_channels=3))


def test_same_fit_twice_gives_the_same_surface():
    X = windows_of_age([1, 2, 3, 6, 6])
    y = make_survival_y([True, False, True, True, False], [4, 9, 2, 7, 1])
    first = ElapsedTimeEventPredictor(K=5).fit(X, y).predict_proba(X)
    second = ElapsedTimeEventPredictor(K=5).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(first, second)
