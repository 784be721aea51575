"""Tests for the internals of hepa_sklearn.training: sampling, the validation split (groups), progress, logging."""

import logging
import pickle

import numpy as np
import pandas as pd
import pytest
import torch
from sklearn import config_context
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from skorch.callbacks import Callback

from hepa_sklearn import HEPAEventPredictor, HEPAFinetuner, HEPAPretrainer, h_auroc_scorer
from hepa_sklearn.surface import make_survival_y
from hepa_sklearn.training._callbacks import CollapseMonitor
from hepa_sklearn.training._sampling import CutSampler, TailSplit, WindowDataset


def batch_of(X, indices):
    dataset = WindowDataset(torch.as_tensor(X))
    return [dataset[i] for i in indices]


def test_cuts_are_patch_boundaries_after_history_and_targets_inside_window():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2, 64)).astype("float32")
    history = rng.integers(1, 64, size=50)
    for i, h in enumerate(history):
        X[i, :, : 64 - h] = np.nan
    sampler = CutSampler(patch_size=16, K=40, seed=0)
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
    sampler = CutSampler(patch_size=16, K=1000, seed=0)
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


def test_tail_split_with_groups_holds_out_the_last_units_in_order_of_first_appearance():
    groups = np.array(["a", "a", "b", "c", "b", "c", "a", "d"])
    # 4 units, fraction 0.5: the last two by first appearance, "c" and "d", wherever their rows are
    train, valid = TailSplit(0.5, groups)(list(range(8)))
    assert list(valid.indices) == [3, 5, 7]
    assert list(train.indices) == [0, 1, 2, 4, 6]
    # at least one unit is held out, and at least one must remain for training
    _, valid = TailSplit(0.01, groups)(list(range(8)))
    assert list(valid.indices) == [7]
    with pytest.raises(ValueError, match="leaves no group for training"):
        TailSplit(0.2, np.zeros(8))(list(range(8)))
    with pytest.raises(ValueError, match="groups has 8 labels for 6 samples"):
        TailSplit(0.2, groups)(list(range(6)))


def test_tail_split_with_one_group_per_sample_is_the_tail_split():
    for n in (5, 10, 37):
        plain = TailSplit(0.1)(list(range(n)))
        grouped = TailSplit(0.1, np.arange(n)[::-1])(list(range(n)))
        for a, b in zip(plain, grouped, strict=True):
            np.testing.assert_array_equal(a.indices, b.indices)


# --------------------------------------------------------------------------
# fit(..., groups=...) on the torch estimators
# --------------------------------------------------------------------------


class RecordSplit(Callback):
    """Records the dataset indices of the validation part seen in the first epoch."""

    def on_epoch_begin(self, net, dataset_train=None, dataset_valid=None, **kwargs):
        if len(net.history) == 1:
            self.valid_ = None if dataset_valid is None else np.asarray(dataset_valid.indices)


def recorded_valid(estimator):
    return dict(estimator.net_.callbacks_)["RecordSplit"].valid_


# units of 3, 4, 5, ... windows, interleaved so that the tail of the input is not a whole unit
UNITS = np.array([0, 1, 0, 2, 1, 0, 3, 2, 1, 3, 2, 4, 3, 4, 2, 4, 3, 4, 5, 5, 4, 5, 5, 5])


N_WINDOWS = len(UNITS)


def event_data(n=N_WINDOWS, width=6):
    rng = np.random.default_rng(0)
    E = rng.normal(size=(n, width)).astype("float32")
    y = make_survival_y(np.ones(n, bool), rng.integers(1, 12, n))
    return E, y


def test_event_predictor_groups_hold_out_whole_units(tiny_event_params):
    E, y = event_data()
    model = HEPAEventPredictor(**tiny_event_params, validation_fraction=0.3, callbacks=[RecordSplit()])
    model.fit(E, y, groups=UNITS)
    # 6 units, round(0.3 * 6) = 2: units 4 and 5, wherever their windows are
    np.testing.assert_array_equal(recorded_valid(model), np.flatnonzero(np.isin(UNITS, [4, 5])))
    model.fit(E, y)
    np.testing.assert_array_equal(recorded_valid(model), np.arange(17, 24))  # round(0.3 * 24) = 7 last samples


def test_event_predictor_without_groups_is_bit_identical(tiny_event_params):
    E, y = event_data()
    reference = HEPAEventPredictor(**tiny_event_params).fit(E, y).predict_proba(E)
    explicit = HEPAEventPredictor(**tiny_event_params).fit(E, y, groups=None).predict_proba(E)
    # one unit per sample splits exactly as no groups does
    singletons = HEPAEventPredictor(**tiny_event_params).fit(E, y, groups=np.arange(len(E))).predict_proba(E)
    np.testing.assert_array_equal(explicit, reference)
    np.testing.assert_array_equal(singletons, reference)
    other = HEPAEventPredictor(**tiny_event_params).fit(E, y, groups=UNITS).predict_proba(E)
    assert not np.array_equal(other, reference)


