"""Loader for the Beijing multi-site air-quality data (hourly, 12 stations) with PM2.5 episodes as events."""

import numpy as np
import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_beijing", "fetch_beijing", "BEIJING_STATIONS"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for Beijing-AQ (appendix table of datasets)
# Keeps the windows of all stations at about 175 MB of float32 (6,480 windows).
STRIDE = 64
MIN_HISTORY = CONTEXT_LENGTH

MEASUREMENTS = ("PM2.5", "PM10", "SO2", "NO2", "CO", "O3", "TEMP", "PRES", "DEWP", "RAIN", "WSPM")
FEATURES = MEASUREMENTS + ("wd_sin", "wd_cos")
# Each station 70/15/15 chronological, 24 hours left out before the valid
# and the test part (the paper's benchmark protocol).
SPLIT = ChronologicalSplit((70, 85), gap=24)
PM25_THRESHOLD = 250.0  # µg/m³: an hour above it is a PM2.5 episode (the paper's benchmark protocol)

#: The twelve monitoring stations, each one unit.
BEIJING_STATIONS = (
    "Aotizhongxin",
    "Changping",
    "Dingling",
    "Dongsi",
    "Guanyuan",
    "Gucheng",
    "Huairou",
    "Nongzhanguan",
    "Shunyi",
    "Tiantan",
    "Wanliu",
    "Wanshouxigong",
)
# The 16 compass points of the ``wd`` column, clockwise from north in steps
# of 22.5 degrees.
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
DIRECTORY = "BeijingAirQuality"
# Public copies of the files, at the commit read for the project's data,
# with the SHA-256 of each (uncompressed) csv.
_BASE_URL = (
    "https://raw.githubusercontent.com/abhishek21441/DataScience_Project/"
    "26eedeaf15bc1655bf8907834ae2554543aa3f4c/PRSA_Data_20130301-20170228/"
)
_SHA256 = {
    "Aotizhongxin": "719312ca8fc535398e10dc292f5f291494c8b43400a47b31d5778bbb8d7c71e8",
    "Changping": "a2e21402a6d95fb7043f87959e6e3dcbecb957aac356a6f8028a85b047c772e7",
    "Dingling": "3d8dff81f18a80d9f455876a785642bffe1e9b9924ec1e6b7ce8cca790432eeb",
    "Dongsi": "9c0020214425e5ee2a64d42f97a1f632e1d8f6b53ad50edd85a686cc7999f27e",
    "Guanyuan": "59390fee3b032597b387491f5230e7edb90a8558e30217ebd6d9befbe669fbf9",
    "Gucheng": "10ae48801ea55869fee56a48b885fb1127859c130551888d71673f34216ba951",
    "Huairou": "812dcbe848b3ba2c2d25731064797bff803c46eb0c602156a1fa044df136dc26",
    "Nongzhanguan": "572cf87b65ef543cd55d3a711b28474def224a46b0ec3fc8add8aaf13b67a487",
    "Shunyi": "520b59e4ead3b0cfe7f1ed673e30275de8441e999db6f413d5172d2277b8c15a",
    "Tiantan": "0743e34799cf1ee36195b73321b91baa5625276532e7263c588f68cdef3b4daa",
    "Wanliu": "0b1a6d754a07f0def2f55434ddfa3870dcd0063b7f766a6f66b6c11bb05a377a",
    "Wanshouxigong": "ab1d6a356d6997a45f6d657ad47de1e05a4a08d4a7015b38a329a90665ab74d0",
}
FILES = {
    f"PRSA_Data_{station}_20130301-20170228.csv.gz": (
        f"{_BASE_URL}PRSA_Data_{station}_20130301-20170228.csv",
        _SHA256[station],
    )
    for station in BEIJING_STATIONS
}

