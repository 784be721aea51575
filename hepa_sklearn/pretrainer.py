"""HEPAPretrainer: self-supervised JEPA pretraining of the causal patch encoder."""

from dataclasses import replace

import numpy as np
import torch
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._base import NET_NORM, TorchEstimator, WindowEncoderMixin, store_parameters
from ._stats import RECENT_STEPS, nan_mean_std, window_level
from ._docs import fill_doc
from ._training import (
    CollapseMonitor, CutSampler, JEPACriterion, JEPANet, TargetEMA, WindowDataset, check_pretrainable, make_net,
    window_attributes,
)
from ._training.callbacks import HeldOutRank
from ._training.runtime import as_fp32, seeded_torch
from ._validation import (
    ENCODER_CONSTRAINTS, NON_NEGATIVE_INT, POSITIVE_INT, UNIT, StrOptions, WindowTransformerTags, check_groups,
    check_windows,
)
from .nn.encoder import NORM_MODES, TOKEN_MODES
from .nn.jepa import JEPA
from .preprocessing import CHUNK, normalise_steps, window_regimes

__all__ = ["HEPAPretrainer", "WindowPretrainer"]

# Cuts of one window per block of a batch that share one context pass: a 64-cut FD001 step on one CPU thread
# takes 205 ms with every cut drawn independently, 94 ms with blocks of 8, 91 ms with blocks of 32; 8 keeps
# batches spread over at least 8 windows.
CUT_BLOCK = 8

# the fitted attributes of norm="regime" or "auto" (None with any other norm, or when one regime is found)
REGIME_ATTRIBUTES = ("regime_centers_", "regime_loc_", "regime_scale_")
# the fitted statistics of the window level that norm="auto" appends to the embedding (None otherwise)
LEVEL_ATTRIBUTES = ("level_loc_", "level_scale_")


class WindowPretrainer(WindowTransformerTags, ClassNamePrefixFeaturesOutMixin, TransformerMixin, WindowEncoderMixin,
                       TorchEstimator):
    """What HEPA's and MAE's pretrainers share: label-free training of an encoder on windows, which ``transform`` embeds.

    A subclass builds its net (``_build_net``, whose module has ``encoder``
    and ``embed``) and turns the checked windows into the training dataset
    (``_pretraining_data``). ``max_epochs=0`` is allowed: the encoder then
    keeps its initial weights.
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        **ENCODER_CONSTRAINTS,
        "max_epochs": [NON_NEGATIVE_INT],
    }
    # the window level norm="auto" appends (window_level's arguments): per channel the mean over the window and its end
    _level = {"spans": (None, RECENT_STEPS), "spread": False, "slope": False}
    _fitted_attributes = ("n_features_in_", "n_timepoints_in_", "channel_loc_", "channel_scale_", *REGIME_ATTRIBUTES,
                          *LEVEL_ATTRIBUTES)

    def _find_regimes(self, X):
        """The fitted regime attributes of ``norm="regime"`` learned from windows ``X``; None each otherwise.

        ``regime_centers_`` (R, C) are the regime centres in globally
        standardised channels; ``regime_loc_`` and ``regime_scale_`` (R + 1, C)
        each regime's channel statistics, row R the global ones. All None
        when the norm is another or the data shows a single regime (the
        global z-score then does the same).
        """
        found = window_regimes(X, self._torch_seed(), self.norm) if self.norm in NET_NORM else None
        return dict.fromkeys(REGIME_ATTRIBUTES) if found is None else dict(zip(REGIME_ATTRIBUTES, found))

    def _by_regime(self, X, regimes=None):
        """Windows ``X`` with each step standardised by its regime (``norm="regime"``/``"auto"``, regimes found), else ``X``."""
        regimes = regimes or {name: getattr(self, name, None) for name in REGIME_ATTRIBUTES}
        if regimes["regime_centers_"] is None:
            return X
        channels = np.arange(X.shape[1])
        loc, scale = regimes["regime_loc_"], regimes["regime_scale_"]
        out = np.empty(X.shape, dtype=np.float32)
        for start in range(0, X.shape[0], CHUNK):
            out[start : start + CHUNK] = normalise_steps(X[start : start + CHUNK].astype(np.float64), channels,
                                                         channels, loc[-1], scale[-1], regimes["regime_centers_"],
                                                         loc, scale)[0]
        return out

    def _validated_input(self, X):
        return self._by_regime(super()._validated_input(X))

    def _pretraining_data(self, X, groups):
        """The training dataset of checked windows ``X`` and the unit label of each of its items (or None)."""
        return WindowDataset(X), groups

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

        Returns
        -------
        self : object
            The fitted pretrainer.

        %(fit_interruption)s
        """
        self._check_hyperparameters()
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        regimes = self._find_regimes(X)
        X = self._by_regime(X, regimes)
        dataset, groups = self._pretraining_data(X, groups)
        fitted = {**window_attributes(X, NET_NORM.get(self.norm, self.norm)), **regimes, **self._level_statistics(X)}
        return self._fit_net(fitted, dataset, seed=self._torch_seed(), groups=groups)

    def _level_statistics(self, X):
        """``level_loc_``/``level_scale_``: the training windows' level statistics under ``norm="auto"``, else None."""
        if self.norm != "auto":
            return dict.fromkeys(LEVEL_ATTRIBUTES)
        loc, scale, _ = nan_mean_std(window_level(X, **self._level), axis=0)
        return {"level_loc_": np.nan_to_num(loc), "level_scale_": np.where(scale > 0, scale, 1.0)}

    def transform(self, X):
        """Embed windows ``X`` (n_windows, n_channels, n_timepoints); under ``norm="auto"`` the window level follows.

        The level is each channel's mean over the window and over its last
        30 steps (of the regime-standardised window where regimes were
        found), standardised by the training windows' statistics, 0 where a
        channel is not observed: what RevIN takes out of the embedding is
        passed on beside it.
        """
        X = self._validated_input(X)
        E = self._infer(X, "transform", forward=lambda module: module.embed)
        if getattr(self, "level_loc_", None) is None:
            return E
        level = np.nan_to_num((window_level(X, **self._level) - self.level_loc_) / self.level_scale_)
        return np.hstack([E, level.astype(np.float32)])

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def _n_features_out(self):
        level = getattr(self, "level_loc_", None)
        return self.d_model + (0 if level is None else level.shape[0])


