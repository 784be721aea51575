"""Loader for CHB-MIT scalp EEG (PhysioNet) with seizure onsets as events: the paper's negative control."""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ._edf import edf_header, read_edf
from ._event_dataset import EventDataset, dataset_doc, load_dataset
from ._event_loading import unit_frame
from ._home import dataset_file, fetch_file, get_data_home, read_cached, unreadable

__all__ = ["load_chbmit", "fetch_chbmit", "read_edf", "read_summary"]

K = 200  # horizons 1..200: the paper's K for every dataset but C-MAPSS and TEP (§3.3)
SAMPLING_RATE = 16  # Hz after block averaging of the 256 Hz recordings
CONTEXT_LENGTH = 256  # 16 s at 16 Hz: the paper's 16-second context for CHB-MIT
# One window per 16 s: a one-hour file gives 225 windows (at stride 1 a patient's
# windows would take gigabytes).
STRIDE = 256
MIN_HISTORY = CONTEXT_LENGTH
SPLIT_FRACTIONS = (0.6, 0.1, 0.3)
# The 18 bipolar derivations of the double-banana montage that every
# recording of the published database holds (the files' other channels differ
# between patients and recordings).
FEATURES = (
    "FP1-F7",
    "F7-T7",
    "T7-P7",
    "P7-O1",
    "FP1-F3",
    "F3-C3",
    "C3-P3",
    "P3-O1",
    "FP2-F4",
    "F4-C4",
    "C4-P4",
    "P4-O2",
    "FP2-F8",
    "F8-T8",
    "T8-P8",
    "P8-O2",
    "FZ-CZ",
    "CZ-PZ",
)
DIRECTORY = "CHBMIT"
_BASE_URL = "https://physionet.org/files/chbmit/1.0.0/"
CHECKSUMS = "SHA256SUMS.txt"

DESCR = """\
CHB-MIT: scalp EEG of paediatric patients with intractable seizures
===================================================================

Recordings of 23 patients (chb01 ... chb24, chb21 being chb01 again) from
the Children's Hospital Boston, as published on PhysioNet (A. Shoeb, MIT
2009; "CHB-MIT Scalp EEG Database" 1.0.0): EDF files of about one hour at
256 Hz, one folder per patient with a summary file giving each file's
seizures in seconds from its start. The 18 bipolar derivations of the
double-banana montage are read (in microvolts) and averaged over blocks of
samples down to ``sampling_rate`` Hz; a step is one such block. Each file
is one unit.

Event: a seizure onset. ``label`` is True from the block holding a
seizure's start to the block before its end, and an event (``event``) is
the first block of each seizure. The paper uses CHB-MIT as a negative
control: scalp EEG has no reliable precursor of a seizure within a
16-second context, and it reports h-AUROC 0.497 there.

Split: the files of the chosen patients are split by a seeded permutation
(random_state) into 60/10/30 percent train, valid and test files (rounded),
the files with a seizure and those without each on their own (with three
or more of a kind, the valid and the test part get one at least), so that
every part gets its share of both; each file whole.
"""


_FILE = re.compile(r"^File Name:\s*(\S+)", re.MULTILINE)
_SEIZURE = re.compile(r"Seizure(?:\s+\d+)?\s+(Start|End)\s+Time:\s*(\d+)\s*seconds", re.IGNORECASE)


def read_summary(path):
    """``{file name: [(start s, end s), ...]}`` from a CHB-MIT ``chbNN-summary.txt``, in its order."""
    text = Path(path).read_text(encoding="latin-1")
    names = list(_FILE.finditer(text))
    seizures = {}
    for match, following in zip(names, [*names[1:], None], strict=True):
        section = text[match.end() : following.start() if following else len(text)]
        times = _SEIZURE.findall(section)
        starts = [int(t) for kind, t in times if kind.lower() == "start"]
        ends = [int(t) for kind, t in times if kind.lower() == "end"]
        if len(starts) != len(ends) or any(end <= start for start, end in zip(starts, ends, strict=True)):
            raise ValueError(f"{path}: the seizures of {match[1]} do not pair up as start < end ({times}).")
        seizures[match[1]] = list(zip(starts, ends, strict=True))
    if not seizures:
        raise ValueError(f"{path} names no file ('File Name: ...' lines); is it a CHB-MIT summary?")
    return seizures


