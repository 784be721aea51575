"""The candidate designs for release 0.4.0's headline line (hepa_bench.methods.designs)."""

import numpy as np
from hepa_bench.methods.designs import DESIGN_METHODS, boosted_head, encoder_ensemble, headline
from hepa_bench.methods.table import METHODS

from hepa_sklearn.baselines import multiscale_features


def _cell(small_registry, data_home, fraction=1.0):
    entry = small_registry["VIX"]
    data = entry.load(0, data_home=data_home)
    return entry, data, data.train_mask(fraction)[0]


def test_the_designs_start_from_the_headline_line_of_the_harness():
    pipe, reference = headline(150, seed=3), METHODS["hepa-default-auto0-knots12"].surface
    assert pipe[-1].horizon_knots == reference.keywords["predictor"]["horizon_knots"] == 12
    for name in ("norm", "regimes", "window_level", "max_epochs"):
        assert pipe[0].get_params()[name] == reference.keywords[name]


def test_every_design_is_a_candidate_of_the_method_table():
    assert set(DESIGN_METHODS) == {"hepa-gbhead", "hepa-gbhead-regime", "hepa-ensemble5", "hepa-stacked"}
    assert all(METHODS[name] is method and method.family == "candidate" for name, method in DESIGN_METHODS.items())
    assert METHODS["hepa-gbhead-regime"].regime and not METHODS["hepa-gbhead"].regime


def test_the_boosted_head_reads_the_embedding_beside_the_window_features(data_home, small_registry):
    entry, data, mask = _cell(small_registry, data_home)
    X = data.X_train[mask]
    model, info = boosted_head(entry, data, mask, epochs=1, device="cpu", seed=0)
    headline_pretrainer = headline(entry.K, seed=0)[0].fit(X)
    multiscale = multiscale_features(X[:5])
    features = model.features(X[:5])
    assert info["n_features"] == model.regressor_.n_features_in_ == features.shape[1]
    assert features.shape[1] == multiscale.shape[1] + headline_pretrainer.transform(X[:1]).shape[1]
    np.testing.assert_array_equal(features[:, : multiscale.shape[1]], multiscale)
    np.testing.assert_array_equal(features[:, multiscale.shape[1] :], headline_pretrainer.transform(X[:5]))
    surface = model.predict_proba(data.X_valid)
    assert surface.shape == (len(data.X_valid), entry.K)
    assert np.all(np.diff(surface, axis=1) >= 0)  # the boosting's surface contract: monotone in the horizon
    assert info["gbm_features"] == "multiscale and the embedding"  # a record holds text, not the function


def test_the_ensemble_differs_in_its_encoders_and_keeps_one_window_level(data_home, small_registry):
    entry, data, mask = _cell(small_registry, data_home)
    channels = data.X_train.shape[1]
    model, info = encoder_ensemble(entry, data, mask, epochs=1, device="cpu", seed=0, n_encoders=3)
    d_model = model.encoders[0].d_model
    assert info["n_features"] == (d_model + 2 * channels) + 2 * d_model
    E = model.embed(data.X_valid)
    first, second = E[:, :d_model], E[:, d_model + 2 * channels : 2 * d_model + 2 * channels]
    assert not np.allclose(first, second)  # other initial weights, another embedding
    assert model.predict_proba(data.X_valid).shape == (len(data.X_valid), entry.K)
