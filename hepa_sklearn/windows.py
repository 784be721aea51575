"""Windowing of series into windows ``X``, survival labels ``y``, unit ids ``groups`` and the index mapping windows back to (unit, time)."""

import numpy as np
import pandas as pd

from ._validation import POSITIVE_INT, StrOptions, validate_params
from .surface import check_surface, make_survival_y

__all__ = ["LAYOUTS", "make_windows", "surface_frame"]


LAYOUTS = ("long", "pd-multiindex", "np-list", "time-first-list")

# what each layout reads, for the messages that point from one layout to another
_LAYOUT_HELP = {
    "long": "a DataFrame with one row per (unit, step)",
    "pd-multiindex": "a DataFrame indexed by (instance, time) as in sktime and aeon",
    "np-list": "a list of (n_channels, n_timepoints) arrays as in aeon",
    "time-first-list": "a list of (n_timepoints, n_columns) arrays",
}


def _layout_hint(*layouts):
    return "; ".join(f"pass layout={name!r} for {_LAYOUT_HELP[name]}" for name in layouts)


def _check_columns(frame, columns, what, noun="column"):
    absent = [c for c in columns if c is not None and c not in frame.columns]
    if absent:
        raise ValueError(f"{what} has no {noun}(s) {absent}.")


def _long_units(frame, *, columns, unit_col, time_col):
    """``(unit, part, time, row)`` per unit of a long DataFrame."""
    if isinstance(frame.index, pd.MultiIndex):
        raise ValueError(
            f"frame has a {frame.index.nlevels}-level MultiIndex, which layout='long' does not read: "
            f"{_layout_hint('pd-multiindex')}; for a long frame, move the levels to columns with "
            "frame.reset_index()."
        )
    _check_columns(frame, columns + [unit_col, time_col], "frame")
    if unit_col is None:
        units = [(0, frame)]
    else:
        if frame[unit_col].isna().any():
            raise ValueError(f"unit column {unit_col!r} has missing values.")
        units = list(frame.groupby(unit_col, sort=False))
    for uid, part in units:
        if time_col is not None:
            part = part.sort_values(time_col, kind="stable")
        time = part[time_col].to_numpy() if time_col is not None else None
        yield uid, part, time, part.index.to_numpy()


def _multiindex_units(frame, *, columns):
    """``(unit, part, time, None)`` per instance of a DataFrame indexed by (instance, time)."""
    index = frame.index
    if not isinstance(index, pd.MultiIndex) or index.nlevels != 2:
        found = f"a {index.nlevels}-level MultiIndex" if isinstance(index, pd.MultiIndex) else f"a {type(index).__name__}"
        raise ValueError(
            "layout='pd-multiindex' reads a DataFrame indexed by a 2-level MultiIndex (instance, time), "
            f"one column per variable; frame has {found}. For {_LAYOUT_HELP['long']}, with unit and "
            "time columns, pass layout='long' with unit_col and time_col."
        )
    _check_columns(frame, columns, "frame")
    if index.get_level_values(0).isna().any():
        raise ValueError("the instance level (level 0) of frame's index has missing values.")
    for uid, part in frame.groupby(level=0, sort=False):
        time = part.index.get_level_values(1).to_numpy()
        order = np.argsort(time, kind="stable")
        yield uid, part.iloc[order], time[order], None


def _list_units(frame, *, columns, layout):
    """``(unit, part, None, None)`` per array of a list: columns of ``part`` are variables."""
    for uid, array in enumerate(frame):
        array = np.asarray(array)
        if array.ndim != 2:
            shape = "(n_channels, n_timepoints)" if layout == "np-list" else "(n_timepoints, n_columns)"
            raise ValueError(
                f"with layout={layout!r} each array in the list must be 2-D {shape}; item {uid} has "
                f"shape {array.shape}."
            )
        part = pd.DataFrame(array.T if layout == "np-list" else array)
        noun = "channel" if layout == "np-list" else "column"
        _check_columns(part, columns, f"array {uid} (shape {array.shape})", noun)
        yield uid, part, None, None


