"""The loaders read their columns by name, check the header, and name the file, column and row of a bad value.

A file with the published columns in another order loads the same channels;
text in a numeric column and a date that is no date are refused with the
file, the column and the row, on every loader that reads a table.
"""

import gzip

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hepa_sklearn.datasets import _batadal, _beijing, _ettm1, _gecco, _psm, _tep, _vix, _weather
from tests.test_datasets_faults import _batadal_csv, _vix_csv
from tests.test_datasets_readers import _gecco_csv, _psm_home

N_ROWS = 60


def _write(path, frame, *, index=False, header=True, sep=","):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(frame.to_csv(index=index, header=header, sep=sep).encode("latin-1")))


def _weather_frame(n_rows=N_ROWS):
    """A Weather csv as published: 'date', then each channel i holding i + row / 1000, its damaged unit names."""
    damaged = {
        restored: name.replace("(W/m)", "(W/m\ufffd)").replace("(mol/m/s)", "(\ufffdmol/m\ufffd/s)")
        for name, restored in _weather.RESTORED_NAMES.items()
    }
    columns = {damaged.get(name, name): i + np.arange(n_rows) / 1000 for i, name in enumerate(_weather.FEATURES)}
    dates = pd.date_range("2020-01-01 00:10", periods=n_rows, freq="10min").astype(str)
    return pd.DataFrame({"date": dates, **columns})


def _ettm1_frame(n_rows=N_ROWS):
    columns = {name: i + np.arange(n_rows) / 1000 for i, name in enumerate(_ettm1.FEATURES)}
    return pd.DataFrame({"date": pd.date_range("2016-07-01", periods=n_rows, freq="15min").astype(str), **columns})


def _weather_bytes(frame):
    # the published file's damaged names are U+FFFD in UTF-8, read as latin-1 by the loader
    return gzip.compress(frame.to_csv(index=False).encode("utf-8"))


@settings(max_examples=15, deadline=None)
@given(order=st.permutations(range(1 + len(_weather.FEATURES))))
def test_weather_columns_in_another_order_give_the_same_channels(tmp_path_factory, order):
    home = tmp_path_factory.mktemp("home")
    frame = _weather_frame()
    (home / "Weather").mkdir()
    (home / "Weather" / _weather.FILE).write_bytes(_weather_bytes(frame.iloc[:, list(order)]))
    loaded = _weather._frame(home)
    for i, name in enumerate(_weather.FEATURES):
        np.testing.assert_allclose(loaded[name].to_numpy(), i + np.arange(N_ROWS) / 1000)
    assert loaded["date"].iloc[1] == pd.Timestamp("2020-01-01 00:20")


def test_weather_refuses_a_missing_or_repeated_column(tmp_path):
    (tmp_path / "Weather").mkdir()
    path = tmp_path / "Weather" / _weather.FILE
    path.write_bytes(_weather_bytes(_weather_frame().drop(columns=["rain (mm)"]).assign(extra=1.0)))
    with pytest.raises(ValueError, match=r"weather.csv.gz lacks the column\(s\) \['rain \(mm\)'\]"):
        _weather._frame(tmp_path)
    path.write_bytes(_weather_bytes(_weather_frame().rename(columns={"OT": "rain (mm)"})))
    with pytest.raises(
        ValueError,
        match=r"lacks the column\(s\) \['OT'\]|names the column\(s\) \['rain \(mm\)'\] "
        r"twice",
    ):
        _weather._frame(tmp_path)


def test_weather_names_the_file_column_and_row_of_text_and_of_a_bad_date(tmp_path):
    (tmp_path / "Weather").mkdir()
    path = tmp_path / "Weather" / _weather.FILE
    frame = _weather_frame()
    frame["wv (m/s)"] = frame["wv (m/s)"].astype(object)
    frame.loc[17, "wv (m/s)"] = "n/a?"
    path.write_bytes(_weather_bytes(frame))
    with pytest.raises(
        ValueError,
        match=r"weather.csv.gz: column 'wv \(m/s\)' of 'weather' holds values that are "
        r"not numbers \('n/a\?', first in row 17\)",
    ):
        _weather._frame(tmp_path)
    frame = _weather_frame()
    frame.loc[9, "date"] = "31/02/2020 25:00"
    path.write_bytes(_weather_bytes(frame))
    with pytest.raises(
        ValueError,
        match=r"weather.csv.gz: column 'date' holds values that are not dates, first in "
        r"row 9",
    ):
        _weather._frame(tmp_path)


