"""Tests for the shipped C-MAPSS data and its loader."""

from importlib import resources

import numpy as np
import pandas as pd
import pytest

from hepa_sklearn.datasets import CMAPSS_SENSORS, load_cmapss
from hepa_sklearn.windows import make_windows

SUBSETS = ("FD001", "FD002", "FD003", "FD004")
UNIT_COUNTS = {
    "FD001": {"train": 100, "test": 100},
    "FD002": {"train": 260, "test": 259},
    "FD003": {"train": 100, "test": 100},
    "FD004": {"train": 249, "test": 248},
}
RAW_COLUMNS = ["unit", "cycle", "setting1", "setting2", "setting3"] + [f"s{i}" for i in range(1, 22)]


def _rul_file(subset):
    path = resources.files("hepa_sklearn.datasets") / "data" / f"RUL_{subset}.txt"
    return np.array([int(line) for line in path.read_text().split()], dtype=np.int64)


def _window_ends(n_steps, stride, min_history):
    """Row positions (within a unit) at which windows end, oldest first."""
    return np.arange(n_steps - 1, min_history - 2, -stride)[::-1]


def _observed_steps(X):
    return np.sum(~np.isnan(X[:, 0, :]), axis=1)


def test_sensor_names():
    assert isinstance(CMAPSS_SENSORS, tuple)
    assert CMAPSS_SENSORS == (
        "s2",
        "s3",
        "s4",
        "s7",
        "s8",
        "s9",
        "s11",
        "s12",
        "s13",
        "s14",
        "s15",
        "s17",
        "s20",
        "s21",
    )


def test_data_files_are_shipped():
    data_dir = resources.files("hepa_sklearn.datasets") / "data"
    names = ["readme.txt"]
    for subset in SUBSETS:
        names += [f"train_{subset}.txt.gz", f"test_{subset}.txt.gz", f"RUL_{subset}.txt"]
    for name in names:
        assert (data_dir / name).is_file(), name


def test_train_shapes_and_dtypes():
    data = load_cmapss("FD001")
    n = data.X.shape[0]
    assert data.X.dtype == np.float32
    assert data.X.shape == (n, 14, 512)
    assert data.y.dtype.names == ("event", "time")
    assert data.y["event"].dtype == bool
    assert data.y["time"].dtype == np.float64
    assert data.y.shape == (n,)
    assert data.groups.shape == (n,)
    assert np.issubdtype(data.groups.dtype, np.integer)
    assert data.feature_names == list(CMAPSS_SENSORS)
    assert data.setting_names == ["setting1", "setting2", "setting3"]
    assert data.rul is None
    assert list(data.frame.columns) == RAW_COLUMNS + ["failure"]
    assert data.frame["unit"].dtype == np.int64
    assert data.frame["cycle"].dtype == np.int64
    assert data.frame["failure"].dtype == bool
    for column in RAW_COLUMNS[2:]:
        assert data.frame[column].dtype == np.float64, column
    assert "FD001" in data.DESCR and "context_length=512" in data.DESCR
    assert "stride=4" in data.DESCR and "min_history=1." in data.DESCR


def test_test_shapes_and_dtypes():
    data = load_cmapss("FD003", split="test", context_length=16)
    assert data.X.dtype == np.float32
    assert data.X.shape[1:] == (14, 16)
    assert list(data.frame.columns) == RAW_COLUMNS + ["failure", "rul"]
    assert data.frame["rul"].dtype == np.int64
    assert not data.frame["failure"].any()
    assert isinstance(data.rul, np.ndarray)
    assert np.issubdtype(data.rul.dtype, np.integer)
    np.testing.assert_array_equal(data.rul, _rul_file("FD003"))
    assert "split=test" in data.DESCR and "min_history=1" in data.DESCR


@pytest.mark.parametrize("subset", SUBSETS)
@pytest.mark.parametrize("split", ["train", "test"])
def test_unit_counts(subset, split):
    data = load_cmapss(subset, split=split, context_length=4, stride=16)
    expected = UNIT_COUNTS[subset][split]
    assert data.frame["unit"].nunique() == expected
    np.testing.assert_array_equal(np.unique(data.frame["unit"]), np.arange(1, expected + 1))
    # every unit yields at least its last-cycle window
    np.testing.assert_array_equal(np.unique(data.groups), np.arange(1, expected + 1))
    # cycles run 1..T inside every unit
    counts = data.frame.groupby("unit")["cycle"].agg(["count", "min", "max"])
    assert (counts["min"] == 1).all() and (counts["max"] == counts["count"]).all()
    if split == "test":
        assert data.rul.shape == (expected,)


