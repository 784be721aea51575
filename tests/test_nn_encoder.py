import numpy as np
import pytest
import torch

from hepa_sklearn.nn import JEPA, AttentionPooling, EncoderConfig, PatchEncoder, last_valid_state, pool_in_groups
from hepa_sklearn.nn.encoder import attention_mask, forward_fill, running_max, sinusoidal_positions
from hepa_sklearn.nn.packed import PackedLayout

TINY = dict(n_channels=3, d_model=16, n_layers=2, n_heads=2, patch_size=4, dropout=0.0)


def encoder(norm="global", seed=0):
    torch.manual_seed(seed)
    return PatchEncoder(EncoderConfig(norm=norm, **TINY)).eval()


def windows(B=5, L=32, seed=0):
    return torch.as_tensor(np.random.default_rng(seed).normal(size=(B, 3, L)).astype("float32"))


def test_forward_fill_carries_last_observation_and_zero_before_first():
    x = torch.tensor([[float("nan"), 1.0, float("nan"), float("nan"), 4.0, float("nan")]])
    observed = ~torch.isnan(x)
    filled = forward_fill(torch.nan_to_num(x), observed)
    assert filled.tolist() == [[0.0, 1.0, 1.0, 1.0, 4.0, 4.0]]


def test_attention_mask_causal_and_padding():
    valid = torch.tensor([[False, True, True]])
    mask = attention_mask(valid, causal=True)[0, 0]
    expected = torch.tensor([[True, False, False], [False, True, False], [False, True, True]])
    assert torch.equal(mask, expected)
    bidirectional = attention_mask(valid, causal=False)[0, 0]
    assert torch.equal(bidirectional, torch.tensor([[True, True, True], [False, True, True], [False, True, True]]))


def test_sinusoidal_positions_values():
    encoding = sinusoidal_positions(torch.arange(3), 4)
    assert encoding.shape == (3, 4)
    assert torch.allclose(encoding[0], torch.tensor([0.0, 1.0, 0.0, 1.0]))
    assert torch.isclose(encoding[2, 0], torch.sin(torch.tensor(2.0)))
    assert torch.isclose(encoding[2, 3], torch.cos(torch.tensor(2.0 / 100.0)))


@pytest.mark.parametrize("cut_patch", [1, 3, 5])
def test_changing_the_future_never_changes_earlier_states(cut_patch):
    model = encoder("global")
    x = windows()
    P = TINY["patch_size"]
    changed = x.clone()
    changed[..., cut_patch * P :] = torch.randn_like(changed[..., cut_patch * P :]) * 10
    states, valid, first, *_ = model(x)
    states_changed, *_ = model(changed)
    assert first == 0
    assert torch.allclose(states[:, :cut_patch], states_changed[:, :cut_patch], atol=1e-6)
    assert not torch.allclose(states[:, cut_patch:], states_changed[:, cut_patch:])


@pytest.mark.parametrize("norm", ["revin", "global", "none"])
def test_context_state_ignores_steps_after_the_cut(norm):
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm=norm, **TINY), K=8).eval()
    x = windows()
    cut = torch.full((x.shape[0],), 16)
    changed = x.clone()
    changed[..., 16:] += 100.0
    h, has_context, *_ = model.context_state(x, cut)
    h_changed, *_ = model.context_state(changed, cut)
    assert has_context.all()
    assert torch.allclose(h, h_changed, atol=1e-6)


def test_padding_is_masked_not_read_as_zeros():
    model = encoder("none")
    x = windows(B=1)
    padded = x.clone()
    padded[..., :12] = float("nan")
    zeros = x.clone()
    zeros[..., :12] = 0.0
    h_padded = last_valid_state(*model(padded)[:2])
    h_zeros = last_valid_state(*model(zeros)[:2])
    assert torch.isfinite(h_padded).all()
    assert not torch.allclose(h_padded, h_zeros)
    _, valid, first, *_ = model(padded)
    assert first == 3 and valid.all()


def test_leading_empty_tokens_are_trimmed_without_changing_outputs():
    model = encoder("global")
    x = windows(B=4)
    x[:2, :, :8] = float("nan")  # two windows with two empty patches
    full_states, full_valid, first, *_ = model(x)
    assert first == 0
    assert not full_valid[:2, :2].any() and full_valid[2:].all()
    alone, _, first_alone, *_ = model(x[:2])
    assert first_alone == 2
    assert torch.allclose(full_states[:2, 2:], alone, atol=1e-5)