def test_pretrainer_groups_cover_every_cut_of_a_window(windows, tiny_pretrainer_params):
    units = np.repeat(np.arange(10), 4)[np.random.default_rng(0).permutation(40)]
    pre = HEPAPretrainer(
        **tiny_pretrainer_params, cuts_per_window=3, validation_fraction=0.2, callbacks=[RecordSplit()]
    )
    pre.fit(windows, groups=units)
    # the last 2 units by first appearance; item i of the dataset is window i // 3
    held_out = pd.unique(units)[-2:]
    expected = np.flatnonzero(np.isin(np.repeat(units, 3), held_out))
    np.testing.assert_array_equal(recorded_valid(pre), expected)
    assert set(np.asarray(expected) // 3) == set(np.flatnonzero(np.isin(units, held_out)))


def test_pretrainer_without_groups_is_bit_identical(windows, tiny_pretrainer_params):
    params = dict(tiny_pretrainer_params, cuts_per_window=2)
    reference = HEPAPretrainer(**params).fit(windows).transform(windows)
    singletons = HEPAPretrainer(**params).fit(windows, groups=np.arange(40)).transform(windows)
    np.testing.assert_array_equal(singletons, reference)


def test_finetuner_groups_hold_out_whole_units(windows, tiny_pretrainer_params, tiny_event_params):
    units = np.repeat(np.arange(8), 5)[::-1]
    y = make_survival_y(np.ones(40, bool), np.random.default_rng(0).integers(1, 12, 40))
    pre = HEPAPretrainer(**tiny_pretrainer_params).fit(windows)
    model = HEPAFinetuner(
        pre, **dict(tiny_event_params, max_epochs=1), validation_fraction=0.25, callbacks=[RecordSplit()]
    )
    model.fit(windows, y, groups=units)
    np.testing.assert_array_equal(recorded_valid(model), np.arange(30, 40))  # units 1 and 0, seen last


@pytest.mark.parametrize(
    "groups, match",
    [
        (np.arange(5), "groups has 5 labels but there are 24 samples"),
        (np.zeros((24, 1)), "groups must be 1-D"),
        (np.r_[np.zeros(23), np.nan], "groups has missing values"),
    ],
)
def test_bad_groups(tiny_event_params, groups, match):
    E, y = event_data()
    with pytest.raises(ValueError, match=match):
        HEPAEventPredictor(**tiny_event_params).fit(E, y, groups=groups)


def test_groups_reach_the_predictor_inside_a_pipeline(tiny_pretrainer_params, tiny_event_params):
    E, y = event_data()
    pipe = make_pipeline(StandardScaler(), HEPAEventPredictor(**tiny_event_params, callbacks=[RecordSplit()]))
    pipe.fit(E, y, hepaeventpredictor__groups=UNITS)
    np.testing.assert_array_equal(recorded_valid(pipe[-1]), np.flatnonzero(np.isin(UNITS, [5])))


def test_groups_are_routed_by_metadata_routing(tiny_event_params):
    E, y = event_data()
    model = HEPAEventPredictor(**tiny_event_params, callbacks=[RecordSplit()])
    with config_context(enable_metadata_routing=True):
        pipe = make_pipeline(StandardScaler(), model.set_fit_request(groups=True))
        search = GridSearchCV(
            pipe, {"hepaeventpredictor__hidden": [8]}, cv=GroupKFold(2), scoring=h_auroc_scorer, error_score="raise"
        )
        search.fit(E, y, groups=UNITS)
    # the refit on all data held out the last unit by first appearance, unit 5
    np.testing.assert_array_equal(recorded_valid(search.best_estimator_[-1]), np.flatnonzero(UNITS == 5))


# --------------------------------------------------------------------------
# verbose and logging
# --------------------------------------------------------------------------


def test_verbose_one_shows_a_progress_bar_with_the_loss(capsys, tiny_event_params):
    E, y = event_data()
    HEPAEventPredictor(**tiny_event_params, verbose=1).fit(E, y)
    out, err = capsys.readouterr()
    assert "epoch 2/2" in err and "loss=" in err and "valid_loss=" in err
    assert "train_loss" not in out  # no per-epoch table


def test_verbose_two_prints_the_epoch_table_and_zero_is_silent(capsys, tiny_event_params):
    E, y = event_data()
    HEPAEventPredictor(**tiny_event_params, verbose=2).fit(E, y)
    out, err = capsys.readouterr()
    assert "train_loss" in out and "valid_loss" in out
    assert "epoch 2/2" not in err
    HEPAEventPredictor(**tiny_event_params).fit(E, y)
    assert capsys.readouterr() == ("", "")


def test_verbose_one_with_a_pickled_estimator(tiny_event_params):
    E, y = event_data()
    model = HEPAEventPredictor(**tiny_event_params, verbose=1).fit(E, y)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict_proba(E), model.predict_proba(E))


