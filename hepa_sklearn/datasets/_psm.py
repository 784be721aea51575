"""Reader for PSM (eBay pooled server metrics, published csv layout) with anomaly onsets as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, read_cached
from ._protocol import NORMAL, PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_psm"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 100  # the paper's context for PSM (appendix table of datasets)
# The published files hold about 220,000 rows (training and test together);
# a stride of 16 keeps their windows near 140 MB of float32.
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH
# The paper's protocol gives no split for PSM; the labelled test series is split as
# MBA's: boundaries at 60 % and 70 %, 200 rows left out before the valid and
# the test part.
SPLIT_PERCENT = (60, 70)
GAP_ROWS = 200
TIME_COLUMN = "timestamp_(min)"

DIRECTORY = "PSM"
TRAIN_FILE = "train.csv.gz"
TEST_FILE = "test.csv.gz"
LABEL_FILE = "test_label.csv.gz"
NORMAL_UNIT = "train"
EVENT_UNIT = "test"
SOURCE = "https://github.com/eBay/RANSynCoders"

DESCR = """\
PSM: pooled server metrics (eBay)
=================================

Application server-node metrics published by eBay with RANSynCoders (A.
Abdulaal, Z. Liu and T. Lancewicki, KDD 2021), in their csv layout:
``train.csv`` and ``test.csv`` (``timestamp_(min)`` and 25 feature
columns) and ``test_label.csv`` (``timestamp_(min)`` and ``label``). Two
units:

- ``train``: the training file, which carries no labels and is taken as
  anomaly-free; split ``"normal"``: its rows give the scaling statistics
  and suit pretraining;
- ``test``: the labelled test file, split chronologically with boundaries
  at 60 % and 70 % of its rows, the valid and the test part each starting
  200 rows after the boundary (those rows belong to no part).

Empty cells are kept as NaN (missing). Event: an anomaly. ``label`` is
True where test_label's ``label`` is 1 and an event (``event``) is the
first row of each run of labelled rows (a run already under way at the
first row has no observed onset). Windows inside an anomaly look ahead to
the next anomaly's first row.

Windows end inside the requested part; their context may reach back into
earlier rows of the same unit, and their labels never look past the part's
last row. Scaling: per-channel mean and standard deviation of the training
file (``offset``, ``scale``; a constant channel gets scale 1), applied to
``X`` when normalize=True.
"""


def _read(path):
    return pd.read_csv(path)


def _unit_frame(path, unit, features=None):
    raw = read_cached(_read, path)
    if TIME_COLUMN not in raw.columns:
        raise ValueError(f"{path} lacks the column {TIME_COLUMN!r}; is it a PSM csv?")
    if features is None:
        features = [column for column in raw.columns if column != TIME_COLUMN]
    missing = [column for column in features if column not in raw.columns]
    if missing:
        raise ValueError(f"{path} lacks the feature column(s) {missing} of the training file.")
    frame = pd.DataFrame({
        "unit": unit,
        "step": np.arange(len(raw), dtype=np.int64),
        TIME_COLUMN: raw[TIME_COLUMN].to_numpy(),
    })
    for column in features:
        frame[column] = raw[column].to_numpy(dtype=np.float64)
    return frame, features


def load_psm(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load PSM (published csv layout) with anomaly onsets as events.

    The data are not downloaded: put ``train.csv``, ``test.csv`` and
    ``test_label.csv`` (plain or gzipped) in ``PSM/`` of the data home.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test", "normal"} or None, default=None
        Part whose windows to return: a part of the test file, or the
        training file (``"normal"``). None returns windows over both files
        whole.
    context_length : int, default=100
        Steps per window; history shorter than this is left-padded with NaN.
    stride : int, default=16
        Steps between consecutive window ends, counted back from the part's
        last row.
    min_history : int, default=100
        Minimum number of observed steps in a window.
    normalize : bool, default=True
        Scale ``X`` by the training file's per-channel mean and standard
        deviation. The frame always keeps the raw values.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per (file, step): ``unit`` (``"train"`` or ``"test"``),
            ``step``, ``timestamp_(min)``, the feature columns, ``label``
            (anomaly, bool), ``event`` (anomaly onset, bool) and ``split``.
        X : ndarray of shape (n_windows, n_features, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): steps from the
            window's end to the next anomaly onset in the part, or to the
            part's last row when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window.
        feature_names : list of str
            The feature columns of the files (25 in the published data), the
            channels of ``X`` in order.
        splits : DataFrame
            One row per (unit, part): ``unit``, ``split``, ``start``,
            ``stop`` (row positions within the unit, stop excluded),
            ``n_rows``, ``n_events``.
        offset, scale : ndarray of shape (n_features,)
            Per-channel mean and standard deviation of the training file.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    References
    ----------
    A. Abdulaal, Z. Liu and T. Lancewicki, "Practical Approach to
    Asynchronous Multivariate Time Series Anomaly Detection and
    Localization", KDD 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_psm
    >>> data = load_psm(split="valid")  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (25, 100)
    """
    paths = {
        name: dataset_file(data_home, DIRECTORY, name, url=SOURCE)
        for name in (TRAIN_FILE, TEST_FILE, LABEL_FILE)
    }
    normal, features = _unit_frame(paths[TRAIN_FILE], NORMAL_UNIT)
    labelled, _ = _unit_frame(paths[TEST_FILE], EVENT_UNIT, features)
    labels = read_cached(_read, paths[LABEL_FILE])
    if "label" not in labels.columns or len(labels) != len(labelled):
        raise ValueError(
            f"{paths[LABEL_FILE]} must have a 'label' column and one row per row of "
            f"{paths[TEST_FILE]} ({len(labelled)}); it has columns {list(labels.columns)} and "
            f"{len(labels)} rows."
        )
    normal["label"] = False
    labelled["label"] = labels["label"].to_numpy() == 1
    frame = pd.concat([normal, labelled], ignore_index=True)
    frame["event"] = unit_onsets(frame)
    bounds = chronological_bounds(len(labelled), SPLIT_PERCENT, GAP_ROWS)
    table = split_table(
        [(NORMAL_UNIT, NORMAL, 0, len(normal))] + [(EVENT_UNIT, part, *bounds[part]) for part in PARTS]
    )
    return load_events(
        frame,
        table,
        features,
        split=check_split(split, (*PARTS, NORMAL)),
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        normalize=normalize,
        scaling_part=NORMAL,
        scaling_kind="zscore",
        description=DESCR,
    )
