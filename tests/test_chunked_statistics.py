"""Statistics computed a block of windows at a time equal those computed at once."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.preprocessing import RegimeNormalizer, window_level


@settings(max_examples=30, deadline=None)
@given(n=st.integers(0, 40), chunk=st.integers(1, 17), seed=st.integers(0, 1000), slope=st.booleans())
def test_window_level_by_chunks_equals_all_at_once(n, chunk, seed, slope):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3, 40))
    X[rng.random(X.shape) < 0.3] = np.nan
    if n:
        X[0, 1] = np.nan  # a channel never observed in one window
    whole = window_level(X, slope=slope, chunk=max(n, 1))
    assert whole.shape == (n, 3 * 2 * (3 if slope else 2))
    np.testing.assert_array_equal(window_level(X, slope=slope, chunk=chunk), whole)


def test_one_regime_is_every_step_with_the_settings_mean_as_centre():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 2, 30)) + np.array([5.0, -1.0])[None, :, None]
    regimes = RegimeNormalizer(None, n_regimes=1, random_state=0).fit(X)
    steps = X.transpose(0, 2, 1).reshape(-1, 2)
    np.testing.assert_allclose(regimes.regime_centers_[0], steps.mean(axis=0))
    np.testing.assert_allclose(regimes.regime_mean_[0], steps.mean(axis=0))
    np.testing.assert_allclose(
        regimes.transform(X),
        (X - steps.mean(axis=0)[None, :, None]) / steps.std(axis=0)[None, :, None],
        rtol=1e-5,
        atol=1e-5,
    )
