"""Mixed precision and device handling: the bf16 autocast path runs on CPU too."""

import numpy as np
import pytest
import torch

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training._runtime import autocast_dtype, resolve_device


@pytest.mark.parametrize(
    "precision, device, expected",
    [
        ("auto", "cpu", None),
        ("auto", "cuda", torch.bfloat16),
        ("auto", "cuda:1", torch.bfloat16),
        ("bf16", "cpu", torch.bfloat16),
        ("fp32", "cuda", None),
        ("fp32", "cpu", None),
    ],
)
def test_autocast_dtype(precision, device, expected):
    assert autocast_dtype(precision, device) == expected


def test_auto_device_resolves_to_what_torch_sees():
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu") == "cpu"


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_cuda_without_gpu_is_a_clear_error(windows, tiny_pretrainer_params):
    with pytest.raises(ValueError, match="no CUDA GPU"):
        HEPAPretrainer(**tiny_pretrainer_params, device="cuda").fit(windows)


def test_unknown_device_string_is_a_value_error(windows, tiny_pretrainer_params):
    with pytest.raises(ValueError, match="device must be"):
        HEPAPretrainer(**tiny_pretrainer_params, device="tpu-ish").fit(windows)


def test_unknown_precision_names_the_parameter(windows, tiny_pretrainer_params, tiny_event_params):
    with pytest.raises(ValueError, match="'precision' parameter of \\w+ must be a str among"):
        HEPAPretrainer(**tiny_pretrainer_params, precision="fp16").fit(windows)
    E = np.zeros((4, 2), np.float32)
    y = make_survival_y([True] * 4, [1, 2, 3, 4])
    with pytest.raises(ValueError, match="'precision' parameter of \\w+ must be a str among"):
        HEPAEventPredictor(**tiny_event_params, precision="fp16").fit(E, y)


def test_bf16_pretraining_stays_close_to_fp32(windows, tiny_pretrainer_params):
    fp32 = HEPAPretrainer(**tiny_pretrainer_params, precision="fp32").fit(windows)
    bf16 = HEPAPretrainer(**tiny_pretrainer_params, precision="bf16").fit(windows)
    assert bf16.net_.autocast_dtype == torch.bfloat16 and fp32.net_.autocast_dtype is None
    E32, E16 = fp32.transform(windows), bf16.transform(windows)
    assert E16.dtype == np.float32 and np.isfinite(E16).all()
    # bf16 keeps 8 bits of mantissa: one epoch of training and an inference pass
    # drift by a few parts in a hundred of the embedding scale, not more
    assert np.abs(E16 - E32).max() < 0.1 * np.abs(E32).max()
    assert not np.array_equal(E16, E32)  # the autocast path really ran
    assert np.isfinite(bf16.history_[:, "train_loss"]).all()


def test_bf16_surface_is_valid_and_close_to_fp32(tiny_event_params):
    rng = np.random.default_rng(0)
    E = rng.normal(size=(80, 8)).astype(np.float32)
    y = make_survival_y(rng.random(80) < 0.7, rng.integers(1, 15, 80))
    P32 = HEPAEventPredictor(**tiny_event_params, precision="fp32").fit(E, y).predict_proba(E)
    P16 = HEPAEventPredictor(**tiny_event_params, precision="bf16").fit(E, y).predict_proba(E)
    assert P16.shape == P32.shape and P16.dtype == np.float64
    assert np.all((P16 >= 0) & (P16 <= 1)) and np.all(np.diff(P16, axis=1) >= 0)
    assert np.abs(P16 - P32).max() < 0.05
