"""Tests for ChronosEmbedder and MomentEmbedder: Chronos-2 and MOMENT as frozen, per-channel embedders.

The checkpoints are tiny randomly initialised models of the published
architectures, written to a temporary folder in the published layout
(config.json and model.safetensors); the released weights are never needed.
"""

import json
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAEventPredictor
from hepa_sklearn.baselines import ChronosEmbedder, MoiraiEmbedder, MomentEmbedder, TimesFMEmbedder
from hepa_sklearn.baselines._foundation import mean_over_patches, observed_patches, pool_channels
from hepa_sklearn.surface import make_survival_y

D_MODEL = 16
PATCH = 8  # both tiny models read patches of 8 steps
MOMENT_SEQ_LEN = 64


def _windows(n=6, C=3, L=30, seed=0):
    """(n, C, L) float32 windows; window 0 is left-padded by 10 steps in every channel."""
    X = np.random.default_rng(seed).normal(size=(n, C, L)).astype(np.float32)
    X[0, :, :10] = np.nan
    return X


@pytest.fixture(scope="module")
def chronos_path(tmp_path_factory):
    """A 1-layer Chronos-2 (d_model 16, patches of 8, context of 64 steps) saved with save_pretrained."""
    pytest.importorskip("chronos", reason="ChronosEmbedder needs the 'chronos' extra (chronos-forecasting)")
    from chronos.chronos2 import Chronos2Model
    from chronos.chronos2.config import Chronos2CoreConfig

    config = Chronos2CoreConfig(
        d_model=D_MODEL,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_heads=2,
        chronos_config=dict(
            context_length=64,
            input_patch_size=PATCH,
            input_patch_stride=PATCH,
            output_patch_size=PATCH,
            quantiles=[0.1, 0.5, 0.9],
            use_reg_token=True,
            use_arcsinh=True,
            max_output_patches=2,
        ),
        architectures=["Chronos2Model"],
    )
    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("chronos-2")
    Chronos2Model(config).save_pretrained(folder)
    return folder


def _sinusoid_table(n_positions, d_model):
    """sin(p / 10000^(2i/d)) in even columns, the cosine of the same angle in odd ones."""
    angle = np.arange(n_positions)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    table = np.zeros((n_positions, d_model), dtype=np.float32)
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return torch.from_numpy(table)


def _moment_config(**overrides):
    t5 = dict(d_model=D_MODEL, d_kv=8, d_ff=32, num_layers=1, num_heads=2, vocab_size=4, feed_forward_proj="gated-gelu")
    return {
        "task_name": "reconstruction",
        "model_name": "MOMENT",
        "transformer_type": "encoder_only",
        "d_model": None,
        "seq_len": MOMENT_SEQ_LEN,
        "patch_len": PATCH,
        "patch_stride_len": PATCH,
        "transformer_backbone": "google/flan-t5-small",
        "t5_config": t5,
        "enable_gradient_checkpointing": False,
        **overrides,
    }


def write_moment_checkpoint(folder, *, positions=True, **overrides):
    """A 1-layer MOMENT in the layout of the released checkpoints: config.json and model.safetensors."""
    from safetensors.torch import save_file
    from transformers import T5Config, T5EncoderModel

    config = _moment_config(**overrides)
    torch.manual_seed(0)
    encoder = T5EncoderModel(T5Config(**config["t5_config"])).encoder
    weights = {f"encoder.{name}": tensor.clone() for name, tensor in encoder.state_dict().items()}
    weights["patch_embedding.value_embedding.weight"] = 0.3 * torch.randn(D_MODEL, PATCH)
    weights["patch_embedding.mask_embedding"] = torch.randn(D_MODEL)
    weights["head.linear.weight"] = torch.randn(PATCH, D_MODEL)
    weights["head.linear.bias"] = torch.zeros(PATCH)
    if positions:
        weights["patch_embedding.position_embedding.pe"] = _sinusoid_table(5000, D_MODEL)[None]
    folder.mkdir(parents=True, exist_ok=True)
    save_file(weights, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps(config))
    return folder


@pytest.fixture(scope="module")
def moment_path(tmp_path_factory):
    pytest.importorskip("transformers", reason="MomentEmbedder needs the 'moment' extra (transformers)")
    pytest.importorskip("safetensors", reason="MomentEmbedder needs the 'moment' extra (safetensors)")
    return write_moment_checkpoint(tmp_path_factory.mktemp("moment"))


