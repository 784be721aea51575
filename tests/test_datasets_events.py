"""Tests of the benchmark loaders on the real data files, read from ``HEPA_DATA_HOME``.

Expected events and part boundaries are worked out here from the files with
plain loops and arithmetic, never taken from the loaders.
"""

import gzip
import hashlib
import importlib
import os
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hepa_sklearn.datasets import (
    BEIJING_STATIONS,
    load_batadal,
    load_beijing,
    load_ettm1,
    load_mba,
    load_tep,
    load_vix,
    load_weather,
)

MODULES = ("ettm1", "weather", "beijing", "vix", "batadal", "tep", "mba", "smap", "psm", "gecco")


def _data_home():
    value = os.environ.get("HEPA_DATA_HOME")
    if not value:
        pytest.skip("HEPA_DATA_HOME is not set; point it at the benchmark data (CI: ../shared/data).")
    return Path(value)


def _require(*names):
    """Path of each file under the data home; skip the test if one is absent."""
    home = _data_home()
    paths = [home / name for name in names]
    absent = [str(path) for path in paths if not path.is_file()]
    if absent:
        pytest.skip(f"data file(s) not in HEPA_DATA_HOME: {absent}")
    return paths


def _onsets_by_loop(flags):
    """Positions where a run of True starts, the first position excluded."""
    return [i for i in range(1, len(flags)) if flags[i] and not flags[i - 1]]


def _count_in(positions, start, stop):
    return sum(start <= p < stop for p in positions)


def _part(data, split, unit=None):
    table = data.splits if unit is None else data.splits[data.splits["unit"] == unit]
    row = table[table["split"] == split].iloc[0]
    return int(row["start"]), int(row["stop"]), int(row["n_events"])


def _causal_zscore(values, window, min_periods):
    """(x_t - mean) / std (ddof 1) over the ``window`` values ending at t, from running sums."""
    values = np.asarray(values, dtype=np.float64)
    total = np.concatenate([[0.0], np.cumsum(values)])
    squares = np.concatenate([[0.0], np.cumsum(values**2)])
    ends = np.arange(1, len(values) + 1)
    starts = np.maximum(ends - window, 0)
    count = ends - starts
    mean = (total[ends] - total[starts]) / count
    variance = (squares[ends] - squares[starts] - count * mean**2) / np.maximum(count - 1, 1)
    with np.errstate(invalid="ignore", divide="ignore"):  # a one-value window has no spread
        score = (values - mean) / np.sqrt(variance)
    score[count < min_periods] = np.nan
    return score


# ----------------------------------------------------------------------------- constants


@pytest.mark.parametrize("name", MODULES)
def test_module_constants(name):
    module = importlib.import_module(f"hepa_sklearn.datasets._{name}")
    assert module.K == (150 if name == "tep" else 200)
    assert module.CONTEXT_LENGTH == (100 if name in ("mba", "smap", "psm") else 512)
    assert module.STRIDE >= 1 and 1 <= module.MIN_HISTORY <= module.CONTEXT_LENGTH
    # the docstrings are filled from the spec and the signature, no fragment or field left over
    load = getattr(module, f"load_{name}")
    assert module.SPEC.name == name
    for function in (load, getattr(module, f"fetch_{name}", load)):
        assert "%(" not in function.__doc__ and not re.search(r"\{\w+\}", function.__doc__)
    assert f"context_length : int, default={module.CONTEXT_LENGTH}\n" in load.__doc__
    assert f"stride : int, default={module.STRIDE}\n" in load.__doc__


FETCHED = {
    "ettm1": "ETTm1",
    "weather": "Weather",
    "beijing": "BeijingAirQuality",
    "vix": "VIX",
    "batadal": "BATADAL",
    "tep": "TEP",
    "mba": "MBA",
}


@pytest.mark.parametrize("name", sorted(FETCHED))
def test_download_checksums_match_the_stored_files(name):
    module = importlib.import_module(f"hepa_sklearn.datasets._{name}")
    files = getattr(module, "FILES", None) or {module.FILE: (module.URL, module.SHA256)}
    paths = _require(*(f"{FETCHED[name]}/{file}" for file in files))
    for path, (url, sha256) in zip(paths, files.values(), strict=True):
        content = path.read_bytes()
        if path.name.endswith(".gz"):
            content = gzip.decompress(content)
        assert hashlib.sha256(content).hexdigest() == sha256, path
        assert url.startswith("https://raw.githubusercontent.com/")
        # a .gz is downloaded as .gz when the source publishes it so, else as plain text
        assert url.rsplit("/", 1)[1] in (path.name, path.name[: -len(".gz")])


