"""The windows of one benchmark under one seed (:class:`EventData`) and the label budgets of the label fractions.

Label budgets. A fraction ``f < 1`` labels only part of the training
windows; every method of a cell gets the same ones.

- C-MAPSS: the first ``ceil(f * n)`` units of the seed's training list
  (:func:`hepa_sklearn.cmapss_protocol.label_units`).
- The other datasets, most of them one long series: each unit's training
  windows, in time order, are cut into ``label_blocks`` contiguous blocks of
  near-equal size (``numpy.array_split``); a permutation of all blocks drawn
  from ``numpy.random.default_rng(seed)`` keeps its first
  ``max(1, ceil(f * n_blocks))``. If none of the kept windows has an event
  within ``K`` steps, the next blocks of the permutation are added until one
  has (a budget without any positive cell teaches nothing; records count
  the blocks kept). Whole blocks keep the overlapping windows of a span of
  time together, so the labelled windows are a few stretches of the
  series, as labels bought for a few periods would be. The validation and
  test windows never change.

Rolling origin. On the datasets whose split is a fixed cut in time, the
runner's ``--split rolling`` makes the seed vary the data too
(:class:`RollingOrigin`): seed ``s`` keeps the first ``100 - s * step``
percent of each labelled unit's rows (``step`` is the entry's
``origin_step``, 5) and splits that prefix as the dataset's own split
does, proportions and gaps alike. Seed 0 is the published split; each later
seed trains, validates and tests on an earlier stretch, the test part
always after the other two in time.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hepa_sklearn.surface import label_surface

__all__ = [
    "EventData",
    "RollingOrigin",
    "block_rule",
    "first_step_labels",
    "point_labels",
    "rolling_loader",
    "unit_blocks",
]


@dataclass
class EventData:
    """The windows of one benchmark under one seed, each part as ``X`` (n, C, L), ``y`` and ``groups``.

    ``X_pre`` are the pretraining windows (no labels). ``point_valid`` and
    ``point_test`` give each window's label at Δt = 1, the condition (spike,
    attack, anomaly, failure) at the step after the window's end, for F1 and
    point-adjusted F1: 1.0, 0.0, or NaN where that step lies beyond the part.
    ``blocks`` numbers the label block of each training window (for
    C-MAPSS, the unit).
    """

    X_pre: np.ndarray
    X_train: np.ndarray
    y_train: np.ndarray
    g_train: np.ndarray
    X_valid: np.ndarray
    y_valid: np.ndarray
    g_valid: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    g_test: np.ndarray
    point_valid: np.ndarray
    point_test: np.ndarray
    blocks: np.ndarray
    label_rule: Callable = None  # label_rule(fraction) -> (mask over training windows, number of blocks kept)
    nasa: Callable | None = None  # C-MAPSS: nasa() -> (X, rul) of NASA's truncated test file

    def train_mask(self, fraction):
        """``(mask, n_blocks)``: which training windows the label ``fraction`` keeps, and how many blocks."""
        return self.label_rule(fraction)


@dataclass(frozen=True)
class RollingOrigin:
    """A dataset's split applied to the first ``100 - percent_removed`` percent of each unit's rows.

    ``base`` is the dataset's ``split(lengths)`` callable; the rows after the
    kept prefix belong to no part.
    """

    base: Callable
    percent_removed: int

    def __call__(self, lengths):
        if not 0 <= self.percent_removed < 100:
            raise ValueError(f"a rolling origin removes 0 to 99 percent of the rows, got {self.percent_removed}.")
        return self.base({unit: n * (100 - self.percent_removed) // 100 for unit, n in lengths.items()})


def rolling_loader(spec, percent_removed):
    """A loader with the signature of the ``load_*`` functions for ``spec`` under :class:`RollingOrigin`."""
    from dataclasses import replace

    rolled = replace(spec, split=RollingOrigin(spec.split, percent_removed))

    def load(*, data_home=None, split=None, context_length, stride, min_history, normalize=True):
        return rolled.load(
            data_home=data_home,
            split=split,
            context_length=context_length,
            stride=stride,
            min_history=min_history,
            normalize=normalize,
        )

    return load


def block_rule(blocks, y, K, seed):
    """The label budget of the non-C-MAPSS benchmarks (see the module docstring)."""
    labels, _ = label_surface(y, K)
    has_event = np.bincount(blocks, weights=labels[:, -1], minlength=blocks.max() + 1) > 0
    order = np.random.default_rng(seed).permutation(blocks.max() + 1)

    def rule(fraction):
        n_keep = max(1, math.ceil(fraction * order.size - 1e-9))
        while n_keep < order.size and not has_event[order[:n_keep]].any():
            n_keep += 1
        return np.isin(blocks, order[:n_keep]), n_keep

    return rule


def unit_blocks(groups, n_blocks):
    """Block id of each window: each unit's windows (in order) cut into ``n_blocks`` contiguous blocks."""
    blocks = np.empty(groups.shape[0], dtype=np.int64)
    offset = 0
    for unit in dict.fromkeys(groups):
        index = np.flatnonzero(groups == unit)
        for i, piece in enumerate(np.array_split(index, min(n_blocks, index.size))):
            blocks[piece] = offset + i
        offset += min(n_blocks, index.size)
    return blocks


def window_ends(table, part, stride, min_history):
    """``(unit, end position in unit, part stop)`` of each window of ``part``, in the loader's order."""
    rows = []
    for unit, start, stop in table[table["split"] == part][["unit", "start", "stop"]].itertuples(index=False):
        first_end = max(start, min_history - 1)
        if first_end >= stop:
            continue
        ends = np.arange(stop - 1, first_end - 1, -stride)[::-1]  # counted back from the last row
        rows += [(unit, int(end), int(stop)) for end in ends]
    return rows


def point_labels(bunch, part, stride, min_history):
    """The condition at the step after each window's end; NaN where that step lies beyond the part."""
    positions = bunch.frame.groupby("unit", sort=False).indices
    condition = bunch.frame["label"].to_numpy(dtype=bool)
    labels = [
        float(condition[positions[unit][end + 1]]) if end + 1 < stop else np.nan
        for unit, end, stop in window_ends(bunch.splits, part, stride, min_history)
    ]
    return np.array(labels)


def first_step_labels(y):
    """The label at Δt = 1 from ``y`` (C-MAPSS, where the condition is the event itself)."""
    labels, known = label_surface(y, 1)
    return np.where(known[:, 0], labels[:, 0], np.nan).astype(float)
