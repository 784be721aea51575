"""Tests for hepa_sklearn.baselines.MiniRocketEncoder: how NaN reaches MiniRocket, the columns beside it, the
contract."""

import pickle
import sys

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.baselines import MiniRocketEncoder
from hepa_sklearn.baselines._minirocket import fill_missing_steps
from hepa_sklearn.surface import make_survival_y

pytest.importorskip("aeon", reason="MiniRocketEncoder needs the 'minirocket' extra (aeon)")

nan = np.nan
RNG = np.random.default_rng(0)
# 24 windows, 3 channels, 64 steps; the first six have 40 steps of left padding,
# window 6 misses steps 20-29 of channel 1, window 7 never observes channel 2
WINDOWS = RNG.normal(size=(24, 3, 64)).astype(np.float32)
WINDOWS[:6, :, :40] = nan
WINDOWS[6, 1, 20:30] = nan
WINDOWS[7, 2] = nan
KERNELS_ONLY = dict(window_level=False, observed_fraction=False, random_state=0)


@pytest.fixture(scope="module")
def encoder():
    return MiniRocketEncoder(random_state=0).fit(WINDOWS)


@pytest.fixture(scope="module")
def kernels_only():
    return MiniRocketEncoder(**KERNELS_ONLY).fit(WINDOWS)


def test_fill_missing_steps_by_hand():
    X = np.array([[[nan, nan, 2, nan, nan, 5, nan], [nan] * 7, [1, nan, 3, 4, nan, nan, 0]]])
    filled = fill_missing_steps(X, channel_fill=[9, -1, 9])
    # channel 0: padding takes the first value 2, gaps the last one seen; channel 1 is never
    # observed; channel 2: gaps filled forward
    np.testing.assert_array_equal(filled[0], [[2, 2, 2, 2, 2, 5, 5], [-1] * 7, [1, 1, 3, 4, 4, 4, 0]])
    assert filled.dtype == np.float32


def test_left_padding_reaches_minirocket_as_the_first_observed_value(kernels_only):
    backfilled = WINDOWS[:6].copy()
    backfilled[:, :, :40] = backfilled[:, :, 40:41]
    np.testing.assert_array_equal(kernels_only.transform(WINDOWS[:6]), kernels_only.transform(backfilled))
    # and it is not the same as padding with the channel's mean, which adds a jump
    zero_padded = WINDOWS[:6].copy()
    zero_padded[:, :, :40] = kernels_only.channel_loc_[None, :, None]
    assert not np.allclose(kernels_only.transform(WINDOWS[:6]), kernels_only.transform(zero_padded))


def test_missing_steps_reach_minirocket_forward_filled(kernels_only):
    forward = WINDOWS[6:7].copy()
    forward[0, 1, 20:30] = forward[0, 1, 19]
    np.testing.assert_array_equal(kernels_only.transform(WINDOWS[6:7]), kernels_only.transform(forward))


def test_unobserved_channel_reaches_minirocket_as_its_training_mean(kernels_only):
    at_mean = WINDOWS[7:8].copy()
    at_mean[0, 2] = kernels_only.channel_loc_[2]
    np.testing.assert_allclose(kernels_only.transform(WINDOWS[7:8]), kernels_only.transform(at_mean), atol=1e-6)


def test_level_and_observed_columns_by_hand(encoder):
    E = encoder.transform(WINDOWS)
    names = list(encoder.get_feature_names_out())
    raw = E * encoder.feature_scale_ + encoder.feature_loc_
    # window 0, channel 1: 24 observed steps, all of them in its last 30
    observed = WINDOWS[0, 1, 40:]
    assert raw[0, names.index("mean_x1")] == pytest.approx(observed.mean(), abs=1e-5)
    assert raw[0, names.index("mean30_x1")] == pytest.approx(observed[-30:].mean(), abs=1e-5)
    assert raw[0, names.index("observed_x1")] == pytest.approx(24 / 64)
    assert raw[6, names.index("observed_x1")] == pytest.approx(54 / 64)
    # a channel never observed in a window has no level: the column is 0, the training mean
    assert E[7, names.index("mean_x2")] == 0 and E[7, names.index("mean30_x2")] == 0
    assert raw[7, names.index("observed_x2")] == pytest.approx(0, abs=1e-6)