# ----------------------------------------------------------------------------- ETTm1


@pytest.fixture(scope="module")
def ettm1():
    (path,) = _require("ETTm1/ETTm1.csv.gz")
    return load_ettm1(data_home=path.parents[1], split="test", context_length=32, stride=256)


def test_ettm1_spikes_and_split(ettm1):
    raw = pd.read_csv(_data_home() / "ETTm1/ETTm1.csv.gz")
    assert len(raw) == 69680
    score = _causal_zscore(raw["OT"].to_numpy(), 672, 168)
    starts = _onsets_by_loop(list(np.nan_to_num(score) > 2))
    # 60/20/20 of 69,680 rows: boundaries at 41,808 and 55,744, gap 200
    assert _part(ettm1, "train")[:2] == (0, 41808)
    assert _part(ettm1, "valid")[:2] == (42008, 55744)
    assert _part(ettm1, "test")[:2] == (55944, 69680)
    for split, (start, stop) in {"train": (0, 41808), "valid": (42008, 55744), "test": (55944, 69680)}.items():
        assert _part(ettm1, split)[2] == _count_in(starts, start, stop), split
    assert np.flatnonzero(ettm1.frame["event"]).tolist() == starts
    assert (ettm1.frame["split"].iloc[41808:42008] == "gap").all()


def test_ettm1_windows_end_in_the_part_and_are_scaled_by_training_rows(ettm1):
    frame = ettm1.frame
    features = ["HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT"]
    train = frame[features].iloc[:41808].to_numpy()
    np.testing.assert_allclose(ettm1.offset, train.mean(axis=0))
    np.testing.assert_allclose(ettm1.scale, train.std(axis=0))
    # stride 256 counted back from the last test row
    ends = np.arange(69679, 55944 - 1, -256)[::-1]
    assert ettm1.X.shape == (ends.shape[0], 7, 32)
    scaled = (frame[features].to_numpy() - ettm1.offset) / ettm1.scale
    np.testing.assert_allclose(ettm1.X[:, :, -1], scaled[ends], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ettm1.X[0].T, scaled[ends[0] - 31 : ends[0] + 1], rtol=1e-5, atol=1e-5)
    assert set(ettm1.groups) == {"ETTm1"}


# ----------------------------------------------------------------------------- Weather


def test_weather_heat_spikes_and_split():
    (path,) = _require("Weather/weather.csv.gz")
    raw = pd.read_csv(path, encoding="latin-1")
    temperature = raw["T (degC)"].to_numpy()
    starts = _onsets_by_loop(list(np.nan_to_num(_causal_zscore(temperature, 1008, 252)) > 3))
    data = load_weather(data_home=path.parents[1], split="valid", context_length=16, stride=512)
    # 70/15/15 of 52,696 rows: boundaries at 36,887 and 44,791, gap 200
    bounds = {"train": (0, 36887), "valid": (37087, 44791), "test": (44991, 52696)}
    for split, (start, stop) in bounds.items():
        assert _part(data, split) == (start, stop, _count_in(starts, start, stop)), split
    assert sum(_count_in(starts, *bounds[split]) for split in bounds) > 0
    assert data.X.shape[1:] == (21, 16)
    assert data.feature_names[16:19] == ["SWDR (W/m2)", "PAR (umol/m2/s)", "max. PAR (umol/m2/s)"]
    # the station's -9999 code is read as missing, in 81 cells
    assert int(data.frame[data.feature_names].isna().sum().sum()) == 81
    assert int((raw.iloc[:, 1:] == -9999).sum().sum()) == 81


# ----------------------------------------------------------------------------- Beijing


