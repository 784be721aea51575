"""The speed-ups of pretraining and finetuning compute what the straightforward formulations compute.

Each reformulation is checked against the formulation it replaced, kept
here as a reference function, on fixed inputs; in training mode the two
draw the same dropout masks from the same seed, so they agree to float
rounding with dropout on. ``test_training_matches_the_stored_reference``
checks the whole training path against outputs stored before any of them.
"""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from hepa_sklearn import HEPAEventPredictor, HEPAPretrainer
from hepa_sklearn.nn import JEPA, EncoderConfig, EppsPulley, HazardHead
from hepa_sklearn.nn.encoder import attention_mask, similar_groups
from hepa_sklearn.nn.packed import PackedLayout, interval_tokens
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training import _net as net_module
from hepa_sklearn.training._net import denormals_flushed, flushed_denormals, retained_heap
from hepa_sklearn.training._sampling import CutSampler, ItemBatch, WindowDataset

REFERENCE = Path(__file__).parent / "data" / "training_reference.npz"
CONFIG = dict(n_channels=3, d_model=32, n_layers=2, n_heads=4, patch_size=4, dropout=0.1, norm="global")


def gapped_windows(B=12, L=64, seed=0):
    """Windows with left padding of varying length, a gap in one channel and a gap in every channel."""
    rng = np.random.default_rng(seed)
    X = torch.as_tensor(rng.normal(size=(B, 3, L)).astype("float32"))
    for i in range(B):
        X[i, :, : rng.integers(0, 40)] = float("nan")
    X[3, 1, 50:55] = float("nan")
    X[4, :, 44:52] = float("nan")
    return X


def grads(output, module):
    return torch.autograd.grad(output, [p for p in module.parameters() if p.requires_grad], allow_unused=True)


def assert_close_grads(a, b, atol=1e-4):
    for x, y in zip(a, b, strict=True):
        assert (x is None) == (y is None)
        if x is not None:
            torch.testing.assert_close(x, y, rtol=1e-4, atol=atol)


# -- attention of packed tokens: dense blocks against scaled_dot_product_attention on the padded grid ----------


