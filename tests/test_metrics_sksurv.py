"""scikit-survival's IPCW metrics as scorers: values against sksurv's own functions, the censoring weights, pipelines,
grid search."""

import importlib.util
import sys

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.metrics import (
    concordance_ipcw_scorer,
    cumulative_dynamic_auc_scorer,
    make_sksurv_scorer,
    neg_integrated_brier_scorer,
)

needs_sksurv = pytest.mark.skipif(
    importlib.util.find_spec("sksurv") is None, reason="scikit-survival is not installed (the survival extra)"
)

# scikit-survival's field names (its veterans' lung cancer data), read by position
SKSURV_DTYPE = [("Status", bool), ("Survival_in_days", float)]


def sksurv_y(event, time):
    return np.array(list(zip(event, time, strict=True)), dtype=SKSURV_DTYPE)


def surface_from_times(time, K, spread=2.0):
    """A smooth monotone surface whose event comes around ``time``: P[i, k-1] = sigmoid((k - time_i) / spread)."""
    horizons = np.arange(1, K + 1)
    return 1.0 / (1.0 + np.exp(-(horizons[None, :] - np.asarray(time, float)[:, None]) / spread))


@pytest.fixture
def noisy_data():
    """60 samples: times 1..20, 70 % events, and a surface centred on a noisy copy of each time."""
    rng = np.random.default_rng(0)
    time = rng.integers(1, 21, 60).astype(float)
    event = rng.random(60) < 0.7
    event[time == time.max()] = True  # no censoring at the last time: sksurv's own functions accept the data as is
    P = surface_from_times(time + rng.normal(scale=3, size=60), K=20)
    return np.arange(60)[:, None], sksurv_y(event, time), P


# --------------------------------------------------------------------------
# Arguments and the optional dependency
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(metric="c_index"), ValueError, "metric"),
        (dict(metric="integrated_brier_score", tau=5.0), ValueError, "tau applies to 'concordance_index_ipcw' only"),
        (dict(metric="concordance_index_ipcw", times=[1, 2]), ValueError, "times do not apply"),
        (dict(metric="integrated_brier_score", tied_tol=1e-6), ValueError, "tied_tol does not apply"),
        (dict(metric="integrated_brier_score", times=[3, 3]), ValueError, "at least 2 distinct"),
        (dict(metric="cumulative_dynamic_auc", times=[1, np.nan]), ValueError, "finite non-negative"),
        (dict(metric="cumulative_dynamic_auc", times=[-1, 2]), ValueError, "finite non-negative"),
        (dict(metric="cumulative_dynamic_auc", times=["a"]), TypeError, "times must be numbers"),
        (dict(metric="concordance_index_ipcw", tau=0), ValueError, "tau"),
        (dict(metric="concordance_index_ipcw", survival_train=np.ones(3)), TypeError, "structured"),
    ],
)
def test_make_sksurv_scorer_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_sksurv_scorer(**kwargs)


def test_scorer_without_sksurv_names_the_extra(monkeypatch, fixed_surface, noisy_data):
    X, y, P = noisy_data
    monkeypatch.setitem(sys.modules, "sksurv.metrics", None)  # import sksurv.metrics now raises ImportError
    with pytest.raises(ImportError, match=r"hepa-sklearn\[survival\]"):
        concordance_ipcw_scorer(fixed_surface(P), X, y)


def test_scorers_are_named_and_picklable():
    import pickle

    assert repr(neg_integrated_brier_scorer) == "make_sksurv_scorer('integrated_brier_score')"
    assert repr(pickle.loads(pickle.dumps(concordance_ipcw_scorer))) == "make_sksurv_scorer('concordance_index_ipcw')"


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


@needs_sksurv
def test_concordance_of_perfect_and_reversed_rankings(fixed_surface):
    time = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = sksurv_y([True, True, False, True, False], time)
    X = np.arange(5)[:, None]
    assert concordance_ipcw_scorer(fixed_surface(surface_from_times(time, 6)), X, y) == 1.0
    assert concordance_ipcw_scorer(fixed_surface(surface_from_times(time[::-1], 6)), X, y) == 0.0


@needs_sksurv
def test_scorers_match_sksurv_functions(fixed_surface, noisy_data):
    from sksurv.metrics import concordance_index_ipcw, cumulative_dynamic_auc, integrated_brier_score

    X, y, P = noisy_data
    model = fixed_surface(P)
    time, event = y["Survival_in_days"], y["Status"]
    times = np.unique(time[event & (time < time.max())])  # the scorers' default evaluation times
    S = 1.0 - P[:, times.astype(int) - 1]
    assert concordance_ipcw_scorer(model, X, y) == concordance_index_ipcw(y, y, model.predict_risk(X))[0]
    assert neg_integrated_brier_scorer(model, X, y) == -integrated_brier_score(y, y, S, times)
    assert cumulative_dynamic_auc_scorer(model, X, y) == cumulative_dynamic_auc(y, y, 1.0 - S, times)[1]


