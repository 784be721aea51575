"""The finetuned predictor's outputs at a few horizons beside the embeddings they start from, in two dimensions."""

import numpy as np
import torch
from sklearn.decomposition import PCA
from sklearn.pipeline import Pipeline

from ._common import TitledDisplay, check_horizons, pyplot

PROJECTIONS = ("pca", "tsne")


def predictor_outputs(estimator, E, horizons):
    """ĥ(t, k): the fitted event predictor's representation of each embedding at each horizon k.

    Parameters
    ----------
    estimator : fitted HEPAEventPredictor with ``head="mlp"``
    E : array-like of shape (n_windows, n_features)
    horizons : array-like of int, each in 1..K

    Returns
    -------
    outputs : ndarray of shape (n_horizons, n_windows, n_features)
        The predictor's output (the hazard head's input) for every window
        at every horizon; it lives in the space of ``E``.
    """
    return _outputs(estimator, *_checked(estimator, E, horizons))


def _checked(estimator, E, horizons):
    """``(E, horizons)`` checked against a fitted event predictor with a horizon predictor."""
    from ..event_predictor import HEPAEventPredictor

    if not isinstance(estimator, HEPAEventPredictor):
        raise TypeError(
            f"expected a fitted HEPAEventPredictor (or a pipeline ending in one), got {type(estimator).__name__}."
        )
    if estimator.head != "mlp":
        raise ValueError(
            f"the predictor's outputs exist only with head='mlp'; this estimator has "
            f"head={estimator.head!r}, a linear probe without a horizon predictor."
        )
    return estimator._validated_input(E), check_horizons(horizons, estimator.K)


def _outputs(estimator, E, horizons):
    """:func:`predictor_outputs` of checked ``E`` and ``horizons``."""
    steps = torch.as_tensor(horizons, dtype=torch.float32)

    def grid(module):
        return lambda h: module.predictor.grid(h, steps.to(h.device))

    return np.ascontiguousarray(estimator._infer(E, "the predictor's outputs", forward=grid).transpose(1, 0, 2))


def relative_shift(E, outputs):
    """Mean distance from each window's ĥ(t, k) to its h_t, per horizon, in units of the embeddings' spread.

    The spread is the root mean square distance of the embeddings from
    their mean, so 1 means as far from its own embedding as a typical
    embedding lies from the centre of all of them.
    """
    E = np.asarray(E, dtype=np.float64)
    spread = np.sqrt(np.mean(np.sum((E - E.mean(axis=0)) ** 2, axis=1)))
    distance = np.linalg.norm(np.asarray(outputs, dtype=np.float64) - E[None], axis=2).mean(axis=1)
    return distance / spread if spread > 0 else np.full(distance.shape, np.nan)


def project(points, method, random_state):
    """Two-dimensional coordinates of ``points`` (n, d): principal components or a t-SNE map."""
    if method == "pca":
        return PCA(n_components=2).fit_transform(points)
    from sklearn.manifold import TSNE

    perplexity = min(30.0, (points.shape[0] - 1) / 3)
    return TSNE(n_components=2, init="pca", perplexity=perplexity, random_state=random_state).fit_transform(points)