def test_training_columns_are_standardised(encoder):
    E = encoder.transform(WINDOWS)
    names = list(encoder.get_feature_names_out())
    # channel 2's level is unseen in window 7: its statistics are those of the other windows
    unseen_level = np.isin(np.arange(E.shape[1]), [names.index("mean_x2"), names.index("mean30_x2")])
    varying = encoder.feature_scale_ != 1
    np.testing.assert_allclose(E.mean(axis=0), 0, atol=1e-5)
    np.testing.assert_allclose(E.std(axis=0)[varying & ~unseen_level], 1, rtol=1e-4)
    others = np.delete(E[:, unseen_level], 7, axis=0)
    np.testing.assert_allclose(others.mean(axis=0), 0, atol=1e-5)
    np.testing.assert_allclose(others.std(axis=0), 1, rtol=1e-4)
    assert E.dtype == np.float32


def test_shapes_and_names(encoder):
    assert encoder.transform(WINDOWS).shape == (24, 252 + 3 * 3)
    names = encoder.get_feature_names_out()
    assert names[0] == "minirocket0" and names[251] == "minirocket251"
    assert list(names[252:]) == [f"{k}_x{c}" for k in ("mean", "mean30", "observed") for c in range(3)]
    # n_kernels is rounded down to a multiple of 84, as aeon does
    small = MiniRocketEncoder(n_kernels=200, observed_fraction=False, random_state=0).fit(WINDOWS)
    assert small.transform(WINDOWS).shape == (24, 168 + 2 * 3)
    assert len(small.get_feature_names_out()) == 168 + 6


def test_fixed_random_state_gives_identical_features(encoder):
    again = MiniRocketEncoder(random_state=0).fit(WINDOWS)
    np.testing.assert_array_equal(encoder.transform(WINDOWS), again.transform(WINDOWS))
    other = MiniRocketEncoder(random_state=1).fit(WINDOWS)
    assert not np.array_equal(encoder.transform(WINDOWS), other.transform(WINDOWS))


def test_fit_leaves_numpy_global_generator_alone():
    np.random.seed(123)
    expected = np.random.random_sample(3)
    np.random.seed(123)
    MiniRocketEncoder(random_state=0).fit(WINDOWS)
    np.testing.assert_array_equal(np.random.random_sample(3), expected)


def test_windows_shorter_than_nine_steps_are_left_padded():
    short = RNG.normal(size=(10, 2, 5)).astype(np.float32)
    padded = np.concatenate([np.full((10, 2, 4), nan, np.float32), short], axis=2)
    E = MiniRocketEncoder(**KERNELS_ONLY).fit(short).transform(short)
    np.testing.assert_array_equal(E, MiniRocketEncoder(**KERNELS_ONLY).fit(padded).transform(padded))
    assert E.shape == (10, 252)


def test_shorter_windows_in_transform_are_left_padded_to_the_fitted_length(kernels_only):
    end = WINDOWS[8:12, :, 24:]
    padded = np.concatenate([np.full((4, 3, 24), nan, np.float32), end], axis=2)
    np.testing.assert_array_equal(kernels_only.transform(end), kernels_only.transform(padded))


def test_longer_windows_in_transform_are_read_whole(encoder, kernels_only):
    """MiniRocket's dilations, biases and channel choices apply to any length: read whole."""
    longer = RNG.normal(size=(3, 3, 100)).astype(np.float32)
    longer[1, :, :20] = nan
    E = encoder.transform(longer)
    assert E.shape == (3, 252 + 3 * 3) and np.isfinite(E).all()
    raw = E * encoder.feature_scale_ + encoder.feature_loc_
    names = list(encoder.get_feature_names_out())
    assert raw[1, names.index("observed_x0")] == pytest.approx(80 / 100)
    assert raw[0, names.index("mean_x2")] == pytest.approx(longer[0, 2].mean(), abs=1e-5)
    # the kernel features count the whole window, not its last 64 steps
    kernels = kernels_only.transform(longer)
    assert not np.allclose(kernels, kernels_only.transform(longer[:, :, -64:]))
    # longer windows take aeon's numeric core, which at the fitted length computes what its transform does
    loc, scale = kernels_only.channel_loc_, kernels_only.channel_scale_
    block = kernels_only._kernel_input(WINDOWS[:4], loc, scale, 64)
    minirocket = kernels_only.minirocket_
    np.testing.assert_array_equal(minirocket._transform(block), minirocket.transform(block))


