"""Tests for HEPAEventPredictor: the event surface, learning, class weighting, input checks, init_from."""

import pickle

import joblib
import numpy as np
import pytest
import scipy.sparse
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer, h_auroc
from hepa_sklearn.surface import label_surface, make_survival_y

K = 10
N, D = 60, 8
RNG = np.random.default_rng(0)
E = RNG.normal(size=(N, D)).astype(np.float32)
# events 1..15 steps ahead, every fifth window censored instead
Y = make_survival_y(np.arange(N) % 5 != 0, 1 + np.arange(N) % 15)


@pytest.fixture
def fitted(tiny_event_params):
    return HEPAEventPredictor(**tiny_event_params).fit(E, Y)


def test_predict_proba_is_a_monotone_surface(fitted):
    P = fitted.predict_proba(E)
    assert P.shape == (N, K)
    assert ((P >= 0) & (P <= 1)).all()
    assert (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_array_equal(fitted.horizons_, np.arange(1, K + 1))
    assert fitted.n_features_in_ == D


@settings(max_examples=10, deadline=None)
@given(
    horizons=st.integers(1, 12),
    n_samples=st.integers(2, 20),
    width=st.integers(1, 5),
    scale=st.sampled_from([0.1, 1.0, 100.0]),
    seed=st.integers(0, 2**16),
)
def test_surface_is_monotone_for_any_embeddings(horizons, n_samples, width, scale, seed):
    rng = np.random.default_rng(seed)
    embeddings = (scale * rng.normal(size=(n_samples, width))).astype(np.float32)
    # times 1 and 2 are both present: a positive and a negative cell at horizon 1
    y = make_survival_y(np.ones(n_samples, bool), 1 + np.arange(n_samples) % (horizons + 1))
    model = HEPAEventPredictor(K=horizons, hidden=8, max_epochs=1, early_stopping=False, random_state=seed).fit(
        embeddings, y
    )
    P = model.predict_proba(embeddings)
    assert P.shape == (n_samples, horizons)
    assert np.isfinite(P).all()
    assert ((P >= 0) & (P <= 1)).all()
    assert (np.diff(P, axis=1) >= 0).all()


def test_predict_is_expected_time_from_the_surface(fitted):
    P = fitted.predict_proba(E)
    expected = fitted.predict(E)
    assert expected.shape == (N,)
    assert ((expected >= 1) & (expected <= K)).all()
    np.testing.assert_allclose(expected, 1 + np.sum(1 - P[:, :-1], axis=1))


def test_score_is_h_auroc(fitted):
    assert fitted.score(E, Y) == h_auroc(Y, fitted.predict_proba(E))


def test_learns_separable_data():
    rng = np.random.default_rng(1)
    n = 200
    time = rng.integers(1, 2 * K + 1, n).astype(float)
    event = rng.random(n) > 0.2
    y = make_survival_y(event, time)
    embeddings = np.column_stack([time / K + 0.05 * rng.normal(size=n), rng.normal(size=(n, 3))])
    model = HEPAEventPredictor(K=K, hidden=32, max_epochs=20, batch_size=16, random_state=0)
    assert model.fit(embeddings.astype(np.float32), y).score(embeddings, y) > 0.9


def test_auto_pos_weight_balances_known_cells(fitted):
    labels, known = label_surface(Y, K)
    n_pos = labels[known].sum()
    n_neg = known.sum() - n_pos
    assert fitted.pos_weight_ == pytest.approx(n_neg / n_pos)
    assert fitted.net_.criterion_.pos_weight == fitted.pos_weight_


def test_float_pos_weight_is_used_as_given(tiny_event_params):
    model = HEPAEventPredictor(**{**tiny_event_params, "pos_weight": 2.5}).fit(E, Y)
    assert model.pos_weight_ == 2.5
    assert model.net_.criterion_.pos_weight == 2.5


def test_large_K_beyond_observed_times(tiny_event_params):
    model = HEPAEventPredictor(**{**tiny_event_params, "K": 40}).fit(E, Y)
    P = model.predict_proba(E)
    assert P.shape == (N, 40)
    assert (np.diff(P, axis=1) >= 0).all()
    assert ((model.predict(E) >= 1) & (model.predict(E) <= 40)).all()


def _structured(fields, n=N):
    y = np.zeros(n, dtype=fields)
    y[fields[0][0]] = True
    return y


@pytest.mark.parametrize(
    "y, error, match",
    [
        (np.ones(N), TypeError, "structured"),
        (_structured([("duration", float), ("status", bool)]), TypeError, "first field 'duration'"),
        (_structured([("event", bool), ("time", float), ("unit", int)]), ValueError, "exactly two fields"),
        (make_survival_y(np.ones(N, bool), np.full(N, -1.0)), ValueError, "non-negative"),
        (Y[:-1], ValueError, "must match"),
        (make_survival_y(np.zeros(N, bool), 1 + np.arange(N) % 15), ValueError, "nothing to learn"),
        (make_survival_y(np.ones(N, bool), np.full(N, K + 5.0)), ValueError, "nothing to learn"),
        (None, ValueError, "y is required"),
    ],
    ids=["plain", "time-first", "three-fields", "negative-time", "length", "all-censored", "no-event-within-K", "none"],
)
def test_bad_y(tiny_event_params, y, error, match):
    with pytest.raises(error, match=match):
        HEPAEventPredictor(**tiny_event_params).fit(E, y)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"K": 0}, "K"),
        ({"hidden": 0}, "hidden"),
        ({"lr": 0.0}, "lr"),
        ({"max_epochs": 0}, "max_epochs"),
        ({"pos_weight": -1.0}, "pos_weight"),
        ({"pos_weight": "balanced"}, "pos_weight"),
    ],
)
def test_bad_hyperparameters_raise_at_fit(tiny_event_params, params, match):
    model = HEPAEventPredictor(**{**tiny_event_params, **params})
    with pytest.raises(ValueError, match=match):
        model.fit(E, Y)


