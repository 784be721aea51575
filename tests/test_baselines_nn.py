"""Tests for the paper's neural baselines (matched head, MAE, PatchTST, iTransformer) and HEPA's channel tokens."""

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GroupKFold, cross_val_score
from sklearn.pipeline import make_pipeline

from hepa_sklearn import HEPAPretrainer, h_auroc_scorer
from hepa_sklearn.baselines import (
    ITransformerEncoder,
    MAEPretrainer,
    MatchedHeadPredictor,
    PatchTSTEncoder,
    matched_head_parameter_count,
)
from hepa_sklearn.export import export_torchscript
from hepa_sklearn.nn import ChannelPatchEncoder, EncoderConfig, PatchEncoder, last_valid_state, make_encoder
from hepa_sklearn.nn.baselines import MaskedAutoencoder, MatchedHead, PatchTSTBackbone, pool_channels
from hepa_sklearn.persistence import load, save
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training._criteria import ReconstructionLoss
from hepa_sklearn.training._sampling import PatchMaskSampler

RNG = np.random.default_rng(5)
X = RNG.normal(size=(40, 3, 48)).astype(np.float32)
X[::4, :, :12] = np.nan
Y = make_survival_y(RNG.random(40) < 0.8, RNG.integers(1, 15, 40))

ENCODER = dict(d_model=16, n_heads=2, n_layers=1, max_epochs=1, batch_size=16, random_state=0)
SUPERVISED = dict(ENCODER, K=10, hidden=16)
HEAD = dict(K=10, hidden=16, max_epochs=2, batch_size=16, random_state=0)
CHANNEL_PRETRAINER = dict(
    d_model=16,
    n_heads=2,
    n_layers=1,
    K=16,
    max_epochs=1,
    batch_size=16,
    random_state=0,
    tokens="channel",
    norm="revin",
    regimes=None,
    window_level=False,  # the embedding alone
)
CONFIG = dict(d_model=16, n_layers=1, n_heads=2, patch_size=4, dropout=0.0)


def fit_encoder(kind, **params):
    if kind == "mae":
        return MAEPretrainer(**{**ENCODER, **params}).fit(X)
    if kind == "channel-hepa":
        return HEPAPretrainer(**{**CHANNEL_PRETRAINER, **params}).fit(X)
    cls = PatchTSTEncoder if kind == "patchtst" else ITransformerEncoder
    return cls(**{**SUPERVISED, **params}).fit(X, Y)


ENCODERS = ["mae", "patchtst", "itransformer", "channel-hepa"]


@pytest.fixture(scope="module")
def fitted():
    """One fitted encoder of each kind, and a matched head on the MAE embeddings."""
    encoders = {kind: fit_encoder(kind) for kind in ENCODERS}
    head = MatchedHeadPredictor(**HEAD).fit(encoders["mae"].transform(X), Y)
    return {**encoders, "head": head}


# -- the matched head ------------------------------------------------------------


def test_parameter_count_at_the_papers_size():
    # (256 + 1) 256 + 256 * 256 + 2 * 256 + 2 * 257 * 256 + 256 + 1 = 263,681: the paper's "264K"
    assert matched_head_parameter_count(256, 150) == 263_681
    head = MatchedHead(256, 150, hidden=256, horizon_rows=256)
    assert sum(p.numel() for p in head.parameters()) == 263_681
    # a table of exactly K = 150 rows holds 106 x 256 fewer
    assert sum(p.numel() for p in MatchedHead(256, 150).parameters()) == 263_681 - 106 * 256


def test_fitted_head_has_the_formula_count(fitted):
    head = fitted["head"]
    n_params = sum(p.numel() for p in head.net_.module_.parameters())
    assert n_params == matched_head_parameter_count(16, 10, hidden=16, horizon_rows=256)


