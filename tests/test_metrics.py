"""Tests for hepa_sklearn.metrics: per-horizon AUROC, h-AUROC and the scorer."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.metrics import h_auroc, h_auroc_scorer, per_horizon_auroc
from hepa_sklearn.surface import label_surface, make_survival_y

# Five windows, K = 4. Known cells (see test_windows): rows 0, 1, 4 everywhere;
# row 2 (censored at 2) at horizons 1-2 only; row 3 (censored at 0) nowhere.
Y = make_survival_y([True, True, False, False, True], [1, 3, 2, 0, 5])
# Positives: h1, h2 -> row 0; h3, h4 -> rows 0 and 1.
PROBA = np.array(
    [
        [0.90, 0.30, 0.50, 0.60],
        [0.10, 0.30, 0.40, 0.70],
        [0.50, 0.25, 0.99, 0.99],  # last two cells unknown
        [0.99, 0.99, 0.99, 0.99],  # all cells unknown
        [0.05, 0.40, 0.45, 0.65],
    ]
)
# Mann-Whitney by hand (ties count 1/2):
# h1: pos {.90} vs neg {.10, .50, .05}          -> 3/3         = 1.0
# h2: pos {.30} vs neg {.30, .25, .40}          -> (.5+1+0)/3  = 0.5
# h3: pos {.50, .40} vs neg {.45}               -> (1+0)/2     = 0.5
# h4: pos {.60, .70} vs neg {.65}               -> (0+1)/2     = 0.5
EXPECTED = [1.0, 0.5, 0.5, 0.5]


def random_y(rng, n, max_time=12):
    return make_survival_y(rng.random(n) < 0.6, rng.integers(0, max_time, n))


def test_per_horizon_auroc_hand_computed():
    np.testing.assert_allclose(per_horizon_auroc(Y, PROBA), EXPECTED)


def test_h_auroc_hand_computed():
    assert h_auroc(Y, PROBA) == pytest.approx(0.625)  # mean, not median (0.5)
    assert isinstance(h_auroc(Y, PROBA), float)


def test_per_horizon_auroc_single_horizon_with_tie():
    # 2 positives, 3 negatives, one censored row that is unknown at horizon 1.
    y = make_survival_y([True, False, True, False, True, False], [1, 3, 1, 5, 4, 0])
    proba = np.array([0.8, 0.4, 0.4, 0.1, 0.9, 0.0])[:, None]
    # pos {.8, .4} vs neg {.4, .1, .9}: (1 + 1 + 0) + (.5 + 1 + 0) = 3.5 of 6
    np.testing.assert_allclose(per_horizon_auroc(y, proba), [3.5 / 6])


@pytest.mark.parametrize(
    "horizons, expected",
    [([1], [1.0]), ([3, 1], [0.5, 1.0]), ([4, 4], [0.5, 0.5]), (np.array([2, 3]), [0.5, 0.5]), (2, [0.5])],
)
def test_per_horizon_auroc_selects_horizons(horizons, expected):
    np.testing.assert_allclose(per_horizon_auroc(Y, PROBA, horizons=horizons), expected)


def test_h_auroc_selects_horizons():
    assert h_auroc(Y, PROBA, horizons=[2, 3]) == pytest.approx(0.5)
    assert h_auroc(Y, PROBA, horizons=[1, 4]) == pytest.approx(0.75)


def test_h_auroc_empty_horizons_is_nan():
    assert np.isnan(h_auroc(Y, PROBA, horizons=[]))
    assert per_horizon_auroc(Y, PROBA, horizons=[]).shape == (0,)


@pytest.mark.parametrize("horizons", [[0], [5], [1, 5], [-1, 2]])
def test_out_of_range_horizons(horizons):
    with pytest.raises(ValueError, match="horizons"):
        per_horizon_auroc(Y, PROBA, horizons=horizons)
    with pytest.raises(ValueError, match="horizons"):
        h_auroc(Y, PROBA, horizons=horizons)


def test_unknown_cells_are_ignored():
    _, known = label_surface(Y, 4)
    rng = np.random.default_rng(0)
    for _ in range(5):
        changed = PROBA.copy()
        changed[~known] = rng.random((~known).sum())
        np.testing.assert_allclose(per_horizon_auroc(Y, changed), EXPECTED)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 6))
def test_unknown_cells_are_ignored_random(seed, K):
    rng = np.random.default_rng(seed)
    y = random_y(rng, 40, max_time=8)
    _, known = label_surface(y, K)
    proba = rng.random((40, K))
    changed = proba.copy()
    changed[~known] = rng.random((~known).sum()) * 10 - 5
    np.testing.assert_array_equal(per_horizon_auroc(y, proba), per_horizon_auroc(y, changed))


def test_h_auroc_perfect_on_label_surface():
    rng = np.random.default_rng(1)
    y = random_y(rng, 300)
    labels, _ = label_surface(y, 10)
    assert h_auroc(y, labels) == 1.0
    # break ties inside each class without crossing classes
    assert h_auroc(y, labels + 0.5 * rng.random(labels.shape)) == 1.0
    scores = per_horizon_auroc(y, labels)
    assert np.all(scores[~np.isnan(scores)] == 1.0)
    assert np.sum(~np.isnan(scores)) >= 8


def test_h_auroc_perfect_from_negative_time_without_censoring():
    # With only observed events, -time ranks every positive above every negative.
    rng = np.random.default_rng(2)
    time = rng.integers(1, 10, 200)
    y = make_survival_y(np.ones(200, bool), time)
    proba = np.tile(-time[:, None].astype(float), (1, 8))
    assert h_auroc(y, proba) == 1.0


def test_h_auroc_reversed_surface_is_zero():
    rng = np.random.default_rng(3)
    y = random_y(rng, 200)
    labels, _ = label_surface(y, 6)
    assert h_auroc(y, 1 - labels) == 0.0


def test_h_auroc_random_noise_is_about_half():
    rng = np.random.default_rng(4)
    n, K = 4000, 8
    y = random_y(rng, n)
    proba = rng.random((n, K))
    assert abs(h_auroc(y, proba) - 0.5) < 0.05
    scores = per_horizon_auroc(y, proba)
    assert not np.isnan(scores).any()
    assert np.all(np.abs(scores - 0.5) < 0.05)


def test_constant_proba_gives_half():
    rng = np.random.default_rng(5)
    y = random_y(rng, 100)
    assert h_auroc(y, np.full((100, 5), 0.3)) == pytest.approx(0.5)


# --------------------------------------------------------------------------
# Degenerate horizons
# --------------------------------------------------------------------------


def test_all_positive_horizons_are_nan():
    y = make_survival_y([True] * 4, [1, 1, 0, 1])
    scores = per_horizon_auroc(y, np.random.default_rng(0).random((4, 3)))
    assert np.isnan(scores).all()
    assert np.isnan(h_auroc(y, np.random.default_rng(0).random((4, 3))))


def test_all_negative_horizons_are_nan():
    y = make_survival_y([True, True, False], [10, 7, 9])
    assert np.isnan(h_auroc(y, np.random.default_rng(0).random((3, 3))))


def test_all_unknown_horizons_are_nan():
    y = make_survival_y([False, False], [0, 0])
    assert np.isnan(per_horizon_auroc(y, [[0.1, 0.2], [0.3, 0.4]])).all()
    assert np.isnan(h_auroc(y, [[0.1, 0.2], [0.3, 0.4]]))


def test_mixed_degenerate_and_valid_horizons():
    # h1: positives row 0, negatives rows 1-2 -> valid; h2, h3: all known cells positive.
    y = make_survival_y([True, True, True], [1, 2, 2])
    proba = np.array([[0.9, 0.1, 0.2], [0.2, 0.5, 0.6], [0.1, 0.3, 0.4]])
    scores = per_horizon_auroc(y, proba)
    assert scores[0] == 1.0
    assert np.isnan(scores[1:]).all()
    assert h_auroc(y, proba) == 1.0


def test_censoring_makes_horizon_degenerate():
    # The only negative at h2 is censored at 1, so h2 has only positives among known cells.
    y = make_survival_y([True, False, True], [1, 1, 2])
    proba = np.array([[0.9, 0.9], [0.1, 0.1], [0.2, 0.2]])
    scores = per_horizon_auroc(y, proba)
    assert scores[0] == 1.0
    assert np.isnan(scores[1])


@pytest.mark.parametrize(
    "n_pos, n, degenerate",
    [
        (1, 2000, True),  # prevalence 0.0005 < 0.001
        (3, 2000, False),  # 0.0015
        (1999, 2000, True),  # 0.9995 > 0.999
        (1997, 2000, False),  # 0.9985
    ],
)
def test_prevalence_bounds(n_pos, n, degenerate):
    event = np.ones(n, bool)
    time = np.where(np.arange(n) < n_pos, 1.0, 5.0)
    y = make_survival_y(event, time)
    proba = np.where(time == 1.0, 0.9, 0.1)[:, None]
    score = per_horizon_auroc(y, proba)[0]
    if degenerate:
        assert np.isnan(score)
    else:
        assert score == 1.0


# --------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "proba, message",
    [
        (PROBA[:, 0], "2-D"),
        (PROBA[None], "2-D"),
        (PROBA[:4], "rows"),
        (np.vstack([PROBA, PROBA[:1]]), "rows"),
        (np.where(np.eye(5, 4, dtype=bool), np.nan, PROBA), "NaN"),
        (np.where(np.eye(5, 4, dtype=bool), np.inf, PROBA), "infinite"),
    ],
)
def test_bad_proba(proba, message):
    with pytest.raises(ValueError, match=message):
        per_horizon_auroc(Y, proba)
    with pytest.raises(ValueError, match=message):
        h_auroc(Y, proba)


def test_nan_in_unknown_cell_is_still_rejected():
    proba = PROBA.copy()
    proba[3, 0] = np.nan  # row 3 is unknown everywhere
    with pytest.raises(ValueError, match="NaN"):
        h_auroc(Y, proba)


def test_unstructured_y_rejected():
    with pytest.raises(TypeError):
        h_auroc(np.array([1.0, 3.0, 2.0, 0.0, 5.0]), PROBA)


def test_accepts_nested_lists():
    np.testing.assert_allclose(per_horizon_auroc(Y, PROBA.tolist()), EXPECTED)


# --------------------------------------------------------------------------
# Invariance
# --------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 5), n=st.integers(4, 60))
def test_h_auroc_invariant_to_increasing_transform_per_column(seed, K, n):
    rng = np.random.default_rng(seed)
    y = random_y(rng, n, max_time=7)
    # integer-valued scores (many ties); each column gets its own strictly
    # increasing map, given by a lookup table of sorted distinct values
    ranks = rng.integers(0, 8, (n, K))
    proba = ranks.astype(float)
    transformed = np.empty_like(proba)
    for k in range(K):
        table = np.cumsum(rng.random(8) * 10 + 1e-3) - 20 * rng.random()
        transformed[:, k] = table[ranks[:, k]]
    np.testing.assert_allclose(per_horizon_auroc(y, transformed), per_horizon_auroc(y, proba), equal_nan=True)
    a, b = h_auroc(y, transformed), h_auroc(y, proba)
    assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), K=st.integers(1, 5))
def test_h_auroc_in_unit_interval(seed, K):
    rng = np.random.default_rng(seed)
    y = random_y(rng, 30, max_time=7)
    score = h_auroc(y, rng.random((30, K)))
    assert np.isnan(score) or 0.0 <= score <= 1.0


# --------------------------------------------------------------------------
# Scorer
# --------------------------------------------------------------------------


class SurfaceStub:
    """Returns a fixed surface and records what predict_proba received."""

    def __init__(self, proba):
        self.proba = proba
        self.seen = []

    def predict_proba(self, X):
        self.seen.append(X)
        return self.proba


def test_h_auroc_scorer_calls_predict_proba():
    stub = SurfaceStub(PROBA)
    X = np.zeros((5, 2, 3), dtype=np.float32)
    score = h_auroc_scorer(stub, X, Y)
    assert score == pytest.approx(0.625)
    assert len(stub.seen) == 1 and stub.seen[0] is X


def test_h_auroc_scorer_propagates_shape_errors():
    stub = SurfaceStub(PROBA[:3])
    with pytest.raises(ValueError, match="rows"):
        h_auroc_scorer(stub, np.zeros((5, 1, 2)), Y)
