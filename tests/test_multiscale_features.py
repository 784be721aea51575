"""multiscale_features by hand, its names, and boosting on them against boosting on the last 30 steps."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threadpoolctl import threadpool_limits

from hepa_sklearn import GradientBoostingEventPredictor
from hepa_sklearn.baselines import multiscale_feature_names, multiscale_features
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.windows import window_age

nan = np.nan


def column(features, names, name):
    return features[:, names.index(name)]


def test_by_hand_on_a_padded_window_with_a_gap():
    # 150 steps: 20 padded, then x = 0, 1, 2, ... with step 140 missing
    x = np.full(150, nan)
    x[20:] = np.arange(130.0)
    x[140] = nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # spans without observations must not warn
        features = multiscale_features(x[None, None, :].astype(np.float32))
    names = multiscale_feature_names(1).tolist()
    assert features.shape == (1, 23) and features.dtype == np.float64
    assert column(features, names, "last_x0") == 129.0
    assert column(features, names, "age") == 130.0
    assert column(features, names, "missing_x0") == pytest.approx(1 / 130)
    for span in ("10", "30", "100", "all"):
        assert column(features, names, f"slope_{span}_x0") == pytest.approx(1.0)  # a line stays a line across the gap
    last10 = np.arange(121.0, 130.0)  # step 140 (value 120) is missing
    assert column(features, names, "mean_10_x0") == pytest.approx(last10.mean())
    assert column(features, names, "std_10_x0") == pytest.approx(last10.std())
    assert column(features, names, "min_100_x0") == 30.0 and column(features, names, "max_100_x0") == 129.0
    observed = np.delete(np.arange(130.0), 120)  # step 140 of the window is value 120
    assert column(features, names, "mean_all_x0") == pytest.approx(observed.mean())
    assert column(features, names, "min_all_x0") == 0.0


def test_a_channel_never_observed_gives_nan_but_its_missingness_and_the_age_are_numbers():
    X = np.stack([np.arange(12.0), np.full(12, nan)])[None]  # channel 1 never observed
    features = multiscale_features(X)
    names = multiscale_feature_names(2).tolist()
    assert np.isnan(column(features, names, "last_x1")) and np.isnan(column(features, names, "max_all_x1"))
    assert column(features, names, "missing_x1") == 1.0 and column(features, names, "missing_x0") == 0.0
    assert column(features, names, "age") == 12.0
    # one observation: a level and extremes but no slope or spread
    one = multiscale_features(np.array([[[nan, nan, 5.0]]]))
    names1 = multiscale_feature_names(1).tolist()
    assert column(one, names1, "mean_all_x0") == 5.0 and column(one, names1, "min_10_x0") == 5.0
    assert np.isnan(column(one, names1, "slope_all_x0")) and np.isnan(column(one, names1, "std_30_x0"))


def test_names_match_columns_and_2d_input_is_one_channel():
    names = multiscale_feature_names(["T24", "P30"])
    assert names.shape == (45,) and len(set(names)) == 45
    assert names.shape == multiscale_features(np.zeros((1, 2, 5))).shape[1:]
    assert multiscale_features(np.arange(8.0)[None]).shape == (1, 23)
    with pytest.raises(ValueError, match="positive count"):
        multiscale_feature_names(0)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 300), st.integers(0, 2**31 - 1))
def test_rows_do_not_depend_on_their_neighbours_or_the_chunking(n_channels, length, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, n_channels, length))
    X[rng.random(X.shape) < 0.2] = nan
    X[:, :, : rng.integers(0, length)] = nan  # left padding
    whole = multiscale_features(X)  # more rows than one chunk
    np.testing.assert_array_equal(whole[257:259], multiscale_features(X[257:259]))
    np.testing.assert_array_equal(column(whole, multiscale_feature_names(n_channels).tolist(), "age"), window_age(X))


def test_boosting_sees_what_the_last_30_steps_hide():
    # the time to the event is written in a slow level 200 steps back, and the last 30 steps are alike
    rng = np.random.default_rng(0)
    time = rng.integers(1, 60, 300)
    X = rng.normal(size=(300, 1, 256))
    X[:, 0, :100] += time[:, None] / 10.0
    y = make_survival_y(np.ones(300, bool), time)
    with threadpool_limits(1, user_api="openmp"):
        scores = {
            features: GradientBoostingEventPredictor(K=60, features=features, max_iter=50, random_state=0)
            .fit(X[:200], y[:200])
            .score(X[200:], y[200:])
            for features in ("multiscale", "last")
        }
    assert scores["multiscale"] > 0.9 > 0.7 > scores["last"]


def test_features_last_is_the_former_baseline():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 2, 40))
    y = make_survival_y(np.ones(60, bool), rng.integers(1, 20, 60))
    with threadpool_limits(1, user_api="openmp"):
        model = GradientBoostingEventPredictor(K=20, features="last", n_last=30, max_iter=5, random_state=0).fit(X, y)
    assert model.regressor_.n_features_in_ == 8
    with pytest.raises(ValueError, match="features"):
        GradientBoostingEventPredictor(features="all").fit(X, y)
