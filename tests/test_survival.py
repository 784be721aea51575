"""The survival view of a surface: cumulative hazard, risk score, step functions and the estimators' survival
methods."""

import importlib.util
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import NotFittedError

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAFinetuner, HEPAPretrainer
from hepa_sklearn.surface import (
    cumulative_hazard,
    expected_time_to_event,
    make_survival_y,
    restricted_mean_time_lost,
    survival_function,
)
from hepa_sklearn.survival import StepFunction, step_function_class

SKSURV_MISSING = importlib.util.find_spec("sksurv") is None
needs_sksurv = pytest.mark.skipif(SKSURV_MISSING, reason="scikit-survival is not installed (the survival extra)")

K = 6
P_SMALL = np.array([[0.0, 0.5, 0.75, 0.75, 1.0, 1.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])


# --------------------------------------------------------------------------
# cumulative_hazard, restricted_mean_time_lost
# --------------------------------------------------------------------------


def test_cumulative_hazard_hand_computed_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hazard = cumulative_hazard(P_SMALL)
    np.testing.assert_allclose(hazard[0], [0.0, np.log(2), np.log(4), np.log(4), np.inf, np.inf])
    np.testing.assert_allclose(hazard[1], -np.log([0.9, 0.8, 0.7, 0.6, 0.5, 0.4]))
    assert not np.signbit(hazard[0, 0])  # 0, not -0


def test_restricted_mean_time_lost_hand_computed():
    # row 0: P(T <= k) for k = 1..5 sums to 0 + 0.5 + 0.75 + 0.75 + 1 = 3.0
    np.testing.assert_allclose(restricted_mean_time_lost(P_SMALL), [3.0, 1.5])
    np.testing.assert_allclose(restricted_mean_time_lost(P_SMALL), K - expected_time_to_event(P_SMALL))


@pytest.mark.parametrize("function", [cumulative_hazard, restricted_mean_time_lost])
@pytest.mark.parametrize("proba, message", [([[0.5, 1.5]], r"\[0, 1\]"), ([0.5, 0.2], "2-D")])
def test_survival_quantities_reject_bad_surfaces(function, proba, message):
    with pytest.raises(ValueError, match=message):
        function(proba)


# --------------------------------------------------------------------------
# StepFunction
# --------------------------------------------------------------------------


def test_step_function_hand_computed():
    f = StepFunction([0, 1, 2, 3], [1.0, 0.8, 0.5, 0.2])
    assert f.domain == (0.0, 3.0)
    assert f(0) == 1.0 and f(0.999) == 1.0 and f(1) == 0.8 and f(2.5) == 0.5 and f(3) == 0.2
    assert isinstance(f(1.5), float)
    np.testing.assert_array_equal(f([0.5, 1.0, 3.0]), [1.0, 0.8, 0.2])
    assert f(np.empty(0)).shape == (0,)


@pytest.mark.parametrize("t", [-0.5, 3.01, [1.0, 4.0]])
def test_step_function_refuses_times_outside_its_domain(t):
    with pytest.raises(ValueError, match=r"domain \[0, 3\]"):
        StepFunction([0, 1, 2, 3], [1.0, 0.8, 0.5, 0.2])(t)


@pytest.mark.parametrize("t", [np.nan, [1.0, np.inf]])
def test_step_function_refuses_non_finite_times(t):
    with pytest.raises(ValueError, match="finite"):
        StepFunction([0, 1], [1.0, 0.5])(t)


@pytest.mark.parametrize(
    "x, y, message",
    [
        ([0, 1], [1.0], "same non-zero length"),
        ([], [], "same non-zero length"),
        ([0, 2, 1], [1, 1, 1], "strictly increasing"),
        ([0, np.nan], [1, 1], "finite"),
    ],
)
def test_step_function_bad_points(x, y, message):
    with pytest.raises(ValueError, match=message):
        StepFunction(x, y)


@needs_sksurv
def test_step_function_agrees_with_sksurv():
    from sksurv.functions import StepFunction as SksurvStepFunction

    x, y = np.arange(K + 1.0), np.r_[1.0, 1.0 - P_SMALL[1]]
    times = np.r_[np.arange(K + 1.0), np.random.default_rng(0).uniform(0, K, 50)]
    ours, theirs = StepFunction(x, y), SksurvStepFunction(x, y)
    np.testing.assert_array_equal(ours(times), theirs(times))
    assert ours.domain == theirs.domain
    for outside in (-0.1, K + 0.1):
        with pytest.raises(ValueError):
            theirs(outside)


@pytest.fixture
def without_sksurv(monkeypatch):
    """Make scikit-survival look uninstalled to step_function_class, for the length of one test."""
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "sksurv" else find_spec(name, *a))
    step_function_class.cache_clear()
    yield
    step_function_class.cache_clear()


def test_own_step_functions_without_sksurv(without_sksurv, fixed_surface):
    assert step_function_class() is StepFunction
    functions = fixed_surface(P_SMALL).predict_survival_function([[0], [1]])
    assert all(type(f) is StepFunction for f in functions)
    assert functions[0](2.5) == 0.5


@needs_sksurv
def test_sksurv_step_functions_when_installed(fixed_surface):
    from sksurv.functions import StepFunction as SksurvStepFunction

    functions = fixed_surface(P_SMALL).predict_survival_function([[0], [1]])
    assert all(type(f) is SksurvStepFunction for f in functions)


