"""Loader for MBA (MIT-BIH supraventricular ECG, TranAD copy) with annotated beats as events."""

import numpy as np
import pandas as pd

from ._event_dataset import ChronologicalSplit, EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import unit_frame
from ._home import dataset_file, read_cached

__all__ = ["load_mba", "fetch_mba"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 100  # the paper's context for MBA (appendix table of datasets)
# Every sample ends a window: the whole record gives 7,581 windows, 6 MB of float32.
STRIDE = 1
MIN_HISTORY = CONTEXT_LENGTH

FEATURES = ("ECG1", "ECG2")
# 60/70/100 % cumulative chronological split, 200 samples left out before the
# valid and the test part (the paper's benchmark protocol).
SPLIT = ChronologicalSplit((60, 70), gap=200)
BEAT_HALF_WIDTH = 20  # samples labelled on each side of an annotated beat (the paper's benchmark protocol)
DIRECTORY = "MBA"
SIGNAL_FILE = "test.xlsx"
LABEL_FILE = "labels.xlsx"
UNIT = "MBA"
# Public copies of the files, at the commit read for the project's data,
# with the SHA-256 of each file. train.xlsx is byte-identical to test.xlsx
# (as published), so only test.xlsx is read.
_BASE_URL = "https://raw.githubusercontent.com/imperial-qore/TranAD/7ffb98d0c18189cc3d9ab732b4cb0278200a0af0/data/MBA/"
FILES = {
    SIGNAL_FILE: (f"{_BASE_URL}test.xlsx", "bf2de57b5736ba59c2844a0725c7cc7b631cd8ef527571226c908260defed00d"),
    LABEL_FILE: (f"{_BASE_URL}labels.xlsx", "59a92961c16a05aa83fd146c77d7ce7a8f773ad8657834454e6467326fa4191c"),
}

DESCR = """\
MBA: MIT-BIH supraventricular arrhythmia ECG (TranAD copy)
==========================================================

A 7,680-sample excerpt of two ECG leads (ECG1, ECG2, in mV) from the
MIT-BIH Supraventricular Arrhythmia Database (S. D. Greenwald, MIT 1990;
PhysioNet), as distributed with TranAD (S. Tuli et al., VLDB 2022), with
65 beat annotations (41 N, 18 V, 6 F). One unit, two channels. The
distribution's train.xlsx and test.xlsx are identical; test.xlsx is read.

Event: an annotated beat. ``label`` is True within 20 samples either side
of each annotated sample (41 samples, both ends included) and an event
(``event``) is the first labelled sample of each such segment, 20 samples
before the annotation. The annotations lie at least 75 samples apart, so
the 65 segments never merge: 65 events. The column ``annotation`` holds
the beat type (N, V, F) at annotated samples and "" elsewhere.

Split: chronological, the part boundaries at 60 % and 70 % of the
samples; the valid and the test part each start 200 samples after the
boundary, those samples belonging to no part.
"""

_OPENPYXL_MESSAGE = "load_mba needs openpyxl to read .xlsx files: pip install 'hepa-sklearn[data]'"


def _require_openpyxl():
    try:
        import openpyxl  # noqa: F401  (the engine pandas uses for .xlsx)
    except ImportError as exc:
        raise ImportError(_OPENPYXL_MESSAGE) from exc


def _read_signal(path):
    # The second header row holds the units, "(mV)".
    return pd.read_excel(path, skiprows=[1], engine="openpyxl")


def _read_labels(path):
    return pd.read_excel(path, engine="openpyxl")


def _frame(data_home):
    signal_path = dataset_file(data_home, DIRECTORY, SIGNAL_FILE, url=FILES[SIGNAL_FILE][0], fetch_name="fetch_mba")
    label_path = dataset_file(data_home, DIRECTORY, LABEL_FILE, url=FILES[LABEL_FILE][0], fetch_name="fetch_mba")
    _require_openpyxl()
    signal = read_cached(_read_signal, signal_path)
    annotations = read_cached(_read_labels, label_path)
    missing = [column for column in FEATURES if column not in signal.columns]
    if missing or not {"Sample", "#"} <= set(annotations.columns):
        raise ValueError(
            f"{signal_path} needs the columns {list(FEATURES)} and {label_path} the columns "
            "'Sample' and '#'; are they the TranAD MBA files?"
        )
    n_rows = len(signal)
    frame = unit_frame(UNIT, signal[list(FEATURES)], source=signal_path)
    samples = pd.to_numeric(annotations["Sample"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    whole = np.isfinite(samples) & (samples == np.round(samples))
    if not whole.all():
        raise ValueError(
            f"{label_path}: column 'Sample' must hold the sample number of each beat, found "
            f"{annotations['Sample'].to_numpy()[~whole][:5].tolist()}; is the file damaged?"
        )
    samples = samples.astype(np.int64)
    if samples.size and (samples.min() < 0 or samples.max() >= n_rows):
        raise ValueError(f"{label_path} annotates samples outside 0..{n_rows - 1} of {signal_path}.")
    annotation = np.full(n_rows, "", dtype=object)
    annotation[samples] = annotations["#"].astype(str).to_numpy()
    frame["annotation"] = annotation
    label = np.zeros(n_rows, dtype=bool)
    for sample in samples:
        label[max(0, sample - BEAT_HALF_WIDTH) : sample + BEAT_HALF_WIDTH + 1] = True
    frame["label"] = label
    return frame


SPEC = EventDataset(
    "mba", DIRECTORY, _frame, FEATURES, SPLIT, DESCR, step="sample", event="segment onset", scaling="minmax"
)


@dataset_doc(SPEC)
def load_mba(
    *, data_home=None, split=None, context_length=CONTEXT_LENGTH, stride=STRIDE, min_history=MIN_HISTORY, normalize=True
):
    """Load the MBA ECG record with annotated beats as events.

    Reads ``MBA/test.xlsx`` and ``MBA/labels.xlsx`` from the data home (use
    :func:`fetch_mba` to download them); reading ``.xlsx`` needs the
    optional dependency openpyxl (``pip install 'hepa-sklearn[data]'``).
    The record is one unit, split in time at 60 % and 70 % of its samples
    with 200 samples left out before the valid and the test part; it is
    scaled by min-max scaling.

    %(event_loader_parameters)s

    %(event_loader_returns)s
        frame : DataFrame
            One row per sample: ``unit``, ``step``, ``ECG1``, ``ECG2``,
            ``annotation`` (beat type or ""), ``label`` (within 20 samples
            of an annotated beat, bool), ``event`` (segment onset, bool) and
            ``split`` (``"train"``, ``"valid"``, ``"test"`` or ``"gap"``).

    Raises
    ------
    ImportError
        openpyxl is not installed.

    See Also
    --------
    fetch_mba : Download the missing MBA files, then load them.

    References
    ----------
    S. Tuli, G. Casale and N. R. Jennings, "TranAD: Deep Transformer
    Networks for Anomaly Detection in Multivariate Time Series Data",
    PVLDB 15(6), 2022.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_mba
    >>> data = load_mba(split="test")  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (2, 100)
    """
    return load_dataset(SPEC, data_home, split, context_length, stride, min_history, normalize)


@dataset_doc(SPEC)
def fetch_mba(*, data_home=None, download_if_missing=True, **load_params):
    """Download the missing MBA files into the data home, then load them.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, FILES, load_mba, data_home, download_if_missing, load_params)
