"""The registry: every entry complete and matching its loader, the paper's figures, each entry's protocol estimators."""

import inspect

import numpy as np
import pytest
from hepa_bench.protocols import protocol_pretrainer
from hepa_bench.registry import BENCHMARKS, PAPER_COLUMNS, PATIENCE, get_benchmark

from hepa_sklearn import HEPAPretrainer
from hepa_sklearn.cmapss_protocol import SubsetSplit
from hepa_sklearn.datasets import get_event_dataset


@pytest.mark.parametrize("name", list(BENCHMARKS))
def test_every_entry_is_complete_and_matches_its_loader(name):
    entry = BENCHMARKS[name]
    assert entry.name == name and entry.description
    assert entry.norm in {"global", "revin"} and entry.finetune_stop in {"fixed", "validation"}
    assert entry.pretrain_part in {"train", "normal"}
    for value in (
        entry.K,
        entry.context_length,
        entry.pretrain_stride,
        entry.finetune_stride,
        entry.eval_stride,
        entry.min_history,
        entry.pretrain_epochs,
        entry.finetune_epochs,
    ):
        assert isinstance(value, int) and value >= 1
    # CHB-MIT is outside the paper's Table 1 (a negative control, one figure in its text)
    assert set(entry.paper) <= set(PAPER_COLUMNS) and ("hepa" in entry.paper) == (name != "CHBMIT")
    for figures in entry.paper.values():
        assert set(figures) == {1.0, 0.1}
        assert all(0 <= mean <= 1 and 0 <= std < 0.5 for mean, std in figures.values())
    if entry.is_cmapss:
        # C-MAPSS entries are the reference protocol (hepa_sklearn.cmapss_protocol)
        assert (entry.K, entry.context_length, entry.finetune_stride, entry.eval_stride) == (150, 512, 4, 1)
        assert entry.norm == "global" and entry.finetune_stop == "fixed"
        assert (entry.pretrain_epochs, entry.finetune_epochs) == (50, 30)
        return
    assert entry.norm == "revin" and entry.finetune_stop == "validation"
    assert entry.K == (150 if name == "TEP" else 200)
    defaults = inspect.signature(entry.loader).parameters
    assert entry.context_length == defaults["context_length"].default
    assert entry.min_history == defaults["min_history"].default
    # the part that pretrains is one the loader returns
    spec = get_event_dataset(entry.loader.__name__.removeprefix("load_")).spec
    assert entry.spec is spec and entry.pretrain_part in spec.parts
    assert (entry.pretrain_part == "normal") == (spec.normal is not None)
    assert ("random_state" in defaults) == entry.seeded_split


def test_table_1_figures_are_the_papers():
    assert BENCHMARKS["FD001"].paper["hepa"] == {1.0: (0.81, 0.03), 0.1: (0.78, 0.07)}
    assert BENCHMARKS["Weather"].paper["hepa"][1.0] == (0.89, 0.01)
    assert BENCHMARKS["MBA"].paper["itransformer"] == {1.0: (0.84, 0.03), 0.1: (0.31, 0.05)}
    assert "chronos2" not in BENCHMARKS["TEP"].paper and "chronos2" not in BENCHMARKS["FD004"].paper
    assert len(BENCHMARKS) == 15


def test_unknown_dataset_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown dataset 'NOPE'.*ETTm1"):
        get_benchmark("NOPE")
    assert get_benchmark("VIX") is BENCHMARKS["VIX"]


def test_an_entry_is_available_where_the_data_home_holds_its_folder(data_home, tmp_path):
    assert BENCHMARKS["VIX"].available(data_home) and not BENCHMARKS["TEP"].available(data_home)
    assert not BENCHMARKS["VIX"].available(tmp_path)
    assert BENCHMARKS["FD001"].available(tmp_path)  # shipped with the library