def test_bad_embeddings(fitted, tiny_event_params):
    with pytest.raises(ValueError, match="NaN"):
        HEPAEventPredictor(**tiny_event_params).fit(np.where(np.eye(N, D) > 0, np.nan, E), Y)
    with pytest.raises(ValueError, match="E contains infinite values; embeddings must be finite"):
        fitted.predict_proba(np.where(np.eye(N, D) > 0, np.inf, E))
    with pytest.raises(ValueError, match="features"):
        fitted.predict_proba(E[:, :3])
    with pytest.raises(ValueError, match="2-D"):
        fitted.predict_proba(E[None])


def test_complex_embeddings_are_rejected(tiny_event_params):
    with pytest.raises(ValueError, match="[Cc]omplex"):
        HEPAEventPredictor(**tiny_event_params).fit(E + 1j, Y)


def test_sparse_embeddings_are_rejected_by_name(fitted):
    with pytest.raises(TypeError, match="sparse"):
        fitted.predict_proba(scipy.sparse.csr_matrix(E))


def test_same_random_state_is_reproducible(fitted, tiny_event_params):
    again = HEPAEventPredictor(**tiny_event_params).fit(E, Y)
    assert np.array_equal(again.predict_proba(E), fitted.predict_proba(E))
    other = HEPAEventPredictor(**{**tiny_event_params, "random_state": 1}).fit(E, Y)
    assert not np.array_equal(other.predict_proba(E), fitted.predict_proba(E))


def test_pickle_and_joblib_round_trips(fitted, tmp_path):
    P = fitted.predict_proba(E)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(fitted)).predict_proba(E), P)
    joblib.dump(fitted, tmp_path / "model.joblib")
    np.testing.assert_array_equal(joblib.load(tmp_path / "model.joblib").predict_proba(E), P)


@pytest.fixture
def pretrained(windows, tiny_pretrainer_params):
    # an embedding of d_model columns, which the pretrained predictor reads (window_level=True appends the level)
    pre = HEPAPretrainer(**tiny_pretrainer_params, window_level=False).fit(windows)
    y = make_survival_y(np.ones(len(windows), bool), 1 + np.arange(len(windows)) % 15)
    return pre, pre.transform(windows), y


def test_init_from_copies_the_pretrained_predictor(pretrained, tiny_event_params):
    pre, embeddings, y = pretrained
    source = {k: v.clone() for k, v in pre.predictor_.state_dict().items()}
    params = {**tiny_event_params, "max_epochs": 1, "lr": 1e-12, "init_from": pre}
    model = HEPAEventPredictor(**params).fit(embeddings, y)
    copied = model.net_.module_.predictor
    assert copied.horizon_scale == pre.predictor_.horizon_scale
    for name, tensor in copied.state_dict().items():
        torch.testing.assert_close(tensor, source[name], rtol=0, atol=1e-8)
        assert tensor.data_ptr() != pre.predictor_.state_dict()[name].data_ptr()
    for name, tensor in pre.predictor_.state_dict().items():  # the pretrainer is left untouched
        assert torch.equal(tensor, source[name])


def test_init_from_with_other_hidden_width_raises(pretrained, tiny_event_params):
    pre, embeddings, y = pretrained
    with pytest.raises(ValueError, match="hidden"):
        HEPAEventPredictor(**{**tiny_event_params, "hidden": 8, "init_from": pre}).fit(embeddings, y)


def test_init_from_unfitted_pretrainer_raises(pretrained, tiny_event_params, tiny_pretrainer_params):
    _, embeddings, y = pretrained
    model = HEPAEventPredictor(**tiny_event_params, init_from=HEPAPretrainer(**tiny_pretrainer_params))
    with pytest.raises(ValueError, match="fitted HEPAPretrainer"):
        model.fit(embeddings, y)


def test_init_from_a_pretrainer_that_appends_the_level_says_so(windows, tiny_pretrainer_params, tiny_event_params):
    pre = HEPAPretrainer(**tiny_pretrainer_params).fit(windows)  # window_level=True, the default
    y = make_survival_y(np.ones(len(windows), bool), 1 + np.arange(len(windows)) % 15)
    with pytest.raises(ValueError, match=r"appends the window level to it \(window_level, on by default\)"):
        HEPAEventPredictor(**tiny_event_params, init_from=pre).fit(pre.transform(windows), y)