class PredictorOutputsDisplay(TitledDisplay):
    """The embeddings h_t and the finetuned predictor's outputs ĥ(t, k) at a few horizons, mapped to two dimensions.

    The picture of the paper's predictor figure (t-SNE of C-MAPSS FD001 in
    its appendix): where the outputs at longer horizons move away from the
    embeddings, the predictor maps each horizon differently instead of
    copying its input. The embeddings and the outputs at every horizon are
    mapped together, by PCA (the default, deterministic) or t-SNE; the legend
    gives each horizon's ``relative_shift``, the mean distance from ĥ(t, k)
    to its own h_t in units of the embeddings' spread, computed in the full
    space (a two-dimensional map distorts distances, t-SNE most).

    Build it with :meth:`from_estimator` (or :meth:`from_outputs` when the
    outputs are at hand); the constructor only stores its arguments.

    Parameters
    ----------
    embedding_points : ndarray of shape (n_windows, 2)
        The mapped embeddings.
    output_points : ndarray of shape (n_horizons, n_windows, 2)
        The mapped outputs at each horizon.
    horizons : ndarray of shape (n_horizons,)
        The horizons drawn.
    relative_shift : ndarray of shape (n_horizons,)
        Mean distance from ĥ(t, k) to h_t over the windows, divided by the
        root mean square distance of the embeddings from their mean.
    method : {"pca", "tsne"}
        The map used.
    name : str, default=None
        Title of the axes; None leaves it empty.

    Attributes
    ----------
    embedding_scatter_ : matplotlib PathCollection
    output_scatters_ : list of matplotlib PathCollection, one per horizon
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAEventPredictor
    >>> from hepa_sklearn.plotting import PredictorOutputsDisplay
    >>> from hepa_sklearn.surface import make_survival_y
    >>> rng = np.random.default_rng(0)
    >>> E = rng.normal(size=(40, 8)).astype("float32")
    >>> y = make_survival_y(np.ones(40, bool), rng.integers(1, 20, 40))
    >>> model = HEPAEventPredictor(K=20, hidden=16, max_epochs=1, random_state=0).fit(E, y)
    >>> display = PredictorOutputsDisplay.from_estimator(model, E, horizons=[1, 10, 20])
    >>> display.output_points.shape, display.relative_shift.shape
    ((3, 40, 2), (3,))
    """

    def __init__(self, *, embedding_points, output_points, horizons, relative_shift, method, name=None):
        self.embedding_points = embedding_points
        self.output_points = output_points
        self.horizons = horizons
        self.relative_shift = relative_shift
        self.method = method
        self.name = name

    _legend = {"loc": "best", "fontsize": "small"}

    def _draw(self, ax):
        self.embedding_scatter_ = ax.scatter(*self.embedding_points.T, s=6, color="tab:blue", label="embedding h_t")
        shades = pyplot().get_cmap("Reds")(np.linspace(0.35, 0.95, len(self.horizons)))
        self.output_scatters_ = [
            ax.scatter(*points.T, s=6, color=shade, label=f"ĥ at Δt = {k} (shift {shift:.2f})")
            for points, shade, k, shift in zip(
                self.output_points, shades, self.horizons, self.relative_shift, strict=True
            )
        ]
        axis = "PC" if self.method == "pca" else "t-SNE "
        ax.set_xlabel(f"{axis}1")
        ax.set_ylabel(f"{axis}2")

    @classmethod
    def from_estimator(
        cls, estimator, X, *, horizons=(10, 50, 100), method="pca", random_state=None, name=None, ax=None
    ):
        """Draw the predictor's outputs of a fitted event predictor, or of a pipeline ending in one.

        Parameters
        ----------
        estimator : fitted HEPAEventPredictor (``head="mlp"``) or Pipeline ending in one
            With a pipeline, ``X`` holds windows and its steps before the
            last embed them.
        X : array-like
            Embeddings (n_windows, n_features) for an event predictor,
            windows (n_windows, n_channels, n_timepoints) for a pipeline.
        horizons : array-like of int, default=(10, 50, 100)
            Horizons to draw, each in 1..K (the paper's 10, 50 and 100).
        method : {"pca", "tsne"}, default="pca"
            The two-dimensional map of the embeddings and outputs together.
        random_state : int or None, default=None
            Seed of t-SNE; PCA ignores it.
        name : str, default=None
            Title of the axes.
        ax : matplotlib Axes, default=None
            Axes to draw on; None makes a new figure.

        Returns
        -------
        display : PredictorOutputsDisplay
        """
        if method not in PROJECTIONS:
            raise ValueError(f"method must be one of {PROJECTIONS}, got {method!r}.")
        if isinstance(estimator, Pipeline):
            X = estimator[:-1].transform(X)
            estimator = estimator[-1]
        E, horizons = _checked(estimator, X, horizons)
        return cls.from_outputs(
            E, _outputs(estimator, E, horizons), horizons, method=method, random_state=random_state, name=name, ax=ax
        )

    @classmethod
    def from_outputs(cls, E, outputs, horizons, *, method="pca", random_state=None, name=None, ax=None):
        """Draw embeddings ``E`` (n_windows, n_features) and outputs already computed by :func:`predictor_outputs`.

        ``outputs`` has shape (n_horizons, n_windows, n_features), one slice
        per horizon of ``horizons``; the other parameters are those of
        :meth:`from_estimator`.

        Returns
        -------
        display : PredictorOutputsDisplay
        """
        if method not in PROJECTIONS:
            raise ValueError(f"method must be one of {PROJECTIONS}, got {method!r}.")
        E, outputs = np.asarray(E, dtype=np.float32), np.asarray(outputs, dtype=np.float32)
        horizons = np.asarray(horizons).ravel()
        if outputs.shape != (horizons.size, *E.shape):
            raise ValueError(
                f"outputs must have shape (n_horizons, n_windows, n_features) = "
                f"{(horizons.size, *E.shape)}, got {outputs.shape}."
            )
        if E.shape[0] < 3:
            raise ValueError(f"X needs at least 3 windows for a two-dimensional map, got {E.shape[0]}.")
        points = project(np.concatenate([E, *outputs]).astype(np.float64), method, random_state)
        n = E.shape[0]
        display = cls(
            embedding_points=points[:n],
            output_points=points[n:].reshape(len(outputs), n, 2),
            horizons=horizons,
            relative_shift=relative_shift(E, outputs),
            method=method,
            name=name,
        )
        return display.plot(ax=ax)