@fill_doc
class HEPAPretrainer(WindowPretrainer):
    """Pretrain a causal patch Transformer by JEPA and embed windows.

    ``fit(X)`` learns, without labels, to predict the representation of the
    future interval ``(t, t+Δt]`` from the representation ``h_t`` of the past,
    for cuts ``t`` and horizons ``Δt ~ LogUniform[1, max_horizon]`` drawn
    inside each window; the target comes from the same encoder run without
    causal mask plus attention pooling, and SIGReg (256 random directions,
    as in the paper) keeps the predictions from collapsing. The horizon
    predictor is an MLP of width ``d_model``, and the learning rate follows
    a cosine schedule. ``transform(X)`` returns ``h_t`` at each window's end.

    In a training batch, the tokens of all target intervals are packed
    without padding, and with ``cuts_per_window > 1`` and a context pass
    that cuts can share (``norm="global"`` or ``"none"``) the cuts of one
    window come in shuffled blocks of 8 that share one causal pass (each
    cut keeps its own (cut, Δt) draw); docs/speed.md gives the speed.

    The defaults, ``max_epochs=0`` (no pretraining) and ``norm="auto"``, beat
    0.1.0's pretrained RevIN encoder on the benchmark's validation units
    (docs/findings.md, "Choosing the defaults"); ``max_epochs=100`` pretrains.

    Parameters
    ----------
    %(patch_encoder_parameters)s
    tokens : {"patch", "channel"}, default="patch"
        ``"patch"``: one token per patch holding all channels of its steps
        (the paper). ``"channel"``: each channel is its own stream of patch
        tokens (a shared projection plus a learned channel embedding),
        encoded separately and averaged per patch position over the
        channels observed there, for data whose events show in a few
        channels (the paper's "sensor-as-token" outlook, after
        iTransformer and PatchTST). The JEPA objective is unchanged; the
        encoder costs about ``n_channels`` times more, and its target
        intervals are encoded in padded groups.
    norm : {"auto", "revin", "global", "regime", "none"}, default="auto"
        ``"revin"`` normalises each context by its own per-channel statistics;
        ``"global"`` uses per-channel statistics learned in ``fit`` (the
        C-MAPSS protocol, which keeps the absolute degradation level);
        ``"regime"`` finds operating regimes in ``fit`` from the channels
        themselves (:class:`~hepa_sklearn.preprocessing.RegimeNormalizer`
        with ``setting_channels=None, n_regimes="auto"``) and standardises
        each step by its regime's statistics, which removes the jumps between
        operating conditions and keeps the level within each; where it finds
        one regime it is ``"global"``. ``"auto"`` standardises per regime
        as ``"regime"`` does where regimes are found, then applies RevIN, and
        ``transform`` appends the window level RevIN removes (per channel the
        mean over the window and over its last 30 steps, standardised by the
        training windows'): ``d_model + 2 * n_channels`` columns. ``"none"`` feeds raw values.
        Regimes are found from the steps where every channel is observed;
        with too few of them (channels logged at different steps, a channel
        never observed) a ``RegimeWarning`` says so and one regime is used.
    max_horizon : int, default=150
        Largest Δt drawn in pretraining.
    sigreg_weight : float, default=0.1
        α in ``(1-α)·L1 + α·regulariser`` (SIGReg by default).
    regularizer : {"sigreg", "vicreg"}, default="sigreg"
        Collapse regulariser on the predictions: SIGReg (the paper) or a
        VICReg-style variance + covariance term (the authors' code).
    target : {"shared", "ema"}, default="shared"
        Target path: the context encoder's own weights, trained by both paths
        (the paper), or an EMA copy without gradient (momentum 0.996, as
        I-JEPA and the paper).
    cuts_per_window : int, default=1
        (cut, Δt) pairs drawn from each window per epoch. With one long
        window per unit this reproduces the reference protocol's "40 random
        cuts per sequence per epoch".
    %(pretraining_epochs)s
    %(training_optimiser)s
    early_stopping : bool or {"loss", "rank"}, default=True
        Hold out the last ``validation_fraction`` of the training windows
        (input order), or of the units when ``fit`` gets ``groups``, and
        stop when what this names has not improved for
        ``n_iter_no_change`` epochs, keeping the best weights: ``"loss"``
        (or True), their JEPA loss ``valid_loss`` (lower is better);
        ``"rank"``, the effective rank of their embeddings ``valid_rank``
        (higher is better). Both are recorded in ``history_``; neither
        needs labels. The user guide's "Does pretraining pay?" shows how
        each tracked the event predictor on C-MAPSS FD001. False trains
        ``max_epochs`` epochs.
    %(training_run)s

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
        ``train_sigreg`` (or ``train_vicreg``), ``valid_*`` and
        ``valid_rank`` with early stopping, ``train_spread`` (about 1 for
        well spread predictions, 0 at collapse) and ``collapse`` (True when
        the spread fell below 0.05, which also raises a RuntimeWarning).
    n_epochs_ : int
        Epochs that completed (fewer than ``max_epochs`` after early
        stopping).
    %(encoder_attributes)s

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAPretrainer
    >>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, max_horizon=16,
    ...                      random_state=0).fit(X)
    >>> pre.transform(X).shape  # d_model columns, then the level: 2 per channel
    (32, 22)
    """

    _parameter_constraints = {
        **WindowPretrainer._parameter_constraints,
        "tokens": [StrOptions(set(TOKEN_MODES))],
        "norm": [StrOptions({*NORM_MODES, *NET_NORM})],
        "max_horizon": [POSITIVE_INT],
        "sigreg_weight": [UNIT],
        "regularizer": [StrOptions({"sigreg", "vicreg"})],
        "target": [StrOptions({"shared", "ema"})],
        "cuts_per_window": [POSITIVE_INT],
        "early_stopping": ["boolean", StrOptions({"loss", "rank"})],
    }

    def __init__(
        self,
        *,
        # the encoder (paper §3.1)
        d_model=256, n_layers=2, n_heads=4, patch_size=16, dropout=0.1, tokens="patch", norm="auto",
        # the pretraining objective (paper §3.1)
        max_horizon=150, sigreg_weight=0.1, regularizer="sigreg", target="shared", cuts_per_window=1,
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=0, batch_size=64, lr=3e-4, weight_decay=1e-2, early_stopping=True, validation_fraction=0.1,
        n_iter_no_change=10, device="auto", precision="auto", random_state=None, verbose=0, callbacks=None,
    ):
        store_parameters(self, locals())

    # the torch module of the net: encoder, target path and predictor
    _module_class = JEPA

    def _training_config(self):
        return replace(super()._training_config(), early_stopping=bool(self.early_stopping))

    def _cut_block(self):
        """Cuts of one window that share a context pass in a training batch: ``CUT_BLOCK`` where they can."""
        return 1 if NET_NORM.get(self.norm, self.norm) == "revin" else CUT_BLOCK  # RevIN statistics depend on the cut

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        scores = [f"{part}_{term}" for part in ("train", "valid") for term in ("l1", self.regularizer)]
        callbacks = [("collapse_monitor", CollapseMonitor())]
        if self.target == "ema":
            callbacks.append(("target_ema", TargetEMA()))
        patch, horizon = self.patch_size, self.max_horizon
        return make_net(
            JEPANet,
            self._module_class,
            JEPACriterion,
            training=self._training_config(),
            params={
                "module__config": self._encoder_config(fitted["n_features_in_"], patch_size=patch, tokens=self.tokens),
                "module__max_horizon": horizon,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
                "module__target": self.target,
                "criterion__alpha": float(self.sigreg_weight),
                "criterion__regularizer": self.regularizer,
                "cut_block": self._cut_block(),
            },
            device=device,
            collate=(CutSampler(patch, horizon, seed), CutSampler(patch, horizon, seed, fixed=True)),
            extra_scores=(*scores, "train_spread"),
            callbacks=callbacks,
            scoring=[("valid_rank", HeldOutRank())],
            monitor=("valid_rank", False) if self.early_stopping == "rank" else ("valid_loss", True),
        )

    def _pretraining_data(self, X, groups):
        """Each window ``cuts_per_window`` times in a row; a window's unit label covers all of its pairs."""
        if self.max_epochs > 0:  # short windows matter only to pretraining
            check_pretrainable(X, self.patch_size)
        if groups is not None:
            groups = np.repeat(groups, self.cuts_per_window)  # item i of the dataset is window i // cuts_per_window
        return WindowDataset(X, self.cuts_per_window), groups

    @property
    def predictor_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.predictor

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
        sampler = CutSampler(self.patch_size, self.max_horizon, seed, fixed=True)
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
