"""Supervised baseline encoders, PatchTST and iTransformer: trained end to end on the event surface, then frozen."""

from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._docs import fill_doc
from .._surface_estimator import WindowSurfaceEstimator, surface_net
from .._validation import ENCODER_CONSTRAINTS, POSITIVE_INT, StrOptions, check_encoder_heads, check_windows
from .._window_encoder import WindowEncoderMixin
from ..nn.baselines import CHANNEL_POOLING, SupervisedSurfaceModel
from ..training._statistics import window_attributes
from ._matched_head import HEAD_CONSTRAINTS, PAPER_HORIZON_ROWS, check_horizon_rows, head_params

__all__ = ["ITransformerEncoder", "PatchTSTEncoder"]


class SupervisedWindowEncoder(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, WindowEncoderMixin, WindowSurfaceEstimator
):
    """What PatchTST and iTransformer share: a per-channel encoder, channel pooling, the matched head, trained end to
    end.

    A subclass declares its constructor, its constraints and
    ``_backbone(fitted)``: the name of its encoder in
    :data:`hepa_sklearn.nn.baselines.BACKBONES` (a torch module mapping
    windows (B, C, L) to per-channel states (B, C, d_model) and their
    validity (B, C)), its :class:`~hepa_sklearn.nn.EncoderConfig` and its
    other arguments.
    """

    _parameter_constraints = {
        **WindowSurfaceEstimator._parameter_constraints,
        **ENCODER_CONSTRAINTS,
        **HEAD_CONSTRAINTS,
        "channel_pooling": [StrOptions(set(CHANNEL_POOLING))],
    }
    _parameter_checks = (check_encoder_heads, check_horizon_rows)
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "pos_weight_", "channel_loc_", "channel_scale_")

    def _fitted_state(self, X):
        return window_attributes(X, self.norm)

    def _build_net(self, fitted, device, seed):
        """The untrained net: the subclass's backbone, channel pooling and the matched head."""
        backbone, config, backbone_params = self._backbone(fitted)
        return surface_net(
            self,
            SupervisedSurfaceModel,
            fitted,
            device,
            backbone=backbone,
            config=config,
            backbone_params=backbone_params,
            channel_loc=fitted["channel_loc_"],
            channel_scale=fitted["channel_scale_"],
            pooling=self.channel_pooling,
            **head_params(self),
        )

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.backbone

    @property
    def _n_features_out(self):
        n_channels = getattr(self, "n_features_in_", 1)
        return self.d_model * n_channels if self.channel_pooling == "concat" else self.d_model

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float32"]
        return tags


