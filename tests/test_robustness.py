"""Edge cases of the inputs not covered by the estimator tests: ragged, 1-D, short, constant, huge."""

import warnings

import numpy as np
import pandas as pd
import pytest

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.baselines import summary_features
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training import TrainingDivergedError
from tests.conftest import TINY_EVENT_PREDICTOR, TINY_PRETRAINER

RNG = np.random.default_rng(5)
X = RNG.normal(size=(40, 3, 48)).astype(np.float32)
Y = make_survival_y(RNG.random(40) < 0.8, RNG.integers(1, 15, 40))


def pretrainer(**params):
    return HEPAPretrainer(**{**TINY_PRETRAINER, **params})


@pytest.mark.parametrize(
    "bad, match",
    [
        ([[[0.0, 1.0], [2.0]]], "rectangular"),
        (np.zeros(48, np.float32), "3-D .* or 2-D"),
        (np.zeros((1, 3, 48), np.float32), "leaves no training sample"),
    ],
    ids=["ragged", "1-D", "one-window-with-early-stopping"],
)
def test_bad_X_names_the_problem(bad, match):
    with pytest.raises(ValueError, match=match):
        pretrainer().fit(bad)


def test_object_array_of_numbers_is_read_as_floats():
    pre = pretrainer().fit(X)
    np.testing.assert_array_equal(pre.transform(X.astype(object)), pre.transform(X))


def test_float64_and_integer_windows_are_cast_to_float32():
    integers = np.round(X * 10).astype(np.int64)
    as_float32 = integers.astype(np.float32)
    reference = pretrainer().fit(as_float32)
    for dtype in (np.int64, np.int32, np.float64):
        pre = pretrainer().fit(integers.astype(dtype))
        E = pre.transform(integers.astype(dtype))
        assert E.dtype == np.float32
        np.testing.assert_array_equal(E, reference.transform(as_float32))


def test_float64_and_integer_embeddings_are_cast_to_float32():
    E = np.round(X[:, 0] * 10).astype(np.float32)
    reference = HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E, Y).predict_proba(E)
    for dtype in (np.int64, np.float64):
        model = HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E.astype(dtype), Y)
        np.testing.assert_array_equal(model.predict_proba(E.astype(dtype)), reference)


def test_channels_on_wildly_different_scales_match_the_rescaled_fit():
    # global normalisation divides each channel by its own scale, so scales
    # from 1e-6 to 1e6 give the embeddings of the unscaled windows
    scales = np.array([1e-6, 1.0, 1e6], np.float32)[None, :, None]
    pre = pretrainer(norm="global", max_epochs=2).fit(X * scales)
    reference = pretrainer(norm="global", max_epochs=2).fit(X)
    assert np.isfinite(pre.history_[:, "train_loss"]).all()
    np.testing.assert_allclose(pre.channel_scale_ / reference.channel_scale_, scales.ravel(), rtol=1e-4)
    np.testing.assert_allclose(pre.transform(X * scales), reference.transform(X), atol=1e-3)


@pytest.mark.parametrize(
    "y, error, match",
    [
        (make_survival_y(np.ones(40, bool), np.where(np.arange(40) == 3, np.nan, 5.0)), ValueError, "NaN"),
        (Y.reshape(20, 2), ValueError, "1-D"),
        (np.zeros(40, [("event", bool), ("time", "U3")]), TypeError, "numeric"),
    ],
    ids=["nan-time", "2-D", "text-time"],
)
def test_bad_y_names_the_problem(y, error, match):
    with pytest.raises(error, match=match):
        HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(X[:, 0], y)


@pytest.mark.parametrize("norm", ["revin", "global", "none"])
def test_constant_windows_and_channels_train_and_embed(norm):
    constant = np.ones_like(X)
    constant[:20, 1] = RNG.normal(size=(20, 48))  # half the windows have one varying channel
    pre = pretrainer(norm=norm, max_epochs=2).fit(constant)
    assert np.isfinite(pre.history_[:, "train_loss"]).all()
    assert np.isfinite(pre.transform(constant)).all()