def test_horizon_k_reads_row_k_minus_1_and_later_rows_are_unused():
    torch.manual_seed(0)
    head = MatchedHead(4, 6, hidden=8, horizon_rows=10).eval()
    E = torch.randn(5, 4)
    with torch.no_grad():
        head.horizon_embedding.weight[4] = head.horizon_embedding.weight[1]
        before = head(E)
        head.horizon_embedding.weight[6:] = 100.0
        after = head(E)
    assert before.shape == (5, 6)
    torch.testing.assert_close(before[:, 4], before[:, 1], rtol=0, atol=0)
    assert not torch.allclose(before[:, 2], before[:, 1])
    torch.testing.assert_close(after, before, rtol=0, atol=0)


def test_head_surface_is_monotone_probabilities(fitted):
    P = fitted["head"].predict_proba(fitted["mae"].transform(X))
    assert P.shape == (40, 10) and P.dtype == np.float64
    assert ((P >= 0) & (P <= 1)).all()
    assert (np.diff(P, axis=1) >= 0).all()
    np.testing.assert_array_equal(fitted["head"].horizons_, np.arange(1, 11))


def test_head_fits_any_embeddings_and_learns_a_ranking():
    rng = np.random.default_rng(0)
    time = rng.integers(1, 20, 200)
    E = np.c_[time / 10.0, rng.normal(size=(200, 3))].astype(np.float32)  # column 0 carries the time
    model = MatchedHeadPredictor(K=10, hidden=16, max_epochs=30, early_stopping=False, random_state=0)
    model.fit(E, make_survival_y(np.ones(200, bool), time))
    assert model.score(E, make_survival_y(np.ones(200, bool), time)) > 0.8  # chance: 0.5


def test_head_table_smaller_than_K_is_refused():
    with pytest.raises(ValueError, match="horizon_rows=8 is smaller than K=10"):
        MatchedHeadPredictor(**{**HEAD, "horizon_rows": 8}).fit(X[:, 0], Y)
    assert (
        MatchedHeadPredictor(**{**HEAD, "horizon_rows": None})
        .fit(X[:, 0, -8:], Y)
        .net_.module_.horizon_embedding.num_embeddings
        == 10
    )


# -- masked-patch pretraining ------------------------------------------------------


def test_mask_sampler_masks_only_observed_tokens_in_the_given_ratio():
    # L = 10, P = 4: padded to 12 steps, tokens over padded steps 0-3, 4-7, 8-11
    windows = torch.zeros(3, 2, 10)
    windows[1, :, :7] = float("nan")  # observed steps 7-9: padded 9-11, token 2 only
    windows[2, 0, :] = float("nan")  # channel 1 alone is observed: all three tokens
    batch = [(windows[i], i, i) for i in range(3)]
    inputs, _ = PatchMaskSampler(4, 0.5, seed=0, fixed=True)(batch)
    mask = inputs["mask"].numpy()
    assert mask.shape == (3, 3)
    # three valid tokens: round(1.5) = 2 masked; one valid token: at least 1
    assert mask.sum(axis=1).tolist() == [2, 1, 2]
    assert mask[1].tolist() == [False, False, True]
    again, _ = PatchMaskSampler(4, 0.5, seed=0, fixed=True)(batch)
    np.testing.assert_array_equal(again["mask"].numpy(), mask)


@settings(max_examples=30, deadline=None)
@given(
    length=st.integers(1, 40),
    patch_size=st.integers(1, 8),
    ratio=st.floats(0.01, 1.0),
    starts=st.lists(st.integers(0, 39), min_size=1, max_size=5),
    seed=st.integers(0, 1000),
)
def test_mask_sampler_property(length, patch_size, ratio, starts, seed):
    # any left padding: every masked token holds an observation, and the count follows the ratio
    windows = torch.ones(len(starts), 2, length)
    for row, start in enumerate(starts):
        windows[row, :, : min(start, length - 1)] = float("nan")
    inputs, _ = PatchMaskSampler(patch_size, ratio, seed)([(w, i, i) for i, w in enumerate(windows)])
    mask = inputs["mask"].numpy()
    observed = np.pad(~np.isnan(windows[:, 0].numpy()), ((0, 0), ((-length) % patch_size, 0)))
    valid = observed.reshape(len(starts), -1, patch_size).any(axis=2)
    assert mask.shape == valid.shape
    assert not (mask & ~valid).any()
    n_valid = valid.sum(axis=1)
    expected = np.minimum(n_valid, np.maximum(1, np.round(ratio * n_valid)))
    np.testing.assert_array_equal(mask.sum(axis=1), expected)


