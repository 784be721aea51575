"""Supervised baseline encoders, PatchTST and iTransformer: trained end to end on the event surface, then frozen."""

from numbers import Real

from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._base import SurfaceNetEstimator, store_parameters
from .._docs import fill_doc
from .._training import HEPANet, SurfaceLoss, make_net
from .._validation import POSITIVE_INT, Interval, StrOptions, check_groups, check_windows
from ..nn.baselines import CHANNEL_POOLING, SupervisedSurfaceModel
from ..nn.encoder import NORM_MODES, EncoderConfig
from ._mae import check_heads, normalisation_statistics
from ._matched_head import PAPER_HORIZON_ROWS, check_horizon_rows

__all__ = ["ITransformerEncoder", "PatchTSTEncoder"]


class SupervisedWindowEncoder(ClassNamePrefixFeaturesOutMixin, TransformerMixin, SurfaceNetEstimator):
    """What PatchTST and iTransformer share: a per-channel encoder, channel pooling, the matched head, trained end to end.

    A subclass declares its constructor, its constraints and
    ``_backbone(fitted)``: the name of its encoder in
    :data:`hepa_sklearn.nn.baselines.BACKBONES` (a torch module mapping
    windows (B, C, L) to per-channel states (B, C, d_model) and their
    validity (B, C)), its :class:`~hepa_sklearn.nn.EncoderConfig` and its
    other arguments.
    """

    _parameter_constraints = {
        **SurfaceNetEstimator._parameter_constraints,
        "d_model": [POSITIVE_INT],
        "n_layers": [POSITIVE_INT],
        "n_heads": [POSITIVE_INT],
        "dim_feedforward": [POSITIVE_INT],
        "dropout": [Interval(Real, 0, 1, closed="left")],
        "channel_pooling": [StrOptions(set(CHANNEL_POOLING))],
        "norm": [StrOptions(set(NORM_MODES))],
        "horizon_rows": [POSITIVE_INT, None],
        "loss": [StrOptions({"bce", "nll"})],
    }
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "pos_weight_", "channel_loc_", "channel_scale_")
    _check_input = check_windows

    def _check_hyperparameters(self):
        self._validate_params()
        check_heads(self.d_model, self.n_heads)
        check_horizon_rows(self.horizon_rows, self.K)

    def _encoder_config(self, n_channels, patch_size=1):
        return EncoderConfig(
            n_channels=n_channels, d_model=self.d_model, n_layers=self.n_layers, n_heads=self.n_heads,
            dim_feedforward=self.dim_feedforward, patch_size=patch_size, dropout=float(self.dropout),
            norm=self.norm,
        )

    def _build_net(self, fitted, device, seed):
        """The untrained net: the subclass's backbone, channel pooling and the matched head."""
        backbone, config, backbone_params = self._backbone(fitted)
        return make_net(
            HEPANet,
            SupervisedSurfaceModel,
            SurfaceLoss,
            training=self._training_config(),
            params={
                "module__backbone": backbone,
                "module__config": config,
                "module__backbone_params": backbone_params,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
                "module__pooling": self.channel_pooling,
                "module__K": self.K,
                "module__hidden": self.hidden,
                "module__horizon_rows": self.horizon_rows,
                "criterion__pos_weight": fitted["pos_weight_"],
                "criterion__kind": self.loss,
            },
            device=device,
        )

    @fill_doc
    def fit(self, X, y, groups=None):
        """Train encoder and head end to end on windows ``X`` (n, C, L) with survival labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : structured ndarray with fields ``event`` and ``time``
        %(fit_groups)s

        Returns
        -------
        self
        """
        self._check_hyperparameters()
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        packed, pos_weight = self._surface_targets(y, X.shape[0])
        channel_loc, channel_scale = normalisation_statistics(X, self.norm)
        fitted = {
            "n_features_in_": X.shape[1],
            "n_timepoints_in_": X.shape[2],
            "pos_weight_": pos_weight,
            "channel_loc_": channel_loc,
            "channel_scale_": channel_scale,
        }
        return self._fit_net(fitted, X, packed, seed=self._torch_seed(), groups=groups)

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.backbone

    @property
    def _n_features_out(self):
        n_channels = getattr(self, "n_features_in_", 1)
        return self.d_model * n_channels if self.channel_pooling == "concat" else self.d_model

    def transform(self, X):
        """Frozen embeddings of windows: per-channel states pooled by ``channel_pooling``, float32."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.three_d_array = True
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
    d_model : int, default=256
        Token width (HEPA's, so the encoders have matched capacity).
    n_layers : int, default=2
    n_heads : int, default=4
        Attention heads; must divide ``d_model``.
    dim_feedforward : int, default=256
    patch_size : int, default=16
        Steps per patch (P = 16 in PatchTST and HEPA).
    patch_stride : int, default=8
        Steps between the starts of consecutive patches (PatchTST's S = 8;
        ``patch_stride=patch_size`` gives non-overlapping patches).
    dropout : float, default=0.1
    channel_pooling : {"mean", "concat"}, default="mean"
        How ``transform`` combines the per-channel states.
    norm : {"revin", "global", "none"}, default="revin"
        Per-window, per-channel instance normalisation (RevIN, as
        PatchTST), per-channel statistics learned in ``fit``, or raw values.
    %(supervised_head_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
    encoder_ : torch.nn.Module
        The fitted :class:`~hepa_sklearn.nn.baselines.PatchTSTBackbone`.
    history_ : skorch.History
    pos_weight_ : float
    n_epochs_ : int
    %(window_shape_attributes)s
    channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
        Statistics of ``norm="global"`` (0 and 1 for the other modes).

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

    def __init__(
        self,
        *,
        # the encoder (Nie et al. 2023, at HEPA's width)
        d_model=256, n_layers=2, n_heads=4, dim_feedforward=256, patch_size=16, patch_stride=8, dropout=0.1,
        channel_pooling="mean", norm="revin",
        # the end-to-end training head and its loss
        K=150, hidden=256, horizon_rows=PAPER_HORIZON_ROWS, loss="bce", pos_weight="auto",
        # the training parameters every torch-backed estimator shares (see _base.TorchEstimator)
        max_epochs=50, batch_size=64, lr=3e-4, weight_decay=1e-2,
        early_stopping=True, validation_fraction=0.1, n_iter_no_change=10,
        device="auto", precision="auto", random_state=None, verbose=0, callbacks=None, distributed="auto",
    ):
        store_parameters(self, locals())

    _parameter_constraints = {
        **SupervisedWindowEncoder._parameter_constraints,
        "patch_size": [POSITIVE_INT],
        "patch_stride": [POSITIVE_INT],
    }

    def _backbone(self, fitted):
        config = self._encoder_config(fitted["n_features_in_"], self.patch_size)
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
    d_model : int, default=256
        Token width (HEPA's, so the encoders have matched capacity).
    n_layers : int, default=2
    n_heads : int, default=4
        Attention heads; must divide ``d_model``.
    dim_feedforward : int, default=256
    dropout : float, default=0.1
    channel_pooling : {"mean", "concat"}, default="mean"
        How ``transform`` combines the variate tokens.
    norm : {"revin", "global", "none"}, default="revin"
        Per-window, per-channel normalisation (as iTransformer), per-channel
        statistics learned in ``fit``, or raw values.
    %(supervised_head_parameters)s
    %(training_parameters)s

    Attributes
    ----------
    net_ : skorch.NeuralNet
    encoder_ : torch.nn.Module
        The fitted :class:`~hepa_sklearn.nn.baselines.VariateTransformer`.
    history_ : skorch.History
    pos_weight_ : float
    n_epochs_ : int
    %(window_shape_attributes)s
    channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
        Statistics of ``norm="global"`` (0 and 1 for the other modes).

    See Also
    --------
    PatchTSTEncoder : channel-independent patches instead.
    MatchedHeadPredictor : the head the paper trains on the frozen embeddings.

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

    def __init__(
        self,
        *,
        # the encoder (Liu et al. 2024, at HEPA's width)
        d_model=256, n_layers=2, n_heads=4, dim_feedforward=256, dropout=0.1,
        channel_pooling="mean", norm="revin",
        # the end-to-end training head and its loss
        K=150, hidden=256, horizon_rows=PAPER_HORIZON_ROWS, loss="bce", pos_weight="auto",
        # the training parameters every torch-backed estimator shares (see _base.TorchEstimator)
        max_epochs=50, batch_size=64, lr=3e-4, weight_decay=1e-2,
        early_stopping=True, validation_fraction=0.1, n_iter_no_change=10,
        device="auto", precision="auto", random_state=None, verbose=0, callbacks=None, distributed="auto",
    ):
        store_parameters(self, locals())

    _check_input = check_fixed_length_windows

    def _backbone(self, fitted):
        return "itransformer", self._encoder_config(fitted["n_features_in_"]), {"n_timepoints": fitted["n_timepoints_in_"]}
