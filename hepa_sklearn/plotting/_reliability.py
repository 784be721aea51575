"""Reliability diagram of a probability surface at chosen horizons."""

import numpy as np

from .._validation import POSITIVE_INT, validate_params
from ..metrics._calibration import CALIBRATION_BINS, binned_forecasts
from ..surface import label_surface
from ._common import TitledDisplay, check_horizons, check_labelled_surface, predict_surface

# The quarter points of 1..K: short, middle and long horizons in one diagram.
# Horizon 1 is left out by default because few cells are positive there.
DEFAULT_HORIZON_FRACTIONS = (0.25, 0.5, 0.75, 1.0)


def reliability_table(y, proba, horizons, n_bins):
    """Cell count, mean forecast and event rate per (horizon, bin) over the known cells.

    Bins are the equal-width bins of
    :func:`~hepa_sklearn.metrics.expected_calibration_error`; the mean
    forecast and event rate are NaN in empty bins.
    """
    labels, known = label_surface(y, proba.shape[1])
    shape = (horizons.size, n_bins)
    counts = np.zeros(shape, dtype=int)
    mean_predicted, observed_rate = np.full(shape, np.nan), np.full(shape, np.nan)
    for row, horizon in enumerate(horizons):
        mask = known[:, horizon - 1]
        count, forecast, outcome = binned_forecasts(
            labels[mask, horizon - 1].astype(float), proba[mask, horizon - 1], n_bins
        )
        filled = count > 0
        counts[row] = count
        mean_predicted[row, filled] = forecast[filled] / count[filled]
        observed_rate[row, filled] = outcome[filled] / count[filled]
    return counts, mean_predicted, observed_rate


class SurfaceReliabilityDisplay(TitledDisplay):
    """Reliability diagram of an event probability surface at chosen horizons.

    For each chosen horizon ``Δt``, the known cells of column ``Δt`` (see
    :func:`~hepa_sklearn.surface.label_surface`) are put in equal-width
    probability bins; each non-empty bin gives one point, its mean predicted
    probability against its observed event rate. Points of a calibrated
    surface lie on the diagonal.

    Build it with :meth:`from_estimator` or :meth:`from_predictions`; the
    constructor only stores its arguments.

    Parameters
    ----------
    horizons : ndarray of shape (n_horizons,)
        The 1-based horizons drawn, one curve each.
    mean_predicted : ndarray of shape (n_horizons, n_bins)
        Mean predicted probability of the known cells in each bin, NaN in
        empty bins.
    observed_rate : ndarray of shape (n_horizons, n_bins)
        Share of positive cells among the known cells in each bin, NaN in
        empty bins.
    counts : ndarray of shape (n_horizons, n_bins), int
        Number of known cells in each bin.
    name : str, default=None
        Title of the axes; None leaves it empty.

    Attributes
    ----------
    lines_ : list of matplotlib Line2D
        One curve per horizon, in the order of ``horizons``, through the
        non-empty bins.
    diagonal_ : matplotlib Line2D
        The reference of perfect calibration.
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    See Also
    --------
    hepa_sklearn.metrics.expected_calibration_error : The same bins pooled over horizons.
    sklearn.calibration.CalibrationDisplay : The diagram of a binary classifier.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from hepa_sklearn.plotting import SurfaceReliabilityDisplay
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, False, True, False], [1, 5, 1, 5])
    >>> proba = [[0.75], [0.25], [0.75], [0.75]]
    >>> display = SurfaceReliabilityDisplay.from_predictions(y, proba, n_bins=2)
    >>> display.lines_[0].get_xydata().tolist()  # bin [0, 0.5): 1 negative; [0.5, 1]: 2 of 3 positive
    [[0.25, 0.0], [0.75, 0.6666666666666666]]
    >>> display.counts.tolist()
    [[1, 3]]
    """

    def __init__(self, *, horizons, mean_predicted, observed_rate, counts, name=None):
        self.horizons = horizons
        self.mean_predicted = mean_predicted
        self.observed_rate = observed_rate
        self.counts = counts
        self.name = name

    _legend = {"loc": "upper left", "fontsize": "small"}

    def _draw(self, ax):
        """One reliability curve per horizon and the diagonal."""
        (self.diagonal_,) = ax.plot(
            [0, 1], [0, 1], color="black", linestyle=":", linewidth=1, label="perfectly calibrated"
        )
        self.lines_ = []
        curves = zip(self.horizons, self.mean_predicted, self.observed_rate, strict=True)
        for horizon, predicted, observed in curves:
            filled = ~np.isnan(predicted)
            (line,) = ax.plot(predicted[filled], observed[filled], marker="o", label=f"Δt = {horizon}")
            self.lines_.append(line)
        ax.set_xlabel("mean predicted probability")
        ax.set_ylabel("observed event rate (known cells)")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")

    @classmethod
    @validate_params({"n_bins": [POSITIVE_INT]}, prefer_skip_nested_validation=True)
    def from_predictions(cls, y, proba, *, horizons=None, n_bins=CALIBRATION_BINS, name=None, ax=None):
        """Draw the reliability diagram of a predicted surface.

        Parameters
        ----------
        y : structured ndarray of shape (n_samples,)
            Fields ``event`` and ``time``.
        proba : array-like of shape (n_samples, K)
            Probabilities in [0, 1], one row per window of ``y``.
        horizons : array-like of int, default=None
            Horizons in ``1..K`` to draw; None means the quarter points
            ``ceil(K/4), ceil(K/2), ceil(3K/4), K`` (fewer when they coincide).
        n_bins : int, default=10
            Number of equal-width bins on [0, 1].
        name : str, default=None
            Title of the axes.
        ax : matplotlib Axes, default=None
            As in :meth:`plot`.

        Returns
        -------
        display : SurfaceReliabilityDisplay
        """
        _, _, proba = check_labelled_surface(y, proba)
        K = proba.shape[1]
        if horizons is None:
            horizons = np.unique(np.ceil(K * np.array(DEFAULT_HORIZON_FRACTIONS)).astype(int))
        horizons = check_horizons(horizons, K)
        counts, mean_predicted, observed_rate = reliability_table(y, proba, horizons, n_bins)
        display = cls(
            horizons=horizons, mean_predicted=mean_predicted, observed_rate=observed_rate, counts=counts, name=name
        )
        return display.plot(ax=ax)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, horizons=None, n_bins=CALIBRATION_BINS, name=None, ax=None):
        """Draw the reliability diagram of the surface a fitted estimator predicts for ``X``.

        Parameters
        ----------
        estimator : fitted estimator with ``predict_proba``
        X : array-like of shape (n_samples, ...)
            Input of ``estimator.predict_proba``.
        y, horizons, n_bins, ax
            As in :meth:`from_predictions`.
        name : str, default=None
            Title of the axes; None means the estimator's class name.

        Returns
        -------
        display : SurfaceReliabilityDisplay
        """
        return cls.from_predictions(
            y,
            predict_surface(estimator, X),
            horizons=horizons,
            n_bins=n_bins,
            name=type(estimator).__name__ if name is None else name,
            ax=ax,
        )
