"""HorizonClassifier and label_at_horizon: the binary view of a surface at one horizon, its two fits, scikit-learn's
tools on it."""

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.calibration import CalibratedClassifierCV
from sklearn.frozen import FrozenEstimator
from sklearn.metrics import get_scorer, roc_auc_score
from sklearn.model_selection import GroupKFold, TunedThresholdClassifierCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils._param_validation import InvalidParameterError

from hepa_sklearn import ElapsedTimeEventPredictor, HEPAEventPredictor, HEPAPretrainer, HorizonClassifier
from hepa_sklearn._interval_labels import interval_label_surface
from hepa_sklearn.classifier import label_at_horizon
from hepa_sklearn.metrics import make_alarm_cost_scorer, per_horizon_auroc
from hepa_sklearn.surface import label_surface, make_survival_y

HORIZON = 9  # the subset's windows lie 0, 8, 16, ... cycles before failure


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


@pytest.fixture(scope="module")
def pipeline(tiny_models):
    pretrainer, event = tiny_models["pretrainer"], tiny_models["event"]
    return lambda: make_pipeline(HEPAPretrainer(**pretrainer), HEPAEventPredictor(**event))


@pytest.fixture(scope="module")
def binary_subset(fd001_subset):
    """The FD001 subset's windows with a known label at HORIZON, that label, and their full labels and units."""
    X, y, groups = fd001_subset
    labels, known = label_at_horizon(y, HORIZON)
    return X[known], labels[known], y[known], groups[known]


def test_label_at_horizon_hand_computed():
    # event at H, event after H, censored at H, censored before H, event at 0
    y = make_survival_y([True, True, False, False, True], [6, 7, 6, 5, 0])
    labels, known = label_at_horizon(y, 6)
    assert labels.tolist() == [True, False, False, False, True]
    assert known.tolist() == [True, True, True, False, True]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 12)), min_size=1, max_size=20), st.integers(1, 10))
def test_label_at_horizon_is_the_label_surface_column(records, horizon):
    y = make_survival_y([e for e, _ in records], [t for _, t in records])
    labels, known = label_at_horizon(y, horizon)
    surface, surface_known = label_surface(y, 10)
    np.testing.assert_array_equal(known, surface_known[:, horizon - 1])
    np.testing.assert_array_equal(labels[known], surface[known, horizon - 1] == 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 12)), min_size=1, max_size=20), st.integers(1, 10))
def test_binary_cells_are_the_full_surface_cells_the_label_determines(records, horizon):
    """A positive fixes the cells from H on, a negative those up to H; each cell it fixes agrees with the full
    labels."""
    y = make_survival_y([e for e, _ in records], [t for _, t in records])
    labels, known = label_at_horizon(y, horizon)
    clf = HorizonClassifier(HEPAEventPredictor(K=10), horizon=horizon)
    target = clf._surface_target(labels[known], HEPAEventPredictor(K=10), False)
    cells, cells_known = interval_label_surface(target, 10)
    columns = np.arange(1, 11)
    positive = labels[known][:, None]
    np.testing.assert_array_equal(cells_known, np.where(positive, columns >= horizon, columns <= horizon))
    surface, surface_known = label_surface(y[known], 10)
    assert surface_known[cells_known].all()
    np.testing.assert_array_equal(cells[cells_known], surface[cells_known])


def test_binary_fit_trains_on_the_determined_cells_only():
    """pos_weight 'auto' counts known cells: a positive gives K - H + 1 positive cells, a negative H negative ones."""
    rng = np.random.default_rng(0)
    E = rng.normal(size=(20, 3)).astype(np.float32)
    labels = np.arange(20) < 5  # 5 positives, 15 negatives
    clf = HorizonClassifier(HEPAEventPredictor(K=10, hidden=8, max_epochs=1, random_state=0), horizon=4).fit(E, labels)
    assert clf.estimator_.pos_weight_ == pytest.approx((15 * 4) / (5 * (10 - 4 + 1)))