def test_beijing_episodes_per_station_and_split():
    paths = _require(*(f"BeijingAirQuality/PRSA_Data_{s}_20130301-20170228.csv.gz" for s in BEIJING_STATIONS))
    data = load_beijing(data_home=paths[0].parents[1], split="test", context_length=8, stride=4096)
    assert data.X.shape[1:] == (13, 8)
    assert set(data.groups) == set(BEIJING_STATIONS)
    # 70/15/15 of 35,064 hours: boundaries at 24,544 and 29,804, gap 24
    bounds = {"train": (0, 24544), "valid": (24568, 29804), "test": (29828, 35064)}
    for station, path in zip(BEIJING_STATIONS, paths, strict=True):
        raw = pd.read_csv(path, na_values=[" "], low_memory=False)
        assert len(raw) == 35064
        pm25, last, flags = [], None, []
        for value in raw["PM2.5"]:
            last = last if pd.isna(value) else float(value)
            pm25.append(last)
            flags.append(last is not None and last > 250)
        starts = _onsets_by_loop(flags)
        for split, (start, stop) in bounds.items():
            assert _part(data, split, station) == (start, stop, _count_in(starts, start, stop))
        rows = data.frame[data.frame["unit"] == station]
        np.testing.assert_array_equal(rows["PM2.5"].to_numpy(), np.array(pm25, dtype=float))
    first = data.frame.iloc[0]  # Aotizhongxin, 2013-03-01 00:00, wind from NNW (337.5 degrees)
    assert first["unit"] == "Aotizhongxin" and first["date"] == pd.Timestamp("2013-03-01 00:00")
    assert first["wd_sin"] == pytest.approx(np.sin(np.deg2rad(337.5)))
    assert first["wd_cos"] == pytest.approx(np.cos(np.deg2rad(337.5)))


# ----------------------------------------------------------------------------- VIX


def test_vix_crossings_and_windows():
    (path,) = _require("VIX/VIX_History.csv.gz")
    close = pd.read_csv(path)["CLOSE"].tolist()
    assert len(close) == 8666
    crossings = [i for i in range(1, len(close)) if close[i - 1] <= 25 < close[i]]
    # 60/10/30 of 8,666 days: boundaries at 5,199 and 6,066, no gap
    bounds = {"train": (0, 5199), "valid": (5199, 6066), "test": (6066, 8666)}
    data = load_vix(data_home=path.parents[1], split="test", context_length=64, stride=1, min_history=64)
    for split, (start, stop) in bounds.items():
        assert _part(data, split) == (start, stop, _count_in(crossings, start, stop)), split
    assert np.flatnonzero(data.frame["event"]).tolist() == crossings

    # one window per test day; labels count days to the next crossing inside the test part
    assert data.X.shape == (8666 - 6066, 4, 64)
    for k, end in enumerate(range(6066, 8666)):
        ahead = [c for c in crossings if end < c < 8666]
        if ahead:
            assert data.y[k]["event"] and data.y[k]["time"] == ahead[0] - end
        else:
            assert not data.y[k]["event"] and data.y[k]["time"] == 8665 - end
    # the first test window's context reaches back into the valid part
    scaled_close = (np.array(close) - data.offset[3]) / data.scale[3]
    np.testing.assert_allclose(data.X[0, 3], scaled_close[6066 - 63 : 6067], rtol=1e-5, atol=1e-5)
    train_close = np.array(close[:5199])
    assert data.offset[3] == pytest.approx(train_close.mean())
    assert data.scale[3] == pytest.approx(train_close.std())


def test_vix_train_labels_stop_at_the_part_end():
    (path,) = _require("VIX/VIX_History.csv.gz")
    train = load_vix(data_home=path.parents[1], split="train", context_length=8, min_history=8)
    valid = load_vix(data_home=path.parents[1], split="valid", context_length=8, min_history=8)
    assert train.X.shape[0] == 5199 - 7 and valid.X.shape[0] == 6066 - 5199
    # no training label looks past the last training day
    assert (train.y["time"] <= 5198 - np.arange(7, 5199)).all()
    assert not train.y["event"][-1] and train.y["time"][-1] == 0


# ----------------------------------------------------------------------------- BATADAL


