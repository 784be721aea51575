"""Variants of the paper's ablations: VICReg and EMA target in pretraining; linear probe and survival NLL."""

import copy

import numpy as np
import pytest
import torch

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.nn import JEPA, EncoderConfig
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training._callbacks import TargetEMA


def test_vicreg_regulariser_is_recorded_under_its_name(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**tiny_pretrainer_params, regularizer="vicreg").fit(windows)
    assert "train_vicreg" in pre.history_[-1] and "train_sigreg" not in pre.history_[-1]
    assert np.isfinite(pre.transform(windows)).all()


def test_ema_target_follows_the_context_encoder_without_gradient(windows, tiny_pretrainer_params):
    params = dict(tiny_pretrainer_params, max_epochs=2)
    pre = HEPAPretrainer(**params, target_weights="ema").fit(windows)
    assert dict(pre.net_.callbacks_)["target_ema"].momentum == 0.996  # I-JEPA's and the paper's
    module = pre.net_.module_
    assert all(not p.requires_grad for p in module.target_encoder.parameters())
    online = dict(module.encoder.named_parameters())
    moved = [name for name, p in module.target_encoder.named_parameters() if not (p == online[name]).all()]
    assert moved  # the copy lags behind: it is a moving average, not the same weights
    # the copy started from the encoder's initial weights (those of max_epochs=0) and moved away from them
    initial = HEPAPretrainer(**{**params, "max_epochs": 0}, target_weights="ema").fit(windows).net_.module_
    assert not any(
        torch.equal(p, q)
        for p, q in zip(module.target_encoder.parameters(), initial.target_encoder.parameters(), strict=True)
    )


def test_ema_step_moves_the_target_by_one_minus_the_momentum():
    torch.manual_seed(0)
    module = JEPA(EncoderConfig(n_channels=2, d_model=8, n_layers=1, n_heads=2, patch_size=4), 8, target_weights="ema")
    with torch.no_grad():
        for p in module.encoder.parameters():
            p.add_(1.0)
    before = copy.deepcopy(module.target_encoder)
    module.update_target(1.0)  # momentum 1 never moves the target
    for p, q in zip(module.target_encoder.parameters(), before.parameters(), strict=True):
        assert torch.equal(p, q)
    module.update_target(0.75)
    for p, q, online in zip(
        module.target_encoder.parameters(), before.parameters(), module.encoder.parameters(), strict=True
    ):
        torch.testing.assert_close(p, 0.75 * q + 0.25 * online)
    assert TargetEMA().momentum == 0.996


def test_shared_target_has_no_copy(windows, tiny_pretrainer_params):
    pre = HEPAPretrainer(**tiny_pretrainer_params).fit(windows)
    assert not hasattr(pre.net_.module_, "target_encoder")


@pytest.mark.parametrize(
    "params, match",
    [
        ({"regularizer": "barlow"}, "'regularizer' parameter of HEPAPretrainer must be a str among"),
        ({"target_weights": "momentum"}, "'target_weights' parameter of HEPAPretrainer must be a str among"),
        ({"early_stopping": "spread"}, "'early_stopping' parameter of HEPAPretrainer must be"),
        ({"validation_metric": "spread"}, "'validation_metric' parameter of HEPAPretrainer must be a str among"),
    ],
)
def test_bad_variant_parameters(windows, tiny_pretrainer_params, params, match):
    with pytest.raises(ValueError, match=match):
        HEPAPretrainer(**tiny_pretrainer_params, **params).fit(windows)


def survival_data(n=80, d=8, seed=0):
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(n, d)).astype(np.float32)
    return E, make_survival_y(rng.random(n) < 0.7, rng.integers(1, 15, n))


@pytest.mark.parametrize("params", [{"head": "linear"}, {"loss": "nll"}, {"head": "linear", "loss": "nll"}])
def test_variants_give_valid_surfaces(tiny_event_params, params):
    E, y = survival_data()
    model = HEPAEventPredictor(**tiny_event_params, **params).fit(E, y)
    P = model.predict_proba(E)
    assert P.shape == (80, tiny_event_params["K"])
    assert np.all((P >= 0) & (P <= 1)) and np.all(np.diff(P, axis=1) >= 0)


def test_linear_probe_has_one_linear_map(tiny_event_params):
    E, y = survival_data()
    module = HEPAEventPredictor(**tiny_event_params, head="linear").fit(E, y).net_.module_
    assert sum(p.numel() for p in module.parameters()) == 8 * 10 + 10


def test_nll_and_bce_train_differently(tiny_event_params):
    E, y = survival_data()
    bce = HEPAEventPredictor(**tiny_event_params).fit(E, y).predict_proba(E)
    nll = HEPAEventPredictor(**tiny_event_params, loss="nll").fit(E, y).predict_proba(E)
    assert not np.allclose(bce, nll)


def test_init_from_needs_the_mlp_head(windows, tiny_pretrainer_params, tiny_event_params):
    pre = HEPAPretrainer(**tiny_pretrainer_params).fit(windows)
    E = pre.transform(windows)
    y = make_survival_y(np.ones(len(E), bool), np.arange(len(E)) % 9 + 1)
    with pytest.raises(ValueError, match="init_from needs head='mlp'"):
        HEPAEventPredictor(**tiny_event_params, head="linear", init_from=pre).fit(E, y)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"head": "tree"}, "'head' parameter of HEPAEventPredictor must be a str among"),
        ({"loss": "cox"}, "'loss' parameter of HEPAEventPredictor must be a str among"),
    ],
)
def test_bad_event_variant_parameters(tiny_event_params, params, match):
    E, y = survival_data()
    with pytest.raises(ValueError, match=match):
        HEPAEventPredictor(**tiny_event_params, **params).fit(E, y)