@pytest.mark.parametrize("subset", SUBSETS)
def test_train_failure_once_at_last_cycle(subset):
    frame = load_cmapss(subset, context_length=4, stride=64).frame
    per_unit = frame.groupby("unit")
    assert (per_unit["failure"].sum() == 1).all()
    failure_cycle = frame.loc[frame["failure"]].set_index("unit")["cycle"]
    pd.testing.assert_series_equal(failure_cycle.sort_index(), per_unit["cycle"].max().sort_index(), check_names=False)


def test_windows_have_min_history():
    # the default keeps windows from a unit's first cycle, as the test split does
    train = load_cmapss("FD001", context_length=256)
    observed = _observed_steps(train.X)
    assert observed.min() < 128 and observed.max() <= 256
    assert (observed[train.y["event"]] >= 1).all()
    # the protocol's windows: at least 128 cycles of history, passed explicitly
    protocol = load_cmapss("FD001", context_length=256, min_history=128)
    assert _observed_steps(protocol.X).min() >= 128
    assert len(protocol.X) < len(train.X)

    custom = load_cmapss("FD001", context_length=64, min_history=50)
    assert _observed_steps(custom.X).min() >= 50
    # windows with between 50 and 63 observed steps are left-padded with NaN
    assert np.isnan(custom.X[:, :, 0]).any()

    test = load_cmapss("FD001", split="test", context_length=64)
    observed_test = _observed_steps(test.X)
    assert observed_test.min() == 1
    # min_history=1 keeps every cycle of a unit when stride is 1
    dense = load_cmapss("FD001", split="test", context_length=8, stride=1)
    assert dense.X.shape[0] == len(dense.frame)


def test_train_labels_for_one_unit():
    data = load_cmapss("FD001")
    unit = 1
    rows = data.frame[data.frame["unit"] == unit]
    n_steps = len(rows)
    assert n_steps == 192
    mask = data.groups == unit
    y_unit = data.y[mask]
    X_unit = data.X[mask]
    ends = _window_ends(n_steps, 4, 1)
    assert y_unit.shape[0] == ends.shape[0] == (n_steps - 1) // 4 + 1 == 48

    # the window ending at the failure cycle is censored with time 0
    assert not y_unit["event"][-1]
    assert y_unit["time"][-1] == 0.0
    # the one 4 cycles earlier sees the failure 4 cycles ahead, and so on back
    assert y_unit["event"][-2]
    assert y_unit["time"][-2] == 4.0
    assert y_unit["event"][:-1].all()
    np.testing.assert_array_equal(y_unit["time"], (n_steps - 1) - ends)
    # counted back from the failure in steps of 4, the earliest window ends at the unit's fourth cycle
    assert y_unit["time"][0] == n_steps - 4 and _observed_steps(X_unit[:1])[0] == 4

    # window contents line up with the frame
    sensors = rows[list(CMAPSS_SENSORS)].to_numpy(dtype=np.float32)
    np.testing.assert_array_equal(X_unit[-1][:, -1], sensors[-1])
    np.testing.assert_array_equal(X_unit[-1][:, -n_steps:], sensors.T)
    assert np.isnan(X_unit[-1][:, : 512 - n_steps]).all()


def test_train_events_across_units():
    data = load_cmapss("FD002", context_length=8)
    censored = ~data.y["event"]
    # exactly one censored window (time 0, at the failure cycle) per unit
    assert censored.sum() == data.frame["unit"].nunique()
    assert (data.y["time"][censored] == 0).all()
    assert (data.y["time"][~censored] > 0).all()


