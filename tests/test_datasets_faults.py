"""The dataset loaders on malformed and partial files written in a temporary data home: each names the file and the fix.

A file cut short (a plain text file ending mid-line, a gzip stream without
its end, a truncated array), a damaged one, one whose cells hold text where
numbers belong or labels that read more than one way: none is read as if it
were whole, and none fails with a parser's bare exception.
"""

import gzip

import numpy as np
import pandas as pd
import pytest

from hepa_sklearn.datasets import (
    _batadal,
    _beijing,
    _mba,
    _tep,
    load_batadal,
    load_beijing,
    load_gecco,
    load_mba,
    load_psm,
    load_smap,
    load_tep,
    load_vix,
)
from tests.test_datasets_readers import _gecco_csv, _psm_home, _series, _smap_home


def cut_mid_line(path):
    """Drop the last 7 bytes of ``path``: its last line loses its end and its newline."""
    path.write_bytes(path.read_bytes()[:-7])


# -- files cut short or damaged --------------------------------------------------------


def test_a_plain_csv_cut_mid_line_is_refused(tmp_path):
    home, _ = _psm_home(tmp_path)
    cut_mid_line(home / "PSM" / "test.csv")
    with pytest.raises(ValueError, match=r"test.csv ends in the middle of a line.*replace the file"):
        load_psm(data_home=home)


def test_a_gzip_file_cut_short_is_refused(tmp_path):
    home, _ = _psm_home(tmp_path, gzipped=True)
    path = home / "PSM" / "train.csv.gz"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(ValueError, match=r"train.csv.gz cannot be read \(EOFError.*cut short or damaged.*fetcher"):
        load_psm(data_home=home)


def test_a_damaged_gzip_file_and_an_empty_file_are_refused(tmp_path):
    home, _ = _psm_home(tmp_path, gzipped=True)
    path = home / "PSM" / "test_label.csv.gz"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="test_label.csv.gz cannot be read"):
        load_psm(data_home=home)
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="test_label.csv.gz is empty"):
        load_psm(data_home=home)


def test_a_truncated_array_and_bad_anomaly_sequences_are_refused(tmp_path):
    home = _smap_home(tmp_path, {"P-1": ("SMAP", _series(300, 0), _series(900, 1), [[10, 20]])})
    catalogue = pd.read_csv(home / "SMAP" / "labeled_anomalies.csv")
    for bad in ("[[10, 20]", "[[10]]", "[[10.5, 20]]", "{}"):
        catalogue.assign(anomaly_sequences=bad).to_csv(home / "SMAP" / "labeled_anomalies.csv", index=False)
        with pytest.raises(ValueError, match=r"anomaly_sequences of 'P-1' must be a list of \[start, end\] pairs"):
            load_smap(data_home=home)
    catalogue.to_csv(home / "SMAP" / "labeled_anomalies.csv", index=False)
    path = home / "SMAP" / "test" / "P-1.npy"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(ValueError, match=r"P-1.npy cannot be read"):
        load_smap(data_home=home)


def test_a_plain_run_file_cut_mid_line_is_refused(tmp_path):
    folder = tmp_path / "TEP"
    folder.mkdir()
    values = np.random.default_rng(0).normal(size=(480, len(_tep.FEATURES)))
    text = "\n".join(" ".join(f"{v:.6f}" for v in row) for row in values) + "\n"
    (folder / "d00.dat").write_text(text)
    cut_mid_line(folder / "d00.dat")
    with pytest.raises(ValueError, match=r"d00.dat ends in the middle of a line"):
        load_tep(data_home=tmp_path)


def test_a_damaged_spreadsheet_is_refused(tmp_path):
    folder = tmp_path / "MBA"
    folder.mkdir()
    (folder / _mba.SIGNAL_FILE).write_bytes(b"PK\x03\x04 not a spreadsheet")
    (folder / _mba.LABEL_FILE).write_bytes(b"PK\x03\x04 not a spreadsheet")
    with pytest.raises(ValueError, match=r"test.xlsx cannot be read \(BadZipFile"):
        load_mba(data_home=tmp_path)


# -- cells that hold the wrong thing ------------------------------------------------------


