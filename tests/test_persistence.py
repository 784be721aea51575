"""Saving and loading: weights-only files, Pipelines with skops parts, version stamps, untrusted content refused."""

import copy
import importlib.metadata
import importlib.util
import pickle
import re
import sys
import warnings

import joblib
import numpy as np
import pytest
import sklearn
import skorch
import torch
from sklearn.exceptions import NotFittedError
from sklearn.frozen import FrozenEstimator
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

import hepa_sklearn
from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAPretrainer, RegimeNormalizer
from hepa_sklearn._persistence_format import FORMAT_VERSION, content_digest
from hepa_sklearn._torch_estimator import TorchEstimator
from hepa_sklearn.finetune import HEPAFinetuner
from hepa_sklearn.persistence import VersionMismatchWarning, get_untrusted_types, load, save, saved_versions
from hepa_sklearn.surface import make_survival_y
from tests.conftest import TINY_EVENT_PREDICTOR, TINY_PRETRAINER

needs_skops = pytest.mark.skipif(
    importlib.util.find_spec("skops") is None, reason="the skops parts of saved files need skops (the persist extra)"
)

RNG = np.random.default_rng(3)
# channels on very different scales, so the global statistics matter
X = (RNG.normal(size=(40, 3, 48)) * [[1.0], [10.0], [100.0]] + [[0.0], [5.0], [-50.0]]).astype(np.float32)
X[::4, :, :12] = np.nan
Y = make_survival_y(RNG.random(40) < 0.8, RNG.integers(1, 15, 40))


@pytest.fixture(scope="module")
def pretrainer():
    return HEPAPretrainer(
        **{**TINY_PRETRAINER, "norm": "global", "regimes": None, "window_level": False, "device": "cpu"}
    ).fit(X)


@pytest.fixture(scope="module")
def event_predictor(pretrainer):
    return HEPAEventPredictor(**TINY_EVENT_PREDICTOR).fit(pretrainer.transform(X), Y)


def assert_same_history(loaded, saved):
    assert len(loaded.history_) == len(saved.history_)
    for key in ("train_loss", "valid_loss", "epoch"):
        assert loaded.history_[:, key] == saved.history_[:, key]


def test_pretrainer_round_trip_gives_identical_embeddings(pretrainer, tmp_path):
    assert not np.all(pretrainer.channel_scale_ == 1)
    save(pretrainer, tmp_path / "pre.pt")
    loaded = load(tmp_path / "pre.pt")
    assert type(loaded) is HEPAPretrainer and loaded is not pretrainer
    np.testing.assert_array_equal(loaded.transform(X), pretrainer.transform(X))
    assert loaded.get_params() == pretrainer.get_params()
    for key in ("n_epochs_", "n_features_in_", "n_timepoints_in_"):
        assert getattr(loaded, key) == getattr(pretrainer, key)
    for key in ("channel_loc_", "channel_scale_"):
        np.testing.assert_array_equal(getattr(loaded, key), getattr(pretrainer, key))
        assert getattr(loaded, key).dtype == np.float32
    assert_same_history(loaded, pretrainer)


def test_ema_target_pretrainer_round_trip(tmp_path):
    pre = HEPAPretrainer(**{**TINY_PRETRAINER, "target_weights": "ema", "early_stopping": False}).fit(X)
    save(pre, tmp_path / "pre.pt")
    loaded = load(tmp_path / "pre.pt")
    np.testing.assert_array_equal(loaded.transform(X), pre.transform(X))
    target = loaded.net_.module_.target_encoder.state_dict()
    for name, tensor in pre.net_.module_.target_encoder.state_dict().items():
        assert torch.equal(target[name], tensor)


