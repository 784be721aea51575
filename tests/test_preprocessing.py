"""Tests for hepa_sklearn.preprocessing: regime-aware normalisation of windows."""

import pickle

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.exceptions import NotFittedError

from hepa_sklearn import RegimeNormalizer, preprocessing
from hepa_sklearn.datasets import CMAPSS_SENSORS, load_cmapss
from hepa_sklearn.windows import make_windows

nan = np.nan

# One window, 7 steps, channels: a setting, and two sensors. The setting is 0
# for steps 0-2 (regime A), 10 for steps 3-5 (regime B), missing at step 6.
#   sensor a: A has 1, 3, 5 (mean 3, std sqrt(8/3)); B has 10, 20, 30 (mean 20,
#     std sqrt(200/3)). Both normalise to -sqrt(3/2), 0, sqrt(3/2).
#     Over the six assignable steps: mean 69/6 = 11.5, variance 641.5/6.
#   sensor b: constant 7 in A (std 0, so scale 1: output 0); B has 1, 2, 3
#     (mean 2, std sqrt(2/3): output -sqrt(3/2), 0, sqrt(3/2)).
HAND = np.array([[[0, 0, 0, 10, 10, 10, nan], [1, 3, 5, 10, 20, 30, 1], [7, 7, 7, 1, 2, 3, nan]]], dtype=np.float32)
ROOT = np.sqrt(1.5)
HAND_SENSOR_A = [-ROOT, 0, ROOT, -ROOT, 0, ROOT, (1 - 11.5) / np.sqrt(641.5 / 6)]
HAND_SENSOR_B = [0, 0, 0, -ROOT, 0, ROOT, nan]

# Three regimes in two settings of different scale (altitude-like and Mach-like)
CENTERS = np.array([[0.0, 0.2], [20.0, 0.5], [40.0, 0.8]])
OFFSETS = np.array([[100.0, -5.0, 0.0], [140.0, 5.0, 1.0], [180.0, 0.0, 2.0]])  # (regime, sensor)
SCALES = np.array([[1.0, 0.1, 3.0], [2.0, 0.2, 3.0], [4.0, 0.3, 3.0]])


def three_regimes(n=40, T=50, seed=0):
    """Windows (n, 5, T): two settings, then three sensors whose level and spread depend on the regime."""
    rng = np.random.default_rng(seed)
    regime = rng.integers(0, 3, size=(n, T))
    settings = CENTERS[regime] + rng.normal(0, [0.1, 0.002], size=(n, T, 2))
    sensors = OFFSETS[regime] + SCALES[regime] * rng.normal(size=(n, T, 3))
    X = np.concatenate([settings, sensors], axis=2).transpose(0, 2, 1)
    return X.astype(np.float32), regime


def regime_of_center(model, center):
    return int(np.argmin(np.abs(model.regime_centers_[:, 0] - center)))


def test_hand_example():
    model = RegimeNormalizer([0], n_regimes=2).fit(HAND)
    a, b = regime_of_center(model, 0), regime_of_center(model, 10)
    np.testing.assert_allclose(model.regime_centers_[[a, b], 0], [0, 10])
    np.testing.assert_allclose(model.regime_mean_[[a, b]], [[3, 7], [20, 2]], rtol=1e-6)
    np.testing.assert_allclose(
        model.regime_std_[[a, b]], [[np.sqrt(8 / 3), 1], [np.sqrt(200 / 3), np.sqrt(2 / 3)]], rtol=1e-6
    )
    np.testing.assert_allclose(model.global_mean_[0], 11.5)
    Z = model.transform(HAND)
    assert Z.shape == (1, 2, 7) and Z.dtype == np.float32
    np.testing.assert_allclose(Z[0, 0], HAND_SENSOR_A, atol=1e-6)
    np.testing.assert_allclose(Z[0, 1], HAND_SENSOR_B, atol=1e-6)


def test_keep_settings_standardises_them_in_place():
    model = RegimeNormalizer([0], n_regimes=2, drop_settings=False).fit(HAND)
    Z = model.transform(HAND)
    assert Z.shape == (1, 3, 7)
    # setting 0,0,0,10,10,10: mean 5, std 5
    np.testing.assert_allclose(Z[0, 0], [-1, -1, -1, 1, 1, 1, nan])
    np.testing.assert_allclose(Z[0, 1], HAND_SENSOR_A, atol=1e-6)
    np.testing.assert_allclose(Z[0, 2], HAND_SENSOR_B, atol=1e-6)