@pytest.mark.parametrize("subset", ["FD001", "FD004"])
def test_test_labels_from_rul(subset):
    data = load_cmapss(subset, split="test", context_length=16)
    rul = _rul_file(subset)
    assert data.y["event"].all()
    units = np.unique(data.frame["unit"])
    np.testing.assert_array_equal(np.unique(data.groups), units)
    # windows come unit by unit, so each unit's last window is its last-cycle window
    last_index = np.flatnonzero(np.r_[data.groups[1:] != data.groups[:-1], True])
    np.testing.assert_array_equal(data.groups[last_index], units)
    np.testing.assert_array_equal(data.y["time"][last_index], rul.astype(float))
    # the frame's rul at each unit's last cycle is the RUL file value
    last_rows = data.frame.groupby("unit").tail(1)
    np.testing.assert_array_equal(last_rows["rul"].to_numpy(), rul)
    # and it grows by one per cycle back in time
    diffs = data.frame.groupby("unit")["rul"].diff().dropna()
    assert (diffs == -1).all()


def test_test_time_equals_censored_time_plus_rul():
    subset, stride, min_history = "FD002", 3, 5
    data = load_cmapss(subset, split="test", context_length=16, stride=stride, min_history=min_history)
    rul = _rul_file(subset)
    frame = data.frame
    _, y_censored, groups = make_windows(
        frame,
        feature_cols=list(CMAPSS_SENSORS),
        event_col="failure",
        unit_col="unit",
        time_col="cycle",
        context_length=16,
        stride=stride,
        min_history=min_history,
    )
    assert not y_censored["event"].any()
    np.testing.assert_array_equal(groups, data.groups)
    np.testing.assert_array_equal(data.y["time"], y_censored["time"] + rul[groups - 1])

    # independently: time is the frame's rul at the row each window ends at
    expected = []
    for _, part in frame.groupby("unit", sort=True):
        ends = _window_ends(len(part), stride, min_history)
        expected.append(part["rul"].to_numpy()[ends])
    np.testing.assert_array_equal(data.y["time"], np.concatenate(expected).astype(float))


def test_stride_and_context_length_are_honoured():
    base = load_cmapss("FD001", context_length=32, stride=1)
    strided = load_cmapss("FD001", context_length=32, stride=5)
    assert base.X.shape[1:] == (14, 32)
    lengths = base.frame.groupby("unit").size().to_numpy()
    assert base.X.shape[0] == int(np.sum(lengths))  # a window at every cycle of every unit
    assert strided.X.shape[0] == int(np.sum((lengths - 1) // 5 + 1))
    # consecutive windows of a unit end 5 cycles apart
    for unit in (1, 50, 100):
        times = strided.y["time"][strided.groups == unit]
        np.testing.assert_array_equal(np.diff(times), -5.0)
    # with stride 1 each window is the previous one shifted by one cycle
    unit_X = base.X[base.groups == 1]
    np.testing.assert_array_equal(unit_X[1:, :, :-1], unit_X[:-1, :, 1:])


def test_subset_is_case_insensitive():
    lower = load_cmapss("fd003", context_length=4, stride=32)
    upper = load_cmapss("FD003", context_length=4, stride=32)
    np.testing.assert_array_equal(lower.X, upper.X)
    assert "subset=FD003" in lower.DESCR


@pytest.mark.parametrize("subset", ["FD005", "", "FD00", None, 1])
def test_bad_subset_raises(subset):
    with pytest.raises(ValueError, match="FD001.*FD002.*FD003.*FD004"):
        load_cmapss(subset)


@pytest.mark.parametrize("split", ["validation", "Train", None])
def test_bad_split_raises(split):
    with pytest.raises(ValueError, match="train.*test"):
        load_cmapss("FD001", split=split)


def test_bad_window_parameters_raise():
    with pytest.raises(ValueError, match="context_length"):
        load_cmapss("FD001", context_length=0)
    with pytest.raises(ValueError, match="stride"):
        load_cmapss("FD001", stride=0)
    with pytest.raises(ValueError, match="min_history"):
        load_cmapss("FD001", min_history=100_000)


def test_returned_frames_are_independent_copies():
    first = load_cmapss("FD001", split="test", context_length=4, stride=64)
    first.frame.loc[:, "s2"] = -1.0
    first.rul[:] = -1
    second = load_cmapss("FD001", split="test", context_length=4, stride=64)
    assert (second.frame["s2"] > 0).all()
    np.testing.assert_array_equal(second.rul, _rul_file("FD001"))
