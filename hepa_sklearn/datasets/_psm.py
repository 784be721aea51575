"""Reader for PSM (eBay pooled server metrics, published csv layout) with anomaly onsets as events."""

import pandas as pd

from .._validation import check_event_indicator
from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, load_dataset
from ._event_loading import unit_frame
from ._home import dataset_file, read_cached

__all__ = ["load_psm"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 100  # the paper's context for PSM (appendix table of datasets)
# The published files hold about 220,000 rows (training and test together);
# a stride of 16 keeps their windows near 140 MB of float32.
STRIDE = 16
MIN_HISTORY = CONTEXT_LENGTH

TIME_COLUMN = "timestamp_(min)"
# The paper's protocol gives no split for PSM; the labelled test series is
# split as MBA's: boundaries at 60 % and 70 %, 200 rows left out before the
# valid and the test part.
SPLIT = ChronologicalSplit((60, 70), gap=200)
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
    return unit_frame(unit, raw[features], source=path, **{TIME_COLUMN: raw[TIME_COLUMN].to_numpy()})


def _frame(data_home):
    paths = {name: dataset_file(data_home, DIRECTORY, name, url=SOURCE) for name in (TRAIN_FILE, TEST_FILE, LABEL_FILE)}
    normal = _unit_frame(paths[TRAIN_FILE], NORMAL_UNIT)
    labelled = _unit_frame(paths[TEST_FILE], EVENT_UNIT, _features(normal))
    labels = read_cached(_read, paths[LABEL_FILE])
    if "label" not in labels.columns or len(labels) != len(labelled):
        raise ValueError(
            f"{paths[LABEL_FILE]} must have a 'label' column and one row per row of "
            f"{paths[TEST_FILE]} ({len(labelled)}); it has columns {list(labels.columns)} and "
            f"{len(labels)} rows."
        )
    normal["label"] = False
    labelled["label"] = check_event_indicator(labels["label"], f"the 'label' column of {paths[LABEL_FILE]}")
    return pd.concat([normal, labelled], ignore_index=True)


def _features(frame):
    # The channels are the training file's columns other than the time stamp
    # (25 in the published files), in file order.
    return [column for column in frame.columns if column not in ("unit", "step", TIME_COLUMN, "label", "event")]


SPEC = EventDataset(
    "psm",
    DIRECTORY,
    _frame,
    _features,
    SPLIT,
    DESCR,
    step="step",
    event="anomaly onset",
    normal=lambda unit: unit == NORMAL_UNIT,
)


@dataset_doc(SPEC)
def load_psm(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load PSM (published csv layout) with anomaly onsets as events.

    The data are not downloaded: put ``train.csv``, ``test.csv`` and
    ``test_label.csv`` (plain or gzipped) in ``PSM/`` of the data home. The
    training file is one unit, in the ``"normal"`` part; the labelled test
    file is another, split in time at 60 % and 70 % of its rows with 200
    rows left out before the valid and the test part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per (file, step): ``unit`` (``"train"`` or ``"test"``),
            ``step``, ``timestamp_(min)``, the feature columns, ``label``
            (anomaly, bool), ``event`` (anomaly onset, bool) and ``split``.

    References
    ----------
    A. Abdulaal, Z. Liu and T. Lancewicki, "Practical Approach to
    Asynchronous Multivariate Time Series Anomaly Detection and
    Localization", KDD 2021.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_psm
    >>> data = load_psm(split="valid")  # doctest: +SKIP
    >>> data.splits["unit"].unique().tolist()  # doctest: +SKIP
    ['train', 'test']
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)