def reference_attend(qkv, sequence, column, valid, n_heads, dropout):
    """Packed ``qkv`` laid out on the padded grid, through ``scaled_dot_product_attention``, and back."""
    (B, N), (T, three_d) = valid.shape, qkv.shape
    d = three_d // 3
    grid = qkv.new_zeros(B, N, three_d).index_put((sequence, column), qkv)
    q, k, v = grid.view(B, N, 3, n_heads, d // n_heads).permute(2, 0, 3, 1, 4)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask(valid, causal=False), dropout_p=dropout)
    return y.transpose(1, 2)[sequence, column].reshape(T, d)


@pytest.mark.parametrize("block", [4, 128])
@pytest.mark.parametrize("dropout", [0.0, 0.2])
def test_packed_attention_equals_attention_on_the_padded_grid(monkeypatch, block, dropout):
    import hepa_sklearn.nn.packed as packed

    monkeypatch.setattr(packed, "ATTENTION_BLOCK", block)
    generator = torch.Generator().manual_seed(0)
    B, N = 30, 7
    lengths = torch.randint(1, N + 1, (B,), generator=generator)
    valid = (torch.rand(B, N, generator=generator) > 0.2) & (torch.arange(N) < lengths[:, None])
    layout = PackedLayout(valid, lengths)
    qkv = torch.randn(int(lengths.sum()), 3 * 32, generator=generator, requires_grad=True)
    torch.manual_seed(1)
    expected = reference_attend(qkv, layout.sequence, layout.column, valid, 4, dropout)
    (expected_grad,) = torch.autograd.grad(expected.square().sum(), qkv)
    after_reference = torch.rand(3)
    torch.manual_seed(1)
    packed_out = layout.attend(qkv, 4, dropout)
    (packed_grad,) = torch.autograd.grad(packed_out.square().sum(), qkv)
    torch.testing.assert_close(packed_out, expected, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(packed_grad, expected_grad, rtol=1e-4, atol=1e-4)
    assert torch.equal(torch.rand(3), after_reference)  # the same random numbers were drawn


# -- the shared context pass --------------------------------------------------------------------------------------


def reference_shared_context_state(model, x, owner, cut):
    """``JEPA.shared_context_state`` as it was, with the statistics of every item's copy of its window."""
    P, L = model.encoder.config.patch_size, x.shape[-1]
    token = (cut + (-L) % P) // P - 1
    first_observed = (~torch.isnan(x)).any(dim=1).int().argmax(dim=1)
    h, has_context, order = [], [], []
    for group in similar_groups(first_observed):
        states, valid, first, *_ = model.encoder(x[group], causal=True)
        steps = torch.arange(valid.shape[1])
        last_seen = torch.where(valid, steps, torch.full_like(steps, -1)).cummax(dim=1).values
        local = torch.full((x.shape[0],), -1, dtype=torch.long)
        local[group] = torch.arange(group.shape[0])
        items = (local[owner] >= 0).nonzero().squeeze(1)
        position = token[items] - first
        seen = last_seen[local[owner[items]], position.clamp(0, valid.shape[1] - 1)]
        seen = torch.where(position >= 0, seen, torch.full_like(seen, -1))
        h.append(states[local[owner[items]], seen.clamp(min=0)])
        has_context.append(seen >= 0)
        order.append(items)
    inverse = torch.argsort(torch.cat(order))
    loc, scale = model.encoder.statistics(x[owner], None)
    return torch.cat(h)[inverse], torch.cat(has_context)[inverse], loc, scale


@pytest.mark.parametrize("training", [False, True])
def test_shared_context_state_equals_the_padded_reference(training):
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(**CONFIG), K=20).train(training)
    X = gapped_windows()
    owner = torch.as_tensor(np.random.default_rng(1).integers(0, 12, size=40))
    cut = 64 - 4 * torch.as_tensor(np.random.default_rng(2).integers(1, 8, size=40))
    torch.manual_seed(3)
    h_ref, has_ref, loc_ref, scale_ref = reference_shared_context_state(model, X, owner, cut)
    ref_grads = grads((h_ref[has_ref] ** 2).sum(), model)
    torch.manual_seed(3)
    h, has, loc, scale = model.shared_context_state(X, owner, cut)
    new_grads = grads((h[has] ** 2).sum(), model)
    assert torch.equal(has, has_ref) and torch.equal(loc, loc_ref) and torch.equal(scale, scale_ref)
    torch.testing.assert_close(h[has], h_ref[has_ref], rtol=1e-5, atol=1e-5)
    assert_close_grads(new_grads, ref_grads, atol=1e-3)


# -- target intervals tokenised from the windows ------------------------------------------------------------------


def test_interval_tokens_equal_the_tokens_of_the_interval_grid():
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(**CONFIG), K=20)
    X = gapped_windows(B=40, L=64)
    rng = np.random.default_rng(3)
    cut = torch.as_tensor(64 - 4 * rng.integers(1, 12, size=40))
    dt = torch.minimum(torch.as_tensor(rng.integers(1, 21, size=40)), 64 - cut)
    cut[0], dt[0] = 44, 8
    X[0, :, 44:52] = float("nan")  # an interval without any observation
    loc, scale = model.encoder.statistics(X, None)
    grid, valid = model.encoder.tokenize(model.future(X, cut, dt), loc, scale, align_right=False)
    columns = torch.arange(valid.shape[1])
    lengths = torch.where(valid, columns + 1, torch.zeros_like(columns)).max(dim=1).values
    layout = PackedLayout(valid, lengths)
    tokens, packed_valid, packed_lengths = interval_tokens(X, cut, dt, loc, scale, 4, model.target_length // 4)
    assert torch.equal(packed_lengths, lengths) and lengths[0] == 0
    assert torch.equal(packed_valid[columns < lengths[:, None]], valid[columns < lengths[:, None]])
    assert torch.equal(tokens, grid[layout.sequence, layout.column])


@pytest.mark.parametrize("training", [False, True])
def test_target_state_equals_pooling_the_interval_grid(training):
    torch.manual_seed(0)
    model = JEPA(EncoderConfig(**CONFIG), K=20).train(training)
    X = gapped_windows(B=40, L=64)
    rng = np.random.default_rng(4)
    cut = torch.as_tensor(64 - 4 * rng.integers(1, 12, size=40))
    dt = torch.minimum(torch.as_tensor(rng.integers(1, 21, size=40)), 64 - cut)
    loc, scale = model.encoder.statistics(X, None)
    torch.manual_seed(6)
    expected, has_expected = model.encoder.pool_intervals(
        model.future(X, cut, dt), dt, loc, scale, model.target_pooling
    )
    expected_grads = grads((expected[has_expected] ** 2).sum(), model)
    torch.manual_seed(6)
    pooled, has = model.target_state(X, cut, dt, loc, scale)
    new_grads = grads((pooled[has] ** 2).sum(), model)
    assert torch.equal(has, has_expected)
    torch.testing.assert_close(pooled[has], expected[has], rtol=1e-5, atol=1e-5)
    assert_close_grads(new_grads, expected_grads, atol=1e-3)


# -- SIGReg on the positive knots --------------------------------------------------------------------------------


def reference_epps_pulley(z, n_knots, t_max=3.0):
    """The Epps-Pulley statistic summed over every knot of [-t_max, t_max]."""
    knots = torch.linspace(-t_max, t_max, n_knots, dtype=z.dtype)
    step = 2 * t_max / (n_knots - 1)
    trapezoid = torch.full((n_knots,), step, dtype=z.dtype)
    trapezoid[[0, -1]] = step / 2
    angles = z[..., None] * knots
    real = torch.cos(angles).mean(0) - torch.exp(-knots.square() / 2)
    imaginary = torch.sin(angles).mean(0)
    return z.shape[0] * ((real.square() + imaginary.square()) * trapezoid * torch.exp(-knots.square() / 2)).sum(-1)


@pytest.mark.parametrize("n_knots", [17, 16, 5])
def test_epps_pulley_on_positive_knots_equals_all_knots(n_knots):
    z = (torch.randn(64, 40, generator=torch.Generator().manual_seed(0)) * 1.5).requires_grad_()
    expected = reference_epps_pulley(z, n_knots)
    (expected_grad,) = torch.autograd.grad(expected.sum(), z)
    statistic = EppsPulley(n_knots=n_knots)(z)
    (grad,) = torch.autograd.grad(statistic.sum(), z)
    torch.testing.assert_close(statistic, expected, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(grad, expected_grad, rtol=1e-4, atol=1e-6)


# -- the hazard head's last layer as a matrix-vector product -----------------------------------------------------


def test_hazard_head_equals_its_linear_layer():
    torch.manual_seed(0)
    head = HazardHead(32)
    z = torch.randn(8, 150, 32, requires_grad=True)
    expected = head.linear(head.norm(z)).squeeze(-1)
    expected_grads = torch.autograd.grad(expected.square().sum(), [z, *head.parameters()])
    logits = head(z)
    new_grads = torch.autograd.grad(logits.square().sum(), [z, *head.parameters()])
    assert logits.shape == expected.shape == (8, 150)
    torch.testing.assert_close(logits, expected, rtol=1e-5, atol=1e-6)
    assert_close_grads(new_grads, expected_grads)


# -- the collate function on a batch fetched at once -------------------------------------------------------------


def reference_cut_sampler_call(sampler, batch):
    """``CutSampler.__call__`` as it was: item by item."""
    windows = torch.stack([item[0] for item in batch])
    B, _, L = windows.shape
    window_ids = torch.tensor([int(item[2]) for item in batch])
    owner = (window_ids[:, None] == window_ids[None, :]).int().argmax(dim=1)
    observed = ~torch.isnan(windows).all(dim=1)
    first = torch.where(observed.any(dim=1), observed.int().argmax(dim=1), torch.full((B,), L))
    draws = []
    for (_, index, _), first_observed in zip(batch, first.tolist(), strict=True):
        rng = np.random.default_rng([sampler.seed, int(index)]) if sampler.fixed else sampler.rng
        draws.append(sampler._draw(rng, first_observed, L))
    cut, dt, usable = (torch.tensor(column) for column in zip(*draws, strict=True))
    return {"x": windows, "owner": owner, "cut": cut, "dt": dt, "usable": usable.float()}


@pytest.mark.parametrize("fixed", [False, True])
def test_cut_sampler_on_fetched_batches_equals_item_by_item(fixed):
    dataset = WindowDataset(gapped_windows(B=10, L=64), repeats=5)
    order = np.random.default_rng(0).permutation(len(dataset))
    new, old = CutSampler(4, 20, seed=7, fixed=fixed), CutSampler(4, 20, seed=7, fixed=fixed)
    for start in range(0, len(order), 16):
        indices = order[start : start + 16].tolist()
        batch = dataset.__getitems__(indices)
        assert isinstance(batch, ItemBatch)
        expected = reference_cut_sampler_call(old, [dataset[i] for i in indices])
        inputs, _ = new(batch)
        for name, value in expected.items():
            torch.testing.assert_close(inputs[name], value, rtol=0, atol=0, equal_nan=True, msg=name)


# -- optimiser, subnormals, heap ---------------------------------------------------------------------------------


def test_fused_adamw_takes_the_steps_of_the_loop_implementation():
    torch.manual_seed(0)
    loop, fused = JEPA(EncoderConfig(**CONFIG), K=20), JEPA(EncoderConfig(**CONFIG), K=20)
    fused.load_state_dict(loop.state_dict())
    optimisers = [
        torch.optim.AdamW(loop.parameters(), lr=1e-2, weight_decay=1e-2, foreach=False),
        torch.optim.AdamW(fused.parameters(), lr=1e-2, weight_decay=1e-2, fused=True),
    ]
    generator = torch.Generator().manual_seed(1)
    for _ in range(5):
        for parameter, twin in zip(loop.parameters(), fused.parameters(), strict=True):
            parameter.grad = torch.randn(parameter.shape, generator=generator)
            twin.grad = parameter.grad.clone()
        for optimiser in optimisers:
            optimiser.step()
    for parameter, twin in zip(loop.parameters(), fused.parameters(), strict=True):
        torch.testing.assert_close(twin, parameter, rtol=1e-5, atol=1e-6)


def test_nets_use_the_fused_optimiser_on_the_cpu():
    X = gapped_windows(B=16).numpy()
    pre = HEPAPretrainer(
        d_model=16, n_heads=2, patch_size=4, K=8, max_epochs=1, device="cpu", early_stopping=False, random_state=0
    ).fit(X)
    assert pre.net_.optimizer_.defaults["fused"] is True


def test_subnormals_are_flushed_inside_the_block_and_restored_after():
    tiny = torch.tensor([2.0**-126])
    before = denormals_flushed()
    with flushed_denormals():
        assert denormals_flushed() or not torch.set_flush_denormal(True)
        assert (tiny * 0.5).item() == 0.0 or not denormals_flushed()
    assert denormals_flushed() == before
    if not before:
        assert (tiny * 0.5).item() == 2.0**-127


def test_retained_heap_sets_and_restores_the_trim_threshold(monkeypatch):
    calls = []
    monkeypatch.setattr(net_module, "_mallopt", lambda: lambda option, value: calls.append((option, value)))
    with retained_heap():
        assert calls == [
            (net_module.M_MMAP_THRESHOLD, net_module.MMAP_THRESHOLD),
            (net_module.M_TRIM_THRESHOLD, net_module.TRAINING_TRIM_THRESHOLD),
        ]
    assert calls[-1] == (net_module.M_TRIM_THRESHOLD, net_module.TRIM_THRESHOLD)
    monkeypatch.setattr(net_module, "_mallopt", lambda: None)
    with retained_heap():  # another C library: nothing to set
        pass


# -- the whole training path against outputs stored before the reformulations ----------------------------------


def scenario():
    """Pretraining (both normalisations) and finetuning on small gapped windows, with dropout, seeded."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 3, 96)).astype("float32")
    for i in range(24):
        X[i, :, : rng.integers(0, 60)] = np.nan
    X[3, 1, 70:75] = np.nan
    X[5, :, 64:72] = np.nan
    out = {}
    for norm in ("global", "revin"):
        # the network's normalisation alone, as the reference was stored (no regimes, no window level)
        pre = HEPAPretrainer(
            d_model=16,
            n_heads=2,
            patch_size=8,
            K=24,
            norm=norm,
            regimes=None,
            window_level=False,
            cuts_per_window=8,
            max_epochs=2,
            early_stopping=False,
            random_state=0,
            device="cpu",
        ).fit(X)
        out[f"{norm}_embeddings"] = pre.transform(X)
        out[f"{norm}_train_loss"] = np.array(pre.history_[:, "train_loss"])
        out[f"{norm}_held_out_loss"] = np.array(pre.pretraining_loss(X)["loss"])
    y = make_survival_y(rng.random(24) < 0.7, rng.integers(1, 20, 24))
    event = HEPAEventPredictor(K=12, hidden=16, max_epochs=3, early_stopping=False, random_state=0, device="cpu").fit(
        out["global_embeddings"], y
    )
    out["surface"] = event.predict_proba(out["global_embeddings"])
    return out


def test_training_matches_the_stored_reference():
    """``scenario()``'s outputs as stored from commit bd05d00, before the reformulations, on one thread.

    Written by ``python tests/test_exact_speedups.py PATH`` with that
    checkout first on ``PYTHONPATH``; the seeded run draws the same cuts,
    horizons and dropout masks, so only float rounding differs.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        out = scenario()
    finally:
        torch.set_num_threads(threads)
    reference = np.load(REFERENCE)
    assert sorted(out) == sorted(reference.files)
    for name, value in out.items():
        np.testing.assert_allclose(value, reference[name], rtol=1e-4, atol=1e-5, err_msg=name)
    assert math.isfinite(float(out["global_held_out_loss"]))


if __name__ == "__main__":
    torch.set_num_threads(1)
    np.savez(sys.argv[1], **scenario())