def test_roc_auc_equals_per_horizon_auroc(pipeline, fd001_subset):
    X, y, _ = fd001_subset
    fitted = pipeline().fit(X, y)
    labels, known = label_at_horizon(y, HORIZON)
    view = HorizonClassifier(fitted, horizon=HORIZON)  # a fitted surface estimator is used as it is
    expected = per_horizon_auroc(y, fitted.predict_proba(X), horizons=[HORIZON])[0]
    assert get_scorer("roc_auc")(view, X[known], labels[known]) == pytest.approx(expected, rel=1e-12, abs=0)
    assert roc_auc_score(labels[known], view.predict_proba(X[known])[:, 1]) == pytest.approx(expected, rel=1e-12)
    np.testing.assert_array_equal(view.predict(X), view.decision_function(X) >= 0.5)
    assert view.classes_.tolist() == [False, True]


def test_binary_label_fit_matches_the_pipeline_on_interval_labels(pipeline, binary_subset):
    X, labels, _, _ = binary_subset
    clf = HorizonClassifier(pipeline(), horizon=HORIZON).fit(X, labels.astype(int))
    direct = pipeline().fit(X, clf._surface_target(labels, clf.estimator[-1], False))
    np.testing.assert_array_equal(clf.predict_proba(X)[:, 1], direct.predict_proba(X)[:, HORIZON - 1])
    assert clf.estimator_ is not clf.estimator


def test_routed_full_label_fit_trains_on_the_full_labels(pipeline, binary_subset, routing):
    X, labels, y, groups = binary_subset
    clf = HorizonClassifier(pipeline(), horizon=HORIZON).set_fit_request(survival_y=True)
    scores = cross_val_score(
        clf,
        X,
        labels,
        cv=GroupKFold(2),
        scoring="roc_auc",
        params={"survival_y": y, "groups": groups},
        error_score="raise",
    )
    assert scores.shape == (2,) and np.isfinite(scores).all()
    fitted = clf.fit(X, labels, survival_y=y)
    np.testing.assert_array_equal(fitted.estimator_.predict_proba(X), pipeline().fit(X, y).predict_proba(X))


def test_tuned_threshold_on_group_folds(pipeline, binary_subset, routing):
    X, labels, _, groups = binary_subset
    tuned = TunedThresholdClassifierCV(
        HorizonClassifier(pipeline(), horizon=HORIZON),
        scoring=make_alarm_cost_scorer(missed_failure_cost=5, false_alarm_cost=1),
        cv=GroupKFold(2),
        thresholds=20,
    ).fit(X, labels, groups=groups)
    assert 0 <= tuned.best_threshold_ <= 1
    scores = tuned.estimator_.decision_function(X)
    np.testing.assert_array_equal(tuned.predict(X), scores >= tuned.best_threshold_)


def test_calibrated_classifier_on_group_folds(pipeline, binary_subset, routing):
    X, labels, _, groups = binary_subset
    calibrated = CalibratedClassifierCV(HorizonClassifier(pipeline(), horizon=HORIZON), cv=GroupKFold(2))
    proba = calibrated.fit(X, labels, groups=groups).predict_proba(X)
    assert proba.shape == (X.shape[0], 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_frozen_estimator_is_not_refitted(pipeline, fd001_subset, binary_subset):
    X, y, _ = fd001_subset
    fitted = pipeline().fit(X, y)
    before = fitted.predict_proba(X)
    X_known, labels, _, _ = binary_subset
    clf = HorizonClassifier(FrozenEstimator(fitted), horizon=HORIZON).fit(X_known, labels)
    np.testing.assert_array_equal(clf.decision_function(X), before[:, HORIZON - 1])


def test_horizon_outside_the_surface_is_refused(fd001_subset, tiny_models):
    X, y, _ = fd001_subset
    K = tiny_models["event"]["K"]
    labels, known = label_at_horizon(y, K)
    with pytest.raises(ValueError, match=rf"horizon={K + 1} lies outside the surface's horizons 1..{K}"):
        HorizonClassifier(HEPAEventPredictor(**tiny_models["event"]), horizon=K + 1).fit(X[known], labels[known])
    with pytest.raises(InvalidParameterError, match="horizon"):
        HorizonClassifier(HEPAEventPredictor(**tiny_models["event"]), horizon=0).fit(X[known], labels[known])


def test_horizon_beyond_a_fitted_surface_is_refused_at_predict():
    E = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
    fitted = HEPAEventPredictor(K=3, hidden=4, max_epochs=1).fit(E, make_survival_y([True] * 8, np.arange(8) % 5))
    with pytest.raises(ValueError, match=r"horizon=4 lies outside the surface's horizons 1..3"):
        HorizonClassifier(fitted, horizon=4).predict_proba(E)


def test_structured_y_without_routing_is_refused(binary_subset):
    X, _, y, _ = binary_subset
    with pytest.raises(ValueError, match=r"structured array .*label_at_horizon\(y, 9\).*survival_y"):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=HORIZON).fit(X, y)


