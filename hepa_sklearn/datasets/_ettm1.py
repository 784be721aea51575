"""Loader for ETTm1 (electricity transformer, 15-minute steps) with oil-temperature spikes as events."""

import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import RollingSpike, unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_ettm1", "fetch_ettm1"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for ETTm1 (appendix table of datasets)
# Keeps the windows of the whole series at about 60 MB of float32 (4,324 windows).
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH

FEATURES = ("HUFL", "HULL", "MUFL", "MULL", "LUFL", "LULL", "OT")
# 60/20/20 chronological, 200 rows left out before the valid and the test
# part (the paper's benchmark protocol).
SPLIT = ChronologicalSplit((60, 80), gap=200)
# A spike: OT's z-score over a causal 7-day window of 672 15-minute steps,
# once 168 steps (42 hours) are present, above 2 (the paper's benchmark protocol).
SPIKE = RollingSpike("OT", window=672, min_periods=168, threshold=2.0)
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
"""


def _read(path):
    return pd.read_csv(path)


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE, url=URL, fetch_name="fetch_ettm1")
    raw = read_cached(_read, path)
    check_columns(raw, ("date", *FEATURES), path, "the ETTm1 csv")
    date = parsed_dates(raw["date"], path, "date")
    return SPIKE.label(unit_frame(UNIT, raw[list(FEATURES)], source=path, date=date))


SPEC = EventDataset("ettm1", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="step", event="spike onset")


@dataset_doc(SPEC)
def load_ettm1(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load ETTm1 with oil-temperature spikes as events, as a frame and as windows.

    Reads ``ETTm1/ETTm1.csv.gz`` (or ``ETTm1.csv``) from the data home; use
    :func:`fetch_ettm1` to download it. The series is one unit, split in
    time 60/20/20 with 200 rows left out before the valid and the test part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per step: ``unit``, ``step``, ``date``, the seven
            channels, ``spike_score``, ``label`` (spike, bool), ``event``
            (spike onset, bool) and ``split`` (``"train"``, ``"valid"``,
            ``"test"`` or ``"gap"``).

    See Also
    --------
    fetch_ettm1 : Download ETTm1 if it is missing, then load it.

    References
    ----------
    H. Zhou, S. Zhang, J. Peng, S. Zhang, J. Li, H. Xiong and W. Zhang,
    "Informer: Beyond Efficient Transformer for Long Sequence Time-Series
    Forecasting", AAAI 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_ettm1
    >>> data = load_ettm1(split="test", stride=512)  # doctest: +SKIP
    >>> data.X.shape  # doctest: +SKIP
    (27, 7, 512)
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_ettm1(*, data_home=None, download_if_missing=True, **load_params):
    """Download ETTm1 into the data home if it is missing, then load it.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, {FILE: (URL, SHA256)}, load_ettm1, data_home, download_if_missing, load_params)
