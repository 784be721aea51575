"""The C-MAPSS protocol itself, on real units: disjoint splits, label subsets inside the training units, no test
leakage."""

import importlib
import re

import numpy as np
import pytest
import torch

from hepa_sklearn.calibration import SurfaceCalibrator
from hepa_sklearn.cmapss_protocol import (
    SubsetSplit,
    label_units,
    protocol_event_predictor,
    protocol_pretrainer,
    run_cmapss,
    split_units,
)
from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.datasets._cmapss import CMAPSS_SENSORS, SUBSETS
from hepa_sklearn.event_predictor import HEPAEventPredictor
from hepa_sklearn.pretrainer import HEPAPretrainer

FRACTIONS = (1.0, 0.1, 0.05, 0.02, 0.01)
# the protocol's pretraining with a small encoder, so one pretraining epoch takes about a second
SMALL_ENCODER = dict(d_model=32, n_heads=2)


@pytest.mark.parametrize("subset", SUBSETS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_unit_split_is_a_disjoint_60_10_30_partition(subset, seed):
    units = load_cmapss(subset, stride=512).frame["unit"].unique()
    split = split_units(units, seed)
    parts = [set(split.train), set(split.valid), set(split.test)]
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    assert set.union(*parts) == set(units)
    assert (len(split.train), len(split.valid)) == (round(0.6 * len(units)), round(0.1 * len(units)))


@pytest.mark.parametrize("fraction, expected", [(1.0, 60), (0.1, 6), (0.05, 3), (0.02, 2), (0.01, 1), (0.001, 1)])
def test_label_units_take_the_first_ceil_fraction(fraction, expected):
    units = np.arange(100, 160)
    chosen = label_units(units, fraction)
    assert len(chosen) == expected
    np.testing.assert_array_equal(chosen, units[:expected])


def test_label_subsets_are_nested_prefixes_of_the_training_units():
    split = split_units(np.arange(1, 101), 3)
    subsets = [label_units(split.train, fraction) for fraction in FRACTIONS]
    assert [len(units) for units in subsets] == [60, 6, 3, 2, 1]  # ceil(f * 60), at least one
    for larger, smaller in zip(subsets, subsets[1:], strict=False):
        assert set(smaller) <= set(larger) <= set(split.train)


@pytest.fixture(scope="module")
def fd001_split():
    return SubsetSplit("FD001", 0, regime=False)


def test_labelled_windows_come_from_labelled_training_units_only(fd001_split):
    data = fd001_split
    for fraction in FRACTIONS:
        groups = np.unique(data.g_train[data.train_mask(fraction)])
        assert set(groups) == set(label_units(data.split.train, fraction))
    assert len(data.X_pre) == len(data.split.train)  # one whole-history window per training unit


@pytest.mark.parametrize("subset, regime", [("FD001", False), ("FD002", True)])
def test_deferred_windows_are_the_eager_ones_built_and_released_part_by_part(subset, regime):
    eager = SubsetSplit(subset, 0, regime=regime)
    lazy = SubsetSplit(subset, 0, regime=regime, defer_windows=True)
    np.testing.assert_array_equal(lazy.X_pre, eager.X_pre)
    assert not hasattr(lazy, "X_test") and lazy.n_windows == {}
    lazy.build_windows("test")
    np.testing.assert_array_equal(lazy.X_test, eager.X_test)
    assert lazy.n_windows == {"test": len(eager.X_test)} and not hasattr(lazy, "X_train")
    lazy.drop_windows("test")
    assert lazy.X_test is None and len(lazy.y_test) == len(eager.y_test)  # labels stay
    lazy.build_windows()
    for name in ("X_train", "y_train", "g_train", "X_valid", "y_valid", "X_test", "y_test"):
        np.testing.assert_array_equal(getattr(lazy, name), getattr(eager, name))
    with pytest.raises(ValueError, match=r"unknown parts \['pre'\]"):
        lazy.build_windows("pre")
    with pytest.raises(ValueError, match="unknown parts"):
        lazy.drop_windows("train", "nope")


def test_run_cmapss_embeds_every_part_and_reports_its_sizes(fd001_split):
    """The protocol's pipeline (``hepa protocol``), one epoch of each stage."""
    torch.set_num_threads(1)
    messages = []
    result = run_cmapss("FD001", seed=0, pretrain_epochs=1, finetune_epochs=1, device="cpu", log=messages.append)
    eager = fd001_split
    assert result["n_finetune_windows"] == len(eager.X_train) and result["n_test_windows"] == len(eager.X_test)
    assert result["n_embedded_windows"] == len(eager.X_train) + len(eager.X_valid) + len(eager.X_test)
    assert result["n_pretrain_windows"] == len(eager.X_pre) and result["cuts_per_window"] == 40
    assert 0 <= result["h_auroc"] <= 1 and 0 <= result["valid_h_auroc"] <= 1
    assert result["total_s"] == pytest.approx(
        sum(result[k] for k in ("pretrain_s", "embed_s", "finetune_s", "predict_s"))
    )
    assert len(messages) == 3 and f"finetune {len(eager.X_train)}, test {len(eager.X_test)}" in messages[-1]


def test_run_cmapss_fits_a_given_pretrainer_in_place_of_the_protocols(monkeypatch):
    torch.set_num_threads(1)
    given = protocol_pretrainer(1, device="cpu", seed=0, **SMALL_ENCODER)
    fitted = []
    original = HEPAPretrainer.fit

    def recording(self, X, *args, **kwargs):
        fitted.append(self)
        return original(self, X, *args, **kwargs)

    monkeypatch.setattr(HEPAPretrainer, "fit", recording)
    result = run_cmapss(
        "FD001", seed=0, pretrain_epochs=1, finetune_epochs=1, device="cpu", log=lambda m: None, pretrainer=given
    )
    assert fitted == [given] and given.n_epochs_ == 1 and given.d_model == 32
    assert 0 <= result["h_auroc"] <= 1


def test_run_cmapss_options_reach_the_estimators_and_the_result(monkeypatch):
    """``cuts_per_unit`` and ``horizon_knots`` change the fitted estimators; the paper's run sets neither."""
    torch.set_num_threads(1)
    fitted = []
    for estimator in (HEPAPretrainer, HEPAEventPredictor):
        original = estimator.fit

        def recording(self, X, *args, _original=original, **kwargs):
            fitted.append(self)
            return _original(self, X, *args, **kwargs)

        monkeypatch.setattr(estimator, "fit", recording)
    settings = dict(seed=0, pretrain_epochs=1, finetune_epochs=1, device="cpu", log=lambda m: None)
    result = run_cmapss("FD001", cuts_per_unit=2, horizon_knots=6, **settings)
    pretrainer, predictor = fitted
    assert pretrainer.cuts_per_window == 2 and predictor.horizon_knots == 6
    assert (result["cuts_per_window"], result["horizon_knots"]) == (2, 6)
    # 2 cuts of each of the 60 training units: 120 pairs, two batches of 64, instead of 38 with 40 cuts
    assert pretrainer.history_[-1, "batches"][-1]["train_batch_size"] == 120 - 64
    paper = (protocol_pretrainer(1, device="cpu", seed=0), protocol_event_predictor(1, device="cpu", seed=0))
    assert (paper[0].cuts_per_window, paper[1].horizon_knots) == (40, None)


@pytest.mark.parametrize(
    "options, name",
    [
        ({"horizon_knots": 1}, "horizon_knots"),
        ({"horizon_knots": 2.5}, "horizon_knots"),
        ({"cuts_per_unit": 0}, "cuts_per_window"),
        ({"pretrain_epochs": -1}, "max_epochs"),
        ({"finetune_epochs": 0}, "max_epochs"),
    ],
)
def test_run_cmapss_refuses_bad_options_before_any_work(options, name, monkeypatch):
    """A bad option is refused before the data are read, pretraining runs and the windows are embedded."""

    def no_work(*args, **kwargs):
        raise AssertionError("the run started before its options were checked")

    monkeypatch.setattr(HEPAPretrainer, "fit", no_work)
    monkeypatch.setitem(run_cmapss.__globals__, "SubsetSplit", no_work)
    settings = dict(pretrain_epochs=1, finetune_epochs=1, device="cpu", log=lambda m: None)
    with pytest.raises(ValueError, match=rf"'{name}' parameter"):
        run_cmapss("FD001", **{**settings, **options})


def _perturbed_test_units(subset, seed):
    """The training file with every test unit's sensors and settings replaced by noise."""
    frame = load_cmapss(subset, stride=512).frame.copy()
    test = frame["unit"].isin(split_units(frame["unit"].unique(), seed).test)
    columns = ["setting1", "setting2", "setting3", *CMAPSS_SENSORS]
    noise = np.random.default_rng(1).normal(size=(int(test.sum()), len(columns)))
    frame.loc[test, columns] = frame.loc[test, columns].to_numpy() * 3.0 + 100.0 * noise
    return frame


@pytest.mark.parametrize("subset, regime", [("FD001", False), ("FD002", True)])
def test_test_units_change_no_fitted_statistic_weight_or_calibrator(subset, regime):
    """Pretraining, normalisation, finetuning and calibration see the same data whatever the test units hold."""
    torch.set_num_threads(1)
    runs = []
    for frame in (None, _perturbed_test_units(subset, 0)):
        data = SubsetSplit(subset, 0, regime=regime, frame=frame)
        pretrainer = protocol_pretrainer(1, device="cpu", seed=0, **SMALL_ENCODER).fit(data.X_pre)
        predictor = protocol_event_predictor(1, device="cpu", seed=0, hidden=32)
        predictor.fit(pretrainer.transform(data.X_train), data.y_train)
        P_valid = predictor.predict_proba(pretrainer.transform(data.X_valid))
        calibrators = {
            method: SurfaceCalibrator(method=method).fit(P_valid, data.y_valid) for method in ("isotonic", "sigmoid")
        }
        runs.append((data, pretrainer, predictor, calibrators))
    (data_a, pre_a, pred_a, cal_a), (data_b, pre_b, pred_b, cal_b) = runs
    assert not np.array_equal(data_a.X_test, data_b.X_test, equal_nan=True)  # the perturbation reached the test part
    np.testing.assert_array_equal(pre_a.channel_loc_, pre_b.channel_loc_)
    np.testing.assert_array_equal(pre_a.channel_scale_, pre_b.channel_scale_)
    if regime:
        for name in ("regime_centers_", "regime_mean_", "regime_std_", "global_mean_", "global_std_"):
            np.testing.assert_array_equal(
                getattr(data_a.regime_normalizer, name), getattr(data_b.regime_normalizer, name)
            )
    for first, second in ((pre_a, pre_b), (pred_a, pred_b)):
        state_a, state_b = first.net_.module_.state_dict(), second.net_.module_.state_dict()
        assert all(torch.equal(state_a[key], state_b[key]) for key in state_a)
    isotonic_a, isotonic_b = cal_a["isotonic"].calibrator_, cal_b["isotonic"].calibrator_
    np.testing.assert_array_equal(isotonic_a.X_thresholds_, isotonic_b.X_thresholds_)
    np.testing.assert_array_equal(isotonic_a.y_thresholds_, isotonic_b.y_thresholds_)
    assert cal_a["sigmoid"].calibrator_.coef_ == pytest.approx(cal_b["sigmoid"].calibrator_.coef_, abs=0)


def test_protocol_estimators_normalise_globally_and_train_fixed_epochs_unless_told_otherwise():
    pretrainer = protocol_pretrainer(2, device="cpu", seed=0)
    assert (pretrainer.norm, pretrainer.early_stopping, pretrainer.max_epochs, pretrainer.cuts_per_window) == (
        "global",
        False,
        2,
        40,
    )
    revin = protocol_pretrainer(2, device="cpu", seed=0, norm="revin", early_stopping=True)
    assert (revin.norm, revin.early_stopping) == ("revin", True)
    predictor = protocol_event_predictor(3, device="cpu", seed=1)
    assert (predictor.K, predictor.max_epochs, predictor.early_stopping, predictor.random_state) == (150, 3, False, 1)


def test_run_cmapss_with_the_untrained_encoder():
    torch.set_num_threads(1)
    messages = []
    given = protocol_pretrainer(0, device="cpu", seed=0, **SMALL_ENCODER)
    result = run_cmapss(
        "FD001", seed=0, pretrain_epochs=0, finetune_epochs=1, device="cpu", log=messages.append, pretrainer=given
    )
    assert given.n_epochs_ == 0 and 0 <= result["h_auroc"] <= 1
    assert "pretrained 0 epochs in" in messages[1] and "final loss" not in messages[1]


@pytest.mark.parametrize("name", ["run_cmapss", "SubsetSplit", "RUL_CAP", "CMAPSS_SENSORS"])
def test_the_former_module_path_warns_and_gives_the_same_object(name):
    import hepa_sklearn.cmapss_protocol as new
    import hepa_sklearn.protocol as old

    message = (
        rf"hepa_sklearn\.protocol is deprecated in 0\.3\.0 and will be removed in 0\.5\.0: import {name} from "
        rf"hepa_sklearn\.cmapss_protocol \(from hepa_sklearn\.cmapss_protocol import {name}\)"
    )
    with pytest.warns(FutureWarning, match=message):
        assert getattr(old, name) is getattr(new, name)
    assert old.__all__ == new.__all__


def test_the_former_module_path_knows_no_other_name():
    old = importlib.import_module("hepa_sklearn.protocol")
    with pytest.raises(AttributeError, match=re.escape("'hepa_sklearn.protocol' has no attribute 'no_such_name'")):
        old.no_such_name  # noqa: B018
