"""Windowing of series into windows ``X``, survival labels ``y``, unit ids ``groups`` and the index mapping windows back
to (unit, time)."""

import numpy as np
import pandas as pd

from ._event_types import event_columns, unit_events
from ._series import LAYOUTS, check_columns, checked_columns, series_units
from ._validation import POSITIVE_INT, StrOptions, row_chunks, validate_params
from .surface import check_surface, make_survival_y

__all__ = ["LAYOUTS", "make_windows", "surface_frame", "window_age"]


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
    event_types=None,
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
    With several event types, ``y`` also holds the ``cause`` of that next
    event (1, 2, ...; 0 when censored), for competing risks.

    Parameters
    ----------
    frame : DataFrame or list of 2-D arrays
        The series, in the layout named by ``layout``.
    feature_cols : list of column labels (or positions)
        Variables to put in ``X`` as channels, in this order: column labels
        of a DataFrame, positions of a variable in an array. They must hold
        numbers or booleans; NaN (or pandas' ``NA``) values are kept
        (missing), infinite values and text are refused.
    event_col : column label (or position)
        The event indicator: True or 1 at steps where an event occurs,
        False or 0 elsewhere (booleans, or integers or floats that are
        exactly 0 and 1). Strings, other objects, other numbers and missing
        values are refused, never read by truthiness: for a column of
        ``"yes"``/``"no"`` pass ``frame[col] == "yes"`` as the column.
        With ``event_types``, the column holds instead the type label of
        the event at each event step and a missing value (None, NaN)
        elsewhere. A list of columns holds one such indicator per event
        type, the causes numbered in its order; an event of two types at
        one step is refused.
    event_types : list, default=None
        The type labels of a single ``event_col``, in the order of their
        cause codes 1, 2, ...: ``y`` then has the field ``cause``. A label
        not in the list raises ValueError naming it. In the array layouts
        the labels are numbers. None: ``event_col`` is an indicator (or a
        list of them).
    unit_col : column label, default=None
        Unit identifier (``layout="long"`` only); windows never cross
        units. None means a single unit. Labels must not be missing or of
        mixed types (``1`` and ``"1"``).
    time_col : column label, default=None
        Sort key within each unit (``layout="long"`` only): numbers or
        datetimes, none missing; rows given in any order are sorted by it.
        A (unit, time) pair that labels two rows is refused (the series
        would hold that step twice), as is text, which sorts as text
        (``"10"`` before ``"9"``). None keeps the row order.
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
          sorted by time within it, and the time level is checked as
          ``time_col`` is.
        - ``"np-list"``: a list of arrays of shape (n_channels, n_timepoints),
          one per unit, as aeon's ``np-list``; ``feature_cols`` and
          ``event_col`` are channel positions.
        - ``"time-first-list"``: a list of arrays of shape (n_timepoints,
          n_columns), one per unit in time order; ``feature_cols`` and
          ``event_col`` are column positions.

        Input that does not match the layout raises an error naming the
        layout that reads it; nothing is transposed or reinterpreted.
        Arrays of a list may hold as few as zero steps (a unit shorter than
        ``min_history`` gives no window).
    return_index : bool, default=False
        Also return ``index``, which maps each window back to its unit and
        end time.

    Returns
    -------
    X : ndarray of shape (n_windows, n_channels, context_length), float32
    y : structured ndarray of shape (n_windows,), fields ``event``, ``time``
        and, with event types, ``cause``
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
    >>> from hepa_sklearn.windows import make_windows
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

    Events of two types, the type's label at each event step:

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"x": [0.5, 0.7, 0.2, 0.9], "failure": [None, "seal", None, "bearing"]})
    >>> _, y, _ = make_windows(frame, feature_cols=["x"], event_col="failure",
    ...                        event_types=["bearing", "seal"], context_length=2)
    >>> y.tolist()
    [(True, 1.0, 2), (True, 2.0, 1), (True, 1.0, 1), (False, 0.0, 0)]
    """
    event_cols = event_columns(event_col, event_types)
    feature_cols = checked_columns(feature_cols, event_cols[0])
    # the other type columns are checked as the features are (present, numbers or booleans), and read below
    units = series_units(
        frame,
        layout=layout,
        feature_cols=feature_cols + event_cols[1:],
        event_col=event_cols[0],
        unit_col=unit_col,
        time_col=time_col,
    )
    n_channels = len(feature_cols)
    X_parts, event_parts, time_parts, group_parts, index_parts, cause_parts = [], [], [], [], [], []
    for uid, part, step_time, row, event_name in units:
        values = part[feature_cols].to_numpy(dtype=np.float32, na_value=np.nan)
        events, causes = unit_events(part, event_cols, event_types, event_name)
        n_steps = values.shape[0]
        if n_steps < min_history:
            continue
        ends = np.arange(n_steps - 1, min_history - 2, -stride)[::-1]
        X_parts.append((values, ends))
        distance = _next_event_distance(events)[ends]
        observed = np.isfinite(distance)
        if causes is not None:  # the cause of the next event, at its step
            cause_parts.append(np.where(observed, causes[np.where(observed, ends + distance, 0).astype(int)], 0))
        event_parts.append(observed)
        time_parts.append(np.where(observed, distance, (n_steps - 1) - ends))
        group_parts.append(np.full(ends.shape[0], uid))
        if return_index:
            columns = {"step": ends, "time": ends if step_time is None else step_time[ends]}
            if row is not None:
                columns["row"] = row[ends]
            index_parts.append(pd.DataFrame(columns))
    if not units:
        raise ValueError("frame holds no series: it has no rows (or, as a list, no arrays).")
    if not X_parts:
        raise ValueError(f"no unit has at least min_history={min_history} steps; no window could be made.")
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
    y = make_survival_y(
        np.concatenate(event_parts),
        np.concatenate(time_parts),
        cause=np.concatenate(cause_parts) if cause_parts else None,
    )
    groups = np.concatenate(group_parts)
    if not return_index:
        return X, y, groups
    index = pd.concat(index_parts, ignore_index=True)
    index.insert(0, "unit", groups)
    return X, y, groups, index


@validate_params({"form": [StrOptions({"wide", "long"})]}, prefer_skip_nested_validation=True)
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
    >>> from hepa_sklearn.windows import surface_frame
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
        check_columns(index, ["unit", "time"], "index")
        keys = pd.MultiIndex.from_frame(index[["unit", "time"]])
    elif isinstance(index, pd.MultiIndex) and index.nlevels == 2:
        keys = index.set_names(["unit", "time"])
    else:
        raise TypeError(
            "index must be the DataFrame make_windows returns with return_index=True, or a 2-level "
            f"MultiIndex (unit, time); got {type(index).__name__}."
        )
    repeated = keys.duplicated()
    if repeated.any():
        raise ValueError(
            f"index holds {int(repeated.sum())} repeated (unit, time) key(s), the first "
            f"{tuple(v.item() if isinstance(v, np.generic) else v for v in keys[np.argmax(repeated)])}, "
            "so a row of the surface could not be told from another by its key. Pass the index of one "
            "make_windows call, whose keys are unique."
        )
    P = check_surface(P)
    if P.shape[0] != keys.shape[0]:
        raise ValueError(f"P has {P.shape[0]} rows but index has {keys.shape[0]}; they must match.")
    horizons = pd.RangeIndex(1, P.shape[1] + 1, name="horizon")
    wide = pd.DataFrame(P, index=keys, columns=horizons)
    if form == "wide":
        return wide
    return wide.stack().to_frame("probability")


def window_age(X):
    """Steps from each window's first observed value to its end, shape (n_windows,): the unit's visible age.

    A window whose unit started inside it is left-padded with NaN, so the
    padding gives the age exactly; a window filled from its first step
    gives its length, a lower bound of the age; a window with no observed
    value gives 0.
    """
    ages = []
    for part in row_chunks(X):
        observed = ~np.isnan(part).all(axis=1)  # (n, L): any channel observed at the step
        first = observed.argmax(axis=1)
        ages.append(np.where(observed.any(axis=1), part.shape[2] - first, 0))
    return np.concatenate(ages).astype(np.float64) if ages else np.zeros(0)
