"""The C-MAPSS protocol itself, on real units: disjoint splits, label subsets inside the training units, no test leakage."""

import numpy as np
import pytest
import torch

from hepa_sklearn.benchmarks.protocol import (
    SubsetSplit, default_pipeline, label_units, protocol_event_predictor, protocol_pretrainer, run_cmapss,
    split_units,
)
from hepa_sklearn.benchmarks.snapshots import kept_epoch
from hepa_sklearn.benchmarks.sweep import METHODS, Method, fit_calibrators, pretrain, run_cell
from hepa_sklearn.datasets import load_cmapss
from hepa_sklearn.datasets._cmapss import CMAPSS_SENSORS, SUBSETS, K
from hepa_sklearn.event_predictor import HEPAEventPredictor
from hepa_sklearn.metrics import h_auroc
from hepa_sklearn.pretrainer import HEPAPretrainer

FRACTIONS = (1.0, 0.1, 0.05, 0.02, 0.01)
# the protocol's pretraining with a small encoder, so one pretraining epoch takes about a second
SMALL_ENCODER = dict(d_model=32, n_heads=2, dim_feedforward=32, predictor_hidden=32, n_projections=32)


@pytest.mark.parametrize("subset", SUBSETS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_unit_split_is_a_disjoint_60_10_30_partition(subset, seed):
    units = load_cmapss(subset, stride=512).frame["unit"].unique()
    split = split_units(units, seed)
    parts = [set(split.train), set(split.valid), set(split.test)]
    assert not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2])
    assert set.union(*parts) == set(units)
    assert (len(split.train), len(split.valid)) == (round(0.6 * len(units)), round(0.1 * len(units)))


def test_label_subsets_are_nested_prefixes_of_the_training_units():
    split = split_units(np.arange(1, 101), 3)
    subsets = [label_units(split.train, fraction) for fraction in FRACTIONS]
    assert [len(units) for units in subsets] == [60, 6, 3, 2, 1]  # ceil(f * 60), at least one
    for larger, smaller in zip(subsets, subsets[1:]):
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
    """The demo's pipeline (``hepa demo``), one epoch of each stage."""
    torch.set_num_threads(1)
    messages = []
    result = run_cmapss("FD001", seed=0, pretrain_epochs=1, finetune_epochs=1, device="cpu", log=messages.append,
                        pretrain_params={"batch_layout": "packed"})
    eager = fd001_split
    assert result["n_finetune_windows"] == len(eager.X_train) and result["n_test_windows"] == len(eager.X_test)
    assert result["n_embedded_windows"] == len(eager.X_train) + len(eager.X_valid) + len(eager.X_test)
    assert result["batch_layout"] == "packed" and result["n_pretrain_windows"] == len(eager.X_pre)
    assert 0 <= result["h_auroc"] <= 1 and 0 <= result["valid_h_auroc"] <= 1
    assert result["total_s"] == pytest.approx(sum(result[k] for k in ("pretrain_s", "embed_s", "finetune_s",
                                                                      "predict_s")))
    assert len(messages) == 3 and f"finetune {len(eager.X_train)}, test {len(eager.X_test)}" in messages[-1]


def _perturbed_test_units(subset, seed):
    """The training file with every test unit's sensors and settings replaced by noise."""
    frame = load_cmapss(subset, stride=512).frame.copy()
    test = frame["unit"].isin(split_units(frame["unit"].unique(), seed).test)
    columns = ["setting1", "setting2", "setting3", *CMAPSS_SENSORS]
    noise = np.random.default_rng(1).normal(size=(int(test.sum()), len(columns)))
    frame.loc[test, columns] = frame.loc[test, columns].to_numpy() * 3.0 + 100.0 * noise
    return frame


@pytest.mark.parametrize("method", ["hepa", "hepa-regime"])
def test_test_units_change_no_fitted_statistic_weight_or_calibrator(method):
    """Pretraining, normalisation, finetuning and calibration see the same data whatever the test units hold."""
    torch.set_num_threads(1)
    subset = "FD002" if method == "hepa-regime" else "FD001"
    spec = Method("hepa", regime=METHODS[method].regime, pretrain=SMALL_ENCODER)
    runs = []
    for frame in (None, _perturbed_test_units(subset, 0)):
        data = SubsetSplit(subset, 0, regime=spec.regime, frame=frame)
        pretrainer, _ = pretrain(data, spec, pretrain_epochs=1, device="cpu", seed=0)
        predictor = protocol_event_predictor(1, device="cpu", seed=0, hidden=32)
        predictor.fit(pretrainer.transform(data.X_train), data.y_train)
        P_valid = predictor.predict_proba(pretrainer.transform(data.X_valid))
        runs.append((data, pretrainer, predictor, fit_calibrators(P_valid, data.y_valid)))
    (data_a, pre_a, pred_a, cal_a), (data_b, pre_b, pred_b, cal_b) = runs
    assert not np.array_equal(data_a.X_test, data_b.X_test, equal_nan=True)  # the perturbation reached the test part
    np.testing.assert_array_equal(pre_a.channel_loc_, pre_b.channel_loc_)
    np.testing.assert_array_equal(pre_a.channel_scale_, pre_b.channel_scale_)
    if spec.regime:
        for name in ("regime_centers_", "regime_mean_", "regime_std_", "global_mean_", "global_std_"):
            np.testing.assert_array_equal(getattr(data_a.regime_normalizer, name),
                                          getattr(data_b.regime_normalizer, name))
    for first, second in ((pre_a, pre_b), (pred_a, pred_b)):
        state_a, state_b = first.net_.module_.state_dict(), second.net_.module_.state_dict()
        assert all(torch.equal(state_a[key], state_b[key]) for key in state_a)
    isotonic_a, isotonic_b = cal_a["isotonic"].calibrator_, cal_b["isotonic"].calibrator_
    np.testing.assert_array_equal(isotonic_a.X_thresholds_, isotonic_b.X_thresholds_)
    np.testing.assert_array_equal(isotonic_a.y_thresholds_, isotonic_b.y_thresholds_)
    assert cal_a["sigmoid"].calibrator_.coef_ == pytest.approx(cal_b["sigmoid"].calibrator_.coef_, abs=0)


