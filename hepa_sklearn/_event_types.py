"""Event types in the series that ``make_windows`` reads: one column of type labels, or one indicator column per type,
as cause codes 1, 2, ..."""

import numpy as np
import pandas as pd

from ._validation import check_event_indicator, some_values

__all__ = ["event_columns", "unit_events"]


def event_columns(event_col, event_types):
    """The event columns to read, as a list: ``[event_col]``, or each column of a list ``event_col`` (one per type).

    Raises ValueError for an empty list, repeated columns, ``event_types``
    beside a list of columns, and ``event_types`` that is not a list of
    distinct labels.
    """
    if isinstance(event_col, list):
        if not event_col:
            raise ValueError("event_col is an empty list; name one indicator column per event type.")
        if event_types is not None:
            raise ValueError(
                "event_types applies to a single event_col of type labels; with one column per type "
                f"(event_col={event_col!r}) the columns are the types, in order: leave event_types=None."
            )
        repeated = [c for c in dict.fromkeys(event_col) if event_col.count(c) > 1]
        if repeated:
            raise ValueError(f"event_col names {repeated} more than once; name each event type's column once.")
        return list(event_col)
    if event_types is not None:
        if isinstance(event_types, (str, bytes)) or not isinstance(event_types, (list, tuple)) or not event_types:
            raise TypeError(
                f"event_types must be a non-empty list of the type labels in event_col, got {event_types!r}; "
                "their order numbers the causes 1, 2, ..."
            )
        if len(set(event_types)) != len(event_types) or any(pd.isna(label) for label in event_types):
            raise ValueError(f"event_types must hold distinct labels, none missing, got {list(event_types)}.")
    return [event_col]


def _type_labels(values, event_types, name):
    """Cause codes of a column of type labels: the label's position in ``event_types`` + 1, 0 where missing."""
    values = np.asarray(values, dtype=object)
    missing = np.asarray(pd.isna(values), dtype=bool)
    codes = {label: code for code, label in enumerate(event_types, start=1)}
    cause = np.zeros(values.shape[0], dtype=np.int64)
    unknown = []
    for step in np.flatnonzero(~missing):
        code = codes.get(values[step])
        if code is None:
            unknown.append(step)
        else:
            cause[step] = code
    if unknown:
        raise ValueError(
            f"{name} holds the unknown event type label(s) {some_values(values[unknown])} (first at step "
            f"{unknown[0]}); event_types lists {list(event_types)}. Add the label to event_types, or mark the steps "
            "without an event by a missing value (None or NaN)."
        )
    return cause


def unit_events(part, event_cols, event_types, name):
    """A unit's event indicator (bool) and, with event types, the cause of each step (int64, 0: no event; else None).

    One column without ``event_types`` is an event indicator, as before
    types existed. With ``event_types`` it holds a type label at each event
    step and a missing value elsewhere. Several columns are indicators,
    one per type: an event of two types at one step is refused.
    """
    if len(event_cols) == 1 and event_types is None:
        return check_event_indicator(part[event_cols[0]], name), None
    if event_types is not None:
        cause = _type_labels(part[event_cols[0]], event_types, name)
        return cause > 0, cause
    flags = np.column_stack(
        [check_event_indicator(part[column], f"{name} (the type column {column!r})") for column in event_cols]
    )
    both = flags.sum(axis=1) > 1
    if both.any():
        step = int(np.argmax(both))
        raise ValueError(
            f"{name} marks events of several types at {int(both.sum())} step(s), the first at step {step} "
            f"(types {[event_cols[i] for i in np.flatnonzero(flags[step])]}); each step holds one event, of one "
            "type: keep the type that came first."
        )
    return flags.any(axis=1), np.where(flags.any(axis=1), flags.argmax(axis=1) + 1, 0).astype(np.int64)
