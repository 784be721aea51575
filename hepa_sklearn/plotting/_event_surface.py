"""Heatmap of one unit's event probability surface over time and horizon."""

import numpy as np

from ..surface import check_survival_y
from ._common import axes_and_figure, check_labelled_surface, predict_surface


def _unit_rows(groups, unit, n_samples):
    """Boolean mask of ``unit``'s rows, or None to keep every row."""
    if groups is None:
        if unit is not None:
            raise ValueError(f"unit={unit!r} is given but groups is not; pass the unit of each row as groups.")
        return None
    groups = np.asarray(groups).ravel()
    if groups.shape[0] != n_samples:
        raise ValueError(f"groups has {groups.shape[0]} entries but there are {n_samples} rows; they must match.")
    units = np.unique(groups)
    if unit is None:
        if units.size > 1:
            raise ValueError(f"groups holds {units.size} units; pick the one to draw with unit=...")
        return None
    if unit not in units.tolist():
        shown = ", ".join(repr(u) for u in units[:10].tolist())
        more = ", ..." if units.size > 10 else ""
        raise ValueError(f"unknown unit {unit!r}: groups holds {shown}{more}.")
    return groups == unit


def _rows_of(values, what, rows, n_samples):
    """``values`` cut to the mask ``rows`` (None keeps all), once checked to have a row per window."""
    if values is None:
        return None
    values = np.asarray(values)
    if values.ndim == 0 or values.shape[0] != n_samples:
        raise ValueError(
            f"{what} has shape {values.shape} but y has {n_samples} windows; {what} needs one row per window."
        )
    return values if rows is None else values[rows]


def _title(name, unit):
    return f"unit {unit}" if name is None and unit is not None else name


def _check_times(times, n_samples):
    """``times`` as floats after checking: one finite entry per window, strictly increasing."""
    times = np.asarray(times, dtype=float)
    if times.shape != (n_samples,):
        raise ValueError(f"times must be 1-D with one entry per window ({n_samples}), got shape {times.shape}.")
    if not np.all(np.isfinite(times)):
        raise ValueError("times contains NaN or infinite values.")
    if np.any(np.diff(times) <= 0):
        raise ValueError("times must be strictly increasing: the display draws one unit's windows in time order.")
    return times


def _cell_edges(centres):
    """Edges of heatmap cells centred on ``centres``: midpoints, and half a gap beyond each end."""
    if centres.size == 1:
        return np.array([centres[0] - 0.5, centres[0] + 0.5])
    middle = (centres[1:] + centres[:-1]) / 2
    return np.concatenate([[2 * centres[0] - middle[0]], middle, [2 * centres[-1] - middle[-1]]])


