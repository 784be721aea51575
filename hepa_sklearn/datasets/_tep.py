"""Loader for the Tennessee Eastman process data (Braatz runs) with fault onsets as events."""

import numpy as np
import pandas as pd

from ._event_dataset import EventDataset, dataset_doc, fetch_dataset, load_dataset
from ._event_loading import unit_frame
from ._home import dataset_file, read_cached

__all__ = ["load_tep", "fetch_tep"]

K = 150  # horizons 1..150: the paper's K for C-MAPSS and TEP (§3.3)
CONTEXT_LENGTH = 512  # the paper's context for TEP (appendix table of datasets)
# Keeps the windows of all runs at about 145 MB of float32 (1,351 windows).
STRIDE = 16
# A fault starts 160 samples into a 960-sample test run, so windows must be
# allowed to end with little history; 16 steps fill one patch of the encoder
# (P=16, paper §3.1).
MIN_HISTORY = 16
SPLIT_FRACTIONS = (0.6, 0.1, 0.3)  # test runs split like C-MAPSS units (the paper's benchmark protocol)
# The test runs switch the fault on after 8 simulated hours, at sample 160
# (3-minute samples; the paper's protocol and the Braatz data description).
FAULT_ONSET = 160
N_FAULTS = 21

FEATURES = tuple(f"XMEAS({i})" for i in range(1, 42)) + tuple(f"XMV({i})" for i in range(1, 12))
DIRECTORY = "TEP"
NORMAL_RUN = "d00"
TEST_RUNS = tuple(f"d{fault:02d}_te" for fault in range(N_FAULTS + 1))
# Public copies of the files, at the commit read for the project's data,
# with the SHA-256 of each .dat file.
_BASE_URL = (
    "https://raw.githubusercontent.com/camaramm/tennessee-eastman-profBraatz/0643318858ce7c87292bd59820b459e12a13d009/"
)
_SHA256 = {
    "d00": "4c3c0b11eefacf93e5d2529e2866d7a625e37aa9153d0f95fae17a6c9e560deb",
    "d00_te": "57d56da4199e3d73582855d810be1d13d931386fd728bf1694798c7b0a03678c",
    "d01_te": "e7e6992fb39664e739fccbc001a1c5d5f7cb21829544f734ca3f282c26f680e5",
    "d02_te": "a34bd9c3693fa96bd3ee533fb7fbe29a9d226a4e3250b585ef1308e1136dbfb0",
    "d03_te": "b7bf6f2ed7cff0a5577898b009edd252b9bdf6ee9ff7dbeacf9af9aa4c6abace",
    "d04_te": "1ccb488dd5feac11aad54623451168abef066229e685872597897800363916f9",
    "d05_te": "1def7258a2865aeead699d52c8cf926fbf34c1467aaf298121987ab858fd0888",
    "d06_te": "8a3adc7121eaa9b9300c27f9c57a8ab356315401cb964310a4a8244dd34bf79d",
    "d07_te": "e01b7c81daf9fccc4495cbde5658296918276b3c078044893f6e945dd91d3446",
    "d08_te": "c0637f02f23b79890b43cfee9604818ad6d7f81532223d76acf1da0d6e2a2cc1",
    "d09_te": "513df6c3a4fd48e0eaddb0002cd8cdab3a78a5c83c47883bb52d2dc6c2472428",
    "d10_te": "3a278be79d8d111fc60be3cfb4f961c28e2dc632f17eb519886aa0f95864ffc6",
    "d11_te": "6d60a4c932d918e1ab26ae5d16320936a665f3aad3f05482d23f5c4550b9f29a",
    "d12_te": "2180fcecb01d1b110b429ba2969d6b18dcc625599e3640e54f69afa32dccbe50",
    "d13_te": "2e34e0c427d6e41d77d6cae76550b7e95004f9f13bc093278ecf5c282a1c9f03",
    "d14_te": "e8976d056c0769cebbcec3bcba89d2468040ccae7acbea55ebc3b2e56b217396",
    "d15_te": "a7242b956837bec8ca7f224d01805247f2aea6ea868eaa064e068b5c0761b1e5",
    "d16_te": "8381d7371aac49b498e7bf93149b77a0a6bbeffe73520881dcbe8ae96277244d",
    "d17_te": "27d2d72052064e3cbb7a45df8073f15bb83b77403f532616e73c8869b043e7c9",
    "d18_te": "1db5b93a7daa58ed1b641845b58ad818546ced7f3de866c086da18a7ebef5041",
    "d19_te": "c24dd77f787f89347273addc8a453d79f0b99edd64d43be11a5e0907bd515c5f",
    "d20_te": "e54035eda95311f13dd095f87607d97a89b7541afa2a3f68af098f33a5e2e6e5",
    "d21_te": "b6823aa09638cd59cb168bc24f991b6d4d557d8aea62b0b2a87ee67c21ba5a83",
}
FILES = {f"{run}.dat.gz": (f"{_BASE_URL}{run}.dat", _SHA256[run]) for run in (NORMAL_RUN, *TEST_RUNS)}

