"""What every event benchmark's loader does alike: unit frames, event onsets and spikes, parts, scaling, windows."""

from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from .._validation import some_values
from ..windows import make_windows

#: The parts every loader can return windows of, in time order.
PARTS = ("train", "valid", "test")
#: Rows that are known, or taken, to hold no event (an attack-free year, a
#: fault-free run, an unlabelled training file); their statistics scale the
#: data where the protocol says so, and they suit pretraining.
NORMAL = "normal"
#: Rows between two parts, in no part.
GAP = "gap"

SPLIT_TABLE_COLUMNS = ["unit", "split", "start", "stop", "n_rows", "n_events"]


def onsets(label):
    """True at the first row of each run of True in ``label``.

    A run already under way at the first row is not an onset: its start was
    not observed.
    """
    label = np.asarray(label, dtype=bool)
    event = np.zeros_like(label)
    event[1:] = label[1:] & ~label[:-1]
    return event


def unit_onsets(frame, label_col="label", unit_col="unit"):
    """:func:`onsets` of ``label_col`` computed unit by unit (the frame is ordered by unit)."""
    labels = frame[label_col].to_numpy(dtype=bool)
    units = frame[unit_col].to_numpy()
    event = onsets(labels)
    # a new unit starts a new series: its first row is never an onset
    event[1:] &= units[1:] == units[:-1]
    return event