def test_batadal_attacks_split_and_scaling():
    normal_path, event_path = _require("BATADAL/training_dataset_1.csv.gz", "BATADAL/BATADAL_dataset04.csv.gz")
    data = load_batadal(data_home=normal_path.parents[1], split="test", context_length=16, stride=64)
    raw = pd.read_csv(event_path)
    raw.columns = raw.columns.str.strip()
    flags = [flag == 1 for flag in raw["ATT_FLAG"]]
    starts = _onsets_by_loop(flags)
    assert len(raw) == 4177 and sum(flags) == 219 and len(starts) == 5
    # dataset04 60/10/30 of 4,177 hours: boundaries at 2,506 and 2,923, gap 48
    bounds = {"train": (0, 2506), "valid": (2554, 2923), "test": (2971, 4177)}
    for split, (start, stop) in bounds.items():
        assert _part(data, split, "dataset04") == (start, stop, _count_in(starts, start, stop))
    assert [_count_in(starts, *bounds[s]) for s in ("train", "valid", "test")] == [2, 1, 2]
    assert _part(data, "normal", "dataset03") == (0, 8761, 0)
    assert int(data.frame.loc[data.frame["unit"] == "dataset04", "label"].sum()) == 219
    assert len(data.feature_names) == 43 and all(" " not in name for name in data.feature_names)
    assert set(data.groups) == {"dataset04"}

    year = pd.read_csv(normal_path).iloc[:8761]
    year.columns = year.columns.str.strip()
    assert (year["ATT_FLAG"] == 0).all()
    values = year[data.feature_names].to_numpy(dtype=float)
    std = values.std(axis=0)
    np.testing.assert_allclose(data.offset, values.mean(axis=0))
    np.testing.assert_allclose(data.scale, np.where(std > 0, std, 1.0))


def test_batadal_normal_part_has_no_events():
    (path,) = _require("BATADAL/training_dataset_1.csv.gz")
    data = load_batadal(data_home=path.parents[1], split="normal", context_length=16, stride=256)
    assert set(data.groups) == {"dataset03"}
    assert not data.y["event"].any()


# ----------------------------------------------------------------------------- TEP


def test_tep_fault_onset_at_sample_160():
    runs = ["d00"] + [f"d{fault:02d}_te" for fault in range(22)]
    paths = _require(*(f"TEP/{run}.dat.gz" for run in runs))
    data = load_tep(data_home=paths[0].parents[1], context_length=32, stride=8)
    frame = data.frame
    assert frame.groupby("unit", sort=False).size().to_dict() == {run: (500 if run == "d00" else 960) for run in runs}
    # d00.dat is stored transposed (52 x 500): its first sample is the file's first column
    stored = np.loadtxt(paths[0])
    assert stored.shape == (52, 500)
    d00 = frame[frame["unit"] == "d00"][data.feature_names].to_numpy()
    np.testing.assert_array_equal(d00, stored.T)
    np.testing.assert_allclose(data.offset, stored.mean(axis=1))
    for run in runs[2:]:
        rows = frame[frame["unit"] == run]
        assert rows["label"].tolist() == [step >= 160 for step in range(960)]
        assert np.flatnonzero(rows["event"]).tolist() == [160]
    for run in ("d00", "d00_te"):
        assert not frame.loc[frame["unit"] == run, "label"].any()

    table = data.splits.set_index("unit")
    assert table.loc["d00", "split"] == "normal"
    assert table["split"].value_counts().to_dict() == {"train": 13, "test": 7, "valid": 2, "normal": 1}
    assert table["n_events"].sum() == 21
    # windows end every 8 samples counted back from 959; one that ends before 160 sees the onset
    ends = np.arange(959, 14, -8)[::-1]  # min_history=16: the earliest end is sample 15
    run_windows = data.groups == "d05_te"
    np.testing.assert_array_equal(data.y["event"][run_windows], ends < 160)
    np.testing.assert_array_equal(data.y["time"][run_windows], np.where(ends < 160, 160 - ends, 959 - ends))


def test_tep_split_depends_on_the_seed_only():
    runs = ["d00"] + [f"d{fault:02d}_te" for fault in range(22)]
    paths = _require(*(f"TEP/{run}.dat.gz" for run in runs))
    home = paths[0].parents[1]
    first = load_tep(data_home=home, split="valid", context_length=16, stride=480)
    again = load_tep(data_home=home, split="valid", context_length=16, stride=480)
    other = load_tep(data_home=home, split="valid", context_length=16, stride=480, random_state=1)
    pd.testing.assert_frame_equal(first.splits, again.splits)
    assert not first.splits["split"].equals(other.splits["split"])
    assert set(first.groups) == set(first.splits.loc[first.splits["split"] == "valid", "unit"])