class EventSurfaceDisplay:
    """Heatmap of one unit's event probability surface, time against horizon, events marked.

    Cell ``(t, Δt)`` is ``proba[t, Δt-1]``, the probability that the event
    happens within ``Δt`` steps of window ``t``'s end. Three marks read the
    surface against the truth: for each window whose event falls within the
    ``K`` horizons, a point at its time to event (cells from there up are
    positive); for each window censored within the horizons (``1 <=
    time < K``), a point where its observation ends (cells above are
    unknown); and, with ``times``, a vertical line at each event's time.

    Build it with :meth:`from_estimator` or :meth:`from_predictions`; the
    constructor only stores its arguments.

    Parameters
    ----------
    proba : array-like of shape (n_windows, K)
        One unit's surface, rows in time order, values in [0, 1].
    y : structured ndarray of shape (n_windows,)
        Fields ``event`` and ``time`` of the same windows.
    times : array-like of shape (n_windows,), default=None
        Strictly increasing time of each window's end, in the steps of
        ``y["time"]``. None places window ``i`` at ``i`` and draws no event
        line (a window index is not a time).
    name : str, default=None
        Title of the axes; None leaves it empty.

    Attributes
    ----------
    mesh_ : matplotlib QuadMesh
        The heatmap; ``mesh_.get_array()`` is ``proba.T`` (horizons on rows).
    event_markers_ : matplotlib Line2D or None
        Points ``(time of window, y["time"])`` of the windows with an event
        within ``K`` steps; None when there is none.
    censor_markers_ : matplotlib Line2D or None
        Points ``(time of window, y["time"])`` of the windows censored
        within the horizons, ``1 <= y["time"] < K``; None when there is none.
    event_lines_ : matplotlib LineCollection or None
        Vertical lines at the event times ``times + y["time"]`` of the
        windows with an event; None without ``times`` or events.
    colorbar_ : matplotlib Colorbar or None
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    See Also
    --------
    HorizonAUROCDisplay : Ranking quality of the surface at each horizon.
    hepa_sklearn.surface.label_surface : The positive, negative and unknown cells.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from hepa_sklearn.plotting import EventSurfaceDisplay
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, True], [6, 4, 2])
    >>> proba = np.array([[0.0, 0.1, 0.2, 0.3], [0.1, 0.3, 0.5, 0.7], [0.4, 0.8, 0.9, 1.0]])
    >>> display = EventSurfaceDisplay.from_predictions(y, proba, times=[10, 12, 14])
    >>> display.event_markers_.get_xydata().tolist()
    [[12.0, 4.0], [14.0, 2.0]]
    >>> display.event_lines_.get_segments()[0][:, 0].tolist()
    [16.0, 16.0]
    """

    def __init__(self, *, proba, y, times=None, name=None):
        self.proba = proba
        self.y = y
        self.times = times
        self.name = name

    def plot(self, ax=None, *, cmap="viridis", colorbar=True):
        """Draw the heatmap and the event marks.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.
        cmap : str or matplotlib Colormap, default="viridis"
            Colour map of the probabilities, fixed to the range [0, 1].
        colorbar : bool, default=True
            Add a colour bar beside the axes.

        Returns
        -------
        display : EventSurfaceDisplay
        """
        event, time, proba = check_labelled_surface(self.y, self.proba)
        n_windows, K = proba.shape
        if self.times is None:
            x = np.arange(n_windows, dtype=float)
        else:
            x = _check_times(self.times, n_windows)
        ax, figure = axes_and_figure(ax)

        # horizons on the vertical axis, so each column of cells is one window's surface
        self.mesh_ = ax.pcolormesh(_cell_edges(x), np.arange(K + 1) + 0.5, proba.T, cmap=cmap, vmin=0.0, vmax=1.0)
        hit = event & (time <= K)
        self.event_markers_ = None
        if hit.any():
            (self.event_markers_,) = ax.plot(
                x[hit],
                time[hit],
                linestyle="none",
                marker="o",
                markersize=4,
                markerfacecolor="white",
                markeredgecolor="black",
                label="time to event",
            )
        # a window censored at 0 (its observation ends with it) has no known cell and no point to draw
        cut = ~event & (time >= 1) & (time < K)
        self.censor_markers_ = None
        if cut.any():
            (self.censor_markers_,) = ax.plot(
                x[cut],
                time[cut],
                linestyle="none",
                marker="v",
                markersize=4,
                markerfacecolor="lightgrey",
                markeredgecolor="black",
                label="end of observation",
            )
        self.event_lines_ = None
        if self.times is not None and event.any():
            self.event_lines_ = ax.vlines(
                np.unique(x[event] + time[event]), 0.5, K + 0.5, colors="tab:red", linestyles="dashed", label="event"
            )
        self.colorbar_ = None
        if colorbar:
            self.colorbar_ = figure.colorbar(self.mesh_, ax=ax, label="P(event within Δt)")
        ax.set_xlabel("window" if self.times is None else "time of window end")
        ax.set_ylabel("horizon Δt (steps)")
        ax.set_ylim(0.5, K + 0.5)
        if self.name is not None:
            ax.set_title(self.name)
        marks = (self.event_markers_, self.censor_markers_, self.event_lines_)
        if any(mark is not None for mark in marks):
            ax.legend(loc="upper left", fontsize="small", framealpha=0.8)
        self.ax_, self.figure_ = ax, figure
        return self

    @classmethod
    def from_predictions(
        cls, y, proba, *, groups=None, unit=None, times=None, name=None, ax=None, cmap="viridis", colorbar=True
    ):
        """Draw the surface of one unit from predicted probabilities.

        Parameters
        ----------
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` and ``time``.
        proba : array-like of shape (n_windows, K)
            Surface with one row per window of ``y``.
        groups : array-like of shape (n_windows,), default=None
            Unit of each row. With several units, ``unit`` picks one; the
            unit's rows must be in time order.
        unit : object, default=None
            The unit to draw, one of ``groups``.
        times : array-like of shape (n_windows,), default=None
            Time of each row's window end, in the steps of ``y["time"]``;
            see the class parameters.
        name : str, default=None
            Title; None means ``"unit <unit>"`` when ``unit`` is given.
        ax, cmap, colorbar
            As in :meth:`plot`.

        Returns
        -------
        display : EventSurfaceDisplay
        """
        n_samples = check_survival_y(y)[0].shape[0]
        rows = _unit_rows(groups, unit, n_samples)
        display = cls(
            proba=_rows_of(proba, "proba", rows, n_samples),
            y=_rows_of(y, "y", rows, n_samples),
            times=_rows_of(times, "times", rows, n_samples),
            name=_title(name, unit),
        )
        return display.plot(ax=ax, cmap=cmap, colorbar=colorbar)

    @classmethod
    def from_estimator(
        cls, estimator, X, y, *, groups=None, unit=None, times=None, name=None, ax=None, cmap="viridis", colorbar=True
    ):
        """Draw the surface that a fitted estimator predicts for one unit's windows.

        Only the chosen unit's rows of ``X`` are passed to
        ``estimator.predict_proba``.

        Parameters
        ----------
        estimator : fitted estimator with ``predict_proba``
            For example a :class:`~hepa_sklearn.HEPAEventPredictor` (``X``
            holds embeddings) or a pipeline of a pretrainer and an event
            predictor (``X`` holds windows).
        X : array-like of shape (n_windows, ...)
            Input of ``estimator.predict_proba``.
        y, groups, unit, times, name, ax, cmap, colorbar
            As in :meth:`from_predictions`.

        Returns
        -------
        display : EventSurfaceDisplay
        """
        n_samples = check_survival_y(y)[0].shape[0]
        rows = _unit_rows(groups, unit, n_samples)
        proba = predict_surface(estimator, _rows_of(X, "X", rows, n_samples))
        return cls.from_predictions(
            _rows_of(y, "y", rows, n_samples),
            proba,
            times=_rows_of(times, "times", rows, n_samples),
            name=_title(name, unit),
            ax=ax,
            cmap=cmap,
            colorbar=colorbar,
        )
