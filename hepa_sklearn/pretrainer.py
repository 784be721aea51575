"""HEPAPretrainer: self-supervised JEPA pretraining of the causal patch encoder."""

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from ._training import (
    PRECISIONS,
    CutSampler,
    JEPACriterion,
    CollapseMonitor,
    JEPANet,
    TargetEMA,
    WindowDataset,
    check_finite_output,
    infer_in_chunks,
    make_net,
    report_interruption,
    resolve_device,
)
from ._validation import boolean, check_params, check_windows, integer, one_of, real, row_chunks, seeded_torch
from .nn.encoder import NORM_MODES, EncoderConfig
from .nn.jepa import JEPA

# transform() embeds windows in chunks of this many: memory stays bounded by the chunk
INFERENCE_CHUNK = 128


@dataclass(frozen=True)
class PretrainConfig:
    encoder: EncoderConfig
    predictor_hidden: int
    max_horizon: int
    sigreg_weight: float
    n_projections: int


# global_statistics reads this many windows at a time in float64
STATISTICS_CHUNK = 1024


def global_statistics(X):
    """Per-channel mean and standard deviation over the observed values of ``X`` (n, C, L).

    Two passes in float64 over chunks of windows: exact for magnitudes whose
    squares overflow float32 (above about 1.8e19), with memory bounded by
    the chunk. A channel with zero spread, or none observed, gets scale 1
    (and location 0 when unobserved), so it is centred but not blown up.
    """
    count = np.zeros(X.shape[1])
    total = np.zeros(X.shape[1])
    for part in row_chunks(X, STATISTICS_CHUNK):
        part = part.astype(np.float64)
        count += np.sum(~np.isnan(part), axis=(0, 2))
        total += np.nansum(part, axis=(0, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        loc = np.where(count > 0, total / count, 0.0)
    squares = np.zeros(X.shape[1])
    for part in row_chunks(X, STATISTICS_CHUNK):
        part = part.astype(np.float64)
        squares += np.nansum(np.square(part - loc[None, :, None]), axis=(0, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.sqrt(np.where(count > 0, squares / count, 1.0))
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    return loc.astype(np.float32), scale.astype(np.float32)


def check_pretrainable(X, patch_size):
    """Raise when no window has a (cut, horizon) pair; warn about the windows that have none.

    A cut is a patch boundary with at least one observed step before it and
    the target after it, so a window needs more than ``patch_size`` steps
    from its first observation to its end.
    """
    # steps from the first observation to the end of each window
    span = np.concatenate([X.shape[2] - (~np.isnan(part).all(axis=1)).argmax(axis=1) for part in row_chunks(X)])
    unusable = int(np.sum(span <= patch_size))
    if unusable == X.shape[0]:
        raise ValueError(
            f"No window can be pretrained on: each needs more than patch_size={patch_size} steps "
            f"from its first observed value to its end, and the longest here has {int(span.max())}."
        )
    if unusable:
        warnings.warn(
            f"{unusable} of {X.shape[0]} windows have at most patch_size={patch_size} steps from "
            "their first observed value to their end; they hold no (cut, horizon) pair and add "
            "nothing to pretraining.",
            UserWarning,
            stacklevel=3,
        )


class HEPAPretrainer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Pretrain a causal patch Transformer by JEPA and embed windows.

    ``fit(X)`` learns, without labels, to predict the representation of the
    future interval ``(t, t+Δt]`` from the representation ``h_t`` of the past,
    for cuts ``t`` and horizons ``Δt ~ LogUniform[1, max_horizon]`` drawn
    inside each window; the target comes from the same encoder run without
    causal mask plus attention pooling, and SIGReg keeps the predictions
    from collapsing. ``transform(X)`` returns ``h_t`` at each window's end.

    Parameters
    ----------
    d_model : int, default=256
        Token width.
    n_layers : int, default=2
        Transformer blocks.
    n_heads : int, default=4
        Attention heads; must divide ``d_model``.
    dim_feedforward : int, default=256
        Width of each block's feed-forward layer.
    patch_size : int, default=16
        Steps per token (all channels of those steps form one token).
    dropout : float, default=0.1
    max_horizon : int, default=150
        Largest Δt drawn in pretraining.
    predictor_hidden : int, default=256
        Hidden width of the horizon predictor MLP.
    sigreg_weight : float, default=0.1
        α in ``(1-α)·L1 + α·regulariser`` (SIGReg by default).
    n_projections : int, default=256
        Random directions per SIGReg evaluation.
    regularizer : {"sigreg", "vicreg"}, default="sigreg"
        Collapse regulariser on the predictions: SIGReg (the paper) or a
        VICReg-style variance + covariance term (the authors' code).
    target : {"shared", "ema"}, default="shared"
        Target path: the context encoder's own weights, trained by both paths
        (the paper), or an EMA copy without gradient.
    ema_momentum : float, default=0.996
        Momentum of the EMA target encoder (``target="ema"`` only).
    cuts_per_window : int, default=1
        (cut, Δt) pairs drawn from each window per epoch. With one long
        window per unit this reproduces the reference protocol's "40 random
        cuts per sequence per epoch".
    norm : {"revin", "global", "none"}, default="revin"
        ``"revin"`` normalises each context by its own per-channel statistics;
        ``"global"`` uses per-channel statistics learned in ``fit`` (the
        C-MAPSS protocol, which keeps the absolute degradation level);
        ``"none"`` feeds raw values.
    max_epochs : int, default=100
    batch_size : int, default=64
    lr : float, default=3e-4
        AdamW learning rate, annealed by a cosine schedule over ``max_epochs``.
    weight_decay : float, default=1e-2
    early_stopping : bool, default=True
        Hold out the last ``validation_fraction`` of windows (input order)
        and stop when their loss has not improved for ``n_iter_no_change``
        epochs, keeping the best weights.
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=10
    device : str, default="auto"
        ``"auto"`` (CUDA when torch sees a GPU, else CPU), ``"cpu"``,
        ``"cuda"`` or any torch device string.
    precision : {"auto", "bf16", "fp32"}, default="auto"
        ``"bf16"`` runs forward passes under bf16 autocast (weights,
        optimiser state and losses stay fp32); ``"auto"`` means bf16 on CUDA
        and fp32 on CPU.
    random_state : int, RandomState instance or None, default=None
        Seeds weights, shuffling, cuts and SIGReg directions; a fixed value
        gives identical results on CPU.
    verbose : int, default=0
        Print skorch's per-epoch table when positive.

    Attributes
    ----------
    net_ : skorch.NeuralNet
        The fitted net; its ``module_`` holds encoder, target pooling and predictor.
    encoder_ : torch.nn.Module
        Fitted causal patch encoder.
    predictor_ : torch.nn.Module
        Fitted horizon predictor.
    history_ : skorch.History
        Per epoch: the losses ``train_loss``, ``train_l1`` and
        ``train_sigreg`` (or ``train_vicreg``), ``valid_*`` with early
        stopping, ``train_spread`` (about 1 for well spread predictions, 0 at
        collapse) and ``collapse`` (True when the spread fell below 0.05,
        which also raises a RuntimeWarning).
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early stopping
        or an interruption).
    n_features_in_ : int
        Number of channels seen in ``fit``.
    n_timepoints_in_ : int
        Window length seen in ``fit``.
    channel_loc_, channel_scale_ : ndarray of shape (n_channels,)
        Statistics of ``norm="global"`` (0 and 1 for the other modes).

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAPretrainer
    >>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, max_horizon=16,
    ...                      random_state=0).fit(X)
    >>> pre.transform(X).shape
    (32, 16)
    """

    def __init__(
        self,
        *,
        d_model=256,
        n_layers=2,
        n_heads=4,
        dim_feedforward=256,
        patch_size=16,
        dropout=0.1,
        max_horizon=150,
        predictor_hidden=256,
        sigreg_weight=0.1,
        n_projections=256,
        regularizer="sigreg",
        target="shared",
        ema_momentum=0.996,
        cuts_per_window=1,
        norm="revin",
        max_epochs=100,
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
    ):
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.dim_feedforward = dim_feedforward
        self.patch_size = patch_size
        self.dropout = dropout
        self.max_horizon = max_horizon
        self.predictor_hidden = predictor_hidden
        self.sigreg_weight = sigreg_weight
        self.n_projections = n_projections
        self.regularizer = regularizer
        self.target = target
        self.ema_momentum = ema_momentum
        self.cuts_per_window = cuts_per_window
        self.norm = norm
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

    _parameter_rules = {
        "d_model": integer(1),
        "n_layers": integer(1),
        "n_heads": integer(1),
        "dim_feedforward": integer(1),
        "patch_size": integer(1),
        "dropout": real(0.0, 1.0, high_open=True),
        "max_horizon": integer(1),
        "predictor_hidden": integer(1),
        "sigreg_weight": real(0.0, 1.0),
        "n_projections": integer(1),
        "regularizer": one_of("sigreg", "vicreg"),
        "target": one_of("shared", "ema"),
        "ema_momentum": real(0.0, 1.0),
        "cuts_per_window": integer(1),
        "norm": one_of(*NORM_MODES),
        "max_epochs": integer(1),
        "batch_size": integer(1),
        "lr": real(0.0, low_open=True),
        "weight_decay": real(0.0),
        "early_stopping": boolean(),
        "validation_fraction": real(0.0, 1.0, low_open=True, high_open=True),
        "n_iter_no_change": integer(1),
        "precision": one_of(*PRECISIONS),
    }

    def _check_hyperparameters(self):
        check_params(self, self._parameter_rules)
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}."
            )

    def _config(self, n_channels):
        encoder = EncoderConfig(
            n_channels=n_channels,
            d_model=self.d_model,
            n_layers=self.n_layers,
            n_heads=self.n_heads,
            dim_feedforward=self.dim_feedforward,
            patch_size=self.patch_size,
            dropout=float(self.dropout),
            norm=self.norm,
        )
        return PretrainConfig(
            encoder=encoder,
            predictor_hidden=self.predictor_hidden,
            max_horizon=self.max_horizon,
            sigreg_weight=float(self.sigreg_weight),
            n_projections=self.n_projections,
        )

    def _build_net(self, n_channels, channel_loc, channel_scale, seed, device):
        """The skorch net for windows of ``n_channels`` channels, not yet initialised.

        ``fit`` trains it; :func:`hepa_sklearn.persistence.load` fills it with saved weights.
        """
        config = self._config(n_channels)
        patch, horizon = config.encoder.patch_size, config.max_horizon
        scores = [f"{part}_{term}" for part in ("train", "valid") for term in ("l1", self.regularizer)]
        callbacks = [("collapse_monitor", CollapseMonitor())]
        if self.target == "ema":
            callbacks.append(("target_ema", TargetEMA(self.ema_momentum)))
        return make_net(
            JEPANet,
            JEPA,
            JEPACriterion,
            params={
                "module__config": config.encoder,
                "module__predictor_hidden": config.predictor_hidden,
                "module__max_horizon": horizon,
                "module__channel_loc": channel_loc,
                "module__channel_scale": channel_scale,
                "module__target": self.target,
                "criterion__alpha": config.sigreg_weight,
                "criterion__n_projections": config.n_projections,
                "criterion__regularizer": self.regularizer,
            },
            estimator=self,
            device=device,
            collate_train=CutSampler(patch, horizon, seed),
            collate_valid=CutSampler(patch, horizon, seed, fixed=True),
            extra_scores=(*scores, "train_spread"),
            callbacks=callbacks,
        )

    def fit(self, X, y=None):
        """Pretrain on windows ``X`` (n_windows, n_channels, n_timepoints); ``y`` is ignored.

        2-D ``X`` is read as single-channel windows (n_windows, n_timepoints).
        NaN marks missing values and left padding.
        """
        self._check_hyperparameters()
        X = check_windows(self, X, reset=True)
        check_pretrainable(X, self.patch_size)
        seed = check_random_state(self.random_state).randint(np.iinfo(np.int32).max)
        if self.norm == "global":
            channel_loc, channel_scale = global_statistics(X)
        else:
            channel_loc = np.zeros(X.shape[1], dtype=np.float32)
            channel_scale = np.ones(X.shape[1], dtype=np.float32)
        device = resolve_device(self.device)
        net = self._build_net(X.shape[1], channel_loc, channel_scale, seed, device)
        with seeded_torch(seed, device):
            net.fit(WindowDataset(X, self.cuts_per_window), None)
        # fitted state is written only once training has succeeded
        self.n_epochs_ = report_interruption(self, net)
        self.n_features_in_, self.n_timepoints_in_ = X.shape[1], X.shape[2]
        self.channel_loc_, self.channel_scale_ = channel_loc, channel_scale
        self.net_ = net
        return self

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def predictor_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.predictor

    @property
    def history_(self):
        check_is_fitted(self, "net_")
        return self.net_.history

    @property
    def _n_features_out(self):
        return self.d_model

    def transform(self, X):
        """Embed windows: ``h_t`` of each window's last observed patch, shape (n_windows, d_model)."""
        check_is_fitted(self, "net_")
        X = check_windows(self, X, reset=False)
        module = self.net_.module_
        dtype = self.net_.autocast_dtype
        return check_finite_output(
            infer_in_chunks(module, module.embed, X, INFERENCE_CHUNK, dtype=dtype).numpy(), "transform"
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.three_d_array = True
        tags.transformer_tags.preserves_dtype = ["float32"]
        tags.target_tags.required = False
        tags.non_deterministic = self.random_state is None
        return tags
