"""Tests for hepa_sklearn.baselines: summary features and the gradient-boosting event predictor."""

import pickle
import warnings

import numpy as np
import pytest
from scipy.special import ndtr
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GroupKFold
from threadpoolctl import threadpool_limits

from hepa_sklearn import GradientBoostingEventPredictor, h_auroc
from hepa_sklearn.baselines import summary_feature_names, summary_features
from hepa_sklearn.baselines._boosting import SEARCH_GRID, auto_leaf_size, survival_targets
from hepa_sklearn.baselines._folds import unit_folds as _folds
from hepa_sklearn.surface import make_survival_y

nan = np.nan

# Two windows, two channels, 14 steps; with n_last=12 the span is steps 2..13
# (local index 0..11) and the short span of 10 is steps 4..13.
#   window 0, channel 0: 99 outside the span (ignored); observed 2, 6, 10 at
#     local steps 0, 8, 10; the last step is missing.
#   window 0, channel 1: a single observation, 4 at step 7.
#   window 1, channel 0: observed only outside the span.
#   window 1, channel 1: the line 3 - 0.5 * step over all 14 steps.
TINY = np.full((2, 2, 14), nan)
TINY[0, 0, [0, 1, 2, 10, 12]] = [99, 99, 2, 6, 10]
TINY[0, 1, 7] = 4
TINY[1, 0, [0, 1]] = [5, 5]
TINY[1, 1] = 3 - 0.5 * np.arange(14)

# By hand, columns last, mean10, mean12, slope, channels 0 and 1 within each:
#   window 0, channel 0: last 10; mean10 over steps 10 and 12: (6 + 10) / 2 = 8;
#     mean12: (2 + 6 + 10) / 3 = 6; slope over local t = 0, 8, 10: t mean 6,
#     dt = (-6, 2, 4), dx = (-4, 0, 4), sum dt*dx = 40, sum dt^2 = 56, slope 5/7.
#   window 0, channel 1: 4, 4, 4, and NaN (one observation has no slope).
#   window 1, channel 0: all NaN.
#   window 1, channel 1: last 3 - 6.5 = -3.5; mean10 over steps 4..13 (mean
#     step 8.5): -1.25; mean12 over steps 2..13 (mean step 7.5): -0.75; slope -0.5.
TINY_FEATURES = np.array([[10, 4, 8, 4, 6, 4, 5 / 7, nan], [nan, -3.5, nan, -1.25, nan, -0.75, nan, -0.5]])


@pytest.fixture(autouse=True)
def one_openmp_thread():
    # Tiny fits gain nothing from OpenMP threads; on a busy two-core machine
    # their spinning made small boosting fits several times slower.
    with threadpool_limits(1, user_api="openmp"):
        yield


def test_summary_features_by_hand():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # all-NaN spans must not warn
        features = summary_features(TINY.astype(np.float32), n_last=12)
    assert features.dtype == np.float64
    np.testing.assert_allclose(features, TINY_FEATURES, rtol=1e-6)


def test_summary_features_shorter_window_and_2d_input():
    # n_last beyond the window uses all of it; 2-D input is one channel.
    # t = 0, 1, 2 against 1, 2, 4: dt = (-1, 0, 1), dx = (-4/3, -1/3, 5/3), slope 3/2.
    features = summary_features(np.array([[1.0, 2.0, 4.0]]), n_last=30)
    np.testing.assert_allclose(features, [[4.0, 7 / 3, 7 / 3, 1.5]])


def test_summary_features_exact_slope_of_a_line_with_gaps():
    rng = np.random.default_rng(0)
    X = 7.0 - 0.25 * np.arange(40)[None, None, :] * np.ones((5, 3, 1))
    X[rng.random(X.shape) < 0.3] = nan
    slope = summary_features(X, n_last=30)[:, 9:]  # 3 channels: columns 9..11
    np.testing.assert_allclose(slope, -0.25)


