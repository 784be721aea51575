"""Loader for the Jena weather series (10-minute steps) with heat spikes as events."""

import numpy as np
import pandas as pd

from ._home import dataset_file, fetch_files, read_cached
from ._protocol import PARTS, check_split, chronological_bounds, load_events, split_table, unit_onsets

__all__ = ["load_weather", "fetch_weather"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for Weather (appendix table of datasets)
# Keeps the windows of the whole series at about 140 MB of float32 (3,262 windows).
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH
SPLIT_PERCENT = (70, 85)  # 70/15/15 chronological (the paper's benchmark protocol)
GAP_ROWS = 200  # rows left out before the valid and the test part (the paper's benchmark protocol)
# Heat spike: (T - rolling mean) / rolling std over a causal 7-day window of
# 1008 10-minute steps, above 3 (the paper's benchmark protocol). The paper's protocol gives no
# min_periods here; a quarter of the window (252 steps, 42 hours) is the
# ratio the protocol gives for ETTm1 (168 of 672).
SPIKE_WINDOW = 1008
SPIKE_MIN_PERIODS = 252
SPIKE_THRESHOLD = 3.0
SPIKE_CHANNEL = "T (degC)"
# The station writes -9999 where a sensor gave no value (81 cells of wv, max.
# PAR and OT in this file); they are read as missing.
MISSING_CODE = -9999.0

# The file's header spells the units of SWDR and PAR with replacement
# characters (their micro and squared signs were lost upstream); the names
# below restore them in ASCII. The last column, OT, is CO2 in ppm in the
# station's own files.
FEATURES = (
    "p (mbar)", "T (degC)", "Tpot (K)", "Tdew (degC)", "rh (%)", "VPmax (mbar)",
    "VPact (mbar)", "VPdef (mbar)", "sh (g/kg)", "H2OC (mmol/mol)", "rho (g/m**3)",
    "wv (m/s)", "max. wv (m/s)", "wd (deg)", "rain (mm)", "raining (s)", "SWDR (W/m2)",
    "PAR (umol/m2/s)", "max. PAR (umol/m2/s)", "Tlog (degC)", "OT",
)
DIRECTORY = "Weather"
FILE = "weather.csv.gz"
UNIT = "weather"
# Public copy of the file, at the commit read for the project's data
# (SHA-256 of the uncompressed csv).
URL = (
    "https://raw.githubusercontent.com/ljnvs/HiCR-Mamba/"
    "d472c100956ed4373e9ca3700481ce88f8f1e4dd/datasets/weather/weather.csv.gz"
)
SHA256 = "34ee981d07313e51da2a50bb600072c8ae4a69cb4b0651f4cb93a069d7a2ba63"

DESCR = """\
Weather: Jena weather station, 10-minute steps
==============================================

The year 2020 (2020-01-01 00:10 to 2021-01-01 00:00, 52,696 rows) of the
weather station of the Max Planck Institute for Biogeochemistry in Jena,
as distributed with the Autoformer benchmark (H. Wu et al., NeurIPS 2021):
21 meteorological channels. One unit. The rows are kept in file order;
the file repeats one time stamp and skips 100 minutes once. The value
-9999 (the station's code for a missing reading, 81 cells) is read as
NaN. Three header names are restored to ASCII (``SWDR (W/m2)``,
``PAR (umol/m2/s)``, ``max. PAR (umol/m2/s)``).

Event: a heat spike. The spike score of a step is T (degC) minus the mean
of T over the 1008 steps (7 days) ending at that step, divided by their
standard deviation (pandas rolling, min_periods=252, the step itself
included, so the score never looks ahead); ``label`` is True where the
score exceeds 3 and an event (``event``) is the first step of each run of
labelled steps. The score is in the column ``spike_score``.

Split: chronological 70/15/15 of the rows; the valid and the test part
each start 200 rows after the boundary, those rows belonging to no part.
Windows end inside the requested part; their context may reach back into
earlier rows, and their labels never look past the part's last row.
Scaling: per-channel mean and standard deviation of the training rows
(``offset``, ``scale``), applied to ``X`` when normalize=True.
"""


def _read(path):
    return pd.read_csv(path, encoding="latin-1", parse_dates=["date"])


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_weather")
    raw = read_cached(_read, path)
    if raw.shape[1] != 1 + len(FEATURES) or raw.columns[0] != "date":
        raise ValueError(
            f"{path} has columns {list(raw.columns)}; the Weather csv has 'date' and "
            f"{len(FEATURES)} numeric columns."
        )
    values = raw.iloc[:, 1:].to_numpy(dtype=np.float64, copy=True)
    values[values == MISSING_CODE] = np.nan
    frame = pd.DataFrame(values, columns=list(FEATURES))
    frame.insert(0, "unit", UNIT)
    frame.insert(1, "step", np.arange(len(frame), dtype=np.int64))
    frame.insert(2, "date", raw["date"])
    temperature = frame[SPIKE_CHANNEL]
    rolling = temperature.rolling(SPIKE_WINDOW, min_periods=SPIKE_MIN_PERIODS)
    frame["spike_score"] = (temperature - rolling.mean()) / rolling.std()
    frame["label"] = (frame["spike_score"] > SPIKE_THRESHOLD).to_numpy()
    frame["event"] = unit_onsets(frame)
    return frame


def load_weather(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
):
    """Load the Jena weather series with heat spikes as events, as a frame and as windows.

    Reads ``Weather/weather.csv.gz`` (or ``weather.csv``) from the data home;
    use :func:`fetch_weather` to download it. The series is split in time
    70/15/15 with 200 rows left out before the valid and the test part.

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
            One row per step: ``unit``, ``step``, ``date``, the 21 channels,
            ``spike_score``, ``label`` (heat spike, bool), ``event`` (spike
            onset, bool) and ``split`` (``"train"``, ``"valid"``,
            ``"test"`` or ``"gap"``).
        X : ndarray of shape (n_windows, 21, context_length), float32
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): steps from the
            window's end to the next spike onset in the part, or to the
            part's last row when censored.
        groups : ndarray of shape (n_windows,), str
            Unit of each window (a single unit, ``"weather"``).
        feature_names : list of str
            The channels of ``X``, in order.
        splits : DataFrame
            One row per part: ``unit``, ``split``, ``start``, ``stop``
            (row positions within the unit, stop excluded), ``n_rows``,
            ``n_events``.
        offset, scale : ndarray of shape (21,)
            Per-channel mean and standard deviation of the training rows.
        DESCR : str
            Description of the data, the event, the split and the
            parameters used.

    See Also
    --------
    fetch_weather : Download the file if missing, then load it.

    References
    ----------
    H. Wu, J. Xu, J. Wang and M. Long, "Autoformer: Decomposition
    Transformers with Auto-Correlation for Long-Term Series Forecasting",
    NeurIPS 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_weather
    >>> data = load_weather(split="valid", stride=512)  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (21, 512)
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


def fetch_weather(*, data_home=None, download_if_missing=True, **load_params):
    """Download the Weather file into the data home if it is missing, then load it.

    The file comes from a public GitHub copy (:data:`URL`) and is checked
    against the SHA-256 of its uncompressed content before it is kept as
    ``Weather/weather.csv.gz``.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    download_if_missing : bool, default=True
        If False, raise ``OSError`` instead of downloading a missing file.
    **load_params
        Passed to :func:`load_weather`.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        As returned by :func:`load_weather`.
    """
    fetch_files({FILE: (URL, SHA256)}, DIRECTORY, data_home=data_home,
                download_if_missing=download_if_missing)
    return load_weather(data_home=data_home, **load_params)
