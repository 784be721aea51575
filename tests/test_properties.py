"""Properties of fitted models on random windows: a valid surface, order and batch independence."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.surface import make_survival_y
from tests.conftest import N_CHANNELS, TINY_EVENT_PREDICTOR, TINY_PRETRAINER


# the network's normalisation alone (no regimes, no window level), and the defaults
@pytest.fixture(
    scope="module",
    params=[
        dict(norm="revin", regimes=None, window_level=False),
        dict(norm="global", regimes=None, window_level=False),
        {},
    ],
)
def model(request):
    """A tiny pretrainer and event predictor fitted on unit-scale windows of 48 steps."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, N_CHANNELS, 48)).astype(np.float32)
    y = make_survival_y(rng.random(40) < 0.8, rng.integers(1, 15, 40))
    pre = HEPAPretrainer(**{**TINY_PRETRAINER, **request.param}).fit(X)
    return pre, HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(pre.transform(X), y)


def random_windows(n, length, exponent, missing, seed):
    """``n`` windows on the scale 10**exponent, each left-padded with NaN by a random amount,
    with a ``missing`` fraction of the other values NaN too; every window keeps one observation."""
    rng = np.random.default_rng(seed)
    scale = 10.0**exponent
    level = rng.normal(size=(1, N_CHANNELS, 1))
    X = scale * (level + rng.normal(size=(n, N_CHANNELS, length)))
    X[rng.random(X.shape) < missing] = np.nan
    for i, padding in enumerate(rng.integers(0, length, n)):
        X[i, :, :padding] = np.nan
        if np.isnan(X[i]).all():
            X[i, 0, -1] = scale
    return X.astype(np.float32)


windows_strategy = st.builds(
    random_windows,
    n=st.integers(1, 20),
    length=st.integers(1, 96),
    exponent=st.floats(-3, 9),
    missing=st.sampled_from([0.0, 0.3]),
    seed=st.integers(0, 2**32 - 1),
)


# Where a window sits in a batch can change the order in which float32 sums run, so the
# same window may come out a few ulps apart; these tolerances admit that and nothing more.
def assert_embeddings_close(actual, desired):
    np.testing.assert_allclose(actual, desired, rtol=1e-5, atol=1e-5 * np.abs(desired).max())


def assert_probabilities_close(actual, desired):
    np.testing.assert_allclose(actual, desired, rtol=0, atol=1e-6)


@settings(max_examples=15, deadline=None)
@given(X=windows_strategy)
def test_surface_is_a_finite_monotone_probability(model, X):
    pre, event = model
    E = pre.transform(X)
    P = event.predict_proba(E)
    # the window level adds each channel's mean over the window and over its last 30 steps
    width = TINY_PRETRAINER["d_model"] + (2 * N_CHANNELS if pre.window_level else 0)
    assert E.shape == (X.shape[0], width) and np.isfinite(E).all()
    assert P.shape == (X.shape[0], TINY_EVENT_PREDICTOR["K"]) and np.isfinite(P).all()
    assert ((P >= 0) & (P <= 1)).all()
    assert (np.diff(P, axis=1) >= 0).all()


@settings(max_examples=15, deadline=None)
@given(X=windows_strategy, seed=st.integers(0, 2**32 - 1))
@example(X=random_windows(5, 12, -0.5, 0.3, 1784849), seed=5562)
def test_permuting_windows_permutes_outputs(model, X, seed):
    # a window's output follows it to its new row; the matrix-multiply kernels may treat the
    # trailing rows of a batch with another micro-kernel, so a row can move by a float32 ulp
    # (measured: 6e-8 in probability for the fifth row of five)
    pre, event = model
    order = np.random.default_rng(seed).permutation(X.shape[0])
    E = pre.transform(X)
    assert_embeddings_close(pre.transform(X[order]), E[order])
    assert_probabilities_close(event.predict_proba(E[order]), event.predict_proba(E)[order])


@settings(max_examples=15, deadline=None)
@given(X=windows_strategy, data=st.data())
def test_a_window_does_not_depend_on_the_rest_of_its_batch(model, X, data):
    # a batch of another size may sum in another order: measured differences are a
    # few float32 ulps (3.6e-7 of the largest embedding entry, 6e-8 in probability)
    pre, event = model
    i = data.draw(st.integers(0, X.shape[0] - 1))
    E = pre.transform(X)
    alone = pre.transform(X[i : i + 1])
    assert_embeddings_close(alone[0], E[i])
    assert_probabilities_close(event.predict_proba(alone)[0], event.predict_proba(E)[i])
