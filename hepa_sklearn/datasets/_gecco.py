"""Reader for the GECCO 2018 drinking-water quality challenge data with contamination onsets as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, read_cached
from ._protocol import PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_gecco"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for GECCO (appendix table of datasets)
# The published file holds about 140,000 one-minute rows; a stride of 16
# keeps their windows near 160 MB of float32.
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH
# The paper's protocol gives no split for GECCO; the series is split as MBA's:
# boundaries at 60 % and 70 %, 200 rows left out before the valid and the
# test part.
SPLIT_PERCENT = (60, 70)
GAP_ROWS = 200

FEATURES = ("Tp", "Cl", "pH", "Redox", "Leit", "Trueb", "Cl_2", "Fm", "Fm_2")
DIRECTORY = "GECCO"
FILE = "1_gecco2018_water_quality.csv.gz"
UNIT = "GECCO"

DESCR = """\
GECCO 2018: drinking-water quality, one-minute steps
====================================================

The data of the GECCO 2018 Industrial Challenge (TH Köln's SPOTSeven Lab
with the water supplier Thüringer Fernwasserversorgung): one-minute
measurements at a drinking-water plant, read from one csv with the
columns ``Time``, the nine sensors Tp (temperature), Cl and Cl_2
(chlorine), pH, Redox, Leit (conductivity), Trueb (turbidity), Fm and
Fm_2 (flow), and the boolean ``EVENT`` (other columns, such as a leading
row index, are ignored). One unit, nine channels; empty sensor cells are
kept as NaN (missing).

Event: a contamination event. ``label`` is EVENT and an event (``event``)
is the first row of each run of EVENT rows (a run already under way at the
first row has no observed onset). Windows inside an event look ahead to
the next event's first row.

Split: chronological, boundaries at 60 % and 70 % of the rows; the valid
and the test part each start 200 rows after the boundary, those rows
belonging to no part. Windows end inside the requested part; their
context may reach back into earlier rows, and their labels never look past
the part's last row. Scaling: per-channel mean and standard deviation of
the training rows (``offset``, ``scale``), applied to ``X`` when
normalize=True.
"""


def _read(path):
    return pd.read_csv(path)


def _as_bool(column, path):
    if column.dtype == bool:
        return column.to_numpy()
    text = column.astype(str).str.strip().str.lower()
    unknown = sorted(set(text.unique()) - {"true", "false", "1", "0"})
    if unknown:
        raise ValueError(f"{path}: EVENT must be boolean (True/False or 1/0), found {unknown[:5]}.")
    return text.isin(["true", "1"]).to_numpy()


def load_gecco(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load the GECCO 2018 water-quality series with contamination onsets as events.

    The data are not downloaded: put ``1_gecco2018_water_quality.csv``
    (plain or gzipped) in ``GECCO/`` of the data home.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    split : {"train", "valid", "test"} or None, default=None
        Part whose windows to return. None returns windows over the whole
        series with labels that look across part boundaries.
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
            One row per minute: ``unit``, ``step``, ``Time``, the nine
            sensors, ``label`` (EVENT, bool), ``event`` (event onset, bool)
            and ``split`` (``"train"``, ``"valid"``, ``"test"`` or ``"gap"``).
        X : ndarray of shape (n_windows, 9, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): minutes from the
            window's end to the next event onset in the part, or to the
            part's last row when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window (a single unit, ``"GECCO"``).
        feature_names : list of str
            The nine sensors, the channels of ``X`` in order.
        splits : DataFrame
            One row per part: ``unit``, ``split``, ``start``, ``stop`` (row
            positions, stop excluded), ``n_rows``, ``n_events``.
        offset, scale : ndarray of shape (9,)
            Per-channel mean and standard deviation of the training rows.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_gecco
    >>> data = load_gecco(split="test")  # doctest: +SKIP
    >>> data.feature_names[:3]  # doctest: +SKIP
    ['Tp', 'Cl', 'pH']
    """
    path = dataset_file(data_home, DIRECTORY, FILE)
    raw = read_cached(_read, path)
    missing = [column for column in ("Time", *FEATURES, "EVENT") if column not in raw.columns]
    if missing:
        raise ValueError(f"{path} lacks the column(s) {missing}; is it the GECCO 2018 csv?")
    frame = pd.DataFrame({
        "unit": UNIT,
        "step": np.arange(len(raw), dtype=np.int64),
        "Time": pd.to_datetime(raw["Time"]),
    })
    for column in FEATURES:
        frame[column] = raw[column].to_numpy(dtype=np.float64)
    frame["label"] = _as_bool(raw["EVENT"], path)
    frame["event"] = unit_onsets(frame)
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