# --------------------------------------------------------------------------
# The estimators' survival methods
# --------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["event_predictor", "finetuner", "boosting"])
def fitted(request, tiny_models):
    """A fitted surface estimator of each kind with the input it predicts from."""
    rng = np.random.default_rng(0)
    time = rng.integers(1, 15, 40)
    X = (-0.2 * time[:, None, None] + rng.normal(size=(40, 3, 32))).astype(np.float32)
    y = make_survival_y(rng.random(40) < 0.8, time)
    if request.param == "boosting":
        return GradientBoostingEventPredictor(K=10, max_iter=10, random_state=0).fit(X, y), X
    pre = HEPAPretrainer(**tiny_models["pretrainer"]).fit(X)
    if request.param == "finetuner":
        return HEPAFinetuner(pre, K=10, hidden=16, max_epochs=1, random_state=0).fit(X, y), X
    E = pre.transform(X)
    return HEPAEventPredictor(**tiny_models["event"]).fit(E, y), E


def test_survival_array_is_one_minus_the_surface(fitted):
    model, X = fitted
    P = model.predict_proba(X)
    np.testing.assert_array_equal(model.predict_survival_function(X, return_array=True), 1.0 - P)
    np.testing.assert_allclose(model.predict_cumulative_hazard_function(X, return_array=True), -np.log(1.0 - P))


def test_step_functions_hold_the_surface_on_zero_to_k(fitted):
    model, X = fitted
    P = model.predict_proba(X[:5])
    survival = model.predict_survival_function(X[:5])
    hazard = model.predict_cumulative_hazard_function(X[:5])
    assert survival.shape == hazard.shape == (5,) and survival.dtype == object
    grid = np.arange(P.shape[1] + 1.0)
    for i in range(5):
        np.testing.assert_array_equal(survival[i].x, grid)
        np.testing.assert_array_equal(survival[i].y, np.r_[1.0, 1.0 - P[i]])
        np.testing.assert_allclose(hazard[i].y, np.r_[0.0, -np.log(1.0 - P[i])])
        # between whole steps the function keeps the value of the step before
        np.testing.assert_array_equal(survival[i](grid[:-1] + 0.5), survival[i].y[:-1])
        with pytest.raises(ValueError):
            survival[i](P.shape[1] + 0.5)
        with pytest.raises(ValueError):
            hazard[i](-1.0)


def test_risk_orders_samples_against_predict(fitted):
    model, X = fitted
    risk, predicted = model.predict_risk(X), model.predict(X)
    np.testing.assert_allclose(risk, restricted_mean_time_lost(model.predict_proba(X)))
    if isinstance(model, GradientBoostingEventPredictor):  # predict is the median, a monotone map of μ̂
        order = np.argsort(predicted, kind="stable")
        assert (np.diff(risk[order]) <= 1e-12).all()
    else:
        np.testing.assert_allclose(risk, model.K - predicted)
    assert risk.shape == (X.shape[0],) and risk.dtype == np.float64


@pytest.mark.parametrize("return_array", ["yes", 1, None])
def test_return_array_must_be_a_bool(fitted, return_array):
    model, X = fitted
    with pytest.raises(TypeError, match="return_array must be True or False"):
        model.predict_survival_function(X, return_array=return_array)


@pytest.mark.parametrize("method", ["predict_survival_function", "predict_cumulative_hazard_function", "predict_risk"])
@pytest.mark.parametrize(
    "estimator", [HEPAEventPredictor(), GradientBoostingEventPredictor()], ids=["hepa", "boosting"]
)
def test_survival_methods_need_a_fitted_estimator(estimator, method):
    with pytest.raises(NotFittedError):
        getattr(estimator, method)(np.zeros((2, 4), np.float32))


# --------------------------------------------------------------------------
# Properties on random monotone surfaces
# --------------------------------------------------------------------------


@st.composite
def monotone_surfaces(draw):
    n = draw(st.integers(1, 8))
    k = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    increments = rng.exponential(size=(n, k)) * (rng.random((n, k)) < 0.7)
    scale = draw(st.sampled_from([0.01, 0.3, 1.0, 10.0]))
    return np.minimum(np.cumsum(scale * increments, axis=1) / k, 1.0)


@settings(max_examples=60, deadline=None)
@given(P=monotone_surfaces())
def test_survival_quantities_are_monotone(P):
    survival, hazard, risk = survival_function(P), cumulative_hazard(P), restricted_mean_time_lost(P)
    assert (np.diff(survival, axis=1) <= 0).all()
    assert (hazard >= 0).all() and (hazard[:, 1:] >= hazard[:, :-1]).all()  # not diff: inf - inf
    assert ((risk >= 0) & (risk <= P.shape[1] - 1)).all()
    np.testing.assert_allclose(risk, P.shape[1] - expected_time_to_event(P))


@settings(max_examples=60, deadline=None)
@given(P=monotone_surfaces(), fraction=st.lists(st.floats(0, 1), min_size=1, max_size=10))
def test_step_functions_are_the_surface_between_whole_steps(fixed_surface, P, fraction):
    K_ = P.shape[1]
    times = np.asarray(fraction) * K_
    rows = np.arange(P.shape[0])[:, None]
    model = fixed_surface(P)
    survival = np.r_["1", np.ones((P.shape[0], 1)), 1.0 - P]  # S(0), S(1), ..., S(K)
    for i, function in enumerate(model.predict_survival_function(rows)):
        values = np.atleast_1d(function(times))
        np.testing.assert_array_equal(values, survival[i, np.floor(times).astype(int)])
        assert (np.diff(values[np.argsort(times)]) <= 0).all()
    for function in model.predict_cumulative_hazard_function(rows):
        values = np.atleast_1d(function(np.sort(times)))
        assert (values[1:] >= values[:-1]).all()