DESCR = """\
Beijing multi-site air quality, hourly
======================================

Hourly measurements from 2013-03-01 00:00 to 2017-02-28 23:00 (35,064
hours) at twelve air-quality monitoring stations in Beijing (S. Zhang et
al., Proc. R. Soc. A 2017; UCI Machine Learning Repository). Each station
is one unit. Channels: the eleven numeric columns PM2.5, PM10, SO2, NO2,
CO, O3 (µg/m³), TEMP, PRES, DEWP, RAIN, WSPM, and the wind direction
``wd`` (16 compass points) as ``wd_sin`` and ``wd_cos`` of its angle
clockwise from north: 13 channels. Missing values (written NA, and one
blank cell) are forward-filled within each station; values missing from a
station's first hour onwards stay NaN until the first reading.

Event: a PM2.5 episode. ``label`` is True in hours whose forward-filled
PM2.5 exceeds 250 µg/m³ and an event (``event``) is the first hour of each
run of such hours.

Split: each station chronologically 70/15/15; the valid and the test part
each start 24 hours after the boundary, those hours belonging to no part.
"""


def _read(path):
    # One cell of the Aotizhongxin file holds a blank instead of NA.
    return pd.read_csv(path, na_values=[" "])


def _station_frame(data_home, station):
    name = f"PRSA_Data_{station}_20130301-20170228.csv.gz"
    path = dataset_file(data_home, DIRECTORY, name, url=FILES[name][0], fetch_name="fetch_beijing")
    raw = read_cached(_read, path)
    check_columns(raw, ("year", "month", "day", "hour", *MEASUREMENTS, "wd"), path, "a Beijing air-quality csv")
    filled = raw[[*MEASUREMENTS, "wd"]].ffill()
    unknown = sorted(set(filled["wd"].dropna().unique()) - set(COMPASS))
    if unknown:
        raise ValueError(f"{path}: unknown wind directions {unknown}; expected compass points {COMPASS}.")
    angle = np.deg2rad(filled["wd"].map({point: 22.5 * i for i, point in enumerate(COMPASS)}))
    date = parsed_dates(raw[["year", "month", "day", "hour"]], path, "year, month, day, hour")
    frame = unit_frame(station, filled[list(MEASUREMENTS)], source=path, date=date)
    frame["wd_sin"] = np.sin(angle).to_numpy(dtype=np.float64)
    frame["wd_cos"] = np.cos(angle).to_numpy(dtype=np.float64)
    frame["label"] = (frame["PM2.5"] > PM25_THRESHOLD).to_numpy()
    return frame


def _frame(data_home):
    return pd.concat([_station_frame(data_home, station) for station in BEIJING_STATIONS], ignore_index=True)


SPEC = EventDataset("beijing", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="hour", event="episode onset")


@dataset_doc(SPEC)
def load_beijing(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the Beijing air-quality stations with PM2.5 episodes as events.

    Reads the twelve ``BeijingAirQuality/PRSA_Data_<station>_20130301-20170228.csv.gz``
    files (or the plain ``.csv``) from the data home; use :func:`fetch_beijing`
    to download them. Each station is a unit, split in time 70/15/15 with 24
    hours left out before the valid and the test part. The frame keeps the
    forward-filled values.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per (station, hour): ``unit`` (the station), ``step``,
            ``date``, the 13 channels, ``label`` (PM2.5 above 250, bool),
            ``event`` (episode onset, bool) and ``split`` (``"train"``,
            ``"valid"``, ``"test"`` or ``"gap"``).

    See Also
    --------
    fetch_beijing : Download the missing station files, then load them.

    References
    ----------
    S. Zhang, B. Guo, A. Dong, J. He, Z. Xu and S. X. Chen, "Cautionary
    tales on air-quality improvement in Beijing", Proceedings of the Royal
    Society A 473 (2017).

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_beijing
    >>> data = load_beijing(split="test", stride=512)  # doctest: +SKIP
    >>> sorted(set(data.groups)) == sorted(data.frame["unit"].unique())  # doctest: +SKIP
    True
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_beijing(*, data_home=None, download_if_missing=True, **load_params):
    """Download the missing Beijing station files into the data home, then load them.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, FILES, load_beijing, data_home, download_if_missing, load_params)