def write_timesfm_checkpoint(folder, *, n_layers=2, patch=PATCH):
    """A TimesFM-2.5 of d_model 16 in the layout of google/timesfm-2.5-200m-pytorch: config.json, model.safetensors."""
    import dataclasses

    from safetensors.torch import save_file
    from timesfm.timesfm_2p5.timesfm_2p5_base import TimesFM_2p5_200M_Definition
    from timesfm.timesfm_2p5.timesfm_2p5_torch import TimesFM_2p5_200M_torch_module

    base = TimesFM_2p5_200M_Definition()
    stack = base.stacked_transformers
    layer = dataclasses.replace(stack.transformer, model_dims=D_MODEL, hidden_dims=32, num_heads=2)
    tiny = dataclasses.replace(
        base,
        input_patch_len=patch,
        tokenizer=dataclasses.replace(base.tokenizer, input_dims=2 * patch, hidden_dims=24, output_dims=D_MODEL),
        stacked_transformers=dataclasses.replace(stack, num_layers=n_layers, transformer=layer),
        output_projection_point=dataclasses.replace(base.output_projection_point, input_dims=D_MODEL, hidden_dims=8),
        output_projection_quantiles=dataclasses.replace(
            base.output_projection_quantiles, input_dims=D_MODEL, hidden_dims=8
        ),
    )
    torch.manual_seed(0)
    module = type("Tiny", (TimesFM_2p5_200M_torch_module,), {"config": tiny})()
    folder.mkdir(parents=True, exist_ok=True)
    save_file(
        {name: tensor.contiguous() for name, tensor in module.state_dict().items()}, str(folder / "model.safetensors")
    )
    (folder / "config.json").write_text("{}")
    return folder, module


@pytest.fixture(scope="module")
def timesfm_path(tmp_path_factory):
    pytest.importorskip("timesfm", reason="TimesFMEmbedder needs the 'timesfm' extra")
    return write_timesfm_checkpoint(tmp_path_factory.mktemp("timesfm"))[0]


@pytest.fixture(scope="module")
def moirai_path():
    """A one-layer Moirai in the released layout, with uni2ts's own outputs for one series
    (benchmarks/experiments/moirai_reference/moirai_reference.py)."""
    pytest.importorskip("safetensors", reason="MoiraiEmbedder needs the 'moirai' extra (safetensors)")
    return Path(__file__).parent / "data" / "moirai_tiny"


@pytest.fixture(params=["chronos", "moment", "timesfm", "moirai"])
def embedder(request):
    """An unfitted embedder of each kind on its tiny checkpoint, on the CPU."""
    kinds = {"chronos": ChronosEmbedder, "moment": MomentEmbedder, "timesfm": TimesFMEmbedder, "moirai": MoiraiEmbedder}
    kind = kinds[request.param]
    return kind(request.getfixturevalue(f"{request.param}_path"), device="cpu")


# -- the numeric core ------------------------------------------------------------------------


def test_observed_patches_any_and_all():
    series = np.array([[np.nan, 1, 2, 3, np.nan, np.nan, 4, np.nan]], dtype=np.float32)
    assert observed_patches(series, 2, "any").tolist() == [[True, True, False, True]]
    assert observed_patches(series, 2, "all").tolist() == [[False, True, False, False]]


def test_mean_over_patches_by_hand_ignores_nan_tokens():
    tokens = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [float("nan"), 0.0]], [[5.0, 6.0], [7.0, 8.0], [9.0, 9.0]]])
    observed = torch.tensor([[True, True, False], [False, False, False]])
    assert mean_over_patches(tokens, observed).tolist() == [[2.0, 3.0], [0.0, 0.0]]


@settings(max_examples=25, deadline=None)
@given(
    embeddings=hnp.arrays(np.float32, (3, 4, 2), elements=st.floats(-10, 10, width=32)), usable=hnp.arrays(bool, (3, 4))
)
def test_pool_channels_is_the_mean_of_usable_channels(embeddings, usable):
    usable[:, 0] = True  # every window has a usable channel
    mean = pool_channels(embeddings, usable, "mean")
    for i in range(3):
        np.testing.assert_allclose(mean[i], embeddings[i][usable[i]].mean(axis=0), rtol=1e-5, atol=1e-5)
    concat = pool_channels(embeddings, usable, "concat").reshape(3, 4, 2)
    np.testing.assert_array_equal(concat, np.where(usable[..., None], embeddings, 0.0))


# -- behaviour common to the models ----------------------------------------------------------


