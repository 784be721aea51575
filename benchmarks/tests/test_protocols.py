"""The harness's protocol estimators: the C-MAPSS pretrainer in either batch layout, one protocol run, fitted state."""

import numpy as np
import pytest
import torch
from hepa_bench import protocols
from hepa_bench.protocols import LAYOUTS, kept_epoch, protocol_pretrainer, run_protocol, with_state

from hepa_sklearn import HEPAPretrainer


def test_the_protocol_pretrainer_in_either_layout_has_the_same_parameters():
    assert LAYOUTS == ("padded", "packed")
    packed = protocol_pretrainer(50, device="cpu", seed=3, layout="packed", norm="revin")
    assert type(packed) is HEPAPretrainer
    assert (packed.norm, packed.early_stopping, packed.max_epochs, packed.cuts_per_window, packed.random_state) == (
        "revin",
        False,
        50,
        40,
        3,
    )
    assert protocol_pretrainer(2, device="cpu", seed=0, layout="packed").norm == "global"
    padded = protocol_pretrainer(50, device="cpu", seed=3, norm="revin")
    assert type(padded).__name__ == "PaddedHEPAPretrainer" and padded.get_params() == packed.get_params()
    with pytest.raises(ValueError, match="unknown batch layout 'strided'"):
        protocol_pretrainer(2, device="cpu", seed=0, layout="strided")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_protocol_run_fits_the_pretrainer_of_its_layout(layout, monkeypatch):
    given = {}

    def run_cmapss(subset, **kwargs):
        given.update(subset=subset, **kwargs)
        return {"h_auroc": 0.5}

    monkeypatch.setattr(protocols, "run_cmapss", run_cmapss)
    settings = dict(layout=layout, seed=4, pretrain_epochs=3, finetune_epochs=2, device="cpu")
    result = run_protocol("FD002", **settings)
    assert result == {"h_auroc": 0.5, "batch_layout": layout}
    assert (given["subset"], given["seed"], given["pretrain_epochs"], given["finetune_epochs"]) == ("FD002", 4, 3, 2)
    assert (given["cuts_per_unit"], given["horizon_knots"]) == (40, None)
    if layout == "packed":
        assert given["pretrainer"] is None  # the library's own run
    else:
        assert type(given["pretrainer"]).__name__ == "PaddedHEPAPretrainer"
        assert (given["pretrainer"].max_epochs, given["pretrainer"].random_state) == (3, 4)
        assert given["pretrainer"].cuts_per_window == 40
    run_protocol("FD002", cuts_per_unit=9, horizon_knots=4, **settings)
    assert (given["cuts_per_unit"], given["horizon_knots"]) == (9, 4)
    if layout == "padded":
        assert given["pretrainer"].cuts_per_window == 9


def test_kept_epoch_and_a_copy_with_other_weights(tiny):
    X = np.cumsum(np.random.default_rng(0).normal(size=(24, 3, 64)), axis=2).astype("float32")
    stopped = HEPAPretrainer(**tiny["encoder"], K=16, max_epochs=2, random_state=0).fit(X)
    assert kept_epoch(stopped) == dict(stopped.net_.callbacks_)["early_stopping"].best_epoch_
    fixed = HEPAPretrainer(**tiny["encoder"], K=16, max_epochs=2, early_stopping=False, random_state=0).fit(X)
    assert kept_epoch(fixed) == 2  # no stopping rule: the last epoch
    state = {k: torch.zeros_like(v) for k, v in fixed.net_.module_.state_dict().items()}
    copy = with_state(fixed, state)
    assert copy is not fixed and all(not v.any() for v in copy.net_.module_.state_dict().values())
    assert any(v.any() for v in fixed.net_.module_.state_dict().values())  # the original keeps its weights


def test_kept_epoch_of_an_untrained_encoder_is_zero():
    from hepa_sklearn import HEPAPretrainer

    X = np.random.default_rng(0).normal(size=(12, 2, 64)).astype(np.float32)
    pretrainer = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=0, device="cpu", random_state=0).fit(X)
    assert pretrainer.n_epochs_ == 0 and kept_epoch(pretrainer) == 0


def test_the_pinned_defaults_are_complete_and_are_the_librarys_today():
    # hepa-default's records were made with these, the defaults of release 0.1.0 (a default that changes
    # updates this test, not the pins)
    from hepa_bench.protocols import PINNED_PREDICTOR, PINNED_PRETRAINER

    from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer

    run_only = {"random_state", "device", "verbose", "callbacks"}
    former = {"max_horizon", "sigreg_weight", "target"}  # 0.3.0: K, regularizer_weight, target_weights
    assert set(PINNED_PRETRAINER) == set(HEPAPretrainer().get_params()) - run_only - former
    assert set(PINNED_PREDICTOR) == set(HEPAEventPredictor().get_params()) - run_only - {"K"}
    # release 0.2.0 changed two, norm="auto" and max_epochs=0, and norm="auto" is three parameters today:
    # hepa-default-auto0, the headline line since, sets them as the library does
    today = {k: v for k, v in HEPAPretrainer().get_params().items() if k in PINNED_PRETRAINER}
    assert {k: v for k, v in PINNED_PRETRAINER.items() if today[k] != v} == {
        "regimes": None,
        "window_level": False,
        "max_epochs": 100,
    }
    assert {k: today[k] for k in ("norm", "regimes", "window_level", "max_epochs")} == {
        "norm": "revin",
        "regimes": "auto",
        "window_level": "auto",
        "max_epochs": 0,
    }
    # release 0.3.0 changed one of the predictor's, horizon_knots=12; the pins keep every horizon
    today = {k: v for k, v in HEPAEventPredictor().get_params().items() if k in PINNED_PREDICTOR}
    assert {k: v for k, v in PINNED_PREDICTOR.items() if today[k] != v} == {"horizon_knots": None}
    assert today["horizon_knots"] == 12
