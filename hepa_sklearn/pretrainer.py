"""HEPAPretrainer: self-supervised JEPA pretraining of the causal patch encoder, and the windows' embedding.

Everything the pretrainer does is here: ``fit`` (the four steps of
:class:`~hepa_sklearn._torch_estimator.TorchEstimator`: validate the
parameters, prepare the windows, build the JEPA net, train it), what it does
to windows outside its network (the standardisation by operating regime
before it, the window level beside its embedding), ``transform``, and the
held-out JEPA loss that scores an encoder without labels.
"""

import functools
import warnings

import numpy as np
import torch
from sklearn.base import TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._docs import fill_doc
from ._start_weights import start_from_source
from ._stats import RECENT_STEPS, nan_mean_std, window_level
from ._torch_estimator import FitPlan, TorchEstimator
from ._validation import (
    DEPRECATED,
    ENCODER_CONSTRAINTS,
    NON_NEGATIVE_INT,
    POSITIVE_INT,
    UNIT,
    Hidden,
    StrOptions,
    check_encoder_heads,
    check_groups,
    check_windows,
    renamed_from,
    window_transformer_tags,
)
from ._window_encoder import encoder_config
from .nn.encoder import NORM_MODES, TOKEN_MODES
from .nn.jepa import JEPA, TARGET_WEIGHTS
from .preprocessing import CHUNK, normalise_steps, window_regimes
from .training._callbacks import CollapseMonitor, HeldOutRank, TargetEMA
from .training._criteria import JEPACriterion
from .training._net import JEPANet, make_net
from .training._runtime import as_fp32, seeded_torch
from .training._sampling import CutSampler, WindowDataset
from .training._statistics import ENCODER_ATTRIBUTES, check_pretrainable, window_attributes

__all__ = ["HEPAPretrainer"]

# Cuts of one window per block of a batch that share one context pass: a 64-cut FD001 step on one CPU thread
# takes 205 ms with every cut drawn independently, 94 ms with blocks of 8, 91 ms with blocks of 32; 8 keeps
# batches spread over at least 8 windows.
CUT_BLOCK = 8

# the fitted attributes of the regime standardisation (None with regimes=None, or where one regime is found)
REGIME_ATTRIBUTES = ("regime_centers_", "regime_loc_", "regime_scale_")
# the fitted statistics of the window level (None with window_level=False)
LEVEL_ATTRIBUTES = ("level_loc_", "level_scale_")
# the window level's spans: the whole window (None), then its last RECENT_STEPS steps
LEVEL_SPANS = (None, RECENT_STEPS)
# what early stopping may watch on the held-out windows: their JEPA loss, or their embeddings' effective rank
VALIDATION_METRICS = ("loss", "rank")

# The values of norm that release 0.2.0 gave several effects, and the network normalisation each stands for
# now; the regime standardisation and the window level are their own parameters (removed in 0.4.0).
DEPRECATED_NORMS = {"auto": "revin", "regime": "global"}
DEPRECATED_NORM_READINGS = {
    "auto": 'norm="revin" with the defaults regimes="auto", window_level=True',
    "regime": 'norm="global", window_level=False (regimes="auto" is the default)',
}


def check_window_level(estimator):
    """ValueError for ``window_level=True`` beside 0.2.0's ``norm="regime"``, which stands for no level."""
    if estimator.norm == "regime" and estimator.window_level is True:
        raise ValueError(
            'window_level=True contradicts norm="regime", which stands for norm="global" with '
            'window_level=False (deprecated since 0.3.0); pass norm="global", window_level=True to append '
            "the window level."
        )


