"""Loader for the daily CBOE VIX index with crossings above 25 as events."""

import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_vix", "fetch_vix"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for VIX (appendix table of datasets)
# Every trading day ends a window: the whole series gives 8,155 windows, 67 MB of float32.
STRIDE = 1
MIN_HISTORY = CONTEXT_LENGTH

FEATURES = ("OPEN", "HIGH", "LOW", "CLOSE")
# 60/10/30 chronological (the paper's benchmark protocol). The protocol names
# no gap for VIX; labels are cut at each part's end anyway.
SPLIT = ChronologicalSplit((60, 70), gap=0)
REGIME_THRESHOLD = 25.0  # CLOSE level whose crossing from below is the event (the paper's benchmark protocol)
DIRECTORY = "VIX"
FILE = "VIX_History.csv.gz"
UNIT = "VIX"
# Public copy of the file, at the commit read for the project's data
# (SHA-256 of the csv).
URL = (
    "https://raw.githubusercontent.com/advaitKhopade/VIX-Tracking-LSTM/"
    "16c3a13128286310c312af0f407e9927a55edc6f/VIX_History.csv"
)
SHA256 = "f0c21141cc4f0118d32a7572c1b4c12fc01b5ff07239e9851411d5a205ee9a56"

DESCR = """\
VIX: CBOE volatility index, daily
=================================

Daily open, high, low and close of the CBOE Volatility Index from
1990-01-02 to 2024-05-10 (8,666 trading days). One unit, four channels
(the paper lists six market variables without naming the other two; no
derived channel is added here). Until the early 1990s the four prices of a
day are often equal.

Event: entering a high-volatility regime. ``label`` is True on days whose
CLOSE is above 25 and an event (``event``) is a crossing of 25 from below:
a day with CLOSE above 25 after a day with CLOSE at or below 25.

Split: chronological 60/10/30 of the days, with no gap (none is given for
VIX).
"""


def _read(path):
    return pd.read_csv(path)


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_vix")
    raw = read_cached(_read, path)
    check_columns(raw, ("DATE", *FEATURES), path, "VIX_History.csv")
    frame = unit_frame(UNIT, raw[list(FEATURES)], source=path, date=parsed_dates(raw["DATE"], path, "DATE", "%m/%d/%Y"))
    frame["label"] = (frame["CLOSE"] > REGIME_THRESHOLD).to_numpy()
    return frame


SPEC = EventDataset("vix", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="day", event="crossing")


@dataset_doc(SPEC)
def load_vix(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the daily VIX with crossings of 25 from below as events.

    Reads ``VIX/VIX_History.csv.gz`` (or ``VIX_History.csv``) from the data
    home; use :func:`fetch_vix` to download it. The series is one unit,
    split in time 60/10/30.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per day: ``unit``, ``step``, ``date``, ``OPEN``,
            ``HIGH``, ``LOW``, ``CLOSE``, ``label`` (CLOSE above 25, bool),
            ``event`` (crossing from below, bool) and ``split``
            (``"train"``, ``"valid"`` or ``"test"``).

    See Also
    --------
    fetch_vix : Download the VIX history if it is missing, then load it.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_vix
    >>> data = load_vix(split="train", stride=64)  # doctest: +SKIP
    >>> data.feature_names  # doctest: +SKIP
    ['OPEN', 'HIGH', 'LOW', 'CLOSE']
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_vix(*, data_home=None, download_if_missing=True, **load_params):
    """Download the VIX history into the data home if it is missing, then load it.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, {FILE: (URL, SHA256)}, load_vix, data_home, download_if_missing, load_params)
