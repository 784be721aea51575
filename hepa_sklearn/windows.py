"""Windowing of long-format series into windows ``X``, survival labels ``y`` and unit ids ``groups``."""

import numpy as np
import pandas as pd

from ._validation import POSITIVE_INT, validate_params
# the survival labels live with the surface; these names stay importable from here
from .surface import check_survival_y, label_surface, make_survival_y

__all__ = ["make_windows", "label_surface", "make_survival_y", "check_survival_y"]


def _check_columns(frame, columns, what):
    absent = [c for c in columns if c is not None and c not in frame.columns]
    if absent:
        raise ValueError(f"{what} has no column(s) {absent}.")


def _as_unit_frames(frame, *, feature_cols, event_col, unit_col, time_col):
    """Split the input into one DataFrame per unit, ordered in time."""
    if isinstance(frame, pd.DataFrame):
        _check_columns(frame, list(feature_cols) + [event_col, unit_col, time_col], "frame")
        if unit_col is None:
            units = [(0, frame)]
        else:
            if frame[unit_col].isna().any():
                raise ValueError(f"unit column {unit_col!r} has missing values.")
            units = list(frame.groupby(unit_col, sort=False))
        if time_col is not None:
            units = [(uid, part.sort_values(time_col, kind="stable")) for uid, part in units]
        return units
    if isinstance(frame, (list, tuple)):
        if unit_col is not None or time_col is not None:
            raise ValueError(
                "unit_col and time_col apply to a DataFrame; with a list of arrays each "
                "array is one unit, already in time order."
            )
        units = []
        for uid, array in enumerate(frame):
            array = np.asarray(array)
            if array.ndim != 2:
                raise ValueError(
                    f"each array in the list must be 2-D (T_i, n_columns); item {uid} has "
                    f"shape {array.shape}."
                )
            part = pd.DataFrame(array)
            _check_columns(part, list(feature_cols) + [event_col], f"array {uid}")
            units.append((uid, part))
        return units
    raise TypeError(
        "frame must be a pandas DataFrame in long format or a list of 2-D arrays, "
        f"got {type(frame).__name__}."
    )


def _next_event_distance(events):
    """For each step, steps to the next event strictly after it (inf if none)."""
    n = events.shape[0]
    distance = np.full(n, np.inf)
    next_index = np.inf
    for step in range(n - 1, -1, -1):
        distance[step] = next_index - step
        if events[step]:
            next_index = step
    return distance


@validate_params(
    {"context_length": [POSITIVE_INT], "stride": [POSITIVE_INT], "min_history": [POSITIVE_INT]},
    prefer_skip_nested_validation=True,
)
def make_windows(
    frame,
    *,
    feature_cols,
    event_col,
    unit_col=None,
    time_col=None,
    context_length,
    stride=1,
    min_history=1,
):
    """Cut long-format series into fixed-length windows with survival labels.

    A window ending at step ``t`` holds the last ``context_length`` steps up
    to and including ``t``, left-padded with NaN when the unit's history is
    shorter. Its label is the number of steps to the next event strictly
    after ``t`` (``event=True``), or, when no later event is observed, the
    number of steps to the unit's last step (``event=False``, right-censored).

    Parameters
    ----------
    frame : DataFrame or list of 2-D arrays
        Long-format data, one row per (unit, step), or one ``(T_i, n_columns)``
        array per unit. With arrays, ``feature_cols`` and ``event_col`` are
        column positions.
    feature_cols : list of column labels (or positions)
        Channels to put in ``X``, in this order. NaN values are kept (missing).
    event_col : column label (or position)
        Truthy at steps where an event occurs.
    unit_col : column label, default=None
        Unit identifier; windows never cross units. None means a single unit.
    time_col : column label, default=None
        Sort key within each unit. None keeps the row order.
    context_length : int
        Number of steps per window.
    stride : int, default=1
        Step between consecutive window ends, counted back from each unit's
        last step, so the last step of every unit always ends a window.
    min_history : int, default=1
        Minimum number of steps of history (including ``t``) for a window.

    Returns
    -------
    X : ndarray of shape (n_windows, n_channels, context_length), float32
    y : structured ndarray of shape (n_windows,), fields ``event``, ``time``
    groups : ndarray of shape (n_windows,)
        Unit identifier of each window, for ``GroupKFold``.
    """
    feature_cols = list(feature_cols)
    if not feature_cols:
        raise ValueError("feature_cols must name at least one column.")
    units = _as_unit_frames(
        frame, feature_cols=feature_cols, event_col=event_col, unit_col=unit_col, time_col=time_col
    )
    n_channels = len(feature_cols)
    X_parts, event_parts, time_parts, group_parts = [], [], [], []
    for uid, part in units:
        values = part[feature_cols].to_numpy(dtype=np.float32)
        raw_events = part[event_col].to_numpy()
        if pd.isna(raw_events).any():
            raise ValueError(f"event column {event_col!r} has missing values in unit {uid!r}.")
        events = raw_events.astype(bool)
        n_steps = values.shape[0]
        if n_steps < min_history:
            continue
        ends = np.arange(n_steps - 1, min_history - 2, -stride)[::-1]
        padded = np.full((n_steps + context_length - 1, n_channels), np.nan, dtype=np.float32)
        padded[context_length - 1 :] = values
        # window ending at step t covers padded[t : t + context_length]
        index = ends[:, None] + np.arange(context_length)[None, :]
        X_parts.append(padded[index].transpose(0, 2, 1))
        distance = _next_event_distance(events)[ends]
        observed = np.isfinite(distance)
        event_parts.append(observed)
        time_parts.append(np.where(observed, distance, (n_steps - 1) - ends))
        group_parts.append(np.full(ends.shape[0], uid))
    if not X_parts:
        raise ValueError(
            f"no unit has at least min_history={min_history} steps; no window could be made."
        )
    X = np.concatenate(X_parts).astype(np.float32, copy=False)
    y = make_survival_y(np.concatenate(event_parts), np.concatenate(time_parts))
    groups = np.concatenate(group_parts)
    return X, y, groups