# ----------------------------------------------------------------------------- MBA


def test_mba_beats_split_and_minmax():
    pytest.importorskip("openpyxl")
    signal_path, label_path = _require("MBA/test.xlsx", "MBA/labels.xlsx")
    data = load_mba(data_home=signal_path.parents[1], split="valid", stride=4)
    beats = pd.read_excel(label_path)["Sample"].tolist()
    assert len(beats) == 65
    flags = [False] * 7680
    for beat in beats:
        for i in range(beat - 20, beat + 21):
            flags[i] = True
    starts = _onsets_by_loop(flags)
    assert len(starts) == 65 and starts == [beat - 20 for beat in beats]
    # boundaries at 60 % and 70 % of 7,680 samples (4,608 and 5,376), gap 200
    bounds = {"train": (0, 4608), "valid": (4808, 5376), "test": (5576, 7680)}
    for split, (start, stop) in bounds.items():
        assert _part(data, split) == (start, stop, _count_in(starts, start, stop)), split
    assert data.frame["label"].tolist() == flags
    signal = pd.read_excel(signal_path, skiprows=[1])
    train = signal[["ECG1", "ECG2"]].to_numpy()[:4608]
    np.testing.assert_allclose(data.offset, train.min(axis=0))
    np.testing.assert_allclose(data.scale, train.max(axis=0) - train.min(axis=0))
    assert data.X.shape[1:] == (2, 100)


def test_mba_without_openpyxl_says_how_to_install(monkeypatch):
    signal_path, _ = _require("MBA/test.xlsx", "MBA/labels.xlsx")
    monkeypatch.setitem(sys.modules, "openpyxl", None)
    message = "load_mba needs openpyxl to read .xlsx files: pip install 'hepa-sklearn[data]'"
    with pytest.raises(ImportError, match=re.escape(message)):
        load_mba(data_home=signal_path.parents[1])


# ----------------------------------------------------------------------------- shared behaviour


def test_descr_states_event_split_and_parameters():
    (path,) = _require("VIX/VIX_History.csv.gz")
    data = load_vix(data_home=path.parents[1], split="valid", context_length=32, stride=8)
    for text in (
        "crossing of 25 from below",
        "60/10/30",
        "split=valid",
        "context_length=32",
        "stride=8",
        f"windows: {data.X.shape[0]}",
    ):
        assert text in data.DESCR


@pytest.mark.parametrize("split", ["validation", "Train", 0, "normal"])
def test_bad_split_names_the_choices(split):
    (path,) = _require("VIX/VIX_History.csv.gz")
    with pytest.raises(ValueError, match="split must be None or one of"):
        load_vix(data_home=path.parents[1], split=split)


@pytest.mark.parametrize("name, value", [("context_length", 0), ("stride", -1), ("min_history", 1.5)])
def test_bad_window_parameters(name, value):
    (path,) = _require("VIX/VIX_History.csv.gz")
    with pytest.raises(ValueError, match=name):
        load_vix(data_home=path.parents[1], **{name: value})


def test_min_history_longer_than_every_part():
    (path,) = _require("VIX/VIX_History.csv.gz")
    with pytest.raises(ValueError, match="Lower min_history"):
        load_vix(data_home=path.parents[1], split="train", context_length=8, min_history=6000)


def test_normalize_false_keeps_raw_values_and_frames_are_copies():
    (path,) = _require("VIX/VIX_History.csv.gz")
    raw = load_vix(data_home=path.parents[1], split="test", context_length=4, stride=100, normalize=False)
    close = raw.frame["CLOSE"].to_numpy()
    np.testing.assert_allclose(raw.X[-1, 3], close[-4:].astype(np.float32))
    raw.frame.loc[:, "CLOSE"] = -1.0
    again = load_vix(data_home=path.parents[1], split="test", context_length=4, stride=100)
    assert (again.frame["CLOSE"] > 0).all()