def test_regime_without_a_channel_falls_back_to_global():
    X = HAND.copy()
    X[0, 2, 3:6] = nan  # sensor b never observed in regime B
    model = RegimeNormalizer([0], n_regimes=2).fit(X)
    b = regime_of_center(model, 10)
    # sensor b over the assignable steps: 7, 7, 7 only
    assert model.global_mean_[1] == pytest.approx(7.0) and model.global_std_[1] == 1.0
    assert model.regime_mean_[b, 1] == pytest.approx(7.0) and model.regime_std_[b, 1] == 1.0


def test_three_known_regimes_become_standard():
    X, regime = three_regimes()
    model = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    np.testing.assert_allclose(model.regime_centers_[np.argsort(model.regime_centers_[:, 0])], CENTERS, atol=0.02)
    Z = model.transform(X)
    assert Z.shape == (40, 3, 50)
    for r in range(3):
        values = Z.transpose(0, 2, 1)[regime == r]  # (steps of regime r, 3)
        np.testing.assert_allclose(values.mean(axis=0), 0, atol=1e-4)
        np.testing.assert_allclose(values.std(axis=0), 1, atol=1e-4)


def test_nan_preserved_and_missing_settings_use_global_statistics():
    X, regime = three_regimes()
    X[:, 2:, :7] = nan  # left padding of the sensors
    X[3, 4, 20] = nan  # one missing sensor value
    X[5, 1, 30] = nan  # one missing setting
    model = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    Z = model.transform(X)
    np.testing.assert_array_equal(np.isnan(Z), np.isnan(X[:, 2:]))
    expected = (X[5, 2:, 30] - model.global_mean_) / model.global_std_
    np.testing.assert_allclose(Z[5, :, 30], expected, rtol=1e-6)
    steps = X[:, 2:].transpose(0, 2, 1)[~np.isnan(X[:, :2]).any(axis=1)]
    np.testing.assert_allclose(model.global_mean_, np.nanmean(steps, axis=0, dtype=np.float64), rtol=1e-9)


def test_drop_settings_shapes_and_order():
    X, _ = three_regimes(n=6, T=20)
    dropped = RegimeNormalizer([3, 0], n_regimes=3).fit_transform(X)
    kept = RegimeNormalizer([3, 0], n_regimes=3, drop_settings=False).fit_transform(X)
    assert dropped.shape == (6, 3, 20) and kept.shape == (6, 5, 20)
    np.testing.assert_array_equal(kept[:, [1, 2, 4]], dropped)


def test_chunked_transform_matches(monkeypatch):
    X, _ = three_regimes()
    model = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    whole = model.transform(X)
    monkeypatch.setattr(preprocessing, "CHUNK", 7)
    np.testing.assert_array_equal(model.transform(X), whole)


def test_subsample_is_reproducible_and_bounded():
    X, _ = three_regimes()
    first = RegimeNormalizer([0, 1], n_regimes=3, max_samples=300, random_state=1).fit(X)
    second = RegimeNormalizer([0, 1], n_regimes=3, max_samples=300, random_state=1).fit(X)
    full = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    np.testing.assert_array_equal(first.regime_mean_, second.regime_mean_)
    np.testing.assert_array_equal(first.transform(X), second.transform(X))
    assert not np.array_equal(first.regime_mean_, full.regime_mean_)  # 300 of 2000 steps


@pytest.mark.parametrize(
    "setting_channels, message",
    [
        ([0, 0], "must not repeat"),
        ([5], r"must lie in \[0, 5\)"),
        ([-1], r"must lie in \[0, 5\)"),
        ([0, 1, 2, 3, 4], "names every channel"),
        (["a"], "non-empty list of integers"),
        ([], "non-empty list of integers"),
        (0, "list of channel indices"),
        ("0", "list of channel indices"),
    ],
)
def test_bad_setting_channels(setting_channels, message):
    X, _ = three_regimes(n=4, T=10)
    with pytest.raises(ValueError, match=f"parameter setting_channels {message}|{message}"):
        RegimeNormalizer(setting_channels).fit(X)


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(n_regimes=0), "'n_regimes' parameter of RegimeNormalizer must be"),
        (dict(drop_settings="yes"), "'drop_settings' parameter of RegimeNormalizer must be"),
        (dict(max_samples=0), "'max_samples' parameter of RegimeNormalizer must be"),
        (dict(n_regimes=3, max_samples=2), "max_samples=2 must be at least n_regimes=3"),
    ],
)
def test_bad_parameters_are_named(params, message):
    X, _ = three_regimes(n=4, T=10)
    with pytest.raises(ValueError, match=message):
        RegimeNormalizer([0], **params).fit(X)


