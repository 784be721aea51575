"""AUROC of each horizon for several surfaces, with the event prevalence of each horizon."""

from collections.abc import Mapping

import numpy as np

from ..metrics import per_horizon_auroc
from ..surface import label_surface
from ._common import axes_and_figure, check_horizons, check_labelled_surface, predict_surface


def _named(items, what, single_name):
    """``items`` as a non-empty dict; a single item is named ``single_name``."""
    if not isinstance(items, Mapping):
        items = {single_name: items}
    if not items:
        raise ValueError(f"{what} is empty; give at least one.")
    return dict(items)


def known_prevalence(y, K):
    """Share of positive cells among the known cells of each horizon 1..K (NaN where none is known)."""
    labels, known = label_surface(y, K)
    n_known = known.sum(axis=0)
    n_positive = labels.sum(axis=0)  # unknown cells are labelled 0
    return np.divide(n_positive, n_known, out=np.full(K, np.nan), where=n_known > 0)


class HorizonAUROCDisplay:
    """Per-horizon AUROC of one or more surfaces, with the event prevalence of each horizon.

    One AUROC curve per surface on the left axis (the legend gives each
    curve's h-AUROC, the mean over non-degenerate horizons) and, on a second
    axis, the share of positive cells among the known cells of each horizon:
    a horizon where nearly every known cell is positive or negative gives a
    noisy or undefined AUROC.

    Build it with :meth:`from_estimator` or :meth:`from_predictions`; the
    constructor only stores its arguments.

    Parameters
    ----------
    horizons : ndarray of shape (n_horizons,)
        The 1-based horizons evaluated.
    auroc : dict of str to ndarray of shape (n_horizons,)
        AUROC of each named surface at each horizon, NaN where degenerate
        (as returned by :func:`~hepa_sklearn.metrics.per_horizon_auroc`).
    prevalence : ndarray of shape (n_horizons,)
        Share of positive cells among the known cells of each horizon.

    Attributes
    ----------
    lines_ : dict of str to matplotlib Line2D
        The AUROC curve of each surface.
    prevalence_line_ : matplotlib Line2D
        The prevalence curve, on ``ax2_``.
    ax_ : matplotlib Axes
        Axes of the AUROC curves.
    ax2_ : matplotlib Axes
        Twin axes (shared horizon axis) of the prevalence curve.
    figure_ : matplotlib Figure

    See Also
    --------
    hepa_sklearn.metrics.per_horizon_auroc : The AUROC of each horizon.
    hepa_sklearn.metrics.h_auroc : Their mean over non-degenerate horizons.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from hepa_sklearn.plotting import HorizonAUROCDisplay
    >>> from hepa_sklearn.surface import make_survival_y
    >>> y = make_survival_y([True, True, False], [1, 2, 2])
    >>> proba = {"sharp": [[0.6, 0.9], [0.2, 0.7], [0.1, 0.2]],
    ...          "flat": [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]}
    >>> display = HorizonAUROCDisplay.from_predictions(y, proba)
    >>> display.lines_["sharp"].get_ydata().tolist()
    [1.0, 1.0]
    >>> display.prevalence_line_.get_ydata().tolist()  # 1 of 3, then 2 of 3 known cells positive
    [0.3333333333333333, 0.6666666666666666]
    """

    def __init__(self, *, horizons, auroc, prevalence):
        self.horizons = horizons
        self.auroc = auroc
        self.prevalence = prevalence

    def plot(self, ax=None):
        """Draw the AUROC curves and the prevalence curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes of the AUROC curves; None makes a new figure. The
            prevalence goes on a twin of it.

        Returns
        -------
        display : HorizonAUROCDisplay
        """
        ax, figure = axes_and_figure(ax)
        self.lines_ = {}
        for name, scores in self.auroc.items():
            scores = np.asarray(scores, dtype=float)
            mean = np.nan if np.all(np.isnan(scores)) else np.nanmean(scores)
            (self.lines_[name],) = ax.plot(self.horizons, scores, label=f"{name} (h-AUROC {mean:.3f})")
        ax.set_xlabel("horizon Δt (steps)")
        ax.set_ylabel("AUROC")
        ax.set_ylim(0.0, 1.0)
        self.ax2_ = ax.twinx()
        (self.prevalence_line_,) = self.ax2_.plot(
            self.horizons, self.prevalence, color="grey", linestyle="--", label="event prevalence (known cells)"
        )
        self.ax2_.set_ylabel("event prevalence")
        self.ax2_.set_ylim(0.0, 1.0)
        # on the twin, which is drawn last, so that no curve hides the legend
        self.ax2_.legend(handles=[*self.lines_.values(), self.prevalence_line_], loc="lower right", fontsize="small")
        self.ax_, self.figure_ = ax, figure
        return self

    @classmethod
    def from_predictions(cls, y, proba, *, horizons=None, ax=None):
        """Draw the per-horizon AUROC of predicted surfaces.

        Parameters
        ----------
        y : structured ndarray of shape (n_samples,)
            Fields ``event`` and ``time``.
        proba : dict of str to array-like of shape (n_samples, K), or one such array
            Surfaces to compare, by name; all with the same ``K``.
        horizons : array-like of int, default=None
            Horizons in ``1..K`` to evaluate; None means all of ``1..K``.
        ax : matplotlib Axes, default=None
            As in :meth:`plot`.

        Returns
        -------
        display : HorizonAUROCDisplay
        """
        named = _named(proba, "proba", "surface")
        surfaces = {name: check_labelled_surface(y, surface)[2] for name, surface in named.items()}
        widths = {name: p.shape[1] for name, p in surfaces.items()}
        if len(set(widths.values())) > 1:
            raise ValueError(f"all surfaces must have the same number of horizons K, got {widths}.")
        K = next(iter(widths.values()))
        horizons = np.arange(1, K + 1) if horizons is None else check_horizons(horizons, K)
        display = cls(
            horizons=horizons,
            auroc={name: per_horizon_auroc(y, surface, horizons=horizons) for name, surface in surfaces.items()},
            prevalence=known_prevalence(y, K)[horizons - 1],
        )
        return display.plot(ax=ax)

    @classmethod
    def from_estimator(cls, estimators, X, y, *, horizons=None, ax=None):
        """Draw the per-horizon AUROC of the surfaces that fitted estimators predict for ``X``.

        Parameters
        ----------
        estimators : dict of str to fitted estimator, or one fitted estimator
            Each has ``predict_proba(X)`` returning a surface with the same
            ``K``; a single estimator is named by its class.
        X : array-like of shape (n_samples, ...)
            Input of every estimator's ``predict_proba``.
        y, horizons, ax
            As in :meth:`from_predictions`.

        Returns
        -------
        display : HorizonAUROCDisplay
        """
        estimators = _named(estimators, "estimators", type(estimators).__name__)
        proba = {name: predict_surface(estimator, X) for name, estimator in estimators.items()}
        return cls.from_predictions(y, proba, horizons=horizons, ax=ax)
