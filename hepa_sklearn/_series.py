"""The series :func:`~hepa_sklearn.windows.make_windows` reads: each layout's units in time order, and the checks
of their columns.

Every column is checked before anything is cut: unit labels of one type,
times that sort as times (numbers or datetimes, none missing, no (unit,
time) pair twice), event indicators of booleans or 0/1 numbers, features of
numbers. Input that could be read more than one way is refused with a
message that names the problem and the fix, never guessed at.
"""

from numbers import Integral

import numpy as np
import pandas as pd

from ._validation import KIND_NAMES, NUMBER_KINDS, some_values

__all__ = ["LAYOUTS", "check_columns", "checked_columns", "series_units"]

LAYOUTS = ("long", "pd-multiindex", "np-list", "time-first-list")

# what each layout reads, for the messages that point from one layout to another
_LAYOUT_HELP = {
    "long": "a DataFrame with one row per (unit, step)",
    "pd-multiindex": "a DataFrame indexed by (instance, time) as in sktime and aeon",
    "np-list": "a list of (n_channels, n_timepoints) arrays as in aeon",
    "time-first-list": "a list of (n_timepoints, n_columns) arrays",
}

# kinds of values (pandas.api.types.infer_dtype) that sort in time order
_TIME_KINDS = NUMBER_KINDS + ("datetime64", "datetime", "date", "timedelta64", "timedelta", "period")