@pytest.mark.parametrize("head", ["mlp", "linear"])
def test_event_predictor_round_trip_gives_identical_surfaces(pretrainer, tmp_path, head):
    E = pretrainer.transform(X)
    model = HEPAEventPredictor(**{**TINY_EVENT_PREDICTOR, "head": head, "pos_weight": 2.5}).fit(E, Y)
    save(model, tmp_path / "event.pt")
    loaded = load(tmp_path / "event.pt")
    np.testing.assert_array_equal(loaded.predict_proba(E), model.predict_proba(E))
    assert loaded.score(E, Y) == model.score(E, Y)
    assert loaded.pos_weight_ == 2.5 and loaded.net_.criterion_.pos_weight == 2.5
    np.testing.assert_array_equal(loaded.horizons_, model.horizons_)
    assert_same_history(loaded, model)


def test_event_predictor_from_init_from_keeps_its_horizon_scale(pretrainer, tmp_path):
    E = pretrainer.transform(X)
    params = {**TINY_EVENT_PREDICTOR, "hidden": TINY_PRETRAINER["d_model"], "init_from": pretrainer}
    model = HEPAEventPredictor(**params).fit(E, Y)
    assert model.net_.module_.predictor.horizon_scale == TINY_PRETRAINER["K"] != model.K
    save(model, tmp_path / "event.pt")
    loaded = load(tmp_path / "event.pt")
    assert loaded.init_from is None
    assert loaded.net_.module_.predictor.horizon_scale == TINY_PRETRAINER["K"]
    np.testing.assert_array_equal(loaded.predict_proba(E), model.predict_proba(E))


def test_loaded_estimator_refits_like_a_fresh_one(pretrainer, tmp_path):
    save(pretrainer, tmp_path / "pre.pt")
    refitted = load(tmp_path / "pre.pt").fit(X[:, :, 8:])
    fresh = HEPAPretrainer(**pretrainer.get_params()).fit(X[:, :, 8:])
    np.testing.assert_array_equal(refitted.transform(X), fresh.transform(X))


def test_load_leaves_torch_global_rng_alone(event_predictor, tmp_path):
    save(event_predictor, tmp_path / "event.pt")
    torch.manual_seed(7)
    before = torch.get_rng_state()
    load(tmp_path / "event.pt")
    assert torch.equal(torch.get_rng_state(), before)


def resave(content, path):
    """Write ``content``, edited by a test, with the digest of what it now holds."""
    torch.save({**content, "digest": content_digest(content)}, path)


def rewrite_as_if_from_a_gpu(path, monkeypatch):
    """Record device "cuda" and tag every tensor's storage "cuda:0", as a file saved on a GPU is."""
    content = torch.load(path, weights_only=True)
    content["params"]["device"] = "cuda"
    content["network"]["device"] = "cuda:0"
    with monkeypatch.context() as patch:
        patch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")
        resave(content, path)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
def test_file_from_a_gpu_loads_on_the_cpu(pretrainer, tmp_path, monkeypatch):
    path = tmp_path / "pre.pt"
    save(pretrainer, path)
    rewrite_as_if_from_a_gpu(path, monkeypatch)
    with pytest.raises(RuntimeError, match="CUDA"):  # the file really asks for a GPU
        torch.load(path, weights_only=True)
    loaded = load(path)
    assert loaded.device == "cpu"
    assert all(p.device.type == "cpu" for p in loaded.net_.module_.parameters())
    assert loaded.net_.autocast_dtype is None  # precision="auto" means fp32 on the CPU
    np.testing.assert_array_equal(loaded.transform(X), pretrainer.transform(X))
    assert load(path, device="auto").device == "auto"