def test_fit_logs_start_epochs_and_end(caplog, tiny_event_params):
    E, y = event_data()
    with caplog.at_level(logging.INFO, logger="hepa_sklearn"):
        HEPAEventPredictor(**tiny_event_params).fit(E, y, groups=UNITS)
    messages = [record.getMessage() for record in caplog.records if record.name == "hepa_sklearn"]
    assert messages[0].startswith("HEPAEventPredictor.fit: 24 samples, at most 2 epochs on cpu")
    assert "whole units" in messages[0]
    assert any(m.startswith("training on 19 samples, validating on 5") for m in messages)  # unit 5 held out
    assert any(m.startswith("epoch 2/2: train_loss=") for m in messages)
    assert messages[-1].startswith("HEPAEventPredictor.fit: done, 2 epoch(s)")


def test_early_stopping_is_logged(caplog, tiny_event_params):
    E, y = event_data()
    params = dict(tiny_event_params, max_epochs=30, n_iter_no_change=1, lr=1.0)
    with caplog.at_level(logging.INFO, logger="hepa_sklearn"):
        model = HEPAEventPredictor(**params).fit(E, y)
    assert model.n_epochs_ < 30
    assert any(
        record.getMessage().startswith(f"early stopping at epoch {model.n_epochs_}") for record in caplog.records
    )


def test_collapse_is_logged_as_a_warning(caplog, windows, tiny_pretrainer_params):
    monitor = CollapseMonitor(threshold=10.0)  # every epoch counts as collapsed
    with caplog.at_level(logging.WARNING, logger="hepa_sklearn"), pytest.warns(RuntimeWarning, match="collapse"):
        HEPAPretrainer(**tiny_pretrainer_params, callbacks=[("strict_collapse", monitor)]).fit(windows)
    assert any(
        "representation collapse" in record.getMessage() and record.levelno == logging.WARNING
        for record in caplog.records
    )


def test_the_package_logger_has_only_a_null_handler():
    logger = logging.getLogger("hepa_sklearn")
    assert [type(handler) for handler in logger.handlers] == [logging.NullHandler]
    assert logger.propagate and logger.level == logging.NOTSET


def test_block_batches_cover_each_item_once_with_few_windows_per_batch():
    from torch.utils.data import Subset

    from hepa_sklearn.training._sampling import BlockBatches, WindowDataset, window_ids

    dataset = WindowDataset(np.zeros((13, 1, 8), dtype=np.float32), repeats=40)
    windows = window_ids(dataset)
    sampler = BlockBatches(windows, block=8, batch_size=64, generator=torch.Generator().manual_seed(0))
    batches = list(sampler)
    assert len(batches) == len(sampler) == -(-13 * 40 // 64)
    items = np.concatenate(batches)
    assert np.array_equal(np.sort(items), np.arange(13 * 40))  # every item exactly once
    for batch in batches:
        # blocks of 8 of one window: at most 64 / 8 + 1 windows when a block straddles batches
        assert len(set(windows[batch])) <= 9
    # the same generator seed gives the same order; another seed another one
    again = list(BlockBatches(windows, 8, 64, torch.Generator().manual_seed(0)))
    other = list(BlockBatches(windows, 8, 64, torch.Generator().manual_seed(1)))
    assert all(a == b for a, b in zip(batches, again, strict=True))
    assert any(a != b for a, b in zip(batches, other, strict=True))
    # a training subset: blocks never mix windows
    subset = Subset(dataset, np.arange(100, 300))
    sub_windows = window_ids(subset)
    assert np.array_equal(sub_windows, np.arange(100, 300) // 40)
    for batch in BlockBatches(sub_windows, 8, 16, torch.Generator().manual_seed(2)):
        assert len(set(sub_windows[batch])) <= 3


def test_block_of_one_is_a_plain_shuffle():
    from hepa_sklearn.training._sampling import BlockBatches

    sampler = BlockBatches(
        np.repeat(np.arange(5), 4), block=1, batch_size=7, generator=torch.Generator().manual_seed(0)
    )
    items = np.concatenate(list(sampler))
    assert np.array_equal(np.sort(items), np.arange(20))
    assert not np.array_equal(items, np.arange(20))


def test_release_freed_memory_is_safe_to_call_repeatedly():
    from hepa_sklearn.training._runtime import release_freed_memory

    for _ in range(3):
        assert release_freed_memory() is None


def test_every_fit_anneals_the_learning_rate_by_cosine(windows, tiny_pretrainer_params, tiny_event_params):
    E, y = event_data()
    for model in (
        HEPAEventPredictor(**tiny_event_params).fit(E, y),
        HEPAPretrainer(**tiny_pretrainer_params).fit(windows),
    ):
        schedule = dict(model.net_.callbacks_)["lr_schedule"]
        assert schedule.policy == "CosineAnnealingLR" and schedule.kwargs["T_max"] == model.max_epochs
