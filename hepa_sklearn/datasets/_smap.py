"""Reader for SMAP (NASA satellite telemetry, telemanom layout) with anomaly onsets as events."""

import json

import numpy as np
import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, load_dataset
from ._event_loading import unit_frame
from ._home import check_columns, dataset_file, get_data_home, read_cached

__all__ = ["load_smap"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 100  # the paper's context for SMAP (appendix table of datasets)
# The published 55 SMAP channels hold about 563,000 rows (training and test
# files together); a stride of 32 keeps their windows near 175 MB of float32.
STRIDE = 32
MIN_HISTORY = CONTEXT_LENGTH

N_COLUMNS = 25  # telemetry value and 24 one-hot command channels (telemanom layout)
FEATURES = ("telemetry",) + tuple(f"command_{i}" for i in range(1, N_COLUMNS))
# The paper's protocol gives no split for SMAP; each channel's labelled test
# series is split as MBA's: boundaries at 60 % and 70 %, 200 rows left out
# before the valid and the test part.
SPLIT = ChronologicalSplit((60, 70), gap=200)
SPACECRAFT = "SMAP"
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
"""


def _read_array(path):
    return np.load(path).astype(np.float64)


def _read_labels(path):
    return pd.read_csv(path)


def _series_frame(path, chan, unit, sequences=()):
    values = read_cached(_read_array, path)
    if values.ndim != 2 or values.shape[1] != N_COLUMNS:
        raise ValueError(
            f"{path} has shape {values.shape}; SMAP series in the telemanom layout have "
            f"{N_COLUMNS} columns (telemetry, then 24 command channels)."
        )
    frame = unit_frame(unit, pd.DataFrame(values, columns=list(FEATURES)), source=path)
    frame.insert(1, "chan_id", chan)
    label = np.zeros(len(frame), dtype=bool)
    for start, end in sequences:
        if not 0 <= start <= end < len(frame):
            raise ValueError(f"anomaly sequence [{start}, {end}] of {unit} lies outside its {len(frame)} test rows.")
        label[start : end + 1] = True
    frame["label"] = label
    return frame


def _sequences(text, chan, path):
    """The ``[start, end]`` pairs of a catalogue row's anomaly_sequences; ValueError naming the row otherwise."""
    try:
        sequences = json.loads(text)
    except (TypeError, ValueError):
        sequences = None
    pairs = isinstance(sequences, list) and all(
        isinstance(pair, list) and len(pair) == 2 and all(type(end) is int for end in pair) for pair in sequences
    )
    if not pairs:
        raise ValueError(
            f"{path}: anomaly_sequences of {chan!r} must be a list of [start, end] pairs of integers, got "
            f"{text!r}; is the file damaged, or not telemanom's?"
        )
    return sequences


def _frame(data_home):
    label_path = dataset_file(data_home, DIRECTORY, LABEL_FILE, url=SOURCE)
    catalogue = read_cached(_read_labels, label_path)
    check_columns(catalogue, ("chan_id", "spacecraft", "anomaly_sequences"), label_path, f"telemanom's {LABEL_FILE}")
    catalogue = catalogue[catalogue["spacecraft"] == SPACECRAFT]
    if catalogue.empty:
        raise ValueError(f"{label_path} lists no channel whose spacecraft is {SPACECRAFT!r}.")
    folder = get_data_home(data_home)
    frames = []
    for chan, sequences in catalogue[["chan_id", "anomaly_sequences"]].itertuples(index=False):
        train_path = dataset_file(folder, f"{DIRECTORY}/train", f"{chan}.npy", url=SOURCE)
        test_path = dataset_file(folder, f"{DIRECTORY}/test", f"{chan}.npy", url=SOURCE)
        normal = _series_frame(train_path, chan, f"{chan}/train")
        frames += [normal, _series_frame(test_path, chan, chan, _sequences(sequences, chan, label_path))]
    return pd.concat(frames, ignore_index=True)


# Each channel's training series, ``<chan>/train``, is its normal unit.
SPEC = EventDataset(
    "smap",
    DIRECTORY,
    _frame,
    FEATURES,
    SPLIT,
    DESCR,
    step="step",
    event="anomaly onset",
    normal=lambda unit: unit.endswith("/train"),
)


@dataset_doc(SPEC)
def load_smap(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the SMAP telemetry channels (telemanom layout) with anomaly onsets as events.

    The data are not downloaded: put ``labeled_anomalies.csv``, ``train/``
    and ``test/`` of the telemanom release (K. Hundman et al., KDD 2018) in
    ``SMAP/`` of the data home. Each SMAP channel gives two units: its
    training series, in the ``"normal"`` part, and its labelled test series,
    split in time at 60 % and 70 % of its rows with 200 rows left out
    before the valid and the test part.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per (series, step): ``unit`` (``<chan>`` for the test
            series, ``<chan>/train`` for the training series), ``chan_id``,
            ``step``, the 25 channels, ``label`` (inside an anomaly
            sequence, bool), ``event`` (anomaly onset, bool) and ``split``.

    References
    ----------
    K. Hundman, V. Constantinou, C. Laporte, I. Colwell and T. Soderstrom,
    "Detecting Spacecraft Anomalies Using LSTMs and Nonparametric Dynamic
    Thresholding", KDD 2018.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_smap
    >>> data = load_smap(split="normal")  # doctest: +SKIP
    >>> bool(data.y["event"].any())  # doctest: +SKIP
    False
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)