def test_reconstruction_counts_only_masked_observed_values():
    torch.manual_seed(0)
    config = EncoderConfig(n_channels=2, norm="none", **CONFIG)
    model = MaskedAutoencoder(config).eval()
    x = torch.arange(16.0).view(1, 2, 8)
    x[0, 0, 5] = float("nan")
    mask = torch.tensor([[False, True]])
    reconstruction, target, weight = model(x, mask)
    assert reconstruction.shape == target.shape == weight.shape == (1, 2, 8)
    # token 1 holds steps 4-7 of both channels (channel-major), one value missing
    assert weight[0, 0].sum() == 0
    assert weight[0, 1].tolist() == [1, 0, 1, 1, 1, 1, 1, 1]
    # unmasked, observed values: the target is the value itself (norm="none")
    assert target[0, 1].tolist() == [4, 4, 6, 7, 12, 13, 14, 15]  # the missing step forward-filled
    expected = ((reconstruction - target).square() * weight).sum() / 7
    torch.testing.assert_close(ReconstructionLoss()((reconstruction, target, weight)), expected)


def test_mask_token_replaces_the_masked_tokens_only():
    torch.manual_seed(0)
    encoder = PatchEncoder(EncoderConfig(n_channels=2, norm="none", **CONFIG)).eval()
    x = torch.randn(2, 2, 12)
    token = torch.randn(16)
    plain = encoder(x)[0]
    none_masked = encoder(x, replace_tokens=(torch.zeros(2, 3, dtype=torch.bool), token))[0]
    torch.testing.assert_close(none_masked, plain, rtol=0, atol=0)
    mask = torch.tensor([[False, True, False], [False, False, False]])
    masked = encoder(x, replace_tokens=(mask, token))[0]
    torch.testing.assert_close(masked[0, 0], plain[0, 0], rtol=0, atol=0)  # causal: the past is untouched
    assert not torch.allclose(masked[0, 1], plain[0, 1])
    torch.testing.assert_close(masked[1], plain[1], rtol=0, atol=0)


def test_mae_learns_to_reconstruct():
    rng = np.random.default_rng(0)
    steps = np.arange(48)
    phase = rng.uniform(0, 2 * np.pi, size=(64, 1, 1))
    smooth = np.sin(steps / 4 + phase).repeat(2, axis=1).astype(np.float32)
    model = MAEPretrainer(**{**ENCODER, "max_epochs": 15, "early_stopping": False, "lr": 3e-3}).fit(smooth)
    losses = model.history_[:, "train_loss"]
    assert losses[-1] < 0.8 * losses[0]


@pytest.mark.parametrize("kind", ["mae", "channel-hepa"])
def test_causal_embeddings_ignore_steps_after_the_window_end(kind):
    # norm="global" fixes the normalisation, so the state at step t depends on steps <= t alone
    model = fit_encoder(kind, norm="global")
    t = 32  # a patch boundary of the 48-step windows (patches of 16 steps end at steps 15, 31, 47)
    future_hidden = X.copy()
    future_hidden[:, :, t:] = np.nan
    future_changed = X.copy()
    future_changed[:, :, t:] = RNG.normal(size=(40, 3, 48 - t)) * 100
    future_changed[::4, :, :12] = np.nan
    truncated = future_hidden[:, :, :32]  # the same observations, ending on a patch boundary
    np.testing.assert_allclose(model.transform(future_hidden), model.transform(truncated), atol=2e-5)
    with torch.no_grad():
        states, *_ = model.encoder_(torch.as_tensor(X), causal=True, drop_empty=False)
        changed, *_ = model.encoder_(torch.as_tensor(future_changed), causal=True, drop_empty=False)
    # tokens 0 and 1 end before t: untouched by the changed future
    torch.testing.assert_close(states[:, :2], changed[:, :2], rtol=0, atol=2e-5)
    assert not torch.allclose(states[:, 2], changed[:, 2])


