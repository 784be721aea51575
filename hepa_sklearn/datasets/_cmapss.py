"""Loader for the C-MAPSS turbofan engine degradation data shipped with the package."""

from functools import cache
from importlib import resources

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from ..surface import make_survival_y
from ..windows import make_windows

__all__ = ["load_cmapss", "cmapss_file", "CMAPSS_SENSORS"]

#: The 14 sensors that vary over an engine's life; the other seven are
#: constant (or nearly so) within an operating condition and carry no signal.
CMAPSS_SENSORS = ("s2", "s3", "s4", "s7", "s8", "s9", "s11", "s12", "s13", "s14", "s15", "s17", "s20", "s21")

SUBSETS = ("FD001", "FD002", "FD003", "FD004")
SETTINGS = ("setting1", "setting2", "setting3")
# Operating conditions per subset, as given with the data (see DESCR)
N_REGIMES = {"FD001": 1, "FD002": 6, "FD003": 1, "FD004": 6}

# The evaluation protocol (the authors' reference implementation): contexts of up to 512 cycles, windows
# with >= 128 cycles of history, stride 4 for training and validation windows and 1
# for test windows, K = 150 horizons, 40 (cut, Δt) pairs per training unit and
# pretraining epoch.
CONTEXT_LENGTH = 512
MIN_HISTORY = 128
TRAIN_STRIDE = 4
TEST_STRIDE = 1
K = 150
CUTS_PER_UNIT = 40

_SPLITS = ("train", "test")
_ALL_SENSORS = [f"s{i}" for i in range(1, 22)]
_COLUMNS = ["unit", "cycle", *SETTINGS, *_ALL_SENSORS]
# Both splits keep windows from a unit's first cycle: the test split scores engines of every age, so the
# training windows cover those ages too (the protocol keeps its own MIN_HISTORY, passed explicitly).
_DEFAULT_MIN_HISTORY = {"train": 1, "test": 1}

_DESCR_TEMPLATE = """\
C-MAPSS turbofan engine degradation data
========================================

Simulated run-to-failure trajectories of a fleet of turbofan engines,
produced with NASA's Commercial Modular Aero-Propulsion System Simulation
(A. Saxena, K. Goebel, D. Simon and N. Eklund, "Damage Propagation Modeling
for Aircraft Engine Run-to-Failure Simulation", PHM 2008). Each engine
starts with unknown initial wear and manufacturing variation, operates
normally, then develops a fault that grows until the engine fails. The
measurements are contaminated with sensor noise.

Subsets (unit counts as found in the shipped files):

    ======  ===========  ==========  ==========  ===========
    subset  train units  test units  conditions  fault modes
    ======  ===========  ==========  ==========  ===========
    FD001   100          100         1           1 (HPC)
    FD002   260          259         6           1 (HPC)
    FD003   100          100         1           2 (HPC, fan)
    FD004   249          248         6           2 (HPC, fan)
    ======  ===========  ==========  ==========  ===========

(The readme distributed with the data lists 248 training and 249 test units
for FD004; the files themselves hold 249 and 248.)

Each row is one operational cycle of one engine, with 26 columns: ``unit``,
``cycle`` (1, 2, ... within the unit), the three operational settings
``setting1``-``setting3`` and the sensor measurements ``s1``-``s21``.
Windows use the 14 sensors that change with degradation:
{sensors}.

Events and labels. Training trajectories run to failure: the event
(column ``failure``) happens at each training unit's last cycle. A window
ending at cycle t is labelled with the number of cycles to the failure
strictly after t (``event=True``); the window ending at the last cycle has
no later failure and is censored with ``time=0``. Test trajectories stop
some time before failure and the true remaining useful life (RUL) after
their last cycle is given separately; a test row's RUL is that value plus
the cycles left in the unit, and every test window is labelled with
``event=True`` and ``time`` equal to the RUL at the window's last cycle.

This bunch: subset={subset}, split={split}, context_length={context_length},
stride={stride}, min_history={min_history}.
It holds {n_units} units, {n_rows} rows and {n_windows} windows.
"""