def test_shapes_dtype_and_feature_names(embedder):
    X = _windows()
    E = embedder.fit(X).transform(X)
    # the stored Moirai (tests/data/moirai_tiny) is 128 wide and reads patches of 16
    width, patch = (128, 16) if isinstance(embedder, MoiraiEmbedder) else (D_MODEL, PATCH)
    assert E.shape == (6, width) and E.dtype == np.float32 and np.isfinite(E).all()
    assert embedder.embedding_dim_ == width and embedder.patch_len_ == patch
    assert (embedder.n_features_in_, embedder.n_timepoints_in_) == (3, 30)
    assert embedder.get_feature_names_out().shape == (width,)
    concat = clone(embedder).set_params(channel_pooling="concat").fit(X)
    assert concat.transform(X).shape == (6, 3 * width)
    assert concat.get_feature_names_out().shape == (3 * width,)


def test_deterministic_across_calls_and_fits(embedder):
    X = _windows()
    first = embedder.fit(X).transform(X)
    np.testing.assert_array_equal(first, embedder.transform(X))
    np.testing.assert_array_equal(first, clone(embedder).fit(X).transform(X))


def test_batch_size_does_not_change_the_embeddings(embedder):
    X = _windows()
    whole = embedder.fit(X).transform(X)
    np.testing.assert_allclose(clone(embedder).set_params(batch_size=1).fit(X).transform(X), whole, atol=1e-6)


def test_identical_channels_embed_as_one_channel(embedder):
    one = _windows(C=1)
    three = np.repeat(one, 3, axis=1)
    single = clone(embedder).fit(one).transform(one)
    np.testing.assert_allclose(clone(embedder).fit(three).transform(three), single, rtol=1e-5, atol=1e-6)
    concat = clone(embedder).set_params(channel_pooling="concat").fit(three).transform(three)
    np.testing.assert_allclose(concat, np.tile(single, 3), rtol=1e-5, atol=1e-6)