def test_keeping_empty_token_columns_changes_no_valid_state():
    x = windows(B=4, L=32)
    x[:, :, :13] = float("nan")  # the first three tokens are empty in every window
    with torch.no_grad():
        kept, kept_valid, first, *_ = encoder("revin")(x, drop_empty=False)
        trimmed, trimmed_valid, trimmed_first, *_ = encoder("revin")(x)
    assert (first, trimmed_first, kept.shape[1]) == (0, 3, 8)
    torch.testing.assert_close(
        last_valid_state(kept, kept_valid), last_valid_state(trimmed, trimmed_valid), rtol=0, atol=1e-6
    )


def test_running_max_while_exporting_to_onnx_equals_cummax(monkeypatch):
    values = torch.as_tensor(np.random.default_rng(0).integers(-1, 50, size=(3, 4, 37)))
    expected = values.cummax(dim=-1).values
    monkeypatch.setattr(torch.onnx, "is_in_onnx_export", lambda: True)
    assert torch.equal(running_max(values), expected)


def test_partially_missing_channel_is_forward_filled_and_finite():
    model = encoder("revin")
    x = windows(B=2)
    x[0, 1, 5:20] = float("nan")
    x[1, 2, :] = float("nan")  # a channel never observed in the window
    states, valid, *_ = model(x)
    assert torch.isfinite(states).all() and valid.all()


def test_window_length_not_multiple_of_patch_is_left_padded():
    model = encoder("global")
    x = windows(B=2, L=30)
    states, valid, first, *_ = model(x)
    assert states.shape == (2, 8, 16)
    assert first == 0 and valid.all()  # the first patch holds two observed steps


def _cuts_and_horizons(X, owner, rng, patch, max_horizon):
    first = (~torch.isnan(X)).any(1).int().argmax(1)[owner]
    L = X.shape[-1]
    cut = torch.tensor([int(rng.choice([c for c in range(patch, L, patch) if c > f])) for f in first.tolist()])
    dt = torch.tensor([int(rng.integers(1, min(max_horizon, L - c) + 1)) for c in cut.tolist()])
    return cut, dt


@pytest.mark.parametrize("norm", ["global", "none"])
def test_shared_context_pass_equals_one_masked_pass_per_cut(norm):
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm=norm, **TINY), K=20).eval()
    rng = np.random.default_rng(0)
    X = windows(B=10, L=64)
    for i in range(10):
        X[i, :, : rng.integers(0, 40)] = float("nan")
    X[3, 1, 50:55] = float("nan")
    owner = torch.as_tensor(rng.integers(0, 10, size=70))
    cut, _ = _cuts_and_horizons(X, owner, rng, 4, 20)
    with torch.no_grad():
        h_masked, has_masked, *_ = model.context_state(X[owner], cut)
        h_shared, has_shared, *_ = model.shared_context_state(X, owner, cut)
    assert torch.equal(has_masked, has_shared)
    assert torch.allclose(h_masked, h_shared, atol=1e-5)


def test_grouped_target_pass_equals_single_pass(monkeypatch):
    import hepa_sklearn.nn.encoder as encoder_module

    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm="global", **TINY), K=20).eval()
    rng = np.random.default_rng(1)
    X = windows(B=40, L=64)
    owner = torch.arange(40)
    cut, dt = _cuts_and_horizons(X, owner, rng, 4, 20)
    loc, scale = model.encoder.statistics(X, None)
    future = model.future(X, cut, dt)
    with torch.no_grad():
        monkeypatch.setattr(encoder_module, "MIN_GROUP", 1000)
        single, has_single = pool_in_groups(model.encoder, future, dt, loc, scale, model.target_pooling)
        monkeypatch.setattr(encoder_module, "MIN_GROUP", 8)
        grouped, has_grouped = pool_in_groups(model.encoder, future, dt, loc, scale, model.target_pooling)
    assert torch.equal(has_single, has_grouped)
    assert torch.allclose(single, grouped, atol=1e-5)


def _targets_with_gaps(seed, B=60, L=64):
    rng = np.random.default_rng(seed)
    X = windows(B=B, L=L, seed=seed)
    for i in range(B):
        X[i, :, : rng.integers(0, 30)] = float("nan")  # left padding of varying length
    X[5, 1, 40:47] = float("nan")  # one channel missing for a while
    X[6:9, :, 36:44] = float("nan")  # every channel missing: tokens without an observation
    owner = torch.arange(B)
    cut, dt = _cuts_and_horizons(X, owner, rng, 4, 20)
    cut[0], dt[0] = 36, 8  # window 6..8 style gap at the start of the target
    X[0, :, 36:44] = float("nan")  # an interval without any observation
    return X, cut, dt


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_packed_target_pass_equals_padded_groups(seed):
    torch.manual_seed(seed)
    model = JEPA(EncoderConfig(norm="global", **TINY), K=20).eval()
    X, cut, dt = _targets_with_gaps(seed)
    loc, scale = model.encoder.statistics(X, None)
    future = model.future(X, cut, dt)
    with torch.no_grad():
        padded, has_padded = pool_in_groups(model.encoder, future, dt, loc, scale, model.target_pooling)
        packed, has_packed = model.target_state(X, cut, dt, loc, scale)  # the patch encoder packs the intervals
    assert not has_packed[0]  # the empty interval is reported as such
    assert torch.equal(has_padded, has_packed)
    assert torch.allclose(padded[has_padded], packed[has_packed], atol=1e-5)


