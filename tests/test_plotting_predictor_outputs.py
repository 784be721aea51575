"""PredictorOutputsDisplay: the finetuned predictor's outputs at a few horizons beside the embeddings (the paper's
predictor figure)."""

import sys

import numpy as np
import pytest
import torch
from numpy.testing import assert_allclose
from sklearn.decomposition import PCA
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.plotting import PredictorOutputsDisplay
from hepa_sklearn.plotting._predictor_outputs import predictor_outputs, relative_shift
from hepa_sklearn.surface import make_survival_y


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(30, 6)).astype(np.float32)
    y = make_survival_y(np.ones(30, bool), rng.integers(1, 12, 30))
    return HEPAEventPredictor(K=12, hidden=16, max_epochs=1, random_state=0).fit(E, y), E, y


def test_outputs_are_the_predictors_at_each_horizon(fitted):
    model, E, _ = fitted
    outputs = predictor_outputs(model, E, [1, 6, 12])
    predictor = model.net_.module_.predictor
    with torch.no_grad():
        for k, output in zip([1, 6, 12], outputs, strict=True):
            expected = predictor(torch.from_numpy(E), torch.full((30,), float(k))).numpy()
            assert_allclose(output, expected, rtol=1e-5, atol=1e-6)
    assert outputs.shape == (3, 30, 6)


def test_relative_shift_on_a_hand_computed_case():
    E = np.array([[0.0, 0.0], [2.0, 0.0]])  # mean (1, 0): both lie at distance 1, so the spread is 1
    outputs = np.array(
        [
            [[0.0, 0.0], [2.0, 0.0]],  # the embeddings themselves: shift 0
            [[0.0, 3.0], [2.0, 1.0]],
        ]
    )  # distances 3 and 1: shift 2
    assert_allclose(relative_shift(E, outputs), [0.0, 2.0])
    assert np.isnan(relative_shift(np.ones((3, 2)), np.ones((1, 3, 2)))).all()  # no spread


def test_display_maps_embeddings_and_outputs_together_by_pca(fitted, plt):
    model, E, _ = fitted
    display = PredictorOutputsDisplay.from_estimator(model, E, horizons=[2, 12], name="toy")
    outputs = predictor_outputs(model, E, [2, 12])
    expected = PCA(n_components=2).fit_transform(np.concatenate([E, *outputs]).astype(np.float64))
    got = np.concatenate([display.embedding_points, *display.output_points])
    assert_allclose(np.abs(got), np.abs(expected), rtol=1e-4, atol=1e-4)
    assert_allclose(display.relative_shift, relative_shift(E, outputs))
    assert len(display.output_scatters_) == 2 and len(display.embedding_scatter_.get_offsets()) == 30
    assert "Δt = 12" in display.output_scatters_[1].get_label() and display.ax_.get_title() == "toy"
    assert display.ax_.get_xlabel() == "PC1"


def test_tsne_map_is_reproducible_with_a_seed(fitted, plt):
    model, E, _ = fitted
    first = PredictorOutputsDisplay.from_estimator(model, E, horizons=[5], method="tsne", random_state=0)
    second = PredictorOutputsDisplay.from_estimator(model, E, horizons=[5], method="tsne", random_state=0)
    assert_allclose(first.output_points, second.output_points)
    assert first.embedding_points.shape == (30, 2) and first.ax_.get_xlabel() == "t-SNE 1"


def test_a_pipeline_embeds_the_windows_first(plt):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(24, 2, 32)).astype(np.float32)
    y = make_survival_y(np.ones(24, bool), rng.integers(1, 8, 24))
    pipe = make_pipeline(
        HEPAPretrainer(d_model=16, n_heads=2, max_epochs=0, K=8, random_state=0),
        HEPAEventPredictor(K=8, hidden=16, max_epochs=1, random_state=0),
    ).fit(X, y)
    display = PredictorOutputsDisplay.from_estimator(pipe, X, horizons=[1, 8])
    reference = PredictorOutputsDisplay.from_estimator(pipe[-1], pipe[:-1].transform(X), horizons=[1, 8])
    assert_allclose(display.relative_shift, reference.relative_shift)


def test_bad_estimators_and_arguments_are_refused(fitted):
    model, E, y = fitted
    linear = HEPAEventPredictor(K=12, head="linear", max_epochs=1, random_state=0).fit(E, y)
    with pytest.raises(ValueError, match="head='mlp'"):
        PredictorOutputsDisplay.from_estimator(linear, E)
    with pytest.raises(TypeError, match="HEPAEventPredictor"):
        PredictorOutputsDisplay.from_estimator(HEPAPretrainer(), E)
    with pytest.raises(ValueError, match="1..K = 1..12"):
        PredictorOutputsDisplay.from_estimator(model, E, horizons=[13])
    with pytest.raises(ValueError, match="method must be one of"):
        PredictorOutputsDisplay.from_estimator(model, E, horizons=[1], method="umap")
    with pytest.raises(ValueError, match="at least 3 windows"):
        PredictorOutputsDisplay.from_estimator(model, E[:2], horizons=[1])
    with pytest.raises(ValueError, match="features"):
        PredictorOutputsDisplay.from_estimator(model, E[:, :4], horizons=[1])


def test_drawing_without_matplotlib_names_the_extra(fitted, monkeypatch):
    for name in [name for name in sys.modules if name.split(".")[0] == "matplotlib"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    model, E, _ = fitted
    with pytest.raises(ImportError, match=r"pip install 'hepa-sklearn\[plot\]'"):
        PredictorOutputsDisplay.from_estimator(model, E, horizons=[1])


def test_from_outputs_draws_what_from_estimator_draws(fitted, plt):
    model, E, _ = fitted
    outputs = predictor_outputs(model, E, [3, 9])
    display = PredictorOutputsDisplay.from_outputs(E, outputs, [3, 9])
    reference = PredictorOutputsDisplay.from_estimator(model, E, horizons=[3, 9])
    assert_allclose(display.output_points, reference.output_points)
    assert_allclose(display.relative_shift, reference.relative_shift)
    with pytest.raises(ValueError, match="outputs must have shape"):
        PredictorOutputsDisplay.from_outputs(E, outputs[:1], [3, 9])