def _series_units(frame, *, layout, columns, unit_col, time_col):
    """Read ``frame`` in ``layout`` as ``(unit, part, time, row)`` per unit, in order of first appearance.

    ``part`` is a DataFrame of the unit's steps in time order whose columns
    include ``columns``; ``time`` holds each step's time value (None: the
    step position) and ``row`` the frame's index labels (None: no labels).
    Input that does not match ``layout`` is refused, never reinterpreted.
    """
    if layout in ("long", "pd-multiindex"):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"layout={layout!r} reads {_LAYOUT_HELP[layout]}, got {type(frame).__name__}"
                + ("; " + _layout_hint("np-list", "time-first-list") if isinstance(frame, (list, tuple)) else "")
                + "."
            )
        if layout == "long":
            return list(_long_units(frame, columns=columns, unit_col=unit_col, time_col=time_col))
        if unit_col is not None or time_col is not None:
            raise ValueError(
                "unit_col and time_col must be None with layout='pd-multiindex': the index levels "
                "(instance, time) give the unit and the time."
            )
        return list(_multiindex_units(frame, columns=columns))
    if not isinstance(frame, (list, tuple)):
        hint = "; " + _layout_hint("long", "pd-multiindex") if isinstance(frame, pd.DataFrame) else ""
        raise TypeError(f"layout={layout!r} reads {_LAYOUT_HELP[layout]}, got {type(frame).__name__}{hint}.")
    if unit_col is not None or time_col is not None:
        raise ValueError(
            f"unit_col and time_col apply to a DataFrame; with layout={layout!r} each array is one "
            "unit, already in time order."
        )
    return list(_list_units(frame, columns=columns, layout=layout))


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
    {
        "context_length": [POSITIVE_INT],
        "stride": [POSITIVE_INT],
        "min_history": [POSITIVE_INT],
        "layout": [StrOptions(set(LAYOUTS))],
        "return_index": ["boolean"],
    },
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
    layout="long",
    return_index=False,
):
    """Cut series into fixed-length windows with survival labels.

    A window ending at step ``t`` holds the last ``context_length`` steps up
    to and including ``t``, left-padded with NaN when the unit's history is
    shorter. Its label is the number of steps to the next event strictly
    after ``t`` (``event=True``), or, when no later event is observed, the
    number of steps to the unit's last step (``event=False``, right-censored).

    Parameters
    ----------
    frame : DataFrame or list of 2-D arrays
        The series, in the layout named by ``layout``.
    feature_cols : list of column labels (or positions)
        Variables to put in ``X`` as channels, in this order: column labels
        of a DataFrame, positions of a variable in an array. NaN values are
        kept (missing).
    event_col : column label (or position)
        The variable that is truthy at steps where an event occurs.
    unit_col : column label, default=None
        Unit identifier (``layout="long"`` only); windows never cross
        units. None means a single unit.
    time_col : column label, default=None
        Sort key within each unit (``layout="long"`` only). None keeps the
        row order.
    context_length : int
        Number of steps per window.
    stride : int, default=1
        Step between consecutive window ends, counted back from each unit's
        last step, so the last step of every unit always ends a window.
    min_history : int, default=1
        Minimum number of steps of history (including ``t``) for a window.
    layout : {"long", "pd-multiindex", "np-list", "time-first-list"}, default="long"
        How ``frame`` holds the series:

        - ``"long"``: a DataFrame with one row per (unit, step) and one
          column per variable; ``unit_col`` and ``time_col`` name the unit
          and sort key columns.
        - ``"pd-multiindex"``: a DataFrame indexed by a 2-level MultiIndex
          (instance, time), one column per variable: the ``pd-multiindex``
          layout of sktime and aeon. Each instance is a unit; rows are
          sorted by time within it.
        - ``"np-list"``: a list of arrays of shape (n_channels, n_timepoints),
          one per unit, as aeon's ``np-list``; ``feature_cols`` and
          ``event_col`` are channel positions.
        - ``"time-first-list"``: a list of arrays of shape (n_timepoints,
          n_columns), one per unit in time order; ``feature_cols`` and
          ``event_col`` are column positions.

        Input that does not match the layout raises an error naming the
        layout that reads it; nothing is transposed or reinterpreted.
    return_index : bool, default=False
        Also return ``index``, which maps each window back to its unit and
        end time.

    Returns
    -------
    X : ndarray of shape (n_windows, n_channels, context_length), float32
    y : structured ndarray of shape (n_windows,), fields ``event``, ``time``
    groups : ndarray of shape (n_windows,)
        Unit identifier of each window, for ``GroupKFold``.
    index : DataFrame of n_windows rows
        Only with ``return_index=True``. Row ``i`` describes the last step
        of window ``i``: ``unit`` (as in ``groups``), ``step`` (its position
        in the unit, 0 for the first step), ``time`` (its ``time_col`` value,
        or the time level of a ``"pd-multiindex"`` frame; the step position
        when there is neither) and, for ``layout="long"``, ``row`` (the
        label of its row in ``frame.index``). :func:`surface_frame` uses it
        to key a predicted surface by (unit, time).

    See Also
    --------
    surface_frame : A surface as a DataFrame keyed by (unit, time).

    Examples
    --------
    Two units of aeon's ``np-list`` layout, each two channels by six steps,
    the second channel marking events:

    >>> import numpy as np
    >>> from hepa_sklearn import make_windows
    >>> series = [np.array([[0., 1, 2, 3, 4, 5], [0, 0, 0, 1, 0, 0]]),
    ...           np.array([[9., 8, 7, 6, 5, 4], [0, 0, 0, 0, 0, 1]])]
    >>> X, y, groups, index = make_windows(
    ...     series, feature_cols=[0], event_col=1, context_length=4, stride=3,
    ...     layout="np-list", return_index=True)
    >>> X.shape
    (4, 1, 4)
    >>> y["time"].tolist(), y["event"].tolist()
    ([1.0, 0.0, 3.0, 0.0], [True, False, True, False])
    >>> index
       unit  step  time
    0     0     2     2
    1     0     5     5
    2     1     2     2
    3     1     5     5
    """
    feature_cols = list(feature_cols)
    if not feature_cols:
        raise ValueError("feature_cols must name at least one column.")
    units = _series_units(
        frame, layout=layout, columns=feature_cols + [event_col], unit_col=unit_col, time_col=time_col
    )
    n_channels = len(feature_cols)
    X_parts, event_parts, time_parts, group_parts, index_parts = [], [], [], [], []
    for uid, part, step_time, row in units:
        values = part[feature_cols].to_numpy(dtype=np.float32)
        raw_events = part[event_col].to_numpy()
        if pd.isna(raw_events).any():
            raise ValueError(f"event column {event_col!r} has missing values in unit {uid!r}.")
        events = raw_events.astype(bool)
        n_steps = values.shape[0]
        if n_steps < min_history:
            continue
        ends = np.arange(n_steps - 1, min_history - 2, -stride)[::-1]
        X_parts.append((values, ends))
        distance = _next_event_distance(events)[ends]
        observed = np.isfinite(distance)
        event_parts.append(observed)
        time_parts.append(np.where(observed, distance, (n_steps - 1) - ends))
        group_parts.append(np.full(ends.shape[0], uid))
        if return_index:
            columns = {"step": ends, "time": ends if step_time is None else step_time[ends]}
            if row is not None:
                columns["row"] = row[ends]
            index_parts.append(pd.DataFrame(columns))
    if not X_parts:
        raise ValueError(
            f"no unit has at least min_history={min_history} steps; no window could be made."
        )
    # one C-contiguous array filled unit by unit: no second copy of all windows at any time
    X = np.empty((sum(len(ends) for _, ends in X_parts), n_channels, context_length), dtype=np.float32)
    start = 0
    for values, ends in X_parts:
        padded = np.full((values.shape[0] + context_length - 1, n_channels), np.nan, dtype=np.float32)
        padded[context_length - 1 :] = values
        # window ending at step t covers padded[t : t + context_length]
        index = ends[:, None] + np.arange(context_length)[None, :]
        X[start : start + len(ends)] = padded[index].transpose(0, 2, 1)
        start += len(ends)
    y = make_survival_y(np.concatenate(event_parts), np.concatenate(time_parts))
    groups = np.concatenate(group_parts)
    if not return_index:
        return X, y, groups
    index = pd.concat(index_parts, ignore_index=True)
    index.insert(0, "unit", groups)
    return X, y, groups, index


