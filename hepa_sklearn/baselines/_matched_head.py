"""MatchedHeadPredictor: the paper's common downstream head for frozen baseline encoders."""

import numpy as np

from .._docs import fill_doc
from .._surface_estimator import EmbeddingSurfaceEstimator, surface_net
from .._validation import POSITIVE_INT
from ..nn.baselines import MatchedHead

__all__ = [
    "HEAD_CONSTRAINTS",
    "MatchedHeadPredictor",
    "check_horizon_rows",
    "head_params",
    "matched_head_parameter_count",
]

# paper, App. "Baseline protocol": a learned horizon embedding of 256 entries x 256 dims
PAPER_HORIZON_ROWS = 256

# The parameter of the matched head besides K and hidden, for the estimators that train a
# hepa_sklearn.nn.baselines.MatchedHead: MatchedHeadPredictor and the supervised encoders.
HEAD_CONSTRAINTS = {"horizon_rows": [POSITIVE_INT, None]}


def check_horizon_rows(estimator):
    """ValueError when the horizon table cannot hold horizons 1..K: one of the ``_parameter_checks``."""
    if estimator.horizon_rows is not None and estimator.horizon_rows < estimator.K:
        raise ValueError(
            f"horizon_rows={estimator.horizon_rows} is smaller than K={estimator.K}: horizon k reads "
            "row k-1 of the horizon table; raise horizon_rows or pass None for exactly K rows."
        )


def head_params(estimator):
    """The matched head's arguments besides its input width."""
    return {"K": estimator.K, "hidden": estimator.hidden, "horizon_rows": estimator.horizon_rows}


def matched_head_parameter_count(d_in, K, *, hidden=256, horizon_rows=PAPER_HORIZON_ROWS):
    """Trainable parameters of the matched head: ``(d_in + 1) H + R H + 2 H + 2 (H + 1) H + H + 1``.

    The input projection, the horizon table of ``R`` rows (``R = K`` when
    ``horizon_rows`` is None), the LayerNorm and the MLP H-H-H-1.

    Examples
    --------
    >>> matched_head_parameter_count(256, 150)  # the paper's "264K"
    263681
    >>> matched_head_parameter_count(256, 150, horizon_rows=None)
    236545
    """
    rows = K if horizon_rows is None else horizon_rows
    H = hidden
    return (d_in + 1) * H + rows * H + 2 * H + 2 * (H + 1) * H + H + 1


@fill_doc
class MatchedHeadPredictor(EmbeddingSurfaceEstimator):
    """Event probability surface from frozen embeddings with the paper's matched baseline head.

    The paper trains this head on every frozen baseline encoder (MAE,
    PatchTST, iTransformer, foundation models), so that differences in
    h-AUROC come from the representations and not from the head. For an
    embedding ``e`` and horizon ``k``::

        z_k = LayerNorm(W e + b + horizon_embedding[k - 1])
        logit λ_k = MLP(z_k),  MLP = Linear(H, H)-GELU-Linear(H, H)-GELU-Linear(H, 1)

    The outputs are conditional hazard logits, turned into the surface
    ``p(t, k) = 1 - Π_{j<=k} (1 - λ_j)`` exactly as in
    :class:`~hepa_sklearn.HEPAEventPredictor`, so the surface is
    non-decreasing in k by construction. Training minimises the
    positive-weighted BCE on ``p`` over the known cells of the label
    surface. With ``d_in = 256``, ``hidden = 256`` and the paper's 256-row
    horizon table it has 263,681 parameters (the paper's "264K"; see
    :func:`matched_head_parameter_count`), against 198K for HEPA's
    predictor and hazard head.

    Works on any embeddings: those of :class:`~hepa_sklearn.HEPAPretrainer`,
    :class:`MAEPretrainer`, :class:`PatchTSTEncoder`,
    :class:`ITransformerEncoder`, or features of any other frozen encoder.

    Parameters
    ----------
    K : int, default=150
        Number of unit-step horizons.
    hidden : int, default=256
        Width H of the projection, the horizon embedding and the MLP.
    horizon_rows : int or None, default=256
        Rows of the learned horizon embedding table; horizon ``k`` uses row
        ``k - 1``, so it must be at least ``K``. 256 is the paper's table
        (rows beyond ``K`` are never used); None gives exactly ``K`` rows.
    %(surface_loss_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net; ``net_.module_`` is the
        :class:`~hepa_sklearn.nn.baselines.MatchedHead`.
    history_ : skorch.History
    horizons_ : ndarray of shape (K,)
        The horizons 1..K of the surface columns.
    pos_weight_ : float
        The positive weight used.
    n_epochs_ : int
        Epochs that completed.
    n_features_in_ : int
        Width of the embeddings seen in ``fit``.

    See Also
    --------
    hepa_sklearn.HEPAEventPredictor : HEPA's own head (pred-FT).

    References
    ----------
    The HEPA paper, App. "Baseline protocol" (matched downstream heads).

    Examples
    --------
    On embeddings of C-MAPSS FD001 windows from a frozen encoder:

    >>> import numpy as np
    >>> from hepa_sklearn.baselines import MAEPretrainer, MatchedHeadPredictor
    >>> from hepa_sklearn.datasets import load_cmapss
    >>> data = load_cmapss("FD001", context_length=64, stride=16)
    >>> X, y = data.X[:200], data.y[:200]
    >>> encoder = MAEPretrainer(d_model=16, n_heads=2, n_layers=1, max_epochs=1, random_state=0).fit(X)
    >>> head = MatchedHeadPredictor(K=20, hidden=16, max_epochs=2, random_state=0)
    >>> P = head.fit(encoder.transform(X), y).predict_proba(encoder.transform(X))
    >>> P.shape, bool((np.diff(P, axis=1) >= 0).all())
    ((200, 20), True)
    """

    _parameter_constraints = {**EmbeddingSurfaceEstimator._parameter_constraints, **HEAD_CONSTRAINTS}
    _parameter_checks = (check_horizon_rows,)

    def __init__(
        self,
        *,
        # the head and its loss (paper, App. "Baseline protocol")
        K=150,
        hidden=256,
        horizon_rows=PAPER_HORIZON_ROWS,
        loss="bce",
        pos_weight="auto",
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=50,
        batch_size=64,
        lr=1e-3,
        weight_decay=1e-2,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=10,
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
        callbacks=None,
    ):
        self.K = K
        self.hidden = hidden
        self.horizon_rows = horizon_rows
        self.loss = loss
        self.pos_weight = pos_weight
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.weight_decay = weight_decay
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose
        self.callbacks = callbacks

    _fitted_attributes = ("n_features_in_", "pos_weight_", "horizons_")

    def _fitted_state(self, E):
        return {"horizons_": np.arange(1, self.K + 1)}

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for embeddings of width ``fitted["n_features_in_"]``."""
        width = fitted["n_features_in_"]
        return surface_net(self, MatchedHead, fitted, device, d_in=width, **head_params(self))
