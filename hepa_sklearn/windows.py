"""Windowing of long-format series into (X, y, groups) and survival label surfaces."""

from numbers import Integral

import numpy as np
import pandas as pd

__all__ = ["make_windows", "label_surface", "make_survival_y", "check_survival_y"]

SURVIVAL_DTYPE = np.dtype([("event", bool), ("time", float)])


def make_survival_y(event, time):
    """Build the structured ``y`` of ``("event", bool), ("time", float)`` records.

    Parameters
    ----------
    event : array-like of bool, shape (n_samples,)
        True where the event was observed ``time`` steps after the window's end.
    time : array-like of float, shape (n_samples,)
        Steps to the event, or to the end of observation when ``event`` is False.

    Returns
    -------
    y : structured ndarray of shape (n_samples,)
    """
    event = np.asarray(event, dtype=bool).ravel()
    time = np.asarray(time, dtype=float).ravel()
    if event.shape != time.shape:
        raise ValueError(
            f"event and time must have the same length, got {event.shape[0]} and {time.shape[0]}."
        )
    y = np.empty(event.shape[0], dtype=SURVIVAL_DTYPE)
    y["event"] = event
    y["time"] = time
    return y


def check_survival_y(y, n_samples=None):
    """Validate a survival target and return it as ``(event, time)`` arrays.

    Accepts a structured array with fields ``event`` and ``time`` (the layout
    of scikit-survival's ``Surv``). Raises ``TypeError`` or ``ValueError``
    naming the problem otherwise.
    """
    if y is None:
        raise ValueError(
            "y is required: a structured array with fields ('event', bool) and ('time', float)."
        )
    y = np.asarray(y)
    names = y.dtype.names
    if names is None:
        raise TypeError(
            "y must be a structured array with fields ('event', bool) and ('time', float), "
            f"got an array of dtype {y.dtype}. Build one with hepa_sklearn.windows.make_survival_y."
        )
    missing = [field for field in ("event", "time") if field not in names]
    if missing:
        raise ValueError(f"y is missing the field(s) {missing}; it has {list(names)}.")
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {y.shape}.")
    event = np.asarray(y["event"]).astype(bool)
    try:
        time = np.asarray(y["time"], dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"y['time'] must be numeric, got dtype {y['time'].dtype}.") from exc
    if not np.all(np.isfinite(time)):
        raise ValueError("y['time'] contains NaN or infinite values.")
    if np.any(time < 0):
        raise ValueError(f"y['time'] must be non-negative, found minimum {time.min()}.")
    if n_samples is not None and time.shape[0] != n_samples:
        raise ValueError(
            f"y has {time.shape[0]} samples but X has {n_samples}; they must match."
        )
    return event, time


def label_surface(y, K):
    """Binary event surface and mask of known cells for horizons ``1..K``.

    Cell ``(i, k-1)`` answers "does the event happen within ``k`` steps of
    window ``i``'s end". It is positive when ``event`` and ``time <= k``,
    negative when ``time > k`` (or censored exactly at ``k``), and unknown
    when the window is censored before ``k`` (``not event and time < k``).

    Parameters
    ----------
    y : structured ndarray with fields ``event`` and ``time``
    K : int
        Number of unit-step horizons.

    Returns
    -------
    labels : ndarray of shape (n_samples, K), dtype float32
        1.0 for positive cells, 0.0 otherwise (including unknown cells).
    known : ndarray of shape (n_samples, K), dtype bool
        False for unknown (censored) cells, which losses and metrics ignore.
    """
    if not isinstance(K, Integral) or isinstance(K, bool) or K < 1:
        raise ValueError(f"K must be a positive integer, got {K!r}.")
    event, time = check_survival_y(y)
    horizons = np.arange(1, K + 1, dtype=float)[None, :]
    time = time[:, None]
    event = event[:, None]
    labels = (event & (time <= horizons)).astype(np.float32)
    known = event | (time >= horizons)
    return labels, known


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
    for name, value, low in (
        ("context_length", context_length, 1),
        ("stride", stride, 1),
        ("min_history", min_history, 1),
    ):
        if not isinstance(value, Integral) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}.")
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
