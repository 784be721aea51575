"""The C-MAPSS rows on NASA's test engines: all training engines split 90/10, every window at every age scored."""

import numpy as np
from hepa_bench.nasa.rows import NASA_ROWS
from hepa_bench.registry import BENCHMARKS
from hepa_bench.runner import RUN_DATASETS

from hepa_sklearn.cmapss_protocol import SubsetSplit
from hepa_sklearn.datasets import load_cmapss


def test_the_test_part_is_every_window_of_nasas_test_engines_as_load_cmapss_gives_them():
    entry = NASA_ROWS["FD001-NASA"]
    data = entry.load(3)
    test = load_cmapss("FD001", split="test", stride=1)
    np.testing.assert_array_equal(data.X_test, test.X)
    np.testing.assert_array_equal(data.y_test["time"], test.y["time"])
    assert data.y_test["event"].all() and (data.g_test == test.groups).all()
    # training and validation: the 100 training engines split 90/10 by the seed, windows from the first cycle
    train_units, valid_units = np.unique(data.g_train), np.unique(data.g_valid)
    assert len(train_units) == 90 and len(valid_units) == 10 and not set(train_units) & set(valid_units)
    every_age = load_cmapss("FD001")
    assert len(data.X_train) + len(data.X_valid) == len(every_age.X)
    assert np.isnan(data.X_train[:, 0, :]).all(axis=1).sum() == 0  # every window holds at least one cycle
    assert data.y_train["time"].max() >= 300  # windows of young engines, far from failure, are there
    # another seed, other units; the test windows never change
    other = entry.load(4)
    assert set(np.unique(other.g_valid)) != set(valid_units)
    np.testing.assert_array_equal(other.X_test, data.X_test)
    # the label fraction keeps the first units of the seed's training list
    mask, n_units = data.train_mask(0.1)
    assert n_units == 9 and len(np.unique(data.g_train[mask])) == 9


def test_the_rows_run_beside_the_protocols_rows_with_its_settings():
    for subset in ("FD001", "FD002", "FD003", "FD004"):
        row, protocol = NASA_ROWS[f"{subset}-NASA"], BENCHMARKS[subset]
        assert RUN_DATASETS[row.name] is row and row.is_cmapss
        assert (row.K, row.context_length, row.finetune_stride) == (protocol.K, protocol.context_length, 4)
        assert row.min_history == 1 and protocol.min_history == 128
    assert not set(NASA_ROWS) & set(BENCHMARKS)


def test_regime_windows_keep_the_settings_and_are_normalised_by_the_training_engines_conditions():
    data = NASA_ROWS["FD002-NASA"].load(0, regime=True)
    protocol = SubsetSplit("FD002", 0, regime=True, defer_windows=True)
    assert data.X_train.shape[1] == data.X_test.shape[1] == protocol.X_pre.shape[1]  # the protocol's channels
    # standardised within each operating condition of the training engines: a sensor near mean 0, sd 1 there
    sensor = data.X_pre[:, -1]
    assert abs(np.nanmean(sensor)) < 0.2 and 0.8 < np.nanstd(sensor) < 1.2
    X, rul = data.nasa()
    assert len(X) == len(rul) == 259 and np.isfinite(rul).all()


def test_the_nasa_section_pairs_the_headline_line_with_every_other_method_by_seed():
    from hepa_bench.report.nasa import render_nasa

    def record(method, seed, score, fraction=1.0, dataset="FD001-NASA"):
        return {"dataset": dataset, "method": method, "seed": seed, "fraction": fraction, "h_auroc": score}

    headline = "hepa-default-auto0-knots12"
    records = [record(headline, s, 0.90 + 0.01 * s) for s in range(3)]
    records += [record("gbm", s, 0.88 + 0.01 * s + (0.01 if s == 2 else 0.0)) for s in range(3)]
    records += [record("gbm", 9, 0.1), record("elapsed", 0, 0.8), record("gbm", 0, 0.5, dataset="FD001")]
    lines = render_nasa(records)
    (row,) = [line for line in lines if line.startswith("| FD001-NASA")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    # gbm's mean over its four seeds; the pairs only over the three seeds both ran: differences 0.02, 0.02, 0.01
    assert cells[2] == "0.910 ± 0.010 (3)" and cells[3].endswith("(4)")
    half = 4.302652729911275 * np.std([0.02, 0.02, 0.01], ddof=1) / np.sqrt(3)
    assert cells[5] == f"+0.017 [{0.05 / 3 - half:+.3f}, {0.05 / 3 + half:+.3f}] (3)"
    assert cells[6] == "–"  # one pair with elapsed: no interval
    assert render_nasa([record("gbm", 0, 0.5, dataset="FD001")]) == []