def test_mae_transform_is_the_last_valid_state_of_the_unmasked_encoder(fitted):
    model = fitted["mae"]
    with torch.no_grad():
        states, valid, *_ = model.encoder_(torch.as_tensor(X), causal=True)
        expected = last_valid_state(states, valid).numpy()
    np.testing.assert_allclose(model.transform(X), expected, atol=1e-6)


# -- PatchTST and iTransformer -------------------------------------------------------


@pytest.mark.parametrize(
    "length, starts",
    [(10, [0, 3, 6]), (11, [-2, 1, 4, 7]), (3, [-1])],  # the last patch always ends on the last step
)
def test_patchtst_patches_are_right_aligned_with_the_stride(length, starts):
    config = EncoderConfig(n_channels=1, norm="none", **CONFIG)
    backbone = PatchTSTBackbone(config, patch_stride=3)
    x = torch.arange(1.0, length + 1).view(1, 1, length)
    patches, valid = backbone.patches(x)
    expected = [[float(s + i + 1) if s + i >= 0 else 0.0 for i in range(4)] for s in starts]
    assert patches[0, 0].tolist() == expected
    assert valid[0, 0].tolist() == [True] * len(starts)


def test_patchtst_channels_are_independent_until_pooled():
    torch.manual_seed(0)
    backbone = PatchTSTBackbone(EncoderConfig(n_channels=3, **CONFIG), patch_stride=2).eval()
    x = torch.randn(2, 3, 20)
    changed = x.clone()
    changed[:, 1] = torch.randn(2, 20)
    states, valid = backbone(x)
    states_changed, _ = backbone(changed)
    assert states.shape == (2, 3, 16) and valid.all()
    torch.testing.assert_close(states[:, [0, 2]], states_changed[:, [0, 2]], rtol=0, atol=0)
    assert not torch.allclose(states[:, 1], states_changed[:, 1])


@settings(max_examples=25, deadline=None)
@given(pads=st.lists(st.integers(0, 30), min_size=3, max_size=3), gap=st.integers(0, 6), seed=st.integers(0, 100))
def test_patchtst_on_padded_windows_computes_only_valid_tokens_and_matches_the_dense_pass(pads, gap, seed):
    torch.manual_seed(seed)
    backbone = PatchTSTBackbone(EncoderConfig(n_channels=2, **CONFIG), patch_stride=2).eval()
    x = torch.randn(3, 2, 30)
    for i, pad in enumerate(pads):
        x[i, :, :pad] = float("nan")  # left padding, as windows early in a unit's life
    x[0, 1, 10 : 10 + gap] = float("nan")  # a gap inside one channel
    states, valid = backbone(x)
    torch.testing.assert_close(states, backbone(x, pack=False)[0], rtol=1e-5, atol=1e-5)
    assert valid.tolist() == [[pad < 30, pad < 30] for pad in pads]
    assert states[valid.logical_not()].abs().sum() == 0  # a stream without observation gives zeros


def test_patchtst_packed_pass_has_the_gradients_of_the_dense_pass():
    torch.manual_seed(0)
    backbone = PatchTSTBackbone(EncoderConfig(n_channels=3, **CONFIG), patch_stride=4)
    x = torch.randn(4, 3, 24)
    x[1, :, :10] = float("nan")
    x[2, 0] = float("nan")
    gradients = []
    for pack in (True, False):
        backbone.zero_grad()
        backbone(x, pack=pack)[0].square().sum().backward()
        gradients.append([p.grad.clone() for p in backbone.parameters()])
    for packed, dense in zip(*gradients, strict=True):
        torch.testing.assert_close(packed, dense, rtol=1e-4, atol=1e-5)