DESCR = """\
TEP: Tennessee Eastman process, Braatz simulation runs
======================================================

Closed-loop simulations of the Tennessee Eastman chemical process (J. J.
Downs and E. F. Vogel, Comput. Chem. Eng. 1993), as distributed by R.
Braatz's group (L. H. Chiang, E. L. Russell and R. D. Braatz, "Fault
Detection and Diagnosis in Industrial Systems", 2001): 52 channels,
XMEAS(1)-XMEAS(41) measured and XMV(1)-XMV(11) manipulated variables, one
sample every 3 minutes. Each run is one unit:

- ``d00``: the fault-free training run (500 samples; the file stores it
  transposed, 52 x 500), split ``"normal"``: it gives the scaling
  statistics and suits pretraining;
- ``d00_te`` ... ``d21_te``: the test runs, 960 samples each, fault-free
  (``d00_te``) or with fault 1-21 switched on at sample 160 (after 8 hours).

The faulty training runs ``d01.dat`` ... ``d21.dat`` are not used: they
are recorded after their fault was switched on, so they hold no onset.

Event: a process-fault onset. ``label`` is True from sample 160 of each
faulty test run (fault present) and an event (``event``) is sample 160
itself: one event per faulty run, none in ``d00`` and ``d00_te``. Windows
after the onset see no further event and are censored at the run's end.

Split: the 22 test runs are split by a seeded permutation (random_state)
into 13 train, 2 valid and 7 test runs (60/10/30, rounded, as the C-MAPSS
units), each run whole.
"""


def _read(path):
    values = pd.read_csv(path, sep=r"\s+", header=None)
    # d00.dat is stored with one row per variable (52 x 500).
    if values.shape[0] == len(FEATURES) and values.shape[1] != len(FEATURES):
        values = values.T.reset_index(drop=True)
    return values


def _run_frame(data_home, run):
    name = f"{run}.dat.gz"
    path = dataset_file(data_home, DIRECTORY, name, url=FILES[name][0], fetch_name="fetch_tep")
    values = read_cached(_read, path)
    if values.shape[1] != len(FEATURES):
        raise ValueError(
            f"{path} has {values.shape[1]} columns per sample; TEP runs have {len(FEATURES)} (XMEAS 1-41, XMV 1-11)."
        )
    # the published runs have no header: the columns are XMEAS 1-41, then XMV 1-11
    frame = unit_frame(run, values.set_axis(list(FEATURES), axis=1), source=path, fault=int(run[1:3]))
    faulty = run not in (NORMAL_RUN, "d00_te")
    frame["label"] = faulty & (frame["step"].to_numpy() >= FAULT_ONSET)
    return frame


def _frame(data_home):
    return pd.concat([_run_frame(data_home, run) for run in (NORMAL_RUN, *TEST_RUNS)], ignore_index=True)


def _fault_onsets(frame):
    # one event per faulty run, at the sample its fault is switched on
    return frame["label"].to_numpy() & (frame["step"].to_numpy() == FAULT_ONSET)


def _split_runs(lengths, random_state=0):
    order = np.random.default_rng(random_state).permutation(np.array(TEST_RUNS))
    n_train = int(round(SPLIT_FRACTIONS[0] * len(order)))
    n_valid = int(round(SPLIT_FRACTIONS[1] * len(order)))
    part_of = {run: "train" for run in order[:n_train]}
    part_of.update({run: "valid" for run in order[n_train : n_train + n_valid]})
    part_of.update({run: "test" for run in order[n_train + n_valid :]})
    return {run: [(part_of[run], 0, n_rows)] for run, n_rows in lengths.items()}


SPEC = EventDataset(
    "tep",
    DIRECTORY,
    _frame,
    FEATURES,
    _split_runs,
    DESCR,
    step="sample",
    event="fault onset",
    normal=lambda unit: unit == NORMAL_RUN,
    events=_fault_onsets,
)


@dataset_doc(SPEC)
def load_tep(
    *,
    data_home=None,
    split=None,
    context_length=CONTEXT_LENGTH,
    stride=STRIDE,
    min_history=MIN_HISTORY,
    normalize=True,
    random_state=0,
):
    """Load the Tennessee Eastman runs with fault onsets as events.

    Reads ``TEP/d00.dat.gz`` and ``TEP/d00_te.dat.gz`` ... ``TEP/d21_te.dat.gz``
    (or the plain ``.dat`` files) from the data home; use :func:`fetch_tep`
    to download them. Each run is one unit; the 22 test runs are split
    60/10/30 by a seeded permutation, the fault-free training run ``d00``
    is the ``"normal"`` part.

    %(event_loader_parameters)s
    random_state : int, default=0
        Seed of the permutation that splits the test runs.

    %(event_loader_returns)s
        frame : DataFrame
            One row per (run, sample): ``unit`` (the run), ``step``,
            ``fault`` (0-21), the 52 channels, ``label`` (fault present,
            bool), ``event`` (fault onset, bool) and ``split``.

    See Also
    --------
    fetch_tep : Download missing runs, then load them.

    References
    ----------
    J. J. Downs and E. F. Vogel, "A plant-wide industrial process control
    problem", Computers & Chemical Engineering 17(3), 1993.

    L. H. Chiang, E. L. Russell and R. D. Braatz, "Fault Detection and
    Diagnosis in Industrial Systems", Springer, 2001.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_tep
    >>> data = load_tep(split="test", context_length=64)  # doctest: +SKIP
    >>> int(data.splits.set_index("split").loc["test", "n_events"].sum())  # doctest: +SKIP
    7
    """
    return load_dataset(
        SPEC, data_home, split, context_length, stride, min_history, normalize, random_state=random_state
    )


@dataset_doc(SPEC)
def fetch_tep(*, data_home=None, download_if_missing=True, **load_params):
    """Download the missing TEP runs into the data home, then load them.

    %(event_fetch)s
    """
    return fetch_dataset(SPEC, FILES, load_tep, data_home, download_if_missing, load_params)