def test_packed_target_pass_gradients_match_padded():
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm="global", **TINY), K=20).eval()
    X, cut, dt = _targets_with_gaps(3, B=30)
    loc, scale = model.encoder.statistics(X, None)
    grads = []
    for state in (
        model.target_state,
        lambda x, cut, dt, loc, scale: pool_in_groups(
            model.encoder, model.future(x, cut, dt), dt, loc, scale, model.target_pooling
        ),
    ):
        model.zero_grad()
        pooled, has = state(X, cut, dt, loc, scale)
        (pooled[has] ** 2).sum().backward()
        grads.append(torch.cat([p.grad.flatten() for p in model.encoder.parameters() if p.grad is not None]))
    assert torch.allclose(grads[0], grads[1], rtol=1e-4, atol=1e-5)


def test_packed_pooling_equals_module_pooling_per_sequence():
    torch.manual_seed(0)
    pooling = AttentionPooling(16, 2).eval()
    valid = torch.tensor([[True, True, False, True], [True, False, False, False], [False, True, True, False]])
    lengths = torch.tensor([4, 1, 3])
    layout = PackedLayout(valid, lengths)
    states = torch.randn(int(lengths.sum()), 16)
    packed = pooling.forward_packed(states, layout)
    for i, n in enumerate(lengths.tolist()):
        rows = states[layout.sequence == i][None]
        expected = pooling(rows, valid[i : i + 1, :n])
        assert torch.allclose(packed[i], expected[0], atol=1e-6)
    # the packed rows follow the sequences in order, column by column
    assert layout.column.tolist() == [0, 1, 2, 3, 0, 0, 1, 2]


def test_packed_pooling_runs_under_cuda_style_autocast(monkeypatch):
    # CUDA's autocast runs exp in fp32 while the linear layers give bf16; CPU autocast keeps exp in
    # bf16, so its policy is imitated here: the pooled sums must not mix the two dtypes
    torch.manual_seed(0)
    pooling = AttentionPooling(16, 2).eval()
    valid = torch.tensor([[True, True, False, True], [True, False, False, False]])
    layout = PackedLayout(valid, torch.tensor([4, 1]))
    states = torch.randn(5, 16)
    expected = pooling.forward_packed(states, layout)
    exp = torch.exp
    monkeypatch.setattr(torch, "exp", lambda t: exp(t.float()))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        pooled = pooling.forward_packed(states, layout)
    assert pooled.shape == expected.shape
    assert torch.allclose(pooled.float(), expected, atol=0.05)


def test_packed_layout_takes_lengths_or_present_columns():
    valid = torch.tensor([[False, True, True], [True, False, True]])
    layout = PackedLayout(valid, present=valid)  # columns anywhere in the row, kept in column order
    assert layout.sequence.tolist() == [0, 0, 1, 1] and layout.column.tolist() == [1, 2, 0, 2]
    assert layout.key_valid.all()
    for lengths, present in ((None, None), (torch.tensor([3, 3]), valid)):
        with pytest.raises(ValueError, match="exactly one of lengths and present"):
            PackedLayout(valid, lengths, present=present)


def test_channel_tokens_pool_their_targets_in_padded_groups():
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm="global", tokens="channel", **TINY), K=20).eval()
    X, cut, dt = _targets_with_gaps(4, B=40)
    loc, scale = model.encoder.statistics(X, None)
    with torch.no_grad():
        pooled, has = model.target_state(X, cut, dt, loc, scale)
        grouped, has_grouped = pool_in_groups(
            model.encoder, model.future(X, cut, dt), dt, loc, scale, model.target_pooling
        )
    assert torch.equal(pooled, grouped) and torch.equal(has, has_grouped)


def test_jepa_forward_gives_predictions_targets_and_weights():
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(norm="global", **TINY), K=20).eval()
    X, cut, dt = _targets_with_gaps(5, B=12)
    owner = torch.arange(12)
    with torch.no_grad():
        predicted, target, weight = model(X, owner, cut, dt, torch.ones(12))
    assert predicted.shape == target.shape == (12, 16) and weight.shape == (12,)
    assert weight[0] == 0  # the interval without any observation does not count
    assert model.predictor.input.out_features == 16  # the predictor is d_model wide