def cmapss_file(name):
    """One of the C-MAPSS files embedded in the package, as NASA publishes them (some gzip-compressed).

    Parameters
    ----------
    name : str
        ``"train_FD00x.txt.gz"``, ``"test_FD00x.txt.gz"`` or
        ``"RUL_FD00x.txt"`` (x = 1..4), or ``"readme.txt"``.

    Returns
    -------
    file : importlib.resources.abc.Traversable
        Read it with ``read_bytes()`` or ``open("rb")``; ``is_file()`` is
        False for a name the package does not hold.

    Examples
    --------
    >>> from hepa_sklearn.datasets import cmapss_file
    >>> cmapss_file("RUL_FD001.txt").read_text().split()[:3]
    ['112', '98', '69']
    """
    return resources.files("hepa_sklearn.datasets") / "data" / name


@cache
def _read_trajectories(subset, split):
    """Parse ``{split}_{subset}.txt.gz`` into the long DataFrame (cached)."""
    with cmapss_file(f"{split}_{subset}.txt.gz").open("rb") as handle:
        frame = pd.read_csv(handle, sep=r"\s+", header=None, names=_COLUMNS, compression="gzip")
    frame = frame.astype({"unit": np.int64, "cycle": np.int64})
    float_cols = [*SETTINGS, *_ALL_SENSORS]
    frame[float_cols] = frame[float_cols].astype(np.float64)
    frame = frame.sort_values(["unit", "cycle"], kind="stable").reset_index(drop=True)
    return frame


@cache
def _read_rul(subset):
    """Read ``RUL_{subset}.txt``: one remaining useful life per test unit (cached)."""
    with cmapss_file(f"RUL_{subset}.txt").open("rb") as handle:
        values = pd.read_csv(handle, sep=r"\s+", header=None).iloc[:, 0]
    rul = values.to_numpy(dtype=np.int64)
    rul.setflags(write=False)
    return rul


def _check_subset(subset):
    if isinstance(subset, str) and subset.upper() in SUBSETS:
        return subset.upper()
    raise ValueError(f"subset must be one of {list(SUBSETS)} (case-insensitive), got {subset!r}.")


def _check_split(split):
    if isinstance(split, str) and split in _SPLITS:
        return split
    raise ValueError(f"split must be one of {list(_SPLITS)}, got {split!r}.")


def cmapss_windows(frame, *, context_length, stride, min_history, feature_cols=CMAPSS_SENSORS):
    """Windows of ``feature_cols`` (the 14 sensors by default) from a C-MAPSS frame, unit after unit."""
    X, y, groups = make_windows(
        frame,
        feature_cols=list(feature_cols),
        event_col="failure",
        unit_col="unit",
        time_col="cycle",
        context_length=context_length,
        stride=stride,
        min_history=min_history,
    )
    return X, y, np.asarray(groups, dtype=np.int64)