@fill_doc
class PatchTSTEncoder(SupervisedWindowEncoder):
    """PatchTST encoder trained end to end on the event surface, then frozen as a feature extractor.

    The paper's PatchTST baseline (Nie et al. 2023): each channel is its own
    stream of patches (``patch_size`` steps every ``patch_stride`` steps,
    the last patch ending on the window's last step), projected by one
    linear map shared by all channels, with sinusoidal positions and
    bidirectional self-attention within the channel; each channel is
    normalised by RevIN by default. A channel's state is the mean of its
    token states (tokens without an observation excluded); ``channel_pooling``
    then averages the channels (width ``d_model``) or concatenates them
    (width ``n_channels * d_model``).

    ``fit(X, y)`` trains encoder and a :class:`MatchedHeadPredictor`-shaped
    head jointly on the survival labels (no self-supervised pretraining);
    ``transform(X)`` returns the frozen, pooled embeddings, on which the
    paper trains a fresh :class:`MatchedHeadPredictor` as for every other
    encoder. ``predict_proba`` gives the surface of the end-to-end head.

    Attention is bidirectional within the window, so a window's embedding
    depends on all of its steps at once; it never reads a step after the
    window's end, which is what makes it usable at time t.

    Parameters
    ----------
    %(encoder_parameters)s
    patch_size : int, default=16
        Steps per patch (P = 16 in PatchTST and HEPA).
    patch_stride : int, default=8
        Steps between the starts of consecutive patches (PatchTST's S = 8;
        ``patch_stride=patch_size`` gives non-overlapping patches).
    dropout : float, default=0.1
    channel_pooling : {"mean", "concat"}, default='mean'
        How ``transform`` combines the states of the channels: their mean
        (width ``d_model``) or all of them side by side (width
        ``n_channels * d_model``).
    norm : {"revin", "global", "none"}, default='revin'
        Per-window, per-channel instance normalisation (RevIN, as PatchTST
        and iTransformer), per-channel statistics learned in ``fit``, or raw
        values.
    K : int, default=150
        Horizons of the end-to-end training surface.
    hidden : int, default=256
        Width of the training head (see :class:`MatchedHeadPredictor`).
    horizon_rows : int or None, default=256
        Rows of the training head's horizon table.
    %(surface_loss_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    encoder_ : torch.nn.Module
        The fitted :class:`~hepa_sklearn.nn.baselines.PatchTSTBackbone`.
    net_ : skorch.NeuralNet
        The fitted net: encoder, channel pooling and training head.
    history_ : skorch.History
    pos_weight_ : float
    n_epochs_ : int
    %(encoder_attributes)s

    See Also
    --------
    ITransformerEncoder : one token per variate instead.
    MatchedHeadPredictor : the head the paper trains on the frozen embeddings.

    References
    ----------
    Nie, Y., Nguyen, N. H., Sinthong, P. and Kalagnanam, J. (2023). A time
    series is worth 64 words: long-term forecasting with Transformers. ICLR.

    Kim, T., Kim, J., Tae, Y., Park, C., Choi, J.-H. and Choo, J. (2022).
    Reversible instance normalization for accurate time-series forecasting
    against distribution shift. ICLR.

    Examples
    --------
    Train on C-MAPSS FD001 windows, freeze, and fit the matched head on the
    embeddings:

    >>> from sklearn.pipeline import make_pipeline
    >>> from hepa_sklearn.baselines import MatchedHeadPredictor, PatchTSTEncoder
    >>> from hepa_sklearn.datasets import load_cmapss
    >>> data = load_cmapss("FD001", context_length=64, stride=16)
    >>> X, y = data.X[:200], data.y[:200]
    >>> encoder = PatchTSTEncoder(d_model=16, n_heads=2, n_layers=1, K=20, hidden=16,
    ...                           max_epochs=1, random_state=0).fit(X, y)
    >>> encoder.transform(X).shape
    (200, 16)
    >>> head = MatchedHeadPredictor(K=20, hidden=16, max_epochs=2, random_state=0)
    >>> head.fit(encoder.transform(X), y).predict_proba(encoder.transform(X)).shape
    (200, 20)
    """

    _parameter_constraints = {**SupervisedWindowEncoder._parameter_constraints, "patch_stride": [POSITIVE_INT]}

    def __init__(
        self,
        *,
        # the encoder (Nie et al. 2023, at HEPA's width)
        d_model=256,
        n_layers=2,
        n_heads=4,
        patch_size=16,
        patch_stride=8,
        dropout=0.1,
        channel_pooling="mean",
        norm="revin",
        # the end-to-end training head and its loss, then training as every torch-backed estimator
        K=150,
        hidden=256,
        horizon_rows=PAPER_HORIZON_ROWS,
        loss="bce",
        pos_weight="auto",
        max_epochs=50,
        batch_size=64,
        lr=3e-4,
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
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.patch_size = patch_size
        self.patch_stride = patch_stride
        self.dropout = dropout
        self.channel_pooling = channel_pooling
        self.norm = norm
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

    def _backbone(self, fitted):
        config = self._encoder_config(fitted["n_features_in_"], patch_size=self.patch_size)
        return "patchtst", config, {"patch_stride": self.patch_stride}


def check_fixed_length_windows(estimator, X, *, reset):
    """:func:`check_windows`, and without ``reset`` the window length must be the one seen in ``fit``."""
    X = check_windows(estimator, X, reset=reset)
    if not reset and X.shape[2] != estimator.n_timepoints_in_:
        raise ValueError(
            f"X has windows of {X.shape[2]} steps, but {type(estimator).__name__} was fitted on "
            f"{estimator.n_timepoints_in_}: each variate token projects a whole window, so the length is fixed."
        )
    return X


@fill_doc
class ITransformerEncoder(SupervisedWindowEncoder):
    """iTransformer encoder trained end to end on the event surface, then frozen as a feature extractor.

    The paper's iTransformer baseline (Liu et al. 2024): each variate
    (channel) is one token, the linear projection of its whole normalised
    window, and self-attention runs across variates instead of across
    time. Missing steps are forward-filled and the observed indicator is
    projected with the values, so left padding is told apart from a value;
    a channel without any observation in a window is masked out of
    attention and pooling. ``channel_pooling`` averages the variate tokens
    (width ``d_model``) or concatenates them (``n_channels * d_model``).

    ``fit(X, y)`` trains encoder and a :class:`MatchedHeadPredictor`-shaped
    head jointly on the survival labels; ``transform(X)`` returns the
    frozen, pooled embeddings for a fresh :class:`MatchedHeadPredictor`.
    Windows must keep the length seen in ``fit``.

    Each token sees the whole window (there is no notion of order inside a
    token), so an embedding depends on all steps of the window at once; it
    never reads a step after the window's end.

    Parameters
    ----------
    %(encoder_parameters)s
    dropout : float, default=0.1
    channel_pooling : {"mean", "concat"}, default='mean'
        How ``transform`` combines the states of the channels: their mean
        (width ``d_model``) or all of them side by side (width
        ``n_channels * d_model``).
    norm : {"revin", "global", "none"}, default='revin'
        Per-window, per-channel instance normalisation (RevIN, as PatchTST
        and iTransformer), per-channel statistics learned in ``fit``, or raw
        values.
    K : int, default=150
        Horizons of the end-to-end training surface.
    hidden : int, default=256
        Width of the training head (see :class:`MatchedHeadPredictor`).
    horizon_rows : int or None, default=256
        Rows of the training head's horizon table.
    %(surface_loss_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    encoder_ : torch.nn.Module
        The fitted :class:`~hepa_sklearn.nn.baselines.VariateTransformer`.
    net_ : skorch.NeuralNet
        The fitted net: encoder, channel pooling and training head.
    history_ : skorch.History
    pos_weight_ : float
    n_epochs_ : int
    %(encoder_attributes)s

    See Also
    --------
    MatchedHeadPredictor : the head the paper trains on the frozen embeddings.
    PatchTSTEncoder : channel-independent patches instead.

    References
    ----------
    Liu, Y., Hu, T., Zhang, H., Wu, H., Wang, S., Ma, L. and Long, M.
    (2024). iTransformer: inverted Transformers are effective for time
    series forecasting. ICLR.

    Examples
    --------
    >>> from hepa_sklearn.baselines import ITransformerEncoder
    >>> from hepa_sklearn.datasets import load_cmapss
    >>> data = load_cmapss("FD001", context_length=64, stride=16)
    >>> X, y = data.X[:200], data.y[:200]
    >>> encoder = ITransformerEncoder(d_model=16, n_heads=2, n_layers=1, K=20, hidden=16,
    ...                               max_epochs=1, random_state=0).fit(X, y)
    >>> encoder.transform(X).shape
    (200, 16)
    """

    # no patches: each variate's whole window is one token
    _parameter_constraints = {
        name: constraint
        for name, constraint in SupervisedWindowEncoder._parameter_constraints.items()
        if name != "patch_size"
    }

    def __init__(
        self,
        *,
        # the encoder (Liu et al. 2024, at HEPA's width), the end-to-end training head and its loss
        d_model=256,
        n_layers=2,
        n_heads=4,
        dropout=0.1,
        channel_pooling="mean",
        norm="revin",
        K=150,
        hidden=256,
        horizon_rows=PAPER_HORIZON_ROWS,
        loss="bce",
        pos_weight="auto",
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=50,
        batch_size=64,
        lr=3e-4,
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
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.dropout = dropout
        self.channel_pooling = channel_pooling
        self.norm = norm
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

    _check_input = check_fixed_length_windows

    def _backbone(self, fitted):
        config = self._encoder_config(fitted["n_features_in_"], patch_size=1)
        return "itransformer", config, {"n_timepoints": fitted["n_timepoints_in_"]}
