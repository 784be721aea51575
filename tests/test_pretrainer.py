"""Tests for HEPAPretrainer: shapes, normalisation, reproducibility, persistence and input checks."""

import inspect
import pickle
import warnings

import joblib
import numpy as np
import pytest
import scipy.sparse
import torch
from sklearn.exceptions import NotFittedError
from skorch.callbacks import Callback

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.baselines import MAEPretrainer
from hepa_sklearn.nn import JEPA, EncoderConfig, EventModel, pool_in_groups
from hepa_sklearn.persistence import load, save


def n_parameters(module):
    return sum(p.numel() for p in module.parameters())


@pytest.fixture
def fitted(windows, tiny_pretrainer_params):
    return HEPAPretrainer(**tiny_pretrainer_params).fit(windows)


def test_fit_returns_self_and_transform_shape(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**tiny_pretrainer_params)
    assert pre.fit(windows) is pre
    E = pre.transform(windows)
    assert E.shape == (windows.shape[0], 16 + 2 * windows.shape[1])  # window_level: the level of each channel follows
    assert E.dtype == np.float32
    assert pre.n_features_in_ == windows.shape[1]
    assert pre.n_timepoints_in_ == windows.shape[2]
    assert isinstance(pre.encoder_, torch.nn.Module)
    assert isinstance(pre.predictor_, torch.nn.Module)


def test_fit_transform_matches_transform(fitted, windows, tiny_pretrainer_params):
    E = HEPAPretrainer(**tiny_pretrainer_params).fit_transform(windows)
    np.testing.assert_array_equal(E, fitted.transform(windows))


def test_nan_padded_windows_give_finite_embeddings(fitted, windows):
    assert np.isnan(windows).any()
    assert np.isfinite(fitted.transform(windows)).all()


def test_history_records_loss_terms_per_epoch(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, "max_epochs": 2}).fit(windows)
    assert len(pre.history_) == 2
    for epoch in pre.history_:
        for key in ("train_loss", "train_l1", "train_sigreg"):
            assert np.isfinite(epoch[key])


def test_two_dimensional_X_is_one_channel(windows, tiny_pretrainer_params):
    X = windows[:, 0, :]
    pre = HEPAPretrainer(**tiny_pretrainer_params).fit(X)
    assert pre.n_features_in_ == 1
    np.testing.assert_array_equal(pre.transform(X), pre.transform(X[:, None, :]))


def test_transform_accepts_another_window_length(fitted, windows):
    E = fitted.transform(windows[:, :, -32:])
    assert E.shape == (windows.shape[0], 16 + 2 * windows.shape[1])
    assert np.isfinite(E).all()


def test_transform_in_chunks_matches_one_pass(fitted, windows, monkeypatch):
    whole = fitted.transform(windows)
    monkeypatch.setattr(type(fitted), "_inference_chunk", 7)
    np.testing.assert_allclose(fitted.transform(windows), whole, rtol=1e-5, atol=1e-5)


def test_global_norm_stores_channel_statistics(windows, tiny_pretrainer_params):
    X = windows.copy()
    X[:, 2, :] = np.where(np.isnan(X[:, 2, :]), np.nan, 5.0)  # a constant channel
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, "norm": "global"}).fit(X)
    np.testing.assert_allclose(pre.channel_loc_[:2], np.nanmean(X[:, :2], axis=(0, 2)), rtol=1e-5)
    np.testing.assert_allclose(pre.channel_scale_[:2], np.nanstd(X[:, :2], axis=(0, 2)), rtol=1e-5)
    assert pre.channel_loc_[2] == pytest.approx(5.0)
    assert pre.channel_scale_[2] == 1.0
    np.testing.assert_array_equal(pre.encoder_.channel_loc.numpy(), pre.channel_loc_)
    np.testing.assert_array_equal(pre.encoder_.channel_scale.numpy(), pre.channel_scale_)
    assert np.isfinite(pre.transform(X)).all()


@pytest.mark.parametrize("norm", ["revin", "none"])
def test_other_norms_run_with_neutral_statistics(windows, tiny_pretrainer_params, norm):
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, "norm": norm}).fit(windows)
    np.testing.assert_array_equal(pre.channel_loc_, np.zeros(3, dtype=np.float32))
    np.testing.assert_array_equal(pre.channel_scale_, np.ones(3, dtype=np.float32))
    assert np.isfinite(pre.transform(windows)).all()