@pytest.mark.parametrize("exponent", [-3, 9])
@pytest.mark.parametrize("norm", ["revin", "global"])
def test_tiny_and_huge_magnitudes_train(norm, exponent):
    scaled = X * np.float32(10.0**exponent)
    pre = pretrainer(norm=norm).fit(scaled)
    assert np.isfinite(pre.history_[:, "train_loss"]).all()
    E = pre.transform(scaled)
    assert np.isfinite(E).all()
    P = HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(E, Y).predict_proba(E)
    assert np.isfinite(P).all()


def test_diverged_pretraining_keeps_the_previous_fit():
    pre = pretrainer(norm="none").fit(X)
    before = pre.transform(X)
    with pytest.raises(TrainingDivergedError, match="at epoch 1, batch 1"):
        pre.fit(X * np.float32(1e20))
    np.testing.assert_array_equal(pre.transform(X), before)


def test_windows_too_short_to_pretrain_are_reported():
    P = HEPAPretrainer().patch_size
    with pytest.raises(ValueError, match=f"more than patch_size={P} steps"):
        pretrainer().fit(X[:, :, :P])
    half = len(X) // 2 + len(X) % 2
    short = X.copy()
    short[:half, :, : X.shape[2] - P] = np.nan  # half the windows with only one patch of history
    with pytest.warns(UserWarning, match=f"{half} of {len(X)} windows have at most patch_size={P} steps"):
        pretrainer().fit(short)


def test_a_few_windows_too_short_to_pretrain_are_normal():
    # the first windows of each unit of a fleet are that short as a matter of course: no warning
    P = HEPAPretrainer().patch_size
    short = X.copy()
    short[: len(X) // 2 - 1, :, : X.shape[2] - P] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pretrainer().fit(short)


def test_global_norm_trains_on_values_near_1e20():
    pre = pretrainer(norm="global").fit(X * np.float32(1e20))
    assert np.isfinite(pre.transform(X * np.float32(1e20))).all()


def test_transform_of_overflowing_windows_is_an_error():
    pre = pretrainer(norm="global").fit(X)
    with pytest.raises(ValueError, match=r"transform produced non-finite values for \d+ of"):
        pre.transform(X * np.float32(1e20))


def test_a_single_window_without_early_stopping_trains_and_embeds():
    pre = pretrainer(early_stopping=False).fit(X[:1])
    assert pre.n_epochs_ == 1
    assert np.isfinite(pre.transform(X[:1])).all()
    model = HEPAEventPredictor(**{**TINY_EVENT_PREDICTOR, "early_stopping": False})
    P = model.fit(pre.transform(X[:1]), make_survival_y([True], [3])).predict_proba(pre.transform(X))
    assert P.shape == (40, TINY_EVENT_PREDICTOR["K"]) and np.isfinite(P).all()


def test_baseline_rejects_infinite_windows_by_name():
    with pytest.raises(ValueError, match="X contains infinite values"):
        GradientBoostingEventPredictor(K=10).fit(np.where(X > 3, np.inf, X), Y)


def wide_frame():
    """Three sensors over 48 steps of one series: rows are steps, not windows."""
    return pd.DataFrame(RNG.normal(size=(48, 3)), columns=["vibration", "temperature", "pressure"])


@pytest.mark.parametrize(
    "estimator", [pretrainer(), GradientBoostingEventPredictor(K=10, max_iter=5)], ids=["pretrainer", "boosting"]
)
def test_a_wide_frame_is_refused_not_read_as_one_channel(estimator):
    # read as windows it would be 48 one-channel windows of 3 steps, the sensor names lost
    with pytest.raises(TypeError, match=r"reads two ways.*X\.to_numpy\(\).*layout='long'"):
        estimator.fit(wide_frame(), make_survival_y(np.ones(48, bool), np.ones(48)))
    with pytest.raises(TypeError, match="layout='long'"):
        summary_features(wide_frame())


def test_a_multiindex_frame_is_refused_naming_its_layout():
    frame = wide_frame().set_index(pd.MultiIndex.from_product([["u1", "u2"], range(24)]))
    with pytest.raises(TypeError, match="layout='pd-multiindex'"):
        pretrainer().fit(frame)


def test_a_frame_of_windows_works_through_to_numpy():
    windows = pd.DataFrame(X[:, 0, :])
    pre = pretrainer().fit(windows.to_numpy())
    assert pre.n_features_in_ == 1 and pre.n_timepoints_in_ == 48
    with pytest.raises(TypeError, match="to_numpy"):
        pre.transform(windows)