def test_summary_feature_names_match_columns():
    assert summary_feature_names(["a", "b"]).tolist() == [
        "last_a",
        "last_b",
        "mean10_a",
        "mean10_b",
        "mean_a",
        "mean_b",
        "slope_a",
        "slope_b",
    ]
    names = summary_feature_names(3)
    assert names.shape == summary_features(np.zeros((1, 3, 5))).shape[1:]
    assert names[0] == "last_x0" and len(set(names)) == 12


@pytest.mark.parametrize("n_last", [0, 2.5, True])
def test_summary_features_rejects_bad_n_last(n_last):
    with pytest.raises(ValueError, match="n_last"):
        summary_features(TINY, n_last=n_last)


def test_summary_features_rejects_1d():
    with pytest.raises(ValueError, match="3-D"):
        summary_features(np.zeros(5))


def degrading_windows(n=150, K=30, seed=0):
    """Windows whose channel 0 falls toward the event; a mix of events and censoring.

    Of the 150 windows, 110 have an event 1..59 steps ahead, 25 are censored
    at 30..59 steps (>= K = 30, kept) and 15 censored at 0..29 (< K, dropped).
    """
    rng = np.random.default_rng(seed)
    time = np.concatenate([rng.integers(1, 60, 110), rng.integers(30, 60, 25), rng.integers(0, 30, 15)])
    event = np.arange(n) < 110
    X = rng.normal(0.0, 0.3, size=(n, 2, 40))
    X[:, 0] += time[:, None] / 10.0 - np.linspace(0, 0.5, 40)
    X[::5, :, :10] = nan  # left padding
    return X.astype(np.float32), make_survival_y(event, time)


@pytest.fixture(scope="module")
def fitted():
    X, y = degrading_windows()
    with threadpool_limits(1, user_api="openmp"):
        model = GradientBoostingEventPredictor(K=30, max_iter=30, random_state=0).fit(X, y)
    return model, X, y