def test_same_random_state_is_reproducible(fitted, windows, tiny_pretrainer_params):
    again = HEPAPretrainer(**tiny_pretrainer_params).fit(windows)
    assert np.array_equal(again.transform(windows), fitted.transform(windows))


def test_different_random_state_differs(fitted, windows, tiny_pretrainer_params):
    other = HEPAPretrainer(**{**tiny_pretrainer_params, "random_state": 1}).fit(windows)
    assert not np.array_equal(other.transform(windows), fitted.transform(windows))


def test_fit_leaves_torch_global_rng_alone(windows, tiny_pretrainer_params):
    torch.manual_seed(123)
    before = torch.get_rng_state()
    HEPAPretrainer(**tiny_pretrainer_params).fit(windows).transform(windows)
    assert torch.equal(torch.get_rng_state(), before)


def test_pickle_round_trip(fitted, windows):
    restored = pickle.loads(pickle.dumps(fitted))
    np.testing.assert_array_equal(restored.transform(windows), fitted.transform(windows))


def test_joblib_round_trip(fitted, windows, tmp_path):
    path = tmp_path / "pretrainer.joblib"
    joblib.dump(fitted, path)
    np.testing.assert_array_equal(joblib.load(path).transform(windows), fitted.transform(windows))


@pytest.mark.parametrize("attribute", ["transform", "encoder_", "predictor_", "history_"])
def test_unfitted_raises_not_fitted(windows, tiny_pretrainer_params, attribute):
    pre = HEPAPretrainer(**tiny_pretrainer_params)
    with pytest.raises(NotFittedError):
        if attribute == "transform":
            pre.transform(windows)
        else:
            getattr(pre, attribute)


def test_wrong_channel_count_at_transform(fitted, windows):
    with pytest.raises(ValueError, match="channels"):
        fitted.transform(windows[:, :2])


@pytest.mark.parametrize(
    "corrupt, error, match",
    [
        (lambda X: np.where(np.arange(48) == 40, np.inf, X).astype(np.float32), ValueError, "infinite"),
        (lambda X: np.concatenate([X, np.full_like(X[:1], np.nan)]), ValueError, "no observed value"),
        (lambda X: np.full(X.shape, "a"), TypeError, "numbers"),
        (lambda X: X[None], ValueError, "3-D"),
        (lambda X: X[:0], ValueError, "empty"),
        (lambda X: X + 1j, ValueError, "[Cc]omplex"),
        (lambda X: scipy.sparse.csr_matrix(X[:, 0]), TypeError, "sparse"),
    ],
    ids=["inf", "all-nan-window", "strings", "4-D", "no-window", "complex", "sparse"],
)
def test_bad_X_at_fit(windows, tiny_pretrainer_params, corrupt, error, match):
    with pytest.raises(error, match=match):
        HEPAPretrainer(**tiny_pretrainer_params).fit(corrupt(windows))


def test_bad_X_at_transform(fitted, windows):
    with pytest.raises(ValueError, match="X contains infinite values; mark missing values with NaN"):
        fitted.transform(np.where(np.arange(48) == 3, np.inf, windows))
    with pytest.raises(ValueError, match="no observed value"):
        fitted.transform(np.full_like(windows[:2], np.nan))


@pytest.mark.parametrize(
    "params, match",
    [
        ({"d_model": 15}, "d_model"),
        ({"lr": -1e-3}, "lr"),
        ({"norm": "batch"}, "norm"),
        ({"max_epochs": -1}, "max_epochs"),
        ({"cuts_per_window": 0}, "cuts_per_window"),
        ({"tokens": "variate"}, "tokens"),
        ({"early_stopping": "spread"}, "early_stopping"),
        ({"dropout": 1.0}, "dropout"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"early_stopping": "yes"}, "early_stopping"),
    ],
)
def test_bad_hyperparameters_raise_at_fit(windows, tiny_pretrainer_params, params, match):
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, **params})  # construction never validates
    with pytest.raises(ValueError, match=match):
        pre.fit(windows)


def test_hyperparameters_are_checked_before_the_data(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, "d_model": 15})
    with pytest.raises(ValueError, match="d_model"):
        pre.fit(windows)
    assert not hasattr(pre, "n_features_in_")  # a failed fit must not look fitted


