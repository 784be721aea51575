"""Tests for SurfaceCalibrator: the fitted maps, monotone rows, input checks, properties."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression

from hepa_sklearn import SurfaceCalibrator
from hepa_sklearn.metrics import brier_decomposition, expected_calibration_error, monotonicity_violation_rate
from hepa_sklearn.surface import label_surface, make_survival_y

# K = 2. Row 0 (event at 1): labels 1 1; row 1 (event at 2): 0 1; rows 2, 3
# (censored at 5): 0 0. Every cell is known.
Y = make_survival_y([True, True, False, False], [1, 2, 5, 5])
PROBA = np.array([[0.6, 0.7], [0.5, 0.6], [0.3, 0.6], [0.2, 0.3]])
# Pooled cells, sorted: .2:0, .3:0, .3:0, .5:0, .6:{1, 1, 0}, .7:1. Already in
# order, so isotonic regression maps each value to its event rate:
# .2, .3, .5 -> 0; .6 -> 2/3; .7 -> 1.
ISOTONIC = np.array([[2 / 3, 1.0], [0.0, 2 / 3], [0.0, 2 / 3], [0.0, 0.0]])


def cells_y(labels):
    """A survival target whose K = 1 label surface is ``labels``, every cell known."""
    labels = np.asarray(labels, dtype=bool)
    return make_survival_y(labels, np.where(labels, 1, 2))


def random_problem(rng, n, K):
    """Monotone surfaces that rank windows by their time to event, with noise."""
    time = rng.integers(1, K + 4, n)
    y = make_survival_y(rng.random(n) < 0.8, time)
    labels, _ = label_surface(y, K)
    noisy = 0.6 * labels + 0.4 * rng.random((n, K))
    return np.maximum.accumulate(noisy, axis=1), y


# --------------------------------------------------------------------------
# Hand-computed maps
# --------------------------------------------------------------------------


def test_isotonic_hand_computed():
    calibrator = SurfaceCalibrator().fit(PROBA, Y)
    calibrated = calibrator.predict_proba(PROBA)
    np.testing.assert_allclose(calibrated, ISOTONIC)
    assert calibrated.dtype == np.float64 and calibrated.shape == (4, 2)
    assert isinstance(calibrator.calibrator_, IsotonicRegression)
    assert calibrator.n_features_in_ == 2


def test_isotonic_interpolates_and_clips():
    calibrator = SurfaceCalibrator(method="isotonic").fit(PROBA, Y)
    # 0.0 is below the fitted range: clipped to g(.2) = 0; 0.95 above: g(.7) = 1.
    # 0.55 is halfway from .5 (0) to .6 (2/3): 1/3; 0.65 halfway to .7 (1): 5/6.
    calibrated = calibrator.predict_proba([[0.0, 0.55], [0.65, 0.95]])
    np.testing.assert_allclose(calibrated, [[0.0, 1 / 3], [5 / 6, 1.0]])


def test_sigmoid_keeps_a_calibrated_surface():
    # at p = 1/4, 1/2, 3/4: 1 of 4, 2 of 4, 3 of 4 cells positive. The event
    # rate equals p at every value, so slope 1 and intercept 0 solve the
    # logistic score equations: the fitted map is the identity.
    proba = np.repeat([0.25, 0.5, 0.75], 4)[:, None]
    labels = [1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0]
    calibrator = SurfaceCalibrator(method="sigmoid").fit(proba, cells_y(labels))
    assert isinstance(calibrator.calibrator_, LogisticRegression)
    assert calibrator.calibrator_.coef_[0, 0] == pytest.approx(1.0, abs=1e-3)
    assert calibrator.calibrator_.intercept_[0] == pytest.approx(0.0, abs=1e-3)
    np.testing.assert_allclose(calibrator.predict_proba(proba), proba, atol=1e-3)


def test_sigmoid_hand_computed_slope():
    # logit(1/3) = -ln 2, logit(2/3) = ln 2. Rates 1/5 and 4/5 are
    # expit(∓2 ln 2) = 1 / (1 + 4) and 4 / (4 + 1): the rates sit on
    # expit(2 logit(p)), so slope 2 and intercept 0 are the maximum likelihood.
    proba = np.repeat([1 / 3, 2 / 3], 5)[:, None]
    labels = [1, 0, 0, 0, 0, 1, 1, 1, 1, 0]
    calibrator = SurfaceCalibrator(method="sigmoid").fit(proba, cells_y(labels))
    # lbfgs stops at sklearn's default tolerance, a slope about 1e-3 short of 2
    assert calibrator.calibrator_.coef_[0, 0] == pytest.approx(2.0, abs=1e-2)
    assert calibrator.calibrator_.intercept_[0] == pytest.approx(0.0, abs=1e-3)
    # p = 1/2 has logit 0 and stays 1/2
    np.testing.assert_allclose(calibrator.predict_proba([[1 / 3], [1 / 2], [2 / 3]]), [[0.2], [0.5], [0.8]], atol=1e-3)


def test_sigmoid_pools_horizons():
    # One map over all cells: a K = 2 surface gives the same map as its cells
    # stacked into one column. Rows: time 1 (positive at both horizons), then
    # four windows censored at 5 (negative at both).
    y = make_survival_y([True] + [False] * 4, [1, 5, 5, 5, 5])
    proba = np.array([[1, 2], [1, 2], [1, 1], [1, 2], [1, 2]]) / 3
    # event rate 1/6 at p = 1/3 and 1/4 at p = 2/3: a positive slope
    pooled = SurfaceCalibrator(method="sigmoid").fit(proba, y)
    stacked = SurfaceCalibrator(method="sigmoid").fit(proba.reshape(-1, 1), cells_y(label_surface(y, 2)[0].ravel()))
    assert pooled.calibrator_.coef_[0, 0] == pytest.approx(stacked.calibrator_.coef_[0, 0])
    np.testing.assert_allclose(pooled.predict_proba(proba), stacked.predict_proba(proba.reshape(-1, 1)).reshape(5, 2))


def test_transform_is_predict_proba():
    calibrator = SurfaceCalibrator().fit(PROBA, Y)
    np.testing.assert_array_equal(calibrator.transform(PROBA), calibrator.predict_proba(PROBA))


def test_only_known_cells_are_fitted():
    y = make_survival_y([True, True, False, False, False], [1, 2, 5, 5, 0])
    proba = np.vstack([PROBA, [[0.99, 0.99]]])  # the new row is unknown everywhere
    calibrator = SurfaceCalibrator().fit(proba, y)
    np.testing.assert_allclose(calibrator.predict_proba(PROBA), ISOTONIC)


def test_non_monotone_rows_are_mapped_cellwise():
    calibrator = SurfaceCalibrator().fit(PROBA, Y)
    # a decreasing input row is not forced to increase: .7 -> 1, .5 -> 0
    np.testing.assert_allclose(calibrator.predict_proba([[0.7, 0.5]]), [[1.0, 0.0]])


def test_clone_keeps_method_and_drops_fit():
    calibrator = SurfaceCalibrator(method="sigmoid").fit(PROBA, Y)
    fresh = clone(calibrator)
    assert fresh.get_params() == {"method": "sigmoid"}
    assert not hasattr(fresh, "calibrator_")


def test_calibration_lowers_ece_on_the_fitted_cells():
    # The example of the docstring: ECE .225 before, 0 after.
    calibrated = SurfaceCalibrator().fit(PROBA, Y).predict_proba(PROBA)
    assert expected_calibration_error(Y, PROBA) == pytest.approx(0.225)
    assert expected_calibration_error(Y, calibrated) == pytest.approx(0.0, abs=1e-12)


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["platt", "Isotonic", None, 1])
def test_bad_method_is_rejected_in_fit(method):
    calibrator = SurfaceCalibrator(method=method)  # __init__ only stores it
    with pytest.raises(ValueError, match=r"'method' parameter of SurfaceCalibrator must be a str among"):
        calibrator.fit(PROBA, Y)


@pytest.mark.parametrize(
    "proba, message",
    [
        (PROBA[:, 0], "2-D"),
        (PROBA[None], "2-D"),
        (PROBA[:3], "proba has 3 rows but y has 4 samples"),
        (np.where(np.eye(4, 2, dtype=bool), np.nan, PROBA), "NaN"),
        (np.where(np.eye(4, 2, dtype=bool), np.inf, PROBA), "infinite"),
        (PROBA - 0.25, r"\[0, 1\]"),
        (PROBA + 0.5, r"\[0, 1\]"),
    ],
)
@pytest.mark.parametrize("method", ["isotonic", "sigmoid"])
def test_bad_proba_in_fit(proba, message, method):
    with pytest.raises(ValueError, match=message):
        SurfaceCalibrator(method=method).fit(proba, Y)


def test_no_known_cell():
    y = make_survival_y([False, False], [0, 0])
    with pytest.raises(ValueError, match="no known cell"):
        SurfaceCalibrator().fit([[0.1], [0.2]], y)


@pytest.mark.parametrize(
    "event, time, which", [([True, True], [1, 1], "positive"), ([True, False], [9, 9], "negative")]
)
def test_single_class(event, time, which):
    with pytest.raises(ValueError, match=f"only {which} labels"):
        SurfaceCalibrator().fit([[0.1, 0.2], [0.3, 0.4]], make_survival_y(event, time))


def test_unstructured_y_rejected():
    with pytest.raises(TypeError, match="structured"):
        SurfaceCalibrator().fit(PROBA, np.array([1.0, 2.0, 5.0, 5.0]))


def test_sigmoid_rejects_an_anti_correlated_surface():
    with pytest.raises(ValueError, match="anti-correlated"):
        SurfaceCalibrator(method="sigmoid").fit(1.0 - PROBA, Y)


def test_predict_before_fit():
    with pytest.raises(NotFittedError):
        SurfaceCalibrator().predict_proba(PROBA)


def test_predict_checks_the_number_of_horizons():
    calibrator = SurfaceCalibrator().fit(PROBA, Y)
    with pytest.raises(ValueError, match="proba has 3 columns .* fitted on 2"):
        calibrator.predict_proba(np.full((4, 3), 0.5))


@pytest.mark.parametrize("proba, message", [([[0.1, 1.2]], r"\[0, 1\]"), ([0.1, 0.2], "2-D")])
def test_bad_proba_in_predict(proba, message):
    calibrator = SurfaceCalibrator().fit(PROBA, Y)
    with pytest.raises(ValueError, match=message):
        calibrator.predict_proba(proba)


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 6), method=st.sampled_from(["isotonic", "sigmoid"]))
def test_calibrated_surfaces_stay_monotone(seed, K, method):
    rng = np.random.default_rng(seed)
    proba, y = random_problem(rng, 30, K)
    labels, known = label_surface(y, K)
    assume(np.unique(labels[known]).size == 2)  # fit refuses one class, tested on its own
    calibrator = SurfaceCalibrator(method=method).fit(proba, y)
    # also on surfaces not seen in fit, including values outside the fitted range
    unseen = np.maximum.accumulate(rng.random((20, K)) ** 3, axis=1)
    for surface in (proba, unseen):
        calibrated = calibrator.predict_proba(surface)
        assert calibrated.shape == surface.shape
        assert np.all((calibrated >= 0) & (calibrated <= 1))
        assert K == 1 or monotonicity_violation_rate(calibrated) == 0.0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 6))
def test_isotonic_does_not_worsen_calibration_on_its_fit_data(seed, K):
    rng = np.random.default_rng(seed)
    y = make_survival_y(rng.random(30) < 0.6, rng.integers(0, K + 3, 30))
    labels, known = label_surface(y, K)
    if np.unique(labels[known]).size < 2:
        return
    proba = np.maximum.accumulate(rng.random((30, K)), axis=1)
    calibrated = SurfaceCalibrator().fit(proba, y).predict_proba(proba)
    # every isotonic block takes its cells' event rate, and a block never
    # straddles two bins, so each bin's forecast sum equals its outcome sum
    ece = expected_calibration_error(y, calibrated)
    assert ece <= 1e-12
    assert ece <= expected_calibration_error(y, proba)
    # the identity is one of the non-decreasing maps isotonic regression searches
    before, after = brier_decomposition(y, proba), brier_decomposition(y, calibrated)
    assert after["brier"] <= before["brier"] + 1e-12