def check_validation_metric(estimator):
    """0.2.0's ``early_stopping="loss"`` or ``"rank"``: FutureWarning, or ValueError beside another metric."""
    given = estimator.early_stopping
    if not isinstance(given, str):
        return
    metric = estimator.validation_metric
    if metric not in ("loss", given):
        raise ValueError(
            f"early_stopping={given!r} and validation_metric={metric!r} name two things to watch; pass "
            f"early_stopping=True, validation_metric={metric!r}."
        )
    warnings.warn(
        f"early_stopping={given!r} is deprecated since 0.3.0 and will be removed in 0.5.0: early_stopping "
        "is a bool and validation_metric names what it watches; pass early_stopping=True, "
        f"validation_metric={given!r} instead.",
        FutureWarning,
        stacklevel=5,
    )


def early_stopping_as_metric(params):
    """Saved parameters with 0.2.0's ``early_stopping="loss"``/``"rank"``: True and that validation_metric."""
    if isinstance(params.get("early_stopping"), str):
        params = {**params, "early_stopping": True, "validation_metric": params["early_stopping"]}
    return params


def regime_without_level(params):
    """Saved parameters with 0.2.0's ``norm="regime"`` beside ``window_level=True`` (no level): "auto"."""
    if params.get("norm") == "regime" and params.get("window_level") is True:
        params = {**params, "window_level": "auto"}
    return params


def standardise_by(X, regimes):
    """Checked windows ``X`` standardised by ``regimes`` (the fitted attributes); ``X`` if there are none."""
    if regimes["regime_centers_"] is None:
        return X
    channels = np.arange(X.shape[1])
    loc, scale = regimes["regime_loc_"], regimes["regime_scale_"]
    out = np.empty(X.shape, dtype=np.float32)
    for start in range(0, X.shape[0], CHUNK):
        out[start : start + CHUNK] = normalise_steps(
            X[start : start + CHUNK].astype(np.float64),
            channels,
            channels,
            loc[-1],
            scale[-1],
            regimes["regime_centers_"],
            loc,
            scale,
        )[0]
    return out


def pretrainer_level(X):
    """HEPAPretrainer's window level of windows ``X``: each channel's mean over the window, then over its end.

    What :meth:`HEPAPretrainer.level_features` returns, and what
    :class:`~hepa_sklearn.nn.WindowLevel` computes inside the networks that
    read the level themselves (the finetuner's, the exported graph).
    """
    return window_level(X, spans=LEVEL_SPANS, spread=False, slope=False)


