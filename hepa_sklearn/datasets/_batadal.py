"""Loader for BATADAL (water-distribution SCADA, hourly) with cyber-attacks as events."""

import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_batadal", "fetch_batadal"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for BATADAL (appendix table of datasets)
# The training part of dataset04 (2,506 hours) then ends 499 windows.
STRIDE = 4
MIN_HISTORY = CONTEXT_LENGTH
# training_dataset_1.csv starts with the attack-free year (BATADAL "dataset03",
# 2014-01-06 00 to 2015-01-06 00): its first 8,761 rows (as published).
NORMAL_ROWS = 8761
# ATT_FLAG: 1 attack, 0 none, -999 unknown (counted as none)
ATT_FLAGS = (1, 0, -999)

FEATURES = (
    "L_T1",
    "L_T2",
    "L_T3",
    "L_T4",
    "L_T5",
    "L_T6",
    "L_T7",
    "F_PU1",
    "S_PU1",
    "F_PU2",
    "S_PU2",
    "F_PU3",
    "S_PU3",
    "F_PU4",
    "S_PU4",
    "F_PU5",
    "S_PU5",
    "F_PU6",
    "S_PU6",
    "F_PU7",
    "S_PU7",
    "F_PU8",
    "S_PU8",
    "F_PU9",
    "S_PU9",
    "F_PU10",
    "S_PU10",
    "F_PU11",
    "S_PU11",
    "F_V2",
    "S_V2",
    "P_J280",
    "P_J269",
    "P_J300",
    "P_J256",
    "P_J289",
    "P_J415",
    "P_J302",
    "P_J306",
    "P_J307",
    "P_J317",
    "P_J14",
    "P_J422",
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
# dataset04 split 60/10/30 chronological, 48 hours left out before the valid
# and the test part (the paper's benchmark protocol).
SPLIT = ChronologicalSplit((60, 70), gap=48)

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
attack: dataset04 holds 219 attack hours in 5 attacks. The flags cover part
of the seven attacks published for dataset04 (492 hours): two of them are
never flagged and four are flagged 4 to 24 hours after they begin, so an
event is the first flagged hour, not the attack's published start.
Windows inside an attack look ahead to the next attack's first hour. The labelled 2017 test
period (``test_dataset.csv``) is not used.
"""


def _read(path):
    raw = pd.read_csv(path)
    raw.columns = raw.columns.str.strip()
    return raw


def _unit_frame(data_home, name, unit, n_rows=None):
    path = dataset_file(data_home, DIRECTORY, name, url=FILES[name][0], fetch_name="fetch_batadal")
    raw = read_cached(_read, path)
    check_columns(raw, ("DATETIME", *FEATURES, "ATT_FLAG"), path, "a BATADAL csv")
    raw = raw.iloc[:n_rows]
    frame = unit_frame(
        unit, raw[list(FEATURES)], source=path, date=parsed_dates(raw["DATETIME"], path, "DATETIME", "%d/%m/%y %H")
    )
    flag = raw["ATT_FLAG"].to_numpy()
    unknown = ~pd.Series(flag).isin(ATT_FLAGS).to_numpy()
    if unknown.any():
        raise ValueError(
            f"{path}: ATT_FLAG must hold 1 (attack), 0 (none) or -999 (unknown), found "
            f"{sorted(set(pd.Series(flag[unknown]).astype(str)))[:5]} (first in row {int(unknown.argmax())}); "
            "is the file damaged, or not the published one?"
        )
    frame["ATT_FLAG"] = flag
    # -999, BATADAL's "attack status unknown", counts as no attack (the paper's benchmark protocol)
    frame["label"] = flag == 1
    return frame


def _frame(data_home):
    normal = _unit_frame(data_home, NORMAL_FILE, NORMAL_UNIT, NORMAL_ROWS)
    return pd.concat([normal, _unit_frame(data_home, EVENT_FILE, EVENT_UNIT)], ignore_index=True)


SPEC = EventDataset(
    "batadal",
    DIRECTORY,
    _frame,
    FEATURES,
    SPLIT,
    DESCR,
    step="hour",
    event="attack onset",
    normal=lambda unit: unit == NORMAL_UNIT,
)


@dataset_doc(SPEC)
def load_batadal(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load BATADAL with cyber-attacks as events, as a frame and as windows.

    Reads ``BATADAL/training_dataset_1.csv.gz`` (for the attack-free year)
    and ``BATADAL/BATADAL_dataset04.csv.gz`` (or the plain ``.csv`` files)
    from the data home; use :func:`fetch_batadal` to download them. The
    attack-free year ``dataset03`` is the ``"normal"`` part; ``dataset04``
    is split in time 60/10/30 with 48 hours left out before the valid and
    the test part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per (unit, hour): ``unit`` (``"dataset03"`` or
            ``"dataset04"``), ``step``, ``date``, the 43 channels,
            ``ATT_FLAG`` as read, ``label`` (attack, bool), ``event``
            (attack onset, bool) and ``split`` (``"normal"``, ``"train"``,
            ``"valid"``, ``"test"`` or ``"gap"``).

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
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_batadal(*, data_home=None, download_if_missing=True, **load_params):
    """Download the missing BATADAL files into the data home, then load them.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, FILES, load_batadal, data_home, download_if_missing, load_params)