def test_pool_channels_by_hand():
    states = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]])
    valid = torch.tensor([[True, False, True]])
    assert pool_channels(states, valid, "mean").tolist() == [[3.0, 4.0]]
    assert pool_channels(states, valid, "concat").tolist() == [[1.0, 2.0, 0.0, 0.0, 5.0, 6.0]]
    with pytest.raises(ValueError, match="channel pooling"):
        pool_channels(states, valid, "max")


@pytest.mark.parametrize("kind", ["patchtst", "itransformer"])
@pytest.mark.parametrize("pooling, width", [("mean", 16), ("concat", 48)])
def test_supervised_encoders_shapes_and_surface(kind, pooling, width):
    model = fit_encoder(kind, channel_pooling=pooling)
    E = model.transform(X)
    assert E.shape == (40, width) and E.dtype == np.float32
    assert model.get_feature_names_out().shape == (width,)
    P = model.predict_proba(X)
    assert P.shape == (40, 10)
    assert (np.diff(P, axis=1) >= 0).all()
    assert model.net_.module_.head.input.in_features == width


@pytest.mark.parametrize("kind", ["patchtst", "itransformer"])
def test_bidirectional_encoders_read_their_whole_window_and_nothing_else(fitted, kind):
    # Attention is bidirectional inside the window, so the embedding depends on every
    # step, the earliest included; it reads no other window and nothing after the end.
    model = fitted[kind]
    E = model.transform(X)
    np.testing.assert_allclose(model.transform(X[5:12]), E[5:12], atol=1e-5)
    changed = X.copy()
    changed[1, :, 0] += 5.0  # the first step of window 1
    E_changed = model.transform(changed)
    assert not np.allclose(E_changed[1], E[1])
    np.testing.assert_array_equal(np.delete(E_changed, 1, axis=0), np.delete(E, 1, axis=0))


def test_itransformer_masks_a_channel_without_observations(fitted):
    model = fitted["itransformer"]
    a, b = X[1:2].copy(), X[1:2].copy()
    a[0, 2] = np.nan
    b[0, 2] = np.nan
    b[0, 2, 0] = 0.0  # one observation turns the channel's token on
    assert np.isfinite(model.transform(a)).all()
    assert not np.allclose(model.transform(a), model.transform(b))


def test_itransformer_needs_the_fitted_window_length(fitted):
    with pytest.raises(ValueError, match="windows of 40 steps, but ITransformerEncoder was fitted on 48"):
        fitted["itransformer"].transform(X[:, :, 8:])
    assert fitted["patchtst"].transform(X[:, :, 8:]).shape == (40, 16)  # patches work at any length


# -- the estimator contract --------------------------------------------------------


@pytest.mark.parametrize("kind", ENCODERS)
def test_reproducible_with_random_state(fitted, kind):
    again = fit_encoder(kind)
    np.testing.assert_array_equal(again.transform(X), fitted[kind].transform(X))
    other = fit_encoder(kind, random_state=1)
    assert not np.allclose(other.transform(X), fitted[kind].transform(X))


def test_head_reproducible_with_random_state(fitted):
    E = fitted["mae"].transform(X)
    again = MatchedHeadPredictor(**HEAD).fit(E, Y)
    np.testing.assert_array_equal(again.predict_proba(E), fitted["head"].predict_proba(E))