class Payload:
    """Pickles as a call to ``leave_mark``: unpickling it runs code."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return leave_mark, (self.marker,)


def leave_mark(marker):
    with open(marker, "w") as file:
        file.write("code from the file ran")
    return marker


def test_file_with_arbitrary_objects_is_refused_without_running_them(tmp_path):
    marker, path = tmp_path / "marker", tmp_path / "payload.pt"
    torch.save({"format": "hepa_sklearn.persistence", "x": Payload(marker)}, path)
    assert not marker.exists()
    with pytest.raises(ValueError, match="weights_only=True"):
        load(path)
    assert not marker.exists()
    torch.load(path, weights_only=False)  # what an unrestricted load would have done
    assert marker.exists()


def test_other_files_are_refused(tmp_path, pretrainer):
    torch.save(pretrainer.net_.module_.state_dict(), tmp_path / "weights.pt")
    with pytest.raises(ValueError, match="not written by hepa_sklearn"):
        load(tmp_path / "weights.pt")
    save(pretrainer, tmp_path / "pre.pt")
    content = torch.load(tmp_path / "pre.pt", weights_only=True)
    for version in (FORMAT_VERSION - 1, FORMAT_VERSION + 1):
        torch.save({**content, "format_version": version}, tmp_path / "other.pt")
        with pytest.raises(ValueError, match=f"format version {version}.*not a file it writes"):
            load(tmp_path / "other.pt")
        with pytest.raises(ValueError, match="not a file it writes"):
            saved_versions(tmp_path / "other.pt")


def test_save_refuses_what_it_cannot_store(pretrainer, tmp_path):
    with pytest.raises(TypeError, match="save supports scikit-learn estimators and Pipelines, got dict"):
        save({"model": pretrainer}, tmp_path / "x.pt")
    with pytest.raises(NotFittedError):
        save(HEPAPretrainer(), tmp_path / "x.pt")
    with pytest.raises(NotFittedError):
        save(HEPAFinetuner(pretrainer), tmp_path / "x.pt")
    seeded = HEPAEventPredictor(**{**TINY_EVENT_PREDICTOR, "random_state": np.random.RandomState(0)})
    seeded.fit(pretrainer.transform(X), Y)
    with pytest.raises(TypeError, match="parameter random_state: a RandomState is not a plain value"):
        save(seeded, tmp_path / "x.pt")
    assert not (tmp_path / "x.pt").exists()


@pytest.fixture(scope="module")
def finetuner(pretrainer):
    return HEPAFinetuner(pretrainer, K=10, hidden=16, max_epochs=1, batch_size=16, random_state=0).fit(X, Y)


def test_finetuner_round_trip_stores_its_pretrainer(finetuner, pretrainer, tmp_path):
    save(finetuner, tmp_path / "finetuner.pt")
    loaded = load(tmp_path / "finetuner.pt")
    assert isinstance(loaded, HEPAFinetuner) and isinstance(loaded.pretrainer, HEPAPretrainer)
    np.testing.assert_array_equal(loaded.predict_proba(X), finetuner.predict_proba(X))
    # the stored pretrainer is the one it started from, not the finetuned encoder
    np.testing.assert_array_equal(loaded.pretrainer.transform(X), pretrainer.transform(X))
    assert loaded.get_params(deep=False).keys() == finetuner.get_params(deep=False).keys()
    assert (loaded.n_epochs_, loaded.pos_weight_, loaded.n_timepoints_in_) == (
        finetuner.n_epochs_,
        finetuner.pos_weight_,
        finetuner.n_timepoints_in_,
    )
    assert_same_history(loaded, finetuner)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
def test_finetuner_file_from_a_gpu_loads_on_the_cpu(finetuner, tmp_path, monkeypatch):
    path = tmp_path / "finetuner.pt"
    save(finetuner, path)
    content = torch.load(path, weights_only=True)
    content["nested"]["pretrainer"]["params"]["device"] = "cuda"
    resave(content, path)
    rewrite_as_if_from_a_gpu(path, monkeypatch)
    loaded = load(path)
    assert loaded.device == loaded.pretrainer.device == "cpu"
    np.testing.assert_array_equal(loaded.predict_proba(X), finetuner.predict_proba(X))


def test_finetuner_joblib_round_trip(pretrainer, tmp_path):
    model = HEPAFinetuner(pretrainer, K=10, hidden=16, max_epochs=1, batch_size=16, random_state=0).fit(X, Y)
    joblib.dump(model, tmp_path / "finetuner.joblib")
    np.testing.assert_array_equal(joblib.load(tmp_path / "finetuner.joblib").predict_proba(X), model.predict_proba(X))


def test_baseline_joblib_round_trip(tmp_path):
    model = GradientBoostingEventPredictor(K=10, n_last=20, max_iter=10, min_samples_leaf=5, random_state=0)
    model.fit(X, Y)
    joblib.dump(model, tmp_path / "baseline.joblib")
    restored = joblib.load(tmp_path / "baseline.joblib")
    np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert restored.sigma_ == model.sigma_
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(model)).predict(X), model.predict(X))


def pickled_as_if_on_a_gpu(estimator, monkeypatch):
    """``pickle.dumps`` of ``estimator`` with device "cuda" and every tensor storage tagged "cuda:0"."""
    estimator = copy.deepcopy(estimator)
    estimator.set_params(device="cuda")
    estimator.net_.device = "cuda"
    with monkeypatch.context() as patch:
        patch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")
        return pickle.dumps(estimator)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
@pytest.mark.parametrize("early_stopping", [False, True])
def test_pickle_from_a_gpu_unpickles_on_the_cpu(pretrainer, finetuner, monkeypatch, early_stopping):
    # the LR scheduler's reference to the optimizer used to be pickled with its
    # CUDA state, outside skorch's device mapping, and failed on the CPU
    E = pretrainer.transform(X)
    event = HEPAEventPredictor(**{**TINY_EVENT_PREDICTOR, "early_stopping": early_stopping}).fit(E, Y)
    cases = [
        (pretrainer, lambda m: m.transform(X)),
        (event, lambda m: m.predict_proba(E)),
        (finetuner, lambda m: m.predict_proba(X)),
    ]
    for estimator, output in cases:
        blob = pickled_as_if_on_a_gpu(estimator, monkeypatch)
        with pytest.warns(UserWarning, match="no CUDA devices are available"):
            restored = pickle.loads(blob)
        assert all(p.device.type == "cpu" for p in restored.net_.module_.parameters())
        np.testing.assert_array_equal(output(restored), output(estimator))


# -- Pipelines and estimators without a network (skops parts) -----------------------------------

REGIME_NORMALIZER = "hepa_sklearn.preprocessing.RegimeNormalizer"


@pytest.fixture(scope="module")
def pipeline():
    """Nested pipeline: regime normaliser and pretrainer, a scaler, a passthrough step, the event model."""
    front = make_pipeline(RegimeNormalizer([0], n_regimes=2), HEPAPretrainer(**{**TINY_PRETRAINER, "device": "cpu"}))
    return make_pipeline(front, StandardScaler(), "passthrough", HEPAEventPredictor(**TINY_EVENT_PREDICTOR)).fit(X, Y)


@needs_skops
def test_pipeline_round_trip_gives_identical_surfaces(pipeline, tmp_path):
    path = tmp_path / "pipeline.pt"
    save(pipeline, path)
    assert get_untrusted_types(path) == [REGIME_NORMALIZER]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = load(path, trusted=[REGIME_NORMALIZER])
    assert type(loaded) is Pipeline and loaded is not pipeline
    assert [name for name, _ in loaded.steps] == [name for name, _ in pipeline.steps]
    assert loaded.steps[2][1] == "passthrough"
    assert [type(step) for _, step in loaded[0].steps] == [RegimeNormalizer, HEPAPretrainer]
    np.testing.assert_allclose(loaded.predict_proba(X), pipeline.predict_proba(X), rtol=0, atol=1e-6)
    np.testing.assert_array_equal(loaded[1].mean_, pipeline[1].mean_)
    np.testing.assert_array_equal(loaded[0][0].transform(X), pipeline[0][0].transform(X))
    assert loaded.score(X, Y) == pipeline.score(X, Y)


def shift_embeddings(E):
    return E + 1.0


@needs_skops
def test_untrusted_types_are_refused_before_anything_is_built(pretrainer, pipeline, tmp_path, monkeypatch):
    E = pretrainer.transform(X)
    tail = FunctionTransformer(shift_embeddings).fit(E)
    path = tmp_path / "pipeline.pt"
    save(Pipeline([("pre", pretrainer), ("scale", StandardScaler().fit(E)), ("tail", tail)]), path)
    function = f"{shift_embeddings.__module__}.shift_embeddings"
    assert get_untrusted_types(path) == [function]
    built = []
    monkeypatch.setattr(TorchEstimator, "_set_persistent_state", lambda *args: built.append(args))
    message = (
        r"holds types that are not trusted, so nothing was loaded; Pipeline step 'tail' "
        r"\(sklearn\.preprocessing\._function_transformer\.FunctionTransformer\): "
        rf"\['{re.escape(function)}'\]\. If you trust their code, pass them as load\(path, trusted=\[\.\.\.\]\)"
    )
    with pytest.raises(TypeError, match=message):
        load(path)
    with pytest.raises(TypeError, match=message):
        load(path, trusted=["sklearn.preprocessing._data.StandardScaler"])
    assert built == []
    save(pipeline, path)
    with pytest.raises(
        TypeError, match=r"Pipeline step 'pipeline' step 'regimenormalizer' \(hepa_sklearn\.preprocessing"
    ):
        load(path)
    with pytest.raises(TypeError, match="trusted must be None or a list of type names"):
        load(path, trusted=REGIME_NORMALIZER)


@needs_skops
def test_single_estimators_without_a_network_go_through_skops(tmp_path):
    baseline = GradientBoostingEventPredictor(K=10, n_last=20, max_iter=10, min_samples_leaf=5, random_state=0)
    baseline.fit(X, Y)
    save(baseline, tmp_path / "baseline.pt")
    untrusted = get_untrusted_types(tmp_path / "baseline.pt")
    assert "hepa_sklearn.baselines._boosting.GradientBoostingEventPredictor" in untrusted
    with pytest.raises(TypeError, match=r"the estimator \(hepa_sklearn\.baselines\._boosting\."):
        load(tmp_path / "baseline.pt")
    restored = load(tmp_path / "baseline.pt", trusted=untrusted)
    np.testing.assert_allclose(restored.predict_proba(X), baseline.predict_proba(X), rtol=0, atol=1e-6)
    logs = FunctionTransformer(np.log1p).fit(np.ones((2, 2)))
    save(logs, tmp_path / "logs.pt")
    assert get_untrusted_types(tmp_path / "logs.pt") == []
    assert load(tmp_path / "logs.pt").func is np.log1p


def local_function():
    def shift(E):
        return E + 1.0

    return shift


def script_function(E):
    return E + 1.0


script_function.__module__ = "__main__"  # as if defined in a script or notebook


@needs_skops
@pytest.mark.parametrize(
    "func", [lambda E: E + 1.0, local_function(), script_function], ids=["lambda", "local", "__main__"]
)
def test_a_step_load_could_not_read_back_is_refused_before_anything_is_written(pretrainer, tmp_path, func):
    E = pretrainer.transform(X)
    path = tmp_path / "pipeline.pt"
    save(pretrainer, path)
    before = path.read_bytes()
    pipe = Pipeline([("pre", pretrainer), ("tail", FunctionTransformer(func).fit(E))])
    with pytest.raises(
        TypeError,
        match=r"cannot save Pipeline step 'tail': .*load could not.*top level of an "
        r"importable module",
    ):
        save(pipe, path)
    assert path.read_bytes() == before and list(tmp_path.iterdir()) == [path]
    with pytest.raises(TypeError, match=r"cannot save FunctionTransformer: "):
        save(FunctionTransformer(func).fit(E), tmp_path / "alone.pt")
    assert not (tmp_path / "alone.pt").exists()


def test_torch_estimator_nested_inside_another_estimator_is_refused(pretrainer, tmp_path):
    with pytest.raises(
        TypeError,
        match=r"cannot save FrozenEstimator: it holds a torch-backed estimator at FrozenEstimator\.estimator\.",
    ):
        save(FrozenEstimator(pretrainer), tmp_path / "x.pt")
    with pytest.raises(TypeError, match="cannot save Pipeline parameter memory: a Memory is not a plain value"):
        save(Pipeline([("pre", pretrainer)], memory=joblib.Memory(None)), tmp_path / "x.pt")
    assert not (tmp_path / "x.pt").exists()


@needs_skops
def test_without_skops_torch_estimators_still_save_and_others_name_the_extra(pretrainer, tmp_path, monkeypatch):
    save(StandardScaler().fit(X[:, 0]), tmp_path / "scaler.pt")
    monkeypatch.setitem(sys.modules, "skops", None)
    monkeypatch.setitem(sys.modules, "skops.io", None)
    save(pretrainer, tmp_path / "pre.pt")
    np.testing.assert_array_equal(load(tmp_path / "pre.pt").transform(X), pretrainer.transform(X))
    extra = r'needs the optional dependency skops .* pip install "hepa-sklearn\[persist\]"'
    with pytest.raises(ImportError, match=r"saving StandardScaler " + extra):
        save(StandardScaler().fit(X[:, 0]), tmp_path / "other.pt")
    with pytest.raises(ImportError, match=r"loading the estimator \(sklearn\..*StandardScaler\) of .* " + extra):
        load(tmp_path / "scaler.pt")


# -- version stamps ------------------------------------------------------------------------------


def current_versions():
    return {
        "hepa_sklearn": hepa_sklearn.__version__,
        "torch": str(torch.__version__),
        "scikit-learn": sklearn.__version__,
        "skorch": skorch.__version__,
        "numpy": np.__version__,
    }


@needs_skops
def test_files_record_the_versions_that_wrote_them(pretrainer, pipeline, tmp_path):
    save(pretrainer, tmp_path / "pre.pt")
    assert saved_versions(tmp_path / "pre.pt") == {"format_version": FORMAT_VERSION, **current_versions()}
    save(pipeline, tmp_path / "pipeline.pt")
    assert saved_versions(tmp_path / "pipeline.pt")["skops"] == importlib.metadata.version("skops")


def rewrite_versions(path, **versions):
    content = torch.load(path, weights_only=True)
    content["versions"].update(versions)
    resave(content, path)


def other_minor(version):
    major, minor = version.split(".")[:2]
    return f"{major}.{int(minor) + 1}.0"


def other_patch(version):
    major, minor = version.split(".")[:2]
    return f"{major}.{minor}.99"


@pytest.mark.parametrize("package", ["hepa_sklearn", "torch"])
def test_load_warns_when_package_or_torch_minor_version_differs(pretrainer, tmp_path, package):
    path = tmp_path / "pre.pt"
    save(pretrainer, path)
    saved = other_minor(current_versions()[package])
    rewrite_versions(path, **{package: saved})
    with pytest.warns(
        VersionMismatchWarning, match=rf"written with {package} {re.escape(saved)} and is loaded with"
    ) as record:
        loaded = load(path)
    assert len(record) == 1 and issubclass(VersionMismatchWarning, UserWarning)
    assert (record[0].message.package, record[0].message.saved_version) == (package, saved)
    assert record[0].filename == __file__
    np.testing.assert_array_equal(loaded.transform(X), pretrainer.transform(X))


def test_load_is_silent_for_other_patch_versions_and_other_libraries(pretrainer, tmp_path):
    path = tmp_path / "pre.pt"
    save(pretrainer, path)
    current = current_versions()
    rewrite_versions(
        path,
        hepa_sklearn=other_patch(current["hepa_sklearn"]),
        torch=other_patch(current["torch"]),
        **{"scikit-learn": "0.24.2", "skorch": "0.9.0", "numpy": "1.21.0"},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(load(path).transform(X), pretrainer.transform(X))