@needs_sksurv
def test_scorers_with_explicit_times_and_training_labels(fixed_surface, noisy_data):
    from sksurv.metrics import concordance_index_ipcw, cumulative_dynamic_auc, integrated_brier_score

    X, y, P = noisy_data
    model = fixed_surface(P)
    train = np.concatenate([y, sksurv_y([False, False], [25.0, 30.0])])
    times = np.array([3.0, 5.0, 8.0])
    S = 1.0 - P[:, [2, 4, 7]]
    scorer = make_sksurv_scorer("integrated_brier_score", survival_train=train, times=times)
    assert scorer(model, X, y) == -integrated_brier_score(train, y, S, times)
    scorer = make_sksurv_scorer("cumulative_dynamic_auc", survival_train=train, times=times, tied_tol=1e-3)
    assert scorer(model, X, y) == cumulative_dynamic_auc(train, y, 1.0 - S, times, tied_tol=1e-3)[1]
    scorer = make_sksurv_scorer("concordance_index_ipcw", survival_train=train, tau=10.0)
    assert scorer(model, X, y) == concordance_index_ipcw(train, y, model.predict_risk(X), tau=10.0)[0]


@needs_sksurv
def test_censoring_weights_from_the_scored_y_stay_finite(fixed_surface):
    """An event and a censoring at the last time make sksurv's censoring weight there infinite."""
    from sksurv.metrics import concordance_index_ipcw, cumulative_dynamic_auc

    time = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 5.0])
    y = sksurv_y([True, False, True, True, True, False], time)
    X = np.arange(6)[:, None]
    model = fixed_surface(surface_from_times(time, 6))
    with pytest.raises(ValueError, match="censoring survival function is zero"):
        concordance_index_ipcw(y, y, model.predict_risk(X))
    with pytest.raises(ValueError, match="censoring survival function is zero"):
        cumulative_dynamic_auc(y, y, model.predict_proba(X)[:, [0, 2]], [1.0, 3.0])
    # the scorers drop only the event at 5, whose one comparable sample is censored at 5
    assert concordance_ipcw_scorer(model, X, y) == concordance_index_ipcw(y, y, model.predict_risk(X), tau=5.0)[0]
    assert (
        cumulative_dynamic_auc_scorer(model, X, y)
        == cumulative_dynamic_auc(
            y,
            sksurv_y([True, False, True, True, False, False], time),
            model.predict_proba(X)[:, [0, 2, 3]],
            [1.0, 3.0, 4.0],
        )[1]
    )


@needs_sksurv
@pytest.mark.parametrize("scorer", [neg_integrated_brier_scorer, cumulative_dynamic_auc_scorer])
def test_too_few_event_times_inside_the_horizon(fixed_surface, scorer):
    y = sksurv_y([False, True, True], [1.0, 8.0, 9.0])  # K = 4: no event time inside [0, 4]
    with pytest.raises(ValueError, match="event time"):
        scorer(fixed_surface(np.full((3, 4), 0.5)), np.arange(3)[:, None], y)


@needs_sksurv
def test_times_beyond_the_horizon_are_refused(fixed_surface, noisy_data):
    X, y, P = noisy_data
    scorer = make_sksurv_scorer("integrated_brier_score", times=[2.0, 25.0])
    with pytest.raises(ValueError):
        scorer(fixed_surface(P), X, y)


@needs_sksurv
def test_sksurv_estimators_are_scored_by_their_own_risk():
    from sksurv.linear_model import CoxPHSurvivalAnalysis
    from sksurv.metrics import concordance_index_ipcw

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    time = np.exp(1 - X[:, 0] + 0.3 * rng.normal(size=80))
    y = sksurv_y(rng.random(80) < 0.8, time)
    y["Status"][np.argmax(time)] = True
    cox = CoxPHSurvivalAnalysis().fit(X, y)
    assert concordance_ipcw_scorer(cox, X, y) == concordance_index_ipcw(y, y, cox.predict(X))[0]
    assert np.isfinite(neg_integrated_brier_scorer(cox, X, y))


# --------------------------------------------------------------------------
# Pipelines and grid search on a tiny HEPAEventPredictor
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def embeddings():
    """96 embeddings of width 8 whose first coordinate sets the event time; sksurv-style labels."""
    rng = np.random.default_rng(0)
    E = rng.normal(size=(96, 8)).astype(np.float32)
    time = np.clip(np.round(8 + 3 * E[:, 0] + rng.normal(size=96)), 1, 20)
    event = rng.random(96) < 0.8
    return E, sksurv_y(event, time)


@needs_sksurv
def test_pipeline_is_scored_through_its_final_step(embeddings, tiny_models):
    E, y = embeddings
    pipe = make_pipeline(FunctionTransformer(), HEPAEventPredictor(**{**tiny_models["event"], "K": 20})).fit(E, y)
    final = pipe[-1]
    for scorer in (concordance_ipcw_scorer, neg_integrated_brier_scorer, cumulative_dynamic_auc_scorer):
        assert scorer(pipe, E, y) == scorer(final, E, y)


@needs_sksurv
def test_grid_search_with_ipcw_scorers(embeddings, tiny_models):
    E, y = embeddings
    search = GridSearchCV(
        HEPAEventPredictor(**{**tiny_models["event"], "K": 20}),
        {"hidden": [4, 8]},
        scoring={"c_ipcw": concordance_ipcw_scorer, "ibs": neg_integrated_brier_scorer},
        refit="c_ipcw",
        cv=KFold(3, shuffle=True, random_state=0),
        error_score="raise",
    ).fit(E, y)
    for name in ("c_ipcw", "ibs"):
        assert np.isfinite(search.cv_results_[f"mean_test_{name}"]).all()
    assert 0 <= search.best_score_ <= 1 and search.best_params_["hidden"] in (4, 8)
    assert search.best_estimator_.predict_risk(E).shape == (96,)