@fill_doc
class HEPAPretrainer(TransformerMixin, TorchEstimator):
    """Pretrain a causal patch Transformer by JEPA and embed windows.

    ``fit(X)`` learns, without labels, to predict the representation of the
    future interval ``(t, t+Δt]`` from the representation ``h_t`` of the past,
    for cuts ``t`` and horizons ``Δt ~ LogUniform[1, K]`` drawn
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

    The defaults, ``max_epochs=0`` (no pretraining), ``regimes="auto"``,
    ``norm="revin"`` and ``window_level=True``, beat 0.1.0's pretrained
    RevIN encoder on the benchmark's validation units (docs/findings.md,
    "Choosing the defaults"); ``max_epochs=100`` pretrains, and
    ``regimes=None, window_level=False`` gives 0.1.0's input.

    Parameters
    ----------
    %(encoder_parameters)s
    patch_size : int, default=16
        Steps per token (all channels of those steps form one token).
    dropout : float, default=0.1
    tokens : {"patch", "channel", "univariate"}, default="patch"
        ``"patch"``: one token per patch holding all channels of its steps
        (the paper). ``"channel"``: each channel is its own stream of patch
        tokens (a shared projection plus a learned channel embedding),
        encoded separately and averaged per patch position over the
        channels observed there, for data whose events show in a few
        channels (the paper's "sensor-as-token" outlook, after
        iTransformer and PatchTST). The JEPA objective is unchanged; the
        encoder costs about ``n_channels`` times more, and its target
        intervals are encoded in padded groups. ``"univariate"``: as
        ``"channel"`` without the channel embedding, so every channel is
        read alike and the weights fit windows of any number of channels
        (one encoder for several datasets, see ``init_from``).
    norm : {"revin", "global", "none"}, default="revin"
        The network's own normalisation of its input (after ``regimes``):
        ``"revin"`` normalises each context by its own per-channel
        statistics (RevIN), which removes each window's level;
        ``"global"`` uses per-channel statistics learned in ``fit`` (the
        C-MAPSS protocol, which keeps the absolute degradation level);
        ``"none"`` feeds the values as they are. It leaves the output
        width alone.

        .. deprecated:: 0.3.0
            ``"auto"`` (read as ``"revin"``) and ``"regime"`` (read as
            ``"global"`` with ``window_level=False``) are removed in 0.4.0;
            the regime standardisation and the window level they stood for
            are ``regimes`` and ``window_level``.
    regimes : "auto", int or None, default="auto"
        Standardise each step by its operating regime before the network:
        ``fit`` finds regimes from the channels themselves
        (:class:`~hepa_sklearn.preprocessing.RegimeNormalizer` with
        ``setting_channels=None``), ``"auto"`` choosing their number from
        the data and an int fixing it, and each step takes the statistics
        of its regime, which removes the jumps between operating
        conditions and keeps the level within each
        (:meth:`standardise_by_regime`). Where one regime is found the
        windows pass unchanged; None never looks for regimes. Regimes are
        found from the steps where every channel is observed; with too few
        of them (channels logged at different steps, a channel never
        observed) a ``RegimeWarning`` says so and one regime is used. It
        leaves the output width alone.
    window_level : bool or "auto", default="auto"
        Append the window level to the embedding: per channel, the mean
        over the window and over its last 30 steps (of the
        regime-standardised window), standardised by the training
        windows' statistics (:meth:`level_features`). RevIN takes each
        window's level out of the embedding; this passes it on beside it.
        It widens ``transform``'s output from ``d_model`` to ``d_model +
        2 * n_channels`` columns (:meth:`get_feature_names_out` names
        them); an event predictor fitted on it, unlike one fitted on
        ``h_t`` alone, cannot start from the pretrainer's predictor
        (``init_from``). ``"auto"`` appends it with every ``norm`` but
        the deprecated ``"regime"``, which stands for
        ``window_level=False``; True with ``norm="regime"`` raises a
        ValueError.
    K : int, default=150
        Largest Δt drawn in pretraining: the horizons are ``Δt = 1..K``,
        the axis of the event surface of
        :class:`~hepa_sklearn.HEPAEventPredictor` and its ``K``.
    regularizer_weight : float, default=0.1
        α in ``(1-α)·L1 + α·regulariser``: the weight of ``regularizer``,
        SIGReg or VICReg.
    regularizer : {"sigreg", "vicreg"}, default="sigreg"
        Collapse regulariser on the predictions: SIGReg (the paper) or a
        VICReg-style variance + covariance term (the authors' code).
    target_weights : {"shared", "ema"}, default="shared"
        The weights of the target path: the context encoder's own, trained
        by both paths (the paper), or an EMA copy of them without gradient
        (momentum 0.996, as I-JEPA and the paper).
    cuts_per_window : int, default=1
        (cut, Δt) pairs drawn from each window per epoch. With one long
        window per unit this reproduces the reference protocol's "40 random
        cuts per sequence per epoch".
    init_from : HEPAPretrainer, FrozenEstimator, str, path-like or None, default=None
        Start from a fitted pretrainer's weights: the pretrainer, one in a
        ``sklearn.frozen.FrozenEstimator`` (which ``sklearn.clone`` leaves
        fitted, as grid searches need), or the path of one written by
        :func:`hepa_sklearn.persistence.save`. The net starts from all of
        its weights but the per-channel statistics. Its architecture
        (``d_model``, ``n_layers``, ``n_heads``, ``patch_size``,
        ``tokens``, ``K``, ``target_weights``) must be this one's, and
        its channel count too unless ``tokens="univariate"``. ``fit`` still
        learns this data's statistics (regimes, window level, the channel
        statistics of ``norm="global"``); with ``max_epochs=0`` the encoder
        is the source's, with ``max_epochs > 0`` pretraining continues from
        it on ``X``. Not stored by :func:`~hepa_sklearn.persistence.save`
        (the fitted weights hold it).
    max_epochs : int, default=0
        Training epochs; fewer when early stopping ends training. 0 trains
        nothing, the untrained-encoder control: ``fit`` checks the windows,
        learns the statistics of ``norm`` and keeps the encoder at the
        initial weights that training with the same ``random_state`` starts
        from (``n_epochs_`` is 0 and ``history_`` has no epoch).
    %(training_optimiser)s
    early_stopping : bool, default=True
        Hold out the last ``validation_fraction`` of the training windows
        (input order), or of the units when ``fit`` gets ``groups``, and
        stop when their ``validation_metric`` has not improved for
        ``n_iter_no_change`` epochs, keeping the best weights. False
        trains ``max_epochs`` epochs.

        .. deprecated:: 0.3.0
            ``"loss"`` and ``"rank"``, which named what is watched, are
            ``early_stopping=True`` with that ``validation_metric``; they
            are removed in 0.5.0.
    validation_metric : {"loss", "rank"}, default="loss"
        What early stopping watches on the held-out windows: ``"loss"``,
        their JEPA loss ``valid_loss`` (lower is better); ``"rank"``, the
        effective rank of their embeddings ``valid_rank`` (higher is
        better). Both are recorded in ``history_``; neither needs labels.
        The user guide's "Does pretraining pay?" shows how each tracked
        the event predictor on C-MAPSS FD001.
    %(training_run)s
    max_horizon : int, default="deprecated"
        .. deprecated:: 0.3.0
            Renamed ``K``; removed in 0.5.0.
    sigreg_weight : float, default="deprecated"
        .. deprecated:: 0.3.0
            Renamed ``regularizer_weight``, as it weights VICReg too;
            removed in 0.5.0.
    target : {"shared", "ema"}, default="deprecated"
        .. deprecated:: 0.3.0
            Renamed ``target_weights``; removed in 0.5.0.

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
    regime_centers_ : ndarray of shape (n_regimes, n_channels) or None
        The regime centres in globally standardised channels; None where
        no regimes were looked for (``regimes=None``) or one was found.
    regime_loc_, regime_scale_ : ndarray of shape (n_regimes + 1, n_channels) or None
        Each regime's channel statistics, the last row the global ones
        (for steps with a missing channel); None as ``regime_centers_``.
    level_loc_, level_scale_ : ndarray of shape (2 * n_channels,) or None
        The mean and standard deviation of :meth:`level_features` on the
        training windows, which standardise the window level; None with
        ``window_level=False``.
    %(encoder_attributes)s

    Examples
    --------
    >>> import numpy as np
    >>> from hepa_sklearn import HEPAPretrainer
    >>> X = np.random.default_rng(0).normal(size=(32, 3, 64)).astype("float32")
    >>> pre = HEPAPretrainer(d_model=16, n_heads=2, max_epochs=1, K=16,
    ...                      random_state=0).fit(X)
    >>> pre.transform(X).shape  # d_model columns, then the level: 2 per channel
    (32, 22)
    >>> pre.get_feature_names_out()[-2:].tolist()
    ['mean30_x1', 'mean30_x2']
    >>> HEPAPretrainer(d_model=16, n_heads=2, regimes=None, window_level=False,
    ...                random_state=0).fit(X).transform(X).shape  # h_t alone
    (32, 16)
    """

    _parameter_constraints = {
        **TorchEstimator._parameter_constraints,
        **ENCODER_CONSTRAINTS,
        "max_epochs": [NON_NEGATIVE_INT],
        "tokens": [StrOptions(set(TOKEN_MODES))],
        "norm": [StrOptions({*NORM_MODES, *DEPRECATED_NORMS}, deprecated=set(DEPRECATED_NORMS))],
        "regimes": [StrOptions({"auto"}), POSITIVE_INT, None],
        "window_level": ["boolean", StrOptions({"auto"})],
        "K": [POSITIVE_INT],
        "regularizer_weight": [UNIT],
        "regularizer": [StrOptions({"sigreg", "vicreg"})],
        "target_weights": [StrOptions(set(TARGET_WEIGHTS))],
        "cuts_per_window": [POSITIVE_INT],
        "init_from": "no_validation",  # checked in fit (source_pretrainer), where the source is read
        # 0.2.0's "loss" and "rank" named what is watched, now validation_metric (removed in 0.5.0)
        "early_stopping": ["boolean", Hidden(StrOptions(set(VALIDATION_METRICS)))],
        "validation_metric": [StrOptions(set(VALIDATION_METRICS))],
        "max_horizon": renamed_from([POSITIVE_INT]),
        "sigreg_weight": renamed_from([UNIT]),
        "target": renamed_from([StrOptions(set(TARGET_WEIGHTS))]),
    }
    _parameter_checks = (check_encoder_heads, check_window_level, check_validation_metric)
    _renamed_parameters = {
        "max_horizon": ("K", "0.3.0", "0.5.0"),
        "sigreg_weight": ("regularizer_weight", "0.3.0", "0.5.0"),
        "target": ("target_weights", "0.3.0", "0.5.0"),
    }
    _former_spellings = (early_stopping_as_metric, regime_without_level)

    def __init__(
        self,
        *,
        # the encoder (paper §3.1)
        d_model=256,
        n_layers=2,
        n_heads=4,
        patch_size=16,
        dropout=0.1,
        tokens="patch",
        # the input: standardised by regime, normalised by the network, its level beside the embedding
        norm="revin",
        regimes="auto",
        window_level="auto",
        # the pretraining objective (paper §3.1)
        K=150,
        regularizer_weight=0.1,
        regularizer="sigreg",
        target_weights="shared",
        cuts_per_window=1,
        # where the weights start: a fitted pretrainer or its file
        init_from=None,
        # training, as every torch-backed estimator (see TorchEstimator)
        max_epochs=0,
        batch_size=64,
        lr=3e-4,
        weight_decay=1e-2,
        early_stopping=True,
        validation_metric="loss",
        validation_fraction=0.1,
        n_iter_no_change=10,
        device="auto",
        precision="auto",
        random_state=None,
        verbose=0,
        callbacks=None,
        # former names (deprecated in 0.3.0, removed in 0.5.0)
        max_horizon=DEPRECATED,
        sigreg_weight=DEPRECATED,
        target=DEPRECATED,
    ):
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.patch_size = patch_size
        self.dropout = dropout
        self.tokens = tokens
        self.norm = norm
        self.regimes = regimes
        self.window_level = window_level
        self.K = K
        self.regularizer_weight = regularizer_weight
        self.regularizer = regularizer
        self.target_weights = target_weights
        self.cuts_per_window = cuts_per_window
        self.init_from = init_from
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.lr = lr
        self.weight_decay = weight_decay
        self.early_stopping = early_stopping
        self.validation_metric = validation_metric
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.device = device
        self.precision = precision
        self.random_state = random_state
        self.verbose = verbose
        self.callbacks = callbacks
        self.max_horizon = max_horizon
        self.sigreg_weight = sigreg_weight
        self.target = target

    _fitted_attributes = (*ENCODER_ATTRIBUTES, *REGIME_ATTRIBUTES, *LEVEL_ATTRIBUTES)
    _transient_parameters = ("init_from", "callbacks")
    _check_input = check_windows

    #: The torch module of the net (encoder, target path and predictor); a
    #: subclass may name a :class:`~hepa_sklearn.nn.JEPA` subclass that
    #: encodes the targets another way.
    module_class = JEPA

    # -- fit and transform --------------------------------------------------------------------

    @fill_doc
    def fit(self, X, y=None, groups=None):
        """Pretrain on windows ``X`` (n_windows, n_channels, n_timepoints); ``y`` is ignored.

        The parameters are validated, the windows checked and prepared
        (standardised by regime; the statistics of ``norm`` and of the
        window level learned), the JEPA net built and trained for up to
        ``max_epochs`` epochs.

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
        return super().fit(X, y, groups)

    def fit_transform(self, X, y=None, groups=None):
        """Fit on windows ``X``, then embed them: ``fit(X, y, groups).transform(X)``, reading ``X`` once.

        The windows are checked and standardised by regime once, for the fit
        and the embedding alike, so a pipeline's ``fit`` holds one copy of
        them. A subclass that overrides :meth:`transform` overrides this
        method too.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.
        y : None
            Ignored.
        groups : array-like of shape (n_windows,), default=None
            As in :meth:`fit`.

        Returns
        -------
        E : ndarray of shape (n_windows, n_features_out), float32
            As :meth:`transform` returns.
        """
        self._check_parameters()
        plan = self._prepare_fit(X, y, groups)
        net, run = self._build(plan)
        self._train(net, plan, run)
        return self._embed(plan.data.X.numpy())  # the windows as the network read them in fit

    def transform(self, X):
        """Embed windows ``X``; with ``window_level`` the window level follows the embedding.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            2-D ``X`` is read as single-channel windows. NaN marks missing
            values and left padding.

        Returns
        -------
        E : ndarray of shape (n_windows, n_features_out), float32
            ``h_t`` at each window's end (``d_model`` columns), then, with
            ``window_level``, the :meth:`level_features` standardised by
            the training windows' statistics, 0 where a channel is not
            observed (``2 * n_channels`` columns); see
            :meth:`get_feature_names_out`.
        """
        return self._embed(self.standardise_by_regime(X))

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns of :meth:`transform`.

        ``hepapretrainer0`` ... ``hepapretrainer{d_model - 1}`` for the
        embedding, then with ``window_level`` ``mean_x{c}`` and
        ``mean30_x{c}`` for each channel ``c`` (a subclass whose
        :meth:`level_features` returns another number of columns than two
        per channel numbers them ``level{j}``).

        Parameters
        ----------
        input_features : None
            Ignored; the channels are named ``x0``, ``x1``, ...

        Returns
        -------
        names : ndarray of shape (n_features_out,), dtype object
        """
        check_is_fitted(self, "net_")
        prefix = type(self).__name__.lower()
        names = [f"{prefix}{i}" for i in range(self.d_model)]
        if self.level_loc_ is not None:
            if self.level_loc_.shape[0] == len(LEVEL_SPANS) * self.n_features_in_:
                channels = [f"x{c}" for c in range(self.n_features_in_)]
                kinds = ("mean", f"mean{RECENT_STEPS}")
                names += [f"{kind}_{channel}" for kind in kinds for channel in channels]
            else:
                names += [f"level{j}" for j in range(self.level_loc_.shape[0])]
        return np.asarray(names, dtype=object)

    @property
    def _n_features_out(self):
        return self.d_model + (0 if self.level_loc_ is None else self.level_loc_.shape[0])

    # -- the steps of fit: the windows prepared, the net built --------------------------------

    def _prepare_fit(self, X, y, groups):
        """The windows checked and prepared for pretraining: the fitted attributes and the (cut, Δt) dataset.

        The windows are standardised by the regimes found in them
        (``regimes``; one regime found is no regime), and the window level's
        statistics learned from the standardised windows (``window_level``),
        as those of ``norm``. Each window enters the dataset
        ``cuts_per_window`` times in a row, its unit label covering all of
        its pairs. With ``init_from`` the net starts from its source's
        weights. ``y`` is ignored.
        """
        X = check_windows(self, X, reset=True)
        groups = check_groups(groups, X.shape[0])
        if self.norm in DEPRECATED_NORMS:
            warnings.warn(
                f"norm={self.norm!r} is deprecated since 0.3.0 and will be removed in 0.4.0: norm sets the "
                f"network's normalisation alone, and the regime standardisation and the window level are the "
                f"parameters regimes and window_level. norm={self.norm!r} reads as "
                f"{DEPRECATED_NORM_READINGS[self.norm]}; pass those to keep this behaviour without the "
                "warning.",
                FutureWarning,
                stacklevel=4,
            )
        found = None if self.regimes is None else window_regimes(X, self._torch_seed(), self.regimes)
        if found is None:
            regimes = dict.fromkeys(REGIME_ATTRIBUTES)
        else:
            regimes = dict(zip(REGIME_ATTRIBUTES, found, strict=True))
        X = standardise_by(X, regimes)
        level = dict.fromkeys(LEVEL_ATTRIBUTES)
        if self._appends_level():
            loc, scale, _ = nan_mean_std(self.level_features(X), axis=0)
            level = {"level_loc_": np.nan_to_num(loc), "level_scale_": np.where(scale > 0, scale, 1.0)}
        if self.max_epochs > 0:  # short windows matter only to pretraining
            check_pretrainable(X, self.patch_size)
        if groups is not None:
            # item i of the dataset is window i // cuts_per_window
            groups = np.repeat(groups, self.cuts_per_window)
        fitted = {**window_attributes(X, self._network_norm()), **regimes, **level}
        start = None if self.init_from is None else functools.partial(start_from_source, estimator=self)
        return FitPlan(fitted, WindowDataset(X, self.cuts_per_window), groups=groups, initial_weights=start)

    def _build_net(self, fitted, device, seed):
        """The untrained skorch net for windows of ``fitted["n_features_in_"]`` channels."""
        scores = [f"{part}_{term}" for part in ("train", "valid") for term in ("l1", self.regularizer)]
        callbacks = [("collapse_monitor", CollapseMonitor())]
        target_weights = self._parameter("target_weights")
        if target_weights == "ema":
            callbacks.append(("target_ema", TargetEMA()))
        patch, K = self.patch_size, self._parameter("K")
        return make_net(
            JEPANet,
            self.module_class,
            JEPACriterion,
            training=self._training_config(),
            params={
                "module__config": self._encoder_config(fitted["n_features_in_"], patch_size=patch, tokens=self.tokens),
                "module__K": K,
                "module__channel_loc": fitted["channel_loc_"],
                "module__channel_scale": fitted["channel_scale_"],
                "module__target_weights": target_weights,
                "criterion__regularizer_weight": float(self._parameter("regularizer_weight")),
                "criterion__regularizer": self.regularizer,
                "cut_block": self.cut_block(),
            },
            device=device,
            collate=(CutSampler(patch, K, seed), CutSampler(patch, K, seed, fixed=True)),
            extra_scores=(*scores, "train_spread"),
            callbacks=callbacks,
            scoring=[("valid_rank", HeldOutRank())],
            monitor=("valid_rank", False) if self._validation_metric() == "rank" else ("valid_loss", True),
        )

    def _network_norm(self):
        """The network's own normalisation: ``norm``, a deprecated value read as what it stands for."""
        return DEPRECATED_NORMS.get(self.norm, self.norm)

    def _appends_level(self):
        """Whether ``fit`` learns the window level: ``window_level``; ``"auto"`` unless ``norm="regime"``."""
        if self.window_level == "auto":
            return self.norm != "regime"  # 0.2.0's norm="regime" never appended one
        return bool(self.window_level)

    def _validation_metric(self):
        """What early stopping watches: ``validation_metric``, or 0.2.0's ``early_stopping="rank"``..."""
        return self.early_stopping if isinstance(self.early_stopping, str) else self.validation_metric

    def _encoder_config(self, n_channels, **settings):
        """The encoder configuration for ``n_channels`` channels; ``settings`` gives the other fields
        (``patch_size``...)."""
        return encoder_config(self, n_channels, self._network_norm(), **settings)

    def cut_block(self):
        """Cuts of one window that share a context pass in a training batch: ``CUT_BLOCK`` where they can.

        The hook of the batch layout: a subclass returning 1 draws every
        (cut, Δt) item of a batch independently, each with its own context
        pass.

        Returns
        -------
        n_cuts : int
            1 under RevIN (its statistics depend on the cut), else 8.
        """
        return 1 if self._network_norm() == "revin" else CUT_BLOCK  # RevIN statistics depend on the cut

    # -- the windows outside the network: the regime standardisation and the window level -------

    def standardise_by_regime(self, X):
        """Windows ``X`` with each step standardised by its operating regime, as the network reads them.

        A step belongs to the regime whose centre is nearest to its
        globally standardised channels, and takes that regime's per-channel
        statistics; a step with a missing channel takes the global ones.
        Where ``fit`` found no regimes (``regimes=None``, or a single
        regime) the windows come back as they are.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_channels, n_timepoints)
            NaN marks missing values and left padding; they stay NaN.

        Returns
        -------
        X_standardised : ndarray of shape (n_windows, n_channels, n_timepoints), float32
        """
        X = self._validated_input(X)  # NotFittedError first when unfitted
        return standardise_by(X, {name: getattr(self, name) for name in REGIME_ATTRIBUTES})

    def level_features(self, X):
        """The window level before its standardisation: per channel the mean over the window and over its end.

        What ``window_level=True`` passes beside the embedding, which RevIN
        takes out of it: for each channel, the mean of its observed values
        over the whole window, then over the window's last 30 steps. ``fit``
        learns the mean and standard deviation of these columns on the
        training windows, and ``transform`` appends them standardised by
        those (0 where a channel is not observed). A subclass may override
        this method to pass other statistics (:mod:`hepa_sklearn.export`
        exports HEPAPretrainer itself, with this level, not a subclass).

        Parameters
        ----------
        X : ndarray of shape (n_windows, n_channels, n_timepoints)
            Windows as the network reads them
            (:meth:`standardise_by_regime`); NaN where missing.

        Returns
        -------
        level : ndarray of shape (n_windows, 2 * n_channels), float64
            The means over the window for every channel, then those over
            its last 30 steps; NaN where a channel has no observed value.
        """
        return pretrainer_level(X)

    def _embed(self, X):
        """:meth:`transform` of windows ``X`` that are checked and standardised by regime already."""
        E = self._infer(X, "transform", forward=lambda module: module.embed)
        if self.level_loc_ is None:
            return E
        level = np.nan_to_num((self.level_features(X) - self.level_loc_) / self.level_scale_)
        return np.hstack([E, level.astype(np.float32)])

    # -- the held-out JEPA loss: label-free scoring of encoders --------------------------------

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
        X = self.standardise_by_regime(X)
        repeats = self.cuts_per_window if cuts_per_window is None else cuts_per_window
        if not isinstance(repeats, int) or isinstance(repeats, bool) or repeats < 1:
            raise ValueError(f"cuts_per_window must be an int >= 1, got {repeats!r}.")
        net, criterion = self.net_, self.net_.criterion_
        sampler = CutSampler(self.patch_size, self._parameter("K"), seed, fixed=True)
        dataset = WindowDataset(X, repeats)
        device = next(net.module_.parameters()).device
        net.module_.eval()
        sums, total = {}, 0.0
        with torch.no_grad(), seeded_torch(seed, device):  # SIGReg draws its directions from torch
            for start in range(0, len(dataset), self.batch_size):
                stop = min(start + self.batch_size, len(dataset))
                inputs, _ = sampler([dataset[i] for i in range(start, stop)])
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

    # -- the fitted modules, the tags ------------------------------------------------------------

    @property
    def encoder_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.encoder

    @property
    def predictor_(self):
        check_is_fitted(self, "net_")
        return self.net_.module_.predictor

    def __sklearn_tags__(self):
        return window_transformer_tags(super().__sklearn_tags__())
