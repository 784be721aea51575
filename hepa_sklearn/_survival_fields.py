"""The fields of a survival ``y``: which field is the event, the time and the optional cause, from structured arrays or
DataFrames, each checked."""

import numpy as np
import pandas as pd

from ._validation import check_event_indicator, real_numbers, some_values

__all__ = ["CAUSE_FIELD", "check_cause_codes", "check_times", "event_indicator", "frame_records", "survival_fields"]

# the name of the optional third field of y: the type of each event, 1, 2, ..., and 0 where there is none
CAUSE_FIELD = "cause"
_NAMED = ({"event", "time"}, {"event", "time", CAUSE_FIELD})
_BUILD_HINT = (
    "Build y with hepa_sklearn.surface.make_survival_y(event, time) or make_survival_y(event, time, cause=cause)."
)


def check_times(time, name):
    """ValueError unless every time is finite and non-negative."""
    if not np.all(np.isfinite(time)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    if np.any(time < 0):
        raise ValueError(f"{name} must be non-negative, found minimum {time.min()}.")


def survival_fields(names):
    """``(event, time, cause or None, by_position)``: the fields by name when they are ``event``, ``time`` (and
    ``cause``), else by position."""
    if set(names) in _NAMED and len(set(names)) == len(names):
        return "event", "time", CAUSE_FIELD if CAUSE_FIELD in names else None, False
    if len(names) != 2:
        raise ValueError(
            f"y must have exactly two fields, the event indicator and the time (or three named 'event', 'time' "
            f"and 'cause', the type of each event), got {len(names)}: {list(names)}. {_BUILD_HINT}"
        )
    return names[0], names[1], None, True


def event_indicator(values, name, by_position):
    """The event field as bool: a bool field, or when named ``event`` also numbers that are exactly 0 and 1."""
    if values.dtype == bool:
        return values.astype(bool, copy=False)
    if by_position:
        raise TypeError(
            f"y's first field {name!r} must be the boolean event indicator, got dtype {values.dtype}. "
            "A survival y holds (event, time) in this order, as scikit-survival's Surv builds it; "
            "name the fields 'event' and 'time' to give them in another order, or build y with "
            "hepa_sklearn.surface.make_survival_y(event, time)."
        )
    return check_event_indicator(values, "y['event']")


def frame_records(y):
    """A DataFrame of two (or three named) columns as a structured array of its columns (pandas' nullable columns as
    numpy's)."""
    if y.shape[1] != 2 and set(map(str, y.columns)) not in _NAMED:
        raise ValueError(
            f"y must have exactly two columns, the event indicator and the time (or three named 'event', 'time' "
            f"and 'cause'), got {y.shape[1]}: {list(y.columns)}. {_BUILD_HINT}"
        )
    columns = []
    for label in y.columns:
        column = y[label]
        if pd.api.types.is_bool_dtype(column.dtype) and not column.isna().any():
            values = column.to_numpy(dtype=bool)
        elif pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
            values = column.to_numpy(dtype=float, na_value=np.nan)
        else:
            values = column.to_numpy()
        columns.append((str(label), values))
    records = np.empty(len(y), dtype=[(name, values.dtype) for name, values in columns])
    for name, values in columns:
        records[name] = values
    return records


def check_cause_codes(cause, event, name="cause"):
    """The causes as int64: whole numbers, 1, 2, ... for each event and 0 for each window without one.

    Raises TypeError for text or booleans, ValueError for other numbers, for
    an event without a cause (0) and for a cause without an event, each
    naming the first offending sample.
    """
    values = np.asarray(cause)
    if values.dtype == bool or values.dtype.kind not in "iuf" and values.dtype != object:
        raise TypeError(
            f"{name} must hold integer codes, 1, 2, ... for the type of each event and 0 where there is none; "
            f"got dtype {values.dtype} ({some_values(values)}). For type labels, number them first, e.g. with "
            "pandas.factorize(labels)[0] + 1, or let make_windows(..., event_types=[...]) do it."
        )
    numbers = real_numbers(values, name)
    whole = np.isfinite(numbers) & (numbers == np.round(numbers)) & (numbers >= 0)
    if not whole.all():
        raise ValueError(
            f"{name} must hold whole numbers >= 0 (0: no event, 1, 2, ...: the type of the event), found "
            f"{some_values(values[~whole])}."
        )
    codes = numbers.astype(np.int64)
    if codes.shape != event.shape:
        raise ValueError(f"{name} must hold one code per sample, got {codes.shape[0]} for {event.shape[0]} samples.")
    for wrong, what, fix in (
        (event & (codes == 0), "an event without a cause", "give each event its cause, 1, 2, ..."),
        (~event & (codes > 0), "a cause without an event", "set the cause of every censored sample to 0"),
    ):
        if wrong.any():
            first = int(np.argmax(wrong))
            raise ValueError(
                f"{name} holds {what} at {int(wrong.sum())} sample(s), the first at position {first} (event="
                f"{bool(event[first])}, cause={int(codes[first])}): {fix}."
            )
    return codes
