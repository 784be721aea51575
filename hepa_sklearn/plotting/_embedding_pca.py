"""The geometry of the embeddings: their first two principal components, coloured by time to event."""

import numpy as np
from scipy import stats
from sklearn.decomposition import PCA

from ..surface import check_survival_y
from ._common import TitledDisplay


def _spearman(x, t):
    """Spearman's ρ of ``x`` and ``t``; NaN with fewer than two values or a constant one."""
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(t) == 0:
        return np.nan
    return float(stats.spearmanr(x, t).statistic)


def unit_spearman(pc1, time, event, groups):
    """Spearman's ρ of PC1 with the time to event within each unit (observed events only), NaN where undefined."""
    groups = np.asarray(groups)
    if groups.shape != (pc1.shape[0],):
        raise ValueError(f"groups must give one unit per window ({pc1.shape[0]}), got shape {groups.shape}.")
    return np.array(
        [
            _spearman(pc1[(groups == unit) & event], time[(groups == unit) & event])
            for unit in dict.fromkeys(groups.tolist())
        ]
    )


def embedding_pca(E, y):
    """``(components, explained share of PC1 and PC2, Spearman ρ of PC1 with the time to event)``.

    ``ρ`` is taken over the windows whose event is observed (``y["event"]``);
    NaN when fewer than two are, or when PC1 or their times are constant.
    """
    E = np.asarray(E, dtype=np.float64)
    if E.ndim != 2 or E.shape[1] < 2:
        raise ValueError(f"E must be 2-D with at least 2 columns (n_windows, n_features), got shape {E.shape}.")
    event, time = check_survival_y(y)
    if event.shape[0] != E.shape[0]:
        raise ValueError(f"E has {E.shape[0]} rows but y has {event.shape[0]}; give one target per window.")
    if not np.isfinite(E).all():
        raise ValueError("E holds NaN or infinite values; embeddings of the fitted encoders are finite.")
    if E.shape[0] < 3:
        raise ValueError(f"E needs at least 3 windows for a principal component picture, got {E.shape[0]}.")
    pca = PCA(n_components=2).fit(E)
    components = pca.transform(E)
    observed = event.astype(bool)
    return components, pca.explained_variance_ratio_, _spearman(components[observed, 0], time[observed])


class EmbeddingPCADisplay(TitledDisplay):
    """The embeddings' first two principal components, each window coloured by its time to event.

    The picture of the paper's Fig. 3b: if the encoder orders windows by
    how close their event is, PC1 carries much of the variance and follows
    the time to event. The legend gives PC1's share of the variance and
    Spearman's ρ between PC1 and the time to event over the windows whose
    event is observed; censored windows are drawn in grey.

    Build it with :meth:`from_estimator` or :meth:`from_embeddings`; the
    constructor only stores its arguments.

    Parameters
    ----------
    components : ndarray of shape (n_windows, 2)
        Each window's first two principal components.
    time : ndarray of shape (n_windows,)
        Time to the event (or to censoring) of each window.
    event : ndarray of shape (n_windows,), bool
        Whether the window's event is observed.
    explained_variance_ratio : ndarray of shape (2,)
        Share of the variance of PC1 and PC2.
    spearman_rho : float
        Spearman's ρ between PC1 and the time to event, observed events
        only; NaN when it is not defined.
    unit_spearman_rho : ndarray of shape (n_units,), default=None
        The same ρ within each unit (NaN where undefined), when the
        display was given ``groups``; the paper quotes its median.
    name : str, default=None
        Title of the axes; None leaves it empty.

    Attributes
    ----------
    scatter_ : matplotlib PathCollection
        The windows with an observed event, coloured by time to event.
    censored_ : matplotlib PathCollection or None
        The censored windows, in grey (None when there are none).
    colorbar_ : matplotlib Colorbar
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from hepa_sklearn.plotting import EmbeddingPCADisplay
    >>> from hepa_sklearn.surface import make_survival_y
    >>> time = np.arange(1.0, 21.0)
    >>> E = np.column_stack([3 * time, np.sin(time)])  # the first direction is the time to event
    >>> display = EmbeddingPCADisplay.from_embeddings(E, make_survival_y(np.ones(20, bool), time))
    >>> round(abs(display.spearman_rho), 3), bool(display.explained_variance_ratio[0] > 0.99)
    (1.0, True)
    """

    def __init__(
        self, *, components, time, event, explained_variance_ratio, spearman_rho, unit_spearman_rho=None, name=None
    ):
        self.components = components
        self.time = time
        self.event = event
        self.explained_variance_ratio = explained_variance_ratio
        self.spearman_rho = spearman_rho
        self.unit_spearman_rho = unit_spearman_rho
        self.name = name

    _legend = {"loc": "best", "fontsize": "small"}

    def _draw(self, ax):
        observed = np.asarray(self.event, dtype=bool)
        self.censored_ = None
        if (~observed).any():
            self.censored_ = ax.scatter(*self.components[~observed].T, s=6, color="0.75", label="censored")
        self.scatter_ = ax.scatter(
            *self.components[observed].T,
            c=self.time[observed],
            s=8,
            cmap="viridis",
            label=f"PC1 {self.explained_variance_ratio[0]:.0%} of variance, ρ(PC1, time) = {self.spearman_rho:.2f}",
        )
        self.colorbar_ = ax.figure.colorbar(self.scatter_, ax=ax, label="time to event")
        ax.set_xlabel(f"PC1 ({self.explained_variance_ratio[0]:.0%})")
        ax.set_ylabel(f"PC2 ({self.explained_variance_ratio[1]:.0%})")

    @classmethod
    def from_embeddings(cls, E, y, *, groups=None, name=None, ax=None):
        """Draw the principal components of embeddings ``E`` (n_windows, n_features) with their targets ``y``.

        Parameters
        ----------
        E : array-like of shape (n_windows, n_features)
            Embeddings, such as ``HEPAPretrainer.transform``'s.
        y : structured ndarray of shape (n_windows,)
            Fields ``event`` and ``time``.
        groups : array-like of shape (n_windows,), default=None
            The unit of each window: ρ is then also taken within each unit
            (``unit_spearman_rho``), as the paper's per-engine median.
        name : str, default=None
            Title of the axes.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.

        Returns
        -------
        display : EmbeddingPCADisplay
        """
        components, share, rho = embedding_pca(E, y)
        event, time = check_survival_y(y)
        time, event = np.asarray(time, dtype=float), event.astype(bool)
        per_unit = None if groups is None else unit_spearman(components[:, 0], time, event, groups)
        display = cls(
            components=components,
            time=time,
            event=event,
            explained_variance_ratio=share,
            spearman_rho=rho,
            unit_spearman_rho=per_unit,
            name=name,
        )
        return display.plot(ax=ax)

    @classmethod
    def from_estimator(cls, encoder, X, y, *, groups=None, name=None, ax=None):
        """Draw the principal components of ``encoder.transform(X)`` (a fitted pretrainer) with targets ``y``.

        Parameters
        ----------
        encoder : fitted transformer
            An estimator with ``transform``, such as a fitted :class:`~hepa_sklearn.HEPAPretrainer`.
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            Windows to embed.
        y, groups, name, ax
            As in :meth:`from_embeddings`.

        Returns
        -------
        display : EmbeddingPCADisplay
        """
        if not hasattr(encoder, "transform"):
            raise TypeError(f"{type(encoder).__name__} has no transform; pass a fitted pretrainer.")
        return cls.from_embeddings(encoder.transform(X), y, groups=groups, name=name, ax=ax)