def test_channels_are_encoded_independently(embedder):
    X = _windows()
    other = X.copy()
    other[:, 1] = 5 * other[:, 1] ** 2  # change channel 1 only
    concat = clone(embedder).set_params(channel_pooling="concat").fit(X)
    before, after = concat.transform(X).reshape(6, 3, -1), concat.transform(other).reshape(6, 3, -1)
    np.testing.assert_array_equal(before[:, [0, 2]], after[:, [0, 2]])
    assert not np.allclose(before[:, 1], after[:, 1])
    # the mean is the mean of those blocks
    np.testing.assert_allclose(embedder.fit(X).transform(X), before.mean(axis=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("order", [[2, 0, 1], [1, 2, 0]])
def test_mean_pooling_ignores_channel_order(embedder, order):
    X = _windows()
    embedder.fit(X)
    np.testing.assert_allclose(embedder.transform(X[:, order]), embedder.transform(X), rtol=1e-5, atol=1e-6)


def test_unobserved_channel_is_left_out_of_the_mean(embedder):
    X = _windows()
    with_gap = X.copy()
    with_gap[2, 1] = np.nan  # window 2 loses channel 1 entirely
    embedder.fit(X)
    expected = embedder.set_params(channel_pooling="concat").transform(X).reshape(6, 3, -1)[2, [0, 2]].mean(axis=0)
    embedder.set_params(channel_pooling="mean")
    np.testing.assert_allclose(embedder.transform(with_gap)[2], expected, rtol=1e-5, atol=1e-6)
    concat = embedder.set_params(channel_pooling="concat").transform(with_gap).reshape(6, 3, -1)
    assert (concat[2, 1] == 0).all()


def test_left_padding_is_the_same_as_a_shorter_window(embedder):
    X = _windows(L=40)
    X[:, :, :13] = np.nan
    embedder.fit(X)
    np.testing.assert_allclose(embedder.transform(X), embedder.transform(X[:, :, 13:]), atol=1e-6)


def test_interior_nan_gives_finite_embeddings(embedder):
    X = _windows()
    X[:, :, 12:15] = np.nan
    E = embedder.fit(X).transform(X)
    assert np.isfinite(E).all()
    assert not np.allclose(E, embedder.transform(_windows()))


def test_input_errors(embedder):
    X = _windows()
    with pytest.raises(NotFittedError):
        embedder.transform(X)
    embedder.fit(X)
    with pytest.raises(ValueError, match="2 channels, but .* was fitted with 3 channels"):
        embedder.transform(X[:, :2])
    with pytest.raises(ValueError, match="infinite"):
        embedder.transform(np.where(np.isnan(X), np.inf, X))


@pytest.mark.parametrize(
    "params, match",
    [
        ({"channel_pooling": "max"}, "channel_pooling"),
        ({"batch_size": 0}, "batch_size"),
        ({"model_path": 3}, "model_path"),
        ({"device": "gpu:7"}, "device must be"),
    ],
)
def test_bad_parameters_raise(embedder, params, match):
    with pytest.raises(ValueError, match=match):
        embedder.set_params(**params).fit(_windows())


@pytest.mark.parametrize(
    "kind, hub_id",
    [
        (ChronosEmbedder, "amazon/chronos-2"),
        (MomentEmbedder, "AutonLab/MOMENT-1-large"),
        (TimesFMEmbedder, "google/timesfm-2.5-200m-pytorch"),
        (MoiraiEmbedder, "Salesforce/moirai-1.1-R-small"),
    ],
)
def test_missing_weights_say_where_to_put_them(kind, hub_id, tmp_path):
    pytest.importorskip(
        {
            ChronosEmbedder: "chronos",
            MomentEmbedder: "transformers",
            TimesFMEmbedder: "timesfm",
            MoiraiEmbedder: "safetensors",
        }[kind]
    )
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError) as info:
        kind(missing).fit(_windows())
    message = str(info.value)
    assert str(missing) in message and "does not exist" in message
    assert f"huggingface-cli download {hub_id}" in message and "pass its path as model_path" in message
    with pytest.raises(FileNotFoundError, match="holds no config.json"):
        kind(tmp_path).fit(_windows())


def test_a_folder_of_the_other_model_is_refused(chronos_path, moment_path, timesfm_path):
    with pytest.raises(ValueError, match="not Chronos-2"):
        ChronosEmbedder(moment_path).fit(_windows())
    with pytest.raises(ValueError, match="holds no MOMENT model"):
        MomentEmbedder(chronos_path).fit(_windows())
    with pytest.raises(ValueError, match="holds no TimesFM-2.5 weights"):
        TimesFMEmbedder(moment_path).fit(_windows())
    with pytest.raises(ValueError, match="holds no Moirai model"):
        MoiraiEmbedder(moment_path).fit(_windows())


@pytest.mark.parametrize(
    "kind, module, extra",
    [
        (ChronosEmbedder, "chronos", "chronos"),
        (MomentEmbedder, "transformers", "moment"),
        (TimesFMEmbedder, "timesfm", "timesfm"),
        (MoiraiEmbedder, "safetensors", "moirai"),
    ],
)
def test_missing_library_names_the_extra(kind, module, extra, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ImportError
    with pytest.raises(ImportError, match=rf"pip install 'hepa-sklearn\[{extra}\]'"):
        kind(tmp_path).fit(_windows())


def test_clone_get_params_and_pickle(embedder):
    params = embedder.get_params()
    assert set(params) == {"model_path", "channel_pooling", "batch_size", "device"}
    copy = clone(embedder)
    assert copy.get_params() == params and not hasattr(copy, "model_")
    X = _windows()
    fitted = embedder.fit(X)
    assert not hasattr(clone(fitted), "model_")
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(fitted)).transform(X), fitted.transform(X))


def test_in_a_pipeline_with_the_event_predictor(embedder, tiny_event_params):
    rng = np.random.default_rng(1)
    X = _windows(n=24, seed=1)
    y = make_survival_y(rng.random(24) < 0.6, rng.integers(1, 15, 24))
    pipe = make_pipeline(embedder, HEPAEventPredictor(**tiny_event_params)).fit(X, y)
    P = pipe.predict_proba(X)
    assert P.shape == (24, tiny_event_params["K"])
    assert (np.diff(P, axis=1) >= 0).all()
    assert np.isfinite(pipe.score(X, y))


# -- Chronos-2 ----------------------------------------------------------------------------------


def test_chronos_pools_the_context_patches_the_model_returns(chronos_path):
    """One channel's embedding is the mean of Chronos-2's own outputs over its observed context patches."""
    from chronos import Chronos2Pipeline

    series = np.random.default_rng(3).normal(size=30).astype(np.float32)
    # 2 steps of padding make 4 patches of 8: steps -2..5, 6..13, 14..21, 22..29; the first
    # holds no observation, the second holds steps 11..13
    series[:11] = np.nan
    embedder = ChronosEmbedder(chronos_path, device="cpu").fit(series[None, None])
    outputs, _ = Chronos2Pipeline.from_pretrained(str(chronos_path)).embed(series[None, None])
    tokens = outputs[0][0]  # (4 context patches + [REG] + output patch, d)
    assert tokens.shape == (6, D_MODEL)
    expected = tokens[1:4].mean(dim=0).numpy()
    np.testing.assert_allclose(embedder.transform(series[None, None])[0], expected, rtol=1e-5, atol=1e-7)


