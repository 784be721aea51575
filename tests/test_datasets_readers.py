"""Tests of the SMAP, PSM and GECCO readers on tiny files written in their published layouts."""

import gzip

import numpy as np
import pandas as pd
import pytest

from hepa_sklearn.datasets import load_gecco, load_psm, load_smap

# Labelled series are split at 60 % and 70 % of their rows with a 200-row
# gap, so 3,000 rows give train [0, 1800), valid [2000, 2100), test [2300, 3000).
N_ROWS = 3000


def _smap_home(tmp_path, channels):
    """Write a telemanom layout: ``channels`` maps chan_id -> (spacecraft, train, test, sequences)."""
    home = tmp_path / "home"
    (home / "SMAP" / "train").mkdir(parents=True)
    (home / "SMAP" / "test").mkdir(parents=True)
    rows = []
    for chan, (spacecraft, train, test, sequences) in channels.items():
        np.save(home / "SMAP" / "train" / f"{chan}.npy", train)
        np.save(home / "SMAP" / "test" / f"{chan}.npy", test)
        rows.append(
            {
                "chan_id": chan,
                "spacecraft": spacecraft,
                "anomaly_sequences": str(sequences),
                "class": "[contextual]",
                "num_values": len(test),
            }
        )
    pd.DataFrame(rows).to_csv(home / "SMAP" / "labeled_anomalies.csv", index=False)
    return home


def _series(n_rows, seed):
    values = np.zeros((n_rows, 25))
    values[:, 0] = np.random.default_rng(seed).normal(size=n_rows)
    values[::7, 3] = 1.0  # one command channel switches now and then
    return values


def test_smap_reader_events_split_and_scaling(tmp_path):
    n = N_ROWS
    channels = {
        "P-1": ("SMAP", _series(500, 0), _series(n, 1), [[100, 149], [1900, 2049], [2500, 2599]]),
        "A-2": ("SMAP", _series(400, 2), _series(n, 3), [[0, 9], [2600, 2609], [2610, 2700]]),
        "M-1": ("MSL", _series(300, 4), _series(n, 5), [[50, 60]]),
    }
    home = _smap_home(tmp_path, channels)
    data = load_smap(data_home=home, split="test", context_length=20, stride=50)

    # MSL channels are left out; each SMAP channel gives a normal and a labelled unit
    assert sorted(data.frame["unit"].unique()) == ["A-2", "A-2/train", "P-1", "P-1/train"]
    table = data.splits.set_index(["unit", "split"])
    assert table.loc[("P-1/train", "normal"), ["start", "stop"]].tolist() == [0, 500]
    assert table.loc[("P-1", "train"), ["start", "stop", "n_events"]].tolist() == [0, 1800, 1]
    # the anomaly [1900, 2049] starts in the gap: no valid event, though valid rows are labelled
    assert table.loc[("P-1", "valid"), ["start", "stop", "n_events"]].tolist() == [2000, 2100, 0]
    assert table.loc[("P-1", "test"), ["start", "stop", "n_events"]].tolist() == [2300, 3000, 1]
    # [0, 9] is under way at the first row (no observed onset); [2600, 2609] and
    # [2610, 2700] touch, so they form one anomaly
    assert table.loc[("A-2", "train"), "n_events"] == 0
    assert table.loc[("A-2", "test"), "n_events"] == 1
    a2 = data.frame[data.frame["unit"] == "A-2"]
    assert np.flatnonzero(a2["event"]).tolist() == [2600]
    assert a2["label"].sum() == 10 + 10 + 91
    p1 = data.frame[data.frame["unit"] == "P-1"]
    assert p1["label"].sum() == 50 + 150 + 100 and np.flatnonzero(p1["event"]).tolist() == [100, 1900, 2500]

    # scaling statistics from the training series of the SMAP channels only
    normal = np.concatenate([channels["P-1"][1], channels["A-2"][1]])
    np.testing.assert_allclose(data.offset, normal.mean(axis=0))
    spread = normal.std(axis=0)
    np.testing.assert_allclose(data.scale, np.where(spread > 0, spread, 1.0))
    assert data.X.shape[1:] == (25, 20)
    assert set(data.groups) == {"P-1", "A-2"}
    # the window that ends at P-1's last test row is censored there
    last = np.flatnonzero(data.groups == "P-1")[-1]
    assert not data.y["event"][last] and data.y["time"][last] == 0

    normal_windows = load_smap(data_home=home, split="normal", context_length=20, stride=50)
    assert set(normal_windows.groups) == {"P-1/train", "A-2/train"}
    assert not normal_windows.y["event"].any()


