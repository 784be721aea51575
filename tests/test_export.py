"""Exported inference graphs (TorchScript, ONNX) give the estimators' outputs, NaN padding included."""

import importlib.util
import sys
import warnings

import numpy as np
import pytest
import torch
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.export import export_onnx, export_torchscript
from hepa_sklearn.finetune import HEPAFinetuner
from hepa_sklearn.surface import make_survival_y

RNG = np.random.default_rng(5)
# 50 steps: not a multiple of the patch size, so the encoder pads on the left itself
X = (RNG.normal(size=(24, 3, 50)) * [[1.0], [10.0], [100.0]]).astype(np.float32)
X[::3, :, :30] = np.nan  # short histories, left-padded
X[1, 0, 10:40] = np.nan  # one channel missing inside the window
X[4, :, 20:25] = np.nan  # every channel missing for a few steps
Y = make_survival_y(RNG.random(24) < 0.8, RNG.integers(1, 15, 24))
TOLERANCE = 1e-5

needs_onnx = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("onnx", "onnxscript", "onnxruntime")),
    reason="ONNX export needs onnx and onnxscript, and running it onnxruntime (the export extra)",
)


@pytest.fixture(scope="module")
def models():
    """A pretrainer with global statistics, an event model on its embeddings, a revin pipeline, a finetuner and the
    headline pipeline with the defaults (regimes, RevIN, the window level beside the embedding)."""
    tiny = dict(d_model=16, n_heads=2, n_layers=1, K=16, max_epochs=1, batch_size=16, random_state=0, device="cpu")
    event = dict(K=10, hidden=16, max_epochs=1, batch_size=16, random_state=0, device="cpu")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*no \\(cut, horizon\\) pair")
        pretrainer = HEPAPretrainer(**tiny, norm="global").fit(X)
        predictor = HEPAEventPredictor(**event).fit(pretrainer.transform(X), Y)
        pipeline = make_pipeline(HEPAPretrainer(**tiny, norm="revin"), "passthrough", HEPAEventPredictor(**event)).fit(
            X, Y
        )
        finetuner = HEPAFinetuner(pretrainer, **event).fit(X, Y)
        default = make_pipeline(HEPAPretrainer(**tiny), HEPAEventPredictor(**event)).fit(X, Y)  # window_level=True
    E = pretrainer.transform(X)
    return {
        "pretrainer": (pretrainer, X, pretrainer.transform(X)),
        "predictor": (predictor, E, predictor.predict_proba(E)),
        "pipeline": (pipeline, X, pipeline.predict_proba(X)),
        "finetuner": (finetuner, X, finetuner.predict_proba(X)),
        "default": (default, X, default.predict_proba(X)),
    }


def run_torchscript(path, inputs):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.load` is deprecated")
        graph = torch.jit.load(path)
    with torch.no_grad():
        return graph(torch.from_numpy(inputs)).numpy()


@pytest.mark.parametrize("name", ["pretrainer", "predictor", "pipeline", "finetuner", "default"])
def test_torchscript_matches_the_estimator_at_any_batch_size(models, tmp_path, name):
    estimator, inputs, expected = models[name]
    path = tmp_path / "graph.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        export_torchscript(estimator, path, inputs[:1])
    output = run_torchscript(path, inputs)
    assert output.shape == expected.shape and output.dtype == np.float32
    assert np.abs(output - expected).max() < TOLERANCE
    assert np.abs(run_torchscript(path, inputs[3:4]) - expected[3:4]).max() < TOLERANCE


def test_nan_padding_changes_the_exported_output(models, tmp_path):
    # the graph really reads the padding: the same values without it embed differently
    pretrainer, inputs, expected = models["pretrainer"]
    export_torchscript(pretrainer, tmp_path / "graph.pt", inputs[:2])
    unpadded = np.nan_to_num(inputs[:1], nan=0.0)
    assert np.abs(run_torchscript(tmp_path / "graph.pt", unpadded) - expected[:1]).max() > 1e-2


@needs_onnx
@pytest.mark.parametrize(
    ("name", "input_name", "output_name"),
    [
        ("pretrainer", "windows", "embeddings"),
        ("predictor", "embeddings", "surface"),
        ("pipeline", "windows", "surface"),
        ("default", "windows", "surface"),
    ],
)
def test_onnx_matches_the_estimator_with_a_dynamic_batch(models, tmp_path, name, input_name, output_name):
    import onnxruntime

    estimator, inputs, expected = models[name]
    path = tmp_path / "graph.onnx"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        export_onnx(estimator, path, inputs[:2])
    assert [p.name for p in tmp_path.iterdir()] == ["graph.onnx"]  # the weights are inside
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (graph_input,), (graph_output,) = session.get_inputs(), session.get_outputs()
    assert (graph_input.name, graph_output.name) == (input_name, output_name)
    assert graph_input.shape == ["batch", *inputs.shape[1:]]
    for rows in (slice(None), slice(3, 4)):
        (output,) = session.run(None, {input_name: inputs[rows]})
        assert output.shape == expected[rows].shape
        assert np.abs(output - expected[rows]).max() < TOLERANCE


def test_export_refuses_what_it_cannot_export(models, tmp_path):
    pretrainer, inputs, _ = models["pretrainer"]
    predictor = models["predictor"][0]
    path = tmp_path / "graph.pt"
    scaled = Pipeline([("pre", pretrainer), ("scale", StandardScaler()), ("event", predictor)])
    with pytest.raises(TypeError, match=r"Pipeline step 'scale' is a StandardScaler\.$"):
        export_torchscript(scaled, path, inputs)
    with pytest.raises(TypeError, match=r"HEPAFinetuner and a Pipeline of .*; a GradientBoostingEventPredictor\.$"):
        export_torchscript(GradientBoostingEventPredictor(), path, inputs)
    with pytest.raises(TypeError, match=r"this one runs \['HEPAEventPredictor', 'HEPAPretrainer'\]\.$"):
        export_torchscript(Pipeline([("event", predictor), ("pre", pretrainer)]), path, inputs)
    with pytest.raises(NotFittedError):
        export_torchscript(HEPAPretrainer(), path, inputs)
    with pytest.raises(ValueError, match="X has 2 channels, but HEPAPretrainer was fitted with 3 channels"):
        export_torchscript(pretrainer, path, inputs[:, :2])
    with pytest.raises(ValueError, match="window\\(s\\) with no observed value"):
        export_torchscript(pretrainer, path, np.full_like(inputs[:2], np.nan))
    assert not path.exists()


def test_onnx_export_without_onnxscript_names_the_extra(models, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxscript", None)
    with pytest.raises(
        ImportError, match=r"needs the optional dependencies onnx and onnxscript .*hepa-sklearn\[export\]"
    ):
        export_onnx(models["pretrainer"][0], tmp_path / "graph.onnx", X[:2])


def test_export_refuses_a_model_of_several_causes(tmp_path):
    rng = np.random.default_rng(0)
    E = rng.normal(size=(40, 8)).astype(np.float32)
    event = rng.random(40) < 0.8
    y = make_survival_y(event, rng.integers(1, 8, 40), cause=np.where(event, rng.integers(1, 3, 40), 0))
    predictor = HEPAEventPredictor(K=8, hidden=8, max_epochs=1, random_state=0).fit(E, y)
    assert predictor.n_causes_ == 2
    path = tmp_path / "graph.pt"
    with pytest.raises(ValueError, match="export supports single-cause models; this HEPAEventPredictor learned 2"):
        export_torchscript(predictor, path, E)
    assert not path.exists()
