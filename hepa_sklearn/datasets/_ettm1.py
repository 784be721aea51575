"""Loader for ETTm1 (electricity transformer, 15-minute steps) with oil-temperature spikes as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, fetch_files, read_cached
from ._protocol import PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_ettm1", "fetch_ettm1"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for ETTm1 (appendix table of datasets)
# Keeps the windows of the whole series at about 60 MB of float32 (4,324 windows).
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH
SPLIT_PERCENT = (60, 80)  # 60/20/20 chronological (the paper's benchmark protocol)
GAP_ROWS = 200  # rows left out before the valid and the test part (the paper's benchmark protocol)
# Spike score: (OT - rolling mean) / rolling std over a causal 7-day window of
# 672 15-minute steps, once 168 steps (42 hours) are present; a spike is a
# score above 2 (the paper's benchmark protocol).
SPIKE_WINDOW = 672
SPIKE_MIN_PERIODS = 168
SPIKE_THRESHOLD = 2.0

FEATURES = ("HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT")
DIRECTORY = "ETTm1"
FILE = "ETTm1.csv.gz"
UNIT = "ETTm1"
# Public copy of the file, at the commit read for the project's data
# (SHA-256 of the uncompressed csv).
URL = (
    "https://raw.githubusercontent.com/ljnvs/HiCR-Mamba/"
    "d472c100956ed4373e9ca3700481ce88f8f1e4dd/datasets/ETT-small/ETTm1.csv.gz"
)
SHA256 = "6ce1759b1a18e3328421d5d75fadcb316c449fcd7cec32820c8dafda71986c9e"

DESCR = """\
ETTm1: electricity transformer temperature, 15-minute steps
===========================================================

Two years (2016-07-01 to 2018-06-26, 69,680 steps of 15 minutes) of one
electricity transformer: six load features (high/middle/low useful and
useless load: HUFL, HULL, MUFL, MULL, LUFL, LULL) and the oil temperature
OT (H. Zhou et al., "Informer", AAAI 2021). One unit, seven channels.

Event: an oil-temperature spike. The spike score of a step is OT minus the
mean of OT over the 672 steps (7 days) ending at that step, divided by
their standard deviation (pandas rolling, min_periods=168, the step itself
included, so the score never looks ahead); ``label`` is True where the
score exceeds 2 and an event (``event``) is the first step of each run of
labelled steps. The score is in the column ``spike_score``.

Split: chronological 60/20/20 of the rows; the valid and the test part
each start 200 rows after the boundary, those rows belonging to no part.
Windows end inside the requested part; their context may reach back into
earlier rows, and their labels never look past the part's last row.
Scaling: per-channel mean and standard deviation of the training rows
(``offset``, ``scale``), applied to ``X`` when normalize=True.
"""


def _read(path):
    return pd.read_csv(path, parse_dates=["date"])


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_ettm1")
    raw = read_cached(_read, path)
    missing = [column for column in ("date", *FEATURES) if column not in raw.columns]
    if missing:
        raise ValueError(f"{path} lacks the column(s) {missing}; is it the ETTm1 csv?")
    frame = raw[["date", *FEATURES]].astype({name: np.float64 for name in FEATURES})
    frame.insert(0, "unit", UNIT)
    frame.insert(1, "step", np.arange(len(frame), dtype=np.int64))
    temperature = frame["OT"]
    rolling = temperature.rolling(SPIKE_WINDOW, min_periods=SPIKE_MIN_PERIODS)
    frame["spike_score"] = (temperature - rolling.mean()) / rolling.std()
    frame["label"] = (frame["spike_score"] > SPIKE_THRESHOLD).to_numpy()
    frame["event"] = unit_onsets(frame)
    return frame


def load_ettm1(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load ETTm1 with oil-temperature spikes as events, as a frame and as windows.

    Reads ``ETTm1/ETTm1.csv.gz`` (or ``ETTm1.csv``) from the data home; use
    :func:`fetch_ettm1` to download it. The series is split in time
    60/20/20 with 200 rows left out before the valid and the test part.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test"} or None, default=None
        Part whose windows to return. None returns windows over the whole
        series with labels that look across part boundaries (for a split of
        your own).
    context_length : int, default=512
        Steps per window; history shorter than this is left-padded with NaN.
    stride : int, default=16
        Steps between consecutive window ends, counted back from the part's
        last row.
    min_history : int, default=512
        Minimum number of observed steps in a window.
    normalize : bool, default=True
        Scale ``X`` by the training rows' per-channel mean and standard
        deviation. The frame always keeps the raw values.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per step: ``unit``, ``step``, ``date``, the seven
            channels, ``spike_score``, ``label`` (spike, bool), ``event``
            (spike onset, bool) and ``split`` (``"train"``, ``"valid"``,
            ``"test"`` or ``"gap"``).
        X : ndarray of shape (n_windows, 7, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): steps from the
            window's end to the next spike onset in the part, or to the
            part's last row when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window (a single unit, ``"ETTm1"``).
        feature_names : list of str
            The channels of ``X``, in order.
        splits : DataFrame
            One row per part: ``unit``, ``split``, ``start``, ``stop``
            (row positions within the unit, stop excluded), ``n_rows``,
            ``n_events``.
        offset, scale : ndarray of shape (7,)
            Per-channel mean and standard deviation of the training rows.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    See Also
    --------
    fetch_ettm1 : Download the file if missing, then load it.

    References
    ----------
    H. Zhou, S. Zhang, J. Peng, S. Zhang, J. Li, H. Xiong and W. Zhang,
    "Informer: Beyond Efficient Transformer for Long Sequence Time-Series
    Forecasting", AAAI 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_ettm1
    >>> data = load_ettm1(split="test", stride=512)  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (7, 512)
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


def fetch_ettm1(*, data_home=None, download_if_missing=True, **load_params):
    """Download ETTm1 into the data home if it is missing, then load it.

    The file comes from a public GitHub copy (:data:`URL`) and is checked
    against the SHA-256 of its uncompressed content before it is kept as
    ``ETTm1/ETTm1.csv.gz``.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    download_if_missing : bool, default=True
        If False, raise ``OSError`` instead of downloading a missing file.
    **load_params
        Passed to :func:`load_ettm1`.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        As returned by :func:`load_ettm1`.
    """
    fetch_files({FILE: (URL, SHA256)}, DIRECTORY, data_home=data_home,
                download_if_missing=download_if_missing)
    return load_ettm1(data_home=data_home, **load_params)