def test_smap_errors_name_the_problem(tmp_path):
    home = _smap_home(tmp_path, {"P-1": ("SMAP", _series(300, 0), _series(900, 1), [[10, 950]])})
    with pytest.raises(ValueError, match=r"\[10, 950\].*P-1.*900"):
        load_smap(data_home=home)
    (home / "SMAP" / "test" / "P-1.npy").unlink()
    with pytest.raises(FileNotFoundError, match="P-1.npy"):
        load_smap(data_home=home)
    with pytest.raises(FileNotFoundError, match="labeled_anomalies.csv"):
        load_smap(data_home=tmp_path / "empty")
    wrong = _smap_home(tmp_path / "wrong", {"P-2": ("SMAP", np.zeros((300, 3)), np.zeros((900, 3)), [])})
    with pytest.raises(ValueError, match="25 columns"):
        load_smap(data_home=wrong)


def _psm_home(tmp_path, *, gzipped=False, n_test=N_ROWS):
    rng = np.random.default_rng(0)
    home = tmp_path / "home"
    (home / "PSM").mkdir(parents=True)
    columns = [f"feature_{i}" for i in range(25)]
    train = pd.DataFrame(rng.normal(size=(700, 25)), columns=columns)
    train.insert(0, "timestamp_(min)", np.arange(700.0))
    train.loc[5, "feature_3"] = np.nan  # the published training file has empty cells
    test = pd.DataFrame(rng.normal(size=(n_test, 25)), columns=columns)
    test.insert(0, "timestamp_(min)", np.arange(700.0, 700.0 + n_test))
    label = np.zeros(n_test, dtype=int)
    # one anomaly in train, one in the gap, one in valid, two in test (the last one runs to the end)
    for start, stop in [(300, 340), (1950, 1960), (2050, 2080), (2500, 2510), (2995, 3000)]:
        label[start:stop] = 1
    labels = pd.DataFrame({"timestamp_(min)": test["timestamp_(min)"], "label": label})
    for name, table in (("train.csv", train), ("test.csv", test), ("test_label.csv", labels)):
        text = table.to_csv(index=False).encode()
        if gzipped:
            (home / "PSM" / f"{name}.gz").write_bytes(gzip.compress(text))
        else:
            (home / "PSM" / name).write_bytes(text)
    return home, train


@pytest.mark.parametrize("gzipped", [False, True])
def test_psm_reader_events_split_and_scaling(tmp_path, gzipped):
    home, train = _psm_home(tmp_path, gzipped=gzipped)
    data = load_psm(data_home=home, split="valid", context_length=16, stride=10)
    table = data.splits.set_index(["unit", "split"])
    assert table.loc[("train", "normal"), ["start", "stop", "n_events"]].tolist() == [0, 700, 0]
    assert table.loc[("test", "train"), ["start", "stop", "n_events"]].tolist() == [0, 1800, 1]
    assert table.loc[("test", "valid"), ["start", "stop", "n_events"]].tolist() == [2000, 2100, 1]
    assert table.loc[("test", "test"), ["start", "stop", "n_events"]].tolist() == [2300, 3000, 2]
    test_rows = data.frame[data.frame["unit"] == "test"]
    assert np.flatnonzero(test_rows["event"]).tolist() == [300, 1950, 2050, 2500, 2995]
    assert not data.frame.loc[data.frame["unit"] == "train", "label"].any()

    assert data.feature_names == [f"feature_{i}" for i in range(25)]
    values = train[data.feature_names].to_numpy()
    np.testing.assert_allclose(data.offset, np.nanmean(values, axis=0))
    np.testing.assert_allclose(data.scale, np.nanstd(values, axis=0))
    assert np.isnan(data.frame.loc[5, "feature_3"])

    # valid windows end every 10 rows back from 2099; the valid onset is at 2050
    ends = np.arange(2099, 1999, -10)[::-1]
    assert data.X.shape == (ends.shape[0], 25, 16)
    np.testing.assert_array_equal(data.y["event"], ends < 2050)
    np.testing.assert_array_equal(data.y["time"], np.where(ends < 2050, 2050 - ends, 2099 - ends))
    assert set(data.groups) == {"test"}


