"""Reader for SMAP (NASA satellite telemetry, telemanom layout) with anomaly onsets as events."""

import json

import numpy as np
import pandas as pd

from ._home import dataset_file, get_data_home, read_cached
from ._protocol import NORMAL, PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_smap"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 100  # the paper's context for SMAP (appendix table of datasets)
# The published 55 SMAP channels hold about 563,000 rows (training and test
# files together); a stride of 32 keeps their windows near 175 MB of float32.
STRIDE = 32
MIN_HISTORY = CONTEXT_LENGTH
# The paper's protocol gives no split for SMAP; each channel's labelled test series is
# split as MBA's: boundaries at 60 % and 70 %, 200 rows left out before the
# valid and the test part.
SPLIT_PERCENT = (60, 70)
GAP_ROWS = 200
SPACECRAFT = "SMAP"
N_COLUMNS = 25  # telemetry value and 24 one-hot command channels (telemanom layout)

FEATURES = ("telemetry",) + tuple(f"command_{i}" for i in range(1, N_COLUMNS))
DIRECTORY = "SMAP"
LABEL_FILE = "labeled_anomalies.csv"
SOURCE = "https://github.com/khundman/telemanom"

DESCR = """\
SMAP: NASA Soil Moisture Active Passive satellite telemetry
===========================================================

Expert-labelled telemetry anomalies of the SMAP satellite (K. Hundman et
al., "Detecting Spacecraft Anomalies Using LSTMs and Nonparametric Dynamic
Thresholding", KDD 2018), in the layout of the telemanom repository:
``train/<chan>.npy`` and ``test/<chan>.npy`` (one row per time step: the
telemetry value, then 24 one-hot command channels; 25 channels) and
``labeled_anomalies.csv`` (chan_id, spacecraft, anomaly_sequences,
class, num_values). The channels whose spacecraft is "SMAP" are read
(the file also lists MSL channels). Each channel gives two units:

- ``<chan>/train``: its training series, which carries no labels and is
  taken as anomaly-free; split ``"normal"``: these rows give the scaling
  statistics and suit pretraining;
- ``<chan>``: its test series, labelled by anomaly_sequences, split
  chronologically with boundaries at 60 % and 70 % of its rows, the valid
  and the test part each starting 200 rows after the boundary (those rows
  belong to no part).

Event: a telemetry anomaly. ``label`` is True inside an anomaly sequence
(``[start, end]``, both ends included) and an event (``event``) is the first
row of each run of labelled rows (overlapping or touching sequences form
one run; a run already under way at a series' first row has no observed
onset). Windows inside an anomaly look ahead to the next anomaly's first
row.

Windows end inside the requested part; their context may reach back into
earlier rows of the same unit, and their labels never look past the part's
last row. Scaling: per-channel mean and standard deviation over the
training series of all SMAP channels (``offset``, ``scale``; a constant
channel gets scale 1), applied to ``X`` when normalize=True.
"""


def _read_array(path):
    return np.load(path).astype(np.float64)


def _read_labels(path):
    return pd.read_csv(path)


def _series_frame(path, unit, sequences=()):
    values = read_cached(_read_array, path)
    if values.ndim != 2 or values.shape[1] != N_COLUMNS:
        raise ValueError(
            f"{path} has shape {values.shape}; SMAP series in the telemanom layout have "
            f"{N_COLUMNS} columns (telemetry, then 24 command channels)."
        )
    frame = pd.DataFrame(values, columns=list(FEATURES))
    frame.insert(0, "unit", unit)
    frame.insert(1, "step", np.arange(len(frame), dtype=np.int64))
    label = np.zeros(len(frame), dtype=bool)
    for start, end in sequences:
        if not 0 <= start <= end < len(frame):
            raise ValueError(
                f"anomaly sequence [{start}, {end}] of {unit} lies outside its {len(frame)} test rows."
            )
        label[start : end + 1] = True
    frame["label"] = label
    return frame


def load_smap(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load the SMAP telemetry channels (telemanom layout) with anomaly onsets as events.

    The data are not downloaded: put ``labeled_anomalies.csv``, ``train/``
    and ``test/`` of the telemanom release (K. Hundman et al., KDD 2018) in
    ``SMAP/`` of the data home.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test", "normal"} or None, default=None
        Part whose windows to return: a part of the test series, or the
        training series (``"normal"``). None returns windows over every
        series whole.
    context_length : int, default=100
        Steps per window; history shorter than this is left-padded with NaN.
    stride : int, default=32
        Steps between consecutive window ends, counted back from each
        series' last row in the part.
    min_history : int, default=100
        Minimum number of observed steps in a window.
    normalize : bool, default=True
        Scale ``X`` by the per-channel mean and standard deviation of the
        training series. The frame always keeps the raw values.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per (series, step): ``unit`` (``<chan>`` for the test
            series, ``<chan>/train`` for the training series), ``chan_id``,
            ``step``, the 25 channels, ``label`` (inside an anomaly
            sequence, bool), ``event`` (anomaly onset, bool) and ``split``.
        X : ndarray of shape (n_windows, 25, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): steps from the
            window's end to the next anomaly onset in the part, or to the
            part's last row when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window.
        feature_names : list of str
            The channels of ``X``, in order.
        splits : DataFrame
            One row per (unit, part): ``unit``, ``split``, ``start``,
            ``stop`` (row positions within the unit, stop excluded),
            ``n_rows``, ``n_events``.
        offset, scale : ndarray of shape (25,)
            Per-channel mean and standard deviation of the training series.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    References
    ----------
    K. Hundman, V. Constantinou, C. Laporte, I. Colwell and T. Soderstrom,
    "Detecting Spacecraft Anomalies Using LSTMs and Nonparametric Dynamic
    Thresholding", KDD 2018.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_smap
    >>> data = load_smap(split="test")  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (25, 100)
    """
    label_path = dataset_file(data_home, DIRECTORY, LABEL_FILE, url=SOURCE)
    catalogue = read_cached(_read_labels, label_path)
    missing = [column for column in ("chan_id", "spacecraft", "anomaly_sequences")
               if column not in catalogue.columns]
    if missing:
        raise ValueError(f"{label_path} lacks the column(s) {missing}; is it telemanom's {LABEL_FILE}?")
    catalogue = catalogue[catalogue["spacecraft"] == SPACECRAFT]
    if catalogue.empty:
        raise ValueError(f"{label_path} lists no channel whose spacecraft is {SPACECRAFT!r}.")
    folder = get_data_home(data_home)
    frames, rows = [], []
    for chan, sequences in catalogue[["chan_id", "anomaly_sequences"]].itertuples(index=False):
        train_path = dataset_file(folder, f"{DIRECTORY}/train", f"{chan}.npy", url=SOURCE)
        test_path = dataset_file(folder, f"{DIRECTORY}/test", f"{chan}.npy", url=SOURCE)
        normal = _series_frame(train_path, f"{chan}/train")
        labelled = _series_frame(test_path, chan, json.loads(sequences))
        normal.insert(1, "chan_id", chan)
        labelled.insert(1, "chan_id", chan)
        frames += [normal, labelled]
        bounds = chronological_bounds(len(labelled), SPLIT_PERCENT, GAP_ROWS)
        rows.append((f"{chan}/train", NORMAL, 0, len(normal)))
        rows += [(chan, part, *bounds[part]) for part in PARTS]
    frame = pd.concat(frames, ignore_index=True)
    frame["event"] = unit_onsets(frame)
    return load_events(
        frame,
        split_table(rows),
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
