"""The event head run at a few horizons (knots) with the hazard logits interpolated between them."""

import pickle

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.nn.predictor import EventModel, interpolation_matrix, knot_horizons
from hepa_sklearn.surface import make_survival_y


def test_knot_horizons_by_hand():
    assert knot_horizons(10, 4).tolist() == [1, 4, 7, 10]
    assert knot_horizons(150, 16).tolist() == [1, 11, 21, 31, 41, 51, 61, 71, 80, 90, 100, 110, 120, 130, 140, 150]
    assert knot_horizons(5, None).tolist() == [1, 2, 3, 4, 5]
    assert knot_horizons(5, 5).tolist() == knot_horizons(5, 9).tolist() == [1, 2, 3, 4, 5]
    assert knot_horizons(5, 2).tolist() == [1, 5]
    with pytest.raises(ValueError, match="at least 2"):
        knot_horizons(5, 1)


def test_interpolation_matrix_by_hand():
    matrix = interpolation_matrix([1, 4, 7, 10], 10)
    third = 1 / 3
    # horizon 2 is a third of the way from the knot at 1 to the knot at 4, horizon 6 two thirds from 4 to 7
    np.testing.assert_allclose(matrix[:, 1], [2 * third, third, 0, 0])
    np.testing.assert_allclose(matrix[:, 5], [0, third, 2 * third, 0])
    np.testing.assert_array_equal(matrix[:, [0, 3, 6, 9]], np.eye(4))


@settings(max_examples=60, deadline=None)
@given(K=st.integers(2, 200), horizon_knots=st.integers(2, 220), slope=st.floats(-3, 3), offset=st.floats(-3, 3))
def test_interpolation_reproduces_straight_lines(K, horizon_knots, slope, offset):
    knots = knot_horizons(K, horizon_knots)
    matrix = interpolation_matrix(knots, K)
    assert matrix.shape == (len(knots), K)
    assert (matrix >= 0).all() and ((matrix > 0).sum(axis=0) <= 2).all()
    np.testing.assert_allclose(matrix.sum(axis=0), 1.0)
    # a straight line through the knots comes back at every horizon
    np.testing.assert_allclose((offset + slope * knots) @ matrix, offset + slope * np.arange(1, K + 1), atol=1e-9)


def test_event_model_runs_the_head_at_the_knots_and_interpolates_between():
    torch.manual_seed(0)
    model = EventModel(d_model=8, hidden=16, K=10, horizon_scale=10.0, horizon_knots=4)
    X = torch.randn(5, 8)
    logits = model(X)
    at_knots = model.head(model.predictor.grid(X, torch.tensor([1.0, 4.0, 7.0, 10.0])))
    torch.testing.assert_close(logits[:, [0, 3, 6, 9]], at_knots)
    torch.testing.assert_close(logits[:, 4], at_knots[:, 1] * 2 / 3 + at_knots[:, 2] / 3)


def test_without_knots_the_model_is_unchanged():
    model = EventModel(d_model=8, hidden=16, K=10, horizon_scale=10.0)
    assert "interpolation" not in model.state_dict()
    assert model.horizons.tolist() == list(range(1, 11))


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(80, 8)).astype("float32")
    event = rng.random(80) < 0.8
    y = make_survival_y(event, rng.integers(1, 25, 80), cause=np.where(event, rng.integers(1, 3, 80), 0))
    return E, y


def test_predictor_with_knots_gives_a_monotone_surface_and_is_reproducible(data):
    E, y = data
    params = dict(K=20, hidden=16, max_epochs=2, horizon_knots=5, random_state=0)
    P = HEPAEventPredictor(**params).fit(E, y).predict_proba(E)
    assert P.shape == (80, 20)
    assert (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_array_equal(P, HEPAEventPredictor(**params).fit(E, y).predict_proba(E))
    assert not np.array_equal(P, HEPAEventPredictor(**{**params, "horizon_knots": None}).fit(E, y).predict_proba(E))


def test_knots_with_causes_and_a_pickle_round_trip(data):
    E, y = data
    model = HEPAEventPredictor(K=20, hidden=16, max_epochs=2, horizon_knots=5, random_state=0).fit(E, y)
    incidence = model.predict_cumulative_incidence(E)
    assert incidence.shape == (80, 2, 20)
    np.testing.assert_allclose(incidence.sum(axis=1), model.predict_proba(E), atol=1e-6)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict_proba(E), model.predict_proba(E))


@pytest.mark.parametrize("bad", [1, 0, True, 2.5, "16"])
def test_bad_knot_counts_are_refused(data, bad):
    E, y = data
    with pytest.raises(ValueError, match="horizon_knots"):
        HEPAEventPredictor(K=20, hidden=16, max_epochs=1, horizon_knots=bad).fit(E, y)


def test_the_linear_head_ignores_knots(data):
    E, y = data
    params = dict(K=20, max_epochs=1, head="linear", random_state=0)
    with_knots = HEPAEventPredictor(**params, horizon_knots=5).fit(E, y).predict_proba(E)
    np.testing.assert_array_equal(with_knots, HEPAEventPredictor(**params).fit(E, y).predict_proba(E))