def _shown(value):
    """``repr`` of a value for messages, numpy scalars as the Python values they hold."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _layout_hint(*layouts):
    return "; ".join(f"pass layout={name!r} for {_LAYOUT_HELP[name]}" for name in layouts)


def check_columns(frame, columns, what, noun="column"):
    """ValueError naming the ``columns`` that ``frame`` lacks, or that label more than one of its columns."""
    absent = [c for c in columns if c is not None and c not in frame.columns]
    if absent:
        raise ValueError(f"{what} has no {noun}(s) {absent}.")
    repeated = set(frame.columns[frame.columns.duplicated()])
    shared = [c for c in dict.fromkeys(columns) if c is not None and c in repeated]
    if shared:
        raise ValueError(
            f"{what} has several {noun}s labelled {shared}; rename them so that each label names one {noun}."
        )


def checked_columns(feature_cols, event_col):
    """``feature_cols`` as a list; TypeError or ValueError for a string, repeats or an unhashable ``event_col``."""
    if isinstance(feature_cols, (str, bytes)) or not np.iterable(feature_cols):
        raise TypeError(
            f"feature_cols must be a list of column labels (or positions), got {feature_cols!r}; "
            f"for a single column pass [{feature_cols!r}]."
        )
    feature_cols = list(feature_cols)
    if not feature_cols:
        raise ValueError("feature_cols must name at least one column.")
    for what, labels in (
        ("feature_cols must hold column labels (or positions)", feature_cols),
        ("event_col must be one column label (or position)", event_col),
    ):
        try:
            hash(tuple(labels) if labels is feature_cols else labels)
        except TypeError:
            raise TypeError(f"{what}, got {labels!r}.") from None
    repeated = [c for c in dict.fromkeys(feature_cols) if feature_cols.count(c) > 1]
    if repeated:
        raise ValueError(f"feature_cols names {repeated} more than once; name each channel once.")
    return feature_cols


def _check_features(frame, feature_cols, what, noun="column"):
    """TypeError for a feature column of other than numbers or booleans; ValueError for infinite values."""
    for column in feature_cols:
        values = frame[column]
        dtype = values.dtype
        numeric = pd.api.types.is_bool_dtype(dtype) or (
            pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_complex_dtype(dtype)
        )
        if not numeric and dtype == np.dtype(object):
            numeric = pd.api.types.infer_dtype(values, skipna=True) in NUMBER_KINDS + ("boolean", "empty")
        if not numeric:
            kind = pd.api.types.infer_dtype(values, skipna=True)
            fix = (
                f"the column first, e.g. pandas.to_numeric(frame[{column!r}]) (errors='coerce' makes unreadable "
                "entries NaN)"
                if noun == "column"
                else "each array to float first (NaN where a value is missing)"
            )
            raise TypeError(
                f"feature {noun} {column!r} of {what} must hold numbers, found {KIND_NAMES.get(kind, kind)} "
                f"({some_values(values.dropna())}); text and other values are not parsed. Convert {fix}."
            )
        numbers = values.to_numpy(dtype=np.float64, na_value=np.nan)
        infinite = np.isinf(numbers)
        if infinite.any():
            raise ValueError(
                f"feature {noun} {column!r} of {what} has {int(infinite.sum())} infinite value(s) (first at "
                f"{_shown(values.index[np.argmax(infinite)])}); mark missing values with NaN instead."
            )
        huge = np.abs(numbers) > np.finfo(np.float32).max
        if huge.any():
            raise ValueError(
                f"feature {noun} {column!r} of {what} has {int(huge.sum())} value(s) beyond float32's range "
                f"(first at {_shown(values.index[np.argmax(huge)])}: {numbers[np.argmax(huge)]:g}), which X, in "
                "float32, would hold as infinite; rescale the column first."
            )


def _check_units(units, name):
    """ValueError for missing unit labels, TypeError for labels of mixed types (1 and '1' would be two units)."""
    if pd.isna(units).any():
        raise ValueError(f"{name} has missing values; every row needs the label of its unit.")
    kind = pd.api.types.infer_dtype(units, skipna=False)
    if kind in ("mixed", "mixed-integer"):
        raise TypeError(
            f"{name} holds labels of mixed types ({some_values(units)}), so that 1 and '1' would be two units; "
            "make them one type first, e.g. with .astype(str)."
        )


def _check_times(times, name):
    """ValueError for missing times, TypeError for values that do not sort as times."""
    missing = np.asarray(pd.isna(times))
    if missing.any():
        raise ValueError(
            f"{name} has {int(missing.sum())} missing value(s): a step without a time cannot be placed in its "
            "series. Drop those rows or fill their times first."
        )
    kind = pd.api.types.infer_dtype(times, skipna=False)
    if kind not in _TIME_KINDS and len(times):
        hint = (
            " Text sorts as text ('10' before '9'): convert it with pandas.to_numeric or pandas.to_datetime first."
            if kind in ("string", "bytes")
            else " Make them one type of number or datetime first."
        )
        raise TypeError(
            f"{name} must hold numbers or datetimes, which sort in time order, found {KIND_NAMES.get(kind, kind)} "
            f"({some_values(times)}).{hint}"
        )


def _check_unique_steps(repeated, units, times, rows, keys):
    """ValueError when a (unit, time) pair labels more than one row: the series would hold the step twice.

    ``units`` is None for a single unit; ``rows`` are the rows' labels.
    """
    if not repeated.any():
        return
    first = int(np.argmax(repeated))
    same = repeated & (times == times[first])
    where = f"at time {_shown(times[first])}"
    if units is not None:
        same &= units == units[first]
        where = f"unit {_shown(units[first])} " + where
    shown = ", ".join(_shown(rows[i]) for i in np.flatnonzero(same)[:5])
    raise ValueError(
        f"frame has {int(repeated.sum())} rows that share their (unit, time) with another row, for example "
        f"{where} in rows [{shown}]: the unit's series would hold that step twice. Each step of a unit needs one "
        f"row; drop the repeats (frame.drop_duplicates({keys})) or aggregate them "
        f"(frame.groupby({keys}).mean()) first."
    )


def _long_units(frame, *, feature_cols, event_col, unit_col, time_col):
    """``(unit, part, time, row, event)`` per unit of a long DataFrame (see :func:`series_units`)."""
    if isinstance(frame.index, pd.MultiIndex):
        raise ValueError(
            f"frame has a {frame.index.nlevels}-level MultiIndex, which layout='long' does not read: "
            f"{_layout_hint('pd-multiindex')}; for a long frame, move the levels to columns with "
            "frame.reset_index()."
        )
    check_columns(frame, [*feature_cols, event_col, unit_col, time_col], "frame")
    _check_features(frame, feature_cols, "frame")
    if unit_col is not None:
        _check_units(frame[unit_col], f"unit column {unit_col!r}")
    if time_col is not None:
        _check_times(frame[time_col], f"time column {time_col!r}")
        keys = [time_col] if unit_col is None else [unit_col, time_col]
        _check_unique_steps(
            frame.duplicated(keys, keep=False).to_numpy(),
            None if unit_col is None else frame[unit_col].to_numpy(),
            frame[time_col].to_numpy(),
            frame.index.to_numpy(),
            keys,
        )
    parts = [(0, frame)] if unit_col is None else frame.groupby(unit_col, sort=False)
    for uid, part in parts:
        if time_col is not None:
            part = part.sort_values(time_col, kind="stable")
        time = part[time_col].to_numpy() if time_col is not None else None
        where = "frame" if unit_col is None else f"unit {_shown(uid)}"
        yield uid, part, time, part.index.to_numpy(), f"event column {event_col!r} of {where}"


def _multiindex_units(frame, *, feature_cols, event_col):
    """``(unit, part, time, None, event)`` per instance of a DataFrame indexed by (instance, time)."""
    index = frame.index
    if not isinstance(index, pd.MultiIndex) or index.nlevels != 2:
        found = (
            f"a {index.nlevels}-level MultiIndex" if isinstance(index, pd.MultiIndex) else f"a {type(index).__name__}"
        )
        raise ValueError(
            "layout='pd-multiindex' reads a DataFrame indexed by a 2-level MultiIndex (instance, time), "
            f"one column per variable; frame has {found}. For {_LAYOUT_HELP['long']}, with unit and "
            "time columns, pass layout='long' with unit_col and time_col."
        )
    check_columns(frame, [*feature_cols, event_col], "frame")
    _check_features(frame, feature_cols, "frame")
    _check_units(index.get_level_values(0), "the instance level (level 0) of frame's index")
    times = index.get_level_values(1)
    _check_times(times, "the time level (level 1) of frame's index")
    _check_unique_steps(
        index.duplicated(keep=False),
        index.get_level_values(0).to_numpy(),
        times.to_numpy(),
        np.arange(len(frame)),
        "level=[0, 1]",
    )
    for uid, part in frame.groupby(level=0, sort=False):
        time = part.index.get_level_values(1).to_numpy()
        order = np.argsort(time, kind="stable")
        yield uid, part.iloc[order], time[order], None, f"event column {event_col!r} of instance {_shown(uid)}"


def _list_units(frame, *, feature_cols, event_col, layout):
    """``(unit, part, None, None, event)`` per array of a list: columns of ``part`` are variables."""
    noun = "channel" if layout == "np-list" else "column"
    for uid, array in enumerate(frame):
        try:
            array = np.asarray(array)
        except ValueError as exc:  # ragged nested sequences
            raise ValueError(f"item {uid} of the list is not a rectangular array: {exc}") from None
        if array.ndim != 2:
            shape = "(n_channels, n_timepoints)" if layout == "np-list" else "(n_timepoints, n_columns)"
            raise ValueError(
                f"with layout={layout!r} each array in the list must be 2-D {shape}; item {uid} has "
                f"shape {array.shape}."
            )
        part = pd.DataFrame(array.T if layout == "np-list" else array)
        what = f"array {uid} (shape {array.shape})"
        check_columns(part, [*feature_cols, event_col], what, noun)
        _check_features(part, feature_cols, what, noun)
        yield uid, part, None, None, f"event {noun} {event_col!r} of array {uid}"


def series_units(frame, *, layout, feature_cols, event_col, unit_col, time_col):
    """Read ``frame`` in ``layout`` as ``(unit, part, time, row, event)`` per unit, in order of first appearance.

    ``part`` is a DataFrame of the unit's steps in time order whose columns
    include the feature and event columns, all checked; ``time`` holds each
    step's time value (None: the step position), ``row`` the frame's index
    labels (None: no labels) and ``event`` names the unit's event column in
    messages. Input that does not match ``layout`` is
    refused, never reinterpreted.
    """
    if layout in ("long", "pd-multiindex"):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"layout={layout!r} reads {_LAYOUT_HELP[layout]}, got {type(frame).__name__}"
                + ("; " + _layout_hint("np-list", "time-first-list") if isinstance(frame, (list, tuple)) else "")
                + "."
            )
        columns = {"feature_cols": feature_cols, "event_col": event_col}
        if layout == "long":
            return list(_long_units(frame, **columns, unit_col=unit_col, time_col=time_col))
        if unit_col is not None or time_col is not None:
            raise ValueError(
                "unit_col and time_col must be None with layout='pd-multiindex': the index levels "
                "(instance, time) give the unit and the time."
            )
        return list(_multiindex_units(frame, **columns))
    if not isinstance(frame, (list, tuple)):
        hint = "; " + _layout_hint("long", "pd-multiindex") if isinstance(frame, pd.DataFrame) else ""
        raise TypeError(f"layout={layout!r} reads {_LAYOUT_HELP[layout]}, got {type(frame).__name__}{hint}.")
    if unit_col is not None or time_col is not None:
        raise ValueError(
            f"unit_col and time_col apply to a DataFrame; with layout={layout!r} each array is one "
            "unit, already in time order."
        )
    wrong = [c for c in [*feature_cols, event_col] if isinstance(c, (bool, np.bool_)) or not isinstance(c, Integral)]
    if wrong:
        raise TypeError(
            f"with layout={layout!r}, feature_cols and event_col are positions in each array (integers), got {wrong}."
        )
    return list(_list_units(frame, feature_cols=feature_cols, event_col=event_col, layout=layout))