def test_psm_errors_name_the_problem(tmp_path):
    home, _ = _psm_home(tmp_path)
    labels = pd.read_csv(home / "PSM" / "test_label.csv")
    labels.iloc[:-1].to_csv(home / "PSM" / "test_label.csv", index=False)
    with pytest.raises(ValueError, match="one row per row"):
        load_psm(data_home=home)
    short, _ = _psm_home(tmp_path / "short", n_test=2000)
    with pytest.raises(ValueError, match="too short.*valid part would be empty"):
        load_psm(data_home=short)
    with pytest.raises(FileNotFoundError, match=r"train.csv.gz \(or train.csv\)"):
        load_psm(data_home=tmp_path / "empty")


def _gecco_csv(path, *, event_as="bool"):
    rng = np.random.default_rng(1)
    sensors = ["Tp", "Cl", "pH", "Redox", "Leit", "Trueb", "Cl_2", "Fm", "Fm_2"]
    frame = pd.DataFrame(rng.normal(size=(N_ROWS, 9)), columns=sensors)
    frame.insert(0, "Time", pd.date_range("2017-07-01", periods=N_ROWS, freq="min").astype(str))
    frame.loc[10, "Trueb"] = np.nan
    event = np.zeros(N_ROWS, dtype=bool)
    for start, stop in [(1000, 1020), (1500, 1502), (2050, 2060), (2400, 2450)]:
        event[start:stop] = True
    frame["EVENT"] = event if event_as == "bool" else event.astype(int)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the published file starts with an unnamed row-index column
    frame.to_csv(path, index=True)
    return frame


@pytest.mark.parametrize("event_as", ["bool", "int"])
def test_gecco_reader_events_split_and_scaling(tmp_path, event_as):
    written = _gecco_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv", event_as=event_as)
    data = load_gecco(data_home=tmp_path, split="test", context_length=64, stride=100)
    table = data.splits.set_index("split")
    assert table.loc["train", ["start", "stop", "n_events"]].tolist() == [0, 1800, 2]
    assert table.loc["valid", ["start", "stop", "n_events"]].tolist() == [2000, 2100, 1]
    assert table.loc["test", ["start", "stop", "n_events"]].tolist() == [2300, 3000, 1]
    assert np.flatnonzero(data.frame["event"]).tolist() == [1000, 1500, 2050, 2400]
    assert data.frame["Time"].iloc[1] == pd.Timestamp("2017-07-01 00:01")
    assert np.isnan(data.frame.loc[10, "Trueb"])
    train = written[data.feature_names].to_numpy()[:1800]
    np.testing.assert_allclose(data.offset, np.nanmean(train, axis=0))
    assert data.X.shape[1:] == (9, 64)


def test_gecco_rejects_a_non_boolean_event_column(tmp_path):
    written = _gecco_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv")
    written["EVENT"] = "maybe"
    written.to_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv", index=False)
    with pytest.raises(ValueError, match="EVENT must be boolean.*maybe"):
        load_gecco(data_home=tmp_path)
