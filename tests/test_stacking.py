"""StackedSurfaces: the convex mixture of surface estimators, its out-of-fold weights, folds, conventions."""

import pickle
import warnings
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from hepa_sklearn import (
    ElapsedTimeEventPredictor,
    GradientBoostingEventPredictor,
    HEPAEventPredictor,
    HEPAPretrainer,
    StackedSurfaces,
    h_auroc,
    h_auroc_scorer,
)
from hepa_sklearn.stacking import _HorizonAUROC, _simplex_grid
from hepa_sklearn.surface import make_survival_y
from tests.conftest import TINY_EVENT_PREDICTOR, TINY_PRETRAINER

TINY_BOOSTING = dict(K=10, max_iter=5, search=None, random_state=0)


class Lookup(BaseEstimator):
    """A surface estimator of index input: row ``i`` of ``X`` gets row ``X[i, 0]`` of ``surface``."""

    def __init__(self, surface=None):
        self.surface = surface

    def fit(self, X, y):
        self.n_fits_ = 1
        return self

    def predict_proba(self, X):
        return np.asarray(self.surface, dtype=float)[np.asarray(X, dtype=int)[:, 0]]


class UnitGuard(BaseEstimator):
    """A surface estimator whose ``predict_proba`` fails on a unit (``X[:, 0]``) that ``fit`` saw.

    Its ``fit`` fails on groups other than the units of the rows it fits.
    """

    def __init__(self, K=3):
        self.K = K

    def fit(self, X, y, groups=None):
        if groups is not None and not np.array_equal(groups, np.asarray(X)[:, 0]):
            raise AssertionError("groups are not the units of the rows fitted")
        self.units_ = set(np.asarray(X)[:, 0].tolist())
        self.groups_ = groups
        return self

    def predict_proba(self, X):
        units = np.asarray(X)[:, 0]
        leaked = self.units_ & set(units.tolist())
        if leaked:
            raise AssertionError(f"units {sorted(leaked)} are on both sides of a fold")
        return np.tile(np.linspace(0.1, 0.9, self.K), (units.size, 1))


def random_surface(rng, n, K):
    """A monotone surface in [0, 1] of random increments."""
    steps = rng.uniform(size=(n, K))
    return np.cumsum(steps, axis=1) / (K + rng.uniform(0, 2))


def random_y(rng, n, K):
    return make_survival_y(rng.uniform(size=n) < 0.7, rng.integers(1, 2 * K, n))


def index_input(n):
    return np.arange(n)[:, None]


@pytest.fixture(scope="module")
def fd001_small(fd001_subset):
    """The first six units of the C-MAPSS subset."""
    X, y, groups = fd001_subset
    keep = np.isin(groups, np.unique(groups)[:6])
    return X[keep], y[keep], groups[keep]


# --- the weight search


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), K=st.integers(1, 12), ties=st.booleans())
def test_the_rank_auroc_is_h_auroc(seed, n, K, ties):
    rng = np.random.default_rng(seed)
    y = random_y(rng, n, K)
    proba = random_surface(rng, n, K)
    if ties:
        proba = np.round(proba, 1)
    expected = h_auroc(y, proba)
    found = _HorizonAUROC(y, K)(proba)
    assert (np.isnan(expected) and np.isnan(found)) or found == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("n_estimators, steps", [(1, 1), (2, 100), (3, 20), (4, 5)])
def test_the_simplex_grid(n_estimators, steps):
    grid = _simplex_grid(n_estimators, steps)
    assert grid.shape[1] == n_estimators
    assert grid.shape[0] == comb(steps + n_estimators - 1, n_estimators - 1)
    assert len({tuple(row) for row in np.round(grid * steps).astype(int)}) == grid.shape[0]
    np.testing.assert_allclose(grid.sum(axis=1), 1.0)
    assert (grid >= 0).all()
    assert {tuple(row) for row in grid[:n_estimators]} == {tuple(row) for row in np.eye(n_estimators)}
    assert (np.diff(grid.max(axis=1)) <= 0).all()


@pytest.mark.parametrize("n_noise", [1, 2, 3])  # the grid for 2 and 3 estimators, the coordinate search for 4
def test_a_perfect_surface_takes_the_weight(n_noise):
    rng = np.random.default_rng(0)
    n, K = 60, 8
    time = rng.integers(1, 12, n)
    y = make_survival_y(np.ones(n, bool), time)
    horizons = np.arange(1, K + 1)
    perfect = 1 / (1 + np.exp(-3 * (horizons[None, :] - time[:, None] + 0.5)))
    estimators = [("perfect", Lookup(perfect))]
    estimators += [(f"noise{i}", Lookup(random_surface(rng, n, K))) for i in range(n_noise)]
    stack = StackedSurfaces(estimators, cv=3).fit(index_input(n), y)
    assert stack.oof_scores_[0] == 1.0
    assert stack.weights_[0] >= 0.9
    assert stack.oof_score_ >= stack.oof_scores_.max()
    np.testing.assert_allclose(stack.weights_.sum(), 1.0)


