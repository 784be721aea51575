"""Saving and loading: weights-only files, identical outputs after a round trip, untrusted files refused."""

import copy
import pickle

import joblib
import numpy as np
import pytest
import torch
from sklearn.exceptions import NotFittedError

from hepa_sklearn import GradientBoostingEventPredictor, HEPAEventPredictor, HEPAPretrainer, make_survival_y
from hepa_sklearn.finetune import HEPAFinetuner
from hepa_sklearn.persistence import FORMAT_VERSION, load, save
from tests.conftest import TINY_EVENT_PREDICTOR, TINY_PRETRAINER

RNG = np.random.default_rng(3)
# channels on very different scales, so the global statistics matter
X = (RNG.normal(size=(40, 3, 48)) * [[1.0], [10.0], [100.0]] + [[0.0], [5.0], [-50.0]]).astype(np.float32)
X[::4, :, :12] = np.nan
Y = make_survival_y(RNG.random(40) < 0.8, RNG.integers(1, 15, 40))


@pytest.fixture(scope="module")
def pretrainer():
    return HEPAPretrainer(**{**TINY_PRETRAINER, "norm": "global", "device": "cpu"}).fit(X)


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
    pre = HEPAPretrainer(**{**TINY_PRETRAINER, "target": "ema", "early_stopping": False}).fit(X)
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
    params = {**TINY_EVENT_PREDICTOR, "hidden": TINY_PRETRAINER["predictor_hidden"], "init_from": pretrainer}
    model = HEPAEventPredictor(**params).fit(E, Y)
    assert model.net_.module_.predictor.horizon_scale == TINY_PRETRAINER["max_horizon"] != model.K
    save(model, tmp_path / "event.pt")
    loaded = load(tmp_path / "event.pt")
    assert loaded.init_from is None
    assert loaded.net_.module_.predictor.horizon_scale == TINY_PRETRAINER["max_horizon"]
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


def rewrite_as_if_from_a_gpu(path, monkeypatch):
    """Record device "cuda" and tag every tensor's storage "cuda:0", as a file saved on a GPU is."""
    content = torch.load(path, weights_only=True)
    content["params"]["device"] = "cuda"
    content["network"]["device"] = "cuda:0"
    with monkeypatch.context() as patch:
        patch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")
        torch.save(content, path)


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
    torch.save({**content, "format_version": FORMAT_VERSION + 1}, tmp_path / "future.pt")
    with pytest.raises(ValueError, match="format version"):
        load(tmp_path / "future.pt")


def test_save_refuses_what_it_cannot_store(pretrainer, tmp_path):
    with pytest.raises(
        TypeError,
        match="save supports the torch-backed estimators of hepa_sklearn, got GradientBoostingEventPredictor",
    ):
        save(GradientBoostingEventPredictor(), tmp_path / "x.pt")
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
        finetuner.n_epochs_, finetuner.pos_weight_, finetuner.n_timepoints_in_)
    assert_same_history(loaded, finetuner)


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a GPU")
def test_finetuner_file_from_a_gpu_loads_on_the_cpu(finetuner, tmp_path, monkeypatch):
    path = tmp_path / "finetuner.pt"
    save(finetuner, path)
    content = torch.load(path, weights_only=True)
    content["nested"]["pretrainer"]["params"]["device"] = "cuda"
    torch.save(content, path)
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
    cases = [(pretrainer, lambda m: m.transform(X)), (event, lambda m: m.predict_proba(E)),
             (finetuner, lambda m: m.predict_proba(X))]
    for estimator, output in cases:
        blob = pickled_as_if_on_a_gpu(estimator, monkeypatch)
        with pytest.warns(UserWarning, match="no CUDA devices are available"):
            restored = pickle.loads(blob)
        assert all(p.device.type == "cpu" for p in restored.net_.module_.parameters())
        np.testing.assert_array_equal(output(restored), output(estimator))
