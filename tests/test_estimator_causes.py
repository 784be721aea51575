"""Tests for the estimators with several causes: one incidence per cause that sums to the surface, one cause as before,
refusals."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, MatchedHeadPredictor
from hepa_sklearn.baselines._cause_mix import SHRINKAGE
from hepa_sklearn.metrics import cause_h_auroc
from hepa_sklearn.nn.losses import cause_cross_entropy
from hepa_sklearn.nn.predictor import EventModel
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y

K = 10
N, D = 90, 8
RNG = np.random.default_rng(1)
E = RNG.normal(size=(N, D)).astype(np.float32)
EVENT = np.arange(N) % 6 != 0
TIME = 1 + np.arange(N) % 15
# the cause follows the sign of the first feature, so that it can be learned
CAUSE = np.where(EVENT, 1 + (E[:, 0] > 0), 0)
Y = make_survival_y(EVENT, TIME)
Y_ONE = make_survival_y(EVENT, TIME, cause=EVENT.astype(int))
Y_TWO = make_survival_y(EVENT, TIME, cause=CAUSE)
# windows for the boosting baseline: the time shows in the level of channel 0, the cause in channel 1
X = (TIME[:, None, None] + RNG.normal(size=(N, 2, 24))).astype(np.float32)
X[:, 1] += 3.0 * (CAUSE[:, None] == 2)


@pytest.fixture(scope="module")
def two_causes():
    return HEPAEventPredictor(K=K, hidden=16, max_epochs=30, lr=1e-2, early_stopping=False, random_state=0).fit(
        E, Y_TWO
    )


@pytest.mark.parametrize("head", ["mlp", "linear"])
@pytest.mark.parametrize("loss", ["bce", "nll"])
def test_one_cause_fits_bit_identically_to_no_cause(tiny_event_params, head, loss):
    plain = HEPAEventPredictor(**tiny_event_params, head=head, loss=loss).fit(E, Y)
    one = HEPAEventPredictor(**tiny_event_params, head=head, loss=loss).fit(E, Y_ONE)
    np.testing.assert_array_equal(one.predict_proba(E), plain.predict_proba(E))
    assert one.n_causes_ == plain.n_causes_ == 1
    np.testing.assert_array_equal(one.predict_cumulative_incidence(E), plain.predict_proba(E)[:, None, :])


def test_boosting_with_one_cause_fits_identically_to_no_cause():
    params = dict(K=K, max_iter=10, random_state=0)
    plain = GradientBoostingEventPredictor(**params).fit(X, Y)
    one = GradientBoostingEventPredictor(**params).fit(X, Y_ONE)
    np.testing.assert_array_equal(one.predict_proba(X), plain.predict_proba(X))
    assert one.cause_classifier_ is None and one.n_causes_ == 1


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 40), scale=st.floats(0.1, 20.0))
def test_incidences_are_monotone_and_sum_to_the_surface(two_causes, seed, n, scale):
    E_new = (np.random.default_rng(seed).normal(size=(n, D)) * scale).astype(np.float32)
    F = two_causes.predict_cumulative_incidence(E_new)
    P = two_causes.predict_proba(E_new)
    assert F.shape == (n, 2, K) and F.dtype == np.float64
    assert (F >= 0).all() and (np.diff(F, axis=2) >= 0).all()
    np.testing.assert_allclose(F.sum(axis=1), P, rtol=0, atol=1e-12)


def test_the_cause_head_learns_the_cause(two_causes):
    assert two_causes.n_causes_ == 2
    F = two_causes.predict_cumulative_incidence(E)[EVENT]
    share = F[:, 1, -1] / F[:, :, -1].sum(axis=1)  # cause 2's share of an event within K
    assert roc_auc_score(CAUSE[EVENT] == 2, share) > 0.9  # chance: 0.5


def test_boosting_splits_its_surface_by_the_cause_classifier():
    model = GradientBoostingEventPredictor(K=K, max_iter=20, random_state=0).fit(X, Y_TWO, groups=np.arange(N) % 9)
    F, P = model.predict_cumulative_incidence(X), model.predict_proba(X)
    assert F.shape == (N, 2, K) and model.n_causes_ == 2
    assert (np.diff(F, axis=2) >= 0).all()
    np.testing.assert_allclose(F.sum(axis=1), P, rtol=0, atol=1e-12)
    assert model.cause_classifier_.shrinkage in SHRINKAGE
    assert (cause_h_auroc(Y_TWO, F) > 0.7).all()


def test_incidence_step_functions_follow_the_incidences(two_causes):
    functions = two_causes.predict_cumulative_incidence_function(E[:3])
    F = two_causes.predict_cumulative_incidence(E[:3])
    assert functions.shape == (3, 2)
    assert functions[1, 0](0) == 0.0
    np.testing.assert_allclose(functions[1, 0](np.arange(1, K + 1)), F[1, 0], rtol=1e-6)
    np.testing.assert_array_equal(two_causes.predict_cumulative_incidence_function(E[:3], return_array=True), F)


def test_a_saved_model_of_two_causes_loads_with_its_cause_head(two_causes, tmp_path):
    save(two_causes, tmp_path / "model.hepa")
    loaded = load(tmp_path / "model.hepa")
    assert loaded.n_causes_ == 2
    np.testing.assert_array_equal(loaded.predict_cumulative_incidence(E), two_causes.predict_cumulative_incidence(E))


def test_a_gap_in_the_causes_is_named_in_a_warning(tiny_event_params):
    y = make_survival_y(EVENT, TIME, cause=np.where(CAUSE == 2, 3, CAUSE))
    with pytest.warns(UserWarning, match="cause\\(s\\) \\[2\\] never occur"):
        model = HEPAEventPredictor(**tiny_event_params).fit(E, y)
    assert model.predict_cumulative_incidence(E).shape == (N, 3, K)


def test_an_estimator_of_the_any_event_surface_refuses_several_causes():
    head = MatchedHeadPredictor(K=K, hidden=16, max_epochs=1, random_state=0)
    with pytest.raises(ValueError, match="MatchedHeadPredictor learns the any-event surface only.*any_event_y"):
        head.fit(E, Y_TWO)
    head.fit(E, Y_ONE)  # one cause is the any-event surface


def test_event_model_outputs_the_hazard_then_the_cause_logits():
    torch.manual_seed(0)
    single = EventModel(D, 16, K, float(K))
    torch.manual_seed(0)
    several = EventModel(D, 16, K, float(K), n_causes=3)
    x = torch.from_numpy(E[:4])
    assert single(x).shape == (4, K) and several(x).shape == (4, 4, K)
    # the cause head is built last: the hazard part starts from the same weights
    torch.testing.assert_close(several(x)[:, 0], single(x))
    assert EventModel(D, 16, K, float(K), head="linear", n_causes=2)(x).shape == (4, 3, K)


def test_cause_cross_entropy_reads_the_cause_at_the_event_step():
    logits = torch.zeros(2, 2, 3)
    logits[0, 1, 1] = np.log(3.0)  # window 0: cause 2 has share 3/4 at step 2
    labels = torch.tensor([[0.0, 1.0, 1.0], [0.0, 0.0, 0.0]])  # window 0 has its event at step 2, window 1 none
    loss = cause_cross_entropy(logits, labels, torch.tensor([2, 0]))
    torch.testing.assert_close(loss, torch.tensor(-np.log(0.75) / 2, dtype=torch.float32))


def test_n_causes_covers_a_cause_that_never_occurs_in_training(tiny_event_params):
    with pytest.warns(UserWarning, match="learns 3 causes.*cause\\(s\\) \\[3\\] never occur"):
        model = HEPAEventPredictor(**tiny_event_params, n_causes=3).fit(E, Y_TWO)
    F = model.predict_cumulative_incidence(E)
    assert model.n_causes_ == 3 and F.shape == (N, 3, K)
    np.testing.assert_allclose(F.sum(axis=1), model.predict_proba(E), rtol=0, atol=1e-12)
    with pytest.warns(UserWarning, match="\\[3\\] never occur"):
        boosting = GradientBoostingEventPredictor(K=K, max_iter=10, n_causes=3, random_state=0).fit(X, Y_TWO)
    assert boosting.predict_cumulative_incidence(X).shape == (N, 3, K)
    assert boosting.cause_classifier_.prior[2] == 0.0


@pytest.mark.parametrize(
    "make",
    [
        lambda: HEPAEventPredictor(K=K, hidden=16, max_epochs=1, n_causes=1),
        lambda: GradientBoostingEventPredictor(K=K, max_iter=5, n_causes=1),
    ],
)
def test_n_causes_below_the_largest_cause_is_refused(make):
    inputs = E if isinstance(make(), HEPAEventPredictor) else X
    with pytest.raises(ValueError, match="y holds cause 2 but .* has n_causes=1"):
        make().fit(inputs, Y_TWO)