def test_early_stopping_records_validation_loss(windows, tiny_pretrainer_params):
    params = {**tiny_pretrainer_params, "early_stopping": True, "validation_fraction": 0.25}
    epoch = HEPAPretrainer(**params).fit(windows).history_[-1]
    for key in ("valid_loss", "valid_l1", "valid_sigreg"):
        assert np.isfinite(epoch[key])
    valid_sizes = [batch["valid_batch_size"] for batch in epoch["batches"] if "valid_batch_size" in batch]
    assert sum(valid_sizes) == 10


def test_without_early_stopping_no_validation(windows, tiny_pretrainer_params):
    epoch = HEPAPretrainer(**{**tiny_pretrainer_params, "early_stopping": False}).fit(windows).history_[-1]
    assert "valid_loss" not in epoch
    assert sum(batch["train_batch_size"] for batch in epoch["batches"]) == windows.shape[0]


def test_cuts_per_window_multiplies_training_pairs(windows, tiny_pretrainer_params):
    params = {**tiny_pretrainer_params, "early_stopping": False, "cuts_per_window": 3}
    epoch = HEPAPretrainer(**params).fit(windows).history_[-1]
    assert sum(batch["train_batch_size"] for batch in epoch["batches"]) == 3 * windows.shape[0]
    assert np.isfinite(epoch["train_loss"])


def test_paper_model_sizes():
    # paper defaults with the 14 C-MAPSS sensors: encoder + target pooling + predictor
    assert n_parameters(JEPA(EncoderConfig(n_channels=14), 150)) == 1_310_720
    assert n_parameters(EventModel(256, 256, 150, 150.0)) == 198_401


def test_fitted_module_matches_its_configuration(fitted):
    reference = JEPA(EncoderConfig(n_channels=3, d_model=16, n_layers=1, n_heads=2), 16)
    assert n_parameters(fitted.net_.module_) == n_parameters(reference)
    assert fitted.predictor_.horizon_scale == 16.0
    # the feed-forward layers and the predictor's hidden layers are d_model wide
    assert fitted.encoder_.blocks[0].feed_forward[0].out_features == 16
    assert fitted.predictor_.input.out_features == 16


PARAMETERS = [
    "d_model",
    "n_layers",
    "n_heads",
    "patch_size",
    "dropout",
    "tokens",
    "norm",
    "regimes",
    "window_level",
    "K",
    "regularizer_weight",
    "regularizer",
    "target_weights",
    "cuts_per_window",
    "init_from",
    "max_epochs",
    "batch_size",
    "lr",
    "weight_decay",
    "early_stopping",
    "validation_metric",
    "validation_fraction",
    "n_iter_no_change",
    "device",
    "precision",
    "random_state",
    "verbose",
    "callbacks",
    # former names, deprecated in 0.3.0
    "max_horizon",
    "sigreg_weight",
    "target",
]


def test_parameters_are_the_encoder_the_objective_and_training():
    assert list(inspect.signature(HEPAPretrainer).parameters) == PARAMETERS
    assert set(HEPAPretrainer._parameter_constraints) == set(PARAMETERS)


@pytest.mark.parametrize(
    "name",
    [
        "horizons",
        "regularize",
        "objective",
        "lr_schedule",
        "n_projections",
        "ema_momentum",
        "dim_feedforward",
        "predictor_hidden",
        "batch_layout",
        "distributed",
        "early_stopping_score",
    ],
)
def test_removed_parameters_are_refused(name):
    with pytest.raises(TypeError, match=name):
        HEPAPretrainer(**{name: None})


@pytest.mark.parametrize("norm, block", [("global", 8), ("none", 8), ("revin", 1)])
def test_cuts_of_a_window_share_a_batch_where_the_norm_allows(windows, tiny_pretrainer_params, norm, block):
    pre = HEPAPretrainer(
        **{**tiny_pretrainer_params, "norm": norm, "cuts_per_window": 10, "batch_size": 32, "early_stopping": False}
    )
    assert pre.cut_block() == block
    pre.fit(windows)
    assert pre.net_.cut_block == block


def test_packed_layout_is_reproducible(windows, tiny_pretrainer_params):
    params = {**tiny_pretrainer_params, "norm": "global", "cuts_per_window": 10, "early_stopping": False}
    first = HEPAPretrainer(**params).fit(windows).transform(windows)
    again = HEPAPretrainer(**params).fit(windows).transform(windows)
    np.testing.assert_array_equal(first, again)


class GroupedJEPA(JEPA):
    def target_state(self, x, cut, dt, loc, scale):
        return pool_in_groups(self.target_path, self.future(x, cut, dt), dt, loc, scale, self.target_pooling)