def test_too_few_assignable_steps():
    X, _ = three_regimes(n=2, T=10)
    X[:, 0] = nan
    X[0, 0, :2] = 1.0
    with pytest.raises(
        ValueError,
        match=r"X has 2 time steps with the setting channels \[0\] observed, "
        r"fewer than the 3",
    ):
        RegimeNormalizer([0], n_regimes=3).fit(X)


def test_transform_checks_channels_and_fit():
    X, _ = three_regimes(n=4, T=10)
    with pytest.raises(NotFittedError):
        RegimeNormalizer([0]).transform(X)
    model = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    with pytest.raises(ValueError, match="X has 4 channels.*fitted with 5 channels"):
        model.transform(X[:, :4])


def test_pickle_round_trip():
    X, _ = three_regimes()
    model = RegimeNormalizer([0, 1], n_regimes=3).fit(X)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.transform(X), model.transform(X))


def test_fd002_regimes_remove_the_condition_jumps():
    frame = load_cmapss("FD002", context_length=1, stride=1000).frame
    frame = frame[frame["unit"].isin(np.unique(frame["unit"])[:8])]
    X, y, _ = make_windows(
        frame,
        feature_cols=["setting1", "setting2", "setting3", *CMAPSS_SENSORS],
        event_col="failure",
        unit_col="unit",
        time_col="cycle",
        context_length=64,
        stride=16,
        min_history=64,
    )
    model = RegimeNormalizer([0, 1, 2]).fit(X)
    # the six C-MAPSS conditions: (altitude in kft, Mach, throttle resolver angle)
    conditions = np.array(
        [[0, 0, 100], [10, 0.25, 100], [20, 0.7, 100], [25, 0.62, 60], [35, 0.84, 100], [42, 0.84, 100]]
    )
    found = model.regime_centers_[np.argsort(model.regime_centers_[:, 0])]
    np.testing.assert_allclose(found, conditions, atol=0.05)

    regime = model.transform(X)
    sensors = X[:, 3:].astype(np.float64)
    z = (sensors - np.nanmean(sensors, axis=(0, 2))[:, None]) / np.nanstd(sensors, axis=(0, 2))[:, None]
    within_global = np.nanstd(z, axis=2).mean(axis=0)  # (14,) mean within-window std
    within_regime = np.nanstd(regime, axis=2).mean(axis=0)
    # Measured on these 65 windows: global 0.98-0.99 for every sensor (the
    # condition jumps fill each window), regime 0.39-0.91, mean 0.74.
    assert within_global.min() > 0.95
    assert (within_regime < within_global).all()
    assert within_regime.mean() < 0.8

    # The degradation becomes visible: window means against time to failure,
    # mean |Spearman| 0.10 after the global z-score and 0.50 per regime.
    event = y["event"]

    def mean_correlation(Z):
        return np.mean([abs(spearmanr(np.nanmean(Z[event, c], axis=1), y["time"][event])[0]) for c in range(14)])

    assert mean_correlation(z) < 0.2
    assert mean_correlation(regime) > 0.4


BAD_SPANS = [((0,), "got 0"), ((None, -5), "got -5"), ((2.5,), "got 2.5"), ((True,), "got True")]


@pytest.mark.parametrize("spans, found", [*BAD_SPANS, ((), "empty"), (30, "30")])
def test_window_level_refuses_spans_that_are_not_whole_numbers_of_steps(spans, found):
    X = np.arange(24.0).reshape(2, 3, 4)
    with pytest.raises((TypeError, ValueError), match=rf"spans .*{found}"):
        preprocessing.window_level(X, spans=spans)


def test_window_level_reads_integer_spans_of_any_kind():
    X = np.arange(24.0).reshape(2, 3, 4)
    expected = preprocessing.window_level(X, spans=(None, 2))
    np.testing.assert_array_equal(preprocessing.window_level(X, spans=[None, np.int64(2)]), expected)
    np.testing.assert_array_equal(expected[:, 6:9], X[:, :, -2:].mean(axis=-1))