def test_surface_shape_range_monotone(fitted):
    model, X, _ = fitted
    P = model.predict_proba(X)
    assert P.shape == (X.shape[0], 30)
    assert ((P >= 0) & (P <= 1)).all()
    assert (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_array_equal(model.horizons_, np.arange(1, 31))


def test_each_column_ranks_by_negated_prediction(fitted):
    model, X, _ = fitted
    P = model.predict_proba(X)
    order = np.argsort(model.predict(X), kind="stable")  # earliest predicted event first
    assert (np.diff(P[order], axis=0) <= 0).all()
    assert model.sigma_ > 0.01  # out-of-fold: the surface is not a step function


def test_surface_is_log_normal_around_the_prediction(fitted):
    model, X, _ = fitted
    mu = np.log(model.predict(X))
    expected = ndtr((np.log(np.arange(1, 31))[None, :] - mu[:, None]) / model.sigma_)
    np.testing.assert_allclose(model.predict_proba(X), expected)


def test_constant_targets_by_hand():
    # Every window has its event 8 steps ahead: the regressor predicts log 8,
    # the residuals vanish, sigma_ is the floor 0.001, and the surface is
    # Phi(0) = 0.5 at k = 8, Phi(log(7/8) / 0.001) = 0 before, 1 after.
    X = np.random.default_rng(0).normal(size=(40, 2, 12))
    y = make_survival_y(np.ones(40, bool), np.full(40, 8))
    model = GradientBoostingEventPredictor(K=10, max_iter=5).fit(X, y)
    np.testing.assert_allclose(model.predict(X), 8.0)
    assert model.sigma_ == 1e-3
    P = model.predict_proba(X)
    np.testing.assert_allclose(P[:, 7], 0.5, atol=1e-6)
    assert (P[:, :7] == 0).all() and (P[:, 8:] == 1).all()


def test_windows_past_the_horizon_target_log_K_plus_1_and_events_at_zero_log_1():
    X = np.zeros((30, 1, 12))  # no feature to split on: the regressor predicts the mean target
    # an event within K = 20 steps on one window; the rest are censored at 50 steps or have their event
    # at 50 steps, which both survive the horizon: a regressor of depth 0 predicts their common target
    for event in (False, True):
        y = make_survival_y(np.r_[True, np.full(29, event)], np.r_[3.0, np.full(29, 50.0)])
        model = GradientBoostingEventPredictor(K=20, max_iter=5, min_samples_leaf=29).fit(X, y)
        np.testing.assert_allclose(model.predict(X[1:]), np.exp((np.log(3.0) + 29 * np.log(21.0)) / 30))
    at_zero = make_survival_y(np.ones(30, bool), np.zeros(30))
    np.testing.assert_allclose(GradientBoostingEventPredictor(K=20, max_iter=5).fit(X, at_zero).predict(X), 1.0)


def test_survival_targets_by_hand():
    event = np.array([True, True, True, False, False, False])
    time = np.array([0.0, 20.0, 21.0, 20.0, 19.0, 1000.0])
    expected = np.log([1.0, 20.0, 21.0, 21.0, np.nan, 21.0])
    np.testing.assert_array_equal(survival_targets(event, time, 20), expected)


def recurring_event_windows(n=300, K=20, seed=0):
    """Windows of units with recurring events, censored beyond the horizon, where log-time targets invert the ranking.

    A third of the windows (level 0) are censored 20-40 steps ahead, so
    negative at every horizon 1..20. The other two thirds (level 1) sit
    between two events: half of them have their next event 1-4 steps
    ahead, half 500-1000 steps ahead, which the level cannot tell apart.
    Level 1 holds every positive, so it is the riskier one at every
    horizon; the mean of log(time) there, about (log 2 + log 700) / 2 =
    3.6, exceeds log(20) = 3.0 of the censored windows, so a regressor of
    log(time) ranks level 1 as the safer.
    """
    rng = np.random.default_rng(seed)
    level = (np.arange(n) % 3 != 0).astype(float)
    near = rng.random(n) < 0.5
    time = np.where(
        level == 0, rng.integers(K, 2 * K, n), np.where(near, rng.integers(1, 5, n), rng.integers(500, 1000, n))
    ).astype(float)
    event = level == 1
    X = level[:, None, None] + rng.normal(0.0, 0.05, size=(n, 2, 24))
    return X.astype(np.float32), make_survival_y(event, time)


def test_windows_surviving_the_horizon_rank_alike_with_recurring_events():
    X, y = recurring_event_windows()
    X_new, y_new = recurring_event_windows(seed=1)
    with threadpool_limits(1, user_api="openmp"):
        model = GradientBoostingEventPredictor(K=20, max_iter=20, search=None, random_state=0).fit(X, y)
    # Level 1 above level 0, its near and far windows in any order, scores
    # 0.5 * 1 + 0.5 * 0.5 = 0.75 at every horizon (the best the level allows);
    # level 1 below level 0 scores 0.5 * 0 + 0.5 * 0.5 = 0.25
    assert model.score(X_new, y_new) > 0.65
    level_one = X_new[:, 0, 0] > 0.5
    assert model.predict(X_new)[level_one].max() < model.predict(X_new)[~level_one].min()


def test_dropped_censored_count_and_they_do_not_matter():
    X, y = degrading_windows()
    params = dict(K=30, max_iter=10, random_state=0)
    model = GradientBoostingEventPredictor(**params).fit(X, y)
    assert model.n_dropped_censored_ == 15
    keep = y["event"] | (y["time"] >= 30)
    subset = GradientBoostingEventPredictor(**params).fit(X[keep], y[keep])
    assert subset.n_dropped_censored_ == 0
    np.testing.assert_array_equal(model.predict(X), subset.predict(X))
    assert model.sigma_ == subset.sigma_


def test_learns_the_ranking(fitted):
    model, X, y = fitted
    assert model.score(X, y) == h_auroc(y, model.predict_proba(X))
    assert model.score(X, y) > 0.9


def test_n_last_one_has_no_slope_but_fits():
    X, y = degrading_windows()
    model = GradientBoostingEventPredictor(K=30, n_last=1, max_iter=5).fit(X, y)
    assert np.isfinite(model.predict(X)).all()


def test_channel_seen_in_only_some_folds_fits():
    # channel 1 is observed only in the first third: all NaN in the first
    # fold's training windows, which the regressor could not bin
    X, y = degrading_windows()
    X[50:, 1] = nan
    model = GradientBoostingEventPredictor(K=30, max_iter=5).fit(X, y)
    assert np.isfinite(model.predict(X)).all() and model.sigma_ > 0.01


def test_a_single_window_fits():
    model = GradientBoostingEventPredictor(K=30).fit(np.zeros((1, 2, 8)), make_survival_y([True], [5]))
    assert model.sigma_ == 1e-3
    np.testing.assert_allclose(model.predict(np.ones((2, 2, 8))), 5.0)


def test_no_usable_window():
    X = np.zeros((4, 2, 8))
    y = make_survival_y(np.zeros(4, bool), [0, 3, 29, 10])
    with pytest.raises(ValueError, match="y has no event within K=30 steps of any window"):
        GradientBoostingEventPredictor(K=30).fit(X, y)
    # events beyond the horizon alone: the surface would have nothing positive to learn
    with pytest.raises(ValueError, match=r"0 of its 4 windows end in an event|none within 30 steps"):
        GradientBoostingEventPredictor(K=30).fit(X, make_survival_y(np.ones(4, bool), [31, 40, 50, 60]))


def test_channel_mismatch_names_both_counts(fitted):
    model, X, _ = fitted
    with pytest.raises(ValueError, match="X has 3 channels.*fitted with 2 channels"):
        model.predict_proba(np.zeros((2, 3, 40)))


@pytest.mark.parametrize(
    "param, value",
    [
        ("K", 0),
        ("n_last", 0),
        ("max_iter", 1.5),
        ("learning_rate", 0.0),
        ("max_leaf_nodes", 1),
        ("min_samples_leaf", 0),
        ("min_samples_leaf", "big"),
        ("l2_regularization", -1.0),
        ("search", "grid"),
    ],
)
def test_bad_parameter_is_named(param, value):
    X, y = degrading_windows()
    with pytest.raises(ValueError, match=f"'{param}' parameter of GradientBoostingEventPredictor must be"):
        GradientBoostingEventPredictor(**{param: value}).fit(X, y)


def test_bad_target_and_unfitted():
    X, y = degrading_windows()
    with pytest.raises(ValueError, match="y has 149 samples but X has 150"):
        GradientBoostingEventPredictor().fit(X, y[:-1])
    with pytest.raises(TypeError, match="structured array"):
        GradientBoostingEventPredictor().fit(X, y["time"])
    with pytest.raises(NotFittedError):
        GradientBoostingEventPredictor().predict(X)


def test_reproducible_with_random_state():
    X, y = degrading_windows()
    params = dict(K=30, max_iter=10, random_state=0)
    first = GradientBoostingEventPredictor(**params).fit(X, y).predict_proba(X)
    second = GradientBoostingEventPredictor(**params).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(first, second)


def test_pickle_round_trip(fitted):
    model, X, _ = fitted
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert restored.sigma_ == model.sigma_


def unit_windows(n_units, windows_per_unit, seed):
    """Windows of run-to-failure units: channel 0 falls linearly to the failure, plus noise.

    Unit ``u`` starts at a random level; its window ``j`` ends ``time`` steps
    before the failure, with ``time`` from 45 down to 3, so the last value of
    channel 0 tells the time to the event up to the noise. Returns X, y, groups.
    """
    rng = np.random.default_rng(seed)
    times = np.linspace(45, 3, windows_per_unit).round()
    X, time, groups = [], [], []
    for unit in range(n_units):
        for t in times:
            steps = t + np.arange(20)[::-1]  # steps before the failure of each point in the window
            level = 0.1 * steps + rng.normal(0, 0.2)
            X.append(np.stack([level + rng.normal(0, 0.1, 20), rng.normal(size=20)]))
            time.append(t)
            groups.append(unit)
    return np.array(X, dtype=np.float32), make_survival_y(np.ones(len(time), bool), time), np.array(groups)


@pytest.mark.parametrize("n_rows, leaf", [(1, 1), (2, 1), (39, 1), (41, 2), (399, 19), (400, 20), (5000, 20)])
def test_auto_leaf_size(n_rows, leaf):
    assert auto_leaf_size(n_rows) == leaf


def test_thirty_windows_learn_a_surface_that_ranks_held_out_units():
    # 3 units of 10 windows: with a fixed min_samples_leaf=20 every tree
    # would be one leaf and the surface the same for every window
    X, y, groups = unit_windows(3, 10, seed=0)
    X_test, y_test, _ = unit_windows(4, 10, seed=1)
    model = GradientBoostingEventPredictor(K=30, random_state=0).fit(X, y, groups=groups)
    # auto gives max(1, 30 // 20) = 1; the grid's 50 is refit with 1
    assert model.best_params_["min_samples_leaf"] == 1
    P = model.predict_proba(X)
    assert np.ptp(P, axis=0).max() > 0.5  # windows differ, at some horizon by more than half
    assert np.unique(model.predict(X)).size > 5
    assert model.score(X_test, y_test) > 0.8


def test_a_leaf_too_large_for_the_rows_is_refit_not_constant():
    X, y, groups = unit_windows(3, 10, seed=0)
    X_test, y_test, _ = unit_windows(4, 10, seed=1)
    model = GradientBoostingEventPredictor(K=30, min_samples_leaf=20, search=None, random_state=0).fit(X, y)
    assert model.best_params_["min_samples_leaf"] == 1
    assert np.unique(model.predict(X_test)).size > 5
    assert model.score(X_test, y_test) > 0.8


def test_constant_only_when_the_features_are():
    X = np.ones((30, 2, 12))
    y = make_survival_y(np.ones(30, bool), np.arange(1, 31))
    model = GradientBoostingEventPredictor(K=30, max_iter=5, search=None).fit(X, y)
    assert np.unique(model.predict(X)).size == 1


def test_group_folds_hold_out_whole_units():
    groups = np.repeat([3, 1, 4, 1, 5], 4)  # unit 1 in two runs of windows
    folds = _folds(groups.size, groups)
    assert len(folds) == 3
    tested = np.concatenate([test for _, test in folds])
    assert np.sort(tested).tolist() == list(range(20))
    for train, test in folds:
        assert not set(groups[train]) & set(groups[test])
    # one unit, or no groups: contiguous folds; one row: no fold at all
    for contiguous in (_folds(9, np.zeros(9)), _folds(9, None)):
        assert [test.tolist() for _, test in contiguous] == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert _folds(2, None)[0][1].tolist() == [0]
    assert _folds(1, None) == []


def test_sigma_is_the_out_of_fold_residual_over_units_by_hand():
    X, y, groups = unit_windows(4, 10, seed=2)
    params = dict(K=30, max_iter=20, min_samples_leaf=2, search=None, random_state=0)
    model = GradientBoostingEventPredictor(**params).fit(X, y, groups=groups)
    target = np.log(np.minimum(y["time"], 31))  # events past K = 30 all target log(31)
    features = summary_features(X)
    residual = np.empty_like(target)
    for train, test in GroupKFold(3).split(X, groups=groups):
        fold = GradientBoostingEventPredictor(**params).fit(X[train], y[train])
        residual[test] = target[test] - np.log(fold.predict(X[test]))
    assert model.sigma_ == pytest.approx(np.std(residual), rel=1e-9)
    assert np.ptp(features[:, 0]) > 0  # the features vary, the check is not vacuous
    contiguous = GradientBoostingEventPredictor(**params).fit(X, y)
    assert contiguous.sigma_ != model.sigma_


def test_search_records_candidates_and_picks_the_best_out_of_fold():
    X, y, groups = unit_windows(4, 10, seed=3)
    model = GradientBoostingEventPredictor(K=30, max_iter=30, random_state=0).fit(X, y, groups=groups)
    assert len(model.search_params_) == len(SEARCH_GRID) == model.search_scores_.size
    assert np.isfinite(model.search_scores_).all()
    assert model.search_params_[0] == dict(max_iter=30, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=2)
    assert model.best_params_ == model.search_params_[int(np.argmax(model.search_scores_))]
    assert model.regressor_.get_params()["max_leaf_nodes"] == model.best_params_["max_leaf_nodes"]
    own = GradientBoostingEventPredictor(K=30, max_iter=30, search=None, random_state=0).fit(X, y, groups=groups)
    assert own.search_params_ == model.search_params_[:1]
    assert own.search_scores_[0] == model.search_scores_[0]


def test_given_candidates_and_ties_keep_the_first():
    X, y, groups = unit_windows(3, 10, seed=0)
    model = GradientBoostingEventPredictor(K=30, max_iter=10, search=[{"max_leaf_nodes": 3}, {"max_leaf_nodes": 3}])
    model.fit(X, y, groups=groups)
    assert model.best_params_["max_leaf_nodes"] == 3 and model.search_scores_[0] == model.search_scores_[1]
    one = GradientBoostingEventPredictor(K=30).fit(np.zeros((1, 2, 8)), make_survival_y([True], [5]))
    assert np.isnan(one.search_scores_).all() and one.best_params_ == one.search_params_[0]


@pytest.mark.parametrize(
    "search, message",
    [
        ([], "search is an empty list"),
        ([{"max_depth": 3}], "search candidate 0 is {'max_depth': 3}; each candidate must be a dict setting only"),
        ([{}, 5], "search candidate 1 is 5"),
        ([{"learning_rate": -1.0}], "'learning_rate' parameter of GradientBoostingEventPredictor must be"),
    ],
)
def test_bad_search_candidate_is_named(search, message):
    X, y, _ = unit_windows(2, 5, seed=0)
    with pytest.raises(ValueError, match=message.replace("{", r"\{").replace("}", r"\}")):
        GradientBoostingEventPredictor(K=30, search=search).fit(X, y)


def test_groups_of_the_wrong_shape():
    X, y, groups = unit_windows(2, 5, seed=0)
    with pytest.raises(
        ValueError, match=r"groups must hold one unit label per window, shape \(10,\); got shape \(9,\)"
    ):
        GradientBoostingEventPredictor(K=30).fit(X, y, groups=groups[:-1])


def test_auto_search_only_below_500_windows():
    X, y, groups = unit_windows(10, 50, seed=4)  # 500 windows
    big = GradientBoostingEventPredictor(K=30, max_iter=5, random_state=0).fit(X, y, groups=groups)
    assert len(big.search_params_) == 1 and big.best_params_["min_samples_leaf"] == 20
    small = GradientBoostingEventPredictor(K=30, max_iter=5, random_state=0).fit(X[:499], y[:499], groups=groups[:499])
    assert len(small.search_params_) == len(SEARCH_GRID)
    given = GradientBoostingEventPredictor(K=30, max_iter=5, search=[{}, {"max_leaf_nodes": 3}]).fit(X, y)
    assert len(given.search_params_) == 2


def test_callable_features_are_what_the_regressor_reads():
    X, y = degrading_windows()

    def last_and_mean(windows):
        return np.concatenate([windows[:, :, -1], windows.mean(axis=2)], axis=1)

    model = GradientBoostingEventPredictor(K=10, features=last_and_mean, search=None, max_iter=20, random_state=0)
    model.fit(X, y)
    assert model.regressor_.n_features_in_ == 2 * X.shape[1]
    np.testing.assert_array_equal(model.predict(X), np.exp(model.regressor_.predict(last_and_mean(X))))
    # the same features as a precomputed "last"-style callable give the string option's fit exactly
    last = GradientBoostingEventPredictor(K=10, features="last", search=None, max_iter=20, random_state=0).fit(X, y)
    same = GradientBoostingEventPredictor(
        K=10, features=lambda w: summary_features(w, n_last=30), search=None, max_iter=20, random_state=0
    ).fit(X, y)
    np.testing.assert_array_equal(last.predict_proba(X), same.predict_proba(X))


def test_callable_features_of_the_wrong_shape_are_refused():
    X, y = degrading_windows()
    model = GradientBoostingEventPredictor(K=10, features=lambda w: w.mean(axis=2)[:-1], search=None, max_iter=5)
    with pytest.raises(ValueError, match=r"features\(X\) must return one row per window"):
        model.fit(X, y)
