"""Loader for the Jena weather series (10-minute steps) with heat spikes as events."""

import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import RollingSpike, unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_weather", "fetch_weather"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for Weather (appendix table of datasets)
# Keeps the windows of the whole series at about 140 MB of float32 (3,262 windows).
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH

# The file's header spells the units of SWDR and PAR with replacement
# characters (their micro and squared signs were lost upstream); the names
# below restore them in ASCII. The last column, OT, is CO2 in ppm in the
# station's own files. Columns are read by name: RESTORED_NAMES maps the
# file's names of those three columns, without their non-ASCII characters,
# to the restored ones.
RESTORED_NAMES = {
    "SWDR (W/m)": "SWDR (W/m2)",
    "PAR (mol/m/s)": "PAR (umol/m2/s)",
    "max. PAR (mol/m/s)": "max. PAR (umol/m2/s)",
}
FEATURES = (
    "p (mbar)",
    "T (degC)",
    "Tpot (K)",
    "Tdew (degC)",
    "rh (%)",
    "VPmax (mbar)",
    "VPact (mbar)",
    "VPdef (mbar)",
    "sh (g/kg)",
    "H2OC (mmol/mol)",
    "rho (g/m**3)",
    "wv (m/s)",
    "max. wv (m/s)",
    "wd (deg)",
    "rain (mm)",
    "raining (s)",
    "SWDR (W/m2)",
    "PAR (umol/m2/s)",
    "max. PAR (umol/m2/s)",
    "Tlog (degC)",
    "OT",
)
# 70/15/15 chronological, 200 rows left out before the valid and the test
# part (the paper's benchmark protocol).
SPLIT = ChronologicalSplit((70, 85), gap=200)
# A heat spike: T's z-score over a causal 7-day window of 1008 10-minute
# steps, above 3 (the paper's benchmark protocol). The paper's protocol gives
# no min_periods here; a quarter of the window (252 steps, 42 hours) is the
# ratio the protocol gives for ETTm1 (168 of 672).
SPIKE = RollingSpike("T (degC)", window=1008, min_periods=252, threshold=3.0)
# The station writes -9999 where a sensor gave no value (81 cells of wv, max.
# PAR and OT in this file); they are read as missing.
MISSING_CODE = -9999.0
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

Split: chronological 70/15/15 of the rows, with 200 rows left out (in no
part) before the valid and before the test part.
"""


def _read(path):
    return pd.read_csv(path, encoding="latin-1")


def _column_name(name):
    """The name of a column of the file in FEATURES: its ASCII characters, the three damaged units restored."""
    name = name.encode("ascii", "ignore").decode().strip()
    return RESTORED_NAMES.get(name, name)


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_weather")
    raw = read_cached(_read, path)
    raw = raw.set_axis([_column_name(str(name)) for name in raw.columns], axis=1)
    check_columns(raw, ("date", *FEATURES), path, "the Weather csv")
    if raw.columns.duplicated().any():
        raise ValueError(
            f"{path} names the column(s) {sorted(set(raw.columns[raw.columns.duplicated()]))} twice; "
            "which one holds the channel is ambiguous. Is it the published Weather csv?"
        )
    frame = unit_frame(UNIT, raw[list(FEATURES)], source=path, date=parsed_dates(raw["date"], path, "date"))
    frame[list(FEATURES)] = frame[list(FEATURES)].mask(frame[list(FEATURES)] == MISSING_CODE)
    return SPIKE.label(frame)


SPEC = EventDataset("weather", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="step", event="spike onset")


@dataset_doc(SPEC)
def load_weather(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the Jena weather series with heat spikes as events, as a frame and as windows.

    Reads ``Weather/weather.csv.gz`` (or ``weather.csv``) from the data home;
    use :func:`fetch_weather` to download it. The series is one unit, split
    in time 70/15/15 with 200 rows left out before the valid and the test
    part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per step: ``unit``, ``step``, ``date``, the 21 channels,
            ``spike_score``, ``label`` (heat spike, bool), ``event`` (spike
            onset, bool) and ``split`` (``"train"``, ``"valid"``,
            ``"test"`` or ``"gap"``).

    See Also
    --------
    fetch_weather : Download the Weather file if it is missing, then load it.

    References
    ----------
    H. Wu, J. Xu, J. Wang and M. Long, "Autoformer: Decomposition
    Transformers with Auto-Correlation for Long-Term Series Forecasting",
    NeurIPS 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_weather
    >>> data = load_weather(split="valid", stride=512)  # doctest: +SKIP
    >>> data.feature_names[:2]  # doctest: +SKIP
    ['p (mbar)', 'T (degC)']
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_weather(*, data_home=None, download_if_missing=True, **load_params):
    """Download the Weather file into the data home if it is missing, then load it.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, {FILE: (URL, SHA256)}, load_weather, data_home, download_if_missing, load_params)
