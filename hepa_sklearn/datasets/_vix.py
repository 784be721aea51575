"""Loader for the daily CBOE VIX index with crossings above 25 as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, fetch_files, read_cached
from ._protocol import PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_vix", "fetch_vix"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for VIX (appendix table of datasets)
# Every trading day ends a window: the whole series gives 8,155 windows, 67 MB of float32.
STRIDE = 1
MIN_HISTORY = CONTEXT_LENGTH
SPLIT_PERCENT = (60, 70)  # 60/10/30 chronological (the paper's benchmark protocol)
# The paper's protocol names no gap for VIX; labels are cut at each part's end anyway.
GAP_ROWS = 0
REGIME_THRESHOLD = 25.0  # CLOSE level whose crossing from below is the event (the paper's benchmark protocol)

FEATURES = ("OPEN", "HIGH", "LOW", "CLOSE")
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
VIX). Windows end inside the requested part; their context may reach back
into earlier days, and their labels never look past the part's last day.
Scaling: per-channel mean and standard deviation of the training days
(``offset``, ``scale``), applied to ``X`` when normalize=True.
"""


def _read(path):
    return pd.read_csv(path)


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_vix")
    raw = read_cached(_read, path)
    missing = [column for column in ("DATE", *FEATURES) if column not in raw.columns]
    if missing:
        raise ValueError(f"{path} lacks the column(s) {missing}; is it VIX_History.csv?")
    frame = pd.DataFrame({
        "unit": UNIT,
        "step": np.arange(len(raw), dtype=np.int64),
        "date": pd.to_datetime(raw["DATE"], format="%m/%d/%Y"),
    })
    for column in FEATURES:
        frame[column] = raw[column].to_numpy(dtype=np.float64)
    frame["label"] = (frame["CLOSE"] > REGIME_THRESHOLD).to_numpy()
    frame["event"] = unit_onsets(frame)
    return frame


def load_vix(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load the daily VIX with crossings of 25 from below as events.

    Reads ``VIX/VIX_History.csv.gz`` (or ``VIX_History.csv``) from the data
    home; use :func:`fetch_vix` to download it. The series is split in time
    60/10/30.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test"} or None, default=None
        Part whose windows to return. None returns windows over the whole
        series with labels that look across part boundaries.
    context_length : int, default=512
        Days per window; history shorter than this is left-padded with NaN.
    stride : int, default=1
        Days between consecutive window ends, counted back from the part's
        last day.
    min_history : int, default=512
        Minimum number of observed days in a window.
    normalize : bool, default=True
        Scale ``X`` by the training days' per-channel mean and standard
        deviation. The frame always keeps the raw values.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per day: ``unit``, ``step``, ``date``, ``OPEN``,
            ``HIGH``, ``LOW``, ``CLOSE``, ``label`` (CLOSE above 25, bool),
            ``event`` (crossing from below, bool) and ``split``
            (``"train"``, ``"valid"`` or ``"test"``).
        X : ndarray of shape (n_windows, 4, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): days from the
            window's end to the next crossing in the part, or to the part's
            last day when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window (a single unit, ``"VIX"``).
        feature_names : list of str
            The channels of ``X``, in order.
        splits : DataFrame
            One row per part: ``unit``, ``split``, ``start``, ``stop`` (row
            positions, stop excluded), ``n_rows``, ``n_events``.
        offset, scale : ndarray of shape (4,)
            Per-channel mean and standard deviation of the training days.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    See Also
    --------
    fetch_vix : Download the file if missing, then load it.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_vix
    >>> data = load_vix(split="train", stride=64)  # doctest: +SKIP
    >>> data.feature_names  # doctest: +SKIP
    ['OPEN', 'HIGH', 'LOW', 'CLOSE']
    """
    frame = _frame(data_home)
    bounds = chronological_bounds(len(frame), SPLIT_PERCENT, GAP_ROWS)
    table = split_table([(UNIT, part, *bounds[part]) for part in PARTS])
    return load_events(
        frame,
        table,
        FEATURES,
        split=check_split(split, PARTS),
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        normalize=normalize,
        scaling_part="train",
        scaling_kind="zscore",
        description=DESCR,
    )


def fetch_vix(*, data_home=None, download_if_missing=True, **load_params):
    """Download the VIX history into the data home if it is missing, then load it.

    The file comes from a public GitHub copy (:data:`URL`) and is checked
    against the SHA-256 of its csv content before it is kept gzipped as
    ``VIX/VIX_History.csv.gz``.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    download_if_missing : bool, default=True
        If False, raise ``OSError`` instead of downloading a missing file.
    **load_params
        Passed to :func:`load_vix`.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        As returned by :func:`load_vix`.
    """
    fetch_files({FILE: (URL, SHA256)}, DIRECTORY, data_home=data_home,
                download_if_missing=download_if_missing)
    return load_vix(data_home=data_home, **load_params)