def _patient_frames(data_home, patient, sampling_rate):
    summary = dataset_file(
        data_home,
        f"{DIRECTORY}/{patient}",
        f"{patient}-summary.txt",
        url=f"{_BASE_URL}{patient}/{patient}-summary.txt",
        fetch_name="fetch_chbmit",
    )
    frames = []
    for name, seizures in read_cached(read_summary, summary).items():
        path = dataset_file(
            data_home, f"{DIRECTORY}/{patient}", name, url=f"{_BASE_URL}{patient}/{name}", fetch_name="fetch_chbmit"
        )
        rate = edf_header(path, FEATURES)[4]
        if rate % sampling_rate:
            raise ValueError(f"sampling_rate={sampling_rate} does not divide {path}'s {rate:g} Hz; choose a divisor.")
        try:
            values, _ = read_edf(path, FEATURES, int(rate // sampling_rate))
        except (OSError, EOFError) as exc:
            raise unreadable(path, exc) from exc
        frame = unit_frame(Path(name).stem, pd.DataFrame(values, columns=list(FEATURES)), patient=patient)
        label = np.zeros(len(frame), dtype=bool)
        for start, end in seizures:
            label[int(start * sampling_rate) : int(end * sampling_rate)] = True
        frame["label"] = label
        frames.append(frame)
    return frames


def _frame(data_home, patients, sampling_rate):
    frames = [frame for patient in patients for frame in _patient_frames(data_home, patient, sampling_rate)]
    return pd.concat(frames, ignore_index=True)


def _split_files(lengths, frame_labels, random_state=0):
    """Seeded 60/10/30 split of the files, those with a seizure and those without each on their own."""
    rng = np.random.default_rng(random_state)
    part_of = {}
    for group in ([u for u in lengths if frame_labels[u]], [u for u in lengths if not frame_labels[u]]):
        order = rng.permutation(np.array(group, dtype=object)) if group else []
        # with three files or more, the valid and the test part get one at least
        least = 1 if len(order) >= 3 else 0
        n_valid = max(least, int(round(SPLIT_FRACTIONS[1] * len(order))))
        n_train = len(order) - n_valid - max(least, int(round(SPLIT_FRACTIONS[2] * len(order))))
        part_of.update({unit: "train" for unit in order[:n_train]})
        part_of.update({unit: "valid" for unit in order[n_train : n_train + n_valid]})
        part_of.update({unit: "test" for unit in order[n_train + n_valid :]})
    return {unit: [(part_of[unit], 0, n_rows)] for unit, n_rows in lengths.items()}


def _check_patients(patients):
    patients = (patients,) if isinstance(patients, str) else tuple(patients)
    bad = [p for p in patients if not re.fullmatch(r"chb\d\d", str(p))]
    if not patients or bad:
        raise ValueError(
            f"patients must name CHB-MIT patient folders such as 'chb01', got {list(patients) or patients}."
        )
    return patients


def _spec(patients, sampling_rate):
    """The spec of the chosen patients and rate; its split stratifies the files by whether they hold a seizure."""
    seizure_of = {}

    def read(data_home):
        frame = _frame(data_home, patients, sampling_rate)
        seizure_of.update(frame.groupby("unit", sort=False)["label"].any().to_dict())
        return frame

    def split(lengths, random_state=0):
        return _split_files(lengths, seizure_of, random_state)

    return EventDataset("chbmit", DIRECTORY, read, FEATURES, split, DESCR, step="block", event="seizure onset")


SPEC = _spec(("chb01",), SAMPLING_RATE)


@dataset_doc(SPEC)
def load_chbmit(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
    patients=("chb01",),
    sampling_rate=SAMPLING_RATE,
    random_state=0,
):
    """Load CHB-MIT scalp EEG with seizure onsets as events (the paper's negative control).

    Reads ``CHBMIT/<patient>/<patient>-summary.txt`` and the EDF files it
    lists from the data home, in PhysioNet's layout (use
    :func:`fetch_chbmit` to download a patient's files). Each file is one
    unit; the 18 double-banana derivations are averaged down to
    ``sampling_rate`` Hz.

    %(event_loader_parameters)s
    patients : str or sequence of str, default=("chb01",)
        The patient folders to read (``"chb01"`` ... ``"chb24"``).
    sampling_rate : int, default={sampling_rate}
        Steps per second after block averaging; must divide the files' 256 Hz.
    random_state : int, default=0
        Seed of the permutation that splits the files.

    %(event_loader_returns)s
        frame : DataFrame
            One row per (file, block): ``unit`` (the file's name without
            ``.edf``), ``step``, ``patient``, the 18 channels, ``label``
            (seizure under way, bool), ``event`` (seizure onset, bool) and
            ``split``.

    See Also
    --------
    fetch_chbmit : Download a patient's files, then load them.

    References
    ----------
    A. H. Shoeb, "Application of Machine Learning to Epileptic Seizure Onset
    Detection and Treatment", PhD thesis, MIT, 2009.

    A. L. Goldberger et al., "PhysioBank, PhysioToolkit, and PhysioNet",
    Circulation 101(23), 2000.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_chbmit
    >>> data = load_chbmit(split="test")  # doctest: +SKIP
    >>> data.X.shape[1:]  # doctest: +SKIP
    (18, 256)
    """
    patients = _check_patients(patients)
    if not isinstance(sampling_rate, (int, np.integer)) or sampling_rate < 1:
        raise ValueError(f"sampling_rate must be a positive integer (Hz), got {sampling_rate!r}.")
    return load_dataset(
        _spec(patients, int(sampling_rate)),
        data_home,
        split,
        context_length,
        stride,
        min_history,
        normalize,
        random_state=random_state,
    )


def fetch_chbmit(*, data_home=None, patients=("chb01",), download_if_missing=True, **load_params):
    """Download the missing files of CHB-MIT patients from PhysioNet, then load them.

    PhysioNet's ``SHA256SUMS.txt`` for the release is downloaded first (kept
    in ``CHBMIT/`` of the data home); every file is checked against the
    SHA-256 it lists before it is kept in ``CHBMIT/<patient>/``. Files already
    there are used as they are. A patient's files take about 1 to 4 GB.

    Parameters
    ----------
    data_home : str or path-like, default=None
        Data home, see :func:`get_data_home`.
    patients : str or sequence of str, default=("chb01",)
        The patients whose files to fetch and load.
    download_if_missing : bool, default=True
        If False, raise ``FileNotFoundError`` instead of downloading a missing file.
    **load_params
        Passed to :func:`load_chbmit`.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        As returned by :func:`load_chbmit`.
    """
    patients = _check_patients(patients)
    folder = Path(get_data_home(data_home)) / DIRECTORY
    sums = folder / CHECKSUMS
    if not sums.is_file():
        if not download_if_missing:
            raise FileNotFoundError(f"{sums} not found and downloading is off (download_if_missing=False).")
        from ._home import _download

        folder.mkdir(parents=True, exist_ok=True)
        _download(_BASE_URL + CHECKSUMS, sums, gzip_output=False, path=sums)
    digests = {}
    for line in sums.read_text().splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            digests[name.strip().lstrip("*")] = digest
    for patient in patients:
        summary = f"{patient}/{patient}-summary.txt"
        if summary not in digests:
            raise ValueError(f"{sums} lists no {summary}: no such patient in the release.")
        fetch_file(_BASE_URL + summary, folder / summary, digests[summary], download_if_missing=download_if_missing)
        for name in read_summary(folder / summary):
            fetch_file(
                _BASE_URL + f"{patient}/{name}",
                folder / patient / name,
                digests[f"{patient}/{name}"],
                download_if_missing=download_if_missing,
            )
    return load_chbmit(data_home=data_home, patients=patients, **load_params)
