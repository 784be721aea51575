"""Tests for the pooled, calibration, consistency and RUL metrics of hepa_sklearn.metrics."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.metrics import (
    brier_decomposition,
    expected_calibration_error,
    h_auroc,
    monotonicity_violation_rate,
    per_horizon_auroc,
    pooled_auprc,
    pooled_auroc,
    rul_rmse,
    surface_metrics,
)
from hepa_sklearn.surface import expected_time_to_event, label_surface, make_survival_y

# Five windows, K = 4. Known cells: rows 0, 1, 4 at every horizon; row 2
# (censored at 2) at horizons 1-2; row 3 (censored at 0) nowhere: 14 cells.
Y = make_survival_y([True, True, False, False, True], [1, 3, 2, 0, 5])
PROBA = np.array(
    [
        [0.50, 0.75, 1.00, 1.00],  # labels 1 1 1 1
        [0.25, 0.25, 0.50, 0.75],  # labels 0 0 1 1
        [0.00, 0.25, 0.90, 0.90],  # labels 0 0 (last two unknown)
        [1.00, 1.00, 1.00, 1.00],  # unknown
        [0.00, 0.00, 0.25, 0.50],  # labels 0 0 0 0
    ]
)
# Known cells: positives {.5, .5, .75, .75, 1, 1}; negatives {0 x3, .25 x4, .5}.
# Bins of width 0.1 (each holds one distinct value):
#   bin 0: p=0    n=3, 0 positive     bin 2: p=.25  n=4, 0 positive
#   bin 5: p=.5   n=3, 2 positive     bin 7: p=.75  n=2, 2 positive
#   bin 9: p=1    n=2, 2 positive     (1.0 goes in the last bin)
N_CELLS = 14
# Each pair (positive, negative), ties 1/2: the two .5 positives beat 7 negatives
# and tie 1: 2 * 7.5; the other four beat all 8: 4 * 8. (15 + 32) / 48.
POOLED_AUROC = 47 / 48
# Thresholds 1, .75, .5: recall steps of 2/6 at precision 1, 1, 6/7.
POOLED_AUPRC = 2 / 6 + 2 / 6 + (2 / 6) * (6 / 7)
# Σ_b |Σ p - Σ label|: bin 2 |1 - 0| + bin 5 |1.5 - 2| + bin 7 |1.5 - 2| = 2, over 14 cells.
ECE = 2 / 14
# Squared errors: negatives .25 x4 -> 4/16, .5 -> 1/4; positives .5 x2 -> 2/4, .75 x2 -> 2/16.
BRIER = (4 / 16 + 1 / 4 + 2 / 4 + 2 / 16) / N_CELLS  # 9/112
# Σ n_b (p̄_b - ō_b)²: 4 (1/4)² + 3 (1/2 - 2/3)² + 2 (1/4)² = 11/24, over 14.
RELIABILITY = (11 / 24) / N_CELLS
# ō = 6/14 = 3/7. Σ n_b (ō_b - 3/7)²: 3 (3/7)² + 4 (3/7)² + 3 (2/3 - 3/7)²
# + 2 (4/7)² + 2 (4/7)² = 406/147, over 14 = 29/147.
RESOLUTION = 29 / 147
UNCERTAINTY = (3 / 7) * (4 / 7)
# 1 + Σ_{k=1}^{3} (1 - proba[:, k-1]): row 0: 1 + .5 + .25 + 0 = 1.75;
# row 1: 1 + .75 + .75 + .5 = 3; row 2: 1 + 1 + .75 + .1 = 2.85; row 3: 1;
# row 4: 1 + 1 + 1 + .75 = 3.75.
EXPECTED_TIME = [1.75, 3.0, 2.85, 1.0, 3.75]


def cells_y(labels):
    """A survival target whose K = 1 label surface is ``labels``, every cell known.

    An event at time 1 is positive at horizon 1; a window censored at 2 is a
    known negative there.
    """
    labels = np.asarray(labels, dtype=bool)
    return make_survival_y(labels, np.where(labels, 1, 2))


def random_y(rng, n, max_time=8):
    return make_survival_y(rng.random(n) < 0.6, rng.integers(0, max_time, n))


# --------------------------------------------------------------------------
# Hand-computed values
# --------------------------------------------------------------------------


def test_pooled_auroc_hand_computed():
    assert pooled_auroc(Y, PROBA) == pytest.approx(POOLED_AUROC)
    # every horizon on its own ranks perfectly; pooling mixes horizons
    np.testing.assert_array_equal(per_horizon_auroc(Y, PROBA), [1.0, 1.0, 1.0, 1.0])


def test_pooled_auprc_hand_computed():
    assert pooled_auprc(Y, PROBA) == pytest.approx(POOLED_AUPRC)  # 20/21


def test_expected_calibration_error_hand_computed():
    assert expected_calibration_error(Y, PROBA) == pytest.approx(ECE)


def test_expected_calibration_error_bins():
    y = cells_y([True, True, False, False])
    proba = [[0.3], [0.3], [0.39], [1.0]]
    # 10 bins: bin 3 {.3, .3, .39}: |.99 - 2| = 1.01; 1.0 goes in bin 9: |1 - 0| = 1
    assert expected_calibration_error(y, proba) == pytest.approx(2.01 / 4)
    # 1 bin: |1.99 - 2| = .01; errors of opposite sign cancel
    assert expected_calibration_error(y, proba, n_bins=1) == pytest.approx(0.01 / 4)
    # 3 bins: [0, 1/3) {.3, .3}: |.6 - 2| = 1.4; [1/3, 2/3) {.39}: .39; [2/3, 1] {1}: 1
    assert expected_calibration_error(y, proba, n_bins=3) == pytest.approx(2.79 / 4)


def test_expected_calibration_error_bin_edges():
    # 0.3 opens bin 3 of 10 and shares it with 0.39: |.69 - 1| / 2. (Edges from
    # linspace(0, 1, 11) would put 0.3 in bin 2: (.7 + .39) / 2.)
    y = cells_y([True, False])
    assert expected_calibration_error(y, [[0.3], [0.39]]) == pytest.approx(0.155)


def test_brier_decomposition_hand_computed():
    parts = brier_decomposition(Y, PROBA)
    assert list(parts) == ["brier", "reliability", "resolution", "uncertainty"]
    assert parts["brier"] == pytest.approx(BRIER)
    assert parts["reliability"] == pytest.approx(RELIABILITY)
    assert parts["resolution"] == pytest.approx(RESOLUTION)
    assert parts["uncertainty"] == pytest.approx(UNCERTAINTY)
    # one distinct forecast per bin: the decomposition is exact
    # (11/336 - 29/147 + 12/49 = (77 - 464 + 576)/2352 = 9/112)
    assert parts["brier"] == pytest.approx(parts["reliability"] - parts["resolution"] + parts["uncertainty"], abs=1e-15)
    assert all(isinstance(value, float) for value in parts.values())


def test_brier_decomposition_with_spread_in_a_bin():
    y = cells_y([True, False])
    parts = brier_decomposition(y, [[0.55], [0.45]], n_bins=1)
    # brier = (.45² + .45²) / 2 = .2025; one bin: p̄ = .5, ō = .5, so
    # reliability = resolution = 0 and uncertainty = .25: the gap .0475 is the
    # forecast variance .0025 minus twice the covariance (.05 * .5 = .025)
    assert parts["brier"] == pytest.approx(0.2025)
    assert parts["reliability"] == pytest.approx(0.0)
    assert parts["resolution"] == pytest.approx(0.0)
    assert parts["uncertainty"] == pytest.approx(0.25)


def test_monotonicity_violation_rate_hand_computed():
    proba = [[0.25, 0.75, 0.5], [1.0, 0.5, 0.5]]
    # pairs: (.25, .75) ok, (.75, .5) drop .25, (1, .5) drop .5, (.5, .5) ok
    assert monotonicity_violation_rate(proba) == 0.5
    assert monotonicity_violation_rate(proba, tol=0.25) == 0.25  # only the drop of .5
    assert monotonicity_violation_rate(proba, tol=0.5) == 0.0
    assert monotonicity_violation_rate(PROBA) == 0.0


def test_monotonicity_violation_rate_without_pairs_is_nan():
    assert np.isnan(monotonicity_violation_rate([[0.3], [0.7]]))  # K = 1
    assert np.isnan(monotonicity_violation_rate(np.zeros((0, 3))))


def test_monotonicity_violation_rate_accepts_any_scores():
    assert monotonicity_violation_rate([[-3.0, 2.0, 1.5]]) == 0.5


def test_expected_time_to_event_hand_computed():
    np.testing.assert_allclose(expected_time_to_event(PROBA), EXPECTED_TIME)
    assert expected_time_to_event(PROBA).dtype == np.float64
    # K = 1: the time is 1 whatever the surface
    np.testing.assert_array_equal(expected_time_to_event([[0.0], [1.0]]), [1.0, 1.0])


def test_expected_time_to_event_matches_event_distribution():
    # P(T = 1) = .2, P(T = 2) = .3, P(T = 3) = .1, P(T >= 4) = .4, K = 4:
    # E[min(T, 4)] = .2 + .6 + .3 + 1.6 = 2.7
    proba = np.cumsum([[0.2, 0.3, 0.1, 0.1]], axis=1)
    np.testing.assert_allclose(expected_time_to_event(proba), [2.7])


def test_rul_rmse_hand_computed():
    predicted = expected_time_to_event(PROBA)
    # cap 4: rows 0, 1, 4 (events); rows 2, 3 censored below 4.
    # min(pred, 4) - min(time, 4): 1.75 - 1, 3 - 3, 3.75 - 4 -> (.5625 + 0 + .0625) / 3
    assert rul_rmse(Y, predicted, cap=4) == pytest.approx(np.sqrt(0.625 / 3))
    # cap 2: row 2 (censored at 2) joins; capped: 1.75 - 1, 2 - 2, 2 - 2, 2 - 2
    assert rul_rmse(Y, predicted, cap=2) == pytest.approx(0.375)


def test_rul_rmse_default_cap_is_125():
    y = make_survival_y([True, True, False, False], [10, 300, 130, 50])
    # known: rows 0, 1, 2 (censored at 130 >= 125); row 3 is censored below the cap.
    # capped errors: 12 - 10 = 2, 125 - 125 = 0 (200 and 300 capped), 100 - 125 = -25
    predicted = [12, 200, 100, 0]
    assert rul_rmse(y, predicted) == pytest.approx(np.sqrt((4 + 0 + 625) / 3))


def test_surface_metrics_hand_computed():
    metrics = surface_metrics(Y, PROBA, cap=4)
    assert list(metrics) == [
        "h_auroc",
        "pooled_auroc",
        "pooled_auprc",
        "ece",
        "brier",
        "reliability",
        "resolution",
        "uncertainty",
        "monotonicity_violation_rate",
        "rul_rmse",
        "per_horizon_auroc",
    ]
    expected = {
        "h_auroc": 1.0,
        "pooled_auroc": POOLED_AUROC,
        "pooled_auprc": POOLED_AUPRC,
        "ece": ECE,
        "brier": BRIER,
        "reliability": RELIABILITY,
        "resolution": RESOLUTION,
        "uncertainty": UNCERTAINTY,
        "monotonicity_violation_rate": 0.0,
        "rul_rmse": np.sqrt(0.625 / 3),
    }
    for name, value in expected.items():
        assert type(metrics[name]) is float, name
        assert metrics[name] == pytest.approx(value), name
    assert metrics["per_horizon_auroc"] == [1.0, 1.0, 1.0, 1.0]
    assert all(type(score) is float for score in metrics["per_horizon_auroc"])


def test_surface_metrics_keeps_nan_horizons():
    # h2, h3: every known cell positive -> NaN; h1: one positive, two negatives
    y = make_survival_y([True, True, True], [1, 2, 2])
    proba = np.array([[0.9, 0.9, 0.9], [0.2, 0.5, 0.6], [0.1, 0.3, 0.4]])
    metrics = surface_metrics(y, proba)
    scores = metrics["per_horizon_auroc"]
    assert scores[0] == 1.0 and np.isnan(scores[1]) and np.isnan(scores[2])
    assert metrics["h_auroc"] == 1.0


def test_surface_metrics_agree_with_the_functions():
    rng = np.random.default_rng(0)
    y = random_y(rng, 50, max_time=12)
    proba = np.sort(rng.random((50, 6)), axis=1)
    metrics = surface_metrics(y, proba, cap=5)
    assert metrics["h_auroc"] == pytest.approx(h_auroc(y, proba))
    assert metrics["pooled_auroc"] == pooled_auroc(y, proba)
    assert metrics["pooled_auprc"] == pooled_auprc(y, proba)
    assert metrics["ece"] == expected_calibration_error(y, proba)
    for name, value in brier_decomposition(y, proba).items():
        assert metrics[name] == value
    assert metrics["rul_rmse"] == rul_rmse(y, expected_time_to_event(proba), cap=5)
    np.testing.assert_array_equal(metrics["per_horizon_auroc"], per_horizon_auroc(y, proba))


def test_event_predictor_predict_is_expected_time_to_event(tiny_event_params):
    rng = np.random.default_rng(0)
    E = rng.normal(size=(40, 4)).astype(np.float32)
    y = make_survival_y(np.arange(40) % 4 != 0, 1 + np.arange(40) % 12)
    model = HEPAEventPredictor(**tiny_event_params).fit(E, y)
    np.testing.assert_array_equal(model.predict(E), expected_time_to_event(model.predict_proba(E)))


# --------------------------------------------------------------------------
# Degenerate inputs
# --------------------------------------------------------------------------


def test_single_class_pooled_scores_are_nan():
    y = make_survival_y([True, True], [1, 1])  # every cell positive
    assert np.isnan(pooled_auroc(y, [[0.2, 0.3], [0.4, 0.5]]))
    assert np.isnan(pooled_auprc(y, [[0.2, 0.3], [0.4, 0.5]]))


def test_no_known_cell_gives_nan():
    y = make_survival_y([False, False], [0, 0])
    proba = [[0.2, 0.3], [0.4, 0.5]]
    assert np.isnan(pooled_auroc(y, proba))
    assert np.isnan(expected_calibration_error(y, proba))
    assert all(np.isnan(value) for value in brier_decomposition(y, proba).values())


def test_unknown_cells_are_ignored():
    _, known = label_surface(Y, 4)
    changed = PROBA.copy()
    changed[~known] = 1.0 - changed[~known]
    assert pooled_auroc(Y, changed) == pooled_auroc(Y, PROBA)
    assert pooled_auprc(Y, changed) == pooled_auprc(Y, PROBA)
    assert expected_calibration_error(Y, changed) == expected_calibration_error(Y, PROBA)
    assert brier_decomposition(Y, changed) == brier_decomposition(Y, PROBA)


def test_pooled_scores_accept_any_finite_scores():
    assert pooled_auroc(Y, 10 * PROBA - 3) == pytest.approx(POOLED_AUROC)
    assert pooled_auprc(Y, 10 * PROBA - 3) == pytest.approx(POOLED_AUPRC)


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------

SURFACE_FUNCTIONS = [pooled_auroc, pooled_auprc, expected_calibration_error, brier_decomposition, surface_metrics]
PROBABILITY_FUNCTIONS = [expected_calibration_error, brier_decomposition, surface_metrics]


@pytest.mark.parametrize("function", SURFACE_FUNCTIONS)
@pytest.mark.parametrize(
    "proba, message",
    [
        (PROBA[:, 0], "2-D"),
        (PROBA[None], "2-D"),
        (PROBA[:, :0], "at least one column"),
        (PROBA[:4], "rows"),
        (np.where(np.eye(5, 4, dtype=bool), np.nan, PROBA), "NaN"),
        (np.where(np.eye(5, 4, dtype=bool), np.inf, PROBA), "infinite"),
    ],
)
def test_bad_proba(function, proba, message):
    with pytest.raises(ValueError, match=message):
        function(Y, proba)


@pytest.mark.parametrize("function", PROBABILITY_FUNCTIONS)
@pytest.mark.parametrize("value", [-0.01, 1.01])
def test_proba_outside_unit_interval(function, value):
    proba = PROBA.copy()
    proba[3, 0] = value  # an unknown cell is still checked
    with pytest.raises(ValueError, match=r"proba must hold probabilities in \[0, 1\]"):
        function(Y, proba)


@pytest.mark.parametrize("value", [-0.5, 1.5])
def test_expected_time_to_event_rejects_non_probabilities(value):
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        expected_time_to_event([[0.2, value]])


@pytest.mark.parametrize("proba, message", [([0.2, 0.3], "2-D"), ([[np.nan]], "NaN")])
def test_expected_time_to_event_bad_shape_or_values(proba, message):
    with pytest.raises(ValueError, match=message):
        expected_time_to_event(proba)


@pytest.mark.parametrize("function", [expected_calibration_error, brier_decomposition])
@pytest.mark.parametrize("n_bins", [0, -3, 2.5, True, "10", None])
def test_bad_n_bins(function, n_bins):
    with pytest.raises(ValueError, match=r"'n_bins' parameter of \w+ must be an int in the range \[1, inf\)"):
        function(Y, PROBA, n_bins=n_bins)


@pytest.mark.parametrize("tol", [-0.1, np.nan, np.inf, "0"])
def test_bad_tol(tol):
    with pytest.raises(ValueError, match="'tol' parameter of monotonicity_violation_rate must be"):
        monotonicity_violation_rate(PROBA, tol=tol)


def test_monotonicity_violation_rate_bad_proba():
    with pytest.raises(ValueError, match="2-D"):
        monotonicity_violation_rate([0.1, 0.2])
    with pytest.raises(ValueError, match="NaN"):
        monotonicity_violation_rate([[0.1, np.nan]])


@pytest.mark.parametrize("cap", [0, -1, np.nan, np.inf, None])
def test_bad_cap(cap):
    with pytest.raises(ValueError, match="'cap' parameter of rul_rmse must be"):
        rul_rmse(Y, EXPECTED_TIME, cap=cap)
    with pytest.raises(ValueError, match="'cap' parameter of rul_rmse must be"):
        surface_metrics(Y, PROBA, cap=cap)


@pytest.mark.parametrize(
    "predicted, message",
    [
        (EXPECTED_TIME[:4], "predicted_time has 4 values but y has 5"),
        ([EXPECTED_TIME], "predicted_time must be 1-D"),
        ([1.0, 2.0, np.nan, 1.0, 1.0], "predicted_time contains NaN"),
    ],
)
def test_bad_predicted_time(predicted, message):
    with pytest.raises(ValueError, match=message):
        rul_rmse(Y, predicted)


def test_rul_rmse_without_known_windows():
    y = make_survival_y([False, False], [3, 124])
    with pytest.raises(ValueError, match="no window has a known time to event up to cap=125"):
        rul_rmse(y, [1.0, 2.0])
    with pytest.raises(ValueError, match="no window"):
        surface_metrics(y, [[0.1, 0.2], [0.3, 0.4]])


def test_unstructured_y_rejected():
    with pytest.raises(TypeError, match="structured"):
        pooled_auroc(np.array([1.0, 2.0]), [[0.1], [0.2]])
    with pytest.raises(TypeError, match="structured"):
        rul_rmse(np.array([1.0, 2.0]), [1.0, 2.0])


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 6), n_bins=st.integers(1, 20))
def test_calibration_scores_are_bounded(seed, K, n_bins):
    rng = np.random.default_rng(seed)
    y = random_y(rng, 30)
    proba = rng.random((30, K))
    ece = expected_calibration_error(y, proba, n_bins=n_bins)
    parts = brier_decomposition(y, proba, n_bins=n_bins)
    if np.isnan(ece):
        return
    assert 0.0 <= ece <= 1.0
    assert 0.0 <= parts["brier"] <= 1.0
    assert parts["reliability"] >= 0.0 and parts["resolution"] >= 0.0
    assert 0.0 <= parts["uncertainty"] <= 0.25
    # resolution can never exceed the uncertainty it explains
    assert parts["resolution"] <= parts["uncertainty"] + 1e-12


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_bins=st.integers(1, 20), n=st.integers(1, 60))
def test_brier_decomposition_exact_with_one_value_per_bin(seed, n_bins, n):
    rng = np.random.default_rng(seed)
    # every forecast is the centre of its bin, so each bin holds one distinct value
    proba = (rng.integers(0, n_bins, (n, 1)) + 0.5) / n_bins
    y = cells_y(rng.random(n) < proba[:, 0])
    parts = brier_decomposition(y, proba, n_bins=n_bins)
    assert parts["brier"] == pytest.approx(parts["reliability"] - parts["resolution"] + parts["uncertainty"], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_bins=st.integers(1, 20), K=st.integers(1, 5))
def test_brier_decomposition_gap_is_bounded(seed, n_bins, K):
    rng = np.random.default_rng(seed)
    y = random_y(rng, 40)
    proba = rng.random((40, K))
    parts = brier_decomposition(y, proba, n_bins=n_bins)
    if np.isnan(parts["brier"]):
        return
    gap = parts["brier"] - (parts["reliability"] - parts["resolution"] + parts["uncertainty"])
    width = 1.0 / n_bins
    assert abs(gap) <= width / 2 + width**2 / 4 + 1e-12


def test_brier_decomposition_close_for_calibrated_forecasts():
    rng = np.random.default_rng(0)
    proba = rng.random((20000, 1))
    y = cells_y(rng.random(20000) < proba[:, 0])
    parts = brier_decomposition(y, proba)
    # calibrated within each bin: the gap is about minus the within-bin
    # forecast variance, 0.1² / 12 ≈ 0.0008
    gap = parts["brier"] - (parts["reliability"] - parts["resolution"] + parts["uncertainty"])
    assert abs(gap) < 0.002
    assert expected_calibration_error(y, proba) < 0.02


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 6))
def test_pooled_auroc_is_auroc_of_known_cells(seed, K):
    rng = np.random.default_rng(seed)
    y = random_y(rng, 25)
    proba = rng.random((25, K))
    labels, known = label_surface(y, K)
    score = pooled_auroc(y, proba)
    if np.unique(labels[known]).size < 2:
        assert np.isnan(score)
    else:
        assert score == roc_auc_score(labels[known], proba[known])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 8))
def test_expected_time_to_event_bounds(seed, K):
    rng = np.random.default_rng(seed)
    proba = np.sort(rng.random((10, K)), axis=1)
    time = expected_time_to_event(proba)
    assert np.all((time >= 1.0) & (time <= K))
    # a later event everywhere (a lower surface) never shortens the expected time
    assert np.all(expected_time_to_event(proba * rng.random((10, 1))) >= time - 1e-12)


@pytest.mark.parametrize("K", [0, -1, 1.5, True, np.nan])
def test_surface_targets_names_a_horizon_count_that_is_no_positive_integer(K):
    from hepa_sklearn.surface import surface_targets

    y = make_survival_y([True, False, True], [1.0, 4.0, 3.0])
    with pytest.raises(ValueError, match=r"The 'K' parameter of surface_targets must be an int in the range"):
        surface_targets(y, K, 3)


@pytest.mark.parametrize("n_samples", [-1, 1.5, True, np.nan])
def test_surface_targets_names_a_row_count_that_is_no_whole_number(n_samples):
    from hepa_sklearn.surface import surface_targets

    y = make_survival_y([True, False, True], [1.0, 4.0, 3.0])
    with pytest.raises(ValueError, match=r"The 'n_samples' parameter of surface_targets must be"):
        surface_targets(y, 3, n_samples)