@pytest.mark.parametrize(
    "y, found", [([0, 1, 2, 1], "multiclass"), ([0, 2, 0, 2], "found 2"), (["no", "yes"] * 2, "strings")]
)
def test_binary_y_with_other_values_is_refused(y, found):
    with pytest.raises(ValueError, match=found):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=3).fit(np.zeros((4, 2), np.float32), y)


def test_survival_y_must_agree_with_y():
    E = np.zeros((4, 2), np.float32)
    y = make_survival_y([True, True, False, True], [2, 9, 9, 1])
    labels, _ = label_at_horizon(y, 3)
    assert labels.tolist() == [True, False, False, True]
    with pytest.raises(ValueError, match="disagrees with survival_y's label at horizon=3 on 1 window"):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=3).fit(E, [True, True, False, True], survival_y=y)
    censored = make_survival_y([True, True, False, True], [2, 9, 1, 1])
    with pytest.raises(ValueError, match="1 window.s. censored before horizon=3"):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=3).fit(E, labels, survival_y=censored)


def test_binary_fit_needs_a_torch_surface_with_the_bce_loss():
    E = np.zeros((4, 2), np.float32)
    labels = np.array([True, False, True, False])
    with pytest.raises(ValueError, match="loss='nll' needs each event's step"):
        HorizonClassifier(HEPAEventPredictor(K=10, loss="nll"), horizon=3).fit(E, labels)
    with pytest.raises(TypeError, match="ElapsedTimeEventPredictor cannot learn from binary labels alone"):
        HorizonClassifier(ElapsedTimeEventPredictor(K=10), horizon=3).fit(E, labels)


@pytest.mark.parametrize("horizon", [0, -1, 1.5, 2.0, True, "2"])
def test_a_bad_horizon_around_a_fitted_surface_is_refused_at_predict(horizon):
    """Without fit the horizon is checked where it is read: 0 and -1 would read the columns K and K - 1."""
    E = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
    y = make_survival_y([True] * 8, np.arange(8) % 5)
    fitted = HEPAEventPredictor(K=3, hidden=4, max_epochs=1).fit(E, y)
    view = HorizonClassifier(fitted, horizon=horizon)
    for method in (view.decision_function, view.predict_proba, view.predict):
        with pytest.raises(InvalidParameterError, match=r"'horizon' parameter of HorizonClassifier must be"):
            method(E)
    with pytest.raises(InvalidParameterError, match="'threshold' parameter"):
        HorizonClassifier(fitted, horizon=2, threshold=1.5).predict(E)


def test_routed_survival_y_of_another_length_is_named():
    E = np.zeros((5, 2), np.float32)
    y = make_survival_y([True, True, False, True], [2, 9, 9, 1])
    labels = [True, False, False, True, False]
    with pytest.raises(ValueError, match=r"survival_y has 4 windows but y has 5"):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=3).fit(E, labels, survival_y=y)
    with pytest.raises(TypeError, match=r"^survival_y must be a structured array"):
        HorizonClassifier(HEPAEventPredictor(K=10), horizon=3).fit(E, labels, survival_y=np.ones(5))