def test_a_cell_scores_validation_and_nasa_units_the_same_whatever_the_test_units_hold():
    torch.set_num_threads(1)
    cells = []
    for frame in (None, _perturbed_test_units("FD001", 0)):
        data = SubsetSplit("FD001", 0, regime=False, frame=frame)
        cells.append(run_cell(data, METHODS["gbm"], 0.1, seed=0, pretrain_epochs=1, finetune_epochs=1,
                              device="cpu", cache_dir=None))
    assert cells[0]["valid_h_auroc"] == cells[1]["valid_h_auroc"]
    assert cells[0]["nasa_rmse"] == cells[1]["nasa_rmse"]
    assert cells[0]["h_auroc"] != cells[1]["h_auroc"]


def test_protocol_pretrainer_normalises_globally_unless_a_variant_says_otherwise():
    assert protocol_pretrainer(2, device="cpu", seed=0).norm == "global"
    revin = protocol_pretrainer(2, device="cpu", seed=0, norm="revin", batch_layout="packed")
    assert (revin.norm, revin.batch_layout, revin.max_epochs) == ("revin", "packed", 2)
    assert METHODS["hepa-revin"].pretrain["norm"] == "revin"


@pytest.mark.parametrize("method, changed", [("hepa-default", {}),
                                             ("hepa-default-rank", {"early_stopping_score": "rank"})])
def test_default_pipeline_cell_is_the_plain_pipeline_fitted_on_the_labelled_windows_alone(method, changed):
    torch.set_num_threads(1)
    data = SubsetSplit("FD001", 0, regime=False)
    cell = run_cell(data, METHODS[method], 0.01, seed=0, pretrain_epochs=50, finetune_epochs=30,
                    device="cpu", cache_dir=None)
    mask = data.train_mask(0.01)
    pipe = default_pipeline(K, seed=0, device="cpu", **changed)
    # every parameter at its default but the seed and device (and K for the predictor), and the
    # candidate default's one change
    assert pipe[0].get_params() == HEPAPretrainer(random_state=0, device="cpu", **changed).get_params()
    assert pipe[-1].get_params() == HEPAEventPredictor(K=K, random_state=0, device="cpu").get_params()
    pipe.fit(data.X_train[mask], data.y_train[mask])
    # the protocol's epoch counts do not apply: the defaults' early stopping decides
    assert cell["pretrain_epochs_run"] == pipe[0].n_epochs_ and cell["finetune_epochs_run"] == pipe[-1].n_epochs_
    assert cell["pretrain_epoch_kept"] == kept_epoch(pipe[0]) <= pipe[0].n_epochs_
    assert cell["n_train_windows"] == mask.sum() and cell["pretrain_s"] == 0.0
    assert cell["h_auroc"] == pytest.approx(h_auroc(data.y_test, pipe.predict_proba(data.X_test)), abs=1e-12)


def test_a_cell_pretrained_under_the_rank_rule_records_the_epoch_it_kept():
    torch.set_num_threads(1)
    data = SubsetSplit("FD001", 0, regime=False)
    spec = Method("hepa", pretrain={**METHODS["hepa-rankstop"].pretrain, **SMALL_ENCODER})
    pretrainer, seconds = pretrain(data, spec, pretrain_epochs=3, device="cpu", seed=0)
    ranks = pretrainer.history_[:, "valid_rank"]
    assert len(ranks) == pretrainer.n_epochs_ <= 3
    cell = run_cell(data, spec, 0.01, seed=0, pretrain_epochs=3, finetune_epochs=1, device="cpu", cache_dir=None,
                    pretrained=(pretrainer, seconds))
    assert cell["pretrain_epochs_run"] == pretrainer.n_epochs_
    kept = dict(pretrainer.net_.callbacks_)["early_stopping"].best_epoch_
    assert cell["pretrain_epoch_kept"] == kept and 1 <= kept <= pretrainer.n_epochs_
    assert ranks[kept - 1] >= max(ranks) * (1 - 1e-3)  # the highest rank, up to early stopping's threshold
    fixed, _ = pretrain(data, Method("hepa", pretrain=SMALL_ENCODER), pretrain_epochs=1, device="cpu", seed=0)
    cell = run_cell(data, Method("hepa"), 0.01, seed=0, pretrain_epochs=1, finetune_epochs=1, device="cpu",
                    cache_dir=None, pretrained=(fixed, 0.0))
    assert "pretrain_epoch_kept" not in cell  # the protocol's fixed epochs: nothing was chosen