def test_ettm1_names_the_file_column_and_row_of_a_bad_date_and_of_text(tmp_path):
    frame = _ettm1_frame()
    frame.loc[4, "date"] = "soon"
    _write(tmp_path / "ETTm1" / _ettm1.FILE, frame)
    with pytest.raises(
        ValueError,
        match=r"ETTm1.csv.gz: column 'date' holds values that are not dates, first in "
        r"row 4",
    ):
        _ettm1._frame(tmp_path)
    frame = _ettm1_frame()
    frame["OT"] = frame["OT"].astype(object)
    frame.loc[8, "OT"] = "hot"
    _write(tmp_path / "ETTm1" / _ettm1.FILE, frame)
    with pytest.raises(
        ValueError,
        match=r"ETTm1.csv.gz: column 'OT' of 'ETTm1' holds values that are not numbers "
        r"\('hot', first in row 8\)",
    ):
        _ettm1._frame(tmp_path)


def test_ettm1_columns_in_another_order_give_the_same_channels(tmp_path):
    _write(tmp_path / "ETTm1" / _ettm1.FILE, _ettm1_frame().iloc[:, ::-1])
    loaded = _ettm1._frame(tmp_path)
    for i, name in enumerate(_ettm1.FEATURES):
        np.testing.assert_allclose(loaded[name].to_numpy(), i + np.arange(N_ROWS) / 1000)


def test_beijing_names_the_file_column_and_row_of_text(tmp_path):
    station = _beijing.BEIJING_STATIONS[0]
    dates = pd.date_range("2013-03-01", periods=N_ROWS, freq="h")
    frame = pd.DataFrame(
        {
            "year": dates.year,
            "month": dates.month,
            "day": dates.day,
            "hour": dates.hour,
            **{name: np.arange(N_ROWS, dtype=float) for name in _beijing.MEASUREMENTS},
            "wd": "N",
        }
    )
    frame["SO2"] = frame["SO2"].astype(object)
    frame.loc[21, "SO2"] = "high"
    _write(tmp_path / _beijing.DIRECTORY / f"PRSA_Data_{station}_20130301-20170228.csv.gz", frame)
    with pytest.raises(
        ValueError,
        match=rf"PRSA_Data_{station}_20130301-20170228.csv.gz: column 'SO2' of "
        r"'Aotizhongxin' holds values that are not numbers \('high', first in row 21",
    ):
        _beijing._station_frame(tmp_path, station)


def test_tep_names_the_file_column_and_row_of_text(tmp_path):
    values = pd.DataFrame(np.ones((N_ROWS, len(_tep.FEATURES))))
    values[2] = values[2].astype(object)
    values.loc[30, 2] = "x"
    _write(tmp_path / _tep.DIRECTORY / f"{_tep.NORMAL_RUN}.dat.gz", values, header=False, sep=" ")
    with pytest.raises(
        ValueError,
        match=r"d00.dat.gz: column 'XMEAS\(3\)' of 'd00' holds values that are not "
        r"numbers \('x', first in row 30\)",
    ):
        _tep._run_frame(tmp_path, _tep.NORMAL_RUN)


def _text_at(path, column, row, *, index=False):
    read = pd.read_csv(path, index_col=0 if index else None)
    read[column] = read[column].astype(object)
    read.loc[read.index[row], column] = "oops"
    text = read.to_csv(index=index).encode()
    path.write_bytes(gzip.compress(text) if path.suffix == ".gz" else text)


@pytest.mark.parametrize("loader", ["vix", "batadal", "gecco", "psm"])
def test_every_table_loader_names_the_file_column_and_row_of_text(tmp_path, loader):
    if loader == "vix":
        _vix_csv(tmp_path / "VIX")
        path, column, read = tmp_path / "VIX" / "VIX_History.csv", "LOW", lambda: _vix._frame(tmp_path)
        _text_at(path, column, 33)
    elif loader == "batadal":
        _batadal_csv(tmp_path / "BATADAL" / _batadal.EVENT_FILE, 60, 0)
        path, column = tmp_path / "BATADAL" / _batadal.EVENT_FILE, _batadal.FEATURES[4]
        read = lambda: _batadal._unit_frame(tmp_path, _batadal.EVENT_FILE, _batadal.EVENT_UNIT)  # noqa: E731
        _text_at(path, column, 33)
    elif loader == "gecco":
        path, column = tmp_path / "GECCO" / "1_gecco2018_water_quality.csv", "pH"
        _gecco_csv(path)
        read = lambda: _gecco._frame(tmp_path)  # noqa: E731
        _text_at(path, column, 33, index=True)
    else:
        home, _ = _psm_home(tmp_path)
        path, column, read = home / "PSM" / "train.csv", "feature_2", lambda: _psm._frame(home)
        _text_at(path, column, 33)
    with pytest.raises(
        ValueError,
        match=rf"{path.name}: column '{column}' of '[^']+' holds values that are not "
        r"numbers \('oops', first in row 33\)",
    ):
        read()


def test_a_bad_date_is_named_with_its_row(tmp_path):
    written = _gecco_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv")
    written.loc[5, "Time"] = "yesterday"
    written.to_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv", index=True)
    with pytest.raises(ValueError, match=r"column 'Time' holds values that are not dates, first in row 5"):
        _gecco._frame(tmp_path)