@pytest.mark.parametrize("kind", [*ENCODERS, "head"])
def test_persistence_round_trip(fitted, kind, tmp_path):
    model = fitted[kind]
    save(model, tmp_path / "model.pt")
    loaded = load(tmp_path / "model.pt")
    assert type(loaded) is type(model) and loaded is not model
    assert loaded.get_params() == {**model.get_params(), "device": "cpu"}
    if kind == "head":
        E = fitted["mae"].transform(X)
        np.testing.assert_array_equal(loaded.predict_proba(E), model.predict_proba(E))
    else:
        np.testing.assert_array_equal(loaded.transform(X), model.transform(X))
    if kind in ("patchtst", "itransformer"):
        np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
        assert loaded.pos_weight_ == model.pos_weight_


@pytest.mark.parametrize(
    "estimator",
    [
        MAEPretrainer(**ENCODER, mask_ratio=0.6, norm="global"),
        PatchTSTEncoder(**SUPERVISED, patch_stride=4, channel_pooling="concat"),
        ITransformerEncoder(**SUPERVISED, norm="none"),
        MatchedHeadPredictor(**HEAD, horizon_rows=None, pos_weight=2.0),
        HEPAPretrainer(**CHANNEL_PRETRAINER),
    ],
    ids=["mae", "patchtst", "itransformer", "head", "channel-hepa"],
)
def test_clone_keeps_params_and_unfits(estimator):
    copy = clone(estimator)
    assert copy.get_params() == estimator.get_params()
    assert not hasattr(copy, "net_")
    with pytest.raises(NotFittedError):
        copy.transform(X) if hasattr(copy, "transform") else copy.predict_proba(X[:, 0])


@pytest.mark.parametrize(
    "estimator, message",
    [
        (MAEPretrainer(mask_ratio=0.0), "mask_ratio"),
        (MAEPretrainer(d_model=15, n_heads=2), "divisible by n_heads"),
        (PatchTSTEncoder(patch_stride=0), "patch_stride"),
        (PatchTSTEncoder(channel_pooling="max"), "channel_pooling"),
        (ITransformerEncoder(norm="batch"), "norm"),
        (ITransformerEncoder(K=300), "horizon_rows=256 is smaller than K=300"),
        (HEPAPretrainer(tokens="variate"), "tokens"),
        (PatchTSTEncoder(d_model=15, n_heads=2), "divisible by n_heads"),
        (ITransformerEncoder(d_model=15, n_heads=2), "divisible by n_heads"),
        (PatchTSTEncoder(max_epochs=0), "max_epochs"),
        (ITransformerEncoder(max_epochs=0), "max_epochs"),
        (MatchedHeadPredictor(max_epochs=0), "max_epochs"),
        (MAEPretrainer(max_epochs=-1), "max_epochs"),
    ],
)
def test_bad_parameters_are_named(estimator, message):
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, Y)


@pytest.mark.parametrize("estimator", [MAEPretrainer, PatchTSTEncoder, ITransformerEncoder])
def test_encoders_share_the_encoder_parameters(estimator):
    params = estimator().get_params()
    assert {"d_model", "n_layers", "n_heads", "dropout", "norm"} <= set(params)
    assert not {"dim_feedforward", "distributed"} & set(params)
    assert set(estimator._parameter_constraints) == set(params)


def test_bad_input_is_refused(fitted):
    with pytest.raises(ValueError, match="y is required"):
        PatchTSTEncoder(**SUPERVISED).fit(X, None)
    with pytest.raises(ValueError, match="X has 2 channels"):
        fitted["patchtst"].transform(X[:, :2])
    with pytest.raises(ValueError, match="E has 15 features"):
        fitted["head"].predict_proba(np.zeros((3, 15), np.float32))
    with pytest.raises(ValueError, match="E contains NaN"):
        MatchedHeadPredictor(**HEAD).fit(X[:, 0], Y)
    with pytest.raises(ValueError, match="infinite"):
        MAEPretrainer(**ENCODER).fit(np.full((4, 2, 16), np.inf, np.float32))