@validate_params(
    {"form": [StrOptions({"wide", "long"})]},
    prefer_skip_nested_validation=True,
)
def surface_frame(P, index, *, form="wide"):
    """A surface as a DataFrame keyed by (unit, time), to read predictions next to the series.

    Parameters
    ----------
    P : array-like of shape (n_windows, K)
        A surface, ``P[i, k-1]`` for window ``i`` and horizon ``k``, as
        returned by ``predict_proba``.
    index : DataFrame or MultiIndex of n_windows rows
        The ``index`` returned by :func:`make_windows` with
        ``return_index=True`` (its ``unit`` and ``time`` columns are used),
        or any 2-level MultiIndex (unit, time) of the windows.
    form : {"wide", "long"}, default="wide"
        ``"wide"``: one row per window, indexed by (unit, time), one column
        per horizon 1..K (the columns' name is ``horizon``). ``"long"``: one
        row per (window, horizon), indexed by (unit, time, horizon), with
        the single column ``probability``; ``.reset_index()`` gives a tidy
        table for plotting.

    Returns
    -------
    frame : DataFrame

    See Also
    --------
    make_windows : Windows, labels and their ``index``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from hepa_sklearn import surface_frame
    >>> index = pd.DataFrame({"unit": ["a", "a", "b"], "time": [3, 4, 7]})
    >>> P = np.array([[0.1, 0.3], [0.2, 0.5], [0.0, 0.1]])
    >>> surface_frame(P, index)  # doctest: +NORMALIZE_WHITESPACE
    horizon       1    2
    unit time
    a    3     0.1  0.3
         4     0.2  0.5
    b    7     0.0  0.1
    >>> surface_frame(P, index, form="long").loc[("a", 4)]  # doctest: +NORMALIZE_WHITESPACE
             probability
    horizon
    1                0.2
    2                0.5
    """
    if isinstance(index, pd.DataFrame):
        _check_columns(index, ["unit", "time"], "index")
        keys = pd.MultiIndex.from_frame(index[["unit", "time"]])
    elif isinstance(index, pd.MultiIndex) and index.nlevels == 2:
        keys = index.set_names(["unit", "time"])
    else:
        raise TypeError(
            "index must be the DataFrame make_windows returns with return_index=True, or a 2-level "
            f"MultiIndex (unit, time); got {type(index).__name__}."
        )
    P = check_surface(P)
    if P.shape[0] != keys.shape[0]:
        raise ValueError(f"P has {P.shape[0]} rows but index has {keys.shape[0]}; they must match.")
    horizons = pd.RangeIndex(1, P.shape[1] + 1, name="horizon")
    wide = pd.DataFrame(P, index=keys, columns=horizons)
    if form == "wide":
        return wide
    return wide.stack().to_frame("probability")