def unit_frame(unit, channels, *, source=None, **columns):
    """One unit's frame: ``unit``, ``step`` (0, 1, ...), the ``columns`` given, then the channels.

    ``channels`` is a DataFrame whose columns, in order, become the channels,
    as float64; a value that is not a number raises a ValueError naming the
    file ``source`` (when given), the column and the row.
    """
    frame = pd.DataFrame({"unit": unit, "step": np.arange(len(channels), dtype=np.int64), **columns})
    for name in channels.columns:
        values = pd.to_numeric(channels[name], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        text = np.isnan(values) & channels[name].notna().to_numpy()
        if text.any():
            where = "" if source is None else f"{source}: "
            raise ValueError(
                f"{where}column {name!r} of {unit!r} holds values that are not numbers "
                f"({some_values(channels[name].to_numpy()[text])}, first in row {int(np.argmax(text))}); is the "
                "file damaged, or not the published one?"
            )
        frame[name] = values
    return frame


@dataclass(frozen=True)
class RollingSpike:
    """An event label: one channel's causal rolling z-score above a threshold.

    The score of a row is the channel minus its mean over the ``window``
    rows ending at that row, divided by their standard deviation (pandas
    rolling, ``min_periods`` rows needed, the row itself included, so the
    score never looks ahead).
    """

    channel: str
    window: int
    min_periods: int
    threshold: float

    def label(self, frame):
        """Add the columns ``spike_score`` and ``label`` (score above the threshold) to ``frame``."""
        values = frame[self.channel]
        rolling = values.rolling(self.window, min_periods=self.min_periods)
        frame["spike_score"] = (values - rolling.mean()) / rolling.std()
        frame["label"] = (frame["spike_score"] > self.threshold).to_numpy()
        return frame


def chronological_bounds(n_rows, cut_percent, gap):
    """``{part: (start, stop)}`` rows of a chronological train/valid/test split.

    The part boundaries lie at ``cut_percent`` (cumulative percentages, e.g.
    ``(60, 80)`` for 60/20/20) of ``n_rows``, rounded down. The valid and test
    parts each begin ``gap`` rows after their boundary, so those rows belong
    to no part.
    """
    first, second = (n_rows * percent // 100 for percent in cut_percent)
    bounds = {"train": (0, first), "valid": (first + gap, second), "test": (second + gap, n_rows)}
    for part, (start, stop) in bounds.items():
        if stop <= start:
            raise ValueError(
                f"a series of {n_rows} rows is too short for a {cut_percent} percent split with a "
                f"gap of {gap} rows: the {part} part would be empty."
            )
    return bounds


def _check_positive_int(name, value):
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")


def check_split(split, allowed):
    """Return ``split`` if it is None or one of ``allowed``; raise ValueError naming them otherwise."""
    if split is None or (isinstance(split, str) and split in allowed):
        return split
    raise ValueError(f"split must be None or one of {list(allowed)}, got {split!r}.")


def split_table(rows):
    """The table of parts from ``(unit, split, start, stop)`` rows (positions within the unit)."""
    table = pd.DataFrame(rows, columns=SPLIT_TABLE_COLUMNS[:4])
    table["n_rows"] = table["stop"] - table["start"]
    return table


def _mark_parts(frame, table):
    """Write the ``split`` column of ``frame`` and count each part's events into ``table``."""
    positions = frame.groupby("unit", sort=False).indices
    split = np.full(len(frame), GAP, dtype=object)
    events = frame["event"].to_numpy(dtype=bool)
    n_events = []
    for unit, part, start, stop in table[["unit", "split", "start", "stop"]].itertuples(index=False):
        rows = positions[unit][start:stop]
        split[rows] = part
        n_events.append(int(events[rows].sum()))
    table["n_events"] = n_events
    frame["split"] = pd.Categorical(split, categories=[*PARTS, NORMAL, GAP])


def scaling_statistics(values, kind):
    """Per-column ``(offset, scale)`` of ``values`` (2-D, NaN ignored).

    ``kind="zscore"``: mean and standard deviation; ``kind="minmax"``: minimum
    and range. A constant column gets scale 1 so that it maps to zeros rather
    than to NaN.
    """
    if kind == "zscore":
        offset, scale = np.nanmean(values, axis=0), np.nanstd(values, axis=0)
    else:
        offset, scale = np.nanmin(values, axis=0), np.nanmax(values, axis=0) - np.nanmin(values, axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    return offset.astype(np.float64), scale.astype(np.float64)


def part_windows(frame, table, feature_names, part, *, values, context_length, stride, min_history):
    """Windows ending inside ``part`` (every unit whole when ``part`` is None).

    A window ends at a row of the part, its context reaches back over the
    unit's earlier rows whichever part they belong to (they are inputs, never
    labels), and its label counts only events inside the part: a window is
    censored at the part's last row, so no label looks past the part.
    """
    if part is None:
        lengths = frame.groupby("unit", sort=False).size()
        entries = [(unit, 0, n) for unit, n in lengths.items()]
    else:
        chosen = table[table["split"] == part]
        entries = list(chosen[["unit", "start", "stop"]].itertuples(index=False, name=None))
    positions = frame.groupby("unit", sort=False).indices
    events = frame["event"].to_numpy(dtype=bool)
    X_parts, y_parts, group_parts = [], [], []
    for unit, start, stop in entries:
        first_end = max(start, min_history - 1)
        if first_end >= stop:
            continue
        begin = max(0, start - (context_length - 1))
        rows = positions[unit][begin:stop]
        piece = pd.DataFrame(values[rows], columns=list(feature_names))
        piece["event"] = events[rows]
        X, y, _ = make_windows(
            piece,
            feature_cols=list(feature_names),
            event_col="event",
            context_length=context_length,
            stride=stride,
            min_history=first_end - begin + 1,
        )
        X_parts.append(X)
        y_parts.append(y)
        group_parts.append(np.full(X.shape[0], unit))
    if not X_parts:
        where = "any unit" if part is None else f"the {part} part"
        raise ValueError(
            f"no window ends in {where} with min_history={min_history}: every unit's rows there "
            f"end before row {min_history}. Lower min_history."
        )
    groups = np.concatenate(group_parts).astype(str)
    return np.concatenate(X_parts), np.concatenate(y_parts), groups


def _describe(table, *, split, context_length, stride, min_history, normalize, n_rows, n_windows):
    per_part = table.groupby("split", sort=False)[["n_rows", "n_events"]].sum()
    lines = [
        f"This bunch: split={split}, context_length={context_length}, stride={stride}, "
        f"min_history={min_history}, normalize={normalize}.",
        f"Units: {table['unit'].nunique()}; rows: {n_rows}; windows: {n_windows}.",
        "Rows and events (onsets) per part:",
    ]
    for part, counts in per_part.iterrows():
        lines.append(f"    {part}: {counts['n_rows']} rows, {counts['n_events']} events")
    return "\n".join(lines) + "\n"


def load_events(
    frame,
    table,
    feature_names,
    *,
    split,
    context_length,
    stride,
    min_history,
    normalize,
    scaling_part,
    scaling_kind,
    description,
):
    """Assemble a loader's Bunch from its long frame and its table of parts.

    ``frame`` holds one row per (unit, step), ordered unit by unit and in time
    within a unit, with the columns ``unit``, ``feature_names``, ``label``
    (the per-row condition) and ``event`` (its onsets). ``table`` lists the
    parts as ``(unit, split, start, stop)`` row positions within units.
    Scaling statistics come from the rows of ``scaling_part`` only.
    """
    for name, value in (("context_length", context_length), ("stride", stride), ("min_history", min_history)):
        _check_positive_int(name, value)
    _mark_parts(frame, table)
    raw = frame[list(feature_names)].to_numpy(dtype=np.float64)
    offset, scale = scaling_statistics(raw[(frame["split"] == scaling_part).to_numpy()], scaling_kind)
    values = ((raw - offset) / scale) if normalize else raw
    X, y, groups = part_windows(
        frame,
        table,
        feature_names,
        split,
        values=values.astype(np.float32),
        context_length=context_length,
        stride=stride,
        min_history=min_history,
    )
    descr = (
        description
        + "\n"
        + _describe(
            table,
            split=split,
            context_length=context_length,
            stride=stride,
            min_history=min_history,
            normalize=normalize,
            n_rows=len(frame),
            n_windows=X.shape[0],
        )
    )
    return Bunch(
        frame=frame,
        X=X,
        y=y,
        groups=groups,
        feature_names=list(feature_names),
        splits=table,
        offset=offset,
        scale=scale,
        DESCR=descr,
    )