def load_cmapss(subset="FD001", *, split="train", context_length=CONTEXT_LENGTH, stride=TRAIN_STRIDE, min_history=None):
    """Load a C-MAPSS subset as a long frame and as labelled windows.

    The data files ship with the package; nothing is downloaded. Training
    units run to failure, which is the event at each unit's last cycle.
    Test units stop before failure; their windows are labelled from the
    remaining useful life (RUL) given with the data, so every test window
    has an observed event.

    Parameters
    ----------
    subset : {"FD001", "FD002", "FD003", "FD004"}, default="FD001"
        Which subset to load (case-insensitive).
    split : {"train", "test"}, default="train"
        Training (run-to-failure) or test (truncated) trajectories.
    context_length : int, default=512
        Number of cycles per window; shorter histories are left-padded with NaN.
    stride : int, default=4
        Cycles between consecutive window ends, counted back from each
        unit's last cycle.
    min_history : int or None, default=None
        Minimum number of observed cycles in a window. None means 1 for both
        splits: windows end at every age from a unit's first cycle on, so the
        training windows cover the ages the test split scores (81 % of
        FD001's test windows have less than 128 cycles of history). The
        paper's protocol (:mod:`hepa_sklearn.cmapss_protocol`) passes 128.

    Returns
    -------
    data : :class:`~sklearn.utils.Bunch`
        With the fields:

        frame : DataFrame
            One row per (unit, cycle): ``unit``, ``cycle`` (int),
            ``setting1``-``setting3``, ``s1``-``s21`` (float), a boolean
            ``failure`` (True on each training unit's last cycle, all False
            for test) and, for test only, the integer ``rul`` of each row.
        X : ndarray of shape (n_windows, 14, context_length), float32
            Windows over the sensors in :data:`CMAPSS_SENSORS`.
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` (bool) and ``time`` (float): cycles from the
            window's end to failure, or to the unit's end when censored.
        groups : ndarray of shape (n_windows,), int
            Unit of each window, for group-aware cross-validation.
        feature_names : list of str
            The 14 sensor names, the channel order of ``X``.
        setting_names : list of str
            ``["setting1", "setting2", "setting3"]``.
        rul : ndarray of int or None
            Test split: the true RUL after each unit's last cycle, in unit
            order. None for the training split.
        DESCR : str
            Description of the data and of the parameters used.

    Examples
    --------
    >>> from hepa_sklearn.datasets import load_cmapss
    >>> data = load_cmapss("FD001")
    >>> data.X.shape[1:]
    (14, 512)
    >>> data.frame.unit.nunique()
    100
    >>> test = load_cmapss("FD001", split="test", context_length=64)
    >>> bool(test.y["event"].all())
    True
    """
    subset = _check_subset(subset)
    split = _check_split(split)
    if min_history is None:
        min_history = _DEFAULT_MIN_HISTORY[split]

    frame = _read_trajectories(subset, split).copy()
    units = frame["unit"].to_numpy()
    last_cycle = frame.groupby("unit")["cycle"].transform("max").to_numpy()
    rul = None
    if split == "train":
        frame["failure"] = frame["cycle"].to_numpy() == last_cycle
    else:
        frame["failure"] = np.zeros(len(frame), dtype=bool)
        rul = _read_rul(subset).copy()
        unit_ids = np.unique(units)
        if unit_ids.shape[0] != rul.shape[0]:
            raise ValueError(
                f"RUL_{subset}.txt has {rul.shape[0]} values but test_{subset} has {unit_ids.shape[0]} units."
            )
        rul_of_unit = pd.Series(rul, index=unit_ids)
        unit_rul = rul_of_unit.loc[units].to_numpy()
        frame["rul"] = (unit_rul + (last_cycle - frame["cycle"].to_numpy())).astype(np.int64)

    X, y, groups = cmapss_windows(frame, context_length=context_length, stride=stride, min_history=min_history)
    if split == "test":
        # Without a failure in the file, each window is censored at the unit's
        # last cycle; the RUL file gives the cycles from there to failure.
        time = y["time"] + rul_of_unit.loc[groups].to_numpy()
        y = make_survival_y(np.ones(time.shape[0], dtype=bool), time)

    descr = _DESCR_TEMPLATE.format(
        sensors=", ".join(CMAPSS_SENSORS),
        subset=subset,
        split=split,
        context_length=context_length,
        stride=stride,
        min_history=min_history,
        n_units=frame["unit"].nunique(),
        n_rows=len(frame),
        n_windows=X.shape[0],
    )
    return Bunch(
        frame=frame,
        X=X,
        y=y,
        groups=groups,
        feature_names=list(CMAPSS_SENSORS),
        setting_names=list(SETTINGS),
        rul=rul,
        DESCR=descr,
    )