def test_kernel_features_carry_a_level_free_signal():
    # two classes with the same level and spread, one a slow sine, one a fast one
    steps = np.arange(64)
    label = np.arange(80) % 2 == 1
    period = np.where(label, 4.0, 16.0)
    X = np.sin(2 * np.pi * steps / period[:, None] + RNG.uniform(0, 6, size=(80, 1)))
    X = (X + RNG.normal(scale=0.3, size=X.shape))[:, None, :].astype(np.float32)
    E = MiniRocketEncoder(**KERNELS_ONLY).fit(X[:40]).transform(X)
    accuracy = LogisticRegression(max_iter=1000).fit(E[:40], label[:40]).score(E[40:], label[40:])
    assert accuracy > 0.9


def test_pipeline_with_event_predictor(tiny_event_params):
    y = make_survival_y(np.arange(24) % 3 != 0, 1 + np.arange(24) % 9)
    pipe = make_pipeline(MiniRocketEncoder(random_state=0), HEPAEventPredictor(**tiny_event_params))
    P = pipe.fit(WINDOWS, y).predict_proba(WINDOWS)
    assert P.shape == (24, tiny_event_params["K"])
    assert np.all(np.diff(P, axis=1) >= 0)


def test_pickle_round_trip(encoder):
    restored = pickle.loads(pickle.dumps(encoder))
    np.testing.assert_array_equal(restored.transform(WINDOWS), encoder.transform(WINDOWS))


@pytest.mark.parametrize(
    "params, name",
    [
        ({"n_kernels": 10}, "n_kernels"),
        ({"n_kernels": 252.0}, "n_kernels"),
        ({"window_level": "yes"}, "window_level"),
        ({"observed_fraction": 1}, "observed_fraction"),
        ({"max_dilations_per_kernel": 0}, "max_dilations_per_kernel"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"random_state": "seed"}, "random_state"),
    ],
)
def test_bad_parameters_are_named(params, name):
    with pytest.raises(ValueError, match=name):
        MiniRocketEncoder(**params).fit(WINDOWS)


def test_transform_refuses_another_channel_count(encoder):
    with pytest.raises(ValueError, match="channels"):
        encoder.transform(WINDOWS[:, :2])


def test_missing_aeon_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "aeon.transformations.collection.convolution_based", None)
    with pytest.raises(ImportError, match=r"hepa-sklearn\[minirocket\]"):
        clone(MiniRocketEncoder()).fit(WINDOWS)


# the package reads 2-D X as single-channel windows, and MiniRocket's dilations are fitted to the window length
MINIROCKET_FAILURES = {
    "check_estimators_empty_data_messages": "raises ValueError 'X is empty: shape (n, 0)...', not sklearn's wording",
    "check_fit2d_predict1d": "1-D input raises ValueError naming the accepted shapes, without 'Reshape your data'",
    "check_n_features_in": "2-D X is single-channel windows: n_features_in_ counts channels (1), not X.shape[1]",
    "check_n_features_in_after_fitting": (
        "2-D X is single-channel windows: n_features_in_ is 1, and 2-D X with fewer columns is a shorter window, "
        "which transform left-pads to the fitted length"
    ),
    "check_transformer_general": "2-D X with fewer columns is one channel of shorter windows, which transform accepts",
    "check_dtype_object": "a non-numeric object entry raises TypeError 'X must hold numbers...', not numpy's wording",
}


@parametrize_with_checks(
    [MiniRocketEncoder(n_kernels=84, random_state=0)],
    expected_failed_checks=lambda estimator: MINIROCKET_FAILURES,
    xfail_strict=True,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