def test_the_search_mixes_when_mixing_pays():
    """Each estimator ranks the windows by a different half of the truth; their mixture by all of it."""
    rng = np.random.default_rng(1)
    n, K = 80, 6
    a, b = rng.normal(size=n), rng.normal(size=n)
    time = np.clip(np.round(6 + 2 * (a + b)), 1, None)
    y = make_survival_y(np.ones(n, bool), time)
    ramp = np.linspace(0.1, 0.6, K)[None, :]
    first = np.clip(ramp + 0.1 * (-a[:, None] + 3) / 6, 0, 1)
    second = np.clip(ramp + 0.1 * (-b[:, None] + 3) / 6, 0, 1)
    stack = StackedSurfaces([("a", Lookup(first)), ("b", Lookup(second))], cv=2).fit(index_input(n), y)
    assert 0.2 < stack.weights_[0] < 0.8
    assert stack.oof_score_ > stack.oof_scores_.max()


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(6, 40),
    K=st.integers(1, 10),
    n_estimators=st.integers(1, 4),
    cv=st.integers(2, 4),
)
def test_the_mixture_is_a_surface_on_the_simplex(seed, n, K, n_estimators, cv):
    rng = np.random.default_rng(seed)
    y = random_y(rng, n, K)
    surfaces = [random_surface(rng, n, K) for _ in range(n_estimators)]
    estimators = [(f"e{i}", Lookup(surface)) for i, surface in enumerate(surfaces)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a y without a scorable horizon: equal weights
        stack = StackedSurfaces(estimators, cv=cv).fit(index_input(n), y)
    weights = stack.weights_
    assert weights.shape == (n_estimators,) and (weights >= 0).all()
    np.testing.assert_allclose(weights.sum(), 1.0)
    P = stack.predict_proba(index_input(n))
    assert P.shape == (n, K)
    assert ((P >= 0) & (P <= 1)).all() and (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_allclose(P, sum(w * s for w, s in zip(weights, surfaces, strict=True)), atol=1e-12)
    assert stack.predict(index_input(n)).shape == (n,)
    if not np.isnan(stack.oof_scores_).all():
        assert stack.oof_score_ >= np.nanmax(stack.oof_scores_) - 1e-9


def test_all_degenerate_horizons_give_equal_weights():
    n, K = 12, 4
    y = make_survival_y(np.zeros(n, bool), np.full(n, 10.0))  # every known cell negative
    rng = np.random.default_rng(0)
    estimators = [("a", Lookup(random_surface(rng, n, K))), ("b", Lookup(random_surface(rng, n, K)))]
    with pytest.warns(UserWarning, match="degenerate"):
        stack = StackedSurfaces(estimators, cv=3).fit(index_input(n), y)
    np.testing.assert_array_equal(stack.weights_, [0.5, 0.5])
    assert np.isnan(stack.oof_score_)


# --- fitting, folds and groups


def test_fixed_weights_give_the_weighted_mean_of_the_refitted_surfaces(fd001_small):
    X, y, groups = fd001_small
    estimators = [
        ("age", ElapsedTimeEventPredictor(K=10)),
        ("boosting", GradientBoostingEventPredictor(**TINY_BOOSTING)),
    ]
    stack = StackedSurfaces(estimators, cv=2, weights=[0.25, 0.75]).fit(X, y, groups=groups)
    age = ElapsedTimeEventPredictor(K=10).fit(X, y)
    boosting = GradientBoostingEventPredictor(**TINY_BOOSTING).fit(X, y, groups=groups)
    expected = np.zeros((X.shape[0], 10))
    expected += 0.25 * age.predict_proba(X)
    expected += 0.75 * boosting.predict_proba(X)
    P = stack.predict_proba(X)
    np.testing.assert_array_equal(P, expected)
    assert P.shape == (X.shape[0], 10)
    assert ((P >= 0) & (P <= 1)).all() and (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_array_equal(stack.weights_, [0.25, 0.75])
    np.testing.assert_array_equal(stack.horizons_, np.arange(1, 11))
    assert list(stack.named_estimators_) == ["age", "boosting"]
    assert stack.named_estimators_["boosting"] is stack.estimators_[1]
    assert stack.estimators_[0] is not estimators[0][1] and not hasattr(estimators[1][1], "regressor_")
    assert stack.oof_scores_.shape == (2,) and np.isfinite(stack.oof_scores_).all()
    assert np.isfinite(stack.oof_score_)
    assert stack.score(X, y) == h_auroc(y, P)
    np.testing.assert_array_equal(stack.predict(X), 1.0 + np.sum(1.0 - P[:, :-1], axis=1))


def unit_rows(n_units=6, per_unit=4):
    """Index rows ``[unit]``, the units interleaved (0, 1, ..., 5, 0, 1, ...), and their labels."""
    units = np.tile(np.arange(n_units), per_unit)
    y = make_survival_y(np.ones(units.size, bool), 1 + np.arange(units.size) % 3)
    return units[:, None], y, units


def test_groups_keep_each_unit_in_one_fold():
    X, y, units = unit_rows()
    stack = StackedSurfaces([("guard", UnitGuard())], cv=3).fit(X, y, groups=units)
    np.testing.assert_array_equal(stack.estimators_[0].groups_, units)  # fit takes groups: it gets them


def test_without_groups_the_folds_are_contiguous():
    X, y, units = unit_rows()
    with pytest.raises(AssertionError, match="both sides of a fold"):  # the interleaved units are split
        StackedSurfaces([("guard", UnitGuard())], cv=3).fit(X, y)
    order = np.argsort(units, kind="stable")  # each unit's rows together: contiguous folds keep them
    StackedSurfaces([("guard", UnitGuard())], cv=3).fit(X[order], y[order])


def test_a_splitter_must_hold_out_every_window_once():
    X, y, units = unit_rows()
    stack = StackedSurfaces([("guard", UnitGuard())], cv=GroupKFold(2)).fit(X, y, groups=units)
    assert stack.weights_.tolist() == [1.0]
    partial = [(np.arange(12, 24), np.arange(12))]
    with pytest.raises(ValueError, match="exactly once"):
        StackedSurfaces([("guard", UnitGuard())], cv=partial).fit(X, y, groups=units)


def test_fit_params_go_to_the_named_estimator_and_follow_the_folds(fd001_small):
    X, y, groups = fd001_small
    E = np.nan_to_num(X[:, :, -1]).astype(np.float32)
    pipe = make_pipeline(FunctionTransformer(), HEPAEventPredictor(**TINY_EVENT_PREDICTOR))
    stack = StackedSurfaces([("hepa", pipe)], cv=2)
    stack.fit(E, y, groups=groups, hepa__hepaeventpredictor__groups=groups)
    assert stack.predict_proba(E[:4]).shape == (4, 10)
    with pytest.raises(ValueError, match="names no estimator"):
        stack.fit(E, y, other__groups=groups)


# --- bad input


def two_lookups(K=(3, 3)):
    rng = np.random.default_rng(0)
    return [("a", Lookup(random_surface(rng, 12, K[0]))), ("b", Lookup(random_surface(rng, 12, K[1])))]


@pytest.mark.parametrize(
    "params, error, match",
    [
        (dict(estimators=[]), ValueError, "estimators is empty"),
        (dict(estimators=[("a", Lookup()), ("a", Lookup())]), ValueError, r"unique names; \['a'\]"),
        (dict(estimators=[Lookup()]), TypeError, r"\(name, estimator\) pair"),
        (dict(estimators=[("a", BaseEstimator())]), TypeError, "has no fit or predict_proba"),
        (dict(estimators=[("a", Lookup())], weights=[0.5, 0.5]), ValueError, r"per estimator, shape \(1,\)"),
        (dict(weights=[1.5, -0.5]), ValueError, "non-negative"),
        (dict(weights=[0.5, 0.4]), ValueError, "sum to 1"),
        (dict(weights="best"), ValueError, "'weights' parameter"),
        (dict(cv=1), ValueError, "'cv' parameter"),
    ],
)
def test_bad_parameters_are_refused(params, error, match):
    X, y = index_input(12), random_y(np.random.default_rng(0), 12, 3)
    stack = StackedSurfaces(**{"estimators": two_lookups(), **params})
    with pytest.raises(error, match=match):
        stack.fit(X, y)


def test_estimators_of_different_k_are_refused(fd001_small):
    X, y, _ = fd001_small
    boosting = make_pipeline(FunctionTransformer(), GradientBoostingEventPredictor(K=12))  # its last step's K
    declared = [("age", ElapsedTimeEventPredictor(K=10)), ("boosting", boosting)]
    with pytest.raises(ValueError, match="one K.*'age' K=10, 'boosting' K=12"):
        StackedSurfaces(declared, cv=2).fit(X, y)
    with pytest.raises(ValueError, match="one K"):  # refused before y is read or anything is fitted
        StackedSurfaces(declared, cv=2).fit(X, None)
    y = random_y(np.random.default_rng(0), 12, 3)
    with pytest.raises(ValueError, match="one K.*'a' K=3, 'b' K=4"):  # no K parameter: the surfaces' widths
        StackedSurfaces(two_lookups(K=(3, 4)), cv=2).fit(index_input(12), y)


def test_too_few_groups_or_samples_for_the_folds_are_refused():
    X, y, units = unit_rows()
    with pytest.raises(ValueError, match="cv=7 folds over groups need 7 groups; groups has 6"):
        StackedSurfaces([("guard", UnitGuard())], cv=7).fit(X, y, groups=units)
    with pytest.raises(ValueError, match="cv=30 folds need at least 30 samples; got n_samples=24"):
        StackedSurfaces([("guard", UnitGuard())], cv=30).fit(X, y)


# --- scikit-learn conventions


def small_stack(**params):
    estimators = [
        ("age", ElapsedTimeEventPredictor(K=10)),
        ("boosting", GradientBoostingEventPredictor(**TINY_BOOSTING)),
    ]
    return StackedSurfaces(estimators, cv=2, **params)


def test_params_are_kept_and_nested_ones_exposed():
    estimators = [
        ("hepa", make_pipeline(HEPAPretrainer(**TINY_PRETRAINER), HEPAEventPredictor(**TINY_EVENT_PREDICTOR)))
    ]
    stack = StackedSurfaces(estimators, cv=3, weights=[1.0], random_state=4)
    assert stack.estimators is estimators and stack.weights == [1.0]
    params = stack.get_params(deep=True)
    assert params["hepa__hepaeventpredictor__hidden"] == TINY_EVENT_PREDICTOR["hidden"]
    assert params["cv"] == 3 and params["random_state"] == 4
    stack.set_params(hepa__hepaeventpredictor__hidden=8, cv=2)
    assert estimators[0][1][-1].hidden == 8 and stack.cv == 2
    copy = clone(stack)
    assert copy.get_params(deep=False).keys() == stack.get_params(deep=False).keys()
    assert copy.estimators[0][1] is not estimators[0][1]
    assert copy.estimators[0][1][-1].hidden == 8
    assert list(stack.named_estimators) == ["hepa"]


def test_clone_and_pickle_give_identical_predictions(fd001_small):
    X, y, groups = fd001_small
    stack = small_stack().fit(X, y, groups=groups)
    restored = pickle.loads(pickle.dumps(stack))
    np.testing.assert_array_equal(restored.predict_proba(X), stack.predict_proba(X))
    np.testing.assert_array_equal(restored.weights_, stack.weights_)
    refitted = clone(stack).fit(X, y, groups=groups)
    np.testing.assert_array_equal(refitted.predict_proba(X), stack.predict_proba(X))


def test_random_state_seeds_the_estimators_reproducibly(fd001_small):
    X, y, groups = fd001_small
    E = np.nan_to_num(X[:, :, -1]).astype(np.float32)
    unseeded = dict(TINY_EVENT_PREDICTOR, random_state=None)
    narrow = dict(unseeded, hidden=8)
    estimators = [("head", HEPAEventPredictor(**unseeded)), ("other", HEPAEventPredictor(**narrow))]
    first = StackedSurfaces(estimators, cv=2, random_state=0).fit(E, y, groups=groups)
    second = StackedSurfaces(estimators, cv=2, random_state=0).fit(E, y, groups=groups)
    np.testing.assert_array_equal(first.predict_proba(E), second.predict_proba(E))
    seeds = [estimator.random_state for estimator in first.estimators_]
    assert all(isinstance(seed, int) for seed in seeds) and seeds[0] != seeds[1]
    assert all(estimator.random_state is None for _, estimator in estimators)  # the given ones are untouched
    kept = StackedSurfaces([("head", HEPAEventPredictor(**TINY_EVENT_PREDICTOR))], cv=2, random_state=0)
    assert kept.fit(E, y).estimators_[0].random_state == TINY_EVENT_PREDICTOR["random_state"]


def test_cross_val_score_with_group_folds(fd001_small):
    X, y, groups = fd001_small
    hepa = make_pipeline(HEPAPretrainer(**TINY_PRETRAINER), HEPAEventPredictor(**TINY_EVENT_PREDICTOR))
    stack = StackedSurfaces([("hepa", hepa), ("age", ElapsedTimeEventPredictor(K=10))], cv=2)
    scores = cross_val_score(
        stack,
        X,
        y,
        groups=groups,
        cv=GroupKFold(2),
        scoring=h_auroc_scorer,
        params={"groups": groups},
        error_score="raise",
    )
    assert scores.shape == (2,) and np.isfinite(scores).all()


def test_grid_search_over_a_nested_parameter(fd001_small):
    X, y, groups = fd001_small
    grid = {"boosting__max_iter": [3, 5]}
    search = GridSearchCV(small_stack(), grid, cv=GroupKFold(2), scoring=h_auroc_scorer, error_score="raise")
    search.fit(X, y, groups=groups)
    assert search.best_params_["boosting__max_iter"] in (3, 5)
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()
    assert search.best_estimator_.predict_proba(X[:3]).shape == (3, 10)
