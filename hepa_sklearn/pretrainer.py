"""HEPAPretrainer: self-supervised JEPA pretraining of the causal patch encoder."""

import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np
import torch
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._base import TorchEstimator, store_parameters
from ._docs import fill_doc
from ._stats import merge_moments, nan_mean_std
from ._training.runtime import as_fp32, seeded_torch
from ._training.callbacks import HeldOutRank
from ._training import CollapseMonitor, CutSampler, JEPACriterion, JEPANet, TargetEMA, WindowDataset, make_net
from ._validation import (
    POSITIVE_INT, UNIT, Interval, StrOptions, WindowTransformerTags, check_groups, check_windows, row_chunks,
)
from .nn.encoder import NORM_MODES, TOKEN_MODES, EncoderConfig
from .nn.jepa import JEPA

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

    In float64 over chunks of windows, merged exactly: right for magnitudes
    whose squares overflow float32 (above about 1.8e19), with memory bounded
    by the chunk. A channel with zero spread, or none observed, gets scale 1
    (and location 0 when unobserved), so it is centred but not blown up.
    """
    moments = None
    for part in row_chunks(X, STATISTICS_CHUNK):
        chunk = nan_mean_std(part, axis=(0, 2))
        moments = chunk if moments is None else merge_moments(moments, chunk)
    mean, std, count = moments
    loc = np.where(count > 0, mean, 0.0)
    scale = np.where((count > 0) & np.isfinite(std) & (std > 0), std, 1.0)
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


# Cuts of one window per block in the "packed" layout. A 64-cut FD001 batch
# on one CPU thread takes 205 ms per step with every cut drawn independently
# (about 40 windows, one context pass each), 94 ms with blocks of 8 and 91 ms
# with blocks of 32; 8 keeps batches spread over at least 8 windows.
CUT_BLOCK = 8


@fill_doc
class HEPAPretrainer(WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, TorchEstimator):
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
    tokens : {"patch", "channel"}, default="patch"
        ``"patch"``: one token per patch holding all channels of its steps
        (the paper). ``"channel"``: each channel is its own stream of patch
        tokens (a shared projection plus a learned channel embedding),
        encoded separately and averaged per patch position over the
        channels observed there, for data whose events show in a few
        channels (the paper's "sensor-as-token" outlook, after
        iTransformer and PatchTST). The JEPA objective is unchanged; the
        encoder costs about ``n_channels`` times more.
    max_horizon : int, default=150
        Largest Δt drawn in pretraining.
    horizons : {"log-uniform", "uniform"}, default="log-uniform"
        Distribution of Δt in pretraining: LogUniform[1, max_horizon] (the
        paper; most targets are a few steps long) or uniform over
        1..max_horizon (long targets as often as short ones).
    predictor_hidden : int, default=256
        Hidden width of the horizon predictor MLP.
    sigreg_weight : float, default=0.1
        α in ``(1-α)·L1 + α·regulariser`` (SIGReg by default).
    n_projections : int, default=256
        Random directions per SIGReg evaluation.
    regularizer : {"sigreg", "vicreg"}, default="sigreg"
        Collapse regulariser on the predictions: SIGReg (the paper) or a
        VICReg-style variance + covariance term (the authors' code).
    regularize : {"predictions", "context", "both", "within"}, default="predictions"
        What the regulariser keeps spread out: the predictions ĥ (the
        paper), the context representations h_t that ``transform`` returns,
        or both (the mean of the two terms). ``"within"`` averages the term
        on the predictions with the term on h_t centred within each window
        (its cuts in the batch, minus their mean), so that the
        representation must keep changing along a window and cannot settle
        on what stays constant in it, such as which unit it comes from; it
        needs ``batch_layout="packed"``, ``cuts_per_window >= 2`` and a
        normalisation other than ``"revin"``, which put several cuts of a
        window in each batch.
    objective : {"representation", "change"}, default="representation"
        What the predictor learns: the target interval's representation h*
        (the paper), or its change from the context, ``h* - h_t``, so that
        what a window's past and future share (for one, which unit it comes
        from) cancels out of the target; the regulariser then keeps the
        predicted changes spread out.
    target : {"shared", "ema"}, default="shared"
        Target path: the context encoder's own weights, trained by both paths
        (the paper), or an EMA copy without gradient.
    ema_momentum : float, default=0.996
        Momentum of the EMA target encoder (``target="ema"`` only).
    cuts_per_window : int, default=1
        (cut, Δt) pairs drawn from each window per epoch. With one long
        window per unit this reproduces the reference protocol's "40 random
        cuts per sequence per epoch".
    batch_layout : {"packed", "padded"}, default="packed"
        How a training batch is laid out for computation. ``"packed"``:
        the tokens of all target intervals are packed without padding, and
        with ``cuts_per_window > 1`` and a shareable context pass
        (``norm="global"`` or ``"none"``) the cuts of one window come in
        shuffled blocks of 8 that share one causal pass (each cut keeps its
        own (cut, Δt) draw). ``"padded"``: every item of a batch is drawn
        independently and targets are encoded in padded groups, the layout
        of version 0.1 with which the published C-MAPSS results were
        computed. Both optimise the same objective; docs/speed.md gives
        the speed of each and the event predictors they lead to. With
        ``tokens="channel"`` targets are always encoded in padded groups.
    norm : {"revin", "global", "none"}, default="revin"
        ``"revin"`` normalises each context by its own per-channel statistics;
        ``"global"`` uses per-channel statistics learned in ``fit`` (the
        C-MAPSS protocol, which keeps the absolute degradation level);
        ``"none"`` feeds raw values.
    early_stopping_score : {"loss", "rank"}, default="loss"
        What early stopping watches on the held-out windows (with
        ``early_stopping=True``; both are recorded in ``history_``):
        ``"loss"``, the JEPA loss ``valid_loss`` (lower is better), or
        ``"rank"``, the effective rank of their embeddings ``valid_rank``
        (higher is better). Neither needs labels; the user guide's "Does
        pretraining pay?" shows how each tracked the event predictor on
        C-MAPSS FD001.
    lr_schedule : {"cosine", "constant"}, default="cosine"
        ``"cosine"`` anneals ``lr`` to 0 over ``max_epochs`` (the paper's
        schedule); ``"constant"`` keeps ``lr`` for every epoch, so that the
        weights at an early epoch do not depend on how many epochs the
        run was set to last.
    %(training_parameters)s

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
        stopping (and ``valid_rank``, see ``early_stopping_score``), ``train_spread`` (about 1 for well spread predictions, 0 at
        collapse) and ``collapse`` (True when the spread fell below 0.05,
        which also raises a RuntimeWarning).
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early stopping
        or an interruption).
    %(window_shape_attributes)s
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
        # the encoder (paper §3.1)
        d_model=256, n_layers=2, n_heads=4, dim_feedforward=256, patch_size=16, dropout=0.1, tokens="patch",
        # the pretraining objective (paper §3.1) and its variants
        max_horizon=150, horizons="log-uniform", predictor_hidden=256, sigreg_weight=0.1, n_projections=256, regularizer="sigreg",
        regularize="predictions", objective="representation",
        target="shared", ema_momentum=0.996, cuts_per_window=1, batch_layout="packed", norm="revin", early_stopping_score="loss",
        lr_schedule="cosine",
        # the training parameters every torch-backed estimator shares (see _base.TorchEstimator)
        max_epochs=100, batch_size=64, lr=3e-4, weight_decay=1e-2,
        early_stopping=True, validation_fraction=0.1, n_iter_no_change=10,
        device="auto", precision="auto", random_state=None, verbose=0, callbacks=None, distributed="auto",
    ):
        store_parameters(self, locals())

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        "d_model": [POSITIVE_INT],
        "n_layers": [POSITIVE_INT],
        "n_heads": [POSITIVE_INT],
        "dim_feedforward": [POSITIVE_INT],
        "patch_size": [POSITIVE_INT],
        "dropout": [Interval(Real, 0, 1, closed="left")],
        "tokens": [StrOptions(set(TOKEN_MODES))],
        "max_horizon": [POSITIVE_INT],
        "horizons": [StrOptions({"log-uniform", "uniform"})],
        "predictor_hidden": [POSITIVE_INT],
        "sigreg_weight": [UNIT],
        "n_projections": [POSITIVE_INT],
        "regularizer": [StrOptions({"sigreg", "vicreg"})],
        "regularize": [StrOptions({"predictions", "context", "both", "within"})],
        "objective": [StrOptions({"representation", "change"})],
        "target": [StrOptions({"shared", "ema"})],
        "ema_momentum": [UNIT],
        "cuts_per_window": [POSITIVE_INT],
        "batch_layout": [StrOptions({"packed", "padded"})],
        "norm": [StrOptions(set(NORM_MODES))],
        "early_stopping_score": [StrOptions({"loss", "rank"})],
        "lr_schedule": [StrOptions({"cosine", "constant"})],
    }
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_")
    _check_input = check_windows

    def _check_hyperparameters(self):
        self._validate_params()
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}."
            )
        if self.regularize == "within" and (self._cut_block() == 1 or self.cuts_per_window < 2):
            raise ValueError(
                "regularize='within' needs several cuts of a window in each batch: batch_layout='packed', "
                f"cuts_per_window >= 2 and norm other than 'revin' (got batch_layout={self.batch_layout!r}, "
                f"cuts_per_window={self.cuts_per_window}, norm={self.norm!r})."
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
            tokens=self.tokens,
        )
        return PretrainConfig(
            encoder=encoder,
            predictor_hidden=self.predictor_hidden,
            max_horizon=self.max_horizon,
            sigreg_weight=float(self.sigreg_weight),
            n_projections=self.n_projections,
        )

    def _cut_block(self):
        """Cuts of one window kept together in a training batch (see ``batch_layout``)."""
        shareable = self.norm != "revin"  # RevIN statistics depend on the cut
        return CUT_BLOCK if self.batch_layout == "packed" and shareable else 1

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        config = self._config(fitted["n_features_in_"])
        patch, horizon = config.encoder.patch_size, config.max_horizon
        scores = [f"{part}_{term}" for part in ("train", "valid") for term in ("l1", self.regularizer)]
        callbacks = [("collapse_monitor", CollapseMonitor())]
        if self.target == "ema":
            callbacks.append(("target_ema", TargetEMA(self.ema_momentum)))
        return make_net(
            JEPANet,
            JEPA,
            JEPACriterion,
            training=self._training_config(),
            params={
                "module__config": config.encoder,
                "module__predictor_hidden": config.predictor_hidden,
                "module__max_horizon": horizon,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
                "module__target": self.target,
                "criterion__alpha": config.sigreg_weight,
                "criterion__n_projections": config.n_projections,
                "criterion__regularizer": self.regularizer,
                "criterion__regularize": self.regularize,
                "criterion__objective": self.objective,
                "module__packed": self.batch_layout == "packed",
                "cut_block": self._cut_block(),
            },
            device=device,
            collate=(CutSampler(patch, horizon, seed, horizons=self.horizons),
                     CutSampler(patch, horizon, seed, fixed=True, horizons=self.horizons)),
            extra_scores=(*scores, "train_spread"),
            callbacks=callbacks,
            scoring=[("valid_rank", HeldOutRank())],
            monitor=("valid_rank", False) if self.early_stopping_score == "rank" else ("valid_loss", True),
            lr_schedule=self.lr_schedule,
        )

    @fill_doc
    def fit(self, X, y=None, groups=None):
        """Pretrain on windows ``X`` (n_windows, n_channels, n_timepoints); ``y`` is ignored.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows (n_windows,
            n_timepoints). NaN marks missing values and left padding.
        y : None
            Ignored.
        %(fit_groups)s
            Each window's label covers its ``cuts_per_window`` (cut, Δt)
            pairs.

        Returns
        -------
        self : HEPAPretrainer
        """
        self._check_hyperparameters()
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        check_pretrainable(X, self.patch_size)
        seed = self._torch_seed()
        if self.norm == "global":
            channel_loc, channel_scale = global_statistics(X)
        else:
            channel_loc = np.zeros(X.shape[1], dtype=np.float32)
            channel_scale = np.ones(X.shape[1], dtype=np.float32)
        fitted = {
            "n_features_in_": X.shape[1],
            "n_timepoints_in_": X.shape[2],
            "channel_loc_": channel_loc,
            "channel_scale_": channel_scale,
        }
        if groups is not None:
            groups = np.repeat(groups, self.cuts_per_window)  # item i of the dataset is window i // cuts_per_window
        return self._fit_net(fitted, WindowDataset(X, self.cuts_per_window), seed=seed, groups=groups)

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def predictor_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.predictor

    @property
    def _n_features_out(self):
        return self.d_model

    def pretraining_loss(self, X, *, cuts_per_window=None, seed=0):
        """The JEPA objective on windows ``X`` at fixed draws, no labels needed: held-out ε.

        Every window gets ``cuts_per_window`` (default: the fitted value)
        (cut, Δt) pairs, each drawn from ``(seed, item)`` alone, and SIGReg's
        random directions come from ``seed`` too, so two encoders are scored
        on the same pairs and the value is reproducible. Batches of ``batch_size`` in
        input order, the module in eval mode (no dropout).

        Returns
        -------
        loss : dict
            ``"loss"`` (the training objective), ``"l1"`` and the
            regulariser's term, each averaged over batches weighted by
            their usable pairs; ``"n_pairs"``, the usable pairs.
        """
        X = self._validated_input(X)
        repeats = self.cuts_per_window if cuts_per_window is None else cuts_per_window
        if not isinstance(repeats, int) or isinstance(repeats, bool) or repeats < 1:
            raise ValueError(f"cuts_per_window must be an int >= 1, got {repeats!r}.")
        net, criterion = self.net_, self.net_.criterion_
        sampler = CutSampler(self.patch_size, self.max_horizon, seed, fixed=True, horizons=self.horizons)
        dataset = WindowDataset(X, repeats)
        device = next(net.module_.parameters()).device
        net.module_.eval()
        sums, total = {}, 0.0
        with torch.no_grad(), seeded_torch(seed, device):  # SIGReg draws its directions from torch
            for start in range(0, len(dataset), self.batch_size):
                inputs, _ = sampler([dataset[i] for i in range(start, min(start + self.batch_size, len(dataset)))])
                inputs = {name: value.to(device) for name, value in inputs.items()}
                output = as_fp32(net.module_(**inputs))
                n = float((output[2] > 0).sum())
                if n < 2:
                    continue
                terms = {"loss": float(criterion(output)), **criterion.last_terms}
                terms.pop("spread", None)
                for name, value in terms.items():
                    sums[name] = sums.get(name, 0.0) + n * value
                total += n
        if not total:
            raise ValueError("no window of X holds two usable (cut, horizon) pairs; nothing to score.")
        return {**{name: value / total for name, value in sums.items()}, "n_pairs": int(total)}

    def score(self, X, y=None):
        """Minus the held-out JEPA loss of :meth:`pretraining_loss`: higher is better; ``y`` is ignored.

        Lets label-free model selection (``GridSearchCV`` on the pretrainer
        alone) compare encoders on held-out windows.
        """
        return -self.pretraining_loss(X)["loss"]

    def transform(self, X):
        """Embed windows: ``h_t`` of each window's last observed patch, shape (n_windows, d_model)."""
        return self._infer(self._validated_input(X), "transform", forward=lambda module: module.embed)