class OneCutPerBlock(HEPAPretrainer):
    """A subclass laying batches out another way through the two hooks, as the benchmark harness does."""

    module_class = GroupedJEPA

    def cut_block(self):
        return 1


def test_a_subclass_changes_the_batch_layout_through_the_hooks(windows, tiny_pretrainer_params):
    params = {**tiny_pretrainer_params, "norm": "global", "cuts_per_window": 10, "early_stopping": False}
    other = OneCutPerBlock(**params).fit(windows)
    assert type(other.net_.module_) is GroupedJEPA and other.net_.cut_block == 1
    assert other.get_params() == HEPAPretrainer(**params).get_params()
    packed = HEPAPretrainer(**params).fit(windows).transform(windows)
    assert np.isfinite(other.transform(windows)).all() and not np.allclose(other.transform(windows), packed)


@pytest.mark.parametrize("metric, monitor", [("loss", "valid_loss"), ("rank", "valid_rank")])
def test_validation_metric_names_what_early_stopping_watches(windows, tiny_pretrainer_params, metric, monitor):
    params = {**tiny_pretrainer_params, "max_epochs": 2, "validation_fraction": 0.25}
    pre = HEPAPretrainer(**params, validation_metric=metric).fit(windows)
    stopping = dict(pre.net_.callbacks_)["early_stopping"]
    assert stopping.monitor == monitor and stopping.lower_is_better == (monitor == "valid_loss")
    assert {"valid_loss", "valid_rank"} <= set(pre.history_[-1])
    if metric == "loss":  # the default
        same = HEPAPretrainer(**params).fit(windows)
        np.testing.assert_array_equal(pre.transform(windows), same.transform(windows))


def test_early_stopping_false_trains_every_epoch_without_validation(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**{**tiny_pretrainer_params, "max_epochs": 2, "early_stopping": False}).fit(windows)
    assert "early_stopping" not in dict(pre.net_.callbacks_) and pre.n_epochs_ == 2
    assert "valid_rank" not in pre.history_[-1]


class InitialWeights(Callback):
    """Keeps a copy of the module's weights when training begins."""

    def on_train_begin(self, net, **kwargs):
        self.weights_ = {name: tensor.clone() for name, tensor in net.module_.state_dict().items()}


@pytest.mark.parametrize("estimator", [HEPAPretrainer, MAEPretrainer])
def test_zero_epochs_keeps_the_initial_weights_of_training(windows, tiny_pretrainer_params, estimator, tmp_path):
    params = {name: tiny_pretrainer_params[name] for name in ("d_model", "n_heads", "n_layers", "batch_size")}
    params.update(norm="global", random_state=3)
    untrained = estimator(**params, max_epochs=0).fit(windows)
    trained = estimator(**params, max_epochs=1, callbacks=[("initial", InitialWeights())]).fit(windows)
    initial = dict(trained.net_.callbacks_)["initial"].weights_
    state = untrained.net_.module_.state_dict()
    assert state.keys() == initial.keys()
    for name, tensor in state.items():
        assert torch.equal(tensor, initial[name]), name
    assert untrained.n_epochs_ == 0 and len(untrained.history_) == 0
    np.testing.assert_array_equal(untrained.channel_loc_, trained.channel_loc_)
    np.testing.assert_array_equal(untrained.channel_scale_, trained.channel_scale_)
    E = untrained.transform(windows)
    assert E.shape == (len(windows), len(untrained.get_feature_names_out())) and np.isfinite(E).all()
    save(untrained, tmp_path / "untrained.hepa")
    restored = load(tmp_path / "untrained.hepa")
    assert restored.n_epochs_ == 0 and len(restored.history_) == 0
    np.testing.assert_array_equal(restored.transform(windows), E)


def test_without_pretraining_short_windows_need_no_cut():
    # windows of one patch hold no (cut, horizon) pair: only pretraining needs one, so the default fit is silent
    X = np.random.default_rng(3).normal(size=(10, 2, 12)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        E = HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, random_state=0).fit(X).transform(X)
    assert E.shape == (10, 16 + 2 * 2) and np.isfinite(E).all()
    with pytest.raises(ValueError, match="No window can be pretrained on"):
        HEPAPretrainer(d_model=16, n_heads=2, n_layers=1, max_epochs=1, random_state=0).fit(X)
