"""Reader for the GECCO 2018 drinking-water quality challenge data with contamination onsets as events."""

import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, load_dataset
from ._event_loading import unit_frame
from ._home import check_columns, dataset_file, parsed_dates, read_cached

__all__ = ["load_gecco"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for GECCO (appendix table of datasets)
# The published file holds about 140,000 one-minute rows; a stride of 16
# keeps their windows near 160 MB of float32.
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH

FEATURES = ("Tp", "Cl", "pH", "Redox", "Leit", "Trueb", "Cl_2", "Fm", "Fm_2")
# The paper's protocol gives no split for GECCO; the series is split as MBA's:
# boundaries at 60 % and 70 %, 200 rows left out before the valid and the
# test part.
SPLIT = ChronologicalSplit((60, 70), gap=200)
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
belonging to no part.
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


def _frame(data_home):
    path = dataset_file(data_home, DIRECTORY, FILE)
    raw = read_cached(_read, path)
    check_columns(raw, ("Time", *FEATURES, "EVENT"), path, "the GECCO 2018 csv")
    frame = unit_frame(UNIT, raw[list(FEATURES)], source=path, Time=parsed_dates(raw["Time"], path, "Time"))
    frame["label"] = _as_bool(raw["EVENT"], path)
    return frame


SPEC = EventDataset("gecco", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="minute", event="event onset")


@dataset_doc(SPEC)
def load_gecco(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the GECCO 2018 water-quality series with contamination onsets as events.

    The data are not downloaded: put ``1_gecco2018_water_quality.csv``
    (plain or gzipped) in ``GECCO/`` of the data home. The series is one
    unit, split in time at 60 % and 70 % of its rows with 200 rows left out
    before the valid and the test part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per minute: ``unit``, ``step``, ``Time``, the nine
            sensors, ``label`` (EVENT, bool), ``event`` (event onset, bool)
            and ``split`` (``"train"``, ``"valid"``, ``"test"`` or ``"gap"``).

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_gecco
    >>> data = load_gecco(split="test")  # doctest: +SKIP
    >>> data.feature_names[:3]  # doctest: +SKIP
    ['Tp', 'Cl', 'pH']
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)