def test_chronos_reads_the_last_context_length_steps(chronos_path):
    X = _windows(L=100)
    embedder = ChronosEmbedder(chronos_path, device="cpu").fit(X)
    assert embedder.context_length_ == 64
    np.testing.assert_allclose(embedder.transform(X), embedder.transform(X[:, :, -64:]), atol=1e-6)


# -- MOMENT -----------------------------------------------------------------------------------


def test_moment_matches_the_momentfm_package(moment_path):
    """The embeddings equal those of momentfm's MOMENT on the same checkpoint, pooled the same way."""
    momentfm = pytest.importorskip("momentfm", reason="the reference implementation, momentfm, is not installed")
    X = _windows(C=1, L=50)
    X[1, 0, 20:23] = np.nan  # an interior gap
    ours = MomentEmbedder(moment_path, device="cpu").fit(X).transform(X)

    reference = momentfm.MOMENTPipeline.from_pretrained(
        str(moment_path), model_kwargs={"enable_gradient_checkpointing": False}, strict=True
    ).eval()
    padded = np.full((len(X), MOMENT_SEQ_LEN), np.nan, dtype=np.float32)
    padded[:, -50:] = X[:, 0]
    mask = torch.from_numpy(~np.isnan(padded)).float()
    with torch.no_grad():
        out = reference.embed(
            x_enc=torch.from_numpy(np.nan_to_num(padded))[:, None], input_mask=mask, reduction="none"
        ).embeddings[:, 0]  # (n, patches, d)
    full = mask.unfold(-1, PATCH, PATCH).all(dim=-1).float()[..., None]
    expected = ((out * full).sum(dim=1) / full.sum(dim=1)).numpy()
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)


def test_moment_reads_a_checkpoint_written_by_momentfm(tmp_path):
    momentfm = pytest.importorskip("momentfm", reason="the reference implementation, momentfm, is not installed")
    torch.manual_seed(1)
    model = momentfm.MOMENTPipeline(config=_moment_config(), model_kwargs={}).eval()
    model.save_pretrained(tmp_path)
    X = _windows(C=1, L=48)
    ours = MomentEmbedder(tmp_path, device="cpu").fit(X).transform(X)
    padded = np.full((len(X), MOMENT_SEQ_LEN), np.nan, dtype=np.float32)
    padded[:, -48:] = X[:, 0]
    mask = torch.from_numpy(~np.isnan(padded)).float()
    with torch.no_grad():
        out = model.embed(x_enc=torch.from_numpy(np.nan_to_num(padded))[:, None], input_mask=mask, reduction="none")
    full = mask.unfold(-1, PATCH, PATCH).all(dim=-1).float()[..., None]
    expected = ((out.embeddings[:, 0] * full).sum(dim=1) / full.sum(dim=1)).numpy()
    np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-6)


def test_moment_position_table_when_the_checkpoint_has_none(moment_path, tmp_path):
    X = _windows()
    stored = MomentEmbedder(moment_path, device="cpu").fit(X).transform(X)
    computed = MomentEmbedder(write_moment_checkpoint(tmp_path, positions=False), device="cpu").fit(X).transform(X)
    np.testing.assert_allclose(computed, stored, rtol=1e-5, atol=1e-6)


def test_moment_reads_the_last_seq_len_steps(moment_path):
    X = _windows(L=150)
    embedder = MomentEmbedder(moment_path, device="cpu").fit(X)
    assert embedder.seq_len_ == MOMENT_SEQ_LEN
    np.testing.assert_array_equal(embedder.transform(X), embedder.transform(X[:, :, -MOMENT_SEQ_LEN:]))


def test_moment_needs_a_fully_observed_patch(moment_path):
    X = _windows()
    embedder = MomentEmbedder(moment_path, device="cpu").fit(X)
    gappy = X.copy()
    gappy[3, :, ::4] = np.nan  # every patch of window 3 misses a step, in every channel
    with pytest.raises(ValueError, match=r"1 window\(s\) of X \(first at index 3\).*fully observed patch of 8 steps"):
        embedder.transform(gappy)
    gappy[3, 0] = X[3, 0]  # one complete channel is enough
    assert np.isfinite(embedder.transform(gappy)).all()


