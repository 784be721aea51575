import numpy as np
import pytest
import torch

from hepa_sklearn._training import CutSampler, TailSplit, WindowDataset


def batch_of(X, indices):
    dataset = WindowDataset(torch.as_tensor(X))
    return [dataset[i] for i in indices]


def test_cuts_are_patch_boundaries_after_history_and_targets_inside_window():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2, 64)).astype("float32")
    history = rng.integers(1, 64, size=50)
    for i, h in enumerate(history):
        X[i, :, : 64 - h] = np.nan
    sampler = CutSampler(patch_size=16, max_horizon=40, seed=0)
    for _ in range(20):
        inputs, _ = sampler(batch_of(X, range(50)))
        cut, dt, usable = inputs["cut"].numpy(), inputs["dt"].numpy(), inputs["usable"].numpy()
        first_observed = 64 - history
        ok = usable == 1
        assert np.all((64 - cut[ok]) % 16 == 0)
        assert np.all(cut[ok] > first_observed[ok])
        assert np.all((dt[ok] >= 1) & (dt[ok] <= 40) & (cut[ok] + dt[ok] <= 64))
        # usable exactly when some boundary lies after the first observation
        assert np.array_equal(ok, first_observed < 48)


def test_horizons_are_log_uniform():
    X = np.zeros((1, 1, 4096), dtype="float32")
    sampler = CutSampler(patch_size=16, max_horizon=1000, seed=0)
    draws = np.array([sampler(batch_of(X, [0]))[0]["dt"].item() for _ in range(3000)])
    draws = draws[draws <= 1000]
    # LogUniform[1, 1000]: about a third of the draws in each decade
    share_below_10 = np.mean(draws < 10)
    share_below_100 = np.mean(draws < 100)
    assert 0.25 < share_below_10 < 0.40
    assert 0.58 < share_below_100 < 0.75


def test_fixed_sampler_is_stable_per_item_and_training_sampler_is_seeded():
    X = np.random.default_rng(1).normal(size=(8, 1, 128)).astype("float32")
    fixed = CutSampler(16, 50, seed=3, fixed=True)
    a = fixed(batch_of(X, [0, 1, 2]))[0]
    b = fixed(batch_of(X, [2, 0, 1]))[0]
    assert a["cut"][2] == b["cut"][0] and a["dt"][0] == b["dt"][1]
    first = CutSampler(16, 50, seed=3)(batch_of(X, range(8)))[0]
    again = CutSampler(16, 50, seed=3)(batch_of(X, range(8)))[0]
    assert torch.equal(first["cut"], again["cut"]) and torch.equal(first["dt"], again["dt"])


def test_window_dataset_repeats_each_window_in_a_row():
    X = np.arange(6, dtype="float32").reshape(3, 1, 2)
    dataset = WindowDataset(X, repeats=2)
    assert len(dataset) == 6
    assert [dataset[i][0][0, 0].item() for i in range(6)] == [0, 0, 2, 2, 4, 4]


def test_tail_split_holds_out_the_last_fraction_in_order():
    train, valid = TailSplit(0.2)(list(range(10)))
    assert list(train.indices) == list(range(8)) and list(valid.indices) == [8, 9]
    with pytest.raises(ValueError, match="validation_fraction"):
        TailSplit(0.99)(list(range(3)))


def test_uniform_horizons_draw_long_targets_as_often_as_short_ones():
    from hepa_sklearn._training import CutSampler

    draws = {}
    for horizons in ("log-uniform", "uniform"):
        sampler = CutSampler(16, 150, seed=0, horizons=horizons)
        cut, dt, _ = map(np.array, zip(*(sampler._draw(sampler.rng, 0, 1000) for _ in range(8000))))
        draws[horizons] = dt[cut <= 1000 - 150]  # cuts with room for every horizon
    uniform, log_uniform = draws["uniform"], draws["log-uniform"]
    assert uniform.min() >= 1 and uniform.max() <= 150
    assert abs(uniform.mean() - 75.5) < 3  # mean of Uniform{1..150}
    assert np.median(log_uniform) < 20 < np.median(uniform)