@pytest.mark.parametrize("first", ["mae", "patchtst", "itransformer"])
def test_pipeline_with_the_matched_head_cross_validates(fd001_subset, first):
    X_units, y_units, groups = fd001_subset
    encoder = {
        "mae": MAEPretrainer(**ENCODER, norm="global"),
        "patchtst": PatchTSTEncoder(**SUPERVISED, norm="global"),
        "itransformer": ITransformerEncoder(**SUPERVISED, norm="global"),
    }[first]
    pipe = make_pipeline(encoder, MatchedHeadPredictor(**HEAD))
    scores = cross_val_score(
        pipe, X_units, y_units, groups=groups, cv=GroupKFold(2), scoring=h_auroc_scorer, error_score="raise"
    )
    assert scores.shape == (2,) and np.isfinite(scores).all()


# -- HEPA with channel tokens ----------------------------------------------------


def test_patch_tokens_stay_the_default():
    assert HEPAPretrainer().tokens == "patch"
    config = EncoderConfig(n_channels=3, **CONFIG)
    assert config.tokens == "patch"
    encoder = make_encoder(config)
    assert type(encoder) is PatchEncoder
    assert encoder.projection.in_features == 4 * 3
    assert not any("channel_embedding" in name for name in encoder.state_dict())


def test_unknown_tokens_are_refused():
    with pytest.raises(ValueError, match="tokens must be one of"):
        make_encoder(EncoderConfig(n_channels=3, tokens="variate", **CONFIG))


@pytest.mark.parametrize("causal", [True, False])
def test_one_channel_stream_equals_the_patch_encoder(causal):
    # with one channel and a zero channel embedding, both encoders compute the same tokens
    torch.manual_seed(0)
    patch = PatchEncoder(EncoderConfig(n_channels=1, **CONFIG)).eval()
    channel = ChannelPatchEncoder(EncoderConfig(n_channels=1, tokens="channel", **CONFIG)).eval()
    channel.load_state_dict({**patch.state_dict(), "channel_embedding": torch.zeros(1, 16)})
    x = torch.randn(3, 1, 22)
    x[0, 0, :9] = float("nan")
    expected, valid, first, *_ = patch(x, causal=causal)
    states, channel_valid, channel_first, *_ = channel(x, causal=causal)
    assert first == channel_first and torch.equal(valid, channel_valid)
    torch.testing.assert_close(states[valid], expected[valid], rtol=1e-5, atol=1e-5)


def test_channel_streams_are_causal_and_fused_per_patch():
    torch.manual_seed(0)
    encoder = ChannelPatchEncoder(EncoderConfig(n_channels=3, tokens="channel", norm="global", **CONFIG)).eval()
    assert encoder.projection.in_features == 4
    x = torch.randn(2, 3, 16)
    future = x.clone()
    future[:, 1, 8:] += 10.0
    past = x.clone()
    past[:, 1, 1] += 10.0
    states = encoder(x)[0]
    torch.testing.assert_close(encoder(future)[0][:, :2], states[:, :2], rtol=0, atol=0)
    assert not torch.allclose(encoder(future)[0][:, 2], states[:, 2])
    assert not torch.allclose(encoder(past)[0][:, 0], states[:, 0])  # channel 1 reaches the fused state


def test_channel_token_pretrainer_has_one_stream_per_channel(fitted):
    model = fitted["channel-hepa"]
    assert type(model.encoder_) is ChannelPatchEncoder
    assert model.encoder_.channel_embedding.shape == (3, 16)
    assert model.transform(X).shape == (40, 16)
    assert np.isfinite(model.history_[:, "train_loss"]).all()


def test_channel_token_pretrainer_exports_to_torchscript(fitted, tmp_path):
    model = fitted["channel-hepa"]
    export_torchscript(model, tmp_path / "encoder.pt", X[:4])
    with warnings.catch_warnings():  # torch's own deprecation notice, not the package's behaviour
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.load` is deprecated")
        graph = torch.jit.load(tmp_path / "encoder.pt")
    with torch.no_grad():
        exported = graph(torch.as_tensor(X)).numpy()
    np.testing.assert_allclose(exported, model.transform(X), atol=1e-5)
