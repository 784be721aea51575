"""Label budgets and point labels of the event benchmarks: blocks of each unit, the seeded choice of blocks."""

import numpy as np
import pytest
from hepa_bench.data import block_rule, first_step_labels, unit_blocks

from hepa_sklearn.surface import make_survival_y


def test_unit_blocks_cut_each_unit_in_order():
    groups = np.array(["a"] * 5 + ["b"] * 3)
    np.testing.assert_array_equal(unit_blocks(groups, 2), [0, 0, 0, 1, 1, 2, 2, 3])
    np.testing.assert_array_equal(unit_blocks(groups, 4), [0, 0, 1, 2, 3, 4, 5, 6])


def test_block_rule_keeps_whole_blocks_and_reaches_an_event():
    blocks = np.repeat(np.arange(10), 4)
    event = np.zeros(40, bool)
    event[[37, 38, 39]] = True  # only block 9 holds windows with an event within K
    y = make_survival_y(event, np.where(event, 2, 50))
    rule = block_rule(blocks, y, 5, seed=0)
    order = np.random.default_rng(0).permutation(10)
    mask, n_blocks = rule(0.1)
    kept = np.unique(blocks[mask])
    np.testing.assert_array_equal(np.sort(kept), np.sort(order[:n_blocks]))
    assert 9 in kept and n_blocks == list(order).index(9) + 1
    assert mask.sum() == 4 * n_blocks
    full, n_all = rule(1.0)
    assert full.all() and n_all == 10
    again, _ = block_rule(blocks, y, 5, seed=0)(0.1)
    np.testing.assert_array_equal(again, mask)


def test_point_labels_of_a_labelled_budget_follow_the_loaded_windows(data_home, small_registry):
    data = small_registry["VIX"].load(0, data_home=data_home)
    mask, n_blocks = data.train_mask(0.2)
    assert n_blocks >= 1 and np.unique(data.blocks[mask]).size == n_blocks and 0 < mask.sum() < mask.size
    assert len(data.point_valid) == len(data.X_valid) and len(data.point_test) == len(data.X_test)
    assert set(np.unique(data.point_test[~np.isnan(data.point_test)])) <= {0.0, 1.0}


def test_first_step_labels_are_the_event_at_the_next_step():
    y = make_survival_y(np.array([True, True, False, False, False]), np.array([1, 3, 1, 5, 0]))
    # censored at once: the label at Δt = 1 is unknown; observed for a step without the event: 0
    np.testing.assert_array_equal(first_step_labels(y), [1.0, 0.0, 0.0, 0.0, np.nan])


def test_rolling_origin_splits_the_kept_prefix_as_the_base_split_does():
    from hepa_bench.data import RollingOrigin

    from hepa_sklearn.datasets import ChronologicalSplit

    base = ChronologicalSplit((60, 80), gap=10)
    lengths = {"a": 1000, "b": 200}
    assert RollingOrigin(base, 0)(lengths) == base(lengths)
    parts = dict((part, (start, stop)) for part, start, stop in RollingOrigin(base, 10)(lengths)["a"])
    # 900 rows kept: cuts at 540 and 720, gaps of 10, nothing after row 900
    assert parts == {"train": (0, 540), "valid": (550, 720), "test": (730, 900)}
    assert RollingOrigin(base, 15)(lengths)["b"] == base({"b": 170})["b"]
    with pytest.raises(ValueError, match="0 to 99 percent"):
        RollingOrigin(base, 100)(lengths)


def test_rolling_origin_tests_each_seed_after_its_training_and_on_earlier_rows(data_home, small_registry):
    entry = small_registry["VIX"]
    loads = {seed: entry.load(seed, data_home=data_home, split="rolling") for seed in range(3)}
    fixed = entry.load(0, data_home=data_home)
    np.testing.assert_array_equal(loads[0].X_test, fixed.X_test)  # seed 0 is the fixed split
    sizes = [loads[s].X_train.shape[0] + loads[s].X_valid.shape[0] + loads[s].X_test.shape[0] for s in range(3)]
    assert sizes[0] > sizes[1] > sizes[2]
    assert not np.array_equal(loads[1].X_test[-1], fixed.X_test[-1])
    with pytest.raises(ValueError, match="'fixed' or 'rolling'"):
        entry.load(1, data_home=data_home, split="blocked")
