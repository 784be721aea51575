"""Lazy matplotlib import, axes set-up, the input checks and the ``plot`` frame the displays share."""

import numpy as np

from .. import surface

PLOT_EXTRA_HINT = "pip install 'hepa-sklearn[plot]'"


def pyplot():
    """``matplotlib.pyplot``, imported on first use so that the package works without it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            "hepa_sklearn.plotting draws with matplotlib, which is an optional dependency "
            f"and is not installed; install it with {PLOT_EXTRA_HINT}."
        ) from exc
    return plt


def axes_and_figure(ax):
    """The axes to draw on (a new figure's when ``ax`` is None) and its figure."""
    plt = pyplot()
    if ax is None:
        _, ax = plt.subplots()
    return ax, ax.figure


def check_labelled_surface(y, proba):
    """``(event, time, proba)``: a survival target and a probability surface with one row per window."""
    event, time = surface.check_survival_y(y)
    return event, time, surface.check_surface(proba, event.shape[0], probabilities=True)


def check_horizons(horizons, K):
    """1-based horizons as an int array, non-empty, each in ``1..K``."""
    horizons = np.asarray(horizons).ravel()
    if horizons.size == 0:
        raise ValueError("horizons must name at least one horizon.")
    if horizons.dtype.kind not in "iuf" or not np.all(np.mod(horizons, 1) == 0):
        raise ValueError(f"horizons must be integers, got {horizons.tolist()}.")
    horizons = horizons.astype(int)
    if horizons.min() < 1 or horizons.max() > K:
        raise ValueError(f"horizons must lie in 1..K = 1..{K} (the surface's columns), got {horizons.tolist()}.")
    return horizons


def predict_surface(estimator, X):
    """``estimator.predict_proba(X)``, with a TypeError naming the estimator when it has none."""
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(
            f"{type(estimator).__name__} has no predict_proba; pass a fitted estimator that "
            "returns an event probability surface, such as HEPAEventPredictor or a pipeline "
            "ending in one."
        )
    return estimator.predict_proba(X)


class TitledDisplay:
    """Base of a display drawn on one axes, with a title and a legend.

    ``plot`` sets up the axes, calls ``_draw(ax)``, which the subclass
    implements, then titles the axes with ``name`` (when not None) and adds
    the legend with the keyword arguments in ``_legend``.
    """

    _legend = {}

    def plot(self, ax=None):
        """Draw the display: what the class description lists.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.

        Returns
        -------
        display : the display itself, with the artists of its attributes set
        """
        ax, figure = axes_and_figure(ax)
        self._draw(ax)
        if self.name is not None:
            ax.set_title(self.name)
        ax.legend(**self._legend)
        self.ax_, self.figure_ = ax, figure
        return self