def test_moment_refuses_unsupported_checkpoints(tmp_path):
    pytest.importorskip("transformers")
    folder = write_moment_checkpoint(tmp_path / "affine", revin_affine=True)
    with pytest.raises(ValueError, match="revin_affine=False"):
        MomentEmbedder(folder).fit(_windows())
    folder = write_moment_checkpoint(tmp_path / "bad")
    config = json.loads((folder / "config.json").read_text())
    config["t5_config"]["d_model"] = 32  # the stored tensors are 16 wide
    (folder / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match="do not fit the MOMENT architecture"):
        MomentEmbedder(folder).fit(_windows())
    (folder / "model.safetensors").unlink()
    with pytest.raises(FileNotFoundError, match="no model.safetensors"):
        MomentEmbedder(folder).fit(_windows())


# -- TimesFM-2.5 ----------------------------------------------------------------------------------


def test_timesfm_embeds_as_its_own_forecasting_normalises(tmp_path):
    """One channel: leading NaN dropped, interior NaN interpolated, patches normalised by the running statistics."""
    pytest.importorskip("timesfm")
    from timesfm.torch.util import revin

    folder, module = write_timesfm_checkpoint(tmp_path / "timesfm")
    series = np.random.default_rng(4).normal(loc=5.0, size=30).astype(np.float32)
    series[:11] = np.nan  # with 2 steps of padding: patches -2..5 (empty), 6..13, 14..21, 22..29
    series[17] = np.nan  # an interior gap, filled from steps 16 and 18
    embedder = TimesFMEmbedder(folder, device="cpu").fit(series[None, None])
    assert (embedder.embedding_dim_, embedder.patch_len_) == (D_MODEL, PATCH)
    filled = series.copy()
    filled[17] = (series[16] + series[18]) / 2
    values = np.concatenate([np.zeros(13, np.float32), filled[11:]]).reshape(1, 4, PATCH)
    masks = np.zeros((1, 4, PATCH), bool)
    masks[0, :1] = True
    masks[0, 1, :5] = True  # steps -2..10 are padding
    # the running mean and standard deviation of the observed steps up to each patch's end, by hand
    mu = np.zeros((1, 4), np.float32)
    sigma = np.zeros((1, 4), np.float32)
    for patch in range(1, 4):
        seen = values[0, : patch + 1][~masks[0, : patch + 1]]
        mu[0, patch], sigma[0, patch] = seen.mean(), seen.std()
    normed = revin(torch.from_numpy(values), torch.from_numpy(mu), torch.from_numpy(sigma))
    normed = torch.where(torch.from_numpy(masks), 0.0, normed)
    with torch.no_grad():
        (_, states, _, _), _ = module.eval()(normed, torch.from_numpy(masks))
    expected = states[0, 1:].mean(dim=0).numpy()  # the three patches that hold an observation
    np.testing.assert_allclose(embedder.transform(series[None, None])[0], expected, rtol=1e-4, atol=1e-5)


# -- Moirai ----------------------------------------------------------------------------------------


def test_moirai_gives_the_states_of_uni2ts_on_the_released_layout(moirai_path):
    """Token by token the encoder states equal uni2ts's own MoiraiModule's (stored), and the embedding is their mean."""
    import torch as th
    from safetensors.torch import load_file

    from hepa_sklearn.baselines._moirai import MoiraiEncoder

    stored = np.load(moirai_path / "reference.npz")
    series, states = stored["series"], stored["states"]  # 20 steps of padding, a gap at 37, steps 48..63 missing
    encoder = MoiraiEncoder(load_file(str(moirai_path / "model.safetensors")), [8, 16], 16).float().eval()
    values = th.from_numpy(series).reshape(1, 5, 16)
    real = th.tensor([[False, True, True, True, True]])  # from the first observed step (20) on
    with th.no_grad():
        mine = encoder(values, ~th.isnan(values), real, th.tensor([[0, 0, 1, 2, 3]]))[0].numpy()
    np.testing.assert_allclose(mine, states, rtol=1e-4, atol=1e-5)
    embedder = MoiraiEmbedder(moirai_path, device="cpu").fit(series[None, None])
    # the mean over the patches that hold an observation: not the padding, not the missing 48..63
    np.testing.assert_allclose(
        embedder.transform(series[None, None])[0], states[[1, 2, 4]].mean(axis=0), rtol=1e-4, atol=1e-5
    )