def test_cmapss_entry_gives_the_cmapss_protocol_windows(fd001):
    data = fd001
    reference = SubsetSplit("FD001", 0, regime=False)
    np.testing.assert_array_equal(data.X_test, reference.X_test)
    np.testing.assert_array_equal(data.y_train, reference.y_train)
    np.testing.assert_array_equal(data.g_test[:3], np.full(3, data.g_test[0]))
    assert len(data.g_valid) == len(data.X_valid) and len(data.g_test) == len(data.X_test)
    mask, n_units = data.train_mask(0.1)
    np.testing.assert_array_equal(mask, reference.train_mask(0.1))
    assert n_units == 6
    # the C-MAPSS condition at t+1 is the failure itself: one window per unit ends the cycle before it
    one_step = data.y_test["event"] & (data.y_test["time"] == 1)
    np.testing.assert_array_equal(data.point_test == 1, one_step)
    assert one_step.sum() >= len(np.unique(data.g_test)) - 1
    X_nasa, rul = data.nasa()
    assert len(X_nasa) == len(rul) == 100 and X_nasa.shape[1:] == data.X_test.shape[1:]


def test_only_cmapss_has_operating_regimes_to_normalise_by(data_home, small_registry):
    with pytest.raises(ValueError, match="no operating settings"):
        small_registry["VIX"].load(0, data_home=data_home, regime=True)


def test_cmapss_pretrainer_is_the_protocols_padded_by_default():
    entry = BENCHMARKS["FD001"]
    packed = entry.make_pretrainer(50, device="cpu", seed=3, layout="packed", lr=1e-3)
    assert packed.get_params() == protocol_pretrainer(50, device="cpu", seed=3, layout="packed", lr=1e-3).get_params()
    # the layout of the published C-MAPSS records
    assert type(entry.make_pretrainer(50, device="cpu", seed=3)).__name__ == "PaddedHEPAPretrainer"


def test_event_entries_pretrain_and_finetune_with_early_stopping():
    entry = BENCHMARKS["VIX"]
    pretrainer = entry.make_pretrainer(7, device="cpu", seed=1)
    assert type(pretrainer) is HEPAPretrainer
    assert (
        pretrainer.norm,
        pretrainer.K,
        pretrainer.max_epochs,
        pretrainer.early_stopping,
        pretrainer.n_iter_no_change,
        pretrainer.random_state,
    ) == ("revin", 200, 7, True, PATIENCE, 1)
    with pytest.raises(ValueError, match="packed batch layout only"):
        entry.make_pretrainer(7, device="cpu", seed=1, layout="padded")
    head = entry.make_event_predictor(5, device="cpu", seed=1, hidden=8)
    assert (head.K, head.max_epochs, head.early_stopping, head.validation_fraction, head.hidden) == (
        200,
        5,
        True,
        0.5,
        8,
    )
    fixed = BENCHMARKS["FD001"].make_event_predictor(5, device="cpu", seed=1)
    assert (fixed.K, fixed.max_epochs, fixed.early_stopping) == (150, 5, False)


class Recorder:
    """A stand-in head recording what ``fit`` was given."""

    def fit(self, X, y, groups=None):
        self.seen = (X, y, groups)
        return self


def test_fit_head_holds_out_exactly_the_validation_windows():
    E_train, E_valid = np.zeros((5, 2)), np.ones((3, 2))
    y_train, y_valid = np.arange(5), np.arange(3)
    X, y, groups = BENCHMARKS["VIX"].fit_head(Recorder(), E_train, y_train, E_valid, y_valid).seen
    np.testing.assert_array_equal(X, np.concatenate([E_train, E_valid]))
    np.testing.assert_array_equal(y, [0, 1, 2, 3, 4, 0, 1, 2])
    # the estimators hold out the last half of the groups: the validation part, the second group
    np.testing.assert_array_equal(groups, ["train"] * 5 + ["valid"] * 3)
    X, y, groups = BENCHMARKS["FD001"].fit_head(Recorder(), E_train, y_train, E_valid, y_valid).seen
    assert X is E_train and groups is None  # fixed epochs: the validation windows are not seen


def test_rolling_origin_only_where_the_split_is_a_fixed_cut_in_time():
    rolling = {name for name, entry in BENCHMARKS.items() if entry.origin_step}
    assert rolling == {"SMAP", "PSM", "MBA", "ETTm1", "Weather", "Beijing", "VIX", "GECCO"}
    assert all(BENCHMARKS[name].spec is not None for name in rolling)
    with pytest.raises(ValueError, match="seeds already draw the split"):
        BENCHMARKS["FD001"].load(1, split="rolling")
    with pytest.raises(ValueError, match="without an event"):
        BENCHMARKS["BATADAL"].load(1, split="rolling")