def test_labels_are_never_read_by_truthiness(tmp_path):
    home, _ = _psm_home(tmp_path)
    labels = pd.read_csv(home / "PSM" / "test_label.csv")
    labels.assign(label=np.where(labels["label"] == 1, "yes", "no")).to_csv(
        home / "PSM" / "test_label.csv", index=False
    )
    with pytest.raises(TypeError, match=r"the 'label' column of .*test_label.csv .*found strings \('no', 'yes'\)"):
        load_psm(data_home=home)
    labels.assign(label=labels["label"].where(labels.index != 7)).to_csv(home / "PSM" / "test_label.csv", index=False)
    with pytest.raises(ValueError, match="has 1 missing value"):
        load_psm(data_home=home)


def test_text_in_a_numeric_column_is_refused_naming_the_column(tmp_path):
    home, _ = _psm_home(tmp_path)
    test = pd.read_csv(home / "PSM" / "test.csv")
    test["feature_3"] = test["feature_3"].astype(object)
    test.loc[12, "feature_3"] = "n/a?"
    test.to_csv(home / "PSM" / "test.csv", index=False)
    with pytest.raises(
        ValueError,
        match=r"column 'feature_3' of 'test' holds values that are not numbers "
        r"\('n/a\?', first in row 12\)",
    ):
        load_psm(data_home=home)


def test_dates_that_are_not_dates_are_refused_naming_the_file(tmp_path):
    written = _gecco_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv")
    written.loc[5, "Time"] = "yesterday"
    written.to_csv(tmp_path / "GECCO" / "1_gecco2018_water_quality.csv", index=True)
    with pytest.raises(
        ValueError,
        match=r"1_gecco2018_water_quality.csv: column 'Time' holds values that are not "
        r"dates",
    ):
        load_gecco(data_home=tmp_path)


def _vix_csv(folder, n_days=400):
    folder.mkdir(parents=True, exist_ok=True)
    days = np.arange(n_days)
    close = 20 + 8 * np.sin(days / 15)
    frame = pd.DataFrame(
        {
            "DATE": pd.bdate_range("2000-01-03", periods=n_days).strftime("%m/%d/%Y"),
            "OPEN": close,
            "HIGH": close + 1,
            "LOW": close - 1,
            "CLOSE": close,
        }
    )
    frame.to_csv(folder / "VIX_History.csv", index=False)
    return frame


def test_vix_dates_in_another_format_are_refused(tmp_path):
    frame = _vix_csv(tmp_path / "VIX")
    frame.assign(DATE=pd.bdate_range("2000-01-03", periods=len(frame)).strftime("%Y-%m-%d")).to_csv(
        tmp_path / "VIX" / "VIX_History.csv", index=False
    )
    with pytest.raises(
        ValueError,
        match=r"VIX_History.csv: column 'DATE' holds values that are not dates in the "
        r"format '%m/%d/%Y'",
    ):
        load_vix(data_home=tmp_path)


def _batadal_csv(path, n_rows, flag):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(n_rows, len(_batadal.FEATURES))), columns=list(_batadal.FEATURES))
    frame.insert(0, "DATETIME", pd.date_range("2014-01-06", periods=n_rows, freq="h").strftime("%d/%m/%y %H"))
    frame["ATT_FLAG"] = flag
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(frame.to_csv(index=False).encode()))


def test_an_attack_flag_outside_its_codes_is_refused(tmp_path):
    folder = tmp_path / "BATADAL"
    _batadal_csv(folder / _batadal.NORMAL_FILE, 300, 0)
    _batadal_csv(folder / _batadal.EVENT_FILE, 300, np.where(np.arange(300) == 40, 2, -999))
    with pytest.raises(
        ValueError,
        match=r"ATT_FLAG must hold 1 \(attack\), 0 \(none\) or -999 \(unknown\), found "
        r"\['2'\] \(first in row 40\)",
    ):
        load_batadal(data_home=tmp_path)


def test_a_station_file_without_its_columns_names_them(tmp_path):
    folder = tmp_path / _beijing.DIRECTORY
    folder.mkdir()
    name = f"PRSA_Data_{_beijing.BEIJING_STATIONS[0]}_20130301-20170228.csv"
    pd.DataFrame({"year": [2013], "month": [3], "day": [1], "hour": [0], "PM2.5": [4.0]}).to_csv(
        folder / name, index=False
    )
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['PM10'"):
        load_beijing(data_home=tmp_path)
